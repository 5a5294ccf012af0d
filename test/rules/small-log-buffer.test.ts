import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'small-log-buffer';
const INSERT = 'INSERT INTO T VALUES (?);\n';

describe(`rule ${RULE}`, () => {
  it('reports a small LOGBUFSZ in a workload that inserts, and fixes it to 256', () => {
    const clp = 'UPDATE DB CFG FOR SALES USING LOGBUFSZ 8 MINCOMMIT 1;\n' + INSERT;
    expectFindings({ 'load.clp': clp }, RULE, [
      { line: 1, column: 31, endLine: 1, endColumn: 41, severity: 'information', message: /^LOGBUFSZ 8 gives a log buffer of 32 KB\. .*28\.5 s with LOGBUFSZ 8, 24\.9 s with 256/ },
    ]);
    assert.equal(applyFix({ 'load.clp': clp }, RULE), clp.replace('LOGBUFSZ 8', 'LOGBUFSZ 256'));
  });

  it('accepts a large buffer, another minPages, and scripts that insert nothing', () => {
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING LOGBUFSZ 1024;\n' + INSERT }, RULE);
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING LOGBUFSZ 64;\n' + INSERT }, RULE, { config: { rules: { [RULE]: ['information', { minPages: 64 }] } } });
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING LOGBUFSZ 8;\n' }, RULE);
  });
});
