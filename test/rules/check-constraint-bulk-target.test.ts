import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'check-constraint-bulk-target';
const TABLE = ['CREATE TABLE T (', '  A INT,', '  CONSTRAINT A_POS CHECK (A > 0)', ');', ''].join('\n');
const BULK = 'INSERT INTO T SELECT A FROM S;\n';

describe(`rule ${RULE}`, () => {
  it('reports an enforced CHECK constraint of a bulk target as a hint', () => {
    expectFindings({ 'schema.sql': TABLE, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 3, column: 3, severity: 'hint', message: /^CHECK constraint A_POS is evaluated for every row inserted into bulk target T .*33\.7 s with one and 36\.6 s with two/ },
    ]);
  });

  it('ignores NOT ENFORCED checks and non-bulk targets', () => {
    expectNoFindings({ 'schema.sql': TABLE.replace('(A > 0)', '(A > 0) NOT ENFORCED'), 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': TABLE, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE);
  });
});
