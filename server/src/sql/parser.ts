// Error-tolerant recursive-descent parser for the Db2 statements that matter to an insert workload.
// parseSql never throws: a statement it cannot read becomes a partial statement (or an 'other') with
// `parseError`. Statement kinds the model does not describe become `{ kind: 'other', keyword }`.
//
// This file holds the entry point and the `Parser`: a cursor over one statement's tokens with the
// helpers every grammar rule uses (keywords, names, spans, errors). The grammar itself is in grammar.ts
// (which family reads a statement) and grammar/*.ts (one file per statement family), as free functions
// over a Parser, in the manner of rust-analyzer's grammar/. Nothing recurses on input nesting except
// SQL PL bodies (bounded); parentheses are skipped iteratively, so deeply nested input cannot overflow.
import { IDENTITY_ORIGIN, type Comment, type ParseError, type ParsedSql, type Span, type SqlOrigin, type Statement } from './ast';
import { Lexer, TokenList, FLAG_UNTERMINATED, TK_WORD, TK_DELIM, TK_STRING, TK_OP, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_RAW, TK_BAD_COMMENT } from './lexer';
import { forEachStatementInRounds } from './splitter';
import { inferTerminator, type TerminatorScan } from './terminator';
import { parseStatement } from './grammar';
import { EMPTY_VALUES_SOURCE } from './grammar/dml';
import { PackedRowStore } from './grammar/values';
import { otherDialect } from './grammar/dialects';
import type { TextPiece } from './grammar/dynamic';
import { checkDeadline, DeadlineExceeded } from '../engine/deadline';

export interface ParseOptions {
  origin?: SqlOrigin;
  /** Initial statement terminator (CLP `-td@` → '@'). Default ';'. */
  terminator?: string;
}

export function parseSql(text: string, options?: ParseOptions): ParsedSql {
  const origin = options?.origin ?? IDENTITY_ORIGIN;
  const statements: Statement[] = [];
  let comments: Comment[] = [];
  try {
    const source = typeof text === 'string' ? text : String(text ?? '');
    comments = parseStatementsFrom(source, options?.terminator ?? ';', origin, { from: 0, lineStart: true, roundTokens: ROUND_TOKENS }, (stmt) => {
      statements.push(stmt);
      return true;
    });
  } catch (err) {
    if (err instanceof DeadlineExceeded) throw err;
    // Defensive: the lexer and splitter are written not to throw; if they ever do, report it as data.
    const message = err instanceof Error ? err.message : String(err);
    const end = typeof text === 'string' ? text.length : 0;
    statements.push({
      kind: 'other',
      keyword: '',
      span: { start: 0, end },
      origin,
      parseError: { message: `Internal parser error: ${message}`, span: { start: 0, end } },
    });
  }
  return { statements, comments };
}

/** Where parseStatementsFrom starts: a statement start (offset), and the lexer's state there. */
export interface ParseStart {
  from: number;
  lineStart: boolean;
  /** Tokens lexed per round (small when only a few statements are wanted). */
  roundTokens: number;
  /**
   * Size of the chunks VALUES rows are packed into (default: the text's, up to 64 Ki numbers). A re-parsed
   * statement keeps its chunk alive as long as it lives: small chunks there, or every statement edited in a
   * session would hold 256 kB.
   */
  rowChunkInts?: number;
}

/**
 * Parses the statements of `source` from `start` on, handing each to `onStatement` until it returns false;
 * returns the comments lexed (those of the statements handed, and maybe a few after them). parseSql reads
 * a whole text with it; sql/incremental.ts the statements an edit touched.
 */
export function parseStatementsFrom(source: string, terminator: string, origin: SqlOrigin, start: ParseStart, onStatement: (stmt: Statement) => boolean): Comment[] {
  // Lex, split and parse in rounds of about ROUND_TOKENS tokens through one token buffer, dropping the
  // tokens of parsed statements each round: the tokens of a whole 62.8 MB script took 124 MB (lexer.ts).
  const lexer = new Lexer(source, terminator, start.from, start.lineStart);
  const tokens = takeTokenList(Math.min(((source.length - start.from) / 4) | 0, 2 * start.roundTokens) + 16);
  const parser = new Parser(source, tokens, origin, start.rowChunkInts);
  let statements = 0;
  // The federated data source a SET PASSTHRU session sends statements to (sql/incremental.ts parses a script
  // holding one whole, since this is state across statements).
  let passedTo: string | undefined;
  try {
    forEachStatementInRounds(lexer, source, tokens, start.roundTokens, (first, end, unterminatedBlock, innerTerminator) => {
      // The clock is read every 16th statement: reading it for each was ~3% of parsing an insert script.
      if ((++statements & 15) === 0) checkDeadline();
      const session = parser.passthruSession(first, end);
      const stmt = passedTo !== undefined && session === undefined ? parser.passedThrough(first, end, passedTo) : parser.parseRange(first, end, unterminatedBlock);
      if (innerTerminator >= 0) stmt.innerTerminator = { start: innerTerminator, end: innerTerminator + 1 };
      if (session !== undefined) passedTo = session === PASSTHRU_RESET ? undefined : session;
      if (!onStatement(stmt)) throw STOP;
    });
  } catch (err) {
    if (err !== STOP) throw err;
  }
  giveBackTokenList(tokens);
  return lexer.comments;
}

/**
 * A token list kept for the next parse: four typed arrays made (and zeroed, outside the heap) for every text
 * parsed were the largest fixed cost of reading a one-line script (~1-2 µs of ~20) and more for the garbage
 * collector to track. Only small lists are kept (SPARE_TOKENS), so a large script's buffer is not held after its
 * parse; a parse inside another (SQL text a routine builds) finds none spare and makes its own.
 */
let spareTokens: TokenList | undefined;

/** The capacity of the largest list kept (40 kB): the texts whose fixed costs count. */
const SPARE_TOKENS = 4096;

function takeTokenList(capacity: number): TokenList {
  const spare = spareTokens;
  if (spare !== undefined && spare.capacity >= capacity) {
    spareTokens = undefined;
    return spare;
  }
  return new TokenList(capacity);
}

/** Keeps `tokens` (emptied) for the next parse, when it is small and larger than the list kept. */
function giveBackTokenList(tokens: TokenList): void {
  if (tokens.capacity > SPARE_TOKENS || (spareTokens !== undefined && spareTokens.capacity >= tokens.capacity)) return;
  tokens.reset();
  spareTokens = tokens;
}

const STOP = new Error('enough statements');

/** passthruSession's answer for SET PASSTHRU RESET (no server is named RESET: it is a reserved word there). */
const PASSTHRU_RESET = '\0reset';

/**
 * A script file as the CLP runs it: with the terminator it is run with (`terminator`, from the
 * configuration or --terminator), or else the one the file shows (terminator.ts).
 */
export function parseScript(text: string, terminator?: string): ParsedSql {
  return parseSql(text, { terminator: scriptTerminator(text, terminator) });
}

/**
 * The terminator a script is run with: the configured one, else the one the file shows, else ';'.
 * `scan`: the inference's scan of `text` when the caller made it (an edit's rescanTerminator).
 */
export function scriptTerminator(text: string, configured?: string, scan?: TerminatorScan): string {
  return configured ?? (scan ? scan.choice : inferTerminator(text))?.terminator ?? ';';
}

/** SQL text built at run time and parsed inside a routine, nested (EXECUTE IMMEDIATE of a text that runs another). */
let nestedTexts = 0;

/** Parses SQL text built by a routine (dynamic SQL); empty past a few levels of text inside text. */
function parseBuiltText(text: string, origin: SqlOrigin): Statement[] {
  if (nestedTexts >= 4) return [];
  nestedTexts++;
  try {
    return parseSql(text, { origin }).statements;
  } finally {
    nestedTexts--;
  }
}

/** Tokens lexed per round in parseSql (a few hundred kB of buffer, reused). */
const ROUND_TOKENS = 1 << 15;

class ParseFail extends Error {
  constructor(
    readonly error: ParseError,
    /** The token the parser stopped at (`end` of the statement when it ran out). */
    readonly at: number,
  ) {
    super(error.message);
  }
}

/** Words that start a statement and rarely begin a line inside one (SELECT, WITH and SET often do). */
const STATEMENT_STARTERS = new Set([
  'ALTER', 'CALL', 'COMMENT', 'COMMIT', 'CONNECT', 'CREATE', 'DECLARE', 'DELETE', 'DROP', 'EXPORT', 'GRANT', 'IMPORT',
  'INSERT', 'LOAD', 'LOCK', 'MERGE', 'RENAME', 'REORG', 'REVOKE', 'ROLLBACK', 'RUNSTATS', 'TERMINATE', 'TRUNCATE', 'UPDATE',
]);

/** Words after which a statement starter at a line start belongs to the statement (MERGE … THEN INSERT). */
const STARTER_CONTEXT = new Set(['THEN', 'ELSE', 'DO', 'BEGIN', 'ATOMIC', 'AS', 'FOR', 'ON', 'AND', 'OR', 'BEFORE', 'AFTER', 'ROW', 'STATEMENT', 'DB2SQL']);

/** Characters that end a line before a glued statement and look like the terminator a script is run with: @ / ! # $ % ~. */
const GLUE_TERMINATORS = [64, 47, 33, 35, 36, 37, 126];

/** Words after ALTER/DROP that make them an action of the statement, not a new one. */
const ACTION_OBJECTS = new Set(['COLUMN', 'CONSTRAINT', 'FOREIGN', 'PRIMARY', 'UNIQUE', 'CHECK', 'PARTITION', 'PERIOD', 'RESTRICT', 'VERSIONING', 'DEFAULT', 'EXPRESSION', 'IDENTITY']);

/** Statements whose body is a statement: a line starting with INSERT there is the body, not another statement. */
const HOLDS_STATEMENTS = /^(CREATE|ALTER) (TRIGGER|PROCEDURE|FUNCTION|METHOD|MODULE)$|^(BEGIN|FOR|WHILE|REPEAT|LOOP|IF|CASE)$/;

/** Slots of Parser.recentNames (a power of two). */
const RECENT_NAMES = 1024;

/**
 * Slots of Parser.recentNames for a text of `length` characters: a power of two, about one per 16 characters, at
 * most RECENT_NAMES. 1,024 slots for every text were 8 kB made and filled per parse, for a one-line script or
 * an SQL string in code as for a 100,000-line script (8 MB of the ~100 MB a run over 939 scripts allocates).
 */
function recentNameSlots(length: number): number {
  let slots = 16;
  while (slots < RECENT_NAMES && slots * 16 < length) slots *= 2;
  return slots;
}

/** The cursor the grammar functions move: `pos` is the next token, `end` one past the statement's last. */
export class Parser {
  pos = 0;
  end = 0;
  /** The statement being built, kept (with the error) when a later part fails to parse. */
  partial: Statement | undefined;
  /** Nesting of trigger and routine bodies being parsed (bodies cannot nest without limit). */
  bodyDepth = 0;
  /** The statement's BEGIN ... END is not closed at the end of input: its body is not read (the error says why). */
  unterminatedBlock = false;
  /** Loops around the statement being parsed (a variable appended to in a loop has no knowable text). */
  loopDepth = 0;
  /** SQL PL variables whose text is known at this point of a routine (for EXECUTE IMMEDIATE v). */
  variables = new Map<string, TextPiece[]>();

  /** The column list of the INSERT read last (see sameAsLastColumns). */
  private lastColumns: string[] = [];

  /**
   * `columns`, or the equal list of the INSERT read before it: a script's INSERTs name the same columns again
   * and again, and one array for all of them is less for the model to keep and the garbage collector to copy.
   * (Nothing changes a statement's column list after the parse.)
   */
  sameAsLastColumns(columns: string[]): string[] {
    const last = this.lastColumns;
    if (columns.length === last.length) {
      let i = 0;
      while (i < columns.length && columns[i] === last[i]) i++;
      if (i === columns.length) return last;
    }
    this.lastColumns = columns;
    return columns;
  }

  /**
   * The INSERT column list at the cursor ('('), when its tokens spell the list of the INSERT read last exactly,
   * each name a word in upper case (which identValue reads as written): that list, and the cursor past ')'.
   * Undefined otherwise (parseNameList, then sameAsLastColumns, read it). A script's INSERTs repeat one list,
   * and reading each name of each INSERT, and an array for them, was a tenth of parsing an insert workload.
   */
  repeatedColumns(): string[] | undefined {
    const last = this.lastColumns;
    if (last.length === 0) return undefined;
    let i = this.pos + 1;
    for (let n = 0; n < last.length; n++) {
      if (n > 0 && this.kind(i++) !== TK_COMMA) return undefined;
      if (this.kind(i) !== TK_WORD || !this.isUpperCaseWord(i, last[n])) return undefined;
      i++;
    }
    if (this.kind(i) !== TK_RPAREN) return undefined;
    this.pos = i + 1;
    return last;
  }

  /** Word token `i` is `name` as written, with no lower-case or non-ASCII letter (identValue would fold those). */
  private isUpperCaseWord(i: number, name: string): boolean {
    const s = this.t.start[i];
    if (this.t.end[i] - s !== name.length) return false;
    for (let k = 0; k < name.length; k++) {
      const c = this.text.charCodeAt(s + k);
      if (c !== name.charCodeAt(k) || (c >= 97 && c <= 122) || c > 127) return false;
    }
    return true;
  }

  /** Packed VALUES rows; chunks sized to the text so that a short SQL string from code stays small. */
  readonly rowStore: PackedRowStore;

  constructor(
    readonly text: string,
    readonly t: TokenList,
    readonly origin: SqlOrigin,
    rowChunkInts = Math.min(1 << 16, text.length + 16),
  ) {
    this.rowStore = new PackedRowStore(rowChunkInts);
    this.recentNames = new Array<string | undefined>(recentNameSlots(text.length)).fill(undefined);
  }

  /** Parses tokens [first, end) as one statement read by `dispatch` (a script's statement, or one of an SQL PL body). */
  parseRange(first: number, end: number, unterminatedBlock: boolean, dispatch: (p: Parser, span: Span) => Statement = parseStatement): Statement {
    const span = this.rangeSpan(first, end);
    let stmt: Statement;
    const savedP = this.pos;
    const savedEnd = this.end;
    const savedPartial = this.partial;
    const savedUnterminated = this.unterminatedBlock;
    this.pos = first;
    this.end = end;
    this.partial = undefined;
    this.unterminatedBlock ||= unterminatedBlock;
    try {
      stmt = dispatch(this, span);
    } catch (err) {
      const error: ParseError =
        err instanceof ParseFail
          ? (otherDialect(this, first, end) ?? this.gluedStatement(first, end, err.at) ?? err.error)
          : { message: `Internal parser error: ${err instanceof Error ? err.message : String(err)}`, span };
      stmt = this.partial ?? this.other(span, first, end);
      stmt.parseError = error;
      // An INSERT that failed before its source was read gets an empty VALUES source of its own.
      if (stmt.kind === 'insert' && stmt.source === EMPTY_VALUES_SOURCE) {
        stmt.source = { kind: 'values', rows: [], span: { start: span.end, end: span.end } };
      }
    } finally {
      this.pos = savedP;
      this.end = savedEnd;
      this.partial = savedPartial;
      this.unterminatedBlock = savedUnterminated;
    }
    // Input that ends inside a string, comment or block: the cause matters more than any later error.
    const lastTok = end - 1;
    if (lastTok >= first && this.t.flags[lastTok] & FLAG_UNTERMINATED) {
      const k = this.t.kind[lastTok];
      const what = k === TK_STRING ? 'string literal' : k === TK_DELIM ? 'delimited identifier' : 'comment';
      stmt.parseError = { message: `Unterminated ${what} at end of input`, span: this.tokSpan(lastTok) };
    } else if (unterminatedBlock) {
      stmt.parseError = { message: 'BEGIN … END block is not closed at end of input', span };
    }
    return stmt;
  }

  /** Statements of SQL text a routine builds at run time (grammar/dynamic.ts), in their own text. */
  parseBuilt(text: string, origin: SqlOrigin): Statement[] {
    return parseBuiltText(text, origin);
  }

  kind(i: number): number {
    return i < this.end && i >= 0 ? this.t.kind[i] : 0;
  }

  kw(i: number, upper: string): boolean {
    if (i >= this.end || i < 0 || this.t.kind[i] !== TK_WORD) return false;
    const s = this.t.start[i];
    if (this.t.end[i] - s !== upper.length) return false;
    for (let k = 0; k < upper.length; k++) {
      let c = this.text.charCodeAt(s + k);
      if (c >= 97 && c <= 122) c -= 32;
      if (c !== upper.charCodeAt(k)) return false;
    }
    return true;
  }

  peek(upper: string): boolean {
    return this.kw(this.pos, upper);
  }

  accept(upper: string): boolean {
    if (this.kw(this.pos, upper)) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** Accepts a sequence of keywords only if all of them follow. */
  acceptSeq(...uppers: string[]): boolean {
    for (let k = 0; k < uppers.length; k++) if (!this.kw(this.pos + k, uppers[k])) return false;
    this.pos += uppers.length;
    return true;
  }

  expect(upper: string, context: string): void {
    if (!this.accept(upper)) this.fail(`expected ${upper}`, context);
  }

  expectKind(kind: number, what: string, context: string): void {
    if (this.kind(this.pos) !== kind) this.fail(`expected ${what}`, context);
    this.pos++;
  }

  fail(expected: string, context: string, at = this.pos): never {
    if (at >= this.end) {
      const e = this.end > 0 ? this.t.end[this.end - 1] : 0;
      throw new ParseFail({ message: `Unexpected end of statement in ${context}: ${expected}`, span: { start: e, end: e } }, this.end);
    }
    throw new ParseFail({ message: `Unexpected '${this.tokText(at)}' in ${context}: ${expected}`, span: this.tokSpan(at) }, at);
  }

  /**
   * When the parse stopped at or just before a line that starts another statement (CREATE, INSERT, ...
   * at nesting level 0), the statement is several run together: a terminator the script is run with
   * (`-td@`) or a missing one. That says more than an error on the token where the parse stopped.
   */
  private gluedStatement(first: number, end: number, at: number): ParseError | undefined {
    if (HOLDS_STATEMENTS.test(this.keywordOf(first, end))) {
      // A block that never finds its END: another statement starts on the line after an END.
      if (at < end) return undefined;
      for (let i = end - 1; i > first + 1; i--) {
        if (this.kw(i - 1, 'END') && this.t.kind[i] === TK_WORD && this.startsLine(i) && STATEMENT_STARTERS.has(this.upper(i))) return this.glued(i);
      }
      return undefined;
    }
    let depth = 0;
    const last = Math.min(end - 1, at + 1);
    for (let i = first + 1; i <= last; i++) {
      const k = this.t.kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth = Math.max(0, depth - 1);
      if (depth > 0 || k !== TK_WORD || !this.startsLine(i) || !STATEMENT_STARTERS.has(this.upper(i))) continue;
      // ALTER COLUMN …, DROP CONSTRAINT …, ADD PRIMARY KEY … on their own lines are actions of an ALTER TABLE.
      if (this.kind(i + 1) === TK_WORD && ACTION_OBJECTS.has(this.upper(i + 1))) continue;
      const before = this.t.kind[i - 1] === TK_WORD ? this.upper(i - 1) : '';
      if (STARTER_CONTEXT.has(before)) continue;
      return this.glued(i);
    }
    return undefined;
  }

  /** The error for another statement starting at token `i`, asking about the terminator. */
  private glued(i: number): ParseError {
    const lastChar = this.text.charCodeAt(this.t.end[i - 1] - 1);
    const terminator = GLUE_TERMINATORS.includes(lastChar) ? String.fromCharCode(lastChar) : undefined;
    const word = this.tokText(i);
    const message = terminator
      ? `'${word}' starts another statement after a line ending in '${terminator}': is this script run with -td${terminator}?`
      : `'${word}' starts another statement with no terminator before it: is one missing, or is the script run without -t (one command per line)?`;
    return { message, span: this.tokSpan(i), glued: terminator ? { terminator } : {} };
  }

  /** The token is the first on its line. */
  private startsLine(i: number): boolean {
    for (let c = this.t.start[i] - 1; c >= this.t.end[i - 1]; c--) if (this.text.charCodeAt(c) === 10) return true;
    return false;
  }

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  expectEnd(context: string): void {
    if (!this.atEnd()) this.fail('expected the end of the statement', context);
  }

  tokText(i: number): string {
    const s = this.t.start[i];
    const e = this.t.end[i];
    return e - s > 40 ? this.text.slice(s, s + 40) + '…' : this.text.slice(s, e);
  }

  upper(i: number): string {
    return this.text.slice(this.t.start[i], this.t.end[i]).toUpperCase();
  }

  tokSpan(i: number): Span {
    return { start: this.t.start[i], end: this.t.end[i] };
  }

  rangeSpan(first: number, end: number): Span {
    return { start: this.rangeStart(first, end), end: this.rangeEnd(first, end) };
  }

  /** rangeSpan(first, end).start, without the object. */
  rangeStart(first: number, end: number): number {
    if (end <= first) return first < this.t.count ? this.t.start[first] : this.text.length;
    return this.t.start[first];
  }

  /** rangeSpan(first, end).end, without the object. */
  rangeEnd(first: number, end: number): number {
    if (end <= first) return first < this.t.count ? this.t.start[first] : this.text.length;
    return this.t.end[end - 1];
  }

  isOp(i: number, ch: string): boolean {
    return this.kind(i) === TK_OP && this.t.end[i] - this.t.start[i] === ch.length && this.text.startsWith(ch, this.t.start[i]);
  }

  isIdent(i: number): boolean {
    const k = this.kind(i);
    return k === TK_WORD || k === TK_DELIM;
  }

  /** Identifier value: ordinary identifiers fold to upper case, delimited ones keep their case. */
  identValue(i: number): string {
    const k = this.t.kind[i];
    const s = this.t.start[i];
    const e = this.t.end[i];
    if (k === TK_DELIM) {
      const open = this.text.charCodeAt(s) === 34 ? s + 1 : s + 3; // "x" or U&"x"
      const close = this.t.flags[i] & FLAG_UNTERMINATED ? e : e - 1;
      // Trailing blanks are not significant: db2look pads schema names to eight characters ("APP     ").
      let end = Math.max(open, close);
      while (end > open && this.text.charCodeAt(end - 1) === 32) end--;
      return this.text.slice(open, end).replace(/""/g, '"');
    }
    for (let k = s; k < e; k++) {
      const c = this.text.charCodeAt(k);
      if ((c >= 97 && c <= 122) || c > 127) return this.intern(this.text.slice(s, e).toUpperCase());
    }
    // Written in upper case already: the name is the text itself, most often a name read a moment ago.
    const slot = (e - s + 31 * this.text.charCodeAt(s) + 7 * this.text.charCodeAt(e - 1) + 3 * this.text.charCodeAt((s + e) >> 1)) & (this.recentNames.length - 1);
    const recent = this.recentNames[slot];
    if (recent !== undefined && recent.length === e - s && this.text.startsWith(recent, s)) return recent;
    const name = this.intern(this.text.slice(s, e));
    this.recentNames[slot] = name;
    return name;
  }

  private readonly names = new Map<string, string>();
  /**
   * A name last read, by a small hash of its length and three of its characters: a script names the same
   * tables and columns in every statement, and a hit (compared with the text, nothing allocated) saves
   * slicing a new string and hashing it to find it in `names`, for each identifier of each statement.
   */
  private readonly recentNames: (string | undefined)[];

  /**
   * One string per distinct name: a script repeats the same table and column names in every statement,
   * and the model keeps them all, so sharing them saves memory and garbage-collector work.
   */
  intern(name: string): string {
    const known = this.names.get(name);
    if (known !== undefined) return known;
    if (this.names.size < 100_000) this.names.set(name, name);
    return name;
  }

  /** Index of the token after the ')' matching the '(' at `i` (iterative; end of range if unbalanced). */
  afterBalanced(i: number): number {
    let depth = 0;
    for (let j = i; j < this.end; j++) {
      const k = this.t.kind[j];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return this.end;
  }

  /** Skips one operand-ish unit: a parenthesised group or a single token. */
  skipUnit(): void {
    if (this.kind(this.pos) === TK_LPAREN) this.pos = this.afterBalanced(this.pos);
    else this.pos++;
  }

  /** Index after a run of tokens with no whitespace between them (a path like /tmp/x.del). */
  afterAdjacentRun(i: number): number {
    let j = i + 1;
    while (j < this.end && this.t.start[j] === this.t.end[j - 1]) j++;
    return j;
  }

  private levels = new Uint8Array(64);

  /** A scratch stack of at least `size` levels, reused across statements. */
  levelStack(size: number): Uint8Array {
    if (this.levels.length < size) this.levels = new Uint8Array(Math.max(size, this.levels.length * 2));
    return this.levels;
  }

  /**
   * For `SET PASSTHRU server`, the server; for `SET PASSTHRU RESET`, PASSTHRU_RESET; otherwise undefined. Until
   * the reset, federation sends each statement to that data source as it stands (another database's SQL).
   */
  passthruSession(first: number, end: number): string | undefined {
    if (end - first < 3) return undefined;
    const saved = this.end;
    this.end = end;
    try {
      if (!this.kw(first, 'SET') || !this.kw(first + 1, 'PASSTHRU')) return undefined;
      return end - first === 3 && this.kw(first + 2, 'RESET') ? PASSTHRU_RESET : this.text.slice(this.t.start[first + 2], this.t.end[end - 1]);
    } finally {
      this.end = saved;
    }
  }

  /** A statement of a SET PASSTHRU session: the data source's SQL, not read as Db2's. */
  passedThrough(first: number, end: number, server: string): Statement {
    return { kind: 'other', keyword: this.keywordOf(first, end), span: this.rangeSpan(first, end), origin: this.origin, passedTo: server };
  }

  other(span: Span, first: number, end: number): Statement {
    return { kind: 'other', keyword: this.keywordOf(first, end), span, origin: this.origin };
  }

  /** Leading keywords that name a statement: 'SELECT', 'CREATE VIEW', 'DROP TABLE', ... */
  keywordOf(first: number, end: number): string {
    const k = first < end ? this.t.kind[first] : 0;
    if (k === TK_RAW) return '!';
    if (k === TK_BAD_COMMENT) return '/*';
    if (k !== TK_WORD) return first < end ? this.tokText(first) : '';
    // label: BEGIN … (compound statement)
    if (this.kind(first + 1) === TK_OP && this.text.charCodeAt(this.t.start[first + 1]) === 58 && this.kind(first + 2) === TK_WORD) {
      return this.upper(first + 2);
    }
    const verb = this.upper(first);
    if (!['CREATE', 'ALTER', 'DROP', 'DECLARE', 'COMMENT', 'RENAME', 'TRUNCATE'].includes(verb)) return verb;
    const words = [verb];
    const modifiers = new Set(['OR', 'REPLACE', 'UNIQUE', 'PUBLIC', 'LARGE', 'REGULAR', 'USER', 'SYSTEM', 'GLOBAL', 'TEMPORARY', 'SPECIFIC', 'ON', 'EDITIONABLE', 'NONEDITIONABLE']);
    for (let i = first + 1; i < end && i < first + 6; i++) {
      if (this.t.kind[i] !== TK_WORD) break;
      const w = this.upper(i);
      if (modifiers.has(w)) continue;
      words.push(w);
      break;
    }
    return words.join(' ');
  }
}
