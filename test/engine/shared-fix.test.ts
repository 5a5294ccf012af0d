// single-row-insert's multi-row fix combines a whole run. It was offered on every INSERT of the run, and a
// copy per report made memory quadratic (200,000 single-row inserts in a row took 4 GB and crashed `check`);
// reports of one fix share its mapped copy (engine/workspace.ts). A run is now one finding (rules/support/runs.ts).
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import type { Rule } from '../../server/src/engine/types';

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
  it('is not worked out by a workspace that shows no fixes (the CLI but SARIF), the finding otherwise the same', () => {
    const text = Array.from({ length: 300 }, (_, i) => `INSERT INTO APP.T (A, B) VALUES (${i}, 'r${i}');`).join('\n') + '\n';
    const findings = (fixes: boolean) => {
      const workspace = new Workspace(resolveConfig(allRules()));
      workspace.fixes = fixes;
      workspace.setFile('run.sql', text);
      return workspace.diagnostics('run.sql');
    };
    const shown = findings(true);
    const without = findings(false);
    assert.ok(shown.some((d) => d.fix), 'the single-row-insert run offers its fix where fixes are shown');
    assert.ok(without.every((d) => d.fix === undefined), 'no finding carries a fix');
    assert.deepEqual(without, shown.map(({ fix: _fix, ...d }) => d));
  });

  it('is asked of a rule that gives it as a function only where fixes are shown', () => {
    let asked = 0;
    const rule: Rule = {
      meta: { id: 'lazy-fix', description: 'test rule', defaultSeverity: 'warning', evidence: [], messages: { m: 'found' } },
      check({ file, report }) {
        const stmt = file.statements[0];
        report({ messageId: 'm', span: stmt.span, stmt, fix: () => (asked++, { title: 'Drop it', edits: [{ span: stmt.span, newText: '' }] }) });
      },
    };
    const findings = (fixes: boolean) => {
      const workspace = new Workspace(resolveConfig([rule]), [], [{ rule, doc: '' }]);
      workspace.fixes = fixes;
      workspace.setFile('a.sql', 'COMMIT;\n');
      return workspace.diagnostics('a.sql');
    };
    assert.equal(findings(false)[0].fix, undefined);
    assert.equal(asked, 0, 'not called');
    assert.deepEqual(findings(true)[0].fix, { title: 'Drop it', edits: [{ span: { start: 0, end: 6 }, newText: '' }] });
    assert.equal(asked, 1);
  });
});
