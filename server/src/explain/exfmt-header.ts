// The head of a db2exfmt text, before its first statement: the banner ("DB2 Universal Database Version 11.5, …
// Copyright IBM …"), the tool's title, the EXPLAIN INSTANCE fields (DB2_VERSION, EXPLAIN_TIME, …) and the Database
// and Package Context (Parallelism, CPU Speed, Optimization Level, …). Each field is one `Key: value` line of its
// block, so a line of a block that is none was cut off the line before it by a wrap: a number (which holds no blank)
// is joined again, any other value cut so is not used, and one warning names the lines.
import type { ExfmtDocument } from './model';
import { FRAGMENT, mayBeCut, type PasteCuts } from './exfmt-wrap';
import { keyValue } from './exfmt-sections';
import { isDb2Number } from './symbols';

const INSTANCE = /^\s*\*{10,}\s*EXPLAIN INSTANCE\s*\*{10,}\s*$/;
const CONTEXT_HEADING = /^\s*(Database|Package) Context:\s*$/;
const DASHES = /^\s*-{3,}\s*$/;
/** A line of dots where a quoted excerpt left lines out (a book's, a forum's): it ends a block, it does not go on a value. */
const ELISION = /^\s*(?:\.{3,}|\u2026)\s*$/;
const LICENSED = /^\s*Licensed Material\b/;
/** "IBM DATABASE 2 Explain Table Format Tool" (9.7, 11.5), "IBM Db2 Explain Table Format Tool" (12.1): the whole line. */
const TOOL = /^IBM\b.*\bExplain Table Format Tool$/i;
/** A quote or comment mark before a line of the head that the paste's unquoting left (Javadoc ` * `, `> `). */
const MARKS = /^(?:[>*#|]\s*|\/\/\s*|--\s*)+/;
/** The EXPLAIN INSTANCE fields: upper-case keys, words one blank apart (DB2_VERSION, FORMATTED ON DB). */
const FIELD_KEY = /^[A-Z][A-Z0-9_]*(?: [A-Z0-9_]+)*$/;
/** The context fields: Parallelism, CPU Speed, Buffer Pool size, SQL Type, Optimization Level … */
const CONTEXT_KEY = /^[A-Z][\w./()-]*(?: [\w./()-]+)*$/;
/** The first fields of an EXPLAIN INSTANCE block, where a paste starts without the block's banner. */
const FIRST_FIELDS = new Set(['DB2_VERSION', 'SOURCE_NAME']);

/** Values that hold no blank and have a fixed shape: their pieces are joined again when a wrap cut them. */
const JOINED_FIELDS: Record<string, (v: string) => boolean> = {
  DB2_VERSION: (v) => /^\d\d\.\d\d\.\d+$/.test(v),
  EXPLAIN_TIME: (v) => /^\d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d{6}$/.test(v),
};
/** The keys db2exfmt prints in the EXPLAIN INSTANCE block and the Database and Package Context (9.7 to 12.1). */
const KNOWN_KEYS = new Set([
  'DB2_VERSION', 'FORMATTED ON DB', 'SOURCE_NAME', 'SOURCE_SCHEMA', 'SOURCE_VERSION', 'EXPLAIN_TIME', 'EXPLAIN_REQUESTER',
  'Parallelism', 'CPU Speed', 'Comm Speed', 'Buffer Pool size', 'Sort Heap size', 'Database Heap size', 'Lock List size',
  'Maximum Lock List', 'Average Applications', 'Locks Available', 'SQL Type', 'Optimization Level', 'Blocking', 'Isolation Level',
]);
/** The context values that are numbers. */
const NUMBER_CONTEXT = new Set(['CPU Speed', 'Comm Speed', 'Buffer Pool size', 'Sort Heap size', 'Database Heap size', 'Lock List size', 'Maximum Lock List', 'Average Applications', 'Locks Available', 'Optimization Level']);

/** A value not used: what it is, its line and the line that holds its rest (1-based). */
interface Refused {
  what: string;
  line: number;
  text: string;
  rest: string;
}

/** Reads the head of the text, lines [0, end), into doc.header; values a wrap cut are left out with one warning. */
export function readHeader(doc: ExfmtDocument, text: readonly string[], end: number, cuts: PasteCuts): void {
  // A wrap that cut a line in a run of blanks leaves a line of blanks between its pieces: not a line of the head.
  const at: number[] = [];
  for (let i = 0; i < end; i++) if (!(text[i] !== '' && text[i].trim() === '' && i > 0 && mayBeCut(cuts, i - 1))) at.push(i);
  const lines = at.map((i) => text[i]);
  const refused: Refused[] = [];
  let instance = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim().replace(MARKS, '');
    if (INSTANCE.test(lines[i])) {
      if (instance < 0) instance = i;
      continue;
    }
    if (!doc.header.banner && /Copyright IBM/i.test(l) && /\bVersion\s+\d/i.test(l)) {
      const next = i + 1 < lines.length ? lines[i + 1].trim() : '';
      // The line after the banner is "Licensed Material …" (or nothing): anything else is the banner's cut-off end.
      if (next === '' || LICENSED.test(next) || TOOL.test(next) || INSTANCE.test(next)) doc.header.banner = l;
      else refused.push({ what: 'banner', line: at[i] + 1, text: l, rest: next });
    }
    if (!doc.header.tool && TOOL.test(l)) doc.header.tool = l;
  }
  const start = instance >= 0 ? instance + 1 : lines.findIndex((l) => FIRST_FIELDS.has(keyValue(l)?.key.trim() ?? ''));
  // Without EXPLAIN INSTANCE fields (an excerpt that starts at the context) the contexts are still read.
  let stop = 0;
  if (start >= 0) {
    stop = blockEnd(lines, start, FIELD_KEY, (l) => CONTEXT_HEADING.test(l) || INSTANCE.test(l) || ELISION.test(l));
    readBlock(lines, at, cuts, start, stop, FIELD_KEY, (key, value) => {
      if (!(key in doc.header.fields)) doc.header.fields[key] = value;
      if (key === 'DB2_VERSION' && doc.header.db2Version === undefined) doc.header.db2Version = value;
    }, refused);
  }
  for (let i = stop; i < lines.length; i++) {
    if (!CONTEXT_HEADING.test(lines[i])) continue;
    let from = i + 1;
    while (from < lines.length && DASHES.test(lines[from])) from++;
    const context = (doc.header.context ??= {});
    const to = blockEnd(lines, from, CONTEXT_KEY, (l) => CONTEXT_HEADING.test(l) || INSTANCE.test(l) || DASHES.test(l) || ELISION.test(l));
    readBlock(lines, at, cuts, from, to, CONTEXT_KEY, (key, value) => {
      if (!(key in context)) context[key] = value;
    }, refused);
    i = to - 1;
  }
  report(doc, refused);
}

function report(doc: ExfmtDocument, refused: Refused[]): void {
  if (refused.length > 0) doc.warnings.push(headerWarning(refused));
}

/**
 * A block runs from `from` to a line `stops` says ends it, or to the empty line after its fields (a line of blanks
 * ends it only when no field follows: a terminal's wrap leaves one where it cut a line in its trailing blanks).
 */
function blockEnd(lines: readonly string[], from: number, keyShape: RegExp, stops: (l: string) => boolean): number {
  const end = lines.length;
  let seen = false;
  for (let i = from; i < end; i++) {
    if (stops(lines[i])) return i;
    if (lines[i].trim() !== '') seen = true;
    else if (seen && (lines[i] === '' || !fieldFollows(lines, i, keyShape))) return i;
  }
  return end;
}

function fieldFollows(lines: readonly string[], i: number, keyShape: RegExp): boolean {
  const end = lines.length;
  let j = i;
  while (j < end && lines[j].trim() === '') j++;
  const kv = j < end ? keyValue(lines[j]) : undefined;
  return kv !== undefined && keyShape.test(kv.key.trim());
}

/**
 * The `Key: value` lines of a block. A line that is none (no colon, or not a key of the block) right after one is its
 * cut-off end; one that does not follow such a line starts a line whose end a wrap put on the next. A rest goes on
 * on the next line when it may have been cut again. Neither piece is read as it stands.
 */
function readBlock(lines: readonly string[], at: readonly number[], cuts: PasteCuts, from: number, to: number, keyShape: RegExp, set: (key: string, value: string) => void, refused: Refused[]): void {
  const field = (l: string) => {
    const kv = keyValue(l);
    return kv && keyShape.test(kv.key.trim()) ? { key: kv.key.trim(), value: kv.value } : undefined;
  };
  for (let i = from; i < to; i++) {
    if (lines[i].trim() === '') continue;
    const kv = field(lines[i]);
    // A line that is none of the block goes on a cut line; after a piece (no line of the block), a line whose key is
    // not one db2exfmt prints may be the rest of that piece (`EXPLAIN_REQUES` / `TER: …`).
    const goesOn = (j: number) => mayBeCut(cuts, at[j]) || !field(lines[j + 1]) || (!field(lines[j]) && !KNOWN_KEYS.has(field(lines[j + 1])!.key));
    let last = i;
    while (last + 1 < to && lines[last + 1].trim() !== '' && goesOn(last)) last++;
    if (last === i) {
      if (kv) set(kv.key, kv.value);
      continue;
    }
    const rest = lines.slice(i + 1, last + 1).map((l) => l.trim());
    // A number ends its line: its pieces are the lines of digits after it; a piece of anything else starts a line.
    const digits = kv ? rest.findIndex((r) => !FRAGMENT.test(r)) : 0;
    const number = kv && digits > 0 ? joinedValue(kv.key, kv.value, rest.slice(0, digits)) : undefined;
    if (kv && number !== undefined) {
      set(kv.key, number);
      i += digits;
      continue;
    }
    const joined = kv ? joinedValue(kv.key, kv.value, rest) : undefined;
    if (kv && joined !== undefined) set(kv.key, joined);
    else refused.push({ what: kv ? kv.key : `"${lines[i].trim()}"`, line: at[i] + 1, text: lines[i].trim(), rest: rest[0] });
    i = last;
  }
}

/**
 * The value of `key` put back from its pieces, or undefined when that cannot be done for certain: a value cut right
 * after its key is the one line after it; a number or a fixed-shape field (no blank in it) is its pieces end to end.
 */
function joinedValue(key: string, head: string, rest: string[]): string | undefined {
  if (head === '' && rest.length === 1 && keyValue(rest[0]) === undefined) return rest[0];
  const fixed = JOINED_FIELDS[key] ?? (NUMBER_CONTEXT.has(key) ? isDb2Number : undefined);
  if (!fixed || !rest.every((r) => FRAGMENT.test(r))) return undefined;
  const joined = head + rest.join('');
  return fixed(joined) ? joined : undefined;
}

function headerWarning(refused: Refused[]): { code: string; message: string; line: number } {
  const each = refused.map((r) => `${r.what} (line ${r.line}, "${r.text.slice(-16)}" / "${r.rest.slice(0, 16)}")`);
  const list = each.length === 1 ? each[0] : `${each.slice(0, -1).join(', ')} and ${each[each.length - 1]}`;
  return {
    code: 'wrapped-value',
    message: `The header's ${list} ${refused.length === 1 ? 'is' : 'are'} not used: the line goes on on the next one, cut where the paste was wrapped.`,
    line: refused[0].line,
  };
}
