import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'append-pctfree';
const LOAD = 'INSERT INTO T VALUES (?);\n';

describe(`rule ${RULE}`, () => {
  it('reports PCTFREE on an APPEND ON table and fixes it to PCTFREE 0', () => {
    const ddl = 'CREATE TABLE T (A INT)\n  PCTFREE 10 APPEND ON;\n';
    expectFindings({ 'schema.sql': ddl, 'load.sql': LOAD }, RULE, [
      { file: 'schema.sql', line: 2, column: 3, endLine: 2, endColumn: 13, severity: 'information', message: /^PCTFREE 10 on T, which is in APPEND mode: 10% of every data page stays empty\./ },
    ]);
    assert.equal(applyFix({ 'schema.sql': ddl, 'load.sql': LOAD }, RULE), 'CREATE TABLE T (A INT)\n  PCTFREE 0 APPEND ON;\n');
  });

  it('reports the ALTER TABLE that sets the PCTFREE in effect', () => {
    const ddl = 'CREATE TABLE T (A INT);\nALTER TABLE T APPEND ON PCTFREE 20;\n';
    expectFindings({ 'schema.sql': ddl, 'load.sql': LOAD }, RULE, [{ file: 'schema.sql', line: 2, column: 25, message: /^PCTFREE 20 / }]);
  });

  it('accepts PCTFREE 0, PCTFREE without APPEND, and tables without inserts', () => {
    expectNoFindings({ 'schema.sql': 'CREATE TABLE T (A INT) PCTFREE 0 APPEND ON;\n', 'load.sql': LOAD }, RULE);
    expectNoFindings({ 'schema.sql': 'CREATE TABLE T (A INT) PCTFREE 10;\n', 'load.sql': LOAD }, RULE);
    expectNoFindings({ 'schema.sql': 'CREATE TABLE T (A INT) PCTFREE 10 APPEND ON;\n' }, RULE);
  });
});
