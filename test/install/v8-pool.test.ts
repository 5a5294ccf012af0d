// bin/v8-pool.js: a large run on a machine with fewer than 5 cores starts again with a smaller V8 thread pool.
// The second process must print what the first would have printed, exit as it would have, and go when it goes.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, childEnv, run } from './helpers';

interface Plan {
  args: string[];
  env: Record<string, string | undefined>;
  execArgv: string[];
  cores: number;
  countFiles: (paths: string[], limit: number) => number;
}
const pool = require(join(ROOT, 'bin', 'v8-pool.js')) as {
  relaunchPool(plan: Plan): number | undefined;
  countFiles(paths: string[], limit: number): number;
  RELAUNCH_MIN_FILES: number;
};

describe('bin/v8-pool.js: starting again with a smaller V8 pool', function () {
  this.timeout(60000);
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'insertlint-v8-pool-'));
    for (let i = 0; i < pool.RELAUNCH_MIN_FILES; i++) writeFileSync(join(work, `f${i}.sql`), `ALTER TABLE app.t${i} ADD COLUMN c${i} INTEGER;\n`);
    writeFileSync(join(work, 'load.sql'), 'CREATE SEQUENCE app.s NO CACHE;\n' + 'INSERT INTO app.t (id) VALUES (NEXT VALUE FOR app.s);\n'.repeat(20_000));
    // Each process the run starts writes its pid and Node options here (NODE_OPTIONS --require).
    writeFileSync(
      join(work, 'probe.cjs'),
      `require('fs').appendFileSync(${JSON.stringify(join(work, 'processes.txt'))}, process.pid + ' ' + ('INSERTLINT_DB2_PASSWORD' in process.env) + ' ' + JSON.stringify(process.execArgv) + '\\n');\n`,
    );
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const plan = (over: Partial<Plan> = {}): Plan => ({ args: ['check', '.'], env: {}, execArgv: [], cores: 2, countFiles: () => 1000, ...over });

  it('plans (cores - 1) threads for check and checklist over many files on a machine with fewer than 5 cores, and nothing otherwise', () => {
    assert.equal(pool.relaunchPool(plan()), 1);
    assert.equal(pool.relaunchPool(plan({ cores: 4 })), 3);
    assert.equal(pool.relaunchPool(plan({ args: ['checklist', 'sql'] })), 1);
    assert.equal(pool.relaunchPool(plan({ cores: 5 })), undefined, "Node's default of 4 already");
    assert.equal(pool.relaunchPool(plan({ cores: 1 })), 1);
    assert.equal(pool.relaunchPool(plan({ countFiles: () => pool.RELAUNCH_MIN_FILES - 1 })), undefined, 'too few files to pay for a second start');
    assert.equal(pool.relaunchPool(plan({ args: ['explain', 'plan.txt'] })), undefined);
    assert.equal(pool.relaunchPool(plan({ args: ['--version'] })), undefined);
    assert.equal(pool.relaunchPool(plan({ args: ['check', '--help'] })), undefined);
    assert.equal(pool.relaunchPool(plan({ execArgv: ['--v8-pool-size=2'] })), undefined, 'the second start, or the user chose');
    assert.equal(pool.relaunchPool(plan({ env: { NODE_OPTIONS: '--v8-pool-size=8' } })), undefined);
    assert.equal(pool.relaunchPool(plan({ env: { INSERTLINT_V8_POOL: 'off' } })), undefined);
    assert.equal(pool.relaunchPool(plan({ env: { INSERTLINT_V8_POOL: '2' }, cores: 16 })), 2, 'a number replaces (cores - 1)');
    assert.equal(pool.relaunchPool(plan({ env: { INSERTLINT_V8_POOL: 'lots' } })), 1, 'not a number: as unset');
  });

  it('counts files up to the limit, leaving out the folders the CLI never enters', () => {
    const tree = join(work, 'tree');
    for (const dir of ['a/b', '.git', 'node_modules/x']) mkdirSync(join(tree, dir), { recursive: true });
    for (const file of ['1.sql', 'a/2.sql', 'a/b/3.sql', '.git/4', 'node_modules/x/5.js']) writeFileSync(join(tree, file), '');
    assert.equal(pool.countFiles([tree], 100), 3);
    assert.equal(pool.countFiles([join(tree, '1.sql'), join(tree, 'a')], 100), 3);
    assert.equal(pool.countFiles([join(tree, 'missing')], 100), 0);
    assert.equal(pool.countFiles([work], 10), 10, 'stops at the limit');
  });

  const cli = (env: Record<string, string>, args = ['check', '.', '--format', 'json']) =>
    run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), ...args], { cwd: work, env: childEnv({ INSERTLINT_CACHE_DIR: 'off', ...env }) });

  it('prints and exits as a run in one process does, from a second process with the pool it planned', () => {
    const one = cli({ INSERTLINT_V8_POOL: 'off' });
    assert.equal(one.code, 1, one.stderr);
    assert.match(one.stdout, /identity-cache/);
    rmSync(join(work, 'processes.txt'), { force: true });
    const two = cli({ INSERTLINT_V8_POOL: '1', NODE_OPTIONS: `--require ${join(work, 'probe.cjs')}`, INSERTLINT_DB2_PASSWORD: 'secret' });
    assert.deepEqual([two.code, two.stdout, two.stderr], [one.code, one.stdout, one.stderr]);
    const processes = readFileSync(join(work, 'processes.txt'), 'utf8').trim().split('\n');
    assert.equal(processes.length, 2, processes.join('\n'));
    assert.match(processes[0], / true \[\]$/);
    assert.match(processes[1], / false \["--v8-pool-size=1"\]$/, 'the second process has the pool and not the password');
    // A usage error comes back from the second process with its exit status.
    const bad = cli({ INSERTLINT_V8_POOL: '1' }, ['check', '.', '--format', 'xml']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format/);
  });

  it('ends the second process when the first is ended, and ends by the same signal', async function () {
    if (process.platform === 'win32') this.skip();
    const list = join(work, 'processes.txt');
    rmSync(list, { force: true });
    const first = spawn(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', '.', '--format', 'json'], {
      cwd: work,
      stdio: 'ignore',
      env: childEnv({ INSERTLINT_CACHE_DIR: 'off', INSERTLINT_V8_POOL: '1', NODE_OPTIONS: `--require ${join(work, 'probe.cjs')}` }),
    });
    const ended = new Promise<string | null>((resolve) => first.once('exit', (_code, signal) => resolve(signal)));
    const started = Date.now();
    const second = (): number | undefined => {
      const line = (() => {
        try {
          return readFileSync(list, 'utf8').trim().split('\n')[1];
        } catch {
          return undefined;
        }
      })();
      return line ? Number(line.split(' ')[0]) : undefined;
    };
    while (second() === undefined && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 10));
    const pid = second();
    assert.ok(pid, 'the second process started');
    first.kill('SIGTERM');
    assert.equal(await ended, 'SIGTERM');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const waited = Date.now();
    while (alive() && Date.now() - waited < 5000) await new Promise((r) => setTimeout(r, 20));
    assert.equal(alive(), false, 'the second process is gone');
  });
});
