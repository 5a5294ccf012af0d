import { createHash } from 'node:crypto';
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FINGERPRINT_KEY, fingerprints, lineSource } from '../../server/src/output/fingerprint';
import { Repo, runCli, ordersDdl, onlyRules } from './repo';

const INSERT = 'INSERT INTO app.orders (cust) VALUES (?);\n';

async function sarifPrints(repo: Repo): Promise<{ line: number; print: string }[]> {
  const result = await runCli(['check', '--format', 'sarif'], repo.dir);
  const log = JSON.parse(result.stdout);
  return log.runs[0].results.map((r: { locations: { physicalLocation: { region: { startLine: number } } }[]; partialFingerprints: Record<string, string> }) => ({
    line: r.locations[0].physicalLocation.region.startLine,
    print: r.partialFingerprints[FINGERPRINT_KEY],
  }));
}

describe('fingerprints', () => {
  it('depend on rule, file and flagged text, and number identical findings by occurrence', () => {
    const text = 'a\n  x   NO CACHE\nb\nx NO CACHE\n';
    const finding = (line: number, rule = 'identity-cache', displayPath = 'f.sql') => ({ rule, displayPath, line, endLine: line });
    const [first, second, otherRule, otherFile] = fingerprints([finding(2), finding(4), finding(2, 'lob-column'), finding(2, 'identity-cache', 'g.sql')], () => lineSource(text));
    assert.notEqual(first, second, 'identical text is told apart by occurrence');
    assert.notEqual(first, otherRule);
    assert.notEqual(first, otherFile);
    const moved = 'new line\nanother\na\n  x   NO CACHE\nb\nx NO CACHE\n';
    const [firstMoved, secondMoved] = fingerprints([finding(4), finding(6)], () => lineSource(moved));
    assert.equal(firstMoved, first);
    assert.equal(secondMoved, second);
    const edited = fingerprints([finding(2)], () => lineSource('a\n  x   CACHE 5\n'))[0];
    assert.notEqual(edited, first);
  });

  it('are the first 32 hex digits of the SHA-256 of rule, file, flagged text and occurrence (baselines written before stay valid)', () => {
    const [print] = fingerprints([{ rule: 'identity-cache', displayPath: 'f.sql', line: 2, endLine: 2 }], () => lineSource('a\n  x   NO CACHE\n'));
    assert.equal(print, createHash('sha256').update('identity-cache\u0000f.sql\u0000x NO CACHE\u00000').digest('hex').slice(0, 32));
  });

  it('do not change when a file moves from LF to CRLF or CR line ends', () => {
    const finding = { rule: 'identity-cache', displayPath: 'f.sql', line: 2, endLine: 2 };
    const lf = 'a\n  x   NO CACHE\nb\n';
    const [print] = fingerprints([finding], () => lineSource(lf));
    assert.equal(fingerprints([finding], () => lineSource(lf.replace(/\n/g, '\r\n')))[0], print);
    assert.equal(fingerprints([finding], () => lineSource(lf.replace(/\n/g, '\r')))[0], print);
  });

  it('stay the same in SARIF when unrelated lines are added above a finding', async () => {
    const repo = new Repo();
    try {
      repo.write('.insertlintrc.json', onlyRules(['identity-cache'])).write('db/orders.sql', ordersDdl('NO CACHE') + INSERT);
      const before = await sarifPrints(repo);
      assert.equal(before.length, 1);
      repo.write('db/orders.sql', '-- Orders.\n-- Owned by the billing team.\n\nCREATE TABLE app.other (x INTEGER);\n' + ordersDdl('NO CACHE') + INSERT);
      const after = await sarifPrints(repo);
      assert.equal(after.length, 1);
      assert.equal(after[0].line, before[0].line + 4);
      assert.equal(after[0].print, before[0].print);
      repo.write('db/orders.sql', ordersDdl('CACHE 5') + INSERT);
      const changed = await sarifPrints(repo);
      assert.notEqual(changed[0].print, before[0].print, 'editing the flagged line makes a new finding');
    } finally {
      repo.dispose();
    }
  });
});

describe('check --write-baseline / --baseline', () => {
  let repo: Repo;
  beforeEach(() => {
    repo = new Repo();
    repo.write('.insertlintrc.json', onlyRules(['identity-cache'])).write('db/orders.sql', ordersDdl('NO CACHE') + INSERT);
  });
  afterEach(() => repo.dispose());

  it('records today\'s findings and then reports only new ones, matching by fingerprint not line', async () => {
    const plain = await runCli(['check'], repo.dir);
    assert.equal(plain.code, 1, 'the finding fails a run without a baseline');

    const written = await runCli(['check', '--write-baseline', 'insertlint-baseline.json'], repo.dir);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stderr, /wrote 1 finding to the baseline/);
    const baseline = JSON.parse(readFileSync(join(repo.dir, 'insertlint-baseline.json'), 'utf8'));
    assert.equal(baseline.tool, 'insertlint');
    assert.deepEqual(
      baseline.findings.map((f: { rule: string; file: string; line: number }) => [f.rule, f.file, f.line]),
      [['identity-cache', 'db/orders.sql', 2]],
    );

    const same = await runCli(['check', '--baseline', 'insertlint-baseline.json'], repo.dir);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /^0 findings/m);
    assert.match(same.stderr, /1 finding already in the baseline not shown/);

    // Lines moved above the old finding: still known. A second table with NO CACHE: new.
    repo.write('db/orders.sql', '-- moved down\n\n' + ordersDdl('NO CACHE') + INSERT);
    repo.write('db/items.sql', ordersDdl('NO CACHE').replace(/orders/g, 'items') + INSERT.replace('orders', 'items'));
    const fresh = await runCli(['check', '--baseline', 'insertlint-baseline.json', '--format', 'json'], repo.dir);
    assert.equal(fresh.code, 1);
    const report = JSON.parse(fresh.stdout);
    assert.deepEqual(
      report.diagnostics.map((d: { file: string; line: number; rule: string }) => [d.file, d.line, d.rule]),
      [['db/items.sql', 2, 'identity-cache']],
    );

    // Fixed findings are reported as gone from the baseline; SARIF marks the new ones.
    repo.write('db/orders.sql', ordersDdl('CACHE 1000') + INSERT);
    const sarif = await runCli(['check', '--baseline', 'insertlint-baseline.json', '--format', 'sarif'], repo.dir);
    assert.match(sarif.stderr, /1 baseline entry no longer found/);
    const results = JSON.parse(sarif.stdout).runs[0].results;
    assert.deepEqual(results.map((r: { baselineState: string }) => r.baselineState), ['new']);
  });

  it('matches a baseline written at the repository root when run from a subfolder', async () => {
    assert.equal((await runCli(['check', '--write-baseline', 'baseline.json'], repo.dir)).code, 0);
    const fromSub = await runCli(['check', '.', '--baseline', '../baseline.json'], join(repo.dir, 'db'));
    assert.equal(fromSub.code, 0, fromSub.stdout + fromSub.stderr);
    assert.match(fromSub.stderr, /1 finding already in the baseline not shown/);
  });

  it('rejects a missing or damaged baseline with exit 2 and a message', async () => {
    const missing = await runCli(['check', '--baseline', 'nope.json'], repo.dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read the baseline nope\.json.*--write-baseline/);
    writeFileSync(join(repo.dir, 'bad.json'), '{"tool": "other"}');
    const bad = await runCli(['check', '--baseline', 'bad.json'], repo.dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not an InsertLint baseline/);
    writeFileSync(join(repo.dir, 'broken.json'), '{');
    assert.equal((await runCli(['check', '--baseline', 'broken.json'], repo.dir)).code, 2);
    const both = await runCli(['check', '--baseline', 'a', '--write-baseline', 'b'], repo.dir);
    assert.equal(both.code, 2);
  });
});

describe('check --fail-on / --min-severity', () => {
  let repo: Repo;
  beforeEach(() => {
    repo = new Repo();
    repo.write('.insertlintrc.json', onlyRules(['identity-cache'])).write('db/orders.sql', ordersDdl('NO CACHE') + INSERT);
  });
  afterEach(() => repo.dispose());

  it('--fail-on chooses the severity that fails the run', async () => {
    assert.equal((await runCli(['check'], repo.dir)).code, 1);
    assert.equal((await runCli(['check', '--fail-on', 'error'], repo.dir)).code, 0);
    assert.equal((await runCli(['check', '--fail-on', 'never'], repo.dir)).code, 0);
    assert.equal((await runCli(['check', '--fail-on', 'information'], repo.dir)).code, 1);
    assert.equal((await runCli(['check', '--rule', 'identity-cache=error', '--fail-on', 'error'], repo.dir)).code, 1);
    assert.equal((await runCli(['check', '--fail-on', 'bogus'], repo.dir)).code, 2);
  });

  it('--min-severity leaves out findings below it; --max-severity explains the options', async () => {
    const shown = await runCli(['check', '--rule', 'identity-cache=information', '--format', 'json'], repo.dir);
    assert.equal(JSON.parse(shown.stdout).diagnostics.length, 1);
    const hidden = await runCli(['check', '--rule', 'identity-cache=information', '--min-severity', 'warning', '--format', 'json'], repo.dir);
    assert.equal(JSON.parse(hidden.stdout).diagnostics.length, 0);
    assert.equal(hidden.code, 0);
    const max = await runCli(['check', '--max-severity', 'warning'], repo.dir);
    assert.equal(max.code, 2);
    assert.match(max.stderr, /--fail-on.*--min-severity/);
  });
});
