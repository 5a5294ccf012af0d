import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'prefer-load-from-cursor';

describe(`rule ${RULE}`, () => {
  it('reports INSERT … SELECT from another table, on the target', () => {
    expectFindings({ 'load.sql': 'INSERT INTO MYSCHEMA.NEW_STAFF\n  SELECT * FROM STAFF;\n' }, RULE, [
      { line: 1, column: 13, endColumn: 31, severity: 'information', message: /^INSERT INTO MYSCHEMA\.NEW_STAFF … SELECT .*LOAD FROM c OF CURSOR INSERT INTO MYSCHEMA\.NEW_STAFF.*12\.9 s against 15\.7 s/ },
    ]);
  });

  it('ignores VALUES inserts, selects from SYSIBM.SYSDUMMY1 and declared temporary tables', () => {
    expectNoFindings({ 'load.sql': 'INSERT INTO T VALUES (1), (2);\n' }, RULE);
    expectNoFindings({ 'load.sql': 'INSERT INTO T SELECT CURRENT DATE FROM SYSIBM.SYSDUMMY1;\n' }, RULE);
    expectNoFindings({ 'load.sql': 'INSERT INTO SESSION.WORK SELECT * FROM STAFF;\n' }, RULE);
  });
});
