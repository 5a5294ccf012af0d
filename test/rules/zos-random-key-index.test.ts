import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'zos-random-key-index';
const TABLE = 'CREATE TABLE DIV.ATRN (ID BIGINT GENERATED ALWAYS AS IDENTITY, ACCT CHAR(12), FUND CHAR(8)) IN DBDIV.TSATRN APPEND YES;\n';
const BULK = 'INSERT INTO DIV.ATRN (ACCT, FUND) SELECT ACCT, FUND FROM DIV.STAGE;\n';

describe(`rule ${RULE}`, () => {
  it('reports an index whose keys do not grow with the inserts, not one on the identity column', () => {
    const ddl = TABLE + 'CREATE INDEX DIV.ATRNX0 ON DIV.ATRN (ID);\nCREATE INDEX DIV.ATRNX2 ON DIV.ATRN (ACCT, FUND);\n';
    expectFindings({ 'zos.sql': ddl, 'load.sql': BULK }, RULE, [
      { file: 'zos.sql', line: 3, column: 14, severity: 'information', message: /^Index ATRNX2 on DIV\.ATRN is keyed on ACCT, FUND, which do not grow with the inserts\. DIV\.ATRN is a bulk target \(INSERT … SELECT\).*90%/ },
    ]);
  });

  it('leaves the clustering index of a table without APPEND YES to zos-cluster-without-append', () => {
    const ddl = TABLE.replace(' APPEND YES', '') + 'CREATE INDEX DIV.ATRNX1 ON DIV.ATRN (FUND) CLUSTER;\nCREATE INDEX DIV.ATRNX2 ON DIV.ATRN (ACCT);\n';
    expectFindings({ 'zos.sql': ddl, 'load.sql': BULK }, RULE, [{ file: 'zos.sql', line: 3, column: 14, message: /^Index ATRNX2 / }]);
  });

  it('accepts tables not filled in bulk and LUW scripts', () => {
    const index = 'CREATE INDEX DIV.ATRNX2 ON DIV.ATRN (ACCT);\n';
    expectNoFindings({ 'zos.sql': TABLE + index, 'load.sql': 'INSERT INTO DIV.ATRN (ACCT, FUND) VALUES (?, ?);\n' }, RULE);
    expectNoFindings({ 'luw.sql': 'CREATE TABLE DIV.ATRN (ID INT, ACCT CHAR(12));\n' + index, 'load.sql': BULK }, RULE);
  });
});
