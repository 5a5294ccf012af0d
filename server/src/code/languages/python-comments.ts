// Whole-line Python comments, taken out before tree-sitter parses the file. tree-sitter-python's external
// scanner re-reads the run of comment lines before each statement at every step, so a file of 80 lines of
// code followed by 13,000 comment lines took over a minute; blank lines cost it nothing. The comments are
// kept (suppressions live in them) and the blanked text keeps every offset and line.
import type { Comment } from '../../sql/ast';

export interface BlankedComments {
  /** The source with each whole-line comment replaced by spaces (newlines kept). */
  text: string;
  comments: Comment[];
}

/** The next character that can start a comment, a string or a line. */
const NEXT_MARK = /[#"'\n]/g;

/**
 * Lines that hold only a comment, outside strings (a `#` inside a triple-quoted string is text). The scan
 * jumps from one `#`, quote or newline to the next (a regular expression finds them in native code): a loop
 * over every character ran in V8's interpreter on the first files of a run, ~5 ms per 1,000 lines.
 */
export function blankWholeLineComments(source: string): BlankedComments {
  const comments: Comment[] = [];
  const out: string[] = [];
  let copiedTo = 0;
  let lineStart = 0; // where the current line starts
  let i = 0;
  const n = source.length;
  for (;;) {
    NEXT_MARK.lastIndex = i;
    const found = NEXT_MARK.exec(source);
    if (!found) break;
    i = found.index;
    const c = source.charCodeAt(i);
    if (c === 10 /* \n */) {
      lineStart = ++i;
    } else if (c === 35 /* # */) {
      let end = source.indexOf('\n', i);
      if (end < 0) end = n;
      if (onlyBlanks(source, lineStart, i)) {
        const stop = source.charCodeAt(end - 1) === 13 ? end - 1 : end;
        comments.push({ span: { start: i, end: stop }, text: source.slice(i + 1, stop) });
        out.push(source.slice(copiedTo, i), ' '.repeat(stop - i));
        copiedTo = stop;
      }
      i = end;
    } else {
      // A string: a line it ends on has text before any later `#` (the closing quote).
      i = skipString(source, i);
      lineStart = -1;
    }
  }
  if (comments.length === 0) return { text: source, comments };
  out.push(source.slice(copiedTo));
  return { text: out.join(''), comments };
}

/** Whether `source[from, to)` holds only blanks (space, tab, CR, form feed); a negative `from`: no. */
function onlyBlanks(source: string, from: number, to: number): boolean {
  if (from < 0) return false;
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 12) return false;
  }
  return true;
}

/** The index after the string starting at `start`. One-quote strings end at their line (a broken one too). */
function skipString(source: string, start: number): number {
  const quote = source.charCodeAt(start);
  const triple = source.charCodeAt(start + 1) === quote && source.charCodeAt(start + 2) === quote;
  for (let i = triple ? start + 3 : start + 1; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 92 /* \\ */) i++;
    else if (c === quote) {
      if (!triple) return i + 1;
      if (source.charCodeAt(i + 1) === quote && source.charCodeAt(i + 2) === quote) return i + 3;
    } else if (c === 10 && !triple) return i;
  }
  return source.length;
}
