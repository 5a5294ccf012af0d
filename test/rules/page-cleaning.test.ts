import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'page-cleaning';
const INSERT = 'INSERT INTO T VALUES (?);\n';

describe(`rule ${RULE}`, () => {
  it('reports a high CHNGPGS_THRESH and NUM_IOCLEANERS 0', () => {
    expectFindings({ 'load.clp': 'UPDATE DB CFG USING CHNGPGS_THRESH 60 NUM_IOCLEANERS 0;\n' + INSERT }, RULE, [
      { line: 1, column: 21, endColumn: 38, severity: 'information', message: /^CHNGPGS_THRESH 60 delays page cleaning for inserts\. .*16\.4 s \(test 7\) to 11\.8 s/ },
      { line: 1, column: 39, message: /^NUM_IOCLEANERS 0 turns asynchronous page cleaning off/ },
    ]);
  });

  it('accepts aggressive cleaning, the maxChngpgsThresh option, and scripts that insert nothing', () => {
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING CHNGPGS_THRESH 5 NUM_IOCLEANERS AUTOMATIC;\n' + INSERT }, RULE);
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING CHNGPGS_THRESH 60;\n' + INSERT }, RULE, { config: { rules: { [RULE]: ['information', { maxChngpgsThresh: 60 }] } } });
    expectNoFindings({ 'load.clp': 'UPDATE DB CFG USING CHNGPGS_THRESH 60;\n' }, RULE);
  });
});
