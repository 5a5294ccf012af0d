// Issue 13, item 7: bad input to the CLI is an error (exit 2 with a message), never silence; --max-warnings;
// `insertlint rules` says which rules are off by default and prints the engine's own findings' docs.
import * as assert from 'node:assert/strict';
import { Repo, runCli } from './repo';

// Four single-row INSERTs with parameter markers (rows at run time): one no-autocommit warning per script
// (rules/support/runs.ts), so two scripts give two.
const LOAD = Array.from({ length: 4 }, () => 'INSERT INTO app.t (a) VALUES (?);\n').join('');

describe('check: bad input and --max-warnings (issue 13)', () => {
  let repo: Repo;
  beforeEach(() => {
    repo = new Repo();
    repo.write('load.sql', LOAD).write('more.sql', LOAD);
  });
  afterEach(() => repo.dispose());

  it('exits 2 for an unknown rule or severity in --rule, naming it', async () => {
    const banana = await runCli(['check', '--rule', 'no-autocommit=banana', '.'], repo.dir);
    assert.equal(banana.code, 2);
    assert.match(banana.stderr, /--rule no-autocommit=banana: the severity must be one of error, warning, information, hint, off/);
    const unknown = await runCli(['check', '--rule', 'no-autocomit=off', '.'], repo.dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no rule "no-autocomit"/);
    assert.equal((await runCli(['check', '--rule', 'unused-suppression=off', '.'], repo.dir)).code, 1, "the engine's own finding can be configured");
  });

  it('exits 2 when a path does not exist, even when another path holds files', async () => {
    const result = await runCli(['check', 'load.sql', 'no-such-dir'], repo.dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no-such-dir: no such file or folder/);
  });

  it('--max-warnings N fails the run only beyond N warnings, and takes only a whole number', async () => {
    assert.equal((await runCli(['check', '.'], repo.dir)).code, 1);
    assert.equal((await runCli(['check', '--max-warnings', '2', '.'], repo.dir)).code, 0);
    assert.equal((await runCli(['check', '--max-warnings', '1', '.'], repo.dir)).code, 1);
    assert.equal((await runCli(['check', '--max-warnings', '5', '--fail-on', 'warning', '.'], repo.dir)).code, 1, '--fail-on still applies when given');
    const bad = await runCli(['check', '--max-warnings', 'many', '.'], repo.dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-warnings takes a whole number/);
  });
});

describe('insertlint rules (issue 13)', () => {
  it('marks the rules that are off by default and lists unused-suppression', async () => {
    const list = await runCli(['rules'], process.cwd());
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^append-mode-off\s+off \(information in insertlint:all\)/m);
    assert.match(list.stdout, /^identity-cache\s+warning\s/m);
    assert.match(list.stdout, /^unused-suppression\s+warning\s/m);
  });

  it('prints the doc of unused-suppression', async () => {
    const doc = await runCli(['rules', 'unused-suppression'], process.cwd());
    assert.equal(doc.code, 0);
    assert.match(doc.stdout, /^# unused-suppression\n/);
  });
});
