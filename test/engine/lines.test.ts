// Line starts (engine/lines.ts): the indexOf scan into a growing Int32Array must find what reading every
// character finds, for LF, CRLF and lone CR line breaks, past the first guess of the array's size.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { LineIndex, lineStarts } from '../../server/src/engine/lines';

/** The starts character by character: after '\n', and after a '\r' not followed by '\n'. */
function referenceStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) starts.push(i + 1);
  }
  return starts;
}

describe('engine line index', () => {
  it('finds the line starts reading every character finds', () => {
    const text = fc.array(fc.constantFrom('\n', '\r\n', '\r', 'x', 'abc', ' ', '\n\n\n\n', ''), { maxLength: 200 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => {
        assert.deepEqual([...lineStarts(t)], referenceStarts(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('grows past its first guess (a line per 32 characters) and maps offsets to lines and back', () => {
    const text = 'a\n'.repeat(5000) + 'last';
    const index = new LineIndex(text);
    assert.equal(index.lineCount, 5001);
    assert.deepEqual(index.position(text.length - 1), { line: 5000, column: 3 });
    assert.deepEqual(index.position(3), { line: 1, column: 1 });
    assert.equal(index.offset(4999, 1), 4999 * 2 + 1);
    assert.equal(index.lineStart(99999), 10000);
  });
});
