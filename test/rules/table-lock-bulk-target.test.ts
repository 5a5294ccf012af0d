import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'table-lock-bulk-target';
const TABLE = 'CREATE TABLE T (A INT);\n';
const BULK = 'INSERT INTO T SELECT A FROM S;\n';

describe(`rule ${RULE}`, () => {
  it('reports a bulk target that is locked row by row', () => {
    expectFindings({ 'schema.sql': TABLE, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 1, column: 14, severity: 'information', message: /^Bulk insert target T \(INSERT … SELECT\) uses row locking\. .*test 101: 30\.6 s vs 31\.5 s/ },
    ]);
  });

  it('accepts LOCKSIZE TABLE, a LOCK TABLE … IN EXCLUSIVE MODE, and non-bulk targets', () => {
    expectNoFindings({ 'schema.sql': TABLE + 'ALTER TABLE T LOCKSIZE TABLE;\n', 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': TABLE, 'load.sql': 'LOCK TABLE T IN EXCLUSIVE MODE;\n' + BULK }, RULE);
    expectNoFindings({ 'schema.sql': TABLE, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE);
  });

  it('is not satisfied by a LOCK TABLE in SHARE MODE', () => {
    expectFindings({ 'schema.sql': TABLE, 'load.sql': 'LOCK TABLE T IN SHARE MODE;\n' + BULK }, RULE, [{ file: 'schema.sql', line: 1, column: 14 }]);
  });
});
