import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'clustered-index-bulk-target';
const TABLE = 'CREATE TABLE T (A INT, B INT);\n';
const CLUSTERED = 'CREATE INDEX T_A ON T (A)\n  CLUSTER;\n';
const BULK = 'INSERT INTO T SELECT A, B FROM S;\n';

describe(`rule ${RULE}`, () => {
  it('reports the CLUSTER keyword of an index on a bulk target', () => {
    expectFindings({ 'schema.sql': TABLE + CLUSTERED, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 3, column: 3, endLine: 3, endColumn: 10, severity: 'warning', message: /^Clustering index T_A on bulk insert target T \(INSERT … SELECT\).*53\.7 s with one ordinary index, 62\.9 s when it clusters/ },
    ]);
  });

  it('counts literal rows that reach bulkRowThreshold as bulk (the rule tester sets it to 2)', () => {
    const load = 'INSERT INTO T VALUES (1, 2);\nINSERT INTO T VALUES (3, 4);\n';
    expectFindings({ 'schema.sql': TABLE + CLUSTERED, 'load.sql': load }, RULE, [{ file: 'schema.sql', line: 3, column: 3, message: /\(2 rows of INSERT … VALUES\)/ }]);
    expectNoFindings({ 'schema.sql': TABLE + CLUSTERED, 'load.sql': load }, RULE, { config: { bulkRowThreshold: 3 } });
  });

  it('names each kind of bulk insert once', () => {
    const load = 'INSERT INTO T VALUES (1, 2), (3, 4);\nINSERT INTO T SELECT A, B FROM S;\nINSERT INTO T SELECT A, B FROM U;\n';
    const [finding] = expectFindings({ 'schema.sql': TABLE + CLUSTERED, 'load.sql': load }, RULE, [{ file: 'schema.sql', line: 3, column: 3 }]);
    assert.match(finding.message, /bulk insert target T \(INSERT … SELECT; 2 rows of INSERT … VALUES\)\./);
  });

  it('ignores ordinary indexes, tables without bulk inserts, and indexes built after the load', () => {
    expectNoFindings({ 'schema.sql': TABLE + 'CREATE INDEX T_A ON T (A);\n', 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': TABLE + CLUSTERED, 'load.sql': 'INSERT INTO T VALUES (?, ?);\n' }, RULE);
    expectNoFindings({ 'schema.sql': TABLE + CLUSTERED }, RULE);
    expectNoFindings({ 'load.sql': TABLE + BULK + CLUSTERED }, RULE);
  });

  it('scales the cost to the rows the scripts spell out, a hint under a second', () => {
    const load = 'INSERT INTO T VALUES (1, 2);\nINSERT INTO T VALUES (3, 4);\n';
    expectFindings({ 'schema.sql': TABLE + CLUSTERED, 'load.sql': load }, RULE, [
      { file: 'schema.sql', line: 3, column: 3, severity: 'hint', message: /\(31\.5 s with none, test 31\)\. The scripts insert 2 rows into it: less than 0\.01 s more in all at the measured rates \(tests 38 and 31\)\. Create the index/ },
    ]);
    const [unknown] = expectFindings({ 'schema.sql': TABLE + CLUSTERED, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 3, column: 3, severity: 'warning' }]);
    assert.doesNotMatch(unknown.message, /The scripts insert/);
  });
});
