import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, lintWorkspace } from '../helpers/rule-tester';

const RULE = 'zos-cluster-without-append';
const SPACE = 'CREATE TABLESPACE TSTRN IN DBDIV SEGSIZE 32;\n';
const TABLE = 'CREATE TABLE DIV.TRN (ACCT CHAR(12), FUND CHAR(8)) IN DBDIV.TSTRN;\n';
const BULK = 'INSERT INTO DIV.TRN SELECT ACCT, FUND FROM DIV.STAGE;\n';

describe(`rule ${RULE}`, () => {
  it('reports the CLUSTER keyword of an index on a table filled in bulk without APPEND YES', () => {
    expectFindings({ 'zos.sql': SPACE + TABLE + 'CREATE INDEX DIV.TRNX1 ON DIV.TRN (FUND, ACCT)\n  CLUSTER;\n', 'load.sql': BULK }, RULE, [
      { file: 'zos.sql', line: 4, column: 3, endLine: 4, endColumn: 10, severity: 'warning', message: /^Clustering index TRNX1 keeps bulk inserts into DIV\.TRN in FUND, ACCT order; the table is not APPEND YES\. .*\(INSERT … SELECT\).*250 rows\/s.*APPEND YES/ },
    ]);
  });

  it('reports the first index as the implicit clustering index when none says CLUSTER', () => {
    const ddl = SPACE + TABLE + 'CREATE UNIQUE INDEX DIV.TRNX0 ON DIV.TRN (ACCT);\nCREATE INDEX DIV.TRNX2 ON DIV.TRN (FUND);\n';
    expectFindings({ 'zos.sql': ddl, 'load.sql': BULK }, RULE, [{ file: 'zos.sql', line: 3, column: 21, message: /^TRNX0 clusters bulk inserts into DIV\.TRN by \w+.* \(first index, none says CLUSTER\)/ }]);
  });

  it('makes a table whose key allows few values a hint: its pages stay in the buffer pool (CardDemo TRANSACTION_TYPE, CHAR(2))', () => {
    const codes = 'CREATE TABLE DIV.TYP (TR_TYPE CHAR(2) NOT NULL, TR_DESC VARCHAR(50) NOT NULL, PRIMARY KEY (TR_TYPE)) IN DBDIV.TSTRN;\n';
    const index = 'CREATE UNIQUE INDEX DIV.TYPX ON DIV.TYP (TR_TYPE ASC);\n';
    const fill = 'INSERT INTO DIV.TYP SELECT TR_TYPE, TR_DESC FROM DIV.STAGE;\n';
    expectFindings({ 'zos.sql': SPACE + codes + index, 'load.sql': fill }, RULE, [
      { file: 'zos.sql', line: 3, column: 21, severity: 'hint', message: /Its key \(TR_TYPE\) lets DIV\.TYP hold at most 65,536 rows at a time, about 3\.3 MB of data at most: a table that small keeps its pages in the buffer pool, where the study's synchronous reads do not arise\.$/ },
    ]);
    // A CHAR(3) code, a key with a wide column in it, wide rows (65,536 of 1,002 bytes: 63 MB) or a LOB bound nothing worth saying.
    const wide = [codes.replace('CHAR(2)', 'CHAR(3)'), codes.replace('PRIMARY KEY (TR_TYPE)', 'PRIMARY KEY (TR_TYPE, TR_DESC)')];
    wide.push(codes.replace('VARCHAR(50)', 'VARCHAR(1000)'), codes.replace('VARCHAR(50)', 'CLOB(1K)'));
    for (const ddl of wide) {
      expectFindings({ 'zos.sql': SPACE + ddl + index.replace('UNIQUE ', ''), 'load.sql': fill }, RULE, [{ file: 'zos.sql', line: 3, column: 14, severity: 'warning' }]);
    }
  });

  it('counts LOAD SHRLEVEL CHANGE as inserts, not other LOADs', () => {
    const ddl = SPACE + TABLE + 'CREATE INDEX DIV.TRNX1 ON DIV.TRN (FUND) CLUSTER;\n';
    expectFindings({ 'zos.sql': ddl, 'load.sql': 'LOAD DATA RESUME YES SHRLEVEL CHANGE INTO TABLE DIV.TRN\n' }, RULE, [{ file: 'zos.sql', line: 3, column: 42, message: /LOAD RESUME YES SHRLEVEL CHANGE/ }]);
    expectNoFindings({ 'zos.sql': ddl, 'load.sql': 'LOAD DATA RESUME YES LOG NO INTO TABLE DIV.TRN\n' }, RULE);
  });

  it('accepts APPEND YES, tables not filled in bulk, and LUW scripts', () => {
    const clustered = 'CREATE INDEX DIV.TRNX1 ON DIV.TRN (FUND) CLUSTER;\n';
    expectNoFindings({ 'zos.sql': SPACE + TABLE.replace(';', ' APPEND YES;') + clustered, 'load.sql': BULK }, RULE);
    expectNoFindings({ 'zos.sql': SPACE + TABLE + 'ALTER TABLE DIV.TRN APPEND YES;\n' + clustered, 'load.sql': BULK }, RULE);
    expectNoFindings({ 'zos.sql': SPACE + TABLE + clustered, 'load.sql': 'INSERT INTO DIV.TRN VALUES (?, ?);\n' }, RULE);
    expectNoFindings({ 'luw.sql': 'CREATE TABLE DIV.TRN (ACCT CHAR(12), FUND CHAR(8));\n' + clustered, 'load.sql': BULK }, RULE);
  });

  it('reads a plain DDL file as the nearest scripts show it: a z/OS repository beside an LUW one (a run over both)', () => {
    // carddemo's ddl/XTRNTYPE.ddl: plain DDL beside z/OS control cards; another repository of the run imports (LUW).
    const plain = 'CREATE TABLE DIV.TRN (ACCT CHAR(12), FUND CHAR(8));\nCREATE INDEX DIV.TRNX1 ON DIV.TRN (FUND) CLUSTER;\n';
    const zos = { 'carddemo/app/ddl/TRN.ddl': plain, 'carddemo/app/ctl/SPACE.ctl.sql': SPACE, 'carddemo/app/load.sql': BULK };
    const luw = { 'shop/db/load.sql': 'IMPORT FROM x.del OF DEL INSERT INTO SHOP.T;\n' };
    const where = (files: Record<string, string>) => lintWorkspace(files).findings.filter((d) => d.rule === RULE).map((d) => `${d.file}:${d.line}`);
    assert.deepEqual(where(zos), ['carddemo/app/ddl/TRN.ddl:2']);
    assert.deepEqual(where({ ...zos, ...luw }), ['carddemo/app/ddl/TRN.ddl:2'], 'the LUW repository beside it changes nothing');
    // Both dialects in the same tree: the plain file is read as either (the z/OS rules do not judge it).
    assert.deepEqual(where({ ...zos, 'carddemo/app/import.sql': 'IMPORT FROM x.del OF DEL INSERT INTO SHOP.T;\n' }), []);
  });

  it('reports a table described twice (a z/OS deck and a plain DDL file) once, on the deck that states its storage', () => {
    // carddemo: ctl/DB2CREAT.ctl creates TRANSACTION_TYPE IN its table space with the index XTRAN_TYPE; ddl/XTRNTYPE.ddl
    // creates the same table and index again, without storage: the two said the same words.
    const index = 'CREATE UNIQUE INDEX DIV.TRNX0 ON DIV.TRN (ACCT);\n';
    const deck = SPACE + TABLE + index;
    const plain = 'CREATE TABLE DIV.TRN (ACCT CHAR(12), FUND CHAR(8));\n' + index;
    const where = (files: Record<string, string>) => lintWorkspace(files).findings.filter((d) => d.rule === RULE).map((d) => `${d.file}:${d.line}`);
    assert.deepEqual(where({ 'app/ctl/deck.sql': deck, 'app/ddl/plain.ddl': plain, 'app/load.sql': BULK }), ['app/ctl/deck.sql:3']);
    // Alone, the plain file is reported (nothing else says it); with another index first in it, both are.
    assert.deepEqual(where({ 'app/ctl/space.sql': SPACE, 'app/ddl/plain.ddl': plain, 'app/load.sql': BULK }), ['app/ddl/plain.ddl:2']);
    const otherFirst = 'CREATE TABLE DIV.TRN (ACCT CHAR(12), FUND CHAR(8));\nCREATE INDEX DIV.TRNX9 ON DIV.TRN (FUND);\n' + index;
    assert.deepEqual(where({ 'app/ctl/deck.sql': deck, 'app/ddl/plain.ddl': otherFirst, 'app/load.sql': BULK }), ['app/ctl/deck.sql:3', 'app/ddl/plain.ddl:2']);
  });

  it('on a script whose header says DB2 V8 or older, advises what that version has instead of APPEND YES', () => {
    const ddl = SPACE + TABLE + 'CREATE INDEX DIV.TRNX1 ON DIV.TRN (FUND, ACCT);\n';
    const v8 = '-- Backup script generated for "DB2 OS/390 V8" server\n' + ddl;
    expectFindings({ 'zos.sql': v8, 'load.sql': BULK }, RULE, [
      {
        file: 'zos.sql',
        line: 4,
        column: 14,
        severity: 'warning',
        message: /^TRNX1 keeps bulk inserts into DIV\.TRN in FUND, ACCT order; this script is for DB2 for z\/OS V8\. APPEND YES, which removes that cost, came with DB2 9 and does not exist there \(.*TRNX1 is the first index created and none says CLUSTER\)\..*create TRNX1 after the rows are in.*62\.9 s.*39\.4 s.*sort it by FUND, ACCT first/,
      },
    ]);
    const [finding] = lintWorkspace({ 'zos.sql': v8, 'load.sql': BULK }).findings.filter((d) => d.rule === RULE);
    assert.doesNotMatch(finding.message, /ALTER TABLE|ORDER BY/);
    // DB2 9 has APPEND YES: the usual advice.
    expectFindings({ 'zos.sql': '-- DB2 9 for z/OS\n' + ddl, 'load.sql': BULK }, RULE, [{ file: 'zos.sql', line: 4, column: 14, message: /Use ALTER TABLE DIV\.TRN APPEND YES/ }]);
  });

  it("scales the z/OS SSD study's cost to the rows the scripts spell out, a hint under a second, information under ten", () => {
    const ddl = SPACE + TABLE + 'CREATE INDEX DIV.TRNX1 ON DIV.TRN (FUND, ACCT)\n  CLUSTER;\n';
    const rows = (n: number) => `INSERT INTO DIV.TRN VALUES ${Array.from({ length: n }, (_, i) => `('A${i}', 'F')`).join(', ')};\n`;
    // 2.4 ms a row (250 rows/s, 60% of it synchronous reads): 300 rows, 0.72 s; 500 rows, 1.2 s.
    expectFindings({ 'zos.sql': ddl, 'data.sql': rows(300) }, RULE, [
      { file: 'zos.sql', line: 4, column: 3, severity: 'hint', message: /sorted by FUND, ACCT\. The scripts insert 300 rows into it: about 0\.72 s more in all at the measured rates \(the z\/OS SSD study: 250 rows\/s, 60% of it in synchronous reads\)\.$/ },
    ]);
    expectFindings({ 'zos.sql': ddl, 'data.sql': rows(500) }, RULE, [{ file: 'zos.sql', line: 4, column: 3, severity: 'information', message: /The scripts insert 500 rows into it: about 1\.2 s more/ }]);
    expectFindings({ 'zos.sql': ddl, 'data.sql': rows(5000) }, RULE, [{ file: 'zos.sql', line: 4, column: 3, severity: 'warning', message: /The scripts insert 5,000 rows into it: about 12 s more/ }]);
    const [unknown] = expectFindings({ 'zos.sql': ddl, 'load.sql': BULK }, RULE, [{ file: 'zos.sql', line: 4, column: 3, severity: 'warning' }]);
    assert.doesNotMatch(unknown.message, /The scripts insert/);
  });
});
