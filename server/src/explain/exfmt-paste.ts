// What a paste did to the lines of a db2exfmt text, undone where the text leaves no doubt: a mail reply's quote
// ("> " before every line, once per level) is taken off, double spacing is dropped. What cannot be undone for
// certain is said line by line (PasteCuts, exfmt-wrap.ts): where a wrap (a mail client's or a terminal's, before or
// after the quoting) may have cut a line, and which lines may have lost a ">" that was theirs. The readers then
// join a value's halves or refuse the value, never take a cut-off part.
// The graph reader (exfmt-graph.ts) also undoes double spacing here, and a comment or quote prefix shared by the
// lines of a pasted graph (stripCommonPrefix).
import { linesFillingWidth, longestLine, NO_CUTS, type PasteCuts } from './exfmt-wrap';

interface PasteLine {
  text: string;
  /** A wrap may have cut the line (it is as wide as the widest at some level of quoting): its rest may be on the next line. */
  cut: boolean;
  /** The line is about as wide as the widest at some level of quoting: a wrap may have cut it at a blank. */
  near: boolean;
  /** The line ends a line of an inner level that wraps made after the quoting cut in pieces: it may have been cut there too. */
  end: boolean;
  /** The rest of a line that a wrap made after a quoting cut: it has no quote of its own, at any level inside it. */
  rest: boolean;
  /** A quoted line, or a rest that began with ">" (see PasteCuts.doubtful). */
  doubtful: boolean;
  /** The characters of quote taken off the line at a level where a wrap left rests unquoted. */
  shift: number;
  /** The line is a rest of the line before it, which (with its quote) was exactly as wide as the widest of its level. */
  join: boolean;
}

export interface Paste {
  lines: string[];
  cuts: PasteCuts;
}

/** A line this many characters or columns short of the widest may have been cut at a blank (it lost the blanks). */
const NEAR_WIDTH = 8;

/** A terminal's copy drops the blanks at the end of a row it cut: as many as this before a comparison (`A  > 5`). */
const BLANKS_BEFORE_A_CUT = 2;

/** Quoting deeper than this is left as it is (each level costs a pass over the text). */
const MAX_QUOTE_LEVELS = 100;

/**
 * The lines of `raw` as db2exfmt wrote them, as far as the text tells, and where a wrap may have changed them. Text
 * that db2exfmt itself handed over (`fromDb2exfmt`) was cut by no wrap.
 */
export function preparePaste(raw: readonly string[], fromDb2exfmt = false): Paste {
  let items: PasteLine[] = raw.map((text) => ({ text, cut: false, near: false, end: false, rest: false, doubtful: false, shift: 0, join: false }));
  // Level by level from the outermost quote: a wrap made at a level cut its lines to that level's width.
  let restLevels = 0;
  let spacedRests = true;
  for (let level = 0; level < MAX_QUOTE_LEVELS; level++) {
    const outer = items.map((l) => l.cut || l.near);
    const measured = items.map((l) => l.cut);
    const { filled, near } = linesFillingWidth(
      items.map((l) => l.text),
      (i) => items[i].rest,
      NEAR_WIDTH,
      level > 0 ? (i) => measured[i] : undefined,
    );
    items.forEach((l, i) => {
      l.cut ||= filled[i];
      l.near ||= near[i];
    });
    if (level > 0) markEnds(items, outer);
    const done = unquoteOnce(items);
    if (!done) break;
    if (done.rests) {
      restLevels++;
      spacedRests &&= !done.alone;
    }
  }
  items = undoubleSpacing(items, (l) => l.text);
  const lines = items.map((l) => l.text);
  if (fromDb2exfmt) return { lines, cuts: NO_CUTS };
  // One level of "> " quoting with unquoted rests: the drawing keeps its columns with the quote as blanks, its cut
  // lines as wide as the wrap's width (the graph reader joins such lines again).
  const shift = restLevels === 1 && spacedRests ? items.map((l) => l.shift) : undefined;
  const joins = items.some((l) => l.join) ? items.map((l) => l.join) : undefined;
  return { lines, cuts: { cut: items.map((l) => l.cut || l.end), doubtful: items.map((l) => l.doubtful), shift, joins } };
}

/**
 * Inside a quote, a line that an outer wrap cut in pieces (a piece as wide, or about as wide, as the widest lines
 * outside, `outer`, or a piece followed by the rest that wrap left unquoted) cannot be measured: the pieces may have
 * lost blanks, and a client that quotes the rest makes it look like a line of its own. So every piece after the
 * first is taken for cut at its end: a wrap made before the quoting (the sender's) may have cut the line there, and
 * which piece is the last is not certain.
 */
function markEnds(items: PasteLine[], outer: readonly boolean[]): void {
  // A rest goes on only on a rest: its own width was measured before it was known for one.
  const goesOn = (i: number) => i + 1 < items.length && !isBlank(items[i]) && !isBlank(items[i + 1]) && ((outer[i] && !items[i].rest) || items[i + 1].rest);
  for (let i = 1; i < items.length; i++) if (goesOn(i - 1)) items[i].end = true;
}

const isBlank = (l: PasteLine) => l.text.trim() === '';

/**
 * Takes one level of quoting off when every line has it, but for blank lines and for the rests of lines a wrap cut
 * after the quoting (a client that does not quote the rest of a line it wraps): a line without the quote right after
 * a quoted line or such a rest. Returns whether it did.
 */
function unquoteOnce(items: PasteLine[]): { rests: boolean; alone: boolean } | undefined {
  // A client that quotes with "> " puts the blank before every line but an empty one: there, a line that begins with
  // ">" and no blank (">HSJOIN<", ">=") is no quoted line but a rest. A level quoted with ">" alone (">> ") tells none.
  let spaced = 0;
  let tight = 0;
  for (const l of items) {
    if (l.rest) continue;
    if (l.text.startsWith('> ')) spaced++;
    else if (/^>\S/.test(l.text)) tight++;
  }
  const quotedWithBlank = (l: PasteLine) => !l.rest && (l.text.startsWith('> ') || /^>\s*$/.test(l.text));
  const quotedAlone = (l: PasteLine) => !l.rest && l.text.startsWith('>');
  if (spaced > tight) {
    const rests = unquoteAs(items, quotedWithBlank, false);
    if (rests !== undefined) return { rests, alone: false };
  }
  const rests = unquoteAs(items, quotedAlone, true);
  return rests === undefined ? undefined : { rests, alone: true };
}

/** Takes the quote off if the lines are quoted so (see unquoteOnce): undefined if not, else whether rests were left unquoted. */
function unquoteAs(items: PasteLine[], isQuoted: (l: PasteLine) => boolean, alone: boolean): boolean | undefined {
  const rests = new Set<number>();
  let quoted = false;
  for (let i = 0; i < items.length; i++) {
    const l = items[i];
    if (l.rest || l.text === '') continue;
    if (isQuoted(l)) {
      quoted = true;
      continue;
    }
    // A rest may be all blanks (a line cut in a run of blanks), and the next rest then follows it.
    const prev = items[i - 1];
    if (prev && prev.text !== '' && (isQuoted(prev) || prev.rest || rests.has(i - 1))) rests.add(i);
    else if (!isBlank(l)) return undefined;
  }
  if (!quoted) return undefined;
  if (rests.size > 0) {
    markDoubtful(items, rests, isQuoted, alone);
    markCutBeforeRests(items, rests);
    markJoins(items, rests);
  }
  for (const l of items) {
    if (!isQuoted(l)) continue;
    const quote = l.text.startsWith('> ') ? 2 : 1;
    l.text = l.text.slice(quote);
    if (rests.size > 0) l.shift += quote;
  }
  for (const i of rests) items[i].rest = true;
  // A rest followed by another rest was cut too: one wrap leaves such a rest as wide as its width (it is measured),
  // a rest shorter than that was cut by another wrap (the sender's, before the quoting).
  for (let i = 0; i + 1 < items.length; i++) if (items[i].rest && items[i + 1].rest) items[i].cut = true;
  return rests.size > 0;
}

/**
 * Where a wrap left some rests unquoted, a rest that begins with ">" (a comparison, `>HSJOIN<`) looks quoted. A
 * quoted line that may be such a rest is doubtful, and the line before it may then have been cut. With ">" alone
 * for a quote (`alone`), the quoted lines are those of an inner quote (">> …", "> > …"): a line with ">" and then
 * anything else may be such a rest. With "> ", a rest that looks quoted begins with "> ": it may be one when the line
 * before it is wide enough that its next word did not fit beside it, also with the blanks a terminal's copy drops
 * where it cut.
 */
function markDoubtful(items: PasteLine[], rests: ReadonlySet<number>, isQuoted: (l: PasteLine) => boolean, alone: boolean): void {
  const width = longestLine(items.filter((l, i) => !l.rest && !rests.has(i)).map((l) => l.text));
  for (let i = 1; i < items.length; i++) {
    const l = items[i];
    const prev = items[i - 1];
    if (!isQuoted(l) || isBlank(prev)) continue;
    const word = /^\S*/.exec(l.text)![0].length;
    const trimmed = longestLine([prev.text]);
    const whole = prev.text.length;
    const maybe = alone
      ? !/^>[> ]/.test(l.text) && !/^>\s*$/.test(l.text)
      : whole + 1 + word > width.chars || trimmed.columns + 1 + word > width.columns || trimmed.chars + BLANKS_BEFORE_A_CUT + 1 + word > width.chars;
    if (maybe) {
      l.doubtful = true;
      prev.cut = true;
    }
  }
}

/**
 * A line that a rest follows was cut there. A wrap leaves it as wide as its width, or about (it is measured and
 * taken for cut); a line well short of it is a piece another wrap made (a client that re-wrapped and quoted the
 * rest of a line the sender's wrap had cut), whose end was cut all the same.
 */
function markCutBeforeRests(items: PasteLine[], rests: ReadonlySet<number>): void {
  const width = longestLine(items.filter((l, i) => !l.rest && !rests.has(i)).map((l) => l.text));
  for (const i of rests) {
    const prev = items[i - 1];
    const t = longestLine([prev.text]);
    if (t.chars < width.chars - NEAR_WIDTH && t.columns < width.columns - NEAR_WIDTH && prev.text.length < width.chars - NEAR_WIDTH) prev.cut = true;
  }
}

/**
 * A rest whose line before it (with its quote, or a rest itself) is exactly as wide as the widest line of the level
 * in characters: a wrap that cuts at the width (a terminal, `fold`) cut that line there, and the rest goes on right
 * after it, no blank lost. Not for a doubtful line: it may be a quoted line of its own.
 */
function markJoins(items: PasteLine[], rests: ReadonlySet<number>): void {
  const width = items.reduce((w, l, i) => (l.rest || rests.has(i) ? w : Math.max(w, l.text.length)), 0);
  for (const i of rests) {
    const prev = items[i - 1];
    if (prev.text.length === width && !items[i].doubtful && !prev.doubtful) items[i].join = true;
  }
}

/** Removes a comment or quote prefix shared by the graph's lines (Javadoc ` * `, `// `, `-- `, `# `, a mail reply's `> `). */
export function stripCommonPrefix(lines: string[]): string[] {
  const nonBlank = lines.filter((l) => l.trim() !== '');
  if (nonBlank.length === 0) return lines;
  const m = /^(\s*(?:\*|\/\/|--|#|>)\s?)/.exec(nonBlank[0]);
  if (!m) return lines;
  const prefix = m[1];
  const bare = prefix.trimEnd();
  const all = nonBlank.every((l) => l.startsWith(prefix) || l.trimEnd() === bare);
  if (!all) return lines;
  return lines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l.trimEnd() === bare ? '' : l));
}

/**
 * A double-spaced paste (every line followed by a blank one, as some editors and web pages copy text):
 * the blank lines are dropped again. Text with two non-blank lines in a row is left alone.
 */
export function undoubleSpacing<T>(items: T[], text: (item: T) => string): T[] {
  // Only empty lines count: a long run of blanks is a line of its own (a folded graph line can be one).
  const blank = items.map((i) => text(i).length <= 2 && text(i).trim() === '');
  const content: number[] = [];
  for (let i = 0; i < items.length; i++) if (!blank[i]) content.push(i);
  if (content.length < 6) return items;
  for (let k = 0; k + 1 < content.length; k++) if (content[k + 1] === content[k] + 1) return items;
  const phase = content[0] % 2;
  // A true double spacing puts every line of the original on the same parity: keep that half.
  if (content.every((i) => i % 2 === phase)) return items.filter((_, i) => i % 2 === phase);
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) {
    out.push(items[i]);
    if (!blank[i] && i + 1 < items.length && blank[i + 1]) i++;
  }
  return out;
}
