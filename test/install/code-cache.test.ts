// bin/insertlint.js compiles the CLI bundle with V8's code cache, kept in the user's cache folder: it must
// never change what a run prints, and a bundle rebuilt since the cache was written must run as rebuilt.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, childEnv, run } from './helpers';

const SQL = 'CREATE SEQUENCE app.s NO CACHE;\nINSERT INTO app.t (id) VALUES (NEXT VALUE FOR app.s);\n';

describe('bin/insertlint.js: the code cache', function () {
  this.timeout(60000);
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'insertlint-code-cache-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.bin'));

  it('prints what a run without it prints, writes it once and then reads it', () => {
    const sql = join(work, 'a.sql');
    writeFileSync(sql, SQL);
    const cache = join(work, 'cache');
    const cli = (dir: string) => run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', '--format', 'json', sql], { cwd: work, env: childEnv({ INSERTLINT_CACHE_DIR: dir }) });
    const plain = cli('off');
    assert.equal(plain.code, 1, plain.stderr);
    assert.match(plain.stdout, /identity-cache/);
    const first = cli(cache);
    assert.deepEqual([first.code, first.stdout, first.stderr], [plain.code, plain.stdout, plain.stderr]);
    const [file] = cacheFiles(cache);
    assert.ok(file, 'the cache was written');
    const written = statSync(join(cache, file)).mtimeMs;
    const second = cli(cache);
    assert.deepEqual([second.code, second.stdout, second.stderr], [plain.code, plain.stdout, plain.stderr]);
    assert.equal(statSync(join(cache, file)).mtimeMs, written, 'V8 took the cache, so it was not written again');
    assert.deepEqual(cacheFiles(cache), [file]);
  });

  it('is written again after a run that ran more than the run that wrote it (a command, a language, ten times the text, a kind of statement), not after the same run', () => {
    const small = join(work, 'a.sql');
    writeFileSync(small, SQL);
    const large = join(work, 'b.sql');
    writeFileSync(large, SQL.repeat(20));
    const cache = join(work, 'cache');
    const cli = (...args: string[]) => run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), ...args], { cwd: work, env: childEnv({ INSERTLINT_CACHE_DIR: cache }) });
    const written = () => {
      const [file] = cacheFiles(cache);
      const data = readFileSync(join(cache, file));
      return { mtimeMs: statSync(join(cache, file)).mtimeMs, paths: JSON.parse(data.toString('utf8', 0, data.indexOf(10)).split('\t')[1]) as string[] };
    };
    // Written after printing the version: none of the parser, the rules or the output are in it.
    assert.equal(cli('--version').code, 0);
    const first = written();
    assert.deepEqual(first.paths, []);
    const plain = run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', '--format', 'json', small], { cwd: work, env: childEnv({ INSERTLINT_CACHE_DIR: 'off' }) });
    const checked = cli('check', '--format', 'json', small);
    assert.deepEqual([checked.code, checked.stdout, checked.stderr], [plain.code, plain.stdout, plain.stderr]);
    const second = written();
    assert.notEqual(second.mtimeMs, first.mtimeMs, 'written again after the first check');
    assert.deepEqual(second.paths, ['command:check', 'format:json', 'read:sql:1e0', 'read:sql:1e1', 'statement:createSequence', 'statement:insert']);
    assert.equal(cli('check', '--format', 'json', small).stdout, plain.stdout);
    assert.equal(written().mtimeMs, second.mtimeMs, 'the same run again: not written');
    assert.equal(cli('check', '--format', 'json', large).code, 1);
    const third = written();
    assert.notEqual(third.mtimeMs, second.mtimeMs, 'ten times the text: written again');
    assert.deepEqual(third.paths, ['command:check', 'format:json', 'read:sql:1e0', 'read:sql:1e1', 'read:sql:1e2', 'read:sql:1e3', 'statement:createSequence', 'statement:insert']);
    // A smaller run is covered by what the larger one wrote.
    assert.equal(cli('check', '--format', 'json', small).stdout, plain.stdout);
    assert.equal(written().mtimeMs, third.mtimeMs);
    // A kind of statement the cache was not written after.
    writeFileSync(small, 'CREATE TABLE app.t (id INT);\n');
    assert.equal(cli('check', '--format', 'json', small).code, 0);
    assert.ok(written().paths.includes('statement:createTable'));
    assert.deepEqual(cacheFiles(cache).length, 1);
  });

  // C's grammar always loads with V8's wasm flags changed and set back; Python's when the run is small (tierUpPays).
  const flagChangingRuns: [string, string][] = [
    ['load.c', '#include <sqlcli1.h>\nint load(SQLHSTMT h) { return SQLExecDirect(h, (SQLCHAR *)"INSERT INTO APP.T VALUES (1)", SQL_NTS); }\n'],
    ['load.py', 'import ibm_db\nfor r in rows:\n    ibm_db.exec_immediate(conn, "INSERT INTO APP.T VALUES (1)")\n'],
  ];
  for (const [name, text] of flagChangingRuns) {
    it(`is taken by the next run after a run over ${name} (whose grammar is loaded with V8 flags changed and set back)`, () => {
      const file = join(work, name);
      writeFileSync(file, text);
      const cache = join(work, `cache-${name}`);
      const cli = () => run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', '--format', 'json', file], { cwd: work, env: childEnv({ INSERTLINT_CACHE_DIR: cache }) });
      const first = cli();
      const [cached] = cacheFiles(cache);
      const written = statSync(join(cache, cached)).mtimeMs;
      // V8 refused a cache written while --wasm-tier-up was off: every run compiled the bundle and wrote it again.
      const second = cli();
      assert.deepEqual([second.code, second.stdout, second.stderr], [first.code, first.stdout, first.stderr]);
      assert.equal(statSync(join(cache, cached)).mtimeMs, written, 'the cache was taken, not written again');
    });
  }

  describe('with a bundle of its own', () => {
    // A copy of the bin beside a tiny bundle: the test can rebuild the bundle and spoil the cache.
    let bundle: string;
    let cache: string;
    const cli = () => run(process.execPath, [join(work, 'bin', 'insertlint.js')], { cwd: work, env: childEnv({ INSERTLINT_CACHE_DIR: cache }) });
    const build = (word: string, mtime: number) => {
      writeFileSync(bundle, `exports.runFromProcess = () => process.stdout.write(${JSON.stringify(word)});\n`);
      utimesSync(bundle, mtime, mtime);
    };
    beforeEach(() => {
      mkdirSync(join(work, 'bin'));
      mkdirSync(join(work, 'dist'));
      for (const file of ['insertlint.js', 'v8-pool.js']) copyFileSync(join(ROOT, 'bin', file), join(work, 'bin', file));
      bundle = join(work, 'dist', 'cli.js');
      cache = join(work, 'cache');
    });

    it('runs a bundle rebuilt since the cache was written as rebuilt, also at the same length', () => {
      build('first', 1_700_000_000);
      assert.equal(cli().stdout, 'first');
      assert.equal(cli().stdout, 'first');
      // V8 checks only the source's length: the cache's own stamp (size, modification time) must refuse it.
      build('again', 1_700_000_100);
      assert.equal(cli().stdout, 'again');
      assert.equal(cli().stdout, 'again');
      assert.equal(cacheFiles(cache).length, 1, 'the rebuilt bundle replaced the cache of the old one');
    });

    it('compiles as before when the cache is spoilt, and writes it again', () => {
      build('fine', 1_700_000_000);
      assert.equal(cli().stdout, 'fine');
      const [file] = cacheFiles(cache);
      const data = readFileSync(join(cache, file));
      const stampEnd = data.indexOf(10) + 1;
      writeFileSync(join(cache, file), Buffer.concat([data.subarray(0, stampEnd), Buffer.from('not a V8 code cache')]));
      const r = cli();
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'fine', '']);
      assert.ok(readFileSync(join(cache, file)).length > stampEnd + 100, 'written again');
      assert.equal(cli().stdout, 'fine');
    });

    it('keeps the 16 most recently written caches when it writes one (copies in temporary folders add files)', () => {
      mkdirSync(cache);
      for (let i = 0; i < 20; i++) {
        const old = join(cache, `code-cache-${String(i).padStart(8, '0')}.bin`);
        writeFileSync(old, 'old');
        utimesSync(old, 1_600_000_000 + i, 1_600_000_000 + i);
      }
      writeFileSync(join(cache, 'notes.txt'), 'not a cache');
      build('fine', 1_700_000_000);
      assert.equal(cli().stdout, 'fine');
      const left = cacheFiles(cache);
      assert.equal(left.length, 16);
      // The one just written and the 15 newest old ones stay; what is not a cache is left alone.
      for (let i = 5; i < 20; i++) assert.ok(left.includes(`code-cache-${String(i).padStart(8, '0')}.bin`), `${i}`);
      assert.ok(readdirSync(cache).includes('notes.txt'));
      assert.equal(cli().stdout, 'fine');
    });

    it('runs without one where it cannot be written, and writes none when it is off', () => {
      build('fine', 1_700_000_000);
      writeFileSync(join(work, 'a-file'), '');
      cache = join(work, 'a-file', 'cache');
      const r = cli();
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'fine', '']);
      cache = 'off';
      assert.equal(cli().stdout, 'fine');
      assert.deepEqual(readdirSync(work).sort(), ['a-file', 'bin', 'dist']);
    });

    it('ends when the cache folder is under /proc (HOME=/proc in a container), where a recursive mkdir never returns', function () {
      if (process.platform !== 'linux') this.skip();
      build('fine', 1_700_000_000);
      cache = '/proc/insertlint-cache/x';
      const r = run(process.execPath, [join(work, 'bin', 'insertlint.js')], { cwd: work, env: childEnv({ INSERTLINT_CACHE_DIR: cache }), timeout: 20000 });
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'fine', '']);
    });
  });
});
