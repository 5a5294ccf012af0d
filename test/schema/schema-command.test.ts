// `insertlint schema pull` as a user runs it, with a driver that replays catalog rows: the file written, the
// messages, the errors; then `check` reads the snapshot and the loader gets its schema findings.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSchemaCommand, type SchemaDeps } from '../../server/src/cli/schema-command';
import { FakeDriver, db2Error } from '../explain/helpers/fake-driver';
import type { ServerInfo } from '../../server/src/explain/driver';
import { runCli } from '../ci/repo';
import { catalogDriver } from './catalog-rows';
import { SCHEMA_FIXTURES } from './helpers';

async function pull(argv: string[], cwd: string, deps: SchemaDeps = {}) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s), stdin: async () => '', cwd, isTTY: false };
  const code = await runSchemaCommand(argv, io, { env: { INSERTLINT_DB2_PASSWORD: 's3cret' }, ...deps });
  return { code, stdout, stderr };
}

describe('insertlint schema pull', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-pull-'));
    cpSync(join(SCHEMA_FIXTURES, 'app'), dir, { recursive: true });
    rmSync(join(dir, '.insertlintrc.json'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the snapshot, says what it read, and check then reads it for the loaders', async () => {
    const seen: ServerInfo[] = [];
    const driver = catalogDriver();
    const r = await pull(['pull', '--connection', 'DATABASE=SALESDB;HOSTNAME=db2;PORT=50000;UID=me', '--schemas', 'app,sales', '--output', 'db/schema.sql'], dir, {
      driverFactory: (info) => {
        seen.push(info);
        return driver;
      },
      schemaEntries: async () => [],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^insertlint schema pull: warning: MQT SALES\.OLD_TOTALS: its definition could not be read back/m);
    assert.match(r.stderr, /^insertlint schema pull: wrote db\/schema\.sql: 4 tables, 2 MQTs, 4 indexes, 2 foreign keys, 1 trigger, 1 sequence, 3 table spaces from SALESDB, schemas APP, SALES$/m);
    assert.match(r.stderr, /name it under "schema" in \.insertlintrc\.json \(or pass --schema db\/schema\.sql\)/);
    assert.equal(driver.calls[0].sql, 'DATABASE=SALESDB;HOSTNAME=db2;PORT=50000;UID=me;PROTOCOL=TCPIP;CONNECTTIMEOUT=10;PWD=s3cret;', 'the password only from INSERTLINT_DB2_PASSWORD');
    assert.equal(seen[0].host, 'db2');
    assert.ok(!r.stderr.includes('s3cret'));
    assert.deepEqual(readdirSync(join(dir, 'db')), ['schema.sql'], 'no temporary file left');

    writeFileSync(join(dir, '.insertlintrc.json'), JSON.stringify({ schema: ['db/schema.sql'] }));
    const check = await runCli(['check', '--format', 'json'], dir);
    const findings = JSON.parse(check.stdout).diagnostics as { file: string; rule: string; related?: { file: string }[] }[];
    const javaRules = [...new Set(findings.filter((f) => f.file.endsWith('OrderImport.java') && f.related).map((f) => f.rule))].sort();
    assert.deepEqual(javaRules, ['clustered-index-bulk-target', 'enforced-foreign-key', 'identity-cache', 'index-count', 'insert-trigger', 'lob-column', 'refresh-immediate-mqt']);
    assert.ok(findings.filter((f) => f.related).every((f) => f.related![0].file === 'db/schema.sql'));
    assert.equal(JSON.parse(check.stdout).summary.files, 3, 'the snapshot is read, not linted');
  });

  it('prints to standard output without --output, and stays quiet about the config when the file is already named', async () => {
    const r = await pull(['pull', '--database', 'SALESDB', '--schemas', 'SALES'], dir, { driverFactory: () => catalogDriver(), env: {} });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^-- Db2 catalog snapshot of database SALESDB, schema SALES\./);
    const named = await pull(['pull', '--database', 'SALESDB', '--schemas', 'SALES', '--output', 'db/s.sql'], dir, { driverFactory: () => catalogDriver(), schemaEntries: async () => [join(dir, 'db')] });
    assert.ok(!named.stderr.includes('name it under'));
  });

  it('fails clearly: no password for a user, unreachable server, missing driver, no tables, bad usage; the old file stays', async () => {
    writeFileSync(join(dir, 'schema.sql'), '-- the previous snapshot\n');
    const noPassword = await pull(['pull', '--connection', 'DATABASE=SALESDB;UID=me', '--schemas', 'SALES', '--output', 'schema.sql'], dir, { env: {}, driverFactory: () => catalogDriver() });
    // A connection that cannot be used is a usage error (2): nothing was tried, no server is down.
    assert.equal(noPassword.code, 2);
    assert.match(noPassword.stderr, /INSERTLINT_DB2_PASSWORD is not set/);
    const inString = await pull(['pull', '--connection', 'DATABASE=SALESDB;UID=me;PWD=oops', '--schemas', 'SALES'], dir, { driverFactory: () => catalogDriver() });
    assert.equal(inString.code, 2);
    assert.match(inString.stderr, /Do not put the password in the connection string/);
    const down = new FakeDriver(() => []);
    down.openError = db2Error('[IBM][CLI Driver] SQL30081N  A communication error has been detected. SQLSTATE=08001', -30081, '08001');
    const unreachable = await pull(['pull', '--database', 'SALESDB', '--host', 'db2', '--port', '50000', '--user', 'me', '--schemas', 'SALES', '--output', 'schema.sql'], dir, { driverFactory: () => down });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^insertlint schema pull: Cannot reach the Db2 server at db2:50000 \(database SALESDB\)/);
    assert.match(unreachable.stderr, /details: SQLSTATE=08001 SQLCODE=-30081/);
    const missing = await pull(['pull', '--database', 'SALESDB', '--schemas', 'SALES'], dir, { env: { INSERTLINT_IBM_DB_PATH: join(dir, 'no-such-ibm_db') } });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /The optional Db2 driver "ibm_db" is not installed/);
    const empty = await pull(['pull', '--database', 'SALESDB', '--schemas', 'NOPE', '--output', 'schema.sql'], dir, { driverFactory: () => new FakeDriver(() => []) });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /no tables found in NOPE on SALESDB .*nothing written/);
    assert.equal(readFileSync(join(dir, 'schema.sql'), 'utf8'), '-- the previous snapshot\n');
    await assert.rejects(pull(['pull', '--database', 'SALESDB'], dir), /--schemas APP,SALES/);
    await assert.rejects(pull(['push'], dir), /unknown subcommand "push"/);
    assert.equal((await pull([], dir)).code, 2);
  });
});

describe('insertlint schema pull with the real ibm_db (optional)', function () {
  this.timeout(60_000);
  const modulePath = process.env.INSERTLINT_IBM_DB_PATH || join(__dirname, '..', '..', '..', '.cache', 'ibm_db', 'node_modules', 'ibm_db');

  before(function () {
    if (!existsSync(join(modulePath, 'package.json'))) {
      process.stderr.write(`  (skipped: no ibm_db at ${modulePath}; run scripts/ibm-db-setup.sh to build it)\n`);
      this.skip();
    }
  });

  it('loads the driver and reports a closed loopback port as unreachable, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-pull-live-'));
    try {
      const r = await pull(['pull', '--connection', 'DATABASE=SAMPLE;HOSTNAME=127.0.0.1;PORT=50099;UID=nobody;CONNECTTIMEOUT=3', '--schemas', 'APP', '--output', 'schema.sql'], dir, {
        env: { INSERTLINT_IBM_DB_PATH: modulePath, INSERTLINT_DB2_PASSWORD: 'pw-not-shown' },
      });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^insertlint schema pull: Cannot reach the Db2 server at 127\.0\.0\.1:50099 \(database SAMPLE\)[^\n]*\n {2}details: SQLSTATE=08001 SQLCODE=-30081: .*SQL30081N/);
      assert.ok(!r.stderr.includes('pw-not-shown'));
      assert.ok(!existsSync(join(dir, 'schema.sql')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
