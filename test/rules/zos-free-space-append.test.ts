import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'zos-free-space-append';
const TABLE = 'CREATE TABLE DIV.TRN (ACCT CHAR(12)) IN DBDIV.TSTRN APPEND YES;\n';
const LOAD = 'INSERT INTO DIV.TRN VALUES (?);\n';

describe(`rule ${RULE}`, () => {
  it('reports PCTFREE and FREEPAGE of a table space whose inserted table is APPEND YES', () => {
    expectFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV\n  PCTFREE 10 FREEPAGE 15 SEGSIZE 32;\n' + TABLE, 'load.sql': LOAD }, RULE, [
      { file: 'zos.sql', line: 2, column: 3, endLine: 2, endColumn: 13, severity: 'information', message: /^PCTFREE 10 FREEPAGE 15 reserves free space in table space TSTRN that APPEND YES inserts never use\. .*but DIV\.TRN is APPEND YES/ },
    ]);
  });

  it('accepts no free space, APPEND NO tables, and table spaces nothing is inserted into', () => {
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV PCTFREE 0 FREEPAGE 0;\n' + TABLE, 'load.sql': LOAD }, RULE);
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV PCTFREE 10;\n' + TABLE.replace('APPEND YES', 'APPEND NO'), 'load.sql': LOAD }, RULE);
    expectNoFindings({ 'zos.sql': 'CREATE TABLESPACE TSTRN IN DBDIV PCTFREE 10;\n' + TABLE }, RULE);
  });
});
