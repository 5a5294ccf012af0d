// A db2exfmt text pasted through a mail client or a terminal that wraps long lines (at 72, 76, 80 columns…) has
// lines cut in two: "Cumulative Total Cost: 123" and "45" on the next line. Read at face value the first half is a
// wrong number. These helpers tell a continuation from a line of its own where the text leaves no doubt, and say
// where it does leave one, so that the reader joins the halves or refuses the value, never takes the cut-off part.
import { isDb2Number, parseDb2Number } from './symbols';

/** What is left of a number cut in two: digits, a point, an exponent's letter and sign, alone on the line. */
export const FRAGMENT = /^[0-9.eE+-]+$/;

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
interface PasteWidth {
  chars: number;
  columns: number;
}

/**
 * The width a wrap may have cut the paste at: that of its longest lines. A wrap leaves every line it cut exactly that
 * wide; an unwrapped db2exfmt text has one longest line, often a statement written on one long line. So a longest
 * line of its own wider than any wrap (WIDEST_WRAP) is no cut one: Infinity then, and no line is taken for cut.
 */
function measurePaste(lines: readonly string[]): PasteWidth {
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
 * The lines, of those not skipped, as wide as the widest of them (the rest of a line that a wrap cut after a quoting
 * is skipped: it was measured with the quote): a wrap may have cut them, their rest on the next line. `near`: those
 * within `slack` characters or columns of that width, or so near that the first word of the next line would not have
 * fit beside them, as a wrap leaves a line it cut at a blank (a word wrap, a terminal copy that drops the blanks at
 * the end of a row). `seen(i)`: line i was measured already (as a cut or near
 * line of an outer quote); the widest of the others, when two or more lines are that wide, is a width too (a text
 * wrapped twice, each wrap leaving its own width).
 */
export function linesFillingWidth(lines: readonly string[], skip: (i: number) => boolean, slack = 0, seen?: (i: number) => boolean): { filled: boolean[]; near: boolean[] } {
  const width = measurePaste(lines.filter((_, i) => !skip(i)));
  const other = seen ? widestOfSeveral(lines.filter((_, i) => !skip(i) && !seen(i))) : undefined;
  // Near: within `slack` of the width, or so near that the next line's first word did not fit beside it.
  const near = (l: string, next: string | undefined) => {
    const t = l.trimEnd();
    // The next line's first word, after the quote a client that re-wraps puts before the rest of a line.
    const word = next === undefined ? 0 : Math.max(/^\S*/.exec(next)![0].length, /^\S*/.exec(next.replace(/^(?:>\s?)+/, ''))![0].length);
    const reach = word > 0 ? Math.max(slack, word + 1) : slack;
    return t.length >= MIN_CUT_LINE && (t.length >= width.chars - reach || columns(t) >= width.columns - reach);
  };
  const shown = widthBeforeTabsShown(lines.filter((_, i) => !skip(i)), width);
  return {
    filled: lines.map((l, i) => !skip(i) && (fillsWidth(l, width) || (other !== undefined && fillsWidth(l, other)) || (shown !== undefined && mayHaveFilled(l, shown)))),
    near: lines.map((l, i) => !skip(i) && near(l, lines[i + 1])),
  };
}

/** A run of blanks that may be tabs shown as spaces (a tab shows as 1 to 8 of them). */
const BLANK_RUN = / {2,}/g;

/**
 * The fewest characters the line may have had before its tabs were shown as spaces: every run of two or more blanks
 * may be tabs, each of up to 8 columns.
 */
function fewestChars(t: string): number {
  let n = t.length;
  for (const m of t.matchAll(BLANK_RUN)) n -= m[0].length - Math.ceil(m[0].length / 8);
  return n;
}

/** A line that cannot have held a tab shown as spaces: no tab, no run of blanks. */
const tabFree = (t: string) => !t.includes('\t') && !/ {2}/.test(t);

/**
 * A text a mail client wrapped counting a tab as one character, then shown with its tabs as spaces (a terminal, an
 * editor): the lines that had tabs are wider than the width it was cut at, so the widest lines do not show that
 * width, but the widest of the lines that cannot have had a tab do. That width, when it is narrower than the widest
 * lines (`width`) and every wider line may be that many characters with its runs of blanks read as tabs (as it must
 * be if the text was cut there); otherwise undefined.
 */
function widthBeforeTabsShown(lines: readonly string[], width: PasteWidth): number | undefined {
  let w = 0;
  for (const l of lines) {
    const t = l.trimEnd();
    if (t.length >= MIN_CUT_LINE && tabFree(t)) w = Math.max(w, t.length);
  }
  if (w === 0 || w >= width.chars) return undefined;
  for (const l of lines) {
    const t = l.trimEnd();
    if (t.length > w && fewestChars(t) > w) return undefined;
  }
  return w;
}

/**
 * Line `l` may have been cut at `width` characters before its tabs were shown as spaces: it is that wide, or wider
 * with runs of blanks that may be tabs and make it that wide.
 */
function mayHaveFilled(l: string, width: number): boolean {
  const t = l.trimEnd();
  if (t.length < MIN_CUT_LINE) return false;
  return t.length === width || (t.length > width && fewestChars(t) <= width);
}

/** The width, in characters and in columns, of the widest lines when two or more are that wide. */
function widestOfSeveral(lines: readonly string[]): PasteWidth {
  const widest = (measure: (t: string) => number) => {
    let best = 0;
    let times = 0;
    for (const l of lines) {
      const t = l.trimEnd();
      if (t.length < MIN_CUT_LINE) continue;
      const n = measure(t);
      if (n > best) [best, times] = [n, 1];
      else if (n === best) times++;
    }
    return times >= 2 ? best : Infinity;
  };
  return { chars: widest((t) => t.length), columns: widest(columns) };
}

/** The longest of these lines, in characters and in columns (tabs at 8), lines shorter than 20 left out. */
export function longestLine(lines: readonly string[]): PasteWidth {
  let chars = 0;
  let cols = 0;
  for (const l of lines) {
    const t = l.trimEnd();
    if (t.length < MIN_CUT_LINE) continue;
    chars = Math.max(chars, t.length);
    cols = Math.max(cols, columns(t));
  }
  return { chars, columns: cols };
}

/** How the text as read may differ from the text db2exfmt wrote, line by line (exfmt-paste.ts finds it). */
export interface PasteCuts {
  /** Line i may have been cut by a wrap: line i + 1 may hold its rest. */
  readonly cut: readonly boolean[];
  /**
   * Line i may be either a quoted line or the rest of the line before it, cut by a wrap after the quoting, that began
   * with ">": its text, and what it makes with the line before it, are not certain.
   */
  readonly doubtful: readonly boolean[];
  /**
   * Where one level of "> " quoting had rests left unquoted by a wrap: the characters of quote taken off each line
   * there, for the drawing to be read in the columns the wrap cut it at.
   */
  readonly shift?: readonly number[];
  /**
   * Line i is the rest of line i - 1 that a wrap made after a quoting left unquoted, line i - 1 (with its quote)
   * exactly as wide as the widest line of that level: the wrap cut it there, in characters, and the two are one line.
   */
  readonly joins?: readonly boolean[];
}

/** Text that no wrap cut (db2exfmt's own output in a live explain). */
export const NO_CUTS: PasteCuts = { cut: [], doubtful: [] };

/** Line i may have been cut by a wrap: what follows it may be its rest. */
export function mayBeCut(cuts: PasteCuts, i: number): boolean {
  return cuts.cut[i] === true;
}

/**
 * A break between line `head` and line `next` of free text (statement text, predicate text, argument values,
 * diagnostics) that a wrap may have made inside a word: the head may have been cut, and both sides of the break are
 * word characters. Joined with a blank or without one, the text then reads differently, and nothing tells which is
 * right. A doubtful line (which may have lost a ">") never goes on a text for certain. `text` is line `next` as the
 * reader tests it (trimmed or not).
 */
export function ambiguousBreak(lines: readonly string[], head: number, next: number, cuts: PasteCuts, text = lines[next]): boolean {
  if (text.trim() === '') return false;
  if (cuts.doubtful[next] === true) return true;
  // A cut line that ends in a blank was cut between two words: the blank is still there.
  return mayBeCut(cuts, head) && WORD_END.test(lines[head]) && WORD_START.test(text);
}

/** Why the break after line `head` (0-based) is ambiguousBreak's, in words: "line 12 fills the width of the paste". */
export function breakWhy(head: number, next: number, cuts: PasteCuts): string {
  if (cuts.doubtful[next] === true) return `line ${next + 1} begins with ">" and may be the rest of line ${head + 1} that a wrap cut after the paste was quoted, or a quoted line (its quote taken off)`;
  return `line ${head + 1} fills the width of the paste`;
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
