// A rule that throws must not take the server down: it is skipped for that file with one logged error,
// and the other rules' findings still arrive. The server runs in this process (so that the test can give
// it a rule that crashes) but is spoken to over a real JSON-RPC connection, like the stdio tests.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { createConnection } from 'vscode-languageserver/node';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { InsertLintServer } from '../../server/src/lsp/language-server';
import { RULES } from '../../server/src/engine/registry';
import type { RegisteredRule } from '../../server/src/engine/types';

const crashing: RegisteredRule = {
  doc: '',
  rule: {
    meta: { id: 'crashing-rule', description: 'throws on files that say BOOM', defaultSeverity: 'warning', evidence: [], messages: { m: 'never' } },
    check({ file }) {
      if (file.source.text.includes('BOOM')) throw new Error('rule bug for the test');
    },
  },
};

describe('language server: a crashing rule', function () {
  this.timeout(20000);

  it('is skipped for that file with one logged error while the other rules still report', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const serverConnection = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    new InsertLintServer(serverConnection, { rules: [...RULES, crashing] }).listen();
    const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    const logs: string[] = [];
    const published: { uri: string; diagnostics: { code: string }[] }[] = [];
    client.onNotification('window/logMessage', (p: { message: string }) => {
      logs.push(p.message);
    });
    client.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: { code: string }[] }) => {
      published.push(p);
    });
    client.listen();
    try {
      await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
      client.sendNotification('initialized', {});
      const uri = 'untitled:boom.sql';
      const text = '-- BOOM\nCREATE TABLE T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\nINSERT INTO T (X) SELECT X FROM S;\n';
      client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'sql', version: 1, text } });
      for (let version = 2; version <= 3; version++) {
        client.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: text + ' '.repeat(version) }] });
      }
      const until = Date.now() + 10000;
      while (!published.some((p) => p.uri === uri && p.diagnostics.length > 0) || logs.filter((l) => /crashing-rule/.test(l)).length === 0) {
        if (Date.now() > until) throw new Error(`no findings or no log line; logs:\n${logs.join('\n')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 400)); // let the debounced edits run too
      const last = published.filter((p) => p.uri === uri).pop()!;
      assert.ok(last.diagnostics.some((d) => d.code === 'identity-cache'), JSON.stringify(last.diagnostics.map((d) => d.code)));
      const failures = logs.filter((l) => /rule crashing-rule failed on untitled:boom\.sql and is skipped for that file: Error: rule bug for the test/.test(l));
      assert.equal(failures.length, 1, logs.join('\n'));
      // Still answering requests.
      const lenses = (await client.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as unknown[];
      assert.equal(lenses.length, 1);
    } finally {
      client.dispose();
      serverConnection.dispose();
      toServer.destroy();
      toClient.destroy();
    }
  });
});
