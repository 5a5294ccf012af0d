// Which Db2 a script is written for: Db2 for z/OS and Db2 for Linux, UNIX and Windows (LUW) share most of
// their SQL but store tables differently (z/OS: databases, table spaces IN db, APPEND YES, FREEPAGE, MEMBER
// CLUSTER; LUW: MANAGED BY, APPEND ON, DB CFG). Rules that speak of one of them run only on its files
// (RuleMeta.dialects); a file that shows neither is left undecided and the LUW rules apply, as before.
import type { Comment, Statement } from './ast';
import type { Dialect } from '../engine/types';

/** z/OS-only words read from the text: SET CURRENT SQLID, APPEND YES|NO, CREATE DATABASE/STOGROUP, PADDED indexes. */
export const ZOS_TEXT = /\bSET\s+CURRENT\s+SQLID\b|\bAPPEND\s+(?:YES|NO)\b|\bCREATE\s+(?:DATABASE|STOGROUP)\s+\S+\s+(?:STOGROUP|BUFFERPOOL|VOLUMES|CCSID|INDEXBP)\b|\bNOT\s+PADDED\b|\bUSING\s+STOGROUP\b/i;
/** LUW-only words: APPEND ON|OFF, ORGANIZE BY, DISTRIBUTE BY, automatic storage and buffer pools' page sizes. */
export const LUW_TEXT = /\bAPPEND\s+(?:ON|OFF)\b|\bORGANIZE\s+BY\b|\bDISTRIBUTE\s+BY\b|\bMANAGED\s+BY\b/i;

/**
 * The dialect a script's statements (and text) show, or undefined when they fit both. `words`: where the
 * text's dialect words are, when known (dialectWords, wordsAfterEdit), instead of searching the text.
 */
export function inferDialect(statements: readonly Statement[], text: string, words: DialectWords = dialectWords(text)): Dialect | undefined {
  let zos = words.zos.length > 0;
  let luw = words.luw.length > 0;
  for (let i = 0; i < statements.length; i++) {
    const stmt = statements[i];
    switch (stmt.kind) {
      case 'createTablespace':
        if (stmt.zos) zos = true;
        if (stmt.managedBy) luw = true;
        break;
      case 'createTable':
        if (stmt.tablespace.database) zos = true;
        break;
      case 'declareTable':
        zos = true;
        break;
      case 'load':
        if (stmt.utility) zos = true;
        else luw = true;
        break;
      case 'updateDbCfg':
      case 'import':
      case 'ingest':
        luw = true;
        break;
      default:
        break;
    }
  }
  if (zos && !luw) return 'zos';
  if (luw && !zos) return 'luw';
  return undefined;
}

/** Header comments read for a stated version at most: a script's header is its first comments, not all of them. */
const HEADER_COMMENTS = 100;
// "DB2 OS/390 V8", "DB2 UDB for OS/390 and z/OS Version 7", "DB2 for z/OS 10"; not the operating system's own
// "z/OS V1R13" or "z/OS 1.13" (a release letter or a version below 3 is not Db2's).
const VERSION_AFTER = /\bDB2\b(?:\s+UDB)?(?:\s+for)?\s+(?:OS\/390|z\/OS|MVS(?:\/ESA)?)(?:\s+and\s+z\/OS)?,?\s+(?:V|Version\s*)?(\d{1,2})(?:\.\d+)?(?!\w)/i;
// "DB2 V8 for z/OS", "DB2 9 for z/OS", "Db2 12 for z/OS".
const VERSION_BEFORE = /\bDB2\s+(?:UDB\s+)?(?:V|Version\s*)?(\d{1,2})(?:\.\d+)?\s+(?:for\s+)?(?:OS\/390|z\/OS|MVS)\b/i;

/**
 * The Db2 for z/OS version a script's header says it is written for: the first one its comments before the
 * first statement name (generated scripts say "for DB2 OS/390 V8"). Undefined when they name none.
 */
export function statedZosVersion(comments: readonly Comment[], statements: readonly Statement[]): number | undefined {
  const headerEnd = statements.length > 0 ? statements[0].span.start : Infinity;
  for (let i = 0; i < comments.length && i < HEADER_COMMENTS && comments[i].span.start < headerEnd; i++) {
    const text = comments[i].text;
    // Most comments name no Db2 at all: one plain search before the two expressions.
    if (!/db2/i.test(text)) continue;
    const match = VERSION_AFTER.exec(text) ?? VERSION_BEFORE.exec(text);
    const version = match ? Number(match[1]) : NaN;
    if (version >= 3) return version;
  }
  return undefined;
}

/** "Db2 for z/OS", "Db2 for LUW": how docs and messages name a dialect. */
export function dialectName(dialect: Dialect): string {
  return dialect === 'zos' ? 'Db2 for z/OS' : 'Db2 for LUW';
}

/**
 * Matches of ZOS_TEXT and LUW_TEXT in a text, as [start, end) pairs: not necessarily all of them, but at least
 * one of each kind the text holds. Kept per script so that a keystroke need not search 3 MB twice
 * (~6 ms at 50,000 lines): wordsAfterEdit updates them.
 */
export interface DialectWords {
  zos: number[];
  luw: number[];
}

/**
 * The first match of each kind the text holds (at most one pair each, as DialectWords allows). Found faster
 * than by testing the two expressions on the whole text: V8 tries each expression's alternatives at every
 * character of a text that holds neither (the usual case, a 12 MB script ~12–17 ms for ZOS_TEXT), but finds a
 * few plain words about twice as fast, so the phrases are tried only where their words are (property test in
 * test/sql/dialect.test.ts).
 */
export function dialectWords(text: string): DialectWords {
  return { zos: phraseIn(text, ZOS_ANCHOR, ZOS_AT, 2), luw: phraseIn(text, LUW_ANCHOR, LUW_AT, 0) };
}

// Every match of ZOS_TEXT holds one of these words, and the words of a match before it are only SET, CURRENT,
// CREATE, NOT or USING (none of which holds one): SQLID two words after its start, DATABASE or STOGROUP one
// word after, PADDED and STOGROUP one word after, APPEND at its start.
const ZOS_ANCHOR = /SQLID|APPEND|PADDED|STOGROUP|DATABASE/gi;
// Every match of LUW_TEXT starts with one of these words. (One expression for both sets of words is slower
// than two: V8 skips ahead less the more words it looks for.)
const LUW_ANCHOR = /APPEND|ORGANIZE|DISTRIBUTE|MANAGED/gi;
const ZOS_AT = new RegExp(ZOS_TEXT.source, 'iy');
const LUW_AT = new RegExp(LUW_TEXT.source, 'iy');

/**
 * A match of `phraseAt` (sticky) in the text as [start, end), or [] when there is none: tried only where
 * `anchor` (global) finds one of its words and at the starts of up to `wordsBefore` words right before that
 * (the words a phrase may have before its anchor word). Overlapping anchor words are all tried, so no match
 * is missed.
 */
function phraseIn(text: string, anchor: RegExp, phraseAt: RegExp, wordsBefore: number): number[] {
  anchor.lastIndex = 0;
  for (let hit = anchor.exec(text); hit !== null; hit = anchor.exec(text)) {
    let at = hit.index;
    anchor.lastIndex = at + 1;
    for (let words = 0; at >= 0; words++) {
      phraseAt.lastIndex = at;
      if (phraseAt.test(text)) return [at, phraseAt.lastIndex];
      at = words < wordsBefore ? wordStartBefore(text, at) : -1;
    }
  }
  return [];
}

/**
 * The start of the word that white space separates from `at` (\w+ then \s+ in the expressions' terms), or -1.
 * A phrase's earlier word is exactly there: the expressions put \b before it and \s+ after it.
 */
function wordStartBefore(text: string, at: number): number {
  let j = at;
  while (j > 0 && isRegExpSpace(text.charCodeAt(j - 1))) j--;
  if (j === at) return -1;
  const wordEnd = j;
  while (j > 0 && isRegExpWordChar(text.charCodeAt(j - 1))) j--;
  return j === wordEnd ? -1 : j;
}

/** \s of a regular expression: ASCII white space here, the rest (non-breaking space, U+2028, …) asked of \s itself. */
function isRegExpSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return /\s/.test(String.fromCharCode(c));
}

/** \w of a regular expression without the u flag: ASCII letters, digits and '_'. */
function isRegExpWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * The words of `after`, the text `before` (whose words are `words`) became by replacing [start, oldEnd) with
 * after[start, newEnd). A match that reaches the change (or the character either side of it) may be gone: then
 * the text is searched again. Otherwise the old matches stay (moved), and a new one must reach the change, so
 * it lies within a few words of it: only that stretch is searched.
 */
export function wordsAfterEdit(words: DialectWords, after: string, change: { start: number; oldEnd: number; newEnd: number }): DialectWords {
  const { start, oldEnd, newEnd } = change;
  const delta = newEnd - oldEnd;
  const touches = (list: number[]) => {
    for (let i = 0; i < list.length; i += 2) if (list[i] - 1 < oldEnd && list[i + 1] + 1 > start) return true;
    return false;
  };
  if (touches(words.zos) || touches(words.luw)) return dialectWords(after);
  const from = runsBefore(after, start, WINDOW_RUNS);
  const to = runsAfter(after, newEnd, WINDOW_RUNS);
  const moved = (list: number[]) => list.map((offset) => (offset >= oldEnd ? offset + delta : offset));
  // Only the matches that reach the change are new: the others in the stretch were there before (adding them
  // again made the lists grow by one on every keystroke typed a few words from a dialect word).
  const added = (pattern: RegExp) => {
    const found = matchesIn(pattern, after, from, to);
    const out: number[] = [];
    for (let i = 0; i < found.length; i += 2) if (found[i] - 1 < newEnd && found[i + 1] + 1 > start) out.push(found[i], found[i + 1]);
    return out;
  };
  return { zos: [...moved(words.zos), ...added(ZOS_TEXT)], luw: [...moved(words.luw), ...added(LUW_TEXT)] };
}

/**
 * Runs (of blanks, or of other characters) searched either side of an edit: a match of ZOS_TEXT or LUW_TEXT
 * spans at most 7 (CREATE DATABASE x STOGROUP), and its \b looks one character further.
 */
const WINDOW_RUNS = 10;

const BLANK = /\s/;

/** The offset `runs` run boundaries before `offset` (or 0): always the start of a run. */
function runsBefore(text: string, offset: number, runs: number): number {
  let i = Math.min(offset, text.length);
  while (i > 0 && runs > 0) {
    const blank = BLANK.test(text[i - 1]);
    while (i > 0 && BLANK.test(text[i - 1]) === blank) i--;
    runs--;
  }
  return i;
}

/** The offset `runs` run boundaries after `offset` (or the end): always the end of a run. */
function runsAfter(text: string, offset: number, runs: number): number {
  let i = Math.max(0, offset);
  while (i < text.length && runs > 0) {
    const blank = BLANK.test(text[i]);
    while (i < text.length && BLANK.test(text[i]) === blank) i++;
    runs--;
  }
  return i;
}

/** Matches of `pattern` in text[from, to), in text offsets. */
function matchesIn(pattern: RegExp, text: string, from: number, to: number): number[] {
  const out: number[] = [];
  const global = new RegExp(pattern.source, 'gi');
  const slice = from === 0 && to === text.length ? text : text.slice(from, to);
  for (let m = global.exec(slice); m; m = global.exec(slice)) {
    out.push(from + m.index, from + m.index + m[0].length);
    if (m[0].length === 0) global.lastIndex++;
  }
  return out;
}
