// The composite action and the pre-commit hooks are configuration, but their shell steps are code: these
// tests parse action.yml and run its steps with bash against a real repository, with a stand-in `gh`.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { Repo, ordersDdl, onlyRules } from './repo';
import type { ActionStep } from '../install/runner';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'bin', 'insertlint.js');

type Step = ActionStep;
interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

function step(name: string): Step {
  const found = action.runs.steps.find((s) => s.name === name);
  assert.ok(found, `action.yml has a step "${name}"`);
  return found;
}

/** Runs a step's script as the runner would (bash, -e, the step's env filled in by the test). */
function runStep(s: Step, cwd: string, env: Record<string, string>): { code: number; stdout: string; stderr: string } {
  assert.equal(s.shell, 'bash');
  try {
    const stdout = execFileSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', s.run!], { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

function outputs(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('action.yml', function () {
  let repo: Repo;
  let runner: string;
  let base: string;
  let env: Record<string, string>;

  before(function () {
    if (!existsSync(join(ROOT, 'out', 'cli.js'))) this.skip();
  });

  beforeEach(() => {
    repo = new Repo();
    repo.write('.insertlintrc.json', onlyRules(['identity-cache'])).write('db/orders.sql', ordersDdl('CACHE 1000') + 'INSERT INTO app.orders (cust) VALUES (?);\n');
    base = repo.commit('base');
    repo.write('db/orders.sql', ordersDdl('NO CACHE') + 'INSERT INTO app.orders (cust) VALUES (?);\n');
    repo.commit('change');
    runner = mkdtempSync(join(tmpdir(), 'insertlint-runner-'));
    env = {
      RUNNER_TEMP: runner,
      GITHUB_OUTPUT: join(runner, 'output'),
      GITHUB_STEP_SUMMARY: join(runner, 'summary'),
      INSERTLINT: `node ${CLI}`,
      BASE: base,
      PATHS: '.',
      FAIL_ON: 'warning',
    };
    writeFileSync(env.GITHUB_OUTPUT, '');
  });
  afterEach(() => {
    repo.dispose();
    rmSync(runner, { recursive: true, force: true });
  });

  it('is a composite action whose inputs default to the pull request base and the whole tree', () => {
    assert.equal(action.runs.using, 'composite');
    assert.equal(action.inputs.base.default, '${{ github.event.pull_request.base.sha }}');
    assert.equal(action.inputs.paths.default, '.');
    assert.equal(action.inputs['fail-on'].default, 'warning');
    assert.ok(action.runs.steps.some((s) => s.uses?.startsWith('actions/setup-node@')));
  });

  it('writes the checklist to the job summary and reports blocking findings through its exit code', () => {
    const result = runStep(step('Write the review checklist'), repo.dir, env);
    assert.equal(result.code, 0, result.stderr);
    const out = outputs(env.GITHUB_OUTPUT);
    assert.equal(out['exit-code'], '1');
    assert.match(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8'), /## InsertLint review checklist[\s\S]*`db\/orders\.sql:2` `identity-cache`/);
    assert.equal(readFileSync(out.file, 'utf8'), readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8'));
  });

  it('fails the step with a pointer to fetch-depth when the base is missing', () => {
    const result = runStep(step('Write the review checklist'), repo.dir, { ...env, BASE: '0123456789abcdef0123456789abcdef01234567' });
    assert.equal(result.code, 2);
    assert.match(result.stdout, /::error title=InsertLint::.*fetch-depth: 0/);
    const empty = runStep(step('Write the review checklist'), repo.dir, { ...env, BASE: '' });
    assert.equal(empty.code, 2);
    assert.match(empty.stdout, /No base revision/);
  });

  it('annotates only the changed lines and never fails on them', () => {
    const result = runStep(step('Annotate the changed lines'), repo.dir, env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^::warning file=db\/orders\.sql,line=2,/);
  });

  it('posts the checklist once, then updates its own comment', () => {
    runStep(step('Write the review checklist'), repo.dir, env);
    const bin = join(runner, 'bin');
    execFileSync('mkdir', ['-p', bin]);
    // A stand-in gh: lists the comments kept in a file, records what it is asked to post.
    const gh = join(bin, 'gh');
    writeFileSync(
      gh,
      [
        '#!/bin/bash',
        'echo "$1 $2 $3 $4" >> "$GH_LOG"',
        'if [ "$2" != "--method" ]; then cat "$GH_EXISTING" 2>/dev/null; exit 0; fi',
        'for a in "$@"; do case "$a" in body=*) printf "%s" "${a#body=}" > "$GH_BODY";; esac; done',
      ].join('\n'),
    );
    chmodSync(gh, 0o755);
    const postEnv = {
      ...env,
      PATH: `${bin}:${process.env.PATH}`,
      GH_TOKEN: 'x',
      PR: '7',
      REPO: 'owner/repo',
      FILE: outputs(env.GITHUB_OUTPUT).file,
      GH_LOG: join(runner, 'gh.log'),
      GH_EXISTING: join(runner, 'existing'),
      GH_BODY: join(runner, 'body'),
    };
    const post = step('Post the checklist on the pull request');
    assert.equal(runStep(post, repo.dir, postEnv).code, 0);
    writeFileSync(postEnv.GH_EXISTING, '4242\n');
    assert.equal(runStep(post, repo.dir, postEnv).code, 0);
    const calls = readFileSync(postEnv.GH_LOG, 'utf8').trim().split('\n');
    assert.deepEqual(calls, [
      'api repos/owner/repo/issues/7/comments --paginate --jq',
      'api --method POST repos/owner/repo/issues/7/comments',
      'api repos/owner/repo/issues/7/comments --paginate --jq',
      'api --method PATCH repos/owner/repo/issues/comments/4242',
    ]);
    const body = readFileSync(postEnv.GH_BODY, 'utf8');
    assert.ok(body.startsWith('<!-- insertlint-checklist -->\n## InsertLint review checklist'), body.slice(0, 100));
  });
});

describe('.pre-commit-hooks.yaml', () => {
  const hooks = load(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string; files: string; language: string }[];

  it('defines the changed-lines hook and the staged-files hook', () => {
    assert.deepEqual(
      hooks.map((h) => h.id),
      ['insertlint', 'insertlint-files'],
    );
    assert.equal(hooks[0].entry, 'insertlint check --only-changed --base HEAD');
    for (const hook of hooks) {
      const files = new RegExp(hook.files);
      assert.ok(files.test('db/schema.sql') && files.test('src/Loader.java') && files.test('prog.sqC'), hook.id);
      assert.ok(!files.test('README.md'), hook.id);
    }
  });
});
