import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExplainCommand, type ExplainDeps } from '../../server/src/cli/explain-command';
import { spawnSync } from 'node:child_process';
import { fixture, repoRoot } from './helpers/fixtures';
import { writeExfmt } from './helpers/exfmt-writer';
import { orderLinePlan } from './helpers/make-fixtures';
import { FakeDriver, KEY_ROW, SEED_ROWS, db2Error } from './helpers/fake-driver';
import { Db2Error } from '../../server/src/explain/driver';

async function run(argv: string[], deps: ExplainDeps = {}, stdin = '') {
  let stdout = '';
  let stderr = '';
  const code = await runExplainCommand(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: async () => stdin, cwd: join(repoRoot(), 'test', 'fixtures', 'exfmt'), isTTY: false }, { env: {}, ...deps });
  return { code, stdout, stderr };
}

function seedDriver(): FakeDriver {
  return new FakeDriver((sql) => {
    if (sql.startsWith('SELECT TABSCHEMA')) return [{ TABSCHEMA: 'APP' }];
    if (sql.includes("EXPLAIN_LEVEL = 'P'")) return [{ ...KEY_ROW, STATEMENT_TYPE: 'I', TOTAL_COST: 28.2956, STATEMENT_TEXT: 'INSERT …' }];
    if (sql.includes("EXPLAIN_LEVEL = 'O'")) return [{ STATEMENT_TEXT: 'INSERT INTO WILKINS.TEST1 VALUES (?, ?)' }];
    if (sql.includes('.EXPLAIN_OPERATOR')) return SEED_ROWS.operators;
    if (sql.includes('.EXPLAIN_STREAM')) return SEED_ROWS.streams;
    if (sql.includes('.EXPLAIN_OBJECT')) return SEED_ROWS.objects;
    if (sql.includes('.EXPLAIN_ARGUMENT')) return SEED_ROWS.arguments;
    if (sql.includes('.EXPLAIN_PREDICATE')) return SEED_ROWS.predicates;
    return [];
  });
}

describe('explain: insertlint explain', () => {
  it('prints the text tree and verdict for a plan file (exit 0)', async () => {
    const r = await run(['seed-fk-insert-graph.txt']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /IXSCAN \(7\) .* ◀ foreign-key check 9\.2%/);
    assert.match(r.stdout, /^9\.2% of the estimated cost is a foreign-key check on WILKINS\.TEST1's parent/m);
    assert.ok(!r.stdout.includes('\u001b['), 'no colour when not a TTY');
    const forced = await run(['explain', 'seed-fk-insert-graph.txt', '--color']);
    assert.ok(forced.stdout.includes('\u001b[33m'));
    const tty = async (env: NodeJS.ProcessEnv) => {
      let out = '';
      await runExplainCommand(['seed-fk-insert-graph.txt'], { stdout: (s) => (out += s), stderr: () => {}, stdin: async () => '', cwd: join(repoRoot(), 'test', 'fixtures', 'exfmt'), isTTY: true }, { env });
      return out;
    };
    assert.ok((await tty({})).includes('\u001b['), 'colour on a terminal');
    assert.ok(!(await tty({ NO_COLOR: '1' })).includes('\u001b['), 'NO_COLOR turns it off');
  });

  it('writes json, markdown and html; reads standard input with -', async () => {
    const json = await run(['insert-fk-trigger-mqt.exfmt.txt', '--format', 'json']);
    assert.equal(json.code, 0);
    const parsed = JSON.parse(json.stdout);
    assert.equal(parsed.statements[0].operators.find((o: { id: number }) => o.id === 8).hidden, 'foreign-key-check');
    const md = await run(['-', '--format=markdown'], {}, fixture('seed-fk-insert-graph.txt'));
    assert.equal(md.code, 0);
    assert.match(md.stdout, /^\*\*Verdict:\*\*/m);
    const dashdash = await run(['--format', 'json', '--'], {}, fixture('seed-fk-insert-graph.txt'));
    assert.equal(dashdash.code, 0, dashdash.stderr);
    assert.equal(JSON.parse(dashdash.stdout).statements[0].operators.length, 7);
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-explain-'));
    const out = join(dir, 'plan.html');
    const html = await run(['insert-fk-trigger-mqt.exfmt.txt', '--format', 'html', '--output', out]);
    assert.equal(html.code, 0);
    assert.equal(html.stdout, '');
    assert.match(readFileSync(out, 'utf8'), /<svg class="plan"/);
  });

  it('names constraints from --schema DDL files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-explain-'));
    writeFileSync(
      join(dir, 'ddl.sql'),
      'CREATE TABLE WILKINS.PARENT (ID INTEGER NOT NULL PRIMARY KEY);\nCREATE TABLE WILKINS.TEST1 (ID INTEGER NOT NULL, PID INTEGER, CONSTRAINT FK_T1_PARENT FOREIGN KEY (PID) REFERENCES WILKINS.PARENT);\nCREATE INDEX WILKINS.T1_PID ON WILKINS.TEST1 (PID);\n',
    );
    const r = await run(['seed-fk-insert-graph.txt', '--schema', join(dir, 'ddl.sql')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(constraint FK_T1_PARENT\)/);
    assert.match(r.stdout, /the\s+index\s+on\s+WILKINS\.TEST1\s+\(WILKINS\.T1_PID\)/);
  });

  it('exits 2 with a clear message for damaged texts, db2expln output, missing files and bad usage', async () => {
    const damaged = await run(['damaged-flushed-shared-temp-graph.txt']);
    assert.equal(damaged.code, 2);
    assert.match(damaged.stderr, /cannot be read as an access plan\.\n {2}The Access Plan graph is damaged: the leading whitespace/);
    // A flushed paste whose rows read one way only is shown, with a warning that says how it was read.
    const rebuilt = await run(['damaged-flushed-no-details.txt']);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /^warning: The Access Plan graph is damaged: the leading whitespace of its lines was stripped\. Its tree was rebuilt from the order of the boxes/);
    assert.match(rebuilt.stdout, /IXSCAN \(7\)  rows 1  cost 2\.60196  io 0  ◀ foreign-key check/);
    const expln = await run(['db2expln-insert.txt']);
    assert.equal(expln.code, 2);
    assert.match(expln.stderr, /This is db2expln output/);
    const missing = await run(['no-such-plan.txt']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read no-such-plan\.txt/);
    const empty = await run(['-'], {}, '\n');
    assert.deepEqual([empty.code, empty.stderr], [2, "insertlint explain: standard input is empty: give db2exfmt output (or the EXPLAIN tables' plan, or --sql with a connection).\n"]);
    assert.equal((await run([])).code, 2);
    assert.equal((await run(['a.txt', '--format', 'pdf'])).code, 2);
    assert.equal((await run(['a.txt', '--sql', 'INSERT INTO t VALUES (1)'])).code, 2);
  });

  it('explains live through the driver and never prints the password', async () => {
    const driver = seedDriver();
    const env = { INSERTLINT_DB2_PASSWORD: 'hunter2-secret' };
    const r = await run(['--sql', 'INSERT INTO WILKINS.TEST1 VALUES (?, :x)', '--connection', 'DATABASE=SHOPDB;HOSTNAME=db;PORT=50000;UID=app', '--format', 'json'], {
      env,
      driverFactory: () => driver,
      findDb2exfmt: () => undefined,
    });
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.kind, 'live');
    assert.equal(json.statements[0].operators.find((o: { id: number }) => o.id === 7).hidden, 'foreign-key-check');
    assert.ok(driver.sqlSent().includes(`EXPLAIN PLAN SET QUERYNO = ${(driver.sqlSent()[1].match(/QUERYNO = (\d+)/) ?? [])[1]} SET QUERYTAG = 'INSERTLINT' FOR INSERT INTO WILKINS.TEST1 VALUES (?, ?)`));
    assert.ok(!r.stdout.includes('hunter2') && !r.stderr.includes('hunter2'));
    // What the EXPLAIN tables' key row says of where the plan came from (no query more for the version or settings).
    assert.equal(json.header.explainTime, '2026-11-20-10.15.42.123456');
    assert.deepEqual(json.header.package, { schema: 'NULLID', name: 'SYSSH200', version: null });
    assert.equal(json.header.db2Version, null);
    const text = await run(['--sql', 'INSERT INTO WILKINS.TEST1 VALUES (?, :x)', '--connection', 'DATABASE=SHOPDB;HOSTNAME=db;PORT=50000;UID=app'], {
      env,
      driverFactory: () => seedDriver(),
      findDb2exfmt: () => undefined,
    });
    assert.match(text.stdout, /^Plan explained 2026-11-20 10:15:42, package NULLID\.SYSSH200\n/);
  });

  it('live through db2exfmt: says which Db2, explain time, package and settings the plan came from', async () => {
    const driver = seedDriver();
    const run1 = (format: string) =>
      run(['--sql', 'INSERT INTO WILKINS.TEST1 VALUES (?, :x)', '--connection', 'DATABASE=SHOPDB;HOSTNAME=db;PORT=50000;UID=app', '--format', format], {
        env: { INSERTLINT_DB2_PASSWORD: 'pw' },
        driverFactory: () => driver,
        findDb2exfmt: () => '/opt/ibm/db2/bin/db2exfmt',
        runProcess: async (_file, args) => {
          const queryNo = /QUERYNO = (\d+)/.exec(driver.sqlSent().join('\n'))![1];
          writeFileSync(args[args.indexOf('-o') + 1], fixture('insert-fk-trigger-mqt.exfmt.txt').replace(/^\tQUERYNO:.*$/m, `\tQUERYNO:       ${queryNo}`));
          return { code: 0, stdout: '', stderr: '' };
        },
      });
    const text = await run1('text');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Plan from Db2 11\.5\.8 on SHOPDB, explained 2026-11-20 10:15:42, package NULLID\.SQLC2P31\nPlan settings: dynamic SQL, optimization level 5, isolation CS, parallelism none\n/);
    const json = JSON.parse((await run1('json')).stdout);
    assert.equal(json.kind, 'live');
    assert.equal(json.header.db2Version, '11.05.8');
  });

  it('exits 1 with one sentence and the SQLSTATE/SQLCODE when the server cannot be reached', async () => {
    const driver = seedDriver();
    driver.openError = db2Error('[IBM][CLI Driver] SQL30081N  A communication error has been detected.  SQLSTATE=08001', -30081, '08001');
    const r = await run(['--sql', 'INSERT INTO T VALUES (1)', '--database', 'SAMPLE', '--host', '127.0.0.1', '--port', '50099', '--user', 'u'], {
      env: { INSERTLINT_DB2_PASSWORD: 'pw-should-not-leak' },
      driverFactory: () => driver,
      findDb2exfmt: () => undefined,
    });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'insertlint explain: Cannot reach the Db2 server at 127.0.0.1:50099 (database SAMPLE): nothing answered (check host, port and network).\n  details: SQLSTATE=08001 SQLCODE=-30081: [IBM][CLI Driver] SQL30081N  A communication error has been detected.  SQLSTATE=08001\n',
    );
    const pwd = await run(['--sql', 'INSERT INTO T VALUES (1)', '--connection', 'DATABASE=S;UID=u;PWD=oops'], { driverFactory: () => driver });
    assert.equal(pwd.code, 2, 'a connection that cannot be used is a usage error');
    assert.match(pwd.stderr, /Do not put the password in the connection string/);
    const noDatabase = await run(['--sql', 'INSERT INTO T VALUES (1)'], { driverFactory: () => driver });
    assert.deepEqual([noDatabase.code, noDatabase.stderr], [2, 'insertlint explain: The connection names no database (DATABASE=… or --database).\n']);
    assert.ok(!pwd.stderr.includes('oops'));
    const select = await run(['--sql', 'SELECT 1 FROM SYSIBM.SYSDUMMY1', '--database', 'S'], { driverFactory: () => driver });
    assert.equal(select.code, 2);
    assert.match(select.stderr, /Only INSERT \(or MERGE\)/);
  });

  it('--database with no host: says the driver looked the database up on this machine, with the SQLSTATE/SQLCODE as a detail', async () => {
    const driver = seedDriver();
    driver.openError = db2Error('[IBM][CLI Driver] SQL30082N  Security processing failed with reason "5" ("USERID MISSING").  SQLSTATE=08001\n', -30082, '08001');
    const r = await run(['--sql', 'INSERT INTO T VALUES (?, ?)', '--database', 'SAMPLE'], { env: { INSERTLINT_DB2_PASSWORD: 'x' }, driverFactory: () => driver, findDb2exfmt: () => undefined });
    assert.equal(r.code, 1);
    const [message, details, ...rest] = r.stderr.split('\n');
    assert.match(message, /^insertlint explain: The Db2 driver could not log on to database SAMPLE: a password is set \(INSERTLINT_DB2_PASSWORD\) but no user name was given \(security reason 5, USERID MISSING\)\. As no host was given/);
    assert.match(message, /looked the database up on this machine .* Give the server with --host and --port \(and the user with --user\), or catalog database SAMPLE on this machine/);
    assert.ok(!/configured server|rejected the user name or password/.test(message), message);
    assert.equal(details, '  details: SQLSTATE=08001 SQLCODE=-30082: [IBM][CLI Driver] SQL30082N  Security processing failed with reason "5" ("USERID MISSING").  SQLSTATE=08001');
    assert.deepEqual(rest, ['']);
  });

  it('a missing ibm_db: the detail is Node\'s first line, never a line with escaped \\n', async () => {
    const r = await run(['--sql', 'INSERT INTO T VALUES (?, ?)', '--database', 'SAMPLE'], { env: { INSERTLINT_IBM_DB_PATH: join(tmpdir(), 'insertlint-no-such-dir', 'ibm_db') }, findDb2exfmt: () => undefined });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^insertlint explain: The optional Db2 driver "ibm_db" is not installed\./);
    assert.ok(!r.stderr.includes('\\n'), r.stderr);
    assert.ok(!r.stderr.includes('Require stack'), r.stderr);
    assert.match(r.stderr, /\n {2}details: Cannot find module '[^'\n]*insertlint-no-such-dir[/\\]ibm_db'\n$/);
    // A detail of several lines (a binding built for another Node.js) is shown on lines of its own.
    const driver = seedDriver();
    driver.openError = new Db2Error('driver-missing', 'The Db2 driver "ibm_db" failed to load.', "The module 'odbc_bindings.node'\nwas compiled against a different Node.js version.\n");
    const twoLines = await run(['--sql', 'INSERT INTO T VALUES (?, ?)', '--database', 'SAMPLE'], { driverFactory: () => driver, findDb2exfmt: () => undefined });
    assert.equal(twoLines.stderr, 'insertlint explain: The Db2 driver "ibm_db" failed to load.\n  details: The module \'odbc_bindings.node\'\n           was compiled against a different Node.js version.\n');
  });
});

describe('explain: no FILE, with the plan on standard input', function () {
  this.timeout(60000);
  const bin = join(repoRoot(), 'bin', 'insertlint.js');
  const cli = (args: string[], input?: string) =>
    spawnSync(process.execPath, [bin, 'explain', ...args], { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input }), timeout: 30000 });

  it('reads a pipe as `-` does (insertlint explain < plan.txt)', () => {
    const plan = writeExfmt([orderLinePlan()]);
    const piped = cli([], plan);
    assert.equal(piped.status, 0, piped.stderr);
    assert.match(piped.stdout, /foreign-key check/);
    const dash = cli(['-'], plan);
    assert.deepEqual([piped.stdout, piped.stderr], [dash.stdout, dash.stderr]);
    assert.equal(cli(['--format', 'json'], plan).status, 0);
  });

  it('an empty standard input (/dev/null) is said to be empty, with the usage', () => {
    const r = cli([]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^insertlint explain: standard input is empty: give db2exfmt output/);
    assert.match(r.stderr, /Usage:\n {2}insertlint explain FILE\|-/);
  });

  it('on a terminal gives the usage at once, without reading it', async () => {
    let stderr = '';
    let read = false;
    const io = { stdout: () => {}, stderr: (s: string) => (stderr += s), cwd: tmpdir(), isTTY: true, stdinIsTTY: true, stdin: () => ((read = true), new Promise<string>(() => {})) };
    assert.equal(await runExplainCommand([], io, { env: {} }), 2);
    assert.equal(read, false);
    assert.match(stderr, /give one plan file \(or - for standard input\)[^]*Usage:/);
    // Not a terminal: the same arguments read it.
    const piped = await runExplainCommand([], { ...io, stdinIsTTY: false, stdin: async () => fixture('seed-fk-insert-graph.txt') }, { env: {} });
    assert.equal(piped, 0);
  });
});
