// Loads the real ibm_db built by scripts/ibm-db-setup.sh (when present) through our lazy loader and checks
// that an unreachable server gives our clear message. No Db2 server runs here, so this is as live as it gets.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IbmDbDriver, loadIbmDb, Db2Error, buildConnection } from '../../server/src/explain/driver';
import { repoRoot } from './helpers/fixtures';

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
});
