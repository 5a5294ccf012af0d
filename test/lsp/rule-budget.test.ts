// A rule that is slow on one document must not hold the language server: its rules are stopped at the time
// budget per file (3 s in the editor), the document gets no findings but one on its first line that says why (as
// one whose reading ran past the budget), the log says it too, naming the file, the budget and the rule, once;
// other documents keep their findings and requests are answered. Both say to raise insertlint.fileTimeBudget (the
// editor's setting, not the CLI's flag), which sets the budget, through workspace/configuration or
// initializationOptions; raised, a file stopped under the old budget is run or read again. The server runs in
// this process (so that the test can give it a slow rule) over a real JSON-RPC connection, as rule-failure.test.ts.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { createConnection } from 'vscode-languageserver/node';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { InsertLintServer } from '../../server/src/lsp/language-server';
import { RULES } from '../../server/src/engine/registry';
import { statementsOf } from '../../server/src/engine/statements';
import type { RegisteredRule } from '../../server/src/engine/types';

/** Loops for 20 s through statementsOf on documents that say SLOW (the engine stops it at the budget). */
const slow: RegisteredRule = {
  doc: '',
  rule: {
    meta: { id: 'slow-rule', description: 'slow on files that say SLOW', defaultSeverity: 'warning', evidence: [], messages: { m: 'never' } },
    check({ file }) {
      if (!file.source.text.includes('SLOW')) return;
      const started = Date.now();
      while (Date.now() - started < 20_000) statementsOf(file, 'insert');
    },
  },
};

interface Published {
  uri: string;
  diagnostics: { code: string; severity: number; source: string; message: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }[];
}

/** Loops for 1.5 s through statementsOf on documents that say SLOWISH: stopped under a 1 s budget, not under 10 s. */
const slowish: RegisteredRule = {
  doc: '',
  rule: {
    meta: { id: 'slowish-rule', description: 'slowish on files that say SLOWISH', defaultSeverity: 'warning', evidence: [], messages: { m: 'never' } },
    check({ file }) {
      if (!file.source.text.includes('SLOWISH')) return;
      const started = Date.now();
      while (Date.now() - started < 1500) statementsOf(file, 'insert');
    },
  },
};

/**
 * How the client starts: `settings`, the editor settings it answers workspace/configuration with (undefined: it does
 * not answer it, as a client without the capability); `initializationOptions`, what initialize carries.
 */
interface ClientSetup {
  settings?: Record<string, unknown>;
  initializationOptions?: unknown;
}

/** New editor settings, announced as VS Code does (the server pulls them again). */
type Configure = (settings: Record<string, unknown>) => void;

/** The server in this process, over a JSON-RPC connection: `run` gets the client, what it was sent, and a wait. */
async function withServer(
  options: ConstructorParameters<typeof InsertLintServer>[1],
  run: (client: MessageConnection, logs: string[], published: Published[], waitFor: (what: string, done: () => boolean) => Promise<void>, configure: Configure) => Promise<void>,
  setup: ClientSetup = {},
): Promise<void> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const serverConnection = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  new InsertLintServer(serverConnection, options).listen();
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const logs: string[] = [];
  const published: Published[] = [];
  client.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
  client.onNotification('textDocument/publishDiagnostics', (p: Published) => void published.push(p));
  let settings = setup.settings;
  client.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map((item) => (item.section === 'insertlint' ? settings : null)));
  client.onRequest('client/registerCapability', () => null);
  const configure: Configure = (next) => {
    settings = next;
    client.sendNotification('workspace/didChangeConfiguration', { settings: null });
  };
  client.listen();
  const waitFor = async (what: string, done: () => boolean) => {
    const until = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > until) throw new Error(`${what}; logs:\n${logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    const capabilities = setup.settings !== undefined ? { workspace: { configuration: true } } : {};
    await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities, initializationOptions: setup.initializationOptions });
    client.sendNotification('initialized', {});
    await run(client, logs, published, waitFor, configure);
  } finally {
    client.dispose();
    serverConnection.dispose();
    toServer.destroy();
    toClient.destroy();
  }
}

const last = (published: Published[], uri: string) => published.filter((p) => p.uri === uri).pop();

describe('language server: a rule past the time budget', function () {
  this.timeout(30_000);

  it('is stopped: the document shows why it has no findings, the log says why once, other documents keep theirs', async () => {
    await withServer({ rules: [...RULES, slow] }, async (client, logs, published, waitFor) => {
      const text = 'CREATE TABLE T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\nINSERT INTO T (X) SELECT X FROM S;\n';
      const slowUri = 'untitled:slow.sql';
      const fastUri = 'untitled:fast.sql';
      const started = Date.now();
      client.sendNotification('textDocument/didOpen', { textDocument: { uri: slowUri, languageId: 'sql', version: 1, text: `-- SLOW\n${text}` } });
      const why = 'rules stopped after 3 s in rule slow-rule (the time budget per file; raise insertlint.fileTimeBudget)';
      const stopped = /^untitled:slow\.sql: rules stopped after 3 s in rule slow-rule \(the time budget per file; raise insertlint\.fileTimeBudget\); no findings are shown for it$/;
      await waitFor('no log line for the stopped rules', () => logs.some((l) => stopped.test(l)) && published.some((p) => p.uri === slowUri));
      assert.ok(Date.now() - started < 12_000, 'stopped at the budget, not after the rule\'s 20 s');
      // One diagnostic on the first line says why (the CLI's warning), not an empty Problems list.
      assert.deepEqual(last(published, slowUri)!.diagnostics, [
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 7 } }, severity: 2, code: 'time-budget', source: 'insertlint', message: `${why}; no findings are shown for this file` },
      ]);
      client.sendNotification('textDocument/didOpen', { textDocument: { uri: fastUri, languageId: 'sql', version: 1, text } });
      await waitFor('no findings for the other document', () => published.some((p) => p.uri === fastUri && p.diagnostics.some((d) => d.code === 'identity-cache')));
      assert.ok(!last(published, fastUri)!.diagnostics.some((d) => d.code === 'time-budget'));
      // Still answering requests.
      const lenses = (await client.sendRequest('textDocument/codeLens', { textDocument: { uri: fastUri } })) as unknown[];
      assert.equal(lenses.length, 1);
      assert.equal(logs.filter((l) => stopped.test(l)).length, 1, logs.join('\n'));
      // The rule no longer slow on it (SLOW edited away): its findings, and no word of the budget.
      client.sendNotification('textDocument/didChange', { textDocument: { uri: slowUri, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 7 } }, text: 'FAST' }] });
      await waitFor('the findings of the edited document', () => last(published, slowUri)!.diagnostics.some((d) => d.code === 'identity-cache'));
      assert.ok(!last(published, slowUri)!.diagnostics.some((d) => d.code === 'time-budget'));
    });
  });

  it('a document whose reading runs past the budget shows why it has no findings, as one whose rules do', async () => {
    await withServer({ fileBudgetMs: 10 }, async (client, logs, published, waitFor) => {
      const uri = 'untitled:big.sql';
      const text = '-- a big load\n' + Array.from({ length: 30_000 }, (_, i) => `INSERT INTO APP.T (A, B) VALUES (${i}, 'row ${i}');`).join('\n') + '\n';
      client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'sql', version: 1, text } });
      await waitFor('no diagnostics for the big document', () => published.some((p) => p.uri === uri));
      const why = 'analysis stopped after 10 ms (the time budget per file; raise insertlint.fileTimeBudget)';
      assert.deepEqual(last(published, uri)!.diagnostics, [
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 13 } }, severity: 2, code: 'time-budget', source: 'insertlint', message: `${why}; no findings are shown for this file` },
      ]);
      assert.ok(logs.includes(`untitled:big.sql: ${why}; no findings are shown for it`), logs.join('\n'));
    });
  });
  it('insertlint.fileTimeBudget sets the budget; raised, the rules stopped under the old one run again', async () => {
    await withServer({ rules: [...RULES, slowish] }, async (client, logs, published, waitFor, configure) => {
      const uri = 'untitled:slowish.sql';
      const text = '-- SLOWISH\nCREATE TABLE T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\nINSERT INTO T (X) SELECT X FROM S;\n';
      client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'sql', version: 1, text } });
      await waitFor('the time-budget warning', () => last(published, uri)?.diagnostics.some((d) => d.code === 'time-budget') === true);
      assert.deepEqual(last(published, uri)!.diagnostics.map((d) => d.message), [
        'rules stopped after 1 s in rule slowish-rule (the time budget per file; raise insertlint.fileTimeBudget); no findings are shown for this file',
      ]);
      // Raised: run again at once (no edit), within the new budget: its findings, and no word of the budget.
      configure({ fileTimeBudget: 10 });
      await waitFor('the findings under the raised budget', () => last(published, uri)!.diagnostics.some((d) => d.code === 'identity-cache'));
      assert.ok(!last(published, uri)!.diagnostics.some((d) => d.code === 'time-budget'));
      // Out of bounds: the nearest bound, said in the log.
      configure({ fileTimeBudget: 600 });
      await waitFor('the log line about the bound', () => logs.includes('insertlint.fileTimeBudget must be from 0.5 to 60 seconds; using 60'));
    }, { settings: { fileTimeBudget: 1 } });
  });

  it('insertlint.fileTimeBudget raised: a document whose reading ran past the old budget is read again', async () => {
    await withServer({ fileBudgetMs: 10 }, async (client, logs, published, waitFor, configure) => {
      const uri = 'untitled:big.sql';
      const rows = Array.from({ length: 30_000 }, (_, i) => `INSERT INTO APP.T (A, B) VALUES (${i}, 'row ${i}');`).join('\n');
      const text = 'CREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT, B VARCHAR(20));\n' + rows + '\n';
      client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'sql', version: 1, text } });
      await waitFor('the time-budget warning', () => last(published, uri)?.diagnostics.some((d) => d.code === 'time-budget') === true);
      configure({ fileTimeBudget: 60 });
      await waitFor('the findings of the document read again', () => last(published, uri)!.diagnostics.some((d) => d.code === 'identity-cache'));
      assert.ok(!last(published, uri)!.diagnostics.some((d) => d.code === 'time-budget'));
    }, { settings: {} });
  });

  it('insertlint.fileTimeBudget from initializationOptions, for a client that does not answer workspace/configuration', async () => {
    await withServer({ rules: [...RULES, slow] }, async (client, logs, published, waitFor) => {
      const uri = 'untitled:slow.sql';
      client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'sql', version: 1, text: '-- SLOW\nINSERT INTO T (X) VALUES (1);\n' } });
      await waitFor('the time-budget warning', () => published.some((p) => p.uri === uri));
      assert.deepEqual(last(published, uri)!.diagnostics.map((d) => d.message), [
        'rules stopped after 1 s in rule slow-rule (the time budget per file; raise insertlint.fileTimeBudget); no findings are shown for this file',
      ]);
    }, { initializationOptions: { settings: { fileTimeBudget: 1 } } });
  });
});
