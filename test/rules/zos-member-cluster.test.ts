import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'zos-member-cluster';
const TABLE = 'CREATE TABLE DIV.TRN (ACCT CHAR(12)) IN DBDIV.TSTRN;\n';
const BULK = 'INSERT INTO DIV.TRN SELECT ACCT FROM DIV.STAGE;\n';

describe(`rule ${RULE}`, () => {
  it('reports a table space filled by bulk inserts without MEMBER CLUSTER', () => {
    expectFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV MAXPARTITIONS 10;\n' + TABLE, 'load.sql': BULK }, RULE, [
      { file: 'zos.sql', line: 1, column: 19, endLine: 1, endColumn: 24, severity: 'information', message: /^Table space TSTRN holds DIV\.TRN, filled in bulk \(INSERT … SELECT\), without MEMBER CLUSTER\. If the subsystem is a member of a data sharing group/ },
    ]);
  });

  it('accepts MEMBER CLUSTER, single-row inserts and LOAD utility targets', () => {
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV MAXPARTITIONS 10 MEMBER CLUSTER;\n' + TABLE, 'load.sql': BULK }, RULE);
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV;\n' + TABLE, 'load.sql': 'INSERT INTO DIV.TRN VALUES (?);\n' }, RULE);
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV;\n' + TABLE, 'load.sql': 'LOAD DATA REPLACE LOG NO INTO TABLE DIV.TRN\n' }, RULE);
    // LOCKSIZE TABLE or TABLESPACE: one member inserts at a time (carddemo's CARDSPC1).
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV SEGSIZE 4 LOCKSIZE TABLE;\n' + TABLE, 'load.sql': BULK }, RULE);
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV LOCKSIZE TABLESPACE;\n' + TABLE, 'load.sql': BULK }, RULE);
  });
});
