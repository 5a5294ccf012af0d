// A report redirected to a file is written to it without process.stdout (cli/main.ts runFromProcess): the
// file must hold the bytes the pipe gets, and messages must still reach stderr.
import * as assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, run } from './helpers';

describe('the CLI with its standard output redirected to a file', function () {
  this.timeout(60000);
  const bin = join(ROOT, 'bin', 'insertlint.js');
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-stdout-'));
    // (A non-ASCII character in a message: the file gets the UTF-8 bytes the pipe gets.)
    const rows = 'INSERT INTO app.t (note) VALUES (?);\n'.repeat(40);
    writeFileSync(join(dir, 'load.sql'), `CREATE TABLE app.t\u00e9 (id INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), note VARCHAR(20));\nCREATE TABLE app.t (id INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), note VARCHAR(20));\n${rows}`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The CLI run twice, its output to a pipe and to a file: both results, the file's text as the second's stdout. */
  function bothWays(args: string[]) {
    const env = { ...process.env, INSERTLINT_CACHE_DIR: 'off' };
    const piped = run(process.execPath, [bin, ...args], { cwd: dir, env });
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    let r;
    try {
      r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', env });
    } finally {
      closeSync(fd);
    }
    return { piped, toFile: { code: r.status, stdout: readFileSync(file, 'utf8'), stderr: r.stderr } };
  }

  for (const format of ['text', 'json', 'sarif']) {
    it(`writes the ${format} report the pipe gets`, () => {
      const { piped, toFile } = bothWays(['check', '--format', format, 'load.sql']);
      assert.equal(piped.code, 1, piped.stderr);
      assert.ok(piped.stdout.length > 1000, 'a report with findings');
      assert.deepEqual(toFile, piped);
    });
  }

  it('still writes its messages to stderr', () => {
    const { piped, toFile } = bothWays(['check', 'load.sql', 'missing.sql']);
    assert.match(toFile.stderr, /missing\.sql: no such file or folder/);
    assert.deepEqual(toFile, piped);
  });
});
