// The time budget per file (engine/deadline.ts): a file that takes longer to read is left out with a
// message naming it, the other files are linted as usual, and the budget of one file never leaks into
// the next.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { nowMs } from '../../server/src/engine/clock';
import { loadCodeFrontEnd } from '../../server/src/code/frontend';
import { statementsOf } from '../../server/src/engine/statements';
import type { Rule } from '../../server/src/engine/types';
import { runCli } from '../ci/repo';

/** A script that takes a while to parse: many statements (the parser checks the budget between them). */
const bigScript = (rows: number) => Array.from({ length: rows }, (_, i) => `INSERT INTO APP.T (A, B) VALUES (${i}, 'row ${i}');`).join('\n') + '\n';
const SMALL = 'CREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT);\nINSERT INTO APP.T (A) SELECT A FROM APP.S;\n';

describe('robustness: the time budget per file', function () {
  this.timeout(60_000);

  it('gives up an SQL script past its budget and reads the next file with a fresh one', () => {
    const workspace = new Workspace(resolveConfig(allRules()));
    workspace.fileBudgetMs = 1;
    const slow = workspace.setFile('big.sql', bigScript(40_000))!;
    assert.equal(slow.timedOut, true);
    assert.match(slow.leftOut ?? '', /analysis stopped after 1 ms/);
    assert.deepEqual(slow.statements, []);
    workspace.fileBudgetMs = 10_000;
    const next = workspace.setFile('small.sql', SMALL)!;
    assert.equal(next.timedOut, undefined);
    assert.ok(workspace.diagnostics('small.sql').some((d) => d.rule === 'identity-cache'));
  });

  it('a raised budget reads again the files read past the old one; a lowered one keeps what was read', () => {
    const workspace = new Workspace(resolveConfig(allRules()));
    workspace.fileBudgetMs = 1;
    assert.equal(workspace.setFile('big.sql', SMALL + bigScript(40_000))!.timedOut, true);
    assert.match(workspace.timedOut('big.sql') ?? '', /analysis stopped after 1 ms/);
    workspace.fileBudgetMs = 60_000;
    const read = workspace.model('big.sql')!;
    assert.equal(read.timedOut, undefined);
    assert.equal(read.statements.length, 40_002);
    assert.equal(workspace.timedOut('big.sql'), undefined);
    assert.ok(workspace.diagnostics('big.sql').some((d) => d.rule === 'identity-cache'));
    // Work done within the old budget is not thrown away: the smaller one applies from the file's next change.
    workspace.fileBudgetMs = 1;
    assert.equal(workspace.model('big.sql'), read);
  });

  it('a changed budget runs again the rules it stopped, without any other change', () => {
    const runMs = 200;
    const rule: Rule = {
      meta: { id: 'slowish-rule', description: 'takes runMs', defaultSeverity: 'warning', evidence: [], messages: { m: 'ran' } },
      check({ file, report }) {
        const started = nowMs();
        while (nowMs() - started < runMs) statementsOf(file, 'insert');
        report({ stmt: file.statements[0], span: { start: 0, end: 1 }, messageId: 'm' });
      },
    };
    const workspace = new Workspace(resolveConfig([rule]), [], [{ rule, doc: '' }]);
    workspace.fileBudgetMs = 50;
    workspace.setFile('a.sql', SMALL);
    assert.deepEqual(workspace.diagnostics('a.sql'), []);
    assert.match(workspace.rulesStoppedIn('a.sql') ?? '', /^rules stopped after 50 ms in rule slowish-rule/);
    workspace.fileBudgetMs = 5_000;
    assert.deepEqual(workspace.diagnostics('a.sql').map((d) => d.rule), ['slowish-rule']);
    assert.equal(workspace.rulesStoppedIn('a.sql'), undefined);
    // Lowered below what the rule takes: findings made within the old budget are kept until the file changes.
    workspace.fileBudgetMs = 50;
    assert.deepEqual(workspace.diagnostics('a.sql').map((d) => d.rule), ['slowish-rule']);
  });

  it('gives up application code past its budget (tree-sitter parse or walk)', async () => {
    const workspace = new Workspace(resolveConfig(allRules()), [await loadCodeFrontEnd()]);
    workspace.fileBudgetMs = 1;
    const java = 'class A { void m(java.sql.Statement st) throws Exception {\n' + 'for (int i = 0; i < 100; i++) { st.execute("INSERT INTO T VALUES (1)"); }\n'.repeat(20_000) + '} }\n';
    const model = workspace.setFile('A.java', java)!;
    assert.equal(model.timedOut, true);
    assert.match(model.leftOut ?? '', /time budget per file/);
  });

  it('check warns with the file name, lints the rest and accepts --file-time-budget', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-budget-'));
    writeFileSync(join(dir, 'big.sql'), bigScript(200_000));
    writeFileSync(join(dir, 'small.sql'), SMALL);
    // 50 ms: 200,000 lines take far longer on any machine (0.2 s did not on a fast CI machine), and the two-line
    // script, read after them, well within it on a loaded one (5 ms left it out too once, on a machine busy elsewhere).
    const result = await runCli(['check', '.', '--file-time-budget', '0.05', '--format', 'json'], dir);
    assert.match(result.stderr, /big\.sql: analysis stopped after 50 ms \(the time budget per file; raise it with --file-time-budget\); its findings are not reported/);
    const report = JSON.parse(result.stdout);
    assert.ok(report.diagnostics.some((d: { rule: string; file: string }) => d.rule === 'identity-cache' && /small\.sql$/.test(d.file)));
    assert.ok(report.leftOut.some((f: { file: string; reason: string }) => /big\.sql$/.test(f.file) && /analysis stopped/.test(f.reason)));
    // --timings: each file's own read and rule times, slowest first (what the benchmark's slowest files use).
    await runCli(['check', '.', '--timings', 'timings.json', '--file-time-budget', '0.2'], dir);
    const timings = JSON.parse(readFileSync(join(dir, 'timings.json'), 'utf8')) as { file: string; lines: number; readMs: number; rulesMs: number }[];
    const files = timings.filter((t) => t.lines > 0);
    assert.deepEqual(files.map((t) => [t.file, t.lines]), [['big.sql', 200_001], ['small.sql', 3]]);
    // Folding the schema is the run's, in a row of its own.
    assert.deepEqual(timings.filter((t) => t.lines === 0).map((t) => [t.file, t.readMs]), [['(schema of all files)', 0]]);
    assert.ok(files[0].readMs >= files[1].readMs);
    // To the microsecond, not to 0.01 ms (which was a quarter of what a one-line script may take at 50,000 lines/s).
    const micros = files.flatMap((t) => [t.readMs, t.rulesMs]).map((ms) => ms * 1000);
    assert.ok(micros.every((us) => Math.abs(us - Math.round(us)) < 1e-6), `times in whole microseconds: ${micros}`);
    assert.ok(micros.some((us) => Math.round(us) % 10 !== 0), `not all rounded to 0.01 ms: ${micros}`);
    const bad = await runCli(['check', '.', '--file-time-budget', 'soon'], dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--file-time-budget must be a number of seconds/);
  });
});

describe('robustness: --timings counts the schema once', () => {
  it('gives no file a negative rule time, and the schema row no more than its build took', () => {
    // Scripts that set a schema and name tables without one: folding them notes the schema in force at each
    // statement (deferred work the build itself may run), whose time was counted in the build and again apart.
    const workspace = new Workspace(resolveConfig(allRules()));
    for (let f = 0; f < 8; f++) {
      const rows = Array.from({ length: 4_000 }, (_, i) => `INSERT INTO T${f} (A) VALUES (${i});`).join('\n');
      // An INSERT … SELECT: whether it copies reference data looks its source table up as the build settles.
      workspace.setFile(`s${f}.sql`, `SET SCHEMA APP${f};\nCREATE TABLE T${f} (A INT);\nCREATE TABLE C${f} (A INT);\n${rows}\nINSERT INTO C${f} SELECT A FROM T${f};\n`);
    }
    const started = nowMs();
    void workspace.schema;
    const built = nowMs() - started;
    assert.ok(workspace.schemaBuildMs <= built, `schema ${workspace.schemaBuildMs} ms counted, ${built} ms taken`);
    for (let f = 0; f < 8; f++) workspace.diagnostics(`s${f}.sql`);
    assert.deepEqual(workspace.timings().filter((t) => t.rulesMs < 0), []);
  });
});
