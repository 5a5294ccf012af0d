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
});
