// The language server on SQL PL and on scripts run with another terminator: routine INSERTs feed the schema
// and the loop rules in the editor as in the CLI, and "terminator" in .insertlintrc.json is honoured.
import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspSession, uriOf, type LspDiagnostic } from './harness';

const codes = (diags: LspDiagnostic[] | undefined, rule: string) => (diags ?? []).filter((d) => d.code === rule);

const DDL = 'CREATE TABLE app.events (id INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), payload CLOB(1M));\n';
// An @ script that never says so: the engine infers the terminator from END@.
const ROUTINE = `CREATE PROCEDURE app.load_events ()
BEGIN
  FOR r AS SELECT payload FROM app.staging DO
    INSERT INTO app.events (payload) VALUES (r.payload);
    COMMIT;
  END FOR;
END@
`;

describe('language server: SQL PL routines and terminators', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-lsp-sqlpl-'));
    mkdirSync(join(dir, 'etl'));
    writeFileSync(join(dir, 'schema.sql'), DDL);
    writeFileSync(join(dir, 'load.db2'), ROUTINE);
  });

  afterEach(async () => {
    await lsp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes the loop findings of a procedure and the DDL findings its INSERT causes; editing the INSERT updates the DDL', async () => {
    lsp = await LspSession.start(dir);
    const loadUri = uriOf(join(dir, 'load.db2'));
    const ddlUri = uriOf(join(dir, 'schema.sql'));
    await lsp.waitFor('routine findings', () => codes(lsp.diagnostics.get(loadUri), 'single-row-insert').length === 1);
    await lsp.waitFor('lob-column on the DDL', () => codes(lsp.diagnostics.get(ddlUri), 'lob-column').length === 1);
    assert.equal(codes(lsp.diagnostics.get(loadUri), 'commit-per-row').length, 1, 'commit-per-row');
    assert.equal(codes(lsp.diagnostics.get(loadUri), 'parse-error').length, 0, 'parse-error');
    // The procedure now inserts elsewhere: APP.EVENTS is no insert target, its DDL findings go.
    lsp.open(ddlUri, DDL);
    lsp.open(loadUri, ROUTINE);
    lsp.change(loadUri, { start: { line: 3, character: 16 }, end: { line: 3, character: 26 } }, 'app.others');
    await lsp.waitFor('schema.sql without lob-column', () => codes(lsp.diagnostics.get(ddlUri), 'lob-column').length === 0);
  });

  it('reads a script with the terminator .insertlintrc.json gives its folder', async () => {
    const script = 'CREATE TABLE t (\n  a INT\n)%\nINSERT INTO t VALUES (1)%\n';
    writeFileSync(join(dir, 'etl', 'load.sql'), script);
    writeFileSync(join(dir, 'other.sql'), script);
    writeFileSync(join(dir, '.insertlintrc.json'), JSON.stringify({ terminator: { 'etl/**': '%' } }));
    lsp = await LspSession.start(dir);
    const etlUri = uriOf(join(dir, 'etl', 'load.sql'));
    const otherUri = uriOf(join(dir, 'other.sql'));
    await lsp.waitFor('other.sql asks about -td%', () => codes(lsp.diagnostics.get(otherUri), 'parse-error').some((d) => /-td%\?/.test(d.message)));
    assert.equal(codes(lsp.diagnostics.get(etlUri), 'parse-error').length, 0);
  });
});
