// The editor side of schema files, over the real language server on stdio: a loader repository without DDL
// whose .insertlintrc.json (or insertlint.schema setting) names db2look output gets the schema findings on its
// inserts, with relatedInformation on the DDL line, the table-cost hover, and live updates when the DDL changes.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspSession, uriOf, type LspDiagnostic } from '../lsp/harness';
import { SCHEMA_FIXTURES } from './helpers';
import { CATALOG_ROWS } from './catalog-rows';
import type { PullSchemaResult } from '../../server/src/lsp/protocol';
import { sealSecret } from '../../server/src/lsp/secret-channel';

/**
 * A stand-in for the ibm_db package (its open/query/close callback API) that replays catalog rows and logs
 * what it was sent: the server loads it through insertlint.explain.ibmDbPath like the real driver.
 */
function fakeIbmDb(dir: string): { path: string; log: string } {
  const path = join(dir, 'fake_ibm_db');
  const log = join(dir, 'ibm_db.log');
  mkdirSync(path);
  writeFileSync(join(path, 'package.json'), JSON.stringify({ name: 'ibm_db', main: 'index.js' }));
  writeFileSync(
    join(path, 'index.js'),
    `const fs = require('fs');
const rows = ${JSON.stringify(CATALOG_ROWS)};
const log = (line) => fs.appendFileSync(${JSON.stringify(log)}, line + '\\n');
exports.open = (cs, cb) => {
  log('open ' + cs);
  cb(null, {
    query(sql, params, done) { log('query ' + sql); done(null, rows[(/FROM (SYSCAT\\.\\w+)/.exec(sql) || [])[1]] || []); },
    beginTransaction(done) { log('begin'); done(null); },
    commitTransaction(done) { log('commit'); done(null); },
    rollbackTransaction(done) { log('rollback'); done(null); },
    close(done) { log('close'); done(null); },
  });
};
`,
  );
  return { path, log };
}

interface Related {
  location: { uri: string; range: { start: { line: number; character: number } } };
  message: string;
}
type WithRelated = LspDiagnostic & { relatedInformation?: Related[] };

describe('language server with schema files', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession | undefined;
  let javaUri: string;
  let lookUri: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-schema-lsp-'));
    cpSync(SCHEMA_FIXTURES, dir, { recursive: true });
    javaUri = uriOf(join(dir, 'app', 'src', 'main', 'java', 'com', 'example', 'orders', 'OrderImport.java'));
    lookUri = uriOf(join(dir, 'dba', 'salesdb.db2look'));
  });
  afterEach(async () => {
    await lsp?.stop();
    lsp = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const javaFindings = (rule: string) => ((lsp!.diagnostics.get(javaUri) ?? []) as WithRelated[]).filter((d) => d.code === rule);

  it('publishes the db2look findings on the Java insert with relatedInformation on the DDL line, and hovers the table cost', async () => {
    lsp = await LspSession.start(join(dir, 'app'));
    await lsp.waitIdle();
    await lsp.waitFor('the lob-column finding on the Java insert', () => javaFindings('lob-column').length === 1);
    const [lob] = javaFindings('lob-column');
    assert.deepEqual(lob.range.start, { line: 9, character: 21 });
    assert.equal(lob.relatedInformation?.length, 1);
    assert.equal(lob.relatedInformation![0].location.uri, lookUri);
    assert.deepEqual(lob.relatedInformation![0].location.range.start, { line: 133, character: 11 });
    assert.match(lob.relatedInformation![0].message, /schema file, not linted/);
    assert.ok(javaFindings('identity-cache').length === 2 && javaFindings('insert-trigger').length === 1);
    assert.equal(lsp.diagnostics.get(lookUri), undefined, 'nothing is published on the db2look file');
    assert.ok(lsp.logs.some((l) => l.startsWith('schema files: ') && l.includes('salesdb.db2look')));

    const hover = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: javaUri }, position: { line: 9, character: 28 } });
    assert.ok(hover, 'a hover on SALES.ORDERS in the Java string');
    assert.match(hover!.contents.value, /ORDERS_AUDIT_INS/);
    assert.match(hover!.contents.value, /salesdb\.db2look:\d+/);
  });

  it('reads insertlint.schema from the editor settings, and follows edits of the open DDL without linting it', async () => {
    rmSync(join(dir, 'app', '.insertlintrc.json'));
    lsp = await LspSession.start(join(dir, 'app'), { schema: ['../dba/salesdb.db2look'] });
    await lsp.waitIdle();
    await lsp.waitFor('the lob-column finding', () => javaFindings('lob-column').length === 1);
    const text = readFileSync(join(dir, 'dba', 'salesdb.db2look'), 'utf8');
    lsp.open(lookUri, text.replace('"NOTE" CLOB(1048576 OCTETS) LOGGED NOT COMPACT', '"NOTE" VARCHAR(200 OCTETS)'));
    await lsp.waitFor('the lob-column finding gone after the DDL edit', () => javaFindings('lob-column').length === 0 && javaFindings('identity-cache').length === 2);
    lsp.close(lookUri);
    await lsp.waitFor('the saved DDL counts again once closed', () => javaFindings('lob-column').length === 1);
    assert.ok(!(lsp.diagnostics.get(lookUri) ?? []).length, 'the schema file gets no diagnostics');
  });

  it('imports a schema through the ibm_db API for a trusted workspace only, without ever echoing the password', async () => {
    const ibmDb = fakeIbmDb(dir);
    const connection = { host: 'db2.example', port: 50000, database: 'SALESDB', user: 'me' };
    const sealed = () => sealSecret(lsp!.initializeResult.capabilities.experimental!.insertlint!.secretKey, 'pw-secret');
    lsp = await LspSession.start(join(dir, 'app'), {}, { trusted: false });
    const refused = await lsp.request<PullSchemaResult>('insertlint/pullSchema', { connection, password: sealed(), schemas: 'app, sales', ibmDbPath: ibmDb.path });
    assert.match((refused as { error: string }).error, /not trusted/);
    await lsp.stop();
    lsp = await LspSession.start(join(dir, 'app'));
    const plain = await lsp.request<PullSchemaResult>('insertlint/pullSchema', { connection: { ...connection, password: 'pw-secret' }, schemas: 'SALES', ibmDbPath: ibmDb.path });
    assert.match((plain as { error: string }).error, /refuses a plain-text password/);
    const result = await lsp.request<PullSchemaResult>('insertlint/pullSchema', { connection, password: sealed(), schemas: 'app, sales', ibmDbPath: ibmDb.path });
    assert.ok('ddl' in result, JSON.stringify(result));
    assert.match(result.ddl, /^CREATE TABLE "SALES"\."ORDERS" \(/m);
    assert.equal(result.summary, '4 tables, 2 MQTs, 4 indexes, 2 foreign keys, 1 trigger, 1 sequence, 3 table spaces from SALESDB, APP, SALES');
    const sent = readFileSync(ibmDb.log, 'utf8').trim().split('\n');
    assert.match(sent[0], /^open HOSTNAME=db2\.example;PORT=50000;DATABASE=SALESDB;UID=me;PROTOCOL=TCPIP;CONNECTTIMEOUT=10;PWD=pw-secret;$/);
    assert.ok(sent.slice(1, -1).every((l) => l.startsWith('query SELECT ')), sent.join('\n'));
    assert.equal(sent[sent.length - 1], 'close');
    assert.ok(!JSON.stringify(result).includes('pw-secret') && !lsp.logs.join('\n').includes('pw-secret'));
    const missing = await lsp.request<PullSchemaResult>('insertlint/pullSchema', { connection, password: sealed(), schemas: 'SALES', ibmDbPath: join(dir, 'nowhere') });
    assert.match((missing as { error: string }).error, /no working "ibm_db" was found.*npm install ibm_db.*insertlint\.explain\.ibmDbPath/);
    const bad = await lsp.request<PullSchemaResult>('insertlint/pullSchema', { connection: { host: 'x' }, schemas: 'SALES' });
    assert.match((bad as { error: string }).error, /needs a connection/);
  });
});
