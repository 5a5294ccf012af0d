// A rule may hand one fix to many reports (single-row-insert offers its multi-row fix on every INSERT of a
// run). The reports must share the fix mapped to file offsets: a copy each made memory quadratic in the run
// (200,000 single-row inserts in a row took 4 GB and crashed `check`).
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';

describe('engine: a fix given to many reports', () => {
  it('is one object shared by the findings of a single-row-insert run, with edits in file offsets', () => {
    const workspace = new Workspace(resolveConfig(allRules()));
    workspace.mergeFindings = false;
    const text = Array.from({ length: 300 }, (_, i) => `INSERT INTO APP.T (A, B) VALUES (${i}, 'r${i}');`).join('\n') + '\n';
    workspace.setFile('run.sql', text);
    const fixes = workspace.diagnostics('run.sql').flatMap((d) => (d.rule === 'single-row-insert' && d.fix ? [d.fix] : []));
    assert.ok(fixes.length > 100, `${fixes.length} findings with the fix`);
    assert.ok(fixes.every((f) => f === fixes[0]));
    assert.equal(fixes[0].edits.length, 299);
    const first = fixes[0].edits[0];
    assert.equal(text.slice(first.span.start, first.span.end), ";\nINSERT INTO APP.T (A, B) VALUES ");
  });
});
