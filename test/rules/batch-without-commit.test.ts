import * as assert from 'node:assert/strict';
import { brief, codeFrontEnd, lintCode } from '../code/helpers';
import { lintWorkspace } from '../helpers/rule-tester';

const RULE = 'batch-without-commit';
const program = (body: string) =>
  [
    '       IDENTIFICATION DIVISION.',
    '       PROGRAM-ID. LOADTRN.',
    '       PROCEDURE DIVISION.',
    '       1000-MAIN.',
    "           PERFORM 2000-LOAD UNTIL WS-EOF = 'Y'.",
    ...body.split('\n'),
  ].join('\n') + '\n';
const LOAD = ['       2000-LOAD.', "           READ INFILE AT END MOVE 'Y' TO WS-EOF END-READ", '           EXEC SQL INSERT INTO DIV.TRN VALUES (:IN-ACCT, :IN-AMT)', '           END-EXEC.'].join('\n');

describe(`rule ${RULE}`, () => {
  it('reports a COBOL insert loop of a program that never commits', async () => {
    const { findings } = await lintCode({ 'LOADTRN.cbl': program('           STOP RUN.\n' + LOAD) });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@9:12`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /^The PERFORM UNTIL loop at line 5 \(through PERFORM 2000-LOAD\) inserts into DIV\.TRN row by row and the program never commits/);
  });

  it('is one diagnostic with single-row-insert on the same INSERT (the row-at-a-time merge)', async () => {
    const { findings, workspace } = lintWorkspace({ 'LOADTRN.cbl': program('           STOP RUN.\n' + LOAD) }, { baseConfig: { bulkRowThreshold: 2 }, codeFrontEnd: await codeFrontEnd() });
    assert.deepEqual(findings.filter((f) => f.line === 9).map((f) => f.rule), [RULE]);
    const [merged] = workspace.diagnostics('LOADTRN.cbl').filter((d) => d.rule === RULE);
    assert.deepEqual(merged.mergedRules, ['single-row-insert']);
  });

  it('says when the only commit is after the loop', async () => {
    const { findings } = await lintCode({ 'LOADTRN.cbl': program('           EXEC SQL COMMIT END-EXEC.\n           STOP RUN.\n' + LOAD) });
    assert.match(findings.find((f) => f.rule === RULE)!.message, /commits only after it/);
  });

  it('does not say row locks pile up when the table space locks the table as a whole (LOCKSIZE TABLE)', async () => {
    // carddemo's COBTUPDT.cbl inserts into a table whose table space DB2CREAT.ctl creates with LOCKSIZE TABLE.
    const ddl = 'CREATE TABLESPACE TRNTS IN DIV SEGSIZE 4 LOCKSIZE TABLE;\nCREATE TABLE DIV.TRN (ACCT CHAR(8), AMT DECIMAL(9,2)) IN DIV.TRNTS;\n';
    const { findings } = await lintCode({ 'LOADTRN.cbl': program('           STOP RUN.\n' + LOAD), 'ddl.sql': ddl });
    const message = findings.find((f) => f.rule === RULE)!.message;
    assert.match(message, /never commits\. The whole run is one unit of work: the table is locked as a whole \(its table space's LOCKSIZE TABLE\), so row locks do not pile up/);
    assert.doesNotMatch(message, /NUMLKUS/);
    const rowLocks = (await lintCode({ 'LOADTRN.cbl': program('           STOP RUN.\n' + LOAD), 'ddl.sql': ddl.replace('LOCKSIZE TABLE', 'LOCKSIZE ROW') })).findings;
    assert.match(rowLocks.find((f) => f.rule === RULE)!.message, /each inserted row keeps its lock until the commit/);
  });

  it('is a hint when the table is locked whole and its key bounds it to a few MB (a code table)', async () => {
    // carddemo's COBTUPDT.cbl maintains TRANSACTION_TYPE: LOCKSIZE TABLE, keyed by a CHAR(2) code.
    const ddl = (locksize: string, key: string) =>
      `CREATE TABLESPACE TRNTS IN DIV SEGSIZE 4 LOCKSIZE ${locksize};\nCREATE TABLE DIV.TRN (ACCT ${key} NOT NULL, AMT DECIMAL(9,2), PRIMARY KEY (ACCT)) IN DIV.TRNTS;\n`;
    const finding = async (sql: string) => (await lintCode({ 'LOADTRN.cbl': program('           STOP RUN.\n' + LOAD), 'ddl.sql': sql })).findings.find((f) => f.rule === RULE)!;
    const small = await finding(ddl('TABLE', 'CHAR(2)'));
    assert.equal(small.severity, 'hint');
    assert.match(small.message, /Its key \(ACCT\) lets the table hold at most 65,536 rows at a time, about 0\.4 MB: a unit of work no larger than that is short to back out/);
    // Row locks: 65,536 of them still escalate (z/OS LOCKMAX); a key of many values bounds nothing.
    for (const [locksize, key] of [['ROW', 'CHAR(2)'], ['TABLE', 'CHAR(8)']]) {
      const other = await finding(ddl(locksize, key));
      assert.equal(other.severity, 'warning', `${locksize} ${key}`);
      assert.doesNotMatch(other.message, /Its key/);
    }
  });

  it('sees the table space of the definition that states one when a plain DDL file defines the same table again', async () => {
    // carddemo: DB2CREAT.ctl creates TRANSACTION_TYPE in a LOCKSIZE TABLE table space, ddl/TRNTYPE.ddl the same
    // columns with no storage at all. The plain file leaves the storage out; it does not make the locks row locks.
    const deck = 'CREATE TABLESPACE TRNTS IN DIV SEGSIZE 4 LOCKSIZE TABLE;\nCREATE TABLE DIV.TRN (ACCT CHAR(8) NOT NULL, AMT DECIMAL(9,2), PRIMARY KEY (ACCT)) IN DIV.TRNTS;\n';
    const plain = 'CREATE TABLE DIV.TRN (ACCT CHAR(8) NOT NULL, AMT DECIMAL(9,2), PRIMARY KEY (ACCT));\n';
    const cobol = program('           STOP RUN.\n' + LOAD);
    // Either fold order: the plain definition last (ctl/ before ddl/), or the deck last.
    for (const [deckPath, plainPath] of [['ctl/DB2CREAT.sql', 'ddl/TRNTYPE.sql'], ['z/DB2CREAT.sql', 'a/TRNTYPE.sql']]) {
      const { findings } = await lintCode({ 'LOADTRN.cbl': cobol, [deckPath]: deck, [plainPath]: plain });
      assert.match(findings.find((f) => f.rule === RULE)!.message, /the table is locked as a whole \(its table space's LOCKSIZE TABLE\)/, `${deckPath} and ${plainPath}`);
    }
    // A later definition with other columns (as many: the INSERT's two values fit both) is another table: its
    // (default) storage stands.
    const other = plain.replace('AMT DECIMAL(9,2)', 'AMOUNT DECIMAL(9,2)');
    const { findings } = await lintCode({ 'LOADTRN.cbl': cobol, 'ctl/DB2CREAT.sql': deck, 'ddl/TRNTYPE.sql': other });
    assert.match(findings.find((f) => f.rule === RULE)!.message, /each inserted row keeps its lock until the commit/);
    // With a third column the INSERT's two values fit only the deck's definition: its LOCKSIZE TABLE.
    const wider = plain.replace('AMT DECIMAL(9,2)', 'AMT DECIMAL(9,2), CURRENCY CHAR(3)');
    const deckOnly = await lintCode({ 'LOADTRN.cbl': cobol, 'ctl/DB2CREAT.sql': deck, 'ddl/TRNTYPE.sql': wider });
    assert.match(deckOnly.findings.find((f) => f.rule === RULE)!.message, /the table is locked as a whole/);
  });

  it('accepts a commit in the loop (every N rows) and CICS programs', async () => {
    const counted = LOAD.replace(/\.$/, '') + '\n           ADD 1 TO WS-COUNT\n           IF WS-COUNT >= 1000\n              EXEC SQL COMMIT END-EXEC\n           END-IF.';
    assert.deepEqual(brief((await lintCode({ 'LOADTRN.cbl': program('           STOP RUN.\n' + counted) })).findings, [RULE]), []);
    const cics = program('           EXEC CICS RETURN END-EXEC.\n' + LOAD);
    assert.deepEqual(brief((await lintCode({ 'LOADTRN.cbl': cics })).findings, [RULE]), []);
  });

  describe('application code that tells its execute helper not to commit (ibmdbpy\'s chunked upload)', () => {
    // ibmdbpy's append(): a loop over DataFrame chunks, one multi-row INSERT per chunk through a method of the
    // class, run by a helper of another module with autocommit=False; the only commit is elsewhere.
    const upload = (flag: string, inLoop = '') => `import math
from mylib import sql

class Database(object):
    def append(self, tablename, df, maxnrow=5000):
        split = [df[i:i + maxnrow] for i in range(0, len(df), maxnrow)]
        for i, chunk in enumerate(split, 0):
            self._insert_into_database(chunk, tablename)
${inLoop}
    def _insert_into_database(self, chunk, tablename):
        row_string = ""
        for row in chunk:
            row_string += "(%s)," % ",".join("'%s'" % v for v in row)
        query = "INSERT INTO %s VALUES %s" % (tablename, row_string[:-1])
        self._prepare_and_execute(query${flag})

    def _prepare_and_execute(self, query, autocommit=True):
        return sql._prepare_and_execute(self, query, autocommit)
`;

    it('reports the chunk loop, as information: whether it is one unit of work depends on the driver', async () => {
      const py = upload(', autocommit=False');
      const { findings } = await lintCode({ 'base.py': py });
      const line = py.split('\n').findIndex((l) => l.includes('self._prepare_and_execute(query, autocommit=False)')) + 1;
      const found = findings.filter((f) => f.rule === RULE);
      assert.deepEqual(found.map((f) => [f.line, f.severity]), [[line, 'information']]);
      assert.match(
        found[0].message,
        /^The for loop at line 7 \(through _insert_into_database\(\)\) inserts into <tablename> and nothing in it commits: with autocommit off, the loop is one unit of work\. It runs its INSERT through self\._prepare_and_execute\(\) told not to commit \(autocommit=False\)\. With autocommit off \(the DB-API default of pyodbc, pypyodbc and ibm_db_dbi\), every pass.*SQL0964C.*this file does not show which it is\.$/,
      );
    });

    it('says nothing when the helper may commit, or when the loop commits', async () => {
      // No flag: the helper commits by default (ibmdbpy's _prepare_and_execute does, unless told not to).
      assert.deepEqual(brief((await lintCode({ 'base.py': upload('') })).findings, [RULE]), []);
      assert.deepEqual(brief((await lintCode({ 'base.py': upload(', autocommit=True') })).findings, [RULE]), []);
      const committing = upload(', autocommit=False', '            self._con.commit()\n');
      assert.deepEqual(brief((await lintCode({ 'base.py': committing })).findings, [RULE]), []);
    });

    it('says nothing about a connection with autocommit on, or a small counting loop', async () => {
      const py = `import ibm_db_dbi

def load(db, chunks):
    db.autocommit = True
    for chunk in chunks:
        db.run_sql("INSERT INTO T VALUES %s" % chunk, autocommit=False)
`;
      assert.deepEqual(brief((await lintCode({ 'load.py': py })).findings, [RULE]), []);
      assert.equal(brief((await lintCode({ 'load.py': py.replace('    db.autocommit = True\n', '') })).findings, [RULE]).length, 1);
      const few = `import ibm_db_dbi

def load(db, chunks):
    for i in range(3):
        db.run_sql("INSERT INTO T VALUES %s" % chunks[i], autocommit=False)
`;
      assert.deepEqual(brief((await lintCode({ 'load.py': few })).findings, [RULE]), []);
      // The same loop of unknown length is reported.
      const many = few.replace('range(3)', 'range(len(chunks))');
      assert.deepEqual(brief((await lintCode({ 'load.py': many })).findings, [RULE]).length, 1);
    });
  });
});
