// Whole-line Python comments are blanked before tree-sitter parses (python-comments.ts). The scan jumps
// between `#`, quotes and newlines; it must find exactly what a character-by-character scan finds.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { blankWholeLineComments, type BlankedComments } from '../../server/src/code/languages/python-comments';
import type { Comment } from '../../server/src/sql/ast';

/** The definition: every character in turn, a line starts blank until anything but a blank. */
function byCharacter(source: string): BlankedComments {
  const comments: Comment[] = [];
  let text = '';
  let copiedTo = 0;
  let lineStart = true;
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') {
      lineStart = true;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
    } else if (c === '#') {
      let end = source.indexOf('\n', i);
      if (end < 0) end = source.length;
      if (lineStart) {
        const stop = source[end - 1] === '\r' ? end - 1 : end;
        comments.push({ span: { start: i, end: stop }, text: source.slice(i + 1, stop) });
        text += source.slice(copiedTo, i) + ' '.repeat(stop - i);
        copiedTo = stop;
      }
      i = end;
    } else if (c === '"' || c === "'") {
      lineStart = false;
      const triple = source.startsWith(c.repeat(3), i);
      let j = triple ? i + 3 : i + 1;
      for (; j < source.length; j++) {
        if (source[j] === '\\') j++;
        else if (triple ? source.startsWith(c.repeat(3), j) : source[j] === c) {
          j += triple ? 3 : 1;
          break;
        } else if (!triple && source[j] === '\n') break;
      }
      i = Math.min(j, source.length);
    } else {
      lineStart = false;
      i++;
    }
  }
  return { text: comments.length ? text + source.slice(copiedTo) : source, comments };
}

const PIECES = ['#', '# note', '"', "'", '"""', "'''", '\\', '\\"', '\n', '\r\n', '\r', ' ', '\t', '\f', '\v', 'x = 1', 'print(', ')', 's = "a#b"'];

describe('python whole-line comments', () => {
  it('blanks the same comments as a scan of every character', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        const source = pieces.join('');
        assert.deepEqual(blankWholeLineComments(source), byCharacter(source));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps offsets, a comment after code and a # inside strings', () => {
    const source = 'x = 1  # trailing\n  # whole\r\ns = """\n# in a string\n"""\n# last';
    const blanked = blankWholeLineComments(source);
    assert.equal(blanked.text.length, source.length);
    assert.deepEqual(blanked.comments.map((c) => c.text), [' whole', ' last']);
    assert.equal(blanked.text, 'x = 1  # trailing\n         \r\ns = """\n# in a string\n"""\n      ');
  });
});
