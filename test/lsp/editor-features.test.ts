// The editor features of issue 14 through the real server over stdio: the insertlint.* settings applied
// without a restart, Fix all, "Disable rule in this workspace", "Create configuration", the rule list, rule
// links to the client's documentation command, counts without hints, and files.encoding for files on disk.
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE, LspSession, uriOf, type CodeAction, type LspDiagnostic } from './harness';


const rules = (diags: LspDiagnostic[] | undefined) => (diags ?? []).map((d) => String(d.code)).sort();
const whole = { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } };

describe('language server: editor settings and actions (issue 14)', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession | undefined;
  let ordersUri: string;
  let ordersText: string;
  let loadUri: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-editor-'));
    cpSync(FIXTURE, dir, { recursive: true });
    ordersUri = uriOf(join(dir, 'ddl', 'orders.sql'));
    ordersText = readFileSync(join(dir, 'ddl', 'orders.sql'), 'utf8');
    loadUri = uriOf(join(dir, 'load', 'load.sql'));
  });

  afterEach(async () => {
    await lsp?.stop();
    lsp = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function openOrders(settings: unknown = {}, initializationOptions: unknown = {}): Promise<LspSession> {
    lsp = await LspSession.start(dir, settings, initializationOptions);
    lsp.open(ordersUri, ordersText);
    lsp.open(loadUri, readFileSync(join(dir, 'load', 'load.sql'), 'utf8'));
    await lsp.waitFor('orders.sql findings', () => rules(lsp!.diagnostics.get(ordersUri)).includes('identity-cache'));
    return lsp;
  }

  const codeActions = (s: LspSession, only?: string[]) =>
    s.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ordersUri }, range: whole, context: { diagnostics: [], ...(only ? { only } : {}) } });
  // The INSERT (and its lens) is in load.sql.
  const lenses = (s: LspSession) => s.request<unknown[]>('textDocument/codeLens', { textDocument: { uri: loadUri } });

  it('insertlint.enable off clears findings, lenses and actions and says "disabled"; on brings them back, without a restart', async () => {
    const s = await openOrders();
    assert.ok((await lenses(s)).length > 0);
    s.configure({ enable: false });
    await s.waitFor('findings cleared', () => (s.diagnostics.get(ordersUri) ?? []).length === 0);
    await s.waitFor('status disabled', () => s.statuses.at(-1)?.state === 'disabled');
    assert.equal(s.statuses.at(-1)?.findings, 0);
    assert.deepEqual(await lenses(s), []);
    assert.deepEqual(await codeActions(s), []);
    assert.ok(s.codeLensRefreshes > 0, 'the client is asked to refresh its lenses');
    s.configure({ enable: true });
    await s.waitFor('findings back', () => rules(s.diagnostics.get(ordersUri)).includes('identity-cache'));
    assert.ok((await lenses(s)).length > 0);
  });

  it('insertlint.minimumSeverity hides less severe findings, and insertlint.messageStyle firstSentence shortens messages', async () => {
    // table-lock-bulk-target is off by default (issue 13): turned on here for an information finding.
    const s = await openOrders({ rules: { 'table-lock-bulk-target': 'information' } });
    await s.waitFor('the fixture has an information finding', () => rules(s.diagnostics.get(ordersUri)).includes('table-lock-bulk-target'));
    s.configure({ minimumSeverity: 'warning', messageStyle: 'firstSentence' });
    await s.waitFor('information hidden', () => !rules(s.diagnostics.get(ordersUri)).includes('table-lock-bulk-target'));
    const cache = s.diagnostics.get(ordersUri)!.find((d) => d.code === 'identity-cache')!;
    assert.equal(cache.message, 'IDENTITY column APP.ORDERS.ID hands out values with NO CACHE.');
    assert.ok((s.diagnostics.get(ordersUri) ?? []).every((d) => d.severity! <= 2));
  });

  it('insertlint.languages leaves other languages without findings, and insertlint.codeLens off removes the lenses', async () => {
    const s = await openOrders();
    s.configure({ languages: ['java'], codeLens: false });
    await s.waitFor('sql findings gone', () => (s.diagnostics.get(ordersUri) ?? []).length === 0);
    assert.deepEqual(await lenses(s), []);
    s.configure({ languages: ['sql'] });
    await s.waitFor('sql findings back', () => rules(s.diagnostics.get(ordersUri)).includes('identity-cache'));
    assert.ok((await lenses(s)).length > 0);
  });

  it('insertlint.run onSave analyses an edit only when the document is saved, and offers no stale quick fixes meanwhile', async () => {
    const s = await openOrders({ run: 'onSave', debounceMs: 0 });
    const line = ordersText.split('\n')[4];
    const col = line.indexOf('NO CACHE');
    const publishedBefore = s.diagnostics.get(ordersUri);
    s.change(ordersUri, { start: { line: 4, character: col }, end: { line: 4, character: col + 'NO CACHE'.length } }, 'CACHE 1000');
    // Ask for something: the server answers after handling the change, so the edit has been seen by now.
    await s.request('textDocument/codeLens', { textDocument: { uri: ordersUri } });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(s.diagnostics.get(ordersUri), publishedBefore, 'no analysis before the save');
    assert.deepEqual(await codeActions(s), [], 'actions computed on the older text would land in the wrong place');
    s.save(ordersUri);
    await s.waitFor('identity-cache gone after the save', () => !rules(s.diagnostics.get(ordersUri)).includes('identity-cache'));
  });

  it('Fix all (source.fixAll.insertlint) applies the fixes that keep the meaning, not NOT ENFORCED', async () => {
    const s = await openOrders();
    assert.ok(rules(s.diagnostics.get(ordersUri)).includes('enforced-foreign-key'));
    const quick = await codeActions(s);
    const notEnforced = quick.find((a) => /NOT ENFORCED/.test(a.title));
    assert.ok(notEnforced, quick.map((a) => a.title).join(', '));
    assert.equal(notEnforced.isPreferred, false, 'a fix that changes meaning is not the preferred one');
    const actions = await codeActions(s, ['source.fixAll.insertlint']);
    assert.equal(actions.length, 1, actions.map((a) => a.title).join(', '));
    assert.equal(actions[0].kind, 'source.fixAll.insertlint');
    const edits = actions[0].edit!.changes[ordersUri];
    assert.deepEqual(edits.map((e) => e.newText), ['CACHE 1000']);
    // Asked for source actions in general (the Source Action menu), it is there too; quick fixes are not.
    const source = await codeActions(s, ['source']);
    assert.deepEqual(source.map((a) => a.kind), ['source.fixAll.insertlint']);
  });

  it('a Python file: the pyodbc executemany finding offers the fast_executemany quick fix, as an edit of the file', async () => {
    const py = 'import pyodbc\n\n\ndef load(rows):\n    conn = pyodbc.connect(DSN)\n    cur = conn.cursor()\n    cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)\n';
    const pyUri = uriOf(join(dir, 'load', 'load.py'));
    writeFileSync(join(dir, 'load', 'load.py'), py);
    const s = (lsp = await LspSession.start(dir));
    s.open(pyUri, py, 'python');
    await s.waitFor('load.py findings', () => rules(s.diagnostics.get(pyUri)).includes('single-row-insert'));
    const actions = await s.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: pyUri }, range: whole, context: { diagnostics: [] } });
    const fix = actions.find((a) => a.title === 'Set cur.fast_executemany = True before executemany');
    assert.ok(fix, actions.map((a) => a.title).join(', '));
    assert.equal(fix.isPreferred, false);
    assert.deepEqual(fix.edit!.changes[pyUri], [{ range: { start: { line: 6, character: 4 }, end: { line: 6, character: 4 } }, newText: 'cur.fast_executemany = True\n    ' }]);
  });

  it('"Disable rule in this workspace" writes .insertlintrc.json and the finding goes at once', async () => {
    const s = await openOrders();
    const action = (await codeActions(s)).find((a) => a.title === 'Disable identity-cache in this workspace');
    assert.ok(action?.command);
    const result = await s.request<{ path: string; created: boolean }>('workspace/executeCommand', { command: action.command.command, arguments: action.command.arguments });
    assert.equal(result.created, true);
    const config = JSON.parse(readFileSync(join(dir, '.insertlintrc.json'), 'utf8'));
    assert.equal(config.rules['identity-cache'], 'off');
    await s.waitFor('identity-cache gone', () => !rules(s.diagnostics.get(ordersUri)).includes('identity-cache'));
    await s.waitFor('the message', () => s.messages.some((m) => /identity-cache is now off/.test(m)));
    // A second rule keeps the first.
    await s.request('workspace/executeCommand', { command: 'insertlint.server.disableRuleInWorkspace', arguments: ['lob-column'] });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.insertlintrc.json'), 'utf8')).rules, { 'identity-cache': 'off', 'lob-column': 'off' });
    await assert.rejects(s.request('workspace/executeCommand', { command: 'insertlint.server.disableRuleInWorkspace', arguments: ['no-such-rule'] }), /rule id/);
    // A client that fails the message box request does not bring the server down.
    s.answersMessageRequests = false;
    await s.request('workspace/executeCommand', { command: 'insertlint.server.disableRuleInWorkspace', arguments: ['mincommit'] });
    await s.waitFor('the fallback log line', () => s.logs.some((l) => /message not shown.*mincommit is now off/.test(l)));
    assert.ok((await lenses(s)).length > 0, 'the server still answers');
    assert.equal(s.exited, false);
  });

  it('a merged finding offers "Disable … in this workspace" and its documentation for each rule shown in it', async () => {
    writeFileSync(join(dir, '.insertlintrc.json'), JSON.stringify({ bulkRowThreshold: 1 }));
    const s = await openOrders();
    const uri = uriOf(join(dir, 'load', 'literal.sql'));
    const text = Array.from({ length: 5 }, (_, i) => `INSERT INTO APP.CODES (NAME) VALUES ('n${i}');\n`).join('');
    s.open(uri, text);
    await s.waitFor('the merged finding', () => (s.diagnostics.get(uri) ?? []).some((d) => (d.relatedInformation ?? []).length > 0));
    const merged = s.diagnostics.get(uri)!.find((d) => (d.relatedInformation ?? []).length > 0)!;
    const shown = [String(merged.code), ...merged.relatedInformation!.flatMap((r) => /^also ([a-z-]+):/.exec(r.message)?.[1] ?? [])];
    assert.ok(shown.length >= 2, shown.join());
    const line = merged.range.start.line;
    const range = { start: { line, character: 0 }, end: { line, character: 0 } };
    const titles = (await s.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [] } })).map((a) => a.title);
    for (const rule of shown) {
      assert.ok(titles.includes(`Disable ${rule} in this workspace`), `${rule}: ${titles.join(' | ')}`);
      assert.ok(titles.includes(`Show documentation for ${rule}`), `${rule}: ${titles.join(' | ')}`);
    }
  });

  it('"Create configuration" writes a starter file once; "Show rules" lists the rules with the severity in force', async () => {
    const s = await openOrders({ rules: { 'lob-column': 'off' } });
    const first = await s.request<{ path: string; created: boolean; uri: string }>('workspace/executeCommand', { command: 'insertlint.server.createConfiguration', arguments: [] });
    assert.equal(first.created, true);
    assert.equal(first.uri, uriOf(join(dir, '.insertlintrc.json')));
    const written = JSON.parse(readFileSync(first.path, 'utf8'));
    assert.deepEqual(written, { rules: {}, ignore: [], schema: [] });
    const second = await s.request<{ created: boolean }>('workspace/executeCommand', { command: 'insertlint.server.createConfiguration', arguments: [] });
    assert.equal(second.created, false);
    const list = await s.request<{ id: string; severity: string; fixable: boolean; description: string }[]>('insertlint/rules', {});
    assert.ok(list.length >= 20);
    assert.deepEqual(list.find((r) => r.id === 'identity-cache'), { id: 'identity-cache', description: list.find((r) => r.id === 'identity-cache')!.description, severity: 'warning', fixable: true });
    assert.equal(list.find((r) => r.id === 'lob-column')!.severity, 'off');
  });

  it('links rule ids to the client\'s documentation command when the client asks for it', async () => {
    const s = await openOrders({}, { clientCommands: ['insertlint.showRuleDocumentation'], ruleDocs: 'command' });
    const d = s.diagnostics.get(ordersUri)!.find((x) => x.code === 'identity-cache')!;
    assert.equal(d.codeDescription!.href, `command:insertlint.showRuleDocumentation?${encodeURIComponent('["identity-cache"]')}`);
  });

  it('counts what the Problems panel lists: hints are published but not counted in the status', async () => {
    const s = await openOrders({ rules: { 'lob-column': 'hint' } });
    await s.waitIdle();
    await s.waitFor('lob-column as a hint', () => s.diagnostics.get(ordersUri)?.find((d) => d.code === 'lob-column')?.severity === 4);
    const published = [...s.diagnostics.values()].flat();
    const withoutHints = published.filter((d) => d.severity !== 4).length;
    assert.equal(published.length, withoutHints + 1);
    await s.waitFor(`status count ${withoutHints}`, () => s.statuses.at(-1)?.findings === withoutHints);
  });

  it('reads closed files on disk with files.encoding (Latin-1 here), as the editor would show them', async () => {
    const latin = "CREATE TABLE APP.CLIENTÈLE (ID INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), NOM VARCHAR(20));\nINSERT INTO APP.CLIENTÈLE (NOM) SELECT NOM FROM STAGE.CLIENTS WHERE NOM <> 'Hélène';\n";
    writeFileSync(join(dir, 'ddl', 'clients.sql'), Buffer.from(latin, 'latin1'));
    const clientsUri = uriOf(join(dir, 'ddl', 'clients.sql'));
    lsp = await LspSession.start(dir, {}, {}, 'iso88591');
    const s = lsp;
    await s.waitFor('the Latin-1 file indexed', () => rules(s.diagnostics.get(clientsUri)).includes('identity-cache'));
    assert.match(s.diagnostics.get(clientsUri)!.find((d) => d.code === 'identity-cache')!.message, /APP\.CLIENTÈLE\.ID/);
    await s.stop();
    // In UTF-8 (the default) the same bytes are not valid: skipped with a line that says what to do, and one in the
    // Problems panel (workspace-skipped.test.ts).
    lsp = await LspSession.start(dir);
    await lsp.waitIdle();
    const notUtf8 = /^not linted: it is not valid UTF-8 .*set files\.encoding to iso88591 or windows1252/;
    assert.deepEqual(lsp.diagnostics.get(clientsUri)!.map((d) => d.code), ['file-skipped']);
    assert.match(lsp.diagnostics.get(clientsUri)![0].message, notUtf8);
    assert.ok(lsp.logs.some((l) => /skipped .*clients\.sql: it is not valid UTF-8 .*set files\.encoding to iso88591 or windows1252/.test(l)), lsp.logs.join('\n'));
    assert.ok(!lsp.logs.some((l) => /--encoding/.test(l)), 'an editor user is not told a CLI flag');
    assert.ok(!existsSync(join(dir, '.insertlintrc.json')));
    // files.encoding set as the notice says: read again, its findings in place of the notice.
    const u = lsp;
    u.filesEncoding = 'iso88591';
    u.configure({});
    await u.waitFor('the Latin-1 file read again', () => rules(u.diagnostics.get(clientsUri)).includes('identity-cache'));
    assert.ok(!rules(u.diagnostics.get(clientsUri)).includes('file-skipped'));
  });
});
