// The README's workflow, run as a runner would: a pull_request event, the action checked out from this
// repository's tracked files (no node_modules, no out/), the workspace checked out at the PR's merge commit
// with its base, every step of action.yml in order (its own npm install included), a stand-in `gh`.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';
import { onlyRules } from '../ci/repo';
import { ROOT, childEnv, readmeCiBlocks, run, trackedCopy } from './helpers';
import { runCompositeAction, evaluate, type Action, type JobResult } from './runner';

// identity-cache reports a table that something inserts into: the table (line 1) and an insert (line 2).
const TABLE = (cache: string): string => `CREATE TABLE app.orders (id INTEGER GENERATED ALWAYS AS IDENTITY (START WITH 1 ${cache}), cust INTEGER);\nINSERT INTO app.orders (cust) VALUES (?);\n`;

interface Workflow {
  on: string | Record<string, unknown>;
  jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
}

function readmeWorkflow(): Workflow {
  const block = readmeCiBlocks().find((b) => b.lang === 'yaml' && /^on: pull_request$/m.test(b.text));
  assert.ok(block, 'README "Use it in CI" has the workflow');
  return load(block.text) as Workflow;
}

/** A repository as actions/checkout leaves it for a pull_request event (fetch-depth: 0): the merge commit. */
function pullRequestCheckout(change: (dir: string) => void): { dir: string; base: string; head: string } {
  const dir = mkdtempSync(join(tmpdir(), 'insertlint-workspace-'));
  const env = childEnv();
  const git = (...args: string[]): string => {
    const r = run('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: dir, env });
    assert.equal(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  git('init', '-q', '-b', 'main');
  write('.insertlintrc.json', onlyRules(['identity-cache']));
  write('db/orders.sql', TABLE('CACHE 1000'));
  write('db/legacy.sql', TABLE('NO CACHE').replace(/app\.orders/g, 'app.legacy'));
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  const base = git('rev-parse', 'HEAD');
  git('checkout', '-q', '-b', 'feature');
  change(dir);
  git('add', '-A');
  git('commit', '-q', '-m', 'the pull request');
  const head = git('rev-parse', 'HEAD');
  git('checkout', '-q', '--detach', base);
  git('merge', '-q', '--no-ff', '-m', 'Merge head into base', head);
  return { dir, base, head };
}

describe('action.yml run as a runner runs the README workflow', function () {
  // The action's own `npm ci --omit=dev` (run-time dependencies only, from the npm cache or registry).
  this.timeout(240000);
  const action = load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
  let actionPath: string;
  let temp: string;
  const cleanup: string[] = [];

  before(() => {
    actionPath = trackedCopy('insertlint-action-');
    temp = mkdtempSync(join(tmpdir(), 'insertlint-runner-'));
    cleanup.push(actionPath, temp);
  });
  after(() => {
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  });

  function runJob(change: (dir: string) => void, name: string, prepare?: (workspace: string) => void): { job: JobResult; ghLog: string[]; base: string } {
    const workflow = readmeWorkflow();
    assert.equal(workflow.on, 'pull_request');
    const steps = Object.values(workflow.jobs)[0].steps;
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    assert.equal(checkout?.with?.['fetch-depth'], 0, 'the workflow fetches the whole history');
    const uses = steps.find((s) => s.uses?.startsWith('insertlint/insertlint@'));
    assert.ok(uses, 'the workflow uses insertlint/insertlint');
    const repo = pullRequestCheckout(change);
    cleanup.push(repo.dir);
    prepare?.(repo.dir);
    const runnerTemp = join(temp, name);
    const bin = join(runnerTemp, 'bin');
    mkdirSync(bin, { recursive: true });
    const ghLog = join(runnerTemp, 'gh.log');
    // A stand-in gh: no comments yet; records each call.
    writeFileSync(join(bin, 'gh'), `#!/bin/bash\necho "$*" >> '${ghLog}'\nexit 0\n`);
    chmodSync(join(bin, 'gh'), 0o755);
    const job = runCompositeAction({
      action,
      actionPath,
      workspace: repo.dir,
      runnerTemp,
      with: Object.fromEntries(Object.entries(uses.with ?? {}).map(([k, v]) => [k, String(v)])),
      event: { action: 'synchronize', number: 7, pull_request: { number: 7, base: { sha: repo.base, ref: 'main' }, head: { sha: repo.head, ref: 'feature' } } },
      eventName: 'pull_request',
      repository: 'owner/repo',
      token: 'ghs_test',
      env: childEnv({ PATH: `${bin}:${process.env.PATH}` }),
    });
    return { job, ghLog: existsSync(ghLog) ? readFileSync(ghLog, 'utf8').trim().split('\n') : [], base: repo.base };
  }

  const step = (job: JobResult, name: string) => {
    const s = job.steps.find((x) => x.name === name);
    assert.ok(s, `step "${name}"`);
    return s;
  };

  it('a change with a blocking finding: checklist in the summary and the comment, annotations on changed lines, job fails', () => {
    const { job, ghLog } = runJob((dir) => writeFileSync(join(dir, 'db', 'orders.sql'), TABLE('NO CACHE')), 'blocking');
    const setup = step(job, 'Set up InsertLint');
    assert.equal(setup.outcome, 'success', setup.stderr);
    assert.ok(!existsSync(join(actionPath, 'node_modules', 'esbuild')), 'no devDependencies installed');
    assert.ok(existsSync(join(actionPath, 'node_modules', 'web-tree-sitter')));
    assert.equal(step(job, 'Write the review checklist').outcome, 'success');
    assert.equal(job.outputs['exit-code'], '1');
    assert.match(job.summary, /## InsertLint review checklist[\s\S]*`db\/orders\.sql:1` `identity-cache` \(warning \*\*blocking\*\*\)/);
    assert.doesNotMatch(job.summary, /legacy\.sql/, 'an unchanged file is not in the checklist');
    assert.equal(readFileSync(job.outputs['checklist-file'], 'utf8'), job.summary);
    const annotations = step(job, 'Annotate the changed lines').stdout.split('\n').filter((l) => l.startsWith('::'));
    assert.equal(annotations.length, 1, annotations.join('\n'));
    assert.match(annotations[0], /^::warning file=db\/orders\.sql,line=1,.*title=InsertLint identity-cache::/);
    assert.equal(step(job, 'Post the checklist on the pull request').outcome, 'success');
    assert.ok(ghLog.some((l) => l.startsWith('api --method POST repos/owner/repo/issues/7/comments')), ghLog.join('\n'));
    const fail = step(job, 'Fail on blocking findings');
    assert.equal(fail.outcome, 'failure');
    assert.match(fail.stdout, /^::error title=InsertLint::/);
    assert.equal(job.failed, true);
  });

  it('a clean change: the job passes, nothing is annotated', () => {
    const { job } = runJob((dir) => writeFileSync(join(dir, 'db', 'orders.sql'), TABLE('CACHE 1000') + 'INSERT INTO app.orders (cust) VALUES (2);\n'), 'clean');
    assert.equal(job.outputs['exit-code'], '0');
    assert.match(job.summary, /## InsertLint review checklist/);
    assert.equal(step(job, 'Annotate the changed lines').stdout.trim(), '');
    assert.equal(step(job, 'Fail on blocking findings').outcome, 'skipped');
    assert.equal(job.failed, false, job.steps.map((s) => `${s.name}: ${s.outcome} ${s.stderr}`).join('\n'));
  });

  it("a project with insertlint in its own node_modules: the action runs that copy through npx", () => {
    const calls = join(temp, 'project-copy.log');
    const { job } = runJob(
      (dir) => writeFileSync(join(dir, 'db', 'orders.sql'), TABLE('NO CACHE')),
      'project-copy',
      (workspace) => {
        // The project's own insertlint (as `npm ci` of a project that depends on it leaves it), recording its runs.
        mkdirSync(join(workspace, 'node_modules', '.bin'), { recursive: true });
        const bin = join(workspace, 'node_modules', '.bin', 'insertlint');
        writeFileSync(bin, `#!/bin/bash\necho "$1" >> '${calls}'\nexec node '${join(ROOT, 'bin', 'insertlint.js')}' "$@"\n`);
        chmodSync(bin, 0o755);
      },
    );
    assert.equal(step(job, 'Set up InsertLint').outcome, 'success');
    assert.deepEqual(readFileSync(calls, 'utf8').trim().split('\n'), ['checklist', 'check']);
    assert.equal(job.outputs['exit-code'], '1');
    assert.equal(job.failed, true);
  });

  it('the stand-in runner reads the expressions action.yml uses, and refuses others', () => {
    const context = { inputs: { comment: 'true' }, github: { event: { pull_request: { number: 7 } } }, steps: { checklist: { outputs: { 'exit-code': '1' } } } };
    assert.equal(evaluate(" inputs.comment == 'true' && github.event.pull_request.number ", context, { failed: false }), 7);
    assert.equal(evaluate("steps.checklist.outputs.exit-code == '1'", context, { failed: false }), true);
    assert.equal(evaluate("inputs.comment != 'TRUE'", context, { failed: false }), false);
    assert.throws(() => evaluate("contains(inputs.comment, 'x')", context, { failed: false }), /runner:/);
  });
});
