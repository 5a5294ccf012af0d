import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'generated-column-bulk-target';
const TABLE = ['CREATE TABLE T1 (', '  C1 CHAR(5),', '  C2 CHAR(5) GENERATED ALWAYS AS (UPPER(C1)),', '  ID INT GENERATED ALWAYS AS IDENTITY (CACHE 1000)', ');', ''].join('\n');
const BULK = 'INSERT INTO T1 (C1) SELECT C1 FROM S;\n';

describe(`rule ${RULE}`, () => {
  it('reports an expression-generated column of a bulk target as a hint (identity columns are not)', () => {
    expectFindings({ 'schema.sql': TABLE, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 3, column: 3, endColumn: 5, severity: 'hint', message: /^Column C2 of bulk insert target T1 \(INSERT … SELECT\) is GENERATED … AS an expression/ },
    ]);
  });

  it('ignores non-bulk targets', () => {
    expectNoFindings({ 'schema.sql': TABLE, 'load.sql': 'INSERT INTO T1 (C1) VALUES (?);\n' }, RULE);
  });
});
