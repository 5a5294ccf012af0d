// What a `check` run loads besides the bundle: Node's built-in modules cost their compilation on first use,
// charged to whatever row of --timings is running then. node:perf_hooks (the global `performance`, a lazy
// getter) was loaded by the engine's first clock reading, ~0.8 ms of the first file read; the engine's clock
// (engine/clock.ts) reads process.hrtime instead.
import * as assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, childEnv, run } from './helpers';

/** Preloaded into the CLI's process: prints the built-in modules loaded after start-up, at exit. */
// (The list is taken before writing, and written with fs.writeSync: making process.stderr would load the stream
// modules the list is about.)
const REPORT_MODULES = `const before = new Set(process.moduleLoadList);
process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((m) => !before.has(m));
  require('fs').writeSync(2, '\\nLOADED ' + JSON.stringify(loaded) + '\\n');
});
`;

describe('bin/insertlint.js: built-in modules a check run loads', function () {
  this.timeout(60000);
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'insertlint-start-up-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  /** `stdoutFile`: the report goes to this file, as a shell's `> report.json` sends it (else to a pipe). */
  const loadedBy = (file: string, text: string, stdoutFile?: string): string[] => {
    writeFileSync(join(work, 'report.cjs'), REPORT_MODULES);
    writeFileSync(join(work, file), text);
    const out = stdoutFile === undefined ? undefined : openSync(join(work, stdoutFile), 'w');
    const ran = run(process.execPath, ['-r', join(work, 'report.cjs'), join(ROOT, 'bin', 'insertlint.js'), 'check', '--format', 'json', '--timings', join(work, 't.json'), join(work, file)], {
      cwd: work,
      env: childEnv({ INSERTLINT_CACHE_DIR: 'off' }),
      ...(out === undefined ? {} : { stdio: ['ignore', out, 'pipe'] }),
    });
    if (out !== undefined) closeSync(out);
    assert.ok(ran.code === 0 || ran.code === 1, ran.stderr);
    const line = ran.stderr.split('\n').find((l) => l.startsWith('LOADED '));
    assert.ok(line, ran.stderr);
    return JSON.parse(line.slice('LOADED '.length)) as string[];
  };

  it('does not load node:perf_hooks for a script or a host-language file (the engine times with process.hrtime)', () => {
    const sql = loadedBy('a.sql', 'CREATE TABLE app.t (id INT);\nINSERT INTO app.t (id) VALUES (1);\n');
    assert.ok(sql.length > 0, 'the report lists the modules the run loaded');
    assert.ok(!sql.includes('NativeModule perf_hooks'), sql.join(', '));
    const python = loadedBy('load.py', 'import ibm_db\nfor r in rows:\n    ibm_db.exec_immediate(conn, "INSERT INTO APP.T VALUES (1)")\n');
    assert.ok(!python.includes('NativeModule perf_hooks'), python.join(', '));
  });

  it('does not load node:tty, node:net or the stream modules when the report goes to a file (~5 ms of start-up)', () => {
    const loaded = loadedBy('a.sql', 'CREATE TABLE app.t (id INT);\nINSERT INTO app.t (id) VALUES (1);\n', 'report.json');
    assert.ok(loaded.length > 0, 'the report lists the modules the run loaded');
    for (const module of ['NativeModule tty', 'NativeModule net', 'NativeModule stream']) assert.ok(!loaded.includes(module), `${module}: ${loaded.join(', ')}`);
    assert.equal(JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')).summary.files, 1);
  });
});
