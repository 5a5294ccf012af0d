// The clean-loader corpus (prepared, batched, autocommit off, guarded commits) must stay silent in every
// language, while the sample application loaders (samples/app) must show each insert-pattern rule.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brief, INSERT_RULES, lintCode } from './helpers';

// Bundled tests run from out/test/code/.
const ROOT = join(__dirname, '..', '..', '..');

function readDir(dir: string, prefix: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.md')) files[`${prefix}/${name}`] = readFileSync(join(dir, name), 'utf8');
  }
  return files;
}

describe('code: clean loaders and the sample application', () => {
  it('the clean-loader corpus has no findings at all, and every file is really read', async () => {
    const files = readDir(join(ROOT, 'test', 'fixtures', 'code', 'clean'), 'clean');
    const exts = new Set(Object.keys(files).map((f) => f.slice(f.lastIndexOf('.'))));
    for (const ext of ['.java', '.py', '.js', '.ts', '.c', '.sqc', '.sh']) assert.ok(exts.has(ext), `no clean ${ext} loader`);
    const { findings, models } = await lintCode(files);
    assert.deepEqual(findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule} ${f.message}`), []);
    for (const [path, model] of models) {
      const inserts = model.code!.executions.filter((e) => e.statements.some((s) => s.kind === 'insert'));
      assert.ok(inserts.length > 0, `${path}: no INSERT execution found, so its silence proves nothing`);
    }
  });

  it('samples/app shows all five insert-pattern rules in Java, Python and Node', async () => {
    const files = readDir(join(ROOT, 'samples', 'app'), 'app');
    const { findings } = await lintCode(files);
    const byFile = (suffix: string) => new Set(findings.filter((f) => f.file.endsWith(suffix)).map((f) => f.rule));
    assert.deepEqual([...byFile('.java')].filter((r) => INSERT_RULES.includes(r)).sort(), [...INSERT_RULES].sort());
    assert.deepEqual([...byFile('.py')].sort(), ['commit-per-row', 'no-autocommit', 'prefer-parameter-markers', 'single-row-insert']);
    assert.deepEqual([...byFile('.js')].sort(), ['no-autocommit', 'prefer-parameter-markers', 'prepare-in-loop', 'single-row-insert']);
    assert.ok(!findings.some((f) => f.rule === 'parse-error'), brief(findings).join(', '));
  });

  it('with the sample schema, SQL rules see the inserts made from code', async () => {
    const files = { ...readDir(join(ROOT, 'samples', 'app'), 'app'), 'schema.sql': readFileSync(join(ROOT, 'samples', 'schema.sql'), 'utf8') };
    const { findings } = await lintCode(files, { rules: { 'insert-target-cost': 'information' } });
    const cost = findings.filter((f) => f.rule === 'insert-target-cost' && f.file.startsWith('app/'));
    assert.ok(cost.length >= 2, 'insert-target-cost summarises the targets where the code inserts');
  });
});
