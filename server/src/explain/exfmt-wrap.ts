// A db2exfmt text pasted through a mail client or a terminal that wraps long lines (at 72, 76, 80 columns…) has
// lines cut in two: "Cumulative Total Cost: 123" and "45" on the next line. Read at face value the first half is a
// wrong number. These helpers tell a continuation from a line of its own where the text leaves no doubt, and say
// where it does leave one, so that the reader joins the halves or refuses the value, never takes the cut-off part.
import { isDb2Number, parseDb2Number } from './symbols';

/** What is left of a number cut in two: digits, a point, an exponent's letter and sign, alone on the line. */
const FRAGMENT = /^[0-9.eE+-]+$/;

/** Characters that, on both sides of a break, make "one word cut in two" and "two words" read differently. */
const WORD_END = /[A-Za-z0-9_$#@"'.]$/;
const WORD_START = /^[A-Za-z0-9_$#@"'.]/;

function columns(line: string): number {
  if (!line.includes('\t')) return line.length;
  let n = 0;
  for (const ch of line) n = ch === '\t' ? n + 8 - (n % 8) : n + 1;
  return n;
}

/** The widths of the longest line, counted in characters (a tab is one) and in columns (tabs at 8). */
export interface PasteWidth {
  chars: number;
  columns: number;
}

/**
 * The width a wrap may have cut the paste at: that of its longest lines. A wrap leaves every line it cut exactly that
 * wide; an unwrapped db2exfmt text has one longest line, often a statement written on one long line. So a longest
 * line of its own wider than any wrap (WIDEST_WRAP) is no cut one: Infinity then, as for text db2exfmt itself
 * handed over (NO_WRAP), where no line is taken for cut.
 */
export function measurePaste(lines: readonly string[]): PasteWidth {
  let chars = 0;
  let cols = 0;
  let atChars = 0;
  let atCols = 0;
  for (const l of lines) {
    const t = l.trimEnd();
    if (t.length < MIN_CUT_LINE) continue;
    const c = columns(t);
    if (t.length > chars) [chars, atChars] = [t.length, 1];
    else if (t.length === chars) atChars++;
    if (c > cols) [cols, atCols] = [c, 1];
    else if (c === cols) atCols++;
  }
  const wrapWidth = (width: number, lines: number) => (lines >= 2 || width <= WIDEST_WRAP ? width : Infinity);
  return { chars: wrapWidth(chars, atChars), columns: wrapWidth(cols, atCols) };
}

/** The width of text that no wrap cut (db2exfmt's own output in a live explain). */
export const NO_WRAP: PasteWidth = { chars: Infinity, columns: Infinity };

/** Mail clients wrap at 72-78 columns, terminals at 80-132: a single line wider than that was not cut. */
const WIDEST_WRAP = 132;

/** Lines shorter than this are never taken for cut ones. */
const MIN_CUT_LINE = 20;

/**
 * A line as wide as the widest line of the paste may have been cut there by a wrap (a wrapped text has no line wider
 * than its width, and every cut line fills it). Lines of 20 columns or fewer are never taken for cut ones.
 */
function fillsWidth(line: string, width: PasteWidth): boolean {
  const t = line.trimEnd();
  if (t.length < MIN_CUT_LINE) return false;
  return t.length === width.chars || columns(t) === width.columns;
}

/**
 * A break between two lines of free text (statement text, predicate text, argument values) that a wrap may have
 * made inside a word: the first line fills the paste's width, and both sides of the break are word characters.
 * Joined with a blank or without one, the text then reads differently, and nothing tells which is right.
 */
export function ambiguousBreak(head: string, next: string, width: PasteWidth): boolean {
  // A cut line that ends in a blank was cut between two words: the blank is still there.
  return fillsWidth(head, width) && WORD_END.test(head) && WORD_START.test(next) && next.trim() !== '';
}

/**
 * A statement line that starts with a clause keyword and a blank (`WHERE LINE > 0`, `FROM STAGE.T`): the statement's
 * own line break, as people write SQL, and no word's cut-off end (a wrap inside a word leaves `tomers c ON …`).
 */
export function startsClause(line: string): boolean {
  return CLAUSE_START.test(line);
}

const CLAUSE_START = /^\s*(SELECT|FROM|WHERE|VALUES|AND|OR|GROUP|ORDER|HAVING|UNION|EXCEPT|INTERSECT|JOIN|INNER|LEFT|RIGHT|FULL|ON|SET|INSERT|UPDATE|DELETE|MERGE|USING|WHEN|THEN|ELSE|END|WITH|FETCH|OFFSET|INTO)(\s|\(|$)/i;

export interface WrappedNumber {
  /** The number, undefined when the line has none or it cannot be read for certain. */
  value?: number;
  /** Index of the last line the value took (the line itself, or a continuation after it). */
  last: number;
  /** Why the value is refused, when it is. */
  refused?: string;
}

/**
 * The number that ends line `i` (`text` is what follows the key's colon). A line after it that holds nothing but a
 * piece of a number is its continuation: db2exfmt never prints a bare number right after one of its `Key: value`
 * lines, so only a wrap puts it there. The pieces are joined (a number holds no blank, so a wrap broke it without
 * losing one); a value that still does not read as a number is refused.
 */
export function numberAt(lines: readonly string[], i: number, text: string, end: number): WrappedNumber {
  let joined = text.trim();
  let last = i;
  while (last + 1 < end) {
    const next = lines[last + 1].trim();
    if (next === '' || !FRAGMENT.test(next)) break;
    joined += next;
    last++;
  }
  if (joined === '') return { last };
  const first = text.trim().split(/\s+/)[0] ?? '';
  if (last === i) {
    // A value followed by more words on its line is not one number: left alone, as before.
    return isDb2Number(first) ? { value: parseDb2Number(first), last } : { last };
  }
  if (!isDb2Number(joined)) return { last, refused: `"${text.trim()}" and the line after it ("${lines[i + 1].trim()}") do not make one number` };
  return { value: parseDb2Number(joined), last };
}
