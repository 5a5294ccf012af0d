// Issue 13, item 6: a change that adds literal INSERTs after an existing one is reported on the lines it
// added, and --only-changed, the checklist and a baseline written before the change agree on what is new.
import * as assert from 'node:assert/strict';
import { Repo, runCli } from './repo';

const insert = (n: number) => `INSERT INTO app.codes (id, name) VALUES (${n}, 'code ${n}');\n`;

/** Lines of `load.sql` that the JSON report of a check lists, sorted. */
function linesOf(stdout: string): number[] {
  const report = JSON.parse(stdout) as { diagnostics: { file: string; line: number }[] };
  return report.diagnostics.filter((d) => d.file === 'db/load.sql').map((d) => d.line).sort((a, b) => a - b);
}

describe('new findings: --only-changed, the checklist and baselines agree (issue 13)', () => {
  let repo: Repo;
  afterEach(() => repo.dispose());

  it('five literal INSERTs added after an existing one are new in all three, on the added lines only', async () => {
    repo = new Repo();
    // bulkRowThreshold 1: the table is a bulk target, so the script-run rules speak about its INSERTs.
    repo.write('.insertlintrc.json', JSON.stringify({ bulkRowThreshold: 1 }) + '\n').write('db/load.sql', insert(1));
    const base = repo.commit('one insert');
    assert.equal((await runCli(['check', '--write-baseline', 'baseline.json', 'db'], repo.dir)).code, 0);

    repo.write('db/load.sql', [1, 2, 3, 4, 5, 6].map(insert).join(''));
    repo.commit('five more inserts');

    const all = await runCli(['check', '--format', 'json', 'db'], repo.dir);
    const everything = linesOf(all.stdout);
    assert.ok(everything.length >= 4, `the run is reported: ${all.stdout}`);
    assert.ok(everything.every((line) => line >= 2), `nothing lands on the unchanged first INSERT: ${everything}`);
    assert.equal(new Set(everything).size, everything.length, 'one finding per line (same-cause findings merged)');

    const fromBaseline = await runCli(['check', '--format', 'json', '--baseline', 'baseline.json', 'db'], repo.dir);
    const onlyChanged = await runCli(['check', '--format', 'json', '--only-changed', '--base', base, 'db'], repo.dir);
    const checklist = await runCli(['checklist', '--base', base, 'db'], repo.dir);
    const checklistLines = [...checklist.stdout.matchAll(/`db\/load\.sql:(\d+)`/g)].map((m) => Number(m[1])).sort((a, b) => a - b);

    assert.deepEqual(linesOf(fromBaseline.stdout), everything, 'baseline: every finding is new');
    assert.deepEqual(linesOf(onlyChanged.stdout), everything, '--only-changed: the same findings');
    assert.deepEqual(checklistLines, everything, 'checklist: the same lines');
    assert.doesNotMatch(checklist.stdout, /already there before this change/);
  });
});
