// bin/insertlint.js in a checkout runs the newer of out/cli.js (the checkout's build) and dist/cli.js (the
// committed bundle): a pull that brings a new dist/ without a rebuild must not leave the CLI on an old engine.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from './helpers';

/** A bundle that says which one it is (the shape bin/insertlint.js loads: exports.runFromProcess). */
const stub = (name: string) => `exports.runFromProcess = () => process.stdout.write(${JSON.stringify(name)});\n`;

describe('bin/insertlint.js picks its bundle', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-bin-'));
    for (const sub of ['bin', 'out', 'dist']) mkdirSync(join(dir, sub));
    for (const file of ['insertlint.js', 'v8-pool.js']) copyFileSync(join(ROOT, 'bin', file), join(dir, 'bin', file));
    writeFileSync(join(dir, 'out', 'cli.js'), stub('out'));
    writeFileSync(join(dir, 'dist', 'cli.js'), stub('dist'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ran = () => {
    const r = run(process.execPath, [join(dir, 'bin', 'insertlint.js'), '--version'], { env: { ...process.env, INSERTLINT_CACHE_DIR: 'off' } });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const age = (file: string, seconds: number) => {
    const t = Date.now() / 1000 - seconds;
    utimesSync(join(dir, file), t, t);
  };

  it('runs out/cli.js when it was built after dist/cli.js was written', () => {
    age('dist/cli.js', 60);
    assert.equal(ran(), 'out');
  });

  it('runs dist/cli.js when it is newer than the build in out/ (a pull without a rebuild)', () => {
    age('out/cli.js', 60);
    assert.equal(ran(), 'dist');
  });

  it('runs dist/cli.js when there is no out/ (an installed package)', () => {
    rmSync(join(dir, 'out'), { recursive: true });
    assert.equal(ran(), 'dist');
  });
});
