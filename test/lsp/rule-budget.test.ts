// A rule that is slow on one document must not hold the language server: its rules are stopped at the time
// budget per file (3 s in the editor), the document gets no findings and the log says why, naming the file, the
// budget and the rule, once; other documents keep their findings and requests are answered. The server runs in
// this process (so that the test can give it a slow rule) over a real JSON-RPC connection, as rule-failure.test.ts.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { createConnection } from 'vscode-languageserver/node';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
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

describe('language server: a rule past the time budget', function () {
  this.timeout(30_000);

  it('is stopped: the document gets no findings, the log says why once, other documents keep theirs', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const serverConnection = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    new InsertLintServer(serverConnection, { rules: [...RULES, slow] }).listen();
    const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    const logs: string[] = [];
    const published: { uri: string; diagnostics: { code: string }[] }[] = [];
    client.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
    client.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: { code: string }[] }) => void published.push(p));
    client.listen();
    const waitFor = async (what: string, done: () => boolean) => {
      const until = Date.now() + 15_000;
      while (!done()) {
        if (Date.now() > until) throw new Error(`${what}; logs:\n${logs.join('\n')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
      client.sendNotification('initialized', {});
      const text = 'CREATE TABLE T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\nINSERT INTO T (X) SELECT X FROM S;\n';
      const slowUri = 'untitled:slow.sql';
      const fastUri = 'untitled:fast.sql';
      const started = Date.now();
      client.sendNotification('textDocument/didOpen', { textDocument: { uri: slowUri, languageId: 'sql', version: 1, text: `-- SLOW\n${text}` } });
      const stopped = /^untitled:slow\.sql: rules stopped after 3 s in rule slow-rule \(the time budget per file; raise it with --file-time-budget\); no findings are shown for it$/;
      await waitFor('no log line for the stopped rules', () => logs.some((l) => stopped.test(l)) && published.some((p) => p.uri === slowUri));
      assert.ok(Date.now() - started < 12_000, 'stopped at the budget, not after the rule\'s 20 s');
      assert.deepEqual(published.filter((p) => p.uri === slowUri).pop()!.diagnostics, []);
      client.sendNotification('textDocument/didOpen', { textDocument: { uri: fastUri, languageId: 'sql', version: 1, text } });
      await waitFor('no findings for the other document', () => published.some((p) => p.uri === fastUri && p.diagnostics.some((d) => d.code === 'identity-cache')));
      // Still answering requests.
      const lenses = (await client.sendRequest('textDocument/codeLens', { textDocument: { uri: fastUri } })) as unknown[];
      assert.equal(lenses.length, 1);
      assert.equal(logs.filter((l) => stopped.test(l)).length, 1, logs.join('\n'));
    } finally {
      client.dispose();
      serverConnection.dispose();
      toServer.destroy();
      toClient.destroy();
    }
  });
});
