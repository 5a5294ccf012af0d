// Probe of issue 17, item 1: the Explain password must not appear in any request, trace, log, error message
// or child-process environment. Live Explain runs end to end against a fake ibm_db and a fake db2exfmt (see
// fake-db2.ts), once through the language server with tracing at verbose, once through the CLI, and every
// byte written anywhere is searched for the password. The passwords hold `}` and `;`, which a connection
// string must quote and which the old redaction cut short.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { sealSecret } from '../../server/src/lsp/secret-channel';
import { redactSecrets } from '../../server/src/explain/driver';
import { makeFakeDb2, passwordForms, type FakeDb2 } from './fake-db2';
import { ServerWire } from './lsp-wire';
import { repoRoot } from './support';
import { Repo } from '../ci/repo';

const PASSWORD = 'Sec}ret;pa{ss-Tail9x';
const WRONG = 'Wr}ong;guess-Other7q';
const SQL = 'INSERT INTO WILKINS.TEST1 (ID) VALUES (?)';

function assertNowhere(places: Record<string, string>, passwords: string[]): void {
  for (const [place, text] of Object.entries(places)) {
    for (const password of passwords) {
      for (const form of passwordForms(password)) assert.ok(!text.includes(form), `the password (${JSON.stringify(form)}) appears in ${place}`);
    }
  }
}

describe('robustness: no secret in any request, trace, log or child environment (issue 17)', function () {
  this.timeout(60_000);
  let dir: string;
  let fake: FakeDb2;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-secrets-'));
    fake = makeFakeDb2(dir, PASSWORD);
    path = [fake.bin, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('language server, tracing verbose: explains with the sealed password, and no byte written holds it', async () => {
    const wire = await ServerWire.start({ verbose: true, env: { ...process.env, PATH: path } });
    try {
      const secretKey = wire.initializeResult.capabilities.experimental?.insertlint?.secretKey;
      assert.ok(secretKey, 'the server announces its key');
      const request = (password: string) =>
        wire.connection.sendRequest<{ html?: string; title?: string; error?: string }>('insertlint/explain', {
          sql: SQL,
          nonce: 'bm9uY2Utb2YtdGhlLXRlc3Qtc3VpdGU=',
          connection: { host: 'db.example', port: 50000, database: 'SHOPDB', user: 'app' },
          password: sealSecret(secretKey, password),
          ibmDbPath: fake.ibmDb,
        });
      const ok = await request(PASSWORD);
      assert.equal(ok.error, undefined);
      assert.match(ok.title!, /live Explain \(db2exfmt\) on SHOPDB/);
      const refused = await request(WRONG);
      assert.match(refused.error!, /rejected the user name or password/);
      // The driver's message held the whole connection string: it is there, redacted.
      assert.match(refused.error!, /PWD=\*\*\*/);
      assert.ok(wire.trace.some((t) => /insertlint\/explain/.test(t)), 'the trace saw the requests');
      assert.ok(existsSync(fake.db2exfmtRecord), 'db2exfmt ran');
      assertNowhere({ ...wire.everything(), 'db2exfmt environment and arguments': readFileSync(fake.db2exfmtRecord, 'utf8') }, [PASSWORD, WRONG]);
    } finally {
      await wire.stop();
    }
  });

  it('CLI: the password from INSERTLINT_DB2_PASSWORD reaches the driver only, not db2exfmt nor the messages', () => {
    const cli = join(repoRoot(), 'out', 'cli.js');
    const run = (password: string) =>
      spawnSync(process.execPath, [cli, 'explain', '--sql', SQL, '--host', 'db.example', '--port', '50000', '--database', 'SHOPDB', '--user', 'app', '--format', 'json'], {
        env: { ...process.env, PATH: path, INSERTLINT_DB2_PASSWORD: password, INSERTLINT_IBM_DB_PATH: fake.ibmDb },
        encoding: 'utf8',
      });
    const ok = run(PASSWORD);
    assert.equal(ok.status, 0, ok.stderr);
    assert.ok(existsSync(fake.db2exfmtRecord), 'db2exfmt ran');
    const record = JSON.parse(readFileSync(fake.db2exfmtRecord, 'utf8')) as { env: Record<string, string>; args: string[] };
    assert.equal(record.env.INSERTLINT_DB2_PASSWORD, undefined);
    const refused = run(WRONG);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /rejected the user name or password/);
    assertNowhere({ stdout: ok.stdout + refused.stdout, stderr: ok.stderr + refused.stderr, db2exfmt: readFileSync(fake.db2exfmtRecord, 'utf8') }, [PASSWORD, WRONG]);
  });

  it('CLI: git, run for a checklist, does not inherit the password either', () => {
    const repo = new Repo();
    try {
      repo.write('load.sql', 'INSERT INTO APP.T VALUES (1);\n').commit('base');
      repo.write('load.sql', 'INSERT INTO APP.T VALUES (1);\nINSERT INTO APP.T VALUES (2);\n');
      // A git on PATH that records its environment, then runs the real one.
      const real = spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).stdout.trim();
      const record = join(dir, 'git-env.jsonl');
      writeFileSync(
        join(fake.bin, 'git'),
        `#!/usr/bin/env node\nrequire('node:fs').appendFileSync(${JSON.stringify(record)}, JSON.stringify(process.env) + '\\n');\n` +
          `const r = require('node:child_process').spawnSync(${JSON.stringify(join(real, 'git'))}, process.argv.slice(2), { stdio: 'inherit' });\nprocess.exit(r.status ?? 1);\n`,
      );
      chmodSync(join(fake.bin, 'git'), 0o755);
      const r = spawnSync(process.execPath, [join(repoRoot(), 'out', 'cli.js'), 'checklist', '--base', 'HEAD'], {
        cwd: repo.dir,
        env: { ...process.env, PATH: path, INSERTLINT_DB2_PASSWORD: PASSWORD },
        encoding: 'utf8',
      });
      assert.ok(r.status === 0 || r.status === 1, r.stderr);
      const envs = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
      assert.ok(envs.length > 0);
      for (const env of envs) assert.equal(env.INSERTLINT_DB2_PASSWORD, undefined);
    } finally {
      repo.dispose();
    }
  });

  it('redaction removes a PWD value quoted with braces, doubled }} and ; inside, and the bare password anywhere', () => {
    const quoted = `{${PASSWORD.replace(/}/g, '}}')}}`;
    const text = `failed for DATABASE=X;PWD=${quoted};UID=app (password ${PASSWORD})`;
    assert.equal(redactSecrets(text, [PASSWORD]), 'failed for DATABASE=X;PWD=***;UID=app (password ***)');
    // Without knowing the password, the PWD= value still goes whole.
    assert.equal(redactSecrets(`DATABASE=X;PWD=${quoted};UID=app`), 'DATABASE=X;PWD=***;UID=app');
  });
});
