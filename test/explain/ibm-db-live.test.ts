// Loads the real ibm_db built by scripts/ibm-db-setup.sh (when present) through our lazy loader and checks
// that an unreachable server gives our clear message. No Db2 server runs here, so this is as live as it gets.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IbmDbDriver, loadIbmDb, Db2Error, buildConnection } from '../../server/src/explain/driver';
import { repoRoot } from './helpers/fixtures';
import { runExplainCommand } from '../../server/src/cli/explain-command';

describe('explain: ibm_db (real driver, optional)', function () {
  this.timeout(60_000);
  const modulePath = process.env.INSERTLINT_IBM_DB_PATH || join(repoRoot(), '.cache', 'ibm_db', 'node_modules', 'ibm_db');

  before(function () {
    if (!existsSync(join(modulePath, 'package.json'))) {
      process.stderr.write(`  (skipped: no ibm_db at ${modulePath}; run scripts/ibm-db-setup.sh to build it)\n`);
      this.skip();
    }
  });

  it('loads through INSERTLINT_IBM_DB_PATH and reports a closed loopback port as unreachable (SQL30081N)', async () => {
    const env = { INSERTLINT_IBM_DB_PATH: modulePath };
    const ibmdb = loadIbmDb(env);
    assert.equal(typeof ibmdb.open, 'function');
    const connection = buildConnection({ connection: 'DATABASE=SAMPLE;HOSTNAME=127.0.0.1;PORT=50099;PROTOCOL=TCPIP;UID=nobody;CONNECTTIMEOUT=3' }, { INSERTLINT_DB2_PASSWORD: 'not-a-real-password' });
    const driver = new IbmDbDriver(connection, () => loadIbmDb(env));
    const started = Date.now();
    await assert.rejects(driver.open(connection.connectionString), (err: Db2Error) => {
      assert.ok(err instanceof Db2Error, String(err));
      assert.equal(err.kind, 'unreachable', err.details);
      assert.equal(err.message, 'Cannot reach the Db2 server at 127.0.0.1:50099 (database SAMPLE): nothing answered (check host, port and network).');
      assert.match(err.details ?? '', /SQL30081N/);
      assert.equal(err.sqlstate, '08001');
      assert.ok(!(err.details ?? '').includes('not-a-real-password'));
      return true;
    });
    assert.ok(Date.now() - started < 30_000);
  });

  it('insertlint explain --sql … against the closed port: exit 1, one sentence, SQL30081N in details, no password', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runExplainCommand(
      ['--sql', 'INSERT INTO APP.T VALUES (?)', '--connection', 'DATABASE=SAMPLE;HOSTNAME=127.0.0.1;PORT=50099;UID=nobody;CONNECTTIMEOUT=3', '--no-db2exfmt'],
      { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: async () => '' },
      { env: { INSERTLINT_IBM_DB_PATH: modulePath, INSERTLINT_DB2_PASSWORD: 'pw-not-shown' } },
    );
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^insertlint explain: Cannot reach the Db2 server at 127\.0\.0\.1:50099 \(database SAMPLE\): nothing answered \(check host, port and network\)\.\n {2}details: SQLSTATE=08001 SQLCODE=-30081: .*SQL30081N/);
    assert.ok(!stderr.includes('pw-not-shown'));
  });

  it('--database SAMPLE with no host: the driver refuses locally (SQL30082N reason 5 or 17), and the message says so', async () => {
    const run = async (env: Record<string, string>) => {
      let stderr = '';
      const code = await runExplainCommand(
        ['--sql', 'INSERT INTO T VALUES (?, ?)', '--database', 'SAMPLE', '--no-db2exfmt'],
        { stdout: () => {}, stderr: (s) => (stderr += s), stdin: async () => '' },
        { env: { INSERTLINT_IBM_DB_PATH: modulePath, ...env } },
      );
      return { code, stderr };
    };
    const withPassword = await run({ INSERTLINT_DB2_PASSWORD: 'pw-not-shown' });
    assert.equal(withPassword.code, 1, withPassword.stderr);
    assert.match(withPassword.stderr, /^insertlint explain: The Db2 driver could not log on to database SAMPLE: a password is set \(INSERTLINT_DB2_PASSWORD\) but no user name was given \(security reason 5, USERID MISSING\)\. As no host was given/);
    assert.match(withPassword.stderr, /\n {2}details: SQLSTATE=08001 SQLCODE=-30082: .*SQL30082N .*reason "5"/);
    assert.ok(!withPassword.stderr.includes('pw-not-shown'));
    const without = await run({});
    assert.equal(without.code, 1, without.stderr);
    assert.match(without.stderr, /^insertlint explain: The Db2 driver could not log on to database SAMPLE: no host was given .*security reason 17, UNSUPPORTED FUNCTION/);
    for (const r of [withPassword, without]) assert.ok(!r.stderr.includes('configured server'), r.stderr);
  });
});
