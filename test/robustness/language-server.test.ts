// Probes of the language server's wire (issue 17, item 5): malformed headers and wrong lengths must not
// leave it deaf, and a burst of edits must not queue one analysis per keystroke.
import { strict as assert } from 'node:assert';
import { ServerWire, frame } from './lsp-wire';

const URI = 'untitled:burst.sql';

async function answers(wire: ServerWire, id: number): Promise<void> {
  // A request sent as raw bytes, so that it is framed exactly as the probe wants.
  const before = wire.stdout.length;
  await wire.raw(frame({ jsonrpc: '2.0', id, method: 'insertlint/ruleDoc', params: { id: 'identity-cache' } }));
  await wire.waitFor(`an answer to request ${id}`, () => Buffer.concat(wire.stdout.slice(before)).toString().includes(`"id":${id}`), 5000);
}

describe('robustness: the language server keeps listening (issue 17)', function () {
  this.timeout(60_000);
  let wire: ServerWire;
  afterEach(async () => wire?.stop());

  const garbage: [string, string][] = [
    ['a header line without a colon', 'Content-Length 12\r\n\r\n{"x":1}'],
    ['a header without Content-Length', 'Content-Type: application/vscode-jsonrpc\r\n\r\n{}'],
    ['a Content-Length that is not a number', 'Content-Length: twelve\r\n\r\n{"jsonrpc":"2.0"}'],
    ['binary noise', '\u0000\u0001\u00ff\u00fe garbage \r\n\r\n'],
    ['an endless header line', 'X'.repeat(20_000)],
    ['a negative length', 'Content-Length: -5\r\n\r\n'],
  ];
  for (const [name, bytes] of garbage) {
    it(`answers the next request after ${name}`, async () => {
      wire = await ServerWire.start();
      await answers(wire, 1);
      await wire.raw(bytes);
      await answers(wire, 2);
      // The answer is seen in the raw output before the log notification ahead of it is dispatched: wait for it.
      await wire.waitFor('the malformed-header log line', () => wire.logs.some((l) => /malformed message header/.test(l)), 5000);
      assert.equal(wire.exited, false);
    });
  }

  it('reads on after a message whose Content-Length is larger than its body', async () => {
    wire = await ServerWire.start();
    await answers(wire, 1);
    await wire.raw('Content-Length: 100000\r\n\r\n{"jsonrpc":"2.0","method":"x"}');
    await answers(wire, 2);
    await wire.waitFor('the short-body log line', () => wire.logs.some((l) => /shorter than its Content-Length/.test(l)), 5000);
  });

  it('reads on after a message whose Content-Length is smaller than its body', async () => {
    wire = await ServerWire.start();
    await wire.raw('Content-Length: 10\r\n\r\n{"jsonrpc":"2.0","method":"x","params":{"a":"Content-Length: 3"}}');
    await answers(wire, 2);
  });

  it('passes a message cut into one-byte writes, and one holding "Content-Length:" in a string, unharmed', async () => {
    wire = await ServerWire.start();
    const message = frame({ jsonrpc: '2.0', id: 7, method: 'insertlint/ruleDoc', params: { id: 'Content-Length: 12\\r\\n' } });
    for (const byte of Buffer.from(message)) await wire.raw(Buffer.from([byte]));
    await wire.waitFor('the answer', () => Buffer.concat(wire.stdout).toString().includes('"id":7'));
    assert.ok(!wire.logs.some((l) => /malformed|dropped/.test(l)), wire.logs.join('\n'));
  });

  it('with debounce 0, a burst of 2,000 edits is analysed a few times, not 2,000, and the last version promptly', async () => {
    wire = await ServerWire.start({ settings: { debounceMs: 0 } });
    // A document big enough that analysing it takes milliseconds each time (50 KB).
    const statements = Array.from({ length: 1000 }, (_, i) => `INSERT INTO APP.T${i % 7} (A, B) VALUES (${i}, 'x');`).join('\n');
    const text = `CREATE SEQUENCE APP.S NO CACHE;\n${statements}\n-- tail\n`;
    wire.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'db2sql', version: 1, text } });
    await wire.waitFor('the open analysed', () => wire.published.some((p) => p.uri === URI && p.version === 1));
    const edits = 2000;
    const sent = Date.now();
    for (let v = 2; v <= edits + 1; v++) {
      wire.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: URI, version: v },
        // The whole text each time, as clients without incremental sync send it: reading each message takes
        // about a millisecond, long enough for a zero-delay timer to fire between two of them.
        contentChanges: [{ text: `${text}-- ${v}\n` }],
      });
    }
    const last = edits + 1;
    await wire.waitFor('the last version analysed', () => wire.published.some((p) => p.uri === URI && p.version === last), 30_000);
    const analysed = wire.published.filter((p) => p.uri === URI && p.version !== undefined && p.version > 1).length;
    const lag = wire.published.find((p) => p.version === last)!.at - sent;
    // Before coalescing: 220–380 analyses here (one per edit whenever reading an edit outlasted the timer). With
    // it: 15–28 alone, and 83 once late in a full suite on a fresh clone of a loaded machine (2026-11-26).
    assert.ok(analysed <= 150, `${analysed} analyses for ${edits} edits (last version published after ${lag} ms)`);
  });
});
