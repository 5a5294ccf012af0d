// Issue 13, item 6, with one finding per run (rules/support/runs.ts): --only-changed, the checklist and a
// baseline written before a change agree on what the change touched. A run's finding sits on its 3rd
// statement and extends over the whole run: rows appended to the run, or edited in its middle, touch it;
// an unrelated line elsewhere does not; appending rows keeps a baselined finding known (its fingerprint
// hashes the flagged statement only).
import * as assert from 'node:assert/strict';
import { Repo, runCli } from './repo';

const insert = (n: number) => `INSERT INTO app.codes (id, name) VALUES (${n}, 'code ${n}');\n`;
const inserts = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => insert(from + i)).join('');
/** bulkRowThreshold 1: the table is a bulk target, so the script-run rules speak about its INSERTs. */
const CONFIG = JSON.stringify({ bulkRowThreshold: 1 }) + '\n';
/** Rows, then a statement that is not part of any run. */
const TAIL = '\nSELECT COUNT(*) FROM app.codes;\n';

/** Findings of `load.sql` that the JSON report of a check lists, sorted by line. */
function findingsOf(stdout: string): { line: number; rule: string; message: string; extent?: { line: number; endLine: number } }[] {
  const report = JSON.parse(stdout) as { diagnostics: { file: string; line: number; rule: string; message: string; extent?: { line: number; endLine: number } }[] };
  return report.diagnostics.filter((d) => d.file === 'db/load.sql').sort((a, b) => a.line - b.line);
}
const linesOf = (stdout: string) => findingsOf(stdout).map((d) => d.line);
const checklistLines = (stdout: string) => [...stdout.matchAll(/`db\/load\.sql:(\d+)`/g)].map((m) => Number(m[1])).sort((a, b) => a - b);

describe('new findings: --only-changed, the checklist and baselines agree (issue 13)', () => {
  let repo: Repo;
  afterEach(() => repo.dispose());

  it('five literal INSERTs added after an existing one are one new finding in all three, on the run\'s 3rd INSERT', async () => {
    repo = new Repo();
    repo.write('.insertlintrc.json', CONFIG).write('db/load.sql', insert(1));
    const base = repo.commit('one insert');
    assert.equal((await runCli(['check', '--write-baseline', 'baseline.json', 'db'], repo.dir)).code, 0);

    repo.write('db/load.sql', inserts(1, 6));
    repo.commit('five more inserts');

    const all = await runCli(['check', '--format', 'json', 'db'], repo.dir);
    const everything = findingsOf(all.stdout);
    assert.deepEqual(everything.map((d) => d.line), [3], `one finding for the run (same-cause findings merged): ${all.stdout}`);
    assert.deepEqual(everything[0].extent, { line: 1, endLine: 6 });

    const fromBaseline = await runCli(['check', '--format', 'json', '--baseline', 'baseline.json', 'db'], repo.dir);
    const onlyChanged = await runCli(['check', '--format', 'json', '--only-changed', '--base', base, 'db'], repo.dir);
    const checklist = await runCli(['checklist', '--base', base, 'db'], repo.dir);
    assert.deepEqual(linesOf(fromBaseline.stdout), [3], 'baseline: the finding is new');
    assert.deepEqual(linesOf(onlyChanged.stdout), [3], '--only-changed: the same finding');
    assert.deepEqual(checklistLines(checklist.stdout), [3], 'checklist: the same line');
    assert.doesNotMatch(checklist.stdout, /already there before this change/);
  });

  describe('a run that was already there', () => {
    let base: string;
    beforeEach(async () => {
      repo = new Repo();
      repo.write('.insertlintrc.json', CONFIG).write('db/load.sql', inserts(1, 6) + TAIL);
      base = repo.commit('a run of six inserts');
      assert.equal((await runCli(['check', '--write-baseline', 'baseline.json', 'db'], repo.dir)).code, 0);
    });

    it('rows appended at its end: --only-changed and the checklist show its one finding; the baseline still knows it', async () => {
      repo.write('db/load.sql', inserts(1, 9) + TAIL);
      repo.commit('three more rows');
      const onlyChanged = await runCli(['check', '--format', 'json', '--only-changed', '--base', base, 'db'], repo.dir);
      const shown = findingsOf(onlyChanged.stdout);
      assert.deepEqual(shown.map((d) => d.line), [3], 'the run\'s finding, on its 3rd INSERT, though lines 7-9 changed');
      assert.match(shown[0].message, /: 9 in this script \(lines 1\u20139\)/);
      assert.deepEqual(checklistLines((await runCli(['checklist', '--base', base, 'db'], repo.dir)).stdout), [3]);

      // The fingerprint hashes the flagged (3rd) statement: appending rows does not make the finding new.
      const fromBaseline = await runCli(['check', '--format', 'json', '--baseline', 'baseline.json', 'db'], repo.dir);
      assert.equal(fromBaseline.code, 0, fromBaseline.stdout + fromBaseline.stderr);
      assert.deepEqual(linesOf(fromBaseline.stdout), [], 'known: not reported as new');
      assert.match(fromBaseline.stderr, /1 finding already in the baseline not shown/);
    });

    it('a row edited in its middle: --only-changed shows its finding', async () => {
      repo.write('db/load.sql', inserts(1, 6).replace("'code 5'", "'code five'") + TAIL);
      repo.commit('one row edited');
      const onlyChanged = await runCli(['check', '--format', 'json', '--only-changed', '--base', base, 'db'], repo.dir);
      assert.deepEqual(linesOf(onlyChanged.stdout), [3], 'line 5 changed, inside the run (lines 1-6)');
    });

    it('an unrelated line after it changed: --only-changed does not show the run\'s finding', async () => {
      repo.write('db/load.sql', inserts(1, 6) + TAIL.replace('COUNT(*)', 'MAX(id)'));
      repo.commit('the query edited');
      const onlyChanged = await runCli(['check', '--format', 'json', '--only-changed', '--base', base, 'db'], repo.dir);
      assert.deepEqual(linesOf(onlyChanged.stdout), [], `line 8 is outside the run: ${onlyChanged.stdout}`);
      assert.match(onlyChanged.stderr, /1 more finding in those files outside the changed lines not shown/);
      assert.deepEqual(checklistLines((await runCli(['checklist', '--base', base, 'db'], repo.dir)).stdout), [3], 'the checklist lists it, but not on changed lines');
    });
  });
});
