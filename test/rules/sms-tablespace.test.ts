import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'sms-tablespace';
const SMS = "CREATE TABLESPACE DATA_TS\n  MANAGED BY SYSTEM USING ('/db2/data');\n";
const TABLE = 'CREATE TABLE T (A INT) IN DATA_TS;\n';

describe(`rule ${RULE}`, () => {
  it('reports MANAGED BY SYSTEM on a table space that holds an insert target', () => {
    expectFindings({ 'schema.sql': SMS + TABLE, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE, [
      { file: 'schema.sql', line: 2, column: 3, severity: 'information', message: /^Table space DATA_TS is MANAGED BY SYSTEM and holds insert target T\. .*25\.5 s on a DMS file table space \(test 81\) against 31\.5 s on SMS with multi-page allocation \(test 11\), which new databases have by default .*62\.9 s \(test 82\)/ },
    ]);
  });

  it('accepts DMS and automatic storage, and SMS table spaces without insert targets', () => {
    expectNoFindings({ 'schema.sql': SMS.replace('SYSTEM', 'DATABASE') + TABLE, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE);
    expectNoFindings({ 'schema.sql': 'CREATE TABLESPACE DATA_TS MANAGED BY AUTOMATIC STORAGE;\n' + TABLE, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE);
    expectNoFindings({ 'schema.sql': SMS + TABLE }, RULE);
  });
});
