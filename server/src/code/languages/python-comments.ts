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

/** Lines that hold only a comment, outside strings (a `#` inside a triple-quoted string is text). */
export function blankWholeLineComments(source: string): BlankedComments {
  const comments: Comment[] = [];
  const out: string[] = [];
  let copiedTo = 0;
  let lineStart = true; // nothing but blanks since the last newline
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 10 /* \n */) {
      lineStart = true;
      i++;
    } else if (c === 32 || c === 9 || c === 13 || c === 12) {
      i++;
    } else if (c === 35 /* # */) {
      let end = source.indexOf('\n', i);
      if (end < 0) end = n;
      if (lineStart) {
        const stop = source.charCodeAt(end - 1) === 13 ? end - 1 : end;
        comments.push({ span: { start: i, end: stop }, text: source.slice(i + 1, stop) });
        out.push(source.slice(copiedTo, i), ' '.repeat(stop - i));
        copiedTo = stop;
      }
      i = end;
    } else if (c === 34 /* " */ || c === 39 /* ' */) {
      lineStart = false;
      i = skipString(source, i);
    } else {
      lineStart = false;
      i++;
    }
  }
  if (comments.length === 0) return { text: source, comments };
  out.push(source.slice(copiedTo));
  return { text: out.join(''), comments };
}

/** The index after the string starting at `start`. One-quote strings end at their line (a broken one too). */
function skipString(source: string, start: number): number {
  const quote = source[start];
  if (source.startsWith(quote.repeat(3), start)) {
    for (let i = start + 3; i < source.length; i++) {
      if (source[i] === '\\') i++;
      else if (source[i] === quote && source.startsWith(quote.repeat(3), i)) return i + 3;
    }
    return source.length;
  }
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === quote) return i + 1;
    else if (c === '\n') return i;
  }
  return source.length;
}
