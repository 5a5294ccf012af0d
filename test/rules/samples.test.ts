// The bundled sample workload (samples/) is what a new user runs first: it must show every core rule,
// and its fixed twin (samples/clean/) must come out clean.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRule } from '../../server/src/engine/registry';
import { lint, type Files } from '../helpers/rule-tester';

// Bundled tests run from out/test/rules/.
const SAMPLES = join(__dirname, '..', '..', '..', 'samples');

/** The SQL scripts directly in a folder (samples/app/ holds application code and is not read here). */
function scripts(dir: string): Files {
  const files: Files = {};
  for (const name of readdirSync(dir).sort()) {
    if (/\.(sql|clp|db2|ddl)$/i.test(name)) files[`${dir.slice(SAMPLES.length + 1) || '.'}/${name}`] = readFileSync(join(dir, name), 'utf8');
  }
  return files;
}

/** The ids issue 2 fixes; the five code-oriented ones are checked once their modules exist. */
const CORE_RULES = [
  'prefer-parameter-markers',
  'single-row-insert',
  'no-autocommit',
  'commit-per-row',
  'identity-cache',
  'clustered-index-bulk-target',
  'lob-column',
  'refresh-immediate-mqt',
  'insert-trigger',
  'enforced-foreign-key',
  'index-count',
  'not-logged-initially',
];

describe('bundled sample workload', () => {
  it('samples/ shows every core rule that is registered', () => {
    const files = scripts(SAMPLES);
    assert.deepEqual(Object.keys(files), ['./archive.db2', './load.clp', './new_customers.clp', './schema.sql']);
    // Each rule on its own (one finding per cause merges some of them in the CLI: their rule shows as related).
    const found = new Set(lint(files, { unmerged: true }).map((f) => f.rule));
    const missing = CORE_RULES.filter((id) => findRule(id) && !found.has(id));
    assert.deepEqual(missing, [], `rules the sample should trigger but does not: ${missing.join(', ')}`);
    // The schema rules this suite owns must always be registered.
    for (const id of CORE_RULES.slice(4)) assert.ok(findRule(id), `${id} is not registered`);
  });

  it('samples/ also shows the information-level rules', () => {
    // With every rule on: insert-target-cost, prefer-load-from-cursor and append-pctfree are off by default.
    const found = new Set(lint(scripts(SAMPLES), { config: { extends: 'insertlint:all' }, unmerged: true }).map((f) => f.rule));
    for (const id of ['insert-target-cost', 'sms-tablespace', 'small-extent-size', 'small-log-buffer', 'page-cleaning', 'mincommit', 'prefer-load-from-cursor', 'import-commitcount', 'append-pctfree']) {
      assert.ok(found.has(id), `${id} does not fire on the sample`);
    }
    assert.ok(!found.has('parse-error'), 'the sample must parse cleanly');
  });

  it('linting samples/ with clean/ together keeps the two apart: clean/ stays clean, the sample keeps its findings', () => {
    const together = { ...scripts(SAMPLES), ...scripts(join(SAMPLES, 'clean')) };
    const all = lint(together);
    assert.deepEqual(all.filter((f) => f.file.startsWith('clean/')).map((f) => `${f.file}:${f.line} ${f.rule}`), []);
    const alone = lint(scripts(SAMPLES));
    assert.deepEqual(all.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`), alone.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`));
  });

  it('samples/clean/ has no findings at all', () => {
    const files = scripts(join(SAMPLES, 'clean'));
    assert.deepEqual(Object.keys(files), ['clean/archive.db2', 'clean/load.clp', 'clean/new_customers.clp', 'clean/schema.sql']);
    assert.deepEqual(lint(files).map((f) => `${f.file}:${f.line}:${f.column} ${f.rule} ${f.message}`), []);
  });
});
