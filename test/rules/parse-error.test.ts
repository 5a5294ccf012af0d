import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'parse-error';

describe(`rule ${RULE}`, () => {
  it('reports an unreadable statement at the unexpected token, naming it', () => {
    expectFindings({ 'broken.sql': 'CREATE TABLE T (A INT);\nCREATE INDEX I ON T A);\n' }, RULE, [
      { line: 2, column: 21, endColumn: 22, severity: 'information', message: /^InsertLint could not read this statement: Unexpected 'A' in CREATE INDEX/ },
    ]);
  });

  it('stays quiet on readable SQL', () => {
    expectNoFindings({ 'ok.sql': 'CREATE TABLE T (A INT);\nINSERT INTO T VALUES (1);\n' }, RULE);
  });
});
