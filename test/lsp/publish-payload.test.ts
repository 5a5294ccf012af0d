// Issue 15: an edited document's diagnostics are converted once per finding (LspDiagnosticCache) and written
// as ASCII JSON from each diagnostic's kept text (lsp-json.ts). What the client reads must be what converting
// and JSON.stringify gave before, after any edit.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { LspDiagnosticCache, toLspDiagnostic, type RelatedLocator } from '../../server/src/lsp/lsp-convert';
import { asciiJson, asciiJsonEncoder, messageJson } from '../../server/src/lsp/lsp-json';
import { LineIndex } from '../../server/src/engine/lines';
import type { Diagnostic } from '../../server/src/engine/types';
import { growthRatio } from '../robustness/support';
import { applyEdit, scriptEdits } from '../helpers/script-edit';

const PIECES = [
  'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(20));\n',
  "INSERT INTO S.T (NOTE) VALUES ('a');\n",
  "INSERT INTO S.T (NOTE) VALUES ('b');\n",
  "INSERT INTO S.T (NOTE) VALUES ('c'), ('d');\n",
  'COMMIT;\n',
  '\n',
  '-- insertlint-disable-next-line single-row-insert\n',
  "INSERT INTO S.T NOTE VALUES (;\n",
];
const INSERTS = ['x', ' ', '\n', ';', "'", '(', "INSERT INTO S.T (NOTE) VALUES (1);\n", 'é'];

describe('lsp: the payload of an edited document', () => {
  it('converts through the cache to what toLspDiagnostic gives, reusing the objects of unchanged findings', () => {
    let reused = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 30 }),
        scriptEdits(INSERTS, 4, 6),
        fc.constantFrom<'full' | 'firstSentence'>('full', 'firstSentence'),
        (pieces, edits, messageStyle) => {
          let text = pieces.join('');
          const ws = new Workspace(resolveConfig(allRules(), { extends: 'insertlint:all' }));
          ws.keepPieces = true;
          const locate: RelatedLocator = (file) => ({ uri: `file://${file}`, lines: ws.lines(file)! });
          const cache = new LspDiagnosticCache();
          ws.setFile('/w/a.sql', text);
          let before = cache.convert(ws.diagnostics('/w/a.sql'), ws.lines('/w/a.sql')!, locate, { messageStyle });
          for (const e of edits) {
            const edited = applyEdit(text, e);
            text = edited.text;
            ws.setFile('/w/a.sql', text, 'sql', edited.change);
            const ds = ws.diagnostics('/w/a.sql');
            const lines = ws.lines('/w/a.sql')!;
            const got = cache.convert(ds, lines, locate, { messageStyle });
            assert.deepEqual(got, ds.map((d) => toLspDiagnostic(d, lines, locate, { messageStyle })), `after ${JSON.stringify(e)}: ${JSON.stringify(text)}`);
            reused += got.filter((d) => before.includes(d)).length;
            before = got;
          }
        },
      ),
      { numRuns: 200 },
    );
    assert.ok(reused > 200, `only ${reused} diagnostics reused`);
  });

  it('finds a kept diagnostic in time linear in findings that share one message (a code file repeats one by thousands)', () => {
    const size = (n: number) => String(n);
    const convert = (input: string) => {
      const n = Number(input);
      const text = 'x\n'.repeat(n);
      const lines = new LineIndex(text);
      const ds: Diagnostic[] = Array.from({ length: n }, (_, i) => ({ file: '/w/a.java', span: { start: 2 * i, end: 2 * i + 1 }, rule: 'single-row-insert', severity: 'warning', message: 'One INSERT INTO T call per row in the for loop.' }));
      const cache = new LspDiagnosticCache();
      const first = cache.convert(ds, lines, undefined);
      const second = cache.convert(ds, lines, undefined);
      assert.ok(second.every((d, i) => d === first[i]), 'the second conversion hands out the same objects');
    };
    const { ratio, smallMs, largeMs } = growthRatio(size, convert, 1_000);
    assert.ok(ratio < 24, `8x the findings took ${ratio.toFixed(1)}x the time (${smallMs.toFixed(1)} ms -> ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('converts again a run whose last statement grew on its line (the "last of the run" range)', () => {
    // (Parameter markers: literal rows this few would be reference data, which the run rules leave alone.)
    const run = Array.from({ length: 4 }, () => 'INSERT INTO S.T (NOTE) VALUES (?);\n').join('');
    let text = `${run}INSERT INTO S.T (NOTE) VALUES (?), (?);\n${run}`;
    const ws = new Workspace(resolveConfig(allRules()));
    ws.keepPieces = true;
    const locate: RelatedLocator = (file) => ({ uri: `file://${file}`, lines: ws.lines(file)! });
    const cache = new LspDiagnosticCache();
    ws.setFile('/w/a.sql', text);
    cache.convert(ws.diagnostics('/w/a.sql'), ws.lines('/w/a.sql')!, locate);
    const at = text.lastIndexOf('VALUES (') + 'VALUES ('.length;
    text = `${text.slice(0, at)}  ${text.slice(at)}`;
    ws.setFile('/w/a.sql', text, 'sql', { start: at, oldEnd: at, newEnd: at + 2 });
    const ds = ws.diagnostics('/w/a.sql');
    const lines = ws.lines('/w/a.sql')!;
    const got = cache.convert(ds, lines, locate);
    assert.ok(got.some((d) => d.relatedInformation?.some((r) => r.message === 'last of the run' && r.location.range.end.character === 35)));
    assert.deepEqual(got, ds.map((d) => toLspDiagnostic(d, lines, locate)));
  });

  it('writes publishDiagnostics in ASCII, read back to the values JSON.stringify wrote', async () => {
    const diagnostics = [
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } }, message: 'lines 2\u201320 \u2026 \u00e9 \ud83d\ude00', code: 'x' },
      { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 1 } }, message: 'plain', relatedInformation: undefined },
    ];
    const msg = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///d\u00e9j\u00e0.sql', version: 7, diagnostics } };
    const json = messageJson(msg as never);
    assert.ok(/^[\x00-\x7f]*$/.test(json), json);
    assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(msg)));
    assert.equal(Buffer.from(await asciiJsonEncoder.encode(msg as never)).toString('utf-8'), json);
    // Sent again: each diagnostic's text is the one made the first time (the objects are not changed once sent).
    assert.equal(messageJson(msg as never), json);
    const other = { jsonrpc: '2.0', id: 3, result: { contents: 'caf\u00e9', none: undefined } };
    assert.equal(messageJson(other as never), asciiJson(other));
    assert.deepEqual(JSON.parse(messageJson(other as never)), JSON.parse(JSON.stringify(other)));
    const empty = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///x', diagnostics: [] } };
    assert.equal(messageJson(empty as never), JSON.stringify(empty));
  });
});
