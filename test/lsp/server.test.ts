// The language server over real stdio: initialize, the workspace index, didOpen/didChange,
// diagnostics with rule ids and doc links, code actions, hover, code lens, watchers, bad input.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { sealSecret } from '../../server/src/lsp/secret-channel';
import { FIXTURE, LspSession, REPO_ROOT, applyEdits, uriOf, type CodeAction, type LspDiagnostic } from './harness';


function byRule(diags: LspDiagnostic[] | undefined, rule: string): LspDiagnostic[] {
  return (diags ?? []).filter((d) => d.code === rule);
}

describe('language server over stdio', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession;
  let ordersUri: string;
  let loadUri: string;
  let ordersText: string;
  let loadText: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-lsp-'));
    cpSync(FIXTURE, dir, { recursive: true });
    ordersUri = uriOf(join(dir, 'ddl', 'orders.sql'));
    loadUri = uriOf(join(dir, 'load', 'load.sql'));
    ordersText = readFileSync(join(dir, 'ddl', 'orders.sql'), 'utf8');
    loadText = readFileSync(join(dir, 'load', 'load.sql'), 'utf8');
    lsp = await LspSession.start(dir);
  });

  afterEach(async () => {
    await lsp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes the workspace with progress and publishes findings of files nobody opened, with rule ids and doc links', async () => {
    await lsp.waitFor('identity-cache on orders.sql', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 1);
    const [d] = byRule(lsp.diagnostics.get(ordersUri), 'identity-cache');
    assert.equal(d.source, 'insertlint');
    assert.equal(d.severity, 2);
    assert.match(d.codeDescription!.href, /rules\/identity-cache\.md$/);
    assert.equal(d.range.start.line, 4);
    assert.equal(ordersText.split('\n')[4].slice(d.range.start.character, d.range.end.character), 'NO CACHE');
    await lsp.waitIdle();
    const kinds = lsp.progress.map((p) => (p as { value: { kind: string } }).value.kind);
    assert.equal(kinds[0], 'begin');
    assert.equal(kinds[kinds.length - 1], 'end');
    assert.ok(lsp.logs.some((l) => /indexed 2 files .*1 code files without SQL left out/.test(l)), lsp.logs.join('\n'));
  });

  it('re-analyses after an incremental edit and drops a fixed finding', async () => {
    lsp.open(ordersUri, ordersText);
    await lsp.waitFor('identity-cache', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 1);
    const line = ordersText.split('\n')[4];
    const col = line.indexOf('NO CACHE');
    lsp.change(ordersUri, { start: { line: 4, character: col }, end: { line: 4, character: col + 'NO CACHE'.length } }, 'CACHE 1000');
    await lsp.waitFor('identity-cache to go away', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 0);
    // Other findings of the file are still there (the edit did not blank the file).
    assert.ok(byRule(lsp.diagnostics.get(ordersUri), 'lob-column').length === 1);
  });

  it('re-publishes an open DDL file when an edit elsewhere changes what depends on it', async () => {
    lsp.open(ordersUri, ordersText);
    lsp.open(loadUri, loadText);
    await lsp.waitFor('identity-cache', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 1);
    // Without the INSERT, APP.ORDERS is no longer an insert target: the DDL findings about inserts go.
    lsp.change(loadUri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '-- ');
    await lsp.waitFor('orders.sql re-published without identity-cache', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 0);
    lsp.change(loadUri, { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, '');
    await lsp.waitFor('identity-cache back', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 1);
  });

  it('offers the rule fix, disable-for-line/file comments and the rule documentation', async () => {
    lsp.open(ordersUri, ordersText);
    await lsp.waitFor('identity-cache', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 1);
    const [d] = byRule(lsp.diagnostics.get(ordersUri), 'identity-cache');
    const actions = await lsp.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: ordersUri },
      range: d.range,
      context: { diagnostics: [d] },
    });
    const titles = actions.map((a) => a.title);
    const fix = actions.find((a) => a.title === 'Use CACHE 1000');
    assert.ok(fix, titles.join(', '));
    assert.equal(fix.isPreferred, true);
    assert.equal(fix.kind, 'quickfix');
    assert.match(applyEdits(ordersText, fix.edit!.changes[ordersUri]).split('\n')[4], /INCREMENT BY 1, CACHE 1000\)/);

    const line = actions.find((a) => a.title === 'Disable identity-cache for this line')!;
    const lineEdits = line.edit!.changes[ordersUri];
    assert.deepEqual(lineEdits[0].range.start, { line: 4, character: 0 });
    assert.equal(lineEdits[0].newText, '  -- insertlint-disable-next-line identity-cache\n');

    const file = actions.find((a) => a.title === 'Disable identity-cache for this file')!;
    assert.equal(file.edit!.changes[ordersUri][0].newText, '-- insertlint-disable-file identity-cache\n');
    assert.deepEqual(file.edit!.changes[ordersUri][0].range.start, { line: 0, character: 0 });

    const doc = actions.find((a) => a.title === 'Show documentation for identity-cache')!;
    assert.equal(doc.command!.command, 'insertlint.server.openRuleDocumentation');
    assert.deepEqual(doc.command!.arguments, ['identity-cache']);

    // Applying the disable-for-line edit (as an editor would, incrementally) suppresses the finding.
    lsp.change(ordersUri, lineEdits[0].range, lineEdits[0].newText);
    await lsp.waitFor('the suppressed finding to go', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 0);
    assert.equal(byRule(lsp.diagnostics.get(ordersUri), 'unused-suppression').length, 0);

    // A second rule on the line below an existing directive extends it instead of stacking comments.
    const lob = byRule(lsp.diagnostics.get(ordersUri), 'lob-column')[0];
    assert.ok(lob, 'lob-column finding');
  });

  it('shows the insert cost of a table on hover, in an INSERT and in its DDL', async () => {
    lsp.open(loadUri, loadText);
    await lsp.waitIdle();
    const col = loadText.indexOf('ORDERS') + 2;
    const hover = await lsp.request<{ contents: { kind: string; value: string }; range: unknown }>('textDocument/hover', {
      textDocument: { uri: loadUri },
      position: { line: 0, character: col },
    });
    const md = hover.contents.value;
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(md, /Table APP\.ORDERS/);
    // The primary key keeps an index too.
    assert.match(md, /\| Indexes \| 2 \(ORDERS_CUST, 1 primary key\/unique constraint\) \| 2\.6x \| Db2 INSERT tips, test 33 vs 31/);
    assert.match(md, /\| Clustering index \| ORDERS_CUST \| 2\.0x \| Db2 INSERT tips, test 38 vs 31/);
    assert.match(md, /\| Enforced foreign keys \| 1 \(parent APP\.CUSTOMERS\) \| 1\.8x \| Db2 INSERT tips, test 14 vs 11/);
    assert.match(md, /\| LOB columns \| 1 \(NOTE CLOB\) \| 9\.1x \| Db2 INSERT tips, test 91 vs 11/);
    assert.match(md, /\| Identity cache \| ID: NO CACHE \| 28x \| Db2 INSERT tips, test 42 vs 41/);
    assert.match(md, /ddl\/orders\.sql:4/);

    lsp.open(ordersUri, ordersText);
    const ddlLine = ordersText.split('\n')[11];
    const onDdl = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: ordersUri },
      position: { line: 11, character: ddlLine.indexOf('ORDERS (') + 1 },
    });
    assert.match(onDdl!.contents.value, /Table APP\.ORDERS/);
    // Not on a name: no hover.
    const none = await lsp.request<unknown>('textDocument/hover', { textDocument: { uri: loadUri }, position: { line: 0, character: 1 } });
    assert.equal(none, null);
  });

  it('puts an "Explain this INSERT" lens above each INSERT (once per run into one table) and finds the statement for the command', async () => {
    const text = `${loadText}COMMIT;\n\nINSERT INTO APP.CUSTOMERS VALUES (1, 'x');\nINSERT INTO APP.CUSTOMERS VALUES (2, 'y');\n`;
    lsp.open(loadUri, text);
    const lenses = await lsp.request<{ range: { start: { line: number } }; command: { title: string; command: string; arguments: unknown[] } }[]>(
      'textDocument/codeLens',
      { textDocument: { uri: loadUri } },
    );
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command.title, l.command.command]),
      [
        [0, 'Explain this INSERT', 'insertlint.explainInsert'],
        [3, 'Explain this INSERT', 'insertlint.explainInsert'],
      ],
    );
    const stmt = await lsp.request<{ sql: string; kind: string }>('insertlint/statementAt', {
      uri: loadUri,
      range: { start: { line: 3, character: 5 }, end: { line: 3, character: 5 } },
    });
    assert.equal(stmt.kind, 'insert');
    assert.match(stmt.sql, /^INSERT INTO APP\.CUSTOMERS VALUES \(1, 'x'\)/);
    const doc = await lsp.request<{ markdown: string; url: string }>('insertlint/ruleDoc', { id: 'identity-cache' });
    assert.match(doc.markdown, /identity|IDENTITY/);
    assert.match(doc.url, /identity-cache\.md$/);
    assert.equal(await lsp.request('insertlint/ruleDoc', { id: 'no-such-rule' }), null);
  });

  it('lints SQL inside Java: findings, a // disable comment, hover and lens inside the string', async () => {
    const javaPath = join(dir, 'app', 'OrderLoader.java');
    const javaUri = uriOf(javaPath);
    const javaText = readFileSync(join(REPO_ROOT, 'test', 'lsp', 'fixtures', 'code', 'OrderLoader.java'), 'utf8');
    await lsp.waitIdle();
    lsp.open(javaUri, javaText, 'java');
    // single-row-insert rides along with prefer-parameter-markers on that line (one cause, one finding: issue 13).
    await lsp.waitFor('Java findings', () => byRule(lsp.diagnostics.get(javaUri), 'prefer-parameter-markers').length === 1);
    const [d] = byRule(lsp.diagnostics.get(javaUri), 'prefer-parameter-markers');
    assert.equal(d.range.start.line, 7);
    const actions = await lsp.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: javaUri }, range: d.range, context: { diagnostics: [d] } });
    // The comment names both rules of the merged finding, so that the finding goes whole (issue 14).
    const disable = actions.find((a) => a.title === 'Disable prefer-parameter-markers and single-row-insert for this line');
    assert.ok(disable, actions.map((a) => a.title).join(' | '));
    assert.equal(disable.edit!.changes[javaUri][0].newText, '            // insertlint-disable-next-line prefer-parameter-markers, single-row-insert\n');
    const line = javaText.split('\n')[7];
    const hover = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: javaUri },
      position: { line: 7, character: line.indexOf('ORDERS') + 1 },
    });
    assert.match(hover!.contents.value, /Table APP\.ORDERS/);
    const lenses = await lsp.request<{ range: { start: { line: number } } }[]>('textDocument/codeLens', { textDocument: { uri: javaUri } });
    assert.deepEqual(lenses.map((l) => l.range.start.line), [7]);
    const stmt = await lsp.request<{ sql: string }>('insertlint/statementAt', { uri: javaUri, range: { start: { line: 7, character: line.indexOf('VALUES') }, end: { line: 7, character: line.indexOf('VALUES') } } });
    assert.match(stmt.sql, /^INSERT INTO APP\.ORDERS \(CUSTOMER_ID\) VALUES \(/);
    // The DDL file's findings now count the loop in Java as a bulk insert.
    await lsp.waitFor('orders.sql re-published with the Java loop', () =>
      (lsp.diagnostics.get(ordersUri) ?? []).some((x) => x.code === 'clustered-index-bulk-target' && /inserted inside a loop/.test(x.message)),
    );
  });

  it('renders a db2exfmt file as the plan page with the nonce CSP, and refuses damaged input clearly', async () => {
    const text = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'exfmt', 'insert-fk-trigger-mqt.exfmt.txt'), 'utf8');
    const nonce = 'bm9uY2Utb2YtdGhlLXRlc3Qtc3VpdGU=';
    const plan = await lsp.request<{ html?: string; title?: string; error?: string }>('insertlint/renderPlan', { text, name: 'nightly.exfmt', nonce });
    assert.equal(plan.title, 'Plan: nightly.exfmt', plan.error);
    assert.match(plan.html!, new RegExp(`Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'`));
    assert.match(plan.html!, /<svg/);
    assert.doesNotMatch(plan.html!, /https?:\/\/(?!www\.w3\.org)/); // no remote resources
    const noNonce = await lsp.request<{ error?: string }>('insertlint/renderPlan', { text, name: 'x', nonce: '' });
    assert.match(noNonce.error!, /nonce/);
    const junk = await lsp.request<{ html?: string; error?: string }>('insertlint/renderPlan', { text: '\u0000\u0001 not a plan', name: 'junk.exfmt', nonce });
    assert.ok(junk.error || /error/.test(junk.html ?? ''), JSON.stringify(junk).slice(0, 200));
  });

  it('answers live Explain with a clear message when the Db2 driver is missing, and not at all when untrusted', async () => {
    const nonce = 'bm9uY2Utb2YtdGhlLXRlc3Qtc3VpdGU=';
    const params = {
      sql: 'INSERT INTO APP.ORDERS (CUSTOMER_ID) VALUES (1)',
      nonce,
      connection: { host: '127.0.0.1', port: 1, database: 'NONE', user: 'u' },
      password: sealSecret(lsp.initializeResult.capabilities.experimental!.insertlint!.secretKey, 'secret-pw'),
      ibmDbPath: join(dir, 'no-such-ibm_db'),
    };
    const live = await lsp.request<{ error?: string }>('insertlint/explain', params);
    assert.match(live.error!, /ibm_db/);
    assert.doesNotMatch(live.error!, /secret-pw/);
    const plain = await lsp.request<{ error?: string }>('insertlint/explain', { ...params, connection: { ...params.connection, password: 'secret-pw' } });
    assert.match(plain.error!, /refuses a plain-text password/);
    await lsp.stop();
    lsp = await LspSession.start(dir, {}, { trusted: false });
    const refused = await lsp.request<{ error?: string }>('insertlint/explain', params);
    assert.match(refused.error!, /not trusted/);
  });

  it('"Lint workspace" re-indexes and drops files that vanished without a watcher event', async () => {
    await lsp.waitIdle();
    await lsp.waitFor('orders.sql findings', () => (lsp.diagnostics.get(ordersUri) ?? []).length > 0);
    rmSync(join(dir, 'ddl', 'orders.sql'));
    const result = await lsp.request<{ files: number; findings: number }>('workspace/executeCommand', { command: 'insertlint.server.lintWorkspace', arguments: [] });
    assert.equal(result.files, 1);
    await lsp.waitFor('orders.sql cleared', () => (lsp.diagnostics.get(ordersUri) ?? []).length === 0);
  });

  it('follows files created and deleted on disk (watchers)', async () => {
    await lsp.waitIdle();
    const added = join(dir, 'load', 'more.sql');
    writeFileSync(added, 'INSERT INTO APP.ORDERS (CUSTOMER_ID) VALUES (?);\n'.repeat(3));
    lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(added), type: 1 }] });
    await lsp.waitFor('diagnostics of the new file', () => (lsp.diagnostics.get(uriOf(added)) ?? []).length > 0);
    rmSync(added);
    lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(added), type: 3 }] });
    await lsp.waitFor('the deleted file cleared', () => (lsp.diagnostics.get(uriOf(added)) ?? []).length === 0);
  });

  it('survives malformed requests and notifications', async () => {
    lsp.open(loadUri, loadText);
    await lsp.waitIdle();
    await assert.rejects(lsp.request('textDocument/hover', { textDocument: { uri: 42 }, position: 'x' }));
    await assert.rejects(lsp.request('textDocument/hover', { textDocument: { uri: loadUri }, position: null }));
    await assert.rejects(lsp.request('insertlint/ruleDoc', null));
    lsp.connection.sendNotification('textDocument/didChange', { textDocument: { uri: 'file:///nope.sql', version: 2 }, contentChanges: [{ text: 'x' }] });
    lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [null, { uri: 'not a uri', type: 9 }] });
    lsp.open('untitled:Untitled-1', 'INSERT INTO APP.ORDERS (CUSTOMER_ID) VALUES (1), (2);\n\u0000\u0001 garbage ((( \'', 'db2sql');
    await lsp.waitFor('the untitled document analysed', () => lsp.diagnostics.has('untitled:Untitled-1'));
    // Still answering.
    const lenses = await lsp.request<unknown[]>('textDocument/codeLens', { textDocument: { uri: loadUri } });
    assert.equal(lenses.length, 1);
    assert.equal(lsp.exited, false);
  });

  it('in "openFiles" scope shows only open files, while the index still feeds the schema', async () => {
    await lsp.stop();
    lsp = await LspSession.start(dir, { diagnostics: { scope: 'openFiles' }, rules: { 'insert-target-cost': 'information' } });
    await lsp.waitIdle();
    assert.equal(lsp.diagnostics.has(ordersUri), false);
    lsp.open(loadUri, loadText);
    await lsp.waitFor('load.sql findings', () => (lsp.diagnostics.get(loadUri) ?? []).length > 0);
    const hover = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: loadUri },
      position: { line: 0, character: loadText.indexOf('ORDERS') + 1 },
    });
    assert.match(hover!.contents.value, /\| Identity cache \| ID: NO CACHE \|/);
    lsp.open(ordersUri, ordersText);
    await lsp.waitFor('orders.sql findings', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache').length === 1);
    lsp.close(ordersUri);
    await lsp.waitFor('orders.sql cleared on close', () => (lsp.diagnostics.get(ordersUri) ?? []).length === 0);
    // Closed, its DDL still counts for the open INSERT.
    const again = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: loadUri },
      position: { line: 0, character: loadText.indexOf('ORDERS') + 1 },
    });
    assert.match(again!.contents.value, /\| Identity cache \| ID: NO CACHE \|/);
  });

  it('shows the findings of test code ("testFiles") as information, saying why, as the CLI does', async () => {
    await lsp.stop();
    mkdirSync(join(dir, 'test'));
    renameSync(join(dir, 'ddl', 'orders.sql'), join(dir, 'test', 'orders.sql'));
    lsp = await LspSession.start(dir);
    const testUri = uriOf(join(dir, 'test', 'orders.sql'));
    await lsp.waitFor('identity-cache on the test DDL', () => byRule(lsp.diagnostics.get(testUri), 'identity-cache').length === 1);
    const [d] = byRule(lsp.diagnostics.get(testUri), 'identity-cache');
    assert.equal(d.severity, 3);
    assert.match(d.message, /This file is test code \("testFiles" in the configuration\): information only\.$/);
    // A repository of its own below the workspace folder, named test/, is a project, not test code: as the CLI run
    // in the workspace folder decides.
    await lsp.stop();
    mkdirSync(join(dir, 'test', '.git'));
    lsp = await LspSession.start(dir);
    await lsp.waitFor('identity-cache on the test/ repository', () => byRule(lsp.diagnostics.get(testUri), 'identity-cache').length === 1);
    const [own] = byRule(lsp.diagnostics.get(testUri), 'identity-cache');
    assert.equal(own.severity, 2, own.message);
    assert.doesNotMatch(own.message, /test code/);
  });

  it('applies rule severities from the editor settings and from .insertlintrc.json', async () => {
    await lsp.stop();
    writeFileSync(join(dir, '.insertlintrc.json'), JSON.stringify({ rules: { 'lob-column': 'off' } }));
    lsp = await LspSession.start(dir, { rules: { 'identity-cache': 'error' } });
    await lsp.waitFor('identity-cache as an error', () => byRule(lsp.diagnostics.get(ordersUri), 'identity-cache')[0]?.severity === 1);
    assert.equal(byRule(lsp.diagnostics.get(ordersUri), 'lob-column').length, 0);
  });
});

describe('insertlint lsp --stdio', function () {
  this.timeout(20000);
  it('ends when its input ends (an editor that went away leaves no server behind)', async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'out', 'server.js'), '--stdio'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin!.end();
    const timer = setTimeout(() => child.kill(), 10000);
    const code = await exited;
    clearTimeout(timer);
    assert.notEqual(child.signalCode, 'SIGTERM', 'killed: it did not end by itself');
    assert.notEqual(code, null);
  });

  it('starts the same server from the CLI', async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'insertlint.js'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.listen();
    try {
      const result = (await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} })) as {
        serverInfo: { name: string };
        capabilities: { textDocumentSync: { change: number } };
      };
      assert.equal(result.serverInfo.name, 'insertlint');
      assert.equal(result.capabilities.textDocumentSync.change, 2);
      await connection.sendRequest('shutdown');
      connection.sendNotification('exit');
    } finally {
      await new Promise((r) => setTimeout(r, 200));
      child.kill();
      connection.dispose();
    }
  });
});
