// Re-parsing a script after an edit (issue 15: the editor re-parses only the statements whose text changed).
// The statements before the edit are kept as they are; from the last of them that the edit may touch, the
// text is parsed again until a statement starts where an old one started (moved by the edit's length) past
// the edit, from where the old statements are kept, moved by that length. The result equals parseSql of the
// whole new text (test/sql/incremental.test.ts checks this on random edits); where that could not be sure,
// undefined says "parse it all".
import { IDENTITY_ORIGIN, type Comment, type ParsedSql, type Span, type Statement, type StatementKind } from './ast';
import { parseStatementsFrom } from './parser';
import { PackedValues } from './grammar/values';
import { nowMs } from '../engine/clock';
import { partitionPoint } from '../engine/sorted';

/**
 * SQL PL and dynamic SQL: the parser keeps state across these (variables whose text it knows), and they hold
 * statements. A script with any of them is parsed whole.
 */
export const STATEFUL_KINDS: ReadonlySet<StatementKind> = new Set<StatementKind>([
  'createRoutine', 'compound', 'declareVariable', 'declareCondition', 'declareHandler', 'setVariable', 'if', 'case',
  'loop', 'jump', 'prepare', 'execute', 'executeImmediate', 'createTrigger',
]);

/**
 * Terminator directives (`--#SET TERMINATOR`, Data Studio's ScriptOptions) change the lexer's state mid-text, and
 * SET PASSTHRU the parser's (the statements up to SET PASSTHRU RESET are another database's).
 */
export const STATEFUL_DIRECTIVE = /#SET|ScriptOptions|PASSTHRU/i;

/** Tokens lexed per round when re-parsing: an edit usually touches one statement. */
const ROUND_TOKENS = 512;

/** VALUES rows of re-parsed statements are packed in 4 kB chunks (parser.ts ParseStart.rowChunkInts). */
const ROW_CHUNK_INTS = 1024;

export interface Reparsed extends ParsedSql {
  /** Old statements kept (before and after the edit) and statements parsed again. */
  kept: number;
  parsed: number;
}

/**
 * Where two texts differ: `before` and `after` agree up to `start`, and from `oldEnd` in `before` on equals
 * from `newEnd` in `after` on. An editor knows it from its change events (LSP incremental sync), so a keystroke
 * need not compare 3 MB of text (textChange does, when nobody said).
 */
export interface TextChange {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * The statements an edit read again, as a range of each list: those between the ones kept (the same objects) at the
 * start and at the end. Old statements [from, oldEnd) were replaced by new ones [from, newEnd).
 */
export function reparsedRange(olds: readonly Statement[], news: readonly Statement[]): { from: number; oldEnd: number; newEnd: number } {
  let from = 0;
  while (from < olds.length && from < news.length && olds[from] === news[from]) from++;
  let oldEnd = olds.length;
  let newEnd = news.length;
  while (oldEnd > from && newEnd > from && olds[oldEnd - 1] === news[newEnd - 1]) {
    oldEnd--;
    newEnd--;
  }
  return { from, oldEnd, newEnd };
}

/** The change between two texts, by scanning the common prefix and suffix. */
export function textChange(before: string, after: string): TextChange {
  const len0 = before.length;
  const len1 = after.length;
  const shortest = Math.min(len0, len1);
  let prefix = 0;
  while (prefix < shortest && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && before.charCodeAt(len0 - 1 - suffix) === after.charCodeAt(len1 - 1 - suffix)) suffix++;
  return { start: prefix, oldEnd: len0 - suffix, newEnd: len1 - suffix };
}

/** Whether `change` can describe going from a text of `len0` characters to one of `len1`. */
export function fitsLengths(change: TextChange, len0: number, len1: number): boolean {
  const { start, oldEnd, newEnd } = change;
  return Number.isInteger(start) && Number.isInteger(oldEnd) && Number.isInteger(newEnd) && start >= 0 && start <= oldEnd && start <= newEnd && oldEnd <= len0 && newEnd <= len1 && len0 - oldEnd === len1 - newEnd;
}

/**
 * Two changes one after the other as one: `first` from text A to B, `second` from B to C; the result goes
 * from A to C (it may cover unchanged text between the two, never less than what changed).
 */
export function composeChanges(first: TextChange, second: TextChange): TextChange {
  // In B, the union of what `first` wrote and what `second` replaced.
  const start = Math.min(first.start, second.start);
  const end = Math.max(first.newEnd, second.oldEnd);
  return { start, oldEnd: first.oldEnd + (end - first.newEnd), newEnd: second.newEnd + (end - second.oldEnd) };
}

export interface ReparseHints {
  /** What changed from `before` to `after` (checked against their lengths; scanned for when absent). */
  change?: TextChange;
  /**
   * The caller knows `previous` holds no statement that makes the parse stateful and `before` no terminator
   * directive (it came from an earlier reparseScript): only the changed text is searched for one.
   */
  plain?: boolean;
}

/**
 * parseSql(after, { terminator }) computed from `previous`, the parse of `before` with the same terminator.
 * The kept statements after the edit are the previous ones, moved in place: `previous` is used up.
 */
export function reparseScript(before: string, previous: ParsedSql, after: string, terminator: string, hints: ReparseHints = {}): Reparsed | undefined {
  const old = previous.statements;
  const len0 = before.length;
  const len1 = after.length;
  const change = hints.change && fitsLengths(hints.change, len0, len1) ? hints.change : textChange(before, after);
  if (hints.plain) {
    if (directiveNear(after, change.start, change.newEnd)) return undefined;
  } else {
    for (const stmt of old) if (STATEFUL_KINDS.has(stmt.kind) || stmt.origin !== IDENTITY_ORIGIN) return undefined;
    if (STATEFUL_DIRECTIVE.test(before) || STATEFUL_DIRECTIVE.test(after)) return undefined;
  }
  const prefix = change.start;
  const delta = len1 - len0;
  const changeEnd0 = change.oldEnd;
  const changeEnd1 = change.newEnd;

  // Restart at the statement before the last one that starts before the edit: the edit may end the one it is
  // in, or take away the terminator between them. Everything before the restart is unchanged text.
  // (A statement starts at its first token, right after the terminator of the one before.)
  // The splitter also looks up to LOOKAHEAD_WORDS words past a statement's first token (splitter.ts mayHoldBlock),
  // beyond its end for a short one: restart early enough that no kept statement looks into the edit.
  let restartIndex = Math.max(0, firstStartingFrom(old, prefix) - 1);
  restartIndex = Math.max(0, restartIndex - 1);
  while (restartIndex > 0 && wordsIn(before, old[restartIndex].span.start, prefix) <= LOOKAHEAD_WORDS) restartIndex--;
  const restart = restartIndex === 0 ? 0 : old[restartIndex].span.start;

  // Old statements after the edit, by their start: where the new parse meets one, the rest is the same.
  // The meeting statement must start on a line after the edit, so that the lexer's state at its start
  // (only blanks since the line break?) is the same in both texts.
  const lineAfterEdit = after.indexOf('\n', changeEnd1);
  const syncFrom = lineAfterEdit < 0 ? Infinity : lineAfterEdit + 1;
  // (Found by binary search: old statements are in text order. A map of them cost a keystroke ~10 ms at 50,000 lines.)
  const firstAfterEdit = firstStartingFrom(old, changeEnd0, restartIndex + 1);
  const oldStartingAt = (start: number): number | undefined => {
    const low = firstStartingFrom(old, start, firstAfterEdit);
    return low < old.length && old[low].span.start === start ? low : undefined;
  };

  const statements = old.slice(0, restartIndex);
  let keptFrom = -1;
  let syncStart1 = len1;
  let stateful = false;
  const fresh = parseStatementsFrom(after, terminator, IDENTITY_ORIGIN, { from: restart, lineStart: atLineStart(after, restart), roundTokens: ROUND_TOKENS, rowChunkInts: ROW_CHUNK_INTS }, (stmt) => {
    const start = stmt.span.start;
    if (start >= syncFrom) {
      const i = oldStartingAt(start - delta);
      if (i !== undefined) {
        keptFrom = i;
        syncStart1 = start;
        return false;
      }
    }
    if (STATEFUL_KINDS.has(stmt.kind)) stateful = true;
    statements.push(stmt);
    return true;
  });
  if (stateful) return undefined;
  const parsed = statements.length - restartIndex;
  if (keptFrom >= 0) {
    const moved = old.slice(keptFrom);
    if (delta !== 0) for (const stmt of moved) shiftStatement(stmt, delta);
    for (const stmt of moved) statements.push(stmt);
  }
  // Comments: the old ones before the restart, the new ones up to where the old statements were met, the old
  // ones after that (moved).
  // (Old comments are in text order: found by binary search, not by a loop over all of them per keystroke.)
  const oldComments = previous.comments;
  const syncStart0 = syncStart1 - delta;
  const comments: Comment[] = oldComments.slice(0, firstStartingFrom(oldComments, restart));
  for (const c of fresh) if (c.span.start < syncStart1) comments.push(c);
  if (keptFrom >= 0) {
    for (let i = firstStartingFrom(oldComments, syncStart0); i < oldComments.length; i++) {
      const c = oldComments[i];
      comments.push(delta === 0 ? c : { ...c, span: { start: c.span.start + delta, end: c.span.end + delta } });
    }
  }
  return { statements, comments, kept: statements.length - parsed, parsed };
}

/** The index of the first item from `from` on that starts at or after `offset` (statements or comments, in text order). */
function firstStartingFrom(items: readonly { span: { start: number } }[], offset: number, from = 0): number {
  return partitionPoint(items, (item) => item.span.start < offset, from);
}

/** The longest word STATEFUL_DIRECTIVE looks for ("ScriptOptions"). */
const DIRECTIVE_REACH = 13;

/** Whether a terminator directive may be in `text` around [from, to): the text written, and words it may complete. */
function directiveNear(text: string, from: number, to: number): boolean {
  return STATEFUL_DIRECTIVE.test(text.slice(Math.max(0, from - DIRECTIVE_REACH), Math.min(text.length, to + DIRECTIVE_REACH)));
}

/** More than the words splitter.ts mayHoldBlock reads after a statement's first token. */
const LOOKAHEAD_WORDS = 10;

/** Words (identifiers, keywords) in text[from, to), outside strings, delimited names and comments; stops counting past the lookahead. */
function wordsIn(text: string, from: number, to: number): number {
  let words = 0;
  let i = from;
  while (i < to && words <= LOOKAHEAD_WORDS) {
    const c = text.charCodeAt(i);
    if (c === 39 || c === 34) {
      const close = text.indexOf(c === 39 ? "'" : '"', i + 1);
      i = close < 0 ? to : close + 1;
    } else if (c === 45 && text.charCodeAt(i + 1) === 45) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? to : eol + 1;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? to : close + 2;
    } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) {
      words++;
      while (i < to && /[\w$#@]/.test(text[i])) i++;
    } else i++;
  }
  return words;
}

/** Only blanks between the last line break (or the start) and `offset`: the lexer's `lineStart` there. */
function atLineStart(text: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
    if (c !== 32 && c !== 9 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/**
 * Moves every span of a statement by `delta`, in place (the statement is reused after an edit before it). Spans are
 * the objects with numeric `start` and `end`; frozen objects are shared constants (an empty VALUES list).
 */
export function shiftStatement(stmt: Statement, delta: number): void {
  // The spans are found once per statement (a parsed statement does not change shape): typing keeps moving the
  // same statements after the cursor, and walking their object graphs every time cost ~10 ms at 50,000 lines.
  let spans = SPANS.get(stmt);
  if (!spans) SPANS.set(stmt, (spans = spansOf(stmt)));
  for (const o of spans) {
    if (o instanceof PackedValues) o.shiftBy(delta);
    else {
      o.start += delta;
      o.end += delta;
    }
  }
}

const SPANS = new WeakMap<Statement, (Span | PackedValues)[]>();

/**
 * Finds the spans shiftStatement moves for `statements` from index `from` on, for about `budgetMs`, and returns
 * the index to go on from (statements.length when done). The language server calls it in idle slices after
 * reading a document whole: otherwise the first keystroke found them for every statement after it (~50 ms of
 * a 200 ms first keystroke at 50,000 lines).
 */
export function prepareShifts(statements: readonly Statement[], from: number, budgetMs: number): number {
  const until = nowMs() + budgetMs;
  let i = from;
  while (i < statements.length) {
    const stmt = statements[i++];
    if (!SPANS.has(stmt)) SPANS.set(stmt, spansOf(stmt));
    if ((i & 63) === 0 && nowMs() > until) break;
  }
  return i;
}

/** The objects shiftStatement moves: spans and packed VALUES lists (with their spans and rows), each once. */
function spansOf(stmt: Statement): (Span | PackedValues)[] {
  const out: (Span | PackedValues)[] = [];
  const seen = new Set<object>();
  const stack: object[] = [stmt];
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (seen.has(o) || Object.isFrozen(o)) continue;
    seen.add(o);
    if (o instanceof PackedValues) {
      out.push(o);
      continue;
    }
    if (Array.isArray(o)) {
      for (const v of o) if (v !== null && typeof v === 'object') stack.push(v);
      continue;
    }
    const record = o as Record<string, unknown>;
    if (typeof record.start === 'number' && typeof record.end === 'number') out.push(record as unknown as Span);
    for (const key in record) {
      if (key === 'origin') continue;
      const v = record[key];
      if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) stack.push(v);
    }
  }
  return out;
}
