// Findings in test code ("testFiles"): the same script in src/main and src/test gives the same findings, at
// most information in the test copy with a note saying why, so `check` and `checklist` do not fail on a test
// fixture's inserts; the DDL of test files still feeds the schema.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Repo, runCli } from './repo';

const SCHEMA = 'CREATE TABLE app.codes (id INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), name VARCHAR(40));\n';
const LOAD = Array.from({ length: 6 }, (_, i) => `INSERT INTO app.codes (name) VALUES ('code ${i}');\n`).join('');

interface Finding {
  file: string;
  line: number;
  rule: string;
  severity: string;
  message: string;
}

const findings = (stdout: string): Finding[] => (JSON.parse(stdout) as { diagnostics: Finding[] }).diagnostics;
const shape = (list: Finding[], file: string) => list.filter((d) => d.file === file).map((d) => `${d.line}:${d.rule}`);

describe('test code ("testFiles"): findings there are information', () => {
  let repo: Repo;
  afterEach(() => repo.dispose());

  it('caps the findings of the test copy of a script, keeps its DDL in the schema, and passes --fail-on warning', async () => {
    repo = new Repo();
    repo
      .write('.insertlintrc.json', JSON.stringify({ bulkRowThreshold: 1, rules: { 'insert-target-cost': 'warning', 'parse-error': 'error' } }))
      .write('src/test/resources/broken.sql', 'INSERT INTO app.codes (name) VALUES (;\n')
      .write('src/test/resources/schema.sql', SCHEMA)
      .write('src/main/sql/load.sql', LOAD)
      .write('src/test/resources/load.sql', LOAD);
    const run = await runCli(['check', '--format', 'json', 'src'], repo.dir);
    const all = findings(run.stdout);
    const main = all.filter((d) => d.file === 'src/main/sql/load.sql');
    const test = all.filter((d) => d.file === 'src/test/resources/load.sql');
    // insert-target-cost on the main script names the NO CACHE identity that only the test DDL declares.
    assert.ok(main.some((d) => d.rule === 'insert-target-cost' && d.severity === 'warning' && /NO CACHE/.test(d.message)), run.stdout);
    assert.ok(main.some((d) => d.severity === 'warning' && d.rule !== 'insert-target-cost'), run.stdout);
    assert.deepEqual(shape(all, 'src/test/resources/load.sql'), shape(all, 'src/main/sql/load.sql'));
    for (const d of test) {
      assert.equal(d.severity, 'information', `${d.line}:${d.rule}`);
      assert.match(d.message, /This file is test code \("testFiles" in the configuration\): information only\.$/);
    }
    // The test DDL's own finding is there, capped too; the main script's messages carry no note.
    assert.deepEqual(all.filter((d) => d.file === 'src/test/resources/schema.sql').map((d) => `${d.rule}:${d.severity}`), ['identity-cache:information']);
    assert.ok(main.every((d) => !/test code/.test(d.message)));
    // A statement that could not be read is reported there as information too, whatever "parse-error" is set to.
    assert.deepEqual(all.filter((d) => d.file === 'src/test/resources/broken.sql' && d.rule === 'parse-error').map((d) => d.severity), ['information']);
    assert.equal(run.code, 1, 'the main script fails the run');
    assert.equal((await runCli(['check', '--fail-on', 'warning', 'src/test'], repo.dir)).code, 0, 'the test folder alone passes');

    repo.write('.insertlintrc.json', JSON.stringify({ bulkRowThreshold: 1, testFiles: [] }));
    const off = await runCli(['check', '--format', 'json', 'src/test'], repo.dir);
    assert.equal(off.code, 1);
    assert.ok(findings(off.stdout).some((d) => d.file === 'src/test/resources/load.sql' && d.severity === 'warning'), off.stdout);
  });

  it('the checklist lists a test file\'s findings as information and does not block on them', async () => {
    repo = new Repo();
    repo.write('.insertlintrc.json', JSON.stringify({ bulkRowThreshold: 1 })).write('README.md', 'x\n');
    const base = repo.commit('base');
    repo.write('tests/load.sql', LOAD).commit('a test fixture');
    const checklist = await runCli(['checklist', '--base', base, '--fail-on', 'warning', '.'], repo.dir);
    assert.equal(checklist.code, 0, checklist.stdout + checklist.stderr);
    assert.match(checklist.stdout, /`tests\/load\.sql:\d+` `[a-z-]+` \(information/);
    repo.write('db/load.sql', LOAD).commit('a production script');
    assert.equal((await runCli(['checklist', '--base', base, '--fail-on', 'warning', '.'], repo.dir)).code, 1);
  });

  describe('without a configuration file, the repository a file is in is its project', () => {
    // 150 single-row INSERTs autocommitted one by one: no-autocommit warns with the default configuration.
    const AUTOCOMMITTED = Array.from({ length: 150 }, (_, i) => `INSERT INTO app.codes (name) VALUES ('code ${i}');\n`).join('');
    let dir: string;
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    const severities = async (argv: string[], cwd: string, file: string) => {
      const run = await runCli(['check', '--format', 'json', ...argv], join(dir, cwd));
      const found = findings(run.stdout).filter((d) => d.file === file);
      assert.ok(found.length > 0, `${file} in ${run.stdout}`);
      return [...new Set(found.map((d) => d.severity))].join(',');
    };
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'insertlint-testfiles-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('a repository checked out as test/ below the run folder is not test code; a folder test/ of no repository is', async () => {
      write('src/test/.git/HEAD', 'ref: refs/heads/main\n');
      write('src/test/load.sql', AUTOCOMMITTED);
      assert.equal(await severities(['test/'], 'src', 'test/load.sql'), 'warning');
      assert.equal(await severities(['.'], 'src', 'test/load.sql'), 'warning');
      // A worktree or a submodule has a .git file.
      write('src/tests/.git', 'gitdir: ../.git/worktrees/tests\n');
      write('src/tests/load.sql', AUTOCOMMITTED);
      assert.equal(await severities(['tests'], 'src', 'tests/load.sql'), 'warning');
      // Its own test layout still counts, and so does a test/ folder that is not a repository.
      write('src/test/src/test/resources/load.sql', AUTOCOMMITTED);
      assert.equal(await severities(['test'], 'src', 'test/src/test/resources/load.sql'), 'information');
      rmSync(join(dir, 'src/test/.git'), { recursive: true });
      assert.equal(await severities(['test/'], 'src', 'test/load.sql'), 'information');
    });

    it('a Maven layout is test code from the repository, from its parent and given its src/test', async () => {
      write('work/shop/.git/HEAD', 'ref: refs/heads/main\n');
      write('work/shop/src/test/resources/load.sql', AUTOCOMMITTED);
      write('work/shop/src/main/resources/load.sql', AUTOCOMMITTED);
      assert.equal(await severities(['.'], 'work/shop', 'src/test/resources/load.sql'), 'information');
      assert.equal(await severities(['.'], 'work/shop', 'src/main/resources/load.sql'), 'warning');
      assert.equal(await severities(['shop'], 'work', 'shop/src/test/resources/load.sql'), 'information');
      assert.equal(await severities(['shop'], 'work', 'shop/src/main/resources/load.sql'), 'warning');
      assert.equal(await severities(['shop/src/test'], 'work', 'shop/src/test/resources/load.sql'), 'information');
      // Run from inside it (the repository holds the run folder): test/ below the run folder, as before.
      assert.equal(await severities(['test'], 'work/shop/src', 'test/resources/load.sql'), 'information');
    });

    it('a repository that holds the run folder (a home folder kept in git) leaves the run folder the base', async () => {
      write('home/.git/HEAD', 'ref: refs/heads/main\n');
      write('home/tests/shop/db/load.sql', AUTOCOMMITTED);
      assert.equal(await severities(['.'], 'home/tests/shop', 'db/load.sql'), 'warning');
    });
  });
});
