// A damaged install: one tree-sitter grammar package cut short or gone. `check` must not stop with an internal
// error: the files that need that grammar are left out, saying why (stderr, the summary, the JSON), and every
// other file is linted as before. Run as users run it: bin/insertlint.js and the committed bundle dist/cli.js,
// beside a node_modules whose packages are this checkout's but for the damaged one.
import * as assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from './helpers';

interface Report {
  summary: { files: number; leftOut: number };
  leftOut: { file: string; reason: string }[];
  diagnostics: { file: string; rule: string }[];
}

describe('check with a damaged grammar package', function () {
  this.timeout(120_000);
  let install: string;
  let project: string;

  before(() => {
    install = mkdtempSync(join(tmpdir(), 'insertlint-damaged-'));
    mkdirSync(join(install, 'bin'));
    for (const file of ['insertlint.js', 'v8-pool.js']) copyFileSync(join(ROOT, 'bin', file), join(install, 'bin', file));
    mkdirSync(join(install, 'dist'));
    copyFileSync(join(ROOT, 'dist', 'cli.js'), join(install, 'dist', 'cli.js'));
    mkdirSync(join(install, 'node_modules'));
    for (const pkg of readdirSync(join(ROOT, 'node_modules'))) {
      if (!pkg.startsWith('.') && pkg !== 'tree-sitter-python') symlinkSync(join(ROOT, 'node_modules', pkg), join(install, 'node_modules', pkg));
    }
    project = mkdtempSync(join(tmpdir(), 'insertlint-damaged-project-'));
    writeFileSync(join(project, 'load.py'), 'import ibm_db\nfor r in rows:\n    ibm_db.exec_immediate(conn, "INSERT INTO APP.T (A) VALUES (" + str(r) + ")")\n');
    writeFileSync(
      join(project, 'Load.java'),
      'import java.sql.*;\nclass Load {\n  void load(Connection c, int[] rows) throws SQLException {\n    for (int r : rows) {\n      c.createStatement().executeUpdate("INSERT INTO APP.T (A) VALUES (" + r + ")");\n    }\n  }\n}\n',
    );
    writeFileSync(join(project, 'seed.sql'), 'CREATE TABLE APP.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1 NO CACHE), A INT);\nINSERT INTO APP.T (A) VALUES (?);\n');
  });

  after(() => {
    rmSync(install, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  const check = (...extra: string[]) => run(process.execPath, [join(install, 'bin', 'insertlint.js'), 'check', '.', ...extra], { cwd: project, env: { ...process.env, INSERTLINT_CACHE_DIR: 'off' } });

  const python = () => join(install, 'node_modules', 'tree-sitter-python');
  const runtime = () => join(install, 'node_modules', 'web-tree-sitter');
  const cutShort = (file: string) => writeFileSync(file, readFileSync(file).subarray(0, 1000));
  // [damage, make it, the files left out, why]
  const damages: [string, () => void, string[], string][] = [
    [
      'the Python grammar cut short',
      () => {
        mkdirSync(python());
        copyFileSync(join(ROOT, 'node_modules', 'tree-sitter-python', 'package.json'), join(python(), 'package.json'));
        copyFileSync(join(ROOT, 'node_modules', 'tree-sitter-python', 'tree-sitter-python.wasm'), join(python(), 'tree-sitter-python.wasm'));
        cutShort(join(python(), 'tree-sitter-python.wasm'));
      },
      ['load.py'],
      'the python parser did not load; reinstall InsertLint',
    ],
    ['the Python grammar package gone', () => rmSync(python(), { recursive: true, force: true }), ['load.py'], 'the python parser did not load; reinstall InsertLint'],
    [
      'the tree-sitter runtime cut short',
      () => {
        rmSync(runtime());
        cpSync(realpathSync(join(ROOT, 'node_modules', 'web-tree-sitter')), runtime(), { recursive: true });
        cutShort(join(runtime(), 'web-tree-sitter.wasm'));
      },
      ['Load.java', 'load.py'],
      'the tree-sitter runtime did not load; reinstall InsertLint',
    ],
  ];

  for (const [damage, make, leftOut, why] of damages) {
    it(`leaves out the files that need what is damaged, saying why, and lints the rest (${damage})`, () => {
      make();
      const json = check('--format', 'json');
      assert.equal(json.code, 1, json.stderr);
      assert.doesNotMatch(json.stderr, /internal error|Aborted/);
      const warnings = json.stderr.split('\n').filter((line) => line.startsWith('insertlint: warning: '));
      assert.equal(warnings.length, 1, json.stderr);
      assert.ok(warnings[0].startsWith(`insertlint: warning: ${why} (`), warnings[0]);
      assert.match(warnings[0], new RegExp(`\\): ${leftOut.length} files? left out, their findings are not reported$`));
      const report = JSON.parse(json.stdout) as Report;
      assert.equal(report.summary.files, 3);
      assert.deepEqual(
        report.leftOut.map((l) => [l.file, l.reason.replace(/ \(.*$/, '')]),
        leftOut.map((file) => [file, why]),
      );
      const linted = new Set(report.diagnostics.map((d) => d.file));
      assert.deepEqual([...linted].sort(), ['Load.java', 'seed.sql'].filter((f) => !leftOut.includes(f)));
      const text = check();
      assert.ok(text.stdout.includes(`${leftOut.length} code file${leftOut.length === 1 ? '' : 's'} left out (${why})`), text.stdout);
    });
  }
});
