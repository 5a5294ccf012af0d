import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'not-logged-initially';
const TABLE = 'CREATE TABLE T (A INT);\n';

describe(`rule ${RULE}`, () => {
  it('reports ACTIVATE NOT LOGGED INITIALLY with the recovery risk and tests 6-8', () => {
    const load = 'ALTER TABLE T ACTIVATE NOT LOGGED INITIALLY;\nINSERT INTO T SELECT A FROM S;\n';
    expectFindings({ 'schema.sql': TABLE, 'load.sql': load }, RULE, [
      { file: 'load.sql', line: 1, column: 15, endLine: 1, endColumn: 44, severity: 'warning', message: /^ACTIVATE NOT LOGGED INITIALLY on T\. .*inaccessible.*test 7: 16\.4 s vs 15\.7 s.*test 8: 11\.8 s/ },
    ]);
  });

  it('says when CHNGPGS_THRESH already keeps page cleaning ahead (test 8)', () => {
    const load = 'UPDATE DB CFG USING CHNGPGS_THRESH 5;\nALTER TABLE T ACTIVATE NOT LOGGED INITIALLY;\nINSERT INTO T SELECT A FROM S;\n';
    const [finding] = findings({ 'schema.sql': TABLE, 'load.sql': load }, RULE);
    assert.match(finding.message, /with CHNGPGS_THRESH 5 set here, page cleaning keeps up/);
  });

  it('reports CREATE TABLE … NOT LOGGED INITIALLY on an insert target only', () => {
    const ddl = 'CREATE TABLE T (A INT)\n  NOT LOGGED INITIALLY;\n';
    // The finding sits on the NOT LOGGED INITIALLY clause.
    const [finding] = expectFindings({ 'schema.sql': ddl, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE, [{ file: 'schema.sql', line: 2, column: 3, message: /^CREATE TABLE T … NOT LOGGED INITIALLY/ }]);
    assert.equal(finding.rule, RULE);
    expectNoFindings({ 'schema.sql': ddl }, RULE);
    expectNoFindings({ 'schema.sql': TABLE, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE);
  });
});
