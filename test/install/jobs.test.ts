// `check --jobs N` reads scripts in worker threads started from the CLI bundle (cli/parse-pool.ts). The
// output must be that of `--jobs 1`, byte for byte and in the same order, in every format, on a tree where
// findings cross files (DDL in one script, inserts in others), with code, a parse error, suppressions,
// configured and command-line severities, an SQL PL script with its own terminator, one whose comment runs it
// with `db2 -tvf` (its procedure is cut at the first ';'), a configured terminator and a file past its time
// budget. Run as users run it: bin/insertlint.js (the built out/cli.js) and the committed bundle dist/cli.js.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, run } from './helpers';
import { MIN_PARALLEL_CHARS, MIN_PIECE_CHARS, parseInWorkers } from '../../server/src/cli/parse-pool';

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Inserts into the tables schema.sql defines, with a suppression and (in one part) a statement that does not parse. */
function loadScript(part: number): string {
  const lines = [`-- load part ${part}`, 'SET SCHEMA APP;'];
  for (let i = 0; i < 40; i++) {
    if (i === 7) lines.push('-- insertlint-disable-next-line lob-column');
    lines.push(`INSERT INTO ORDERS (CUSTOMER_ID, NOTE, DOC) VALUES (${part * 100 + i}, 'part ${part} row ${i}', NULL);`);
    if (i % 10 === 9) lines.push('COMMIT;');
  }
  if (part === 2) lines.push('INSERT INTO ORDERS (CUSTOMER_ID VALUES (1;');
  lines.push(`INSERT INTO APP.CUSTOMERS (ID, NAME) SELECT ID, NAME FROM STAGE.CUSTOMERS_${part};`);
  return lines.join('\n') + '\n';
}

/** A script too big to read within the test's time budget (it is left out with a warning in both runs). */
const bigScript = (rows: number) => Array.from({ length: rows }, (_, i) => `INSERT INTO APP.EVENTS (A, B) VALUES (${i}, 'row ${i}');`).join('\n') + '\n';

function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'insertlint-jobs-'));
  write(root, '.insertlintrc.json', JSON.stringify({ maxFileBytes: 64 * 2 ** 20, terminator: { 'loads/glued.sql': '#' }, rules: { 'index-count': ['error', { maxIndexes: 2 }], 'prefer-parameter-markers': 'off' } }));
  write(
    root,
    'ddl/schema.sql',
    [
      'CREATE TABLE APP.CUSTOMERS (ID INT NOT NULL PRIMARY KEY, NAME VARCHAR(40));',
      'CREATE TABLE APP.ORDERS (',
      '  ID BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1 INCREMENT BY 1 NO CACHE),',
      '  CUSTOMER_ID INT NOT NULL, NOTE VARCHAR(200), DOC CLOB(1M),',
      '  PRIMARY KEY (ID),',
      '  CONSTRAINT FK_CUST FOREIGN KEY (CUSTOMER_ID) REFERENCES APP.CUSTOMERS (ID)',
      ');',
      'CREATE INDEX APP.IX_O1 ON APP.ORDERS (CUSTOMER_ID);',
      'CREATE INDEX APP.IX_O2 ON APP.ORDERS (NOTE);',
      'CREATE TABLE APP.EVENTS (A INT, B VARCHAR(20));',
      '',
    ].join('\n'),
  );
  for (let part = 0; part < 6; part++) write(root, `loads/part-${part}.sql`, loadScript(part));
  write(
    root,
    'loads/routine.db2',
    [
      'CREATE PROCEDURE APP.FILL (IN N INT)',
      'BEGIN',
      '  DECLARE I INT DEFAULT 0;',
      '  WHILE I < N DO',
      "    INSERT INTO APP.ORDERS (CUSTOMER_ID, NOTE) VALUES (I, 'filled');",
      '    COMMIT;',
      '    SET I = I + 1;',
      '  END WHILE;',
      'END@',
      'CALL APP.FILL(1000)@',
      '',
    ].join('\n'),
  );
  write(
    root,
    'loads/semi.sql',
    ['-- run with: db2 -tvf semi.sql', 'CREATE PROCEDURE APP.FILL2 (IN N INT)', 'BEGIN', "  INSERT INTO APP.ORDERS (CUSTOMER_ID, NOTE) VALUES (N, 'x');", '  COMMIT;', 'END;', ''].join('\n'),
  );
  // Read with the configured '#', its lines end in '@': the message names the setting.
  write(root, 'loads/glued.sql', ['INSERT INTO APP.CUSTOMERS (ID, NAME) VALUES (1, \'a\')@', 'INSERT INTO APP.CUSTOMERS (ID, NAME) VALUES (2, \'b\')@', ''].join('\n'));
  write(
    root,
    'app/load.py',
    [
      'import ibm_db',
      '',
      'def load(conn, rows):',
      '    for row in rows:',
      '        ibm_db.exec_immediate(conn, "INSERT INTO APP.ORDERS (CUSTOMER_ID, NOTE) VALUES (" + str(row[0]) + ", \'x\')")',
      '',
    ].join('\n'),
  );
  write(root, 'big/events.sql', bigScript(400_000));
  return root;
}

describe('check --jobs: scripts read in worker threads', function () {
  this.timeout(240_000);
  let tree: string;
  before(() => {
    tree = makeTree();
  });

  // Well above what the small files take in a cold worker on a loaded machine, well below what big/events.sql
  // takes even on a quiet one (at 1 s it was sometimes read whole, and its 400,000 findings are another test).
  const budget = ['--file-time-budget', '0.4'];
  const cli = (entry: string, args: string[], env: NodeJS.ProcessEnv = process.env) => run(process.execPath, [entry, 'check', ...args], { cwd: tree, env });

  for (const [label, entry] of [
    ['bin/insertlint.js', join(ROOT, 'bin', 'insertlint.js')],
    ['dist/cli.js', join(ROOT, 'dist', 'cli.js')],
  ] as const) {
    it(`${label}: the same output in every format as --jobs 1, and the workers did read the scripts`, () => {
      const traced = cli(entry, ['.', '--jobs', '3', ...budget], { ...process.env, INSERTLINT_TRACE_JOBS: '1' });
      assert.match(traced.stderr, /reading 11 scripts in 3 worker threads/);
      for (const format of ['text', 'json', 'sarif', 'github']) {
        const args = ['.', '--format', format, '--rule', 'lob-column=error', ...budget];
        const one = cli(entry, [...args, '--jobs', '1']);
        const many = cli(entry, [...args, '--jobs', '3']);
        assert.equal(many.code, one.code, format);
        assert.equal(many.stdout, one.stdout, format);
        assert.equal(many.stderr, one.stderr, format);
        if (format === 'json') {
          // The tree does what it is for: cross-file findings, a parse error, the code file, the file left out.
          const report = JSON.parse(one.stdout) as { summary: { parseErrors: number }; leftOut: { file: string }[]; diagnostics: { file: string; rule: string; severity: string }[] };
          const rules = new Set(report.diagnostics.map((d) => d.rule));
          for (const rule of ['identity-cache', 'index-count', 'parse-error', 'lob-column']) assert.ok(rules.has(rule), rule);
          assert.ok(report.diagnostics.some((d) => d.file === 'app/load.py'));
          assert.ok(report.diagnostics.some((d) => d.file === 'loads/routine.db2'));
          // What the reading notes on the model travels too: the db2 -tvf comment, the configured terminator.
          const messages = report.diagnostics as unknown as { file: string; rule: string; message: string }[];
          assert.ok(messages.some((d) => d.file === 'loads/semi.sql' && d.rule === 'parse-error' && /says this script is run with `db2 -tvf`/.test(d.message)));
          assert.ok(messages.some((d) => d.file === 'loads/glued.sql' && d.rule === 'parse-error' && /the configuration sets/.test(d.message)));
          assert.ok(report.diagnostics.some((d) => d.rule === 'index-count' && d.severity === 'error'));
          assert.ok(!report.diagnostics.some((d) => d.rule === 'prefer-parameter-markers'));
          assert.deepEqual(report.leftOut.map((f) => f.file), ['big/events.sql']);
          assert.match(one.stderr, /big\/events\.sql: analysis stopped after 400 ms/);
        }
      }
    });
  }

  it('writes --timings for the same files, and --output, as --jobs 1 does', () => {
    for (const jobs of ['1', '4']) cli(join(ROOT, 'bin', 'insertlint.js'), ['.', '--jobs', jobs, '--timings', `t${jobs}.json`, '--output', `o${jobs}.txt`, ...budget]);
    const rows = (jobs: string) => JSON.parse(readFileSync(join(tree, `t${jobs}.json`), 'utf8')) as { file: string; lines: number; grammars?: string[] }[];
    const files = (jobs: string) => rows(jobs).filter((t) => t.lines > 0).map((t) => `${t.file}:${t.lines}`).sort();
    assert.deepEqual(files('4'), files('1'));
    assert.equal(files('1').length, 12);
    // Loading the grammar of the tree's Python file is a row of its own, not part of that file's time.
    for (const jobs of ['1', '4']) assert.deepEqual(rows(jobs).filter((t) => t.file === '(grammar load)').map((t) => [t.lines, t.grammars]), [[0, ['python']]]);
    // So is folding the schema of all files, the rules' first work, not that of the file whose rules ran first.
    for (const jobs of ['1', '4']) assert.deepEqual(rows(jobs).filter((t) => t.file === '(schema of all files)').map((t) => t.lines), [0]);
    assert.equal(readFileSync(join(tree, 'o4.txt'), 'utf8'), readFileSync(join(tree, 'o1.txt'), 'utf8'));
  });

  it('reads a very large script in statement-aligned pieces, with the same output as --jobs 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-jobs-pieces-'));
    const lines = ['CREATE TABLE APP.EVENTS (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT, B VARCHAR(40), C CLOB(1M));'];
    for (let i = 0; lines.join('\n').length < MIN_PIECE_CHARS + 2 ** 20 || i < 10; i++) {
      const block: string[] = [];
      for (let j = 0; j < 2000; j++) block.push(`INSERT INTO APP.EVENTS (A, B) VALUES (${i * 2000 + j}, 'row ${j}; not the end');`);
      // What a cut must not be fooled by: a string and a comment holding lines that look like statements.
      block.push("INSERT INTO APP.EVENTS (A, B) VALUES (-1, 'two;\nINSERT INTO APP.EVENTS VALUES (0);\nlines');", '/* a comment;\nINSERT INTO X VALUES (1);\n */', 'COMMIT;');
      if (i === 3) block.push('INSERT INTO APP.EVENTS (A VALUES (1;');
      lines.push(block.join('\n'));
    }
    write(dir, 'big.sql', lines.join('\n') + '\n');
    write(dir, '.insertlintrc.json', JSON.stringify({ maxFileBytes: 64 * 2 ** 20 }));
    const cli = (args: string[], env: NodeJS.ProcessEnv = process.env) => run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', 'big.sql', ...args], { cwd: dir, env });
    const traced = cli(['--jobs', '3'], { ...process.env, INSERTLINT_TRACE_JOBS: '1' });
    assert.match(traced.stderr, /reading 1 scripts in 3 worker threads/);
    assert.match(traced.stderr, /big\.sql: read in 3 pieces/);
    for (const format of ['text', 'json']) {
      const one = cli(['--format', format, '--jobs', '1']);
      const many = cli(['--format', format, '--jobs', '3']);
      assert.equal(many.code, one.code, format);
      assert.equal(many.stdout, one.stdout, format);
      assert.equal(many.stderr, one.stderr, format);
      if (format === 'json') {
        const rules = new Set((JSON.parse(one.stdout) as { diagnostics: { rule: string }[] }).diagnostics.map((d) => d.rule));
        for (const rule of ['identity-cache', 'parse-error', 'single-row-insert']) assert.ok(rules.has(rule), rule);
      }
    }
  });

  it('stays on one thread for a small run, and rejects a bad --jobs', () => {
    const small = mkdtempSync(join(tmpdir(), 'insertlint-jobs-small-'));
    write(small, 'a.sql', loadScript(0));
    write(small, 'b.sql', loadScript(1));
    assert.ok(readFileSync(join(small, 'a.sql'), 'utf8').length * 2 < MIN_PARALLEL_CHARS);
    const r = run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', '.', '--jobs', '4'], { cwd: small, env: { ...process.env, INSERTLINT_TRACE_JOBS: '1' } });
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /worker threads/);
    for (const bad of ['-1', 'two', '1.5']) {
      const b = run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', '.', '--jobs', bad], { cwd: small });
      assert.equal(b.code, 2, bad);
      assert.match(b.stderr, /--jobs must be a whole number of threads/);
    }
  });

  it('leaves the scripts to the main thread when a worker cannot start', async () => {
    const tasks = [0, 1, 2].map((i) => ({ path: `s${i}.sql`, text: loadScript(i) }));
    assert.deepEqual(await parseInWorkers(join(tree, 'no-such-bundle.js'), tasks, 2, 1000), [undefined, undefined, undefined]);
  });

  it('is documented in check --help and the README', () => {
    const help = run(process.execPath, [join(ROOT, 'bin', 'insertlint.js'), 'check', '--help']);
    assert.match(help.stdout, /--jobs N/);
    assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /--jobs N/);
  });
});
