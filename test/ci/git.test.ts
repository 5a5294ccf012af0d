import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changesSince, GitError, parseNameStatus, parseUnifiedZero, unquoteGitPath } from '../../server/src/ci/git';
import { Repo } from './repo';

describe('ci/git: what a change touched', () => {
  describe('parsers', () => {
    it('reads --name-status -z with renames, copies and deletions', () => {
      const out = 'M\0a.sql\0R087\0old/b.sql\0new/b.sql\0D\0c.sql\0A\0d e.sql\0C100\0x.sql\0y.sql\0';
      const files = parseNameStatus(out, '/repo');
      assert.deepEqual(
        files.map((f) => [f.status, f.repoPath, f.oldRepoPath ?? null, f.allLinesChanged]),
        [
          ['modified', 'a.sql', null, false],
          ['renamed', 'new/b.sql', 'old/b.sql', false],
          ['deleted', 'c.sql', null, false],
          ['added', 'd e.sql', null, true],
          ['copied', 'y.sql', 'x.sql', false],
        ],
      );
      assert.equal(files[0].path, join('/repo', 'a.sql'));
    });

    it('reads --unified=0 hunks: added ranges, single lines, pure deletions, deleted files', () => {
      const out = [
        'diff --git a/a.sql b/a.sql',
        '--- a/a.sql',
        '+++ b/a.sql',
        '@@ -3,0 +4,2 @@ CREATE TABLE',
        '+x',
        '+y',
        '@@ -10 +12 @@',
        '-old',
        '+new',
        '@@ -20,3 +21,0 @@',
        '-gone',
        'diff --git a/gone.sql b/gone.sql',
        '--- a/gone.sql',
        '+++ /dev/null',
        '@@ -1,2 +0,0 @@',
        'diff --git "a/t\\303\\251st.sql" "b/t\\303\\251st.sql"',
        '--- "a/t\\303\\251st.sql"',
        '+++ "b/t\\303\\251st.sql"',
        '@@ -1 +1 @@',
      ].join('\n');
      const hunks = parseUnifiedZero(out);
      assert.deepEqual([...hunks.get('a.sql')!].sort((a, b) => a - b), [4, 5, 12, 21, 22]);
      assert.equal(hunks.has('gone.sql'), false);
      assert.deepEqual([...hunks.get('tést.sql')!], [1]);
    });

    it('unquotes C-style quoted paths', () => {
      assert.equal(unquoteGitPath('"a\\tb\\"c\\\\d"'), 'a\tb"c\\d');
      assert.equal(unquoteGitPath('"\\303\\251"'), 'é');
      assert.equal(unquoteGitPath('plain.sql'), 'plain.sql');
    });
  });

  describe('changesSince on real repositories', () => {
    let repo: Repo;
    beforeEach(() => {
      repo = new Repo();
    });
    afterEach(() => repo.dispose());

    it('lists modified, added, renamed (with edits) and deleted files with their changed lines', () => {
      const body = Array.from({ length: 12 }, (_, i) => `INSERT INTO t VALUES (${i});`).join('\n') + '\n';
      repo.write('keep.sql', 'SELECT 1 FROM t;\nSELECT 2 FROM t;\nSELECT 3 FROM t;\n').write('moved.sql', body).write('gone.sql', 'SELECT 1 FROM t;\n');
      const base = repo.commit('base');
      repo.write('keep.sql', 'SELECT 1 FROM t;\nSELECT 20 FROM t;\nSELECT 3 FROM t;\n');
      repo.move('moved.sql', 'sub/renamed.sql').write('sub/renamed.sql', body.replace('VALUES (5)', 'VALUES (55)'));
      repo.remove('gone.sql').write('new.sql', 'SELECT 9 FROM t;\n');
      repo.commit('change');

      const changes = changesSince(repo.dir, base);
      assert.equal(changes.baseCommit, base);
      const byPath = new Map(changes.files.map((f) => [f.repoPath, f]));
      assert.deepEqual([...byPath.get('keep.sql')!.changedLines], [2]);
      const renamed = byPath.get('sub/renamed.sql')!;
      assert.equal(renamed.status, 'renamed');
      assert.equal(renamed.oldRepoPath, 'moved.sql');
      assert.deepEqual([...renamed.changedLines], [6]);
      assert.equal(byPath.get('gone.sql')!.status, 'deleted');
      assert.equal(byPath.get('new.sql')!.allLinesChanged, true);
      assert.equal(realpathSync(byPath.get('keep.sql')!.path), realpathSync(join(repo.dir, 'keep.sql')));
    });

    it('counts uncommitted work-tree edits as part of the change', () => {
      repo.write('a.sql', 'SELECT 1 FROM t;\n');
      const base = repo.commit('base');
      repo.write('a.sql', 'SELECT 1 FROM t;\nSELECT 2 FROM t;\n');
      const changes = changesSince(repo.dir, base);
      assert.deepEqual([...changes.files[0].changedLines], [2]);
    });

    it('compares with the merge base, so commits that landed on the base branch are not part of the change', () => {
      repo.write('a.sql', 'SELECT 1 FROM t;\n');
      const fork = repo.commit('fork point');
      repo.git('checkout', '-q', '-b', 'feature');
      repo.write('feature.sql', 'SELECT 2 FROM t;\n');
      repo.commit('feature work');
      repo.git('checkout', '-q', 'main');
      repo.write('main-only.sql', 'SELECT 3 FROM t;\n');
      repo.commit('landed on main meanwhile');
      repo.git('checkout', '-q', 'feature');
      const changes = changesSince(repo.dir, 'main');
      assert.equal(changes.baseCommit, fork);
      assert.equal(changes.mergeBase, true);
      assert.deepEqual(
        changes.files.map((f) => f.repoPath),
        ['feature.sql'],
      );
    });

    it('explains a base missing from a shallow clone (fetch-depth: 0, git fetch --deepen)', () => {
      repo.write('a.sql', 'SELECT 1 FROM t;\n');
      const base = repo.commit('base');
      repo.write('a.sql', 'SELECT 2 FROM t;\n');
      repo.commit('change');
      const shallow = repo.clone(1);
      try {
        assert.throws(
          () => changesSince(shallow.dir, base),
          (error: unknown) => error instanceof GitError && /shallow clone/.test(error.message) && /fetch-depth: 0/.test(error.message) && /--deepen/.test(error.message),
        );
      } finally {
        shallow.dispose();
      }
    });

    it('works on a shallow clone that has the base commit', () => {
      repo.write('a.sql', 'SELECT 1 FROM t;\n');
      const base = repo.commit('base');
      repo.write('a.sql', 'SELECT 2 FROM t;\n');
      repo.commit('change');
      const shallow = repo.clone(2);
      try {
        const changes = changesSince(shallow.dir, base);
        assert.deepEqual(changes.files.map((f) => [f.repoPath, [...f.changedLines]]), [['a.sql', [1]]]);
      } finally {
        shallow.dispose();
      }
    });

    it('works on the depth-2 clone of a pull request merge commit (what actions/checkout gives pull_request events)', () => {
      repo.write('a.sql', 'SELECT 1 FROM t;\n');
      repo.commit('root');
      repo.write('b.sql', 'SELECT 1 FROM t;\n');
      const base = repo.commit('base branch tip');
      repo.git('checkout', '-q', '-b', 'feature', 'HEAD~1');
      repo.write('a.sql', 'SELECT 1 FROM t;\nSELECT 2 FROM t;\n');
      repo.commit('feature');
      repo.git('checkout', '-q', '-b', 'pr-merge', base);
      repo.git('merge', '-q', '--no-ff', '-m', 'merge feature into base', 'feature');
      const clone = repo.clone(2);
      try {
        const changes = changesSince(clone.dir, base);
        assert.equal(changes.warning, undefined);
        assert.equal(changes.baseCommit, base);
        assert.deepEqual(changes.files.map((f) => [f.repoPath, [...f.changedLines]]), [['a.sql', [2]]]);
      } finally {
        clone.dispose();
      }
    });

    it('warns when the base and HEAD share no history, and compares with the base itself', () => {
      repo.write('a.sql', 'SELECT 1 FROM t;\n');
      repo.commit('main');
      repo.git('checkout', '-q', '--orphan', 'unrelated');
      repo.write('a.sql', 'SELECT 9 FROM t;\n');
      repo.commit('unrelated root');
      const changes = changesSince(repo.dir, 'main');
      assert.equal(changes.mergeBase, false);
      assert.match(changes.warning ?? '', /found no common ancestor of main and HEAD; comparing with main itself/);
      assert.deepEqual(changes.files.map((f) => f.repoPath), ['a.sql']);
    });

    it('counts every line of the staged files as changed in a repository with no commit yet (pre-commit on the first commit)', () => {
      repo.write('schema.sql', 'CREATE TABLE T (A INT);\nCREATE INDEX T_A ON T (A);\n').write('untracked.sql', 'SELECT 1 FROM T;\n');
      repo.git('add', 'schema.sql');
      const changes = changesSince(repo.dir, 'HEAD');
      assert.deepEqual(changes.files.map((f) => [f.repoPath, f.status, f.allLinesChanged]), [['schema.sql', 'added', true]]);
      assert.match(changes.warning ?? '', /the repository has no commit yet, so there is no HEAD to compare with/);
      assert.equal(changes.mergeBase, false);
    });

    it('rejects an unknown revision and a folder outside git with clear messages', () => {
      repo.write('a.sql', 'SELECT 1 FROM t;\n');
      repo.commit('base');
      assert.throws(() => changesSince(repo.dir, 'no-such-branch'), /base revision "no-such-branch" is not in this repository/);
      assert.throws(() => changesSince(repo.dir, '--output=/tmp/x'), /is not a revision/);
      const plain = mkdtempSync(join(tmpdir(), 'insertlint-nogit-'));
      try {
        assert.throws(() => changesSince(plain, 'main'), /is not inside a git work tree/);
      } finally {
        rmSync(plain, { recursive: true, force: true });
      }
    });
  });
});
