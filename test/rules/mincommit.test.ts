import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'mincommit';
const INSERT = 'INSERT INTO T VALUES (?);\n';

describe(`rule ${RULE}`, () => {
  it('reports MINCOMMIT above 1 and fixes it to 1', () => {
    const clp = 'UPDATE DATABASE CONFIGURATION USING MINCOMMIT 3;\n' + INSERT;
    expectFindings({ 'load.clp': clp }, RULE, [{ line: 1, column: 37, endColumn: 48, severity: 'information', message: /^MINCOMMIT 3 makes each commit wait until 3 commits can share one log write/ }]);
    assert.equal(applyFix({ 'load.clp': clp }, RULE), clp.replace('MINCOMMIT 3', 'MINCOMMIT 1'));
  });

  it('accepts MINCOMMIT 1 and scripts that insert nothing', () => {
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING MINCOMMIT 1;\n' + INSERT }, RULE);
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING MINCOMMIT 3;\n' }, RULE);
  });
});
