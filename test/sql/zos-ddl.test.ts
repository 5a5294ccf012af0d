// Db2 for z/OS DDL in the SQL grammar (grammar/zos.ts and the table, index and table space families), and the
// dialect a file is read as (sql/dialect.ts, config "dialect").
import * as assert from 'node:assert/strict';
import { parseScript } from '../../server/src/sql/parser';
import { inferDialect } from '../../server/src/sql/dialect';
import { lintWorkspace } from '../helpers/rule-tester';

const ZOS = `SET CURRENT SQLID = 'DIVADM';
CREATE STOGROUP SGDIV VOLUMES ('*') VCAT DB2P;
CREATE DATABASE DBDIV STOGROUP SGDIV BUFFERPOOL BP1 INDEXBP BP3 CCSID EBCDIC;
CREATE TABLESPACE TSTRN IN DBDIV USING STOGROUP SGDIV PRIQTY 720 SECQTY 720 ERASE NO
  MAXPARTITIONS 10 DSSIZE 4 G SEGSIZE 32 MEMBER CLUSTER TRACKMOD NO PCTFREE 10 FOR UPDATE 5 FREEPAGE 15
  LOCKSIZE ROW LOCKMAX SYSTEM BUFFERPOOL BP2 CLOSE NO COMPRESS YES CCSID EBCDIC;
CREATE TABLESPACE TSPBR IN DBDIV NUMPARTS 4 (PARTITION 1 USING STOGROUP SGDIV PRIQTY 100) SEGSIZE 64;
CREATE LOB TABLESPACE TSLOB IN DBDIV LOG NO;
CREATE TABLE DIV.TRN (ACCT CHAR(12) NOT NULL, AMT DECIMAL(15,2)) IN DBDIV.TSTRN APPEND YES;
CREATE UNIQUE INDEX DIV.TRNX1 ON DIV.TRN (ACCT ASC) USING STOGROUP SGDIV CLUSTER PARTITIONED NOT PADDED FREEPAGE 0 PCTFREE 10 BUFFERPOOL BP3 COPY YES;
ALTER TABLE DIV.TRN APPEND NO;
LOAD DATA INDDN SYSREC RESUME YES LOG NO SHRLEVEL CHANGE INTO TABLE DIV.TRN (ACCT POSITION(1:12) CHAR(12));
`;

describe('Db2 for z/OS DDL', () => {
  it('parses valid z/OS DDL without errors and keeps the options that shape insert cost', () => {
    const { statements } = parseScript(ZOS);
    assert.deepEqual(statements.filter((s) => s.parseError).map((s) => s.parseError!.message), []);
    assert.deepEqual(statements.map((s) => s.kind), ['setSchema', 'other', 'other', 'createTablespace', 'createTablespace', 'createTablespace', 'createTable', 'createIndex', 'alterTable', 'load']);
    const ts = statements[3];
    assert.ok(ts.kind === 'createTablespace');
    assert.deepEqual({ ...ts.zos, memberClusterSpan: undefined, freeSpaceSpan: undefined }, { database: 'DBDIV', maxPartitions: 10, segsize: 32, memberCluster: true, memberClusterSpan: undefined, trackmod: false, pctfree: 10, freepage: 15, freeSpaceSpan: undefined, locksize: 'ROW' });
    const pbr = statements[4];
    assert.ok(pbr.kind === 'createTablespace' && pbr.zos?.numParts === 4);
    const table = statements[6];
    assert.ok(table.kind === 'createTable' && table.append === true && table.tablespace.database === 'DBDIV' && table.tablespace.data === 'TSTRN');
    const index = statements[7];
    assert.ok(index.kind === 'createIndex' && index.cluster && index.partitioned && index.padded === false && index.freepage === 0 && index.pctfree === 10);
    const alter = statements[8];
    assert.ok(alter.kind === 'alterTable' && alter.actions[0].kind === 'append' && !alter.actions[0].on);
  });

  it('reads DCLGEN DECLARE TABLE with its columns', () => {
    const [stmt] = parseScript('DECLARE CARDDEMO.TRANSACTION_TYPE TABLE\n( TR_TYPE CHAR(2) NOT NULL,\n  TR_DESCRIPTION VARCHAR(50) NOT NULL );').statements;
    assert.ok(stmt.kind === 'declareTable' && !stmt.parseError);
    assert.deepEqual(stmt.kind === 'declareTable' ? stmt.columns.map((c) => c.name) : [], ['TR_TYPE', 'TR_DESCRIPTION']);
  });

  it('infers the dialect from what only one Db2 accepts', () => {
    const dialect = (sql: string) => inferDialect(parseScript(sql).statements, sql);
    assert.equal(dialect(ZOS), 'zos');
    assert.equal(dialect("SET CURRENT SQLID = 'X';"), 'zos');
    assert.equal(dialect('CREATE TABLESPACE TS MANAGED BY DATABASE USING (FILE \'/d\' 1000);'), 'luw');
    assert.equal(dialect('ALTER TABLE T APPEND ON;'), 'luw');
    assert.equal(dialect('CREATE TABLE T (A INT);'), undefined);
  });

  it('runs LUW-only rules on LUW and undecided files, z/OS rules on z/OS files; the config can choose', () => {
    const files = { 'schema.sql': 'CREATE TABLE T (A INT);\nCREATE INDEX TX ON T (A) CLUSTER;\n', 'load.sql': 'INSERT INTO T SELECT A FROM S;\n' };
    const rules = (config?: object) => lintWorkspace(files, { config }).findings.map((f) => f.rule).filter((r) => /cluster/.test(r)).sort();
    assert.deepEqual(rules(), ['clustered-index-bulk-target']);
    assert.deepEqual(rules({ dialect: 'zos' }), ['zos-cluster-without-append']);
    assert.deepEqual(rules({ dialect: { '*.sql': 'luw' } }), ['clustered-index-bulk-target']);
  });
});
