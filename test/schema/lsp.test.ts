// The editor side of schema files, over the real language server on stdio: a loader repository without DDL
// whose .insertlintrc.json (or insertlint.schema setting) names db2look output gets the schema findings on its
// inserts, with relatedInformation on the DDL line, the table-cost hover, and live updates when the DDL changes.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspSession, uriOf, type LspDiagnostic } from '../lsp/harness';
import { SCHEMA_FIXTURES } from './helpers';

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
});
