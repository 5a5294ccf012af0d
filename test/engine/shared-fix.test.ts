// single-row-insert's multi-row fix combines a whole run. It was offered on every INSERT of the run, and a
// copy per report made memory quadratic (200,000 single-row inserts in a row took 4 GB and crashed `check`);
// reports of one fix share its mapped copy (engine/workspace.ts). A run is now one finding (rules/support/runs.ts).
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';

describe('engine: a fix given to many reports', () => {
  it("is on the single finding of a single-row-insert run, with the run's edits in file offsets", () => {
    const workspace = new Workspace(resolveConfig(allRules()));
    workspace.mergeFindings = false;
    const text = Array.from({ length: 300 }, (_, i) => `INSERT INTO APP.T (A, B) VALUES (${i}, 'r${i}');`).join('\n') + '\n';
    workspace.setFile('run.sql', text);
    const fixes = workspace.diagnostics('run.sql').flatMap((d) => (d.rule === 'single-row-insert' && d.fix ? [d.fix] : []));
    assert.equal(fixes.length, 1, 'one finding for the run');
    assert.equal(fixes[0].edits.length, 299);
    const first = fixes[0].edits[0];
    assert.equal(text.slice(first.span.start, first.span.end), ";\nINSERT INTO APP.T (A, B) VALUES ");
  });
});
