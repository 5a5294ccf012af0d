import { runRuleTests } from '../helpers/rule-tester';

const INSERT = 'INSERT INTO T VALUES (?);\n';

runRuleTests('mincommit', {
  valid: [
    { name: 'MINCOMMIT 1', files: { 'load.clp': 'UPDATE DB CFG USING MINCOMMIT 1;\n' + INSERT } },
    { name: 'a script that inserts nothing', files: { 'load.clp': 'UPDATE DB CFG USING MINCOMMIT 3;\n' } },
    { name: 'turned off', files: { 'load.clp': 'UPDATE DB CFG USING MINCOMMIT 3;\n' + INSERT }, options: { config: { rules: { mincommit: 'off' } } } },
  ],
  invalid: [
    {
      name: 'MINCOMMIT above 1, fixed to 1',
      files: { 'load.clp': 'UPDATE DATABASE CONFIGURATION USING MINCOMMIT 3;\n' + INSERT },
      findings: [{ line: 1, column: 37, endColumn: 48, severity: 'information', message: /^MINCOMMIT 3 makes each commit wait until 3 commits can share one log write/ }],
      output: 'UPDATE DATABASE CONFIGURATION USING MINCOMMIT 1;\n' + INSERT,
    },
    {
      name: 'severity from the configuration',
      files: { 'load.clp': 'UPDATE DB CFG FOR SALES USING MINCOMMIT 8;\n' + INSERT },
      findings: [{ line: 1, column: 31, severity: 'warning' }],
      options: { config: { rules: { mincommit: 'warning' } } },
    },
  ],
});
