// Probes of issue 17 through the real CLI (a child process, as users run it): bounded plan input (item 2),
// output files replaced whole or not at all (item 3), nothing skipped in silence (item 6).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './support';

const CLI = () => join(repoRoot(), 'out', 'cli.js');
const LIMIT_MB = 32;

function cli(cwd: string, args: string[], options: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv; uid?: number } = {}): SpawnSyncReturns<string> {
  const uid = options.uid;
  return spawnSync(process.execPath, [...(options.nodeArgs ?? []), CLI(), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    timeout: 60_000,
    ...(uid !== undefined ? { uid, gid: uid } : {}),
  });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const NOBODY = 65534;

describe('robustness: the CLI with endless input, interruptions and odd files (issue 17)', function () {
  this.timeout(90_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-files-'));
    chmodSync(dir, 0o755);
  });
  afterEach(() => {
    for (const sub of ['locked']) if (existsSync(join(dir, sub))) chmodSync(join(dir, sub), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('item 2: explain stops reading at the limit', () => {
    it('`explain -` on an endless stream stops after the limit and says so', async () => {
      const child = spawn(process.execPath, [CLI(), 'explain', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.stdin.on('error', () => undefined); // EPIPE once it stops reading
      const chunk = Buffer.alloc(1 << 20, 'x');
      let written = 0;
      let exited = false;
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => ((exited = true), resolve(code))));
      // Write for as long as the child reads, up to 20 seconds (the unbounded reader never stops reading).
      const until = Date.now() + 20_000;
      while (!exited && Date.now() < until) {
        if (!child.stdin.write(chunk)) await Promise.race([new Promise((r) => child.stdin.once('drain', r)), exit]);
        written += chunk.length;
      }
      if (!exited) child.kill('SIGKILL');
      const code = await exit;
      assert.ok(exited && code === 2, `still reading after ${Math.round(written / 1048576)} MB (exit ${code})`);
      assert.ok(written < (LIMIT_MB + 16) * 1048576, `it read ${Math.round(written / 1048576)} MB`);
      assert.match(stderr, new RegExp(`cannot read -: it is over the ${LIMIT_MB} MB limit`));
    });

    it('`explain /dev/zero` (a file that never ends) stops after the limit and says so', function () {
      if (!existsSync('/dev/zero')) this.skip();
      const r = cli(dir, ['explain', '/dev/zero']);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`cannot read /dev/zero: it is over the ${LIMIT_MB} MB limit`));
    });
  });

  describe('item 3: an interrupted run leaves the previous output file as it was', () => {
    // Preloaded into the CLI: the process is killed the moment it opens a file for writing in KILL_DIR,
    // the worst time for an interruption (Ctrl-C, a CI timeout, a full disk).
    const HOOK = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const dir = process.env.KILL_DIR;
const inDir = (p) => typeof p === 'string' && path.dirname(path.resolve(p)) === dir;
const writing = (flags) => typeof flags === 'string' ? /[wa+]/.test(flags) : typeof flags === 'number' && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0;
const die = () => process.kill(process.pid, 'SIGKILL');
const openSync = fs.openSync;
fs.openSync = function (p, flags, ...rest) {
  const fd = openSync.call(this, p, flags, ...rest);
  if (inDir(p) && writing(flags)) die();
  return fd;
};
const writeFileSync = fs.writeFileSync;
fs.writeFileSync = function (p, ...rest) {
  if (inDir(p)) { openSync(p, 'w'); die(); }
  return writeFileSync.call(this, p, ...rest);
};
`;
    const cases: [string, (out: string) => string[]][] = [
      ['--write-baseline', (out) => ['check', 'src', '--write-baseline', out]],
      ['check --format sarif --output', (out) => ['check', 'src', '--format', 'sarif', '--output', out]],
      ['explain --output', (out) => ['explain', join(repoRoot(), 'test', 'fixtures', 'exfmt', 'insert-fk-trigger-mqt.exfmt.txt'), '--output', out]],
    ];
    for (const [name, args] of cases) {
      it(`${name}: the old file survives a kill mid-write, and a finished run replaces it whole`, () => {
        mkdirSync(join(dir, 'src'));
        writeFileSync(join(dir, 'src', 'load.sql'), 'CREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT);\nINSERT INTO APP.T (A) VALUES (?);\n');
        const outDir = join(dir, 'reports');
        mkdirSync(outDir);
        const out = join(outDir, 'result.out');
        writeFileSync(out, 'PREVIOUS CONTENT\n');
        writeFileSync(join(dir, 'hook.js'), HOOK);
        const killed = cli(dir, args(out), { nodeArgs: ['-r', join(dir, 'hook.js')], env: { KILL_DIR: outDir } });
        assert.equal(killed.signal, 'SIGKILL', `the hook did not fire: ${killed.stderr}`);
        assert.equal(readFileSync(out, 'utf8'), 'PREVIOUS CONTENT\n');
        const done = cli(dir, args(out));
        assert.ok(done.status === 0 || done.status === 1, done.stderr);
        assert.notEqual(readFileSync(out, 'utf8'), 'PREVIOUS CONTENT\n');
        assert.ok(readFileSync(out, 'utf8').length > 100);
        // Only the killed run's temporary file is left beside it.
        assert.ok(readdirSync(outDir).filter((f) => f !== 'result.out').every((f) => /^\.insertlint-result\.out\..*\.tmp$/.test(f)), readdirSync(outDir).join(', '));
      });
    }
  });

  describe('item 6: nothing skipped in silence', () => {
    it('names pipes, devices, symbolic links and unreadable folders it skips, and why', function () {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'real.sql'), 'COMMIT;\n');
      symlinkSync(join(dir, 'src', 'real.sql'), join(dir, 'src', 'link.sql'));
      symlinkSync(join(dir, 'src', 'gone.sql'), join(dir, 'src', 'broken.sql'));
      mkdirSync(join(dir, 'elsewhere'));
      symlinkSync(join(dir, 'elsewhere'), join(dir, 'src', 'linked-folder'));
      const fifo = spawnSync('mkfifo', [join(dir, 'src', 'pipe.sql')]);
      mkdirSync(join(dir, 'src', 'locked'));
      writeFileSync(join(dir, 'src', 'locked', 'hidden.sql'), 'COMMIT;\n');
      chmodSync(join(dir, 'src', 'locked'), 0o000);
      // root reads any folder: run as nobody then (the temp folder is world-readable).
      const r = cli(dir, ['check', 'src', '/dev/null'], isRoot ? { uid: NOBODY } : {});
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /skipped src\/link\.sql: it is a symbolic link; links inside folders are not followed/);
      assert.match(r.stderr, /skipped src\/broken\.sql: it is a symbolic link whose target does not exist/);
      assert.match(r.stderr, /skipped src\/linked-folder: it is a symbolic link to a folder/);
      if (fifo.status === 0) assert.match(r.stderr, /skipped src\/pipe\.sql: it is a named pipe \(FIFO\)/);
      assert.match(r.stderr, /skipped src\/locked: cannot read this folder \(EACCES/);
      assert.match(r.stderr, /skipped \/dev\/null: it is a character device; InsertLint reads regular files and folders only/);
      assert.match(r.stdout, /in 1 file,/);
    });

    it('exits 2 when the paths hold nothing to lint, and says so', () => {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'README.md'), '# nothing here\n');
      const r = cli(dir, ['check', 'docs']);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /nothing to lint in docs: no SQL script or application code/);
      const binaryOnly = join(dir, 'bin.sql');
      writeFileSync(binaryOnly, Buffer.from([0, 1, 2, 0, 0]));
      const skippedOnly = cli(dir, ['check', 'bin.sql']);
      assert.equal(skippedOnly.status, 2);
      assert.match(skippedOnly.stderr, /skipped bin\.sql: it looks binary[^]*nothing to lint in bin\.sql: no SQL script or application code \(1 skipped, see above\)/);
    });

    it('writes no report over a script or program: one the run reads, or any existing file of a language it reads', () => {
      const script = 'INSERT INTO APP.T VALUES (1);\n';
      writeFileSync(join(dir, 'load.sql'), script);
      writeFileSync(join(dir, 'other.sql'), script);
      writeFileSync(join(dir, 'Loader.java'), 'class Loader {}\n');
      // `--timings load.sql` with the report's name forgotten: the script is the report's name and the run reads "."
      const cases: [string[], RegExp][] = [
        [['check', '--timings', 'load.sql'], /--timings load\.sql names a file this run checks: the report would be written over it/],
        [['check', '--output', 'other.sql', 'load.sql'], /--output other\.sql names an existing SQL script/],
        [['check', '--write-baseline', 'Loader.java', 'load.sql'], /--write-baseline Loader\.java names an existing Java file/],
      ];
      for (const [args, message] of cases) {
        const r = cli(dir, args);
        assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, message);
        assert.equal(readFileSync(join(dir, 'load.sql'), 'utf8'), script);
        assert.equal(readFileSync(join(dir, 'other.sql'), 'utf8'), script);
        assert.equal(readFileSync(join(dir, 'Loader.java'), 'utf8'), 'class Loader {}\n');
      }
      // A report file of its own, new or not, is written as before.
      writeFileSync(join(dir, 'report.json'), 'old');
      const ok = cli(dir, ['check', '--timings', 't.json', '--output', 'report.json', 'load.sql']);
      assert.ok(ok.status === 0 || ok.status === 1, ok.stderr);
      assert.notEqual(readFileSync(join(dir, 'report.json'), 'utf8'), 'old');
      assert.ok(existsSync(join(dir, 't.json')));
    });
  });
});
