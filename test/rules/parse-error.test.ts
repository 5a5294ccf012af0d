import { expectFindings, expectNoFindings, findings, lintWorkspace } from '../helpers/rule-tester';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { Workspace } from '../../server/src/engine/workspace';
import { strict as assert } from 'node:assert';
import { codeFrontEnd, lintCode } from '../code/helpers';

const RULE = 'parse-error';

describe(`rule ${RULE}`, () => {
  it('reports an unreadable statement at the unexpected token, naming it', () => {
    expectFindings({ 'broken.sql': 'CREATE TABLE T (A INT);\nCREATE INDEX I ON T A);\n' }, RULE, [
      { line: 2, column: 21, endColumn: 22, severity: 'information', message: /^InsertLint could not read this statement: Unexpected 'A' in CREATE INDEX/ },
    ]);
  });

  it('stays quiet on readable SQL', () => {
    expectNoFindings({ 'ok.sql': 'CREATE TABLE T (A INT);\nINSERT INTO T VALUES (1);\n' }, RULE);
  });

  it("reports another database's SQL on each statement, and once for a file with three or more", () => {
    const oracle = (n: number) => Array.from({ length: n }, (_, i) => `ALTER TABLE T${i} ADD (C INT);`).join('\n') + '\n';
    expectFindings({ 'two.sql': oracle(2) }, RULE, [
      { line: 1, column: 16, message: /^Not Db2 SQL: ALTER TABLE … ADD \(column …\) is Oracle or Informix syntax/ },
      { line: 2, column: 16, message: /^Not Db2 SQL: ALTER TABLE … ADD \(column …\)/ },
    ]);
    expectFindings({ 'ora.sql': 'CREATE TABLE T0 (A INT);\n' + oracle(4) }, RULE, [
      { line: 2, column: 16, message: /^Not Db2 SQL: 4 statements of this file \(lines 2–5\) are written for another database\. The first: ALTER TABLE … ADD \(column …\) is Oracle or Informix syntax/ },
    ]);
  });

  it('gives Db2\'s form for a known mistake (a rename inside MODIFY), once for the same mistake repeated, and asks for no report', () => {
    // Spring Batch's 5.0 Db2 migration renames and retypes three columns this way.
    const modify = (n: number) => Array.from({ length: n }, (_, i) => `ALTER TABLE T MODIFY COLUMN C${i} D${i} VARCHAR(100);`).join('\n') + '\n';
    const [one] = expectFindings({ 'one.sql': modify(1) }, RULE, [
      { line: 1, column: 15, severity: 'information', message: /^Db2 rejects this statement: ALTER TABLE … MODIFY COLUMN old new type is a rename and a new type in one clause.*Db2 writes ALTER TABLE t RENAME COLUMN old TO new, then ALTER TABLE t ALTER COLUMN new SET DATA TYPE type\.$/ },
    ]);
    assert.doesNotMatch(one.message, /please report/);
    expectFindings({ 'three.sql': modify(3) }, RULE, [{ line: 1, column: 15, message: /^Db2 rejects 3 statements of this file \(lines 1–3\) as written\. The same mistake in each: ALTER TABLE … MODIFY COLUMN old new type/ }]);
  });
});

describe(`rule ${RULE}: statements run together`, () => {
  const script = 'CREATE TABLE X (A INT)@\nINSERT INTO X VALUES (1)@\n';

  it('says the configured terminator disagrees with the lines when one is set (no word about inferring it)', () => {
    expectFindings({ 'load.sql': script }, RULE, [{ line: 2, column: 1, message: /This file is read with the terminator # that the configuration sets \(--terminator or "terminator" in \.insertlintrc\.json\), while its lines end in @: is that setting meant for this file\?$/ }], { config: { terminator: '#' } });
  });

  it('offers one command per line (db2 without -t) only where the statement before is one line', () => {
    // quartz's tables_db2.sql: multi-line CREATE TABLEs with no terminator at all; a newline terminator would cut them.
    const [multi] = expectFindings({ 'tables.sql': 'create table a (\n  x int\n)\n\ncreate table b (\n  y int\n)\n' }, RULE, [{ line: 5, column: 1, message: /^Statements run together: .*End the statement before this line\.$/ }]);
    assert.doesNotMatch(multi.message, /newline/);
    expectFindings({ 'lines.sql': 'INSERT INTO T VALUES (1);\nINSERT INTO T VALUES (2)\nINSERT INTO T VALUES (3);\nINSERT INTO T VALUES (4);\n' }, RULE, [{ line: 3, column: 1, message: /End the statement before this line \(or, for db2 without -t, set "terminator": "newline" in \.insertlintrc\.json\)\.$/ }]);
  });
});

describe(`rule ${RULE}: a routine in a script run with db2 -t`, () => {
  const lines = (...l: string[]) => l.join('\n') + '\n';
  const procedure = [
    'CREATE TABLE APP.EVT2 (ID INT NOT NULL, TXT VARCHAR(100));',
    'CREATE PROCEDURE APP.FILL2 (IN N INT)',
    'LANGUAGE SQL',
    'BEGIN',
    '  DECLARE I INT DEFAULT 0;',
    '  WHILE I < N DO',
    "    INSERT INTO APP.EVT2 VALUES (I, 'x');",
    '    SET I = I + 1;',
    '  END WHILE;',
    'END;',
  ];

  it("says the CLP cuts a procedure at the first ';' of its body when a comment names db2 -tvf, and keeps its analysis", () => {
    const [finding] = expectFindings({ 'semi.sql': lines('-- run with: db2 -tvf semi.sql', ...procedure) }, RULE, [
      {
        line: 3,
        column: 1,
        endLine: 3,
        endColumn: 27,
        severity: 'information',
        message:
          "The CLP ends CREATE PROCEDURE APP.FILL2 at the first ';' of its body (line 6). The comment at line 1 says this script is run with `db2 -tvf`, where ';' ends every statement: Db2 rejects the part up to it (SQL0104N), and the rest of the body runs as statements of their own. Run the script with -td@ and end each statement with @ (the script's other statements too), or put `--#SET TERMINATOR @` before the routine and `--#SET TERMINATOR ;` after it.",
      },
    ]);
    assert.ok(finding);
    // The routine's own findings stay (its loop inserts one row per pass).
    const all = lintWorkspace({ 'semi.sql': lines('-- run with: db2 -tvf semi.sql', ...procedure) }).findings;
    assert.ok(all.some((f) => f.rule === 'single-row-insert' && f.line === 8), all.map((f) => `${f.rule}:${f.line}`).join(' '));
    // Other spellings of the command, after other comment lines.
    expectFindings({ 'b.sql': lines('-- Setup', '/* EXECUTION: db2 -x -t -v -f b.sql */', ...procedure) }, RULE, [{ line: 4, column: 1, message: /^The CLP ends CREATE PROCEDURE APP\.FILL2 at the first ';' of its body \(line 7\)\. The comment at line 2 says this script is run with `db2 -x -t -v -f`/ }]);
  });

  it('says so for a trigger with BEGIN ATOMIC … END;, and once for several, on the first', () => {
    const trigger = ['CREATE TRIGGER APP.TR1 AFTER INSERT ON APP.EVT2', 'REFERENCING NEW AS N FOR EACH ROW', 'BEGIN ATOMIC', '  INSERT INTO APP.LOG VALUES (N.ID);', 'END;'];
    expectFindings({ 'trg.sql': lines('-- db2 -stvf trg.sql', ...trigger) }, RULE, [{ line: 2, column: 1, endColumn: 23, message: /^The CLP ends CREATE TRIGGER APP\.TR1 at the first ';' of its body \(line 5\)\. .*before the trigger and/ }]);
    const [several] = expectFindings({ 'both.sql': lines('-- db2 -tvf both.sql', ...procedure, ...trigger) }, RULE, [
      { line: 3, column: 1, message: /^The CLP ends CREATE PROCEDURE APP\.FILL2 at the first ';' of its body \(line 6\)\. The comment at line 1 .* This file holds 2 such routines, triggers or blocks \(lines 3–16\)\. .*before each of them/ },
    ]);
    assert.deepEqual(several.extentLines, { line: 3, endLine: 16 });
  });

  it("says nothing without such a comment, with -td@, with --#SET TERMINATOR @ around the routine, or for a body without ';'", () => {
    // No comment: read whole, as Flyway, Liquibase and JDBC send it.
    expectNoFindings({ 'plain.sql': lines(...procedure) }, RULE);
    expectNoFindings({ 'td.sql': lines('-- run with: db2 -td@ -vf x.sql', ...procedure.map((l) => l.replace(/;$/, '@').replace(/^(\s+.*)@$/, '$1;'))) }, RULE);
    expectNoFindings({ 'set.sql': lines('-- run with: db2 -tvf x.sql', procedure[0], '--#SET TERMINATOR @', ...procedure.slice(1, -1), 'END@', '--#SET TERMINATOR ;', 'COMMIT;') }, RULE);
    expectNoFindings({ 'single.sql': lines('-- db2 -tvf single.sql', 'CREATE FUNCTION APP.ONE () RETURNS INT RETURN 1;', 'CREATE PROCEDURE APP.NOP () BEGIN END;', 'CREATE TRIGGER APP.TR2 AFTER INSERT ON APP.EVT2 FOR EACH ROW INSERT INTO APP.LOG VALUES (1);') }, RULE);
    // A comment that runs another file with -tvf and names -td@ for this one (this one then reads as run together).
    const other = findings({ 'other.sql': lines('-- run setup.sql with db2 -tvf setup.sql, then this one with db2 -td@ -vf other.sql', ...procedure) }, RULE);
    assert.ok(!other.some((f) => /says this script is run with/.test(f.message)), other.map((f) => f.message).join('\n'));
    // Nor a comment that only says how another file is run: this one, a routine ending the file without '@', is run with -td@.
    const routine = [...procedure.slice(1, -1), 'END'];
    expectNoFindings({ 'procs.sql': lines('-- run tables.sql first: db2 -tvf tables.sql', ...routine) }, RULE);
    expectNoFindings({ 'procs.sql': lines('/* Setup: db2 -stvf ../ddl/tables.sql', '   then db2 -vtd@ -f procs.sql */', ...routine) }, RULE);
    expectFindings({ 'procs.sql': lines('-- run tables.sql first: db2 -tvf tables.sql', '-- then this one: db2 -tvf procs.sql', ...routine) }, RULE, [{ line: 3, column: 1, message: /The comment at line 2 says this script is run with `db2 -tvf`/ }]);
  });

  it('follows edits in the editor: the finding comes with the comment and goes with it', () => {
    const workspace = new Workspace(resolveConfig(allRules()));
    const path = '/w/e.sql';
    const cut = () => workspace.diagnostics(path).filter((d) => d.rule === RULE && /says this script is run with `db2 -tvf`/.test(d.message)).length;
    workspace.setFile(path, lines(...procedure));
    assert.equal(cut(), 0);
    workspace.setFile(path, lines('-- db2 -tvf e.sql', ...procedure));
    assert.equal(cut(), 1);
    workspace.setFile(path, lines('-- db2 -tvf e.sql', '-- (a note)', ...procedure));
    assert.equal(cut(), 1);
    workspace.setFile(path, lines('-- db2 -td@ -vf e.sql', '-- (a note)', ...procedure));
    assert.equal(cut(), 0);
  });
});

describe(`rule ${RULE}: application code its grammar cannot parse`, () => {
  it('says where a Python file stops parsing (its findings may be missing); C and C++ macros are not taken for errors', async () => {
    const py = 'import ibm_db\nconn = ibm_db.connect("SAMPLE", "", "")\nfor i in range(100000):\n    ibm_db.exec_immediate(conn, f"INSERT INTO T VALUES ({i}"\n';
    const { findings } = await lintCode({ 'broken.py': py });
    const notice = findings.find((f) => f.rule === RULE);
    assert.ok(notice, 'a notice');
    assert.equal(notice.severity, 'information');
    assert.equal(notice.line, 4);
    assert.match(notice.message, /^The Python here could not be parsed \(a syntax error, or syntax its grammar does not know\)\./);
    const fixed = await lintCode({ 'fixed.py': py.replace('({i}"', '({i})")') });
    assert.ok(!fixed.findings.some((f) => f.rule === RULE));
    const cpp = '#include <sqlcli1.h>\nclass SOCI_DB2_DECL db2_error : public std::runtime_error {};\nvoid f(SQLHSTMT h) { SQLExecDirect(h, (SQLCHAR*)"INSERT INTO T VALUES (1)", SQL_NTS); }\n';
    assert.ok(!(await lintCode({ 'a.cpp': cpp })).findings.some((f) => f.rule === RULE));
  });
});

describe(`rule ${RULE}: application code cut short`, () => {
  it('shows a token missing at the end of a truncated file on its last character, not past the end', async () => {
    const java = 'class A {\n  void f(java.sql.Connection c) throws Exception {\n    c.prepareStatement("INSERT INTO T VALUES (?)").executeUpdate();\n  }';
    const { findings } = await lintCode({ 'A.java': java });
    const notice = findings.find((f) => f.rule === RULE);
    assert.ok(notice, 'a notice');
    // Line 4 is "  }" (3 characters): the finding covers its last one, column 3 to 4 (exclusive end).
    assert.deepEqual([notice.line, notice.column, notice.endLine, notice.endColumn], [4, 3, 4, 4]);
    const ws = new Workspace(resolveConfig(allRules()), [await codeFrontEnd()]);
    ws.setFile('A.java', java, 'java');
    for (const d of ws.diagnostics('A.java')) assert.ok(d.span.start < d.span.end && d.span.end <= java.length, `${d.rule} ${d.span.start}..${d.span.end} in ${java.length}`);
  });

  it('shows a token missing at the end of a line on the line\'s last character, with LF or CRLF line ends', async () => {
    // `import a.b.SourceRecor` lost its `;`: the missing token sits at the line break. One character from there
    // was the LF (the next line's column 1) or, with CRLF, the LF after the CR: a position in no column.
    const java = 'import java.sql.Connection\nclass A {\n  void f(Connection c) throws Exception {\n    c.prepareStatement("INSERT INTO T VALUES (?)").executeUpdate();\n  }\n}\n';
    for (const eol of ['\n', '\r\n']) {
      const { findings } = await lintCode({ 'A.java': java.replace(/\n/g, eol) });
      const notice = findings.find((f) => f.rule === RULE);
      assert.ok(notice, 'a notice');
      assert.deepEqual([notice.line, notice.column, notice.endLine, notice.endColumn], [1, 26, 1, 27], JSON.stringify(eol));
    }
  });
});
