import { expectFindings, expectNoFindings } from '../helpers/rule-tester';
import { strict as assert } from 'node:assert';
import { lintCode } from '../code/helpers';

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
