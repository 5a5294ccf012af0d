// Which Db2 a script is written for: Db2 for z/OS and Db2 for Linux, UNIX and Windows (LUW) share most of
// their SQL but store tables differently (z/OS: databases, table spaces IN db, APPEND YES, FREEPAGE, MEMBER
// CLUSTER; LUW: MANAGED BY, APPEND ON, DB CFG). Rules that speak of one of them run only on its files
// (RuleMeta.dialects); a file that shows neither is left undecided and the LUW rules apply, as before.
import type { Statement } from './ast';
import type { Dialect } from '../engine/types';

/** z/OS-only words read from the text: SET CURRENT SQLID, APPEND YES|NO, CREATE DATABASE/STOGROUP, PADDED indexes. */
const ZOS_TEXT = /\bSET\s+CURRENT\s+SQLID\b|\bAPPEND\s+(?:YES|NO)\b|\bCREATE\s+(?:DATABASE|STOGROUP)\s+\S+\s+(?:STOGROUP|BUFFERPOOL|VOLUMES|CCSID|INDEXBP)\b|\bNOT\s+PADDED\b|\bUSING\s+STOGROUP\b/i;
/** LUW-only words: APPEND ON|OFF, ORGANIZE BY, DISTRIBUTE BY, automatic storage and buffer pools' page sizes. */
const LUW_TEXT = /\bAPPEND\s+(?:ON|OFF)\b|\bORGANIZE\s+BY\b|\bDISTRIBUTE\s+BY\b|\bMANAGED\s+BY\b/i;

/**
 * The dialect a script's statements (and text) show, or undefined when they fit both. `words`: where the
 * text's dialect words are, when known (dialectWords, wordsAfterEdit), instead of searching the text.
 */
export function inferDialect(statements: readonly Statement[], text: string, words?: DialectWords): Dialect | undefined {
  let zos = words ? words.zos.length > 0 : ZOS_TEXT.test(text);
  let luw = words ? words.luw.length > 0 : LUW_TEXT.test(text);
  for (const stmt of statements) {
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

export function dialectWords(text: string): DialectWords {
  return { zos: matchesIn(ZOS_TEXT, text, 0, text.length), luw: matchesIn(LUW_TEXT, text, 0, text.length) };
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
  return { zos: [...moved(words.zos), ...matchesIn(ZOS_TEXT, after, from, to)], luw: [...moved(words.luw), ...matchesIn(LUW_TEXT, after, from, to)] };
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
