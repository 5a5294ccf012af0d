// lsp/text-changes.ts: the change the engine is told must cover what the editor's change events changed (the
// re-parse trusts it), and for a keystroke be just that keystroke (else an edit re-parses the whole prefix).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { UnreadChanges } from '../../server/src/lsp/text-changes';
import { fitsLengths, type TextChange } from '../../server/src/sql/incremental';

const URI = 'file:///w/a.sql';

/** The change describes going from `before` to `after`: same text before `start` and after the ends. */
function assertCovers(change: TextChange, before: string, after: string): void {
  assert.ok(fitsLengths(change, before.length, after.length), `${JSON.stringify(change)} for ${before.length} → ${after.length}`);
  assert.equal(after.slice(0, change.start), before.slice(0, change.start), 'prefix');
  assert.equal(after.slice(change.newEnd), before.slice(change.oldEnd), 'suffix');
}

// Ranges within the document, start before end, as LSP requires (TextDocument garbles its line table for
// positions past the end or reversed ranges; the engine then checks the change against the lengths).
const contentChange = fc.record({ a: fc.nat(), b: fc.nat(), text: fc.constantFrom('', 'x', ' ', '\n', 'ab\ncd', '\r\n', ';') });

function toLsp(doc: TextDocument, c: { a: number; b: number; text: string }) {
  const length = doc.getText().length + 1;
  const [from, to] = [c.a % length, c.b % length].sort((x, y) => x - y);
  return { range: { start: doc.positionAt(from), end: doc.positionAt(to) }, text: c.text };
}

describe('lsp: unread changes', () => {
  it('cover every batch of incremental changes, composed until the engine reads the document', () => {
    let given = 0;
    fc.assert(
      fc.property(fc.array(fc.array(contentChange, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (batches, reads) => {
        const tracker = new UnreadChanges();
        let doc = TextDocument.create(URI, 'sql', 1, 'INSERT INTO T VALUES (1);\nCOMMIT;\r\nINSERT INTO T\n  VALUES (2);\n');
        let held = doc.getText();
        batches.forEach((batch, i) => {
          // One message of several changes, each's range in the text the ones before it left.
          let scratch = TextDocument.create(URI, 'sql', 0, doc.getText());
          const changes = batch.map((c) => {
            const lsp = toLsp(scratch, c);
            scratch = TextDocument.update(scratch, [lsp], 0);
            return lsp;
          });
          doc = tracker.update(doc, changes, i + 2);
          assert.equal(doc.getText(), scratch.getText());
          if (reads[i]) {
            const change = tracker.take(URI, held);
            const text = doc.getText();
            // (Undefined is allowed, and safe: TextDocument garbles its line table on some ranges past the end.)
            if (change) {
              assertCovers(change, held, text);
              given++;
            }
            held = text;
          }
        });
      }),
      { numRuns: 1000 },
    );
    assert.ok(given > 1500, `a change given only ${given} times`);
  });

  it('gives a keystroke as just that keystroke', () => {
    const tracker = new UnreadChanges();
    let doc = TextDocument.create(URI, 'sql', 1, 'A\nBB\nCCC\n');
    const held = doc.getText();
    doc = tracker.update(doc, [{ range: { start: { line: 2, character: 1 }, end: { line: 2, character: 1 } }, text: 'x' }], 2);
    assert.deepEqual(tracker.take(URI, held), { start: 6, oldEnd: 6, newEnd: 7 });
    const typed = doc.getText();
    doc = tracker.update(doc, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, text: '' }], 3);
    doc = tracker.update(doc, [{ range: { start: { line: 1, character: 1 }, end: { line: 1, character: 1 } }, text: 'yz' }], 4);
    assert.deepEqual(tracker.take(URI, typed), { start: 2, oldEnd: 4, newEnd: 5 }, 'two edits composed: the stretch between them');
    assert.equal(doc.getText(), 'A\nByz\nCxCC\n');
  });

  it('gives nothing after a whole-text change, or for another text than the one changed', () => {
    const tracker = new UnreadChanges();
    let doc = TextDocument.create(URI, 'sql', 1, 'SELECT 1;\n');
    const held = doc.getText();
    doc = tracker.update(doc, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '--' }, { text: 'COMMIT;\n' }], 2);
    assert.equal(tracker.take(URI, held), undefined, 'whole text');
    doc = tracker.update(doc, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '--' }], 3);
    assert.equal(tracker.take(URI, 'something else'), undefined, 'the engine holds another text');
    assert.equal(tracker.take(URI, doc.getText()), undefined, 'taken: nothing unread');
  });
});
