// The time budget per file covers the rules too (engine/deadline.ts, Workspace.checkRules): a rule that is slow
// on one file is stopped at the budget, the file's findings are left out with a message naming the file, the
// budget and the rule, and the other files keep theirs. The rule modules do nothing for it: the engine checks
// between rules and in the helpers rules go through (report, lineOf, statementsOf, the schema's lookups,
// rules/support), and a rule that returns past the budget is named too.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { RULES } from '../../server/src/engine/registry';
import { statementsOf } from '../../server/src/engine/statements';
import type { RegisteredRule, RuleContext } from '../../server/src/engine/types';
import { inEffectAt } from '../../rules/support/targets';
import { runCli } from '../ci/repo';

/** A file this marks makes the slow rules slow; they return at once on others. */
const MARK = '-- SLOW';
/** How long a slow rule keeps going when nothing stops it: the old engine ran it to the end. */
const UNSTOPPED_MS = 15_000;

type Via = 'report' | 'lineOf' | 'statementsOf' | 'schema' | 'support' | 'nothing';

/** A rule that loops for UNSTOPPED_MS on marked files, going through one helper (`nothing`: none, for 600 ms). */
function slowRule(via: Via): RegisteredRule {
  const id = `slow-through-${via}`;
  const check = (context: RuleContext) => {
    if (!context.file.source.text.includes(MARK)) return;
    const stmt = context.file.statements[0];
    const started = Date.now();
    if (via === 'nothing') {
      while (Date.now() - started < 600);
      return;
    }
    while (Date.now() - started < UNSTOPPED_MS) {
      if (via === 'report') context.report({ messageId: 'found', span: { start: 0, end: 1 } });
      else if (via === 'lineOf') context.lineOf(0);
      else if (via === 'statementsOf') statementsOf(context.file, 'insert');
      else if (via === 'schema') context.schema.table({ name: 'T', span: { start: 0, end: 1 } }, stmt);
      else inEffectAt({ file: 'a.sql', stmt }, { file: 'a.sql', stmt });
    }
  };
  return { doc: '', rule: { meta: { id, description: `test rule ${id}`, defaultSeverity: 'warning', evidence: [], messages: { found: 'found' } }, check } };
}

const FAST = 'CREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT);\nINSERT INTO APP.T (A) SELECT A FROM APP.S;\n';
const SLOW = `${MARK}\n${FAST}`;

function workspaceWith(extra: RegisteredRule[]): Workspace {
  const rules = [...RULES, ...extra];
  return new Workspace(resolveConfig(rules.map((r) => r.rule)), [], rules);
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = Date.now();
  const value = run();
  return { value, ms: Date.now() - started };
}

describe('robustness: the time budget per file covers the rules', function () {
  this.timeout(60_000);

  for (const via of ['report', 'lineOf', 'statementsOf', 'schema', 'support'] as const) {
    it(`stops a rule that loops through ${via} at the budget and leaves the file out, naming the rule`, () => {
      const workspace = workspaceWith([slowRule(via)]);
      workspace.fileBudgetMs = 200;
      workspace.setFile('fast.sql', FAST);
      workspace.setFile('slow.sql', SLOW);
      const { value: slow, ms } = timed(() => workspace.diagnostics('slow.sql'));
      assert.ok(ms < 3_000, `the rule was stopped (${ms} ms, unstopped it runs ${UNSTOPPED_MS} ms)`);
      assert.deepEqual(slow, [], 'none of the file\'s findings: not those of the rules that finished, nor the partial ones');
      const why = `rules stopped after 200 ms in rule slow-through-${via} (the time budget per file; raise it with --file-time-budget)`;
      assert.equal(workspace.rulesStoppedIn('slow.sql'), why);
      assert.equal(workspace.leftOut('slow.sql'), why);
      assert.equal(workspace.timedOut('slow.sql'), why);
      assert.deepEqual(workspace.ruleFailures, [], 'running out of time is not a rule failure');
      // The other file: its findings, nothing left out; the budget of one file's rules does not leak into the next.
      assert.ok(workspace.diagnostics('fast.sql').some((d) => d.rule === 'identity-cache'));
      assert.equal(workspace.leftOut('fast.sql'), undefined);
      // Another file's edit (the findings of all files are stale) does not spend the budget on it again; a new budget does.
      workspace.setFile('other.sql', 'INSERT INTO APP.T (A) VALUES (1);\n');
      const again = timed(() => workspace.diagnostics('slow.sql'));
      assert.ok(again.ms < 150, `not run again (${again.ms} ms)`);
      assert.equal(workspace.leftOut('slow.sql'), why);
      workspace.fileBudgetMs = 300;
      workspace.setFile('other.sql', 'INSERT INTO APP.T (A) VALUES (2);\n');
      assert.deepEqual(workspace.diagnostics('slow.sql'), []);
      assert.match(workspace.leftOut('slow.sql') ?? '', /^rules stopped after 300 ms /);
      // Edited so that the rule is fast again: the findings come back and the message goes.
      workspace.setFile('slow.sql', FAST);
      assert.ok(workspace.diagnostics('slow.sql').some((d) => d.rule === 'identity-cache'));
      assert.equal(workspace.rulesStoppedIn('slow.sql'), undefined);
      assert.equal(workspace.leftOut('slow.sql'), undefined);
    });
  }

  it('names a rule that returns past the budget without going through any helper, and runs no rule after it', () => {
    let after = 0;
    const counting: RegisteredRule = { doc: '', rule: { meta: { id: 'zz-after', description: 'counts its calls', defaultSeverity: 'warning', evidence: [], messages: { found: 'found' } }, check: () => void after++ } };
    const workspace = workspaceWith([slowRule('nothing'), counting]);
    workspace.fileBudgetMs = 100;
    workspace.setFile('slow.sql', SLOW);
    assert.deepEqual(workspace.diagnostics('slow.sql'), []);
    assert.match(workspace.rulesStoppedIn('slow.sql') ?? '', /^rules stopped after 100 ms in rule slow-through-nothing /);
    assert.equal(after, 0);
  });

  it('gives a schema file\'s rules the budget: its findings are dropped, the linted files keep theirs', () => {
    const workspace = workspaceWith([slowRule('statementsOf')]);
    workspace.fileBudgetMs = 200;
    workspace.setSchemaFile('schema.ddl', `${MARK}\nCREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT);\n`);
    workspace.setFile('load.sql', 'INSERT INTO APP.T (A) SELECT A FROM APP.S;\n');
    const { value, ms } = timed(() => workspace.diagnostics('load.sql'));
    assert.ok(ms < 3_000, `stopped (${ms} ms)`);
    assert.match(workspace.rulesStoppedIn('schema.ddl') ?? '', /^rules stopped after 200 ms in rule slow-through-statementsOf /);
    assert.equal(workspace.leftOut('load.sql'), undefined);
    assert.ok(Array.isArray(value));
  });

  it('check names the file, the budget and the rule in text, JSON and SARIF output, and lints the other files', async () => {
    // The CLI runs the built-in catalogue: the slow rule joins it for this test only.
    const catalogue = RULES as RegisteredRule[];
    const slow = slowRule('statementsOf');
    catalogue.push(slow);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'insertlint-rules-budget-'));
      writeFileSync(join(dir, 'slow.sql'), SLOW);
      writeFileSync(join(dir, 'fast.sql'), FAST);
      // Left out for another reason (no Db2 access found): listed as such, with no time-budget warning.
      writeFileSync(join(dir, 'helper.py'), 'print("hello")\n');
      const why = 'rules stopped after 300 ms in rule slow-through-statementsOf (the time budget per file; raise it with --file-time-budget)';
      const started = Date.now();
      const text = await runCli(['check', '.', '--file-time-budget', '0.3'], dir);
      assert.ok(Date.now() - started < 10_000, 'the run is not held up by the slow rule');
      assert.equal(text.stderr, `insertlint: warning: slow.sql: ${why}; its findings are not reported\n`);
      assert.match(text.stdout, /fast\.sql:1:\d+ .*identity-cache/);
      assert.doesNotMatch(text.stdout, /slow\.sql:/);
      assert.match(text.stdout, /, 1 script and 1 code file left out \(1 code file: no Db2 access found; 1 script: rules stopped after 300 ms in rule slow-through-statementsOf\)\n$/);

      const json = await runCli(['check', '.', '--file-time-budget', '0.3', '--format', 'json'], dir);
      const report = JSON.parse(json.stdout);
      assert.deepEqual(report.leftOut.filter((f: { file: string }) => f.file !== 'helper.py'), [{ file: 'slow.sql', reason: why }]);
      assert.equal(report.summary.leftOut, 2);
      assert.ok(report.diagnostics.some((d: { file: string; rule: string }) => d.file === 'fast.sql' && d.rule === 'identity-cache'));
      assert.ok(report.diagnostics.every((d: { file: string }) => d.file !== 'slow.sql'));

      const sarif = JSON.parse((await runCli(['check', '.', '--file-time-budget', '0.3', '--format', 'sarif'], dir)).stdout);
      const notes = sarif.runs[0].invocations[0].toolExecutionNotifications as { level: string; message: { text: string } }[];
      assert.deepEqual(notes.filter((n) => /slow\.sql|helper\.py/.test(n.message.text)), [{ level: 'warning', message: { text: `slow.sql: ${why}; its findings are not reported` } }]);
      assert.ok(sarif.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'identity-cache'));
    } finally {
      catalogue.splice(catalogue.indexOf(slow), 1);
    }
  });
});
