// The statement terminator a script is run with. It is given to the CLP from outside the file
// (`db2 -td@ -vf x.sql`, `db2 -vf x.sql` without -t), so most scripts never name it; reading an
// `@` script with `;` turns each SQL PL routine into a dozen broken statements, and a `/` script
// into a few huge ones. This looks at what the file shows: a comment naming -td<x> (alone, or in a `db2`
// command's options: `db2 -vtd@ -f x.sql`), how lines end (`@`, `!`), lines holding only `/` or `@`, blocks
// closed by `END@`. One linear pass, no allocation per line; files that set the terminator themselves
// (`--#SET TERMINATOR`) are left to the lexer.
// It also notes a comment naming the CLP with `-t` and no d<x> (`db2 -tvf x.sql`): ';' ends every statement,
// so a routine whose body holds ';' is cut there (the front end reads it whole, as Flyway or JDBC send it).
// Given the file's name, a comment's `db2` command that runs another file (`db2 -tvf tables.sql` in procs.sql)
// is not read as saying how this one runs.
import { partitionPoint } from '../engine/sorted';

export interface TerminatorChoice {
  /** The initial terminator for the lexer: ';', '@', '/', '!', …, or '\n' (CLP without -t: one command per line). */
  terminator: string;
  /** Why, for messages: "a comment names -td@", "40 lines end in '@'". */
  reason: string;
}

/**
 * A comment that says the script is run with the CLP's `-t` and no d<x> (`db2 -tvf x.sql`, `db2 -x -t -v -f`,
 * `db2 +c -stvf`): where the command is (file offsets, from `db2` to its last option) and how it is written.
 */
export interface SemicolonComment {
  span: { start: number; end: number };
  command: string;
}

/** How much of a file the inference reads: a script shows its style long before 1 MB (a 60 MB script would cost 100 ms). */
const SCAN_LIMIT = 1024 * 1024;

/**
 * And how much of the end of a longer file: a generated routine longer than a megabyte shows only inner ';' lines
 * there, and its END@ comes at the end (60,000 INSERTs in one BEGIN … END were read with ';' and came out one
 * broken statement).
 */
const TAIL_CHARS = 64 * 1024;

/** Where the scan of the end of a text of `length` characters starts (a line start at or after it), or undefined when the head scan reads it all. */
function tailFrom(length: number): number | undefined {
  return length > SCAN_LIMIT ? Math.max(SCAN_LIMIT, length - TAIL_CHARS) : undefined;
}

/**
 * Whether an edit of a text, from `offset` on in the text before it, can change what inferTerminator infers: it
 * reads the first megabyte, and the last TAIL_CHARS of a longer text (`length`, after the edit; `end`, where the
 * edited text ends in it: text from there on is as it was).
 */
export function inferenceReads(offset: number, length = 0, end = offset): boolean {
  const tail = tailFrom(length);
  return offset < SCAN_LIMIT || (tail !== undefined && end >= tail - 1);
}

/** First words of lines in a script run without -t (`db2 -vf`), where each line is one command. */
const COMMAND_WORDS = new Set([
  'ACTIVATE', 'ALTER', 'ATTACH', 'BACKUP', 'BIND', 'CALL', 'CATALOG', 'COMMENT', 'COMMIT', 'CONNECT', 'CREATE',
  'DB2', 'DEACTIVATE', 'DECLARE', 'DELETE', 'DESCRIBE', 'DETACH', 'DISCONNECT', 'DROP', 'ECHO', 'EXPORT',
  'FORCE', 'GET', 'GRANT', 'IMPORT', 'INSERT', 'LIST', 'LOAD', 'LOCK', 'QUIESCE', 'REBIND', 'REORG', 'RESTORE',
  'REVOKE', 'ROLLBACK', 'RUNSTATS', 'SELECT', 'SET', 'TERMINATE', 'UNCATALOG', 'UPDATE', 'VALUES',
]);

const enum Code {
  Newline = 10,
  Return = 13,
  Quote = 39,
  DoubleQuote = 34,
  Dash = 45,
  Slash = 47,
  Star = 42,
  Semicolon = 59,
  At = 64,
  Bang = 33,
  Backslash = 92,
  Plus = 43,
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;
}

function isIdentChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 35 || c === 36 || c === 64;
}

function isAlphaNumeric(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Line statistics gathered by the scan. */
interface LineCounts {
  codeLines: number;
  semicolonEnd: number;
  atEnd: number;
  bangEnd: number;
  backslashEnd: number;
  /** Lines whose code is only `/`, and of those the ones right after a line ending in `;` (SQL*Plus blocks). */
  slashOnly: number;
  slashAfterSemicolon: number;
  /** Lines that are only `@` / `!`, or end with END@ / END!. */
  atBlockEnds: number;
  bangBlockEnds: number;
  /** Lines starting with a CLP command word (counted until a `;` is seen), and whether any `;` appears in code at all. */
  commandLines: number;
  anySemicolon: boolean;
}

/**
 * The terminator the file shows it is run with, or undefined for the CLP's `-t` default (`;`) and for
 * files that switch it themselves with `--#SET TERMINATOR`.
 */
export function inferTerminator(text: string, options: ScanOptions = {}): TerminatorChoice | undefined {
  return scanTerminator(text, options).choice;
}

/**
 * `plainLines: false` reads every line the long way (see PLAIN_LINE; the test compares). `name`: the file's path or
 * name, when known: a comment's `db2` command that runs another file (`db2 -td@ -vf other.sql`) does not say how
 * this one is run (see otherFile).
 */
interface ScanOptions {
  plainLines?: boolean;
  name?: string;
}

/** Where the scan is at a line start: what the lines before it showed, and the state it carries into the line. */
interface ScanPoint {
  offset: number;
  blockDepth: number; // inside /* … */ (nested)
  inString: boolean; // inside '…' (may span lines)
  inDelimited: boolean; // inside "…"
  previousEndedWithSemicolon: boolean;
  counts: LineCounts;
  named?: TerminatorChoice;
  /** The first comment naming `db2 -t` (SemicolonComment); null once a comment names the CLP with another terminator (-td@). */
  semicolon?: SemicolonComment | null;
}

/**
 * inferTerminator's answer with the scan's state at every CHECKPOINT_LINES-th line start (`points`, absent
 * when a directive ended the scan or the text is longer than the scan reads), so that an edit can scan again
 * from the line before it up to where the state meets the old scan's (rescanTerminator).
 */
export interface TerminatorScan {
  choice: TerminatorChoice | undefined;
  points?: ScanPoint[];
  end?: ScanPoint;
  /** Where a rescan met the old scan (the offset of the line start in the new text), if it did. */
  metAt?: number;
  /**
   * A comment says the script runs with `db2 -t` (';' ends every statement), and none names another terminator
   * (-td<x>, SET STATEMENT TERMINATOR) in what the scan reads. `--#SET TERMINATOR` further on is the lexer's.
   */
  semicolonComment?: SemicolonComment;
  /** The file's path or name the scan read the comments' `db2` commands against (ScanOptions.name), if given. */
  name?: string;
}

/** Lines between two saved points: a keystroke scans again at most about this many lines (~3 kB). */
const CHECKPOINT_LINES = 64;

export function scanTerminator(text: string, options: ScanOptions = {}): TerminatorScan {
  // As given: its base name is worked out where a comment's `db2` command names a file (noteClpCommand), which
  // few scripts hold; every script read paid for it (~1 µs of a one-line script read cold).
  const name = options.name;
  const scan = scanText(text, options.plainLines ?? true, name);
  if (name !== undefined) scan.name = name;
  return scan;
}

function scanText(text: string, plainLines: boolean, name: string | undefined): TerminatorScan {
  const start: ScanPoint = { offset: 0, blockDepth: 0, inString: false, inDelimited: false, previousEndedWithSemicolon: false, counts: newCounts() };
  const points: ScanPoint[] = [];
  const result = scanLines(text, start, Math.min(text.length, SCAN_LIMIT), points, plainLines, name);
  if ('directive' in result) return withSemicolon({ choice: result.directive }, result.directive, start);
  const from = tailFrom(text.length);
  if (from === undefined) return withSemicolon({ choice: start.named ?? fromLines(start.counts), points, end: start }, undefined, start);
  // The end of a longer text, from a line start, taken to be outside comments and strings; its lines add to the head's.
  const tail: ScanPoint = { offset: text.indexOf('\n', from - 1) + 1 || text.length, blockDepth: 0, inString: false, inDelimited: false, previousEndedWithSemicolon: false, counts: newCounts() };
  // A --#SET TERMINATOR there switches for what follows it: the file starts as the head shows, the tail says nothing.
  const tailResult = scanLines(text, tail, text.length, [], plainLines, name);
  if ('directive' in tailResult) return withSemicolon({ choice: start.named ?? fromLines(start.counts), end: start }, tailResult.directive, start, tail);
  return withSemicolon({ choice: start.named ?? tail.named ?? fromLines(addCounts(start.counts, tail.counts, newCounts())), end: start }, undefined, start, tail);
}

/**
 * `scan` with its semicolonComment: the first `db2 -t` comment of `head` (then `tail`), unless a comment names
 * another terminator (a -td<x> in either, or `directive`, a SET STATEMENT TERMINATOR the scan stopped at).
 */
function withSemicolon(scan: TerminatorScan, directive: TerminatorChoice | undefined, head: ScanPoint, tail?: ScanPoint): TerminatorScan {
  if (directive !== undefined || head.named !== undefined || head.semicolon === null || tail?.named !== undefined || tail?.semicolon === null) return scan;
  const found = head.semicolon ?? tail?.semicolon;
  if (found) scan.semicolonComment = found;
  return scan;
}

/**
 * `scan`, the scan of a text before an edit (`change`) that cannot change what it infers (inferenceReads):
 * with its semicolonComment moved when it is after the edit (at the end of a longer text).
 */
export function scanAfterEdit(scan: TerminatorScan, change: { start: number; oldEnd: number; newEnd: number }): TerminatorScan {
  const found = scan.semicolonComment;
  if (!found || found.span.start < change.oldEnd) return scan;
  return { ...scan, semicolonComment: movedComment(found, change.newEnd - change.oldEnd) };
}

function movedComment(found: SemicolonComment, delta: number): SemicolonComment {
  return delta === 0 ? found : { span: { start: found.span.start + delta, end: found.span.end + delta }, command: found.command };
}

/**
 * scanTerminator(after) from `scan`, the scan of `before`, and the change between them (see sql/incremental.ts
 * TextChange). Lines before the change keep their points; from the last point before it the lines are scanned
 * again until a line start past the change where an old point stood with the same state: the rest of the text
 * is the same and adds what it added before.
 */
export function rescanTerminator(scan: TerminatorScan, before: string, after: string, change: { start: number; oldEnd: number; newEnd: number }): TerminatorScan {
  const name = scan.name;
  const rescanned = rescanText(scan, before, after, change, name);
  if (name !== undefined) rescanned.name = name;
  return rescanned;
}

function rescanText(scan: TerminatorScan, before: string, after: string, change: { start: number; oldEnd: number; newEnd: number }, name: string | undefined): TerminatorScan {
  const old = scan.points;
  if (!old || old.length === 0 || !scan.end || before.length > SCAN_LIMIT || after.length > SCAN_LIMIT) return scanText(after, true, name);
  const delta = change.newEnd - change.oldEnd;
  // The last point at or before the line the change starts on (points are at line starts, the first at 0).
  const from = Math.max(0, partitionPoint(old, (point) => point.offset <= change.start) - 1);
  const points = old.slice(0, from);
  const at = copyPoint(old[from]);
  let k = from + 1;
  let met: ScanPoint | undefined;
  const result = scanLines(after, at, after.length, points, true, name, (lineStart) => {
    if (lineStart < change.newEnd) return false;
    while (k < old.length && old[k].offset + delta < lineStart) k++;
    const o = old[k];
    if (!o || o.offset + delta !== lineStart || !sameState(o, at)) return false;
    met = o;
    return true;
  });
  if ('directive' in result) return withSemicolon({ choice: result.directive }, result.directive, at);
  if (!met) return withSemicolon({ choice: at.named ?? fromLines(at.counts), points, end: at }, undefined, at);
  // From the meeting point on: the old points and end, moved, with what the new lines before it added.
  const m = met as ScanPoint;
  // What the old scan found before the meeting point and the new one did not: whether the rest of the old scan
  // has one too is not known (a -td@ comment, a ';' in code: the scan stops counting ';' after the first).
  if ((m.named !== undefined && at.named === undefined) || (m.counts.anySemicolon && !at.counts.anySemicolon)) return scanText(after, true, name);
  // The same for a db2 -t comment (the old first one may be before the meeting point), and for a comment naming
  // another terminator (null stays null: whether the rest had one too is not known).
  if ((m.semicolon && at.semicolon === undefined) || (m.semicolon === null && at.semicolon !== null)) return scanText(after, true, name);
  const moved = (p: ScanPoint): ScanPoint => ({
    ...p,
    offset: p.offset + delta,
    counts: addCounts(at.counts, p.counts, m.counts),
    named: at.named ?? p.named,
    semicolon: at.semicolon === null || p.semicolon === null ? null : (at.semicolon ?? (p.semicolon && movedComment(p.semicolon, delta))),
  });
  for (let i = k; i < old.length; i++) points.push(moved(old[i]));
  const end = moved(scan.end);
  return withSemicolon({ choice: end.named ?? fromLines(end.counts), points, end, metAt: m.offset + delta }, undefined, end);
}

function newCounts(): LineCounts {
  return { codeLines: 0, semicolonEnd: 0, atEnd: 0, bangEnd: 0, backslashEnd: 0, slashOnly: 0, slashAfterSemicolon: 0, atBlockEnds: 0, bangBlockEnds: 0, commandLines: 0, anySemicolon: false };
}

function copyPoint(p: ScanPoint): ScanPoint {
  return { ...p, counts: { ...p.counts } };
}

function sameState(a: ScanPoint, b: ScanPoint): boolean {
  return a.blockDepth === b.blockDepth && a.inString === b.inString && a.inDelimited === b.inDelimited && a.previousEndedWithSemicolon === b.previousEndedWithSemicolon;
}

/** `now` plus what the old scan added from `base` to `total` (a ';' after `base` when `base` had none yet). */
function addCounts(now: LineCounts, total: LineCounts, base: LineCounts): LineCounts {
  const out = newCounts();
  for (const key of Object.keys(out) as (keyof LineCounts)[]) if (key !== 'anySemicolon') out[key] = now[key] + (total[key] - base[key]);
  out.anySemicolon = now.anySemicolon || (total.anySemicolon && !base.anySemicolon);
  return out;
}

/**
 * Scans the lines from `at.offset` up to `n`, updating `at` (it ends as the point at `n`) and saving a copy
 * of it at every CHECKPOINT_LINES-th line start into `points`; `meets(lineStart)` may stop it at a line start.
 * A directive comment ends the scan with its answer. `name`: the file's path or name, as ScanOptions.name.
 */
function scanLines(text: string, at: ScanPoint, n: number, points: ScanPoint[], plainLines: boolean, name: string | undefined, meets?: (lineStart: number) => boolean): { directive: TerminatorChoice | undefined } | { stopped: boolean } {
  let lineStart = at.offset;
  let lines = 0;
  let nextSemicolon = -1; // the first ';' at or after the last line start it was looked for from (Infinity: none)
  let commandEnd = -1; // the end of the options of the last `db2` command read in a block comment (on this line: a command is one line)
  while (lineStart < n) {
    at.offset = lineStart;
    if (meets && lines > 0 && meets(lineStart)) return { stopped: true };
    if (lines % CHECKPOINT_LINES === 0) points.push(copyPoint(at));
    lines++;
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0 || lineEnd > n) lineEnd = n;
    // Code on this line: first and last character outside comments; whether the last one is in a string.
    let first = -1;
    let last = -1;
    let lastInString = false;
    // Most lines of a big script are plain (see PLAIN_LINE): read with one regular expression instead of a
    // loop over each character, which ran a third of the start of a run before V8 had optimised it (~40 ms
    // for the 1 MB read here).
    let plain = false;
    // (Not for a line the scan limit cuts: the loop reads it only up to the limit.)
    if (plainLines && at.blockDepth === 0 && !at.inString && !at.inDelimited && (lineEnd < n || n === text.length)) {
      PLAIN_LINE.lastIndex = lineStart;
      plain = PLAIN_LINE.test(text) && PLAIN_LINE.lastIndex >= lineEnd;
      // Whether a ';' is code or in a string only matters until the first ';' in code. The next ';' is found
      // once per ';' (a search per line would be quadratic in a script without any).
      if (plain && !at.counts.anySemicolon) {
        if (nextSemicolon < lineStart) {
          const found = text.indexOf(';', lineStart);
          nextSemicolon = found < 0 ? Infinity : found;
        }
        // A ';' on a plain line is in code unless it is in one of the line's strings: found natively too. The
        // first statement line of nearly every script has one, and this loop read it character by character
        // before V8 had optimised it (~6 µs of a one-line script read cold, most of its inference).
        if (nextSemicolon < lineEnd) {
          CODE_SEMICOLON.lastIndex = lineStart;
          if (CODE_SEMICOLON.test(text) && CODE_SEMICOLON.lastIndex <= lineEnd) at.counts.anySemicolon = true;
        }
      }
    }
    if (plain) {
      first = lineStart;
      while (first < lineEnd && isSpace(text.charCodeAt(first))) first++;
      if (first === lineEnd) first = -1;
      else {
        last = lineEnd - 1;
        while (isSpace(text.charCodeAt(last))) last--;
        // A closing quote ends the line's last string: the line's code ends in a string, as the loop below has it.
        const c = text.charCodeAt(last);
        lastInString = c === Code.Quote || c === Code.DoubleQuote;
      }
    }
    for (let i = plain ? lineEnd : lineStart; i < lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (at.blockDepth > 0) {
        if (c === Code.Star && text.charCodeAt(i + 1) === Code.Slash) {
          at.blockDepth--;
          i++;
        } else if (c === Code.Slash && text.charCodeAt(i + 1) === Code.Star) {
          at.blockDepth++;
          i++;
        } else if (c === Code.Dash && at.named === undefined && i >= commandEnd) {
          // An option of a `db2` command before it on the line (`/* run: db2 -tvf x.sql */`, `db2 -vtd@ -f x.sql`):
          // the command says what its options say (nothing when it runs another file); else a -td<x> of its own.
          let end = -1;
          if (i > lineStart && isBlank(text.charCodeAt(i - 1)) && isLetter(text.charCodeAt(i + 1))) {
            const word = clpWordBefore(text, i, lineStart);
            if (word >= 0) end = noteClpCommand(at, text, word, lineEnd, i, name);
          }
          if (end >= 0) commandEnd = end;
          else at.named = namedInComment(text, i);
        } else if (c !== Code.Star && c !== Code.Slash && c !== Code.Dash) {
          // On to the next character that can matter in a comment (a banner's text is most of some scripts).
          COMMENT_TEXT.lastIndex = i;
          COMMENT_TEXT.test(text);
          i = Math.min(COMMENT_TEXT.lastIndex, lineEnd) - 1;
        }
        continue;
      }
      if (at.inString || at.inDelimited) {
        if ((at.inString && c === Code.Quote) || (at.inDelimited && c === Code.DoubleQuote)) at.inString = at.inDelimited = false;
        last = i;
        lastInString = true;
        continue;
      }
      if (c === Code.Dash && text.charCodeAt(i + 1) === Code.Dash) {
        // A line comment: the CLP's own directives, or a -td<x> the script is documented to run with.
        const directive = directiveAt(text, i + 2, lineEnd);
        if (directive !== undefined) return { directive: directive === 'set' ? undefined : { terminator: directive, reason: `a comment says SET STATEMENT TERMINATOR = '${directive}'` } };
        // Only a '-' before t/T and d/D can name it: found natively (this ran character by character, before
        // V8 had optimised it, over every comment line of the first scripts of a run). So is a `db2 ` that may
        // start a command with -t (`db2 -tvf x.sql`, `db2 -vtd@ -f x.sql`): its options are read past at once.
        for (let j = i + 2; j < lineEnd && at.named === undefined; ) {
          NAMED_TD_OR_DB2.lastIndex = j;
          if (!NAMED_TD_OR_DB2.test(text)) break;
          const k = NAMED_TD_OR_DB2.lastIndex;
          if (isBlank(text.charCodeAt(k - 1))) {
            // `db2` and a blank: the options after it.
            if (k - 1 >= lineEnd) break;
            j = Math.max(k - 1, noteClpCommand(at, text, k - 4, lineEnd, -1, name));
            continue;
          }
          const dash = k - 3;
          if (dash >= lineEnd) break;
          at.named = namedInComment(text, dash);
          j = dash + 1;
        }
        break;
      }
      if (c === Code.Slash && text.charCodeAt(i + 1) === Code.Star && !(first >= 0 && text.charCodeAt(i - 1) === Code.Slash)) {
        at.blockDepth = 1;
        i++;
        continue;
      }
      if (isSpace(c)) continue;
      if (first < 0) first = i;
      last = i;
      lastInString = false;
      if (c === Code.Quote) {
        at.inString = true;
        lastInString = true;
      } else if (c === Code.DoubleQuote) {
        at.inDelimited = true;
        lastInString = true;
      } else if (c === Code.Semicolon) {
        at.counts.anySemicolon = true;
      }
    }
    if (first >= 0) {
      at.counts.codeLines++;
      const endChar = lastInString ? -1 : text.charCodeAt(last);
      if (first === last && endChar === Code.Slash) {
        at.counts.slashOnly++;
        if (at.previousEndedWithSemicolon) at.counts.slashAfterSemicolon++;
      }
      if (endChar === Code.Semicolon) at.counts.semicolonEnd++;
      else if (endChar === Code.At) {
        at.counts.atEnd++;
        if (first === last || endsWithEnd(text, first, last)) at.counts.atBlockEnds++;
      } else if (endChar === Code.Bang && !closesPlaceholder(text, first, last)) {
        at.counts.bangEnd++;
        if (first === last || endsWithEnd(text, first, last)) at.counts.bangBlockEnds++;
      } else if (endChar === Code.Backslash) at.counts.backslashEnd++;
      // Only read while no ';' is seen: fromLines compares it with codeLines only for a text without any.
      if (!at.counts.anySemicolon && startsWithCommand(text, first, last)) at.counts.commandLines++;
      at.previousEndedWithSemicolon = endChar === Code.Semicolon;
    }
    lineStart = lineEnd + 1;
  }
  at.offset = n;
  return { stopped: false };
}

/**
 * A line that opens no comment and whose strings and delimited identifiers all close on it: no quote, dash or
 * slash outside closed '…' and "…" (up to the line end; `lastIndex` tells whether it got there).
 */
const PLAIN_LINE = /(?:[^'"\/\n-]|'[^'\n]*'|"[^"\n]*")*/y;

/** On a plain line (PLAIN_LINE), from its start: up to and with the first ';' outside its strings, if there is one. */
const CODE_SEMICOLON = /(?:[^'";\n]|'[^'\n]*'|"[^"\n]*")*;/y;

/**
 * The next -td (any case) on the line from `lastIndex`, or the next word `db2` (any case) and the blank after it,
 * whichever comes first: lazily up to it, never past a line break.
 */
const NAMED_TD_OR_DB2 = /[^\n]*?(?:-[tT][dD]|(?<![0-9A-Za-z_#$@])[dD][bB]2[ \t])/y;

/** Text inside a block comment that can neither close nor open one nor name -td<x> (up to the line end). */
const COMMENT_TEXT = /[^*\/\n-]*/y;

function fromLines(c: LineCounts): TerminatorChoice | undefined {
  // SQL*Plus puts a lone / after "END;" of a PL/SQL block; Db2 scripts run with -td/ end every statement with it.
  if (c.slashOnly > 0 && c.slashOnly - c.slashAfterSemicolon > c.slashAfterSemicolon) {
    return { terminator: '/', reason: `${c.slashOnly} line${c.slashOnly === 1 ? ' holds' : 's hold'} only '/'` };
  }
  // '@' first, then '!' (two calls, not a loop over a list of tuples made for every script read).
  const ended = endsChoice('@', c.atEnd, c.atBlockEnds, c.semicolonEnd) ?? endsChoice('!', c.bangEnd, c.bangBlockEnds, c.semicolonEnd);
  if (ended) return ended;
  // Run with `db2 -vf` (no -t): every line is a command, and a trailing backslash continues it.
  if (c.backslashEnd > 2 && c.backslashEnd > c.semicolonEnd) {
    return { terminator: '\n', reason: `${c.backslashEnd} lines continue with '\\' (a script run without -t)` };
  }
  if (!c.anySemicolon && c.codeLines > 1 && c.commandLines === c.codeLines) {
    return { terminator: '\n', reason: 'no terminators and every line is a command (a script run without -t)' };
  }
  return undefined;
}

/** Lines ending in `ch` (`ends`, of which `blockEnds` close blocks) against those ending in ';': whether `ch` is the terminator. */
function endsChoice(ch: '@' | '!', ends: number, blockEnds: number, semicolonEnd: number): TerminatorChoice | undefined {
  if (ends === 0) return undefined;
  if (ends >= semicolonEnd) return { terminator: ch, reason: `${ends} line${ends === 1 ? ' ends' : 's end'} in '${ch}', ${semicolonEnd} in ';'` };
  // SQL PL scripts have many inner ';' but their blocks end with END@ or a lone @ line, and their
  // statements outside blocks end in '@' (a stray '@' at a line end is rare: once, not a quarter as often).
  if (ends >= 2 && 4 * ends >= semicolonEnd) return { terminator: ch, reason: `${ends} lines end in '${ch}' (${semicolonEnd} in ';', inside SQL PL bodies)` };
  if (blockEnds > 0) return { terminator: ch, reason: `${blockEnds} block${blockEnds === 1 ? ' ends' : 's end'} with END${ch} or a line holding only '${ch}'` };
  return undefined;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** The options of the CLP (`db2 -a … -z file`), by lower-case letter; +x turns x off. */
const CLP_OPTIONS = new Set('acdefilmnopqrstvwxz'.split('').map((ch) => ch.charCodeAt(0)));

/** Options whose value is the next word: -f file, -z file, -r file, -l file. */
const CLP_FILE_OPTIONS = new Set('fzrl'.split('').map((ch) => ch.charCodeAt(0)));

/** Characters that may close a command quoted in a comment ("db2 -tvf x.sql", (db2 -t)). */
function closesQuote(c: number): boolean {
  return c === 34 || c === 39 || c === 41 || c === 96 || c === 44 || c === 46 || c === 58;
}

/** Characters after a file name that end the command (those, and ';': `db2 -tvf x.sql; then …`). */
function endsFileName(c: number): boolean {
  return closesQuote(c) || c === Code.Semicolon;
}

/**
 * What readClpCommand read of a `db2` command (one object, filled again for each command: no allocation per call).
 */
const clp = {
  /** Where the reading stopped: at the first word that is neither an option nor the file of one (or the line end). */
  end: 0,
  /** Whether `reach` is among the options read (true without one). */
  reached: false,
  /** The end of the command to quote when one option is -t without d<x> (or -td;): -1 when none is. */
  semicolonEnd: -1,
  /** An option turns -t off (+t) or names another terminator (-td<x>, x not ';'). */
  other: false,
  /** The first -td<x> (x not ';'): x, when it can be a terminator (namesTerminator), else -1. */
  terminator: -1,
  /** The word after -f, the file the command runs (fileStart -1: none). */
  fileStart: -1,
  fileEnd: -1,
};

/**
 * Reads into `clp` the options of a `db2` command whose word ends at `from`, up to `to` (the line end). Options
 * are letters, several after one '-' (`-tvf`), in any order; `d` right after `t` and the character after it set
 * the terminator (`-td@`, `-vtd@`; in `-tvd@` the t has no d<x> and d is the XML-declaration option, so '@' is no
 * option and the word is not read as options). `reach`, when not -1, must be among the options read (a dash of a
 * block comment the command was found from).
 */
function readClpCommand(text: string, from: number, to: number, reach: number): void {
  let i = from;
  let quoteEnd = -1; // the end of the options before the first file name
  let tEnd = -1;
  let fileNext = false;
  let inputNext = false; // the word after -f
  let beforeFile = true;
  clp.reached = reach < 0;
  clp.other = false;
  clp.terminator = -1;
  clp.fileStart = clp.fileEnd = -1;
  for (let words = 0; words < 12; words++) {
    while (i < to && isSpace(text.charCodeAt(i))) i++;
    if (i >= to) break;
    let j = i;
    while (j < to && !isSpace(text.charCodeAt(j))) j++;
    const sign = text.charCodeAt(i);
    if (sign !== Code.Dash && sign !== Code.Plus) {
      // Not an option: the file after -f (or -z, -r, -l), else the end of the options.
      if (!fileNext) break;
      if (inputNext && clp.fileStart < 0) {
        clp.fileStart = i;
        clp.fileEnd = j;
      }
      fileNext = inputNext = false;
      beforeFile = false;
      i = j;
      // A file name a quote or a sentence closes (`"db2 -tvf x.sql"`, `db2 -tvf x.sql, then`) ends the command.
      if (endsFileName(text.charCodeAt(j - 1))) break;
      continue;
    }
    // An option word: letters of CLP options; d and a character right after t name the terminator.
    let k = i + 1;
    let t = false;
    let terminator = -1; // after -td: its character (NaN at the end of the word)
    let last = 0;
    while (k < j) {
      const ch = text.charCodeAt(k);
      if (!isLetter(ch) || !CLP_OPTIONS.has(ch | 32)) break;
      last = ch | 32;
      k++;
      if (last === 116 && !t) {
        t = true;
        if (k < j && (text.charCodeAt(k) | 32) === 100) {
          terminator = k + 1 < j ? text.charCodeAt(k + 1) : NaN;
          k = Math.min(j, k + 2);
          break;
        }
      }
    }
    // '-' alone, '--', '-1', '-type', '-tvd@': not options. A quoted command may close right after one.
    if (k === i + 1 || (k < j && terminator === -1 && !closesQuote(text.charCodeAt(k)))) break;
    if (reach >= i && reach < j) clp.reached = true;
    if (t) {
      if (sign === Code.Plus || (terminator !== -1 && terminator !== Code.Semicolon)) {
        if (!clp.other && sign === Code.Dash && namesTerminator(terminator)) clp.terminator = terminator;
        clp.other = true;
      } else tEnd = Math.max(tEnd, k);
    }
    if (beforeFile) quoteEnd = k;
    fileNext = sign === Code.Dash && terminator === -1 && CLP_FILE_OPTIONS.has(last);
    inputNext = fileNext && last === 102;
    if (k < j && terminator === -1) {
      i = j;
      break;
    }
    i = j;
  }
  clp.end = i;
  clp.semicolonEnd = tEnd < 0 ? -1 : Math.max(quoteEnd, tEnd);
}

/**
 * Notes in `at` what the `db2` command at `word` says of the terminator (see readClpCommand; `reach` as there):
 * nothing when it runs a file other than `name` (otherFile). Returns where its options end, or -1 when they do
 * not reach `reach`.
 */
function noteClpCommand(at: ScanPoint, text: string, word: number, to: number, reach: number, name: string | undefined): number {
  readClpCommand(text, word + 3, to, reach);
  if (!clp.reached) return -1;
  if (name !== undefined && clp.fileStart >= 0) {
    const base = baseName(name);
    if (base !== undefined && otherFile(text, clp.fileStart, clp.fileEnd, base)) return clp.end;
  }
  if (clp.other) {
    at.semicolon = null;
    if (clp.terminator >= 0 && at.named === undefined) at.named = namedChoice(clp.terminator);
  } else if (clp.semicolonEnd >= 0 && at.semicolon === undefined) at.semicolon = { span: { start: word, end: clp.semicolonEnd }, command: text.slice(word, clp.semicolonEnd) };
  return clp.end;
}

/**
 * A file's name as otherFile compares it: after its last slash or backslash, in lower case (C:\db\Setup.SQL:
 * setup.sql); undefined for a document that is no file (the editor's `untitled:Untitled-1`: its name is not known).
 */
export function baseName(path: string): string | undefined {
  const colon = path.indexOf(':');
  if (colon > 1 && !path.slice(0, colon).includes('/') && !path.slice(0, colon).includes('\\')) return undefined;
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase() || undefined;
}

/**
 * Whether the file a comment's `db2 -f` runs (text from `start` to `end`) is another than `name` (a baseName): its
 * name (after the last slash or backslash, without quotes and closing punctuation around it) is not `name`, nor `name`
 * without its extension. A placeholder (`<script-name>`, `$1`, `%FILE%`, `{file}`) may be this file: not another.
 */
function otherFile(text: string, start: number, end: number, name: string): boolean {
  while (start < end && opensQuote(text.charCodeAt(start))) start++;
  while (end > start && endsFileName(text.charCodeAt(end - 1))) end--;
  let base = start;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === Code.Slash || c === Code.Backslash) base = i + 1;
  }
  if (base >= end) return false;
  for (let i = base; i < end; i++) if (PLACEHOLDER.has(text.charCodeAt(i))) return false;
  const file = text.slice(base, end).toLowerCase();
  if (file === name) return false;
  const dot = name.lastIndexOf('.');
  return !(dot > 0 && file.indexOf('.') < 0 && name.slice(0, dot) === file);
}

/** Characters of placeholders for a file name: <script-name>, $1, ${FILE}, %1, [file], *.sql, ?. */
const PLACEHOLDER = new Set('<>${}%[]*?'.split('').map((ch) => ch.charCodeAt(0)));

/** Characters that may open a quoted file name ("x.sql", (x.sql), `x.sql`). */
function opensQuote(c: number): boolean {
  return c === 34 || c === 39 || c === 40 || c === 96;
}

/**
 * The start of the last word `db2` and a blank before `dash` on its line (at most 100 characters back), or -1.
 * Whether its options reach the dash is readClpCommand's to tell.
 */
function clpWordBefore(text: string, dash: number, lineStart: number): number {
  const limit = Math.max(lineStart, dash - 100);
  for (let i = dash - 4; i >= limit; i--) {
    const c = text.charCodeAt(i);
    if ((c | 32) !== 100 || (text.charCodeAt(i + 1) | 32) !== 98 || text.charCodeAt(i + 2) !== 50 || !isBlank(text.charCodeAt(i + 3))) continue;
    if (i > 0 && isIdentChar(text.charCodeAt(i - 1))) continue;
    return i;
  }
  return -1;
}

/** `-td<x>` in a comment at `i` (a '-'): the terminator the script is documented to run with. */
function namedInComment(text: string, i: number): TerminatorChoice | undefined {
  const t = text.charCodeAt(i + 1);
  const d = text.charCodeAt(i + 2);
  if ((t !== 116 && t !== 84) || (d !== 100 && d !== 68)) return undefined;
  if (i > 0 && isIdentChar(text.charCodeAt(i - 1))) return undefined;
  const x = text.charCodeAt(i + 3);
  return namesTerminator(x) ? namedChoice(x) : undefined;
}

/**
 * Whether the character after -td (NaN: none) is read as a terminator: an ASCII mark, not a letter, digit or ';'
 * (-td; is -t), nor a quote or punctuation that closes a phrase (`-td'`, `(-td)`, `-td.`: the option named in prose),
 * nor one that opens a placeholder (`-td<x>`, `-td[char]`, `-td{c}`), nor a character every script writes inside its
 * statements (`(`, `*`, `=`, `+`, `-`, `?`: a script cut there would be cut in every statement; `-td=@` is a typo).
 * Beyond ASCII it is prose too: a typographic quote (`“-td”`, `‘-td’`), an ellipsis, a letter (`-tdé`), or half of
 * an emoji, which no script ends its statements with.
 */
function namesTerminator(x: number): boolean {
  return x > 32 && x < 127 && !isAlphaNumeric(x) && x !== Code.Semicolon && !closesQuote(x) && !NEVER_TERMINATORS.includes(String.fromCharCode(x));
}

/** ASCII marks after -td that name no terminator (see namesTerminator); closesQuote has the others. */
const NEVER_TERMINATORS = ']}<[{(*=+-?';

function namedChoice(x: number): TerminatorChoice {
  const ch = String.fromCharCode(x);
  return { terminator: ch, reason: `a comment says the script runs with -td${ch}` };
}

/**
 * In a `--` comment whose body starts at `from`: 'set' for `--#SET TERMINATOR` / Data Studio's
 * statementTerminator (the lexer follows those), the character of `SET STATEMENT TERMINATOR = 'x'`.
 */
export function directiveAt(text: string, from: number, to: number): string | undefined {
  let i = from;
  while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  // Each directive starts with '#' or SET, or holds 'R=' (STATEMENTTERMINATOR=) in its first 80 characters: the
  // other comments (a script's banner, a line in every few) are not copied and upper-cased.
  const limit = Math.min(to, i + 80);
  const c = text.charCodeAt(i);
  if (c !== 35 && (c | 32) !== 115) {
    let j = i + 1;
    while (j < limit && (text.charCodeAt(j) !== 61 || (text.charCodeAt(j - 1) | 32) !== 114)) j++;
    if (j >= limit) return undefined;
  }
  const head = text.slice(i, Math.min(to, i + 80)).toUpperCase();
  if (head.startsWith('#SET') && /^#SET\s+TERMINATOR\b/.test(head)) return 'set';
  if (head.includes('STATEMENTTERMINATOR=')) return 'set';
  const m = /^SET\s+STATEMENT\s+TERMINATOR\s*=\s*'(\S)'/.exec(head);
  return m ? m[1] : undefined;
}

/** The code of a line ends with END before its last character (END@, end !). */
function endsWithEnd(text: string, first: number, last: number): boolean {
  let j = last - 1;
  while (j >= first && isSpace(text.charCodeAt(j))) j--;
  if (j - 2 < first) return false;
  const word = text.slice(j - 2, j + 1).toUpperCase();
  return word === 'END' && (j - 3 < first || !isIdentChar(text.charCodeAt(j - 3)));
}

/** The `!` at `last` closes a `!name!` placeholder of an IBM replication template. */
function closesPlaceholder(text: string, first: number, last: number): boolean {
  let j = last - 1;
  while (j >= first && isIdentChar(text.charCodeAt(j)) && text.charCodeAt(j) !== Code.Bang) j--;
  return j < last - 1 && j >= first && text.charCodeAt(j) === Code.Bang;
}

export function startsWithCommand(text: string, first: number, last: number): boolean {
  if (text.charCodeAt(first) === Code.Bang) return true;
  // The word as a number (wordKey), not a sliced, upper-cased string: this runs on every line of code.
  let j = first;
  let key = 0;
  for (let c: number; j <= last && j - first < 12 && isAlphaNumeric((c = text.charCodeAt(j))); j++) key = key * 37 + letterKey(c);
  return j > first && j - first <= LONGEST_COMMAND_WORD && COMMAND_KEYS.has(key);
}

/** 1-26 for a letter of either case, 27-36 for a digit. */
function letterKey(c: number): number {
  return c >= 97 ? c - 96 : c >= 65 ? c - 64 : c - 21;
}

/** A word of letters and digits as a number, exact up to 10 characters (37^10 < 2^53). */
function wordKey(word: string): number {
  let key = 0;
  for (let i = 0; i < word.length; i++) key = key * 37 + letterKey(word.charCodeAt(i));
  return key;
}

const LONGEST_COMMAND_WORD = 10;
const COMMAND_KEYS = new Set([...COMMAND_WORDS].map(wordKey));
