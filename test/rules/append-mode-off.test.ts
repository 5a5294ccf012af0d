import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'append-mode-off';
const TABLE = 'CREATE TABLE T (A INT, B INT);\n';
const BULK = 'INSERT INTO T SELECT A, B FROM S;\n';

describe(`rule ${RULE}`, () => {
  it('reports the table name of a bulk target that is not in APPEND mode', () => {
    expectFindings({ 'schema.sql': TABLE, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 1, column: 14, endColumn: 15, severity: 'information', message: /^Bulk insert target T \(INSERT … SELECT\) is not in APPEND mode\. .*282\.0 s vs 281\.6 s/ },
    ]);
  });

  it('accepts APPEND ON (in CREATE or a later ALTER), clustered tables, column-organized tables and non-bulk targets', () => {
    expectNoFindings({ 'schema.sql': 'CREATE TABLE T (A INT, B INT) APPEND ON;\n', 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': TABLE + 'ALTER TABLE T APPEND ON;\n', 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': TABLE + 'CREATE INDEX T_A ON T (A) CLUSTER;\n', 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': 'CREATE TABLE T (A INT, B INT) ORGANIZE BY COLUMN;\n', 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': TABLE, 'load.sql': 'INSERT INTO T VALUES (?, ?);\n' }, RULE);
  });
});
