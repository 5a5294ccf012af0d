// The real pre-commit (from PyPI) installs both hooks from a clean cache and runs them: `try-repo` on staged
// changes, then the README's .pre-commit-config.yaml installed as a git hook refusing a commit.
// pre-commit comes from INSERTLINT_PRE_COMMIT, .cache/pre-commit (made by .ci/run) or PATH; without it the
// tests skip, unless INSERTLINT_REQUIRE_PRE_COMMIT=1 (set by .ci/run) makes its absence a failure.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';
import { onlyRules } from '../ci/repo';
import { ROOT, childEnv, readmeCiBlocks, run, trackedCopy, type Ran } from './helpers';

function findPreCommit(): { path?: string; why: string } {
  const candidates = [process.env.INSERTLINT_PRE_COMMIT, join(ROOT, '.cache', 'pre-commit', 'bin', 'pre-commit'), 'pre-commit'].filter((c): c is string => Boolean(c));
  for (const candidate of candidates) {
    try {
      const r = run(candidate, ['--version'], { env: childEnv() });
      const major = Number(/pre-commit (\d+)\./.exec(r.stdout)?.[1]);
      if (r.code === 0 && major >= 3) return { path: candidate, why: r.stdout.trim() };
    } catch {
      // not there: try the next one
    }
  }
  return { why: `pre-commit 3 or later not found (tried ${candidates.join(', ')}); pip install pre-commit, or set INSERTLINT_PRE_COMMIT` };
}

// identity-cache reports a table that something inserts into: the table (line 1) and an insert (line 2).
// Filled by a copy (INSERT ... SELECT): a volume the scripts do not spell out, so a NO CACHE identity is a warning
// (a single literal row would be a known volume of one row, and information).
const TABLE = (cache: string): string => `CREATE TABLE app.orders (id INTEGER GENERATED ALWAYS AS IDENTITY (START WITH 1 ${cache}), cust INTEGER);\nINSERT INTO app.orders (cust) SELECT id FROM app.customers;\n`;

class Project {
  readonly dir = mkdtempSync(join(tmpdir(), 'insertlint-precommit-'));
  readonly env: NodeJS.ProcessEnv;
  constructor(preCommitHome: string) {
    this.env = childEnv({ PRE_COMMIT_HOME: preCommitHome, PRE_COMMIT_COLOR: 'never' });
    this.git('init', '-q', '-b', 'main');
  }
  git(...args: string[]): Ran {
    return run('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: this.dir, env: this.env });
  }
  write(path: string, text: string): this {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), text);
    return this;
  }
  head(): string {
    return this.git('rev-parse', 'HEAD').stdout.trim();
  }
}

/** The output pre-commit printed for one hook (from its "- hook id:" line to the next hook's status line). */
function hookOutput(out: string, id: string): string {
  const start = out.indexOf(`- hook id: ${id}\n`);
  assert.ok(start >= 0, `pre-commit ran hook ${id}:\n${out}`);
  const next = out.indexOf('\nInsertLint (', start);
  return out.slice(start, next < 0 ? undefined : next);
}

describe('pre-commit hooks with the real pre-commit', function () {
  // Each fresh pre-commit cache installs the hook package with npm (about 25 s, dependencies from the registry).
  this.timeout(300000);
  const preCommit = findPreCommit();
  let hooksRepo: string;
  let hooksRev: string;
  const cleanup: string[] = [];

  before(function () {
    if (!preCommit.path) {
      if (process.env.INSERTLINT_REQUIRE_PRE_COMMIT === '1') assert.fail(preCommit.why);
      console.log(`      (skipped: ${preCommit.why})`);
      this.skip();
    }
    // The hooks repository as pre-commit would clone it: the tracked files of this checkout, committed.
    hooksRepo = trackedCopy('insertlint-hooks-');
    cleanup.push(hooksRepo);
    const env = childEnv();
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'hooks']]) {
      const r = run('git', args, { cwd: hooksRepo, env });
      assert.equal(r.code, 0, r.stderr);
    }
    hooksRev = run('git', ['rev-parse', 'HEAD'], { cwd: hooksRepo, env }).stdout.trim();
  });
  after(() => {
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  });

  function project(): Project {
    const home = mkdtempSync(join(tmpdir(), 'insertlint-pre-commit-home-'));
    const p = new Project(home);
    cleanup.push(home, p.dir);
    return p;
  }

  it('try-repo installs both hooks from a clean cache; changed lines vs. staged files', () => {
    const p = project();
    p.write('.insertlintrc.json', onlyRules(['identity-cache']));
    p.write('db/old.sql', TABLE('NO CACHE'));
    p.git('add', '-A');
    assert.equal(p.git('commit', '-q', '-m', 'an old finding').code, 0);
    // Staged: a new file with a finding, and an edit to the old file away from its finding.
    p.write('db/new.sql', TABLE('NO CACHE').replace(/app\.orders/g, 'app.items'));
    p.write('db/old.sql', TABLE('NO CACHE') + '-- reviewed\n');
    p.git('add', '-A');
    const r = run(preCommit.path!, ['try-repo', hooksRepo, '--ref', hooksRev], { cwd: p.dir, env: p.env });
    const out = r.stdout + r.stderr;
    assert.equal(r.code, 1, out);
    const changed = hookOutput(out, 'insertlint');
    assert.match(changed, /db\/new\.sql:1:\d+ warning identity-cache/);
    assert.doesNotMatch(changed, /db\/old\.sql:1/, 'the changed-lines hook leaves the old finding alone');
    const staged = hookOutput(out, 'insertlint-files');
    assert.match(staged, /db\/new\.sql:1:\d+ warning identity-cache/);
    assert.match(staged, /db\/old\.sql:1:\d+ warning identity-cache/, 'the staged-files hook reports all of a staged file');
  });

  it("the README's .pre-commit-config.yaml, installed, refuses a commit with a finding and lets a clean one through", () => {
    const block = readmeCiBlocks().find((b) => b.lang === 'yaml' && b.text.includes('- repo: https://github.com/insertlint/insertlint'));
    assert.ok(block, 'README "Use it in CI" has the pre-commit configuration');
    const config = load(block.text) as { repos: { repo: string; rev: string; hooks: { id: string }[] }[] };
    assert.deepEqual(
      config.repos[0].hooks.map((h) => h.id),
      ['insertlint'],
    );
    const p = project();
    // Only the repository and the revision change: this checkout stands in for GitHub.
    p.write('.pre-commit-config.yaml', block.text.replace(config.repos[0].repo, hooksRepo).replace(`rev: ${config.repos[0].rev}`, `rev: ${hooksRev}`));
    p.write('.insertlintrc.json', onlyRules(['identity-cache']));
    // Installed before the first commit: the hook compares with the empty tree then (there is no HEAD yet).
    const installed = run(preCommit.path!, ['install'], { cwd: p.dir, env: p.env });
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    p.write('db/orders.sql', TABLE('CACHE 1000'));
    p.git('add', '-A');
    const first = p.git('commit', '-q', '-m', 'base');
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const base = p.head();

    p.write('db/orders.sql', TABLE('NO CACHE'));
    p.git('add', '-A');
    const refused = p.git('commit', '-m', 'identity without a cache');
    assert.notEqual(refused.code, 0, 'the commit is refused');
    assert.match(refused.stdout + refused.stderr, /db\/orders\.sql:1:\d+ warning identity-cache/);
    assert.equal(p.head(), base);

    p.write('db/orders.sql', TABLE('CACHE 1000') + 'INSERT INTO app.orders (cust) VALUES (2);\n');
    p.git('add', '-A');
    const accepted = p.git('commit', '-m', 'an insert');
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.notEqual(p.head(), base);
    assert.ok(existsSync(join(p.dir, '.git', 'hooks', 'pre-commit')));
    assert.match(readFileSync(join(p.dir, '.git', 'hooks', 'pre-commit'), 'utf8'), /pre-commit/);
  });
});
