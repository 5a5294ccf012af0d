// Lone CR line ends (classic Mac OS) in an open document: the engine reads them as LF, as it reads files from disk,
// so a `-td@` script a client sends with lone CRs has the findings of the same script with LF (its routine's loop
// was lost: the terminator scan saw one line). lsp/line-feeds.ts: the text handed to the engine, and the change
// the engine is told, which must cover what changed in that text (a CR before the edit may have lost its LF).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { join } from 'node:path';
import { DocumentLineFeeds } from '../../server/src/lsp/line-feeds';
import { withLineFeeds } from '../../server/src/engine/lines';
import { fitsLengths, type TextChange } from '../../server/src/sql/incremental';
import { tempWorkspace, uriOf, type LspDiagnostic } from './harness';
import { TD_AT_ROUTINE_SCRIPT } from '../helpers/scripts';

const SCRIPT = TD_AT_ROUTINE_SCRIPT;

/** Rule and range of each finding, sorted: what must be the same whatever the line ends. */
const where = (ds: LspDiagnostic[] | undefined) => (ds ?? []).map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`).sort();

describe('language server: lone CR line ends in open documents', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-cr-');

  it('finds in a lone-CR document what it finds in the LF one, at the same places, and after edits that make lone CRs', async () => {
    const s = await ws.start({ debounceMs: 0 });
    await s.waitIdle();
    const lf = uriOf(join(ws.dir, 'lf.db2'));
    const cr = uriOf(join(ws.dir, 'cr.db2'));
    const crlf = uriOf(join(ws.dir, 'crlf.db2'));
    s.open(lf, SCRIPT, 'db2sql');
    s.open(cr, SCRIPT.replace(/\n/g, '\r'), 'db2sql');
    const crlfText = SCRIPT.replace(/\n/g, '\r\n');
    s.open(crlf, crlfText, 'db2sql');
    const analysed = (uri: string, version: number) => s.waitFor(`${uri} version ${version}`, () => (s.publishedVersions.get(uri) ?? []).includes(version));
    await analysed(lf, 1);
    await analysed(cr, 1);
    await analysed(crlf, 1);
    const expected = where(s.diagnostics.get(lf));
    assert.ok(expected.some((w) => w.startsWith('single-row-insert 6:')), expected.join(', '));
    assert.deepEqual(where(s.diagnostics.get(cr)), expected);
    assert.deepEqual(where(s.diagnostics.get(crlf)), expected);
    // Edits that make lone CRs of CRLFs, last line first (a position cannot fall between CR and LF), and CRLFs of
    // lone CRs (the LF typed after a CR that ended a line): each read incrementally.
    const lines = SCRIPT.split('\n');
    for (let line = lines.length - 2; line >= 0; line--) {
      s.change(crlf, { start: { line, character: lines[line].length }, end: { line: line + 1, character: 0 } }, '\r');
      s.change(cr, { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } }, '\n');
    }
    await analysed(crlf, lines.length);
    await analysed(cr, lines.length);
    assert.deepEqual(where(s.diagnostics.get(crlf)), expected);
    assert.deepEqual(where(s.diagnostics.get(cr)), expected);
  });
});

describe('lsp: the text of an open document as the engine reads it', () => {
  /** The change describes going from `before` to `after`: same text before `start` and after the ends. */
  function assertCovers(change: TextChange, before: string, after: string): void {
    assert.ok(fitsLengths(change, before.length, after.length), `${JSON.stringify(change)} for ${before.length} → ${after.length}`);
    assert.equal(after.slice(0, change.start), before.slice(0, change.start), 'prefix');
    assert.equal(after.slice(change.newEnd), before.slice(change.oldEnd), 'suffix');
  }

  const text = fc.array(fc.constantFrom('a', ';', '\r', '\n', '\r\n'), { maxLength: 12 }).map((parts) => parts.join(''));
  const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: text });

  it('is the text with lone CRs as LF, and the change covers what changed in it', () => {
    fc.assert(
      fc.property(text, fc.array(edit, { maxLength: 10 }), (first, edits) => {
        const feeds = new DocumentLineFeeds();
        let raw = first;
        let held = feeds.read('u', raw).text;
        assert.equal(held, withLineFeeds(raw));
        for (const e of edits) {
          const start = e.at % (raw.length + 1);
          const oldEnd = Math.min(raw.length, start + e.remove);
          const next = raw.slice(0, start) + e.insert + raw.slice(oldEnd);
          // The editor's change is in its own text: the one behind what the engine holds.
          assert.equal(feeds.rawOf('u', held), raw);
          const read = feeds.read('u', next, { start, oldEnd, newEnd: start + e.insert.length });
          assert.equal(read.text, withLineFeeds(next));
          assertCovers(read.change!, held, read.text);
          raw = next;
          held = read.text;
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('forgets the text when the engine holds another', () => {
    const feeds = new DocumentLineFeeds();
    feeds.read('u', 'A\rB');
    assert.equal(feeds.rawOf('u', 'A\nB'), 'A\rB');
    assert.equal(feeds.rawOf('u', 'other'), 'other');
    // Nothing noted any more: the next text is scanned whole.
    assert.equal(feeds.read('u', 'X\rY', { start: 0, oldEnd: 0, newEnd: 0 }).text, 'X\nY');
  });
});
