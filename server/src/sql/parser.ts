// Error-tolerant recursive-descent parser for the Db2 statements that matter to an insert workload.
// parseSql never throws: a statement it cannot read becomes a partial statement (or an 'other') with
// `parseError`. Statement kinds the model does not describe become `{ kind: 'other', keyword }`.
// Nothing here recurses on input nesting except trigger bodies (one level); parentheses are skipped
// iteratively, so deeply nested input cannot overflow the stack.
import {
  IDENTITY_ORIGIN,
  type AlterTableAction,
  type AlterTableStatement,
  type ColumnDef,
  type Comment,
  type ConfigParameter,
  type CreateIndexStatement,
  type CreateTableStatement,
  type CreateTablespaceStatement,
  type CreateTriggerStatement,
  type DataType,
  type IdentityOptions,
  type IndexColumn,
  type InsertStatement,
  type InsertValue,
  type ParseError,
  type ParsedSql,
  type QualifiedName,
  type ReferentialAction,
  type SequenceStatement,
  type Span,
  type SqlOrigin,
  type Statement,
  type TableConstraint,
  type ValueKind,
  type ValuesRow,
} from './ast';
import {
  Lexer,
  TokenList,
  FLAG_UNTERMINATED,
  TK_WORD,
  TK_DELIM,
  TK_STRING,
  TK_NUMBER,
  TK_MARKER,
  TK_HOST,
  TK_LPAREN,
  TK_RPAREN,
  TK_COMMA,
  TK_DOT,
  TK_OP,
  TK_RAW,
  TK_BAD_COMMENT,
} from './lexer';
import { forEachStatementInRounds, splitBody } from './splitter';

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
    // Lex, split and parse in rounds of about ROUND_TOKENS tokens through one token buffer, dropping the
    // tokens of parsed statements each round: the tokens of a whole 62.8 MB script took 124 MB (lexer.ts).
    const lexer = new Lexer(source, options?.terminator ?? ';');
    comments = lexer.comments;
    const tokens = new TokenList(Math.min((source.length / 4) | 0, 2 * ROUND_TOKENS) + 16);
    const parser = new StatementParser(source, tokens, origin);
    forEachStatementInRounds(lexer, source, tokens, ROUND_TOKENS, (first, end, unterminatedBlock) => {
      statements.push(parser.parseRange(first, end, unterminatedBlock));
    });
  } catch (err) {
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

/**
 * VALUES rows are the bulk of an insert workload's model (a 1,000,000-line script holds ~820,000 of them).
 * As plain objects each row cost eleven allocations (row, span, values array, and an object plus a span per
 * value), ~460 bytes that stayed alive, and most of the parse's garbage-collector time (bench/RESULTS.md).
 * So the parser writes each row's offsets and value kinds into a shared Int32Array and keeps one small
 * object per row; `span` and `values` are built from those numbers when a rule asks for them (few rules
 * look at the values of every row, and what they build is short-lived).
 *
 * Layout of a row at `at`: [rowStart, rowEnd, valueCount, then per value: kindCode, start, end].
 */
const VALUE_KINDS: readonly ValueKind[] = ['literal', 'marker', 'host', 'null', 'default', 'expression'];
// The parser classifies values as these codes (indexes into VALUE_KINDS): looking a code up by the kind's
// name was a keyed property load per value, a fifth of the time spent reading VALUES rows.
const VK_LITERAL = 0;
const VK_MARKER = 1;
const VK_HOST = 2;
const VK_NULL = 3;
const VK_DEFAULT = 4;
const VK_EXPRESSION = 5;

class PackedValuesRow implements ValuesRow {
  constructor(
    private readonly data: Int32Array,
    private readonly at: number,
  ) {}

  /** A new object on every access (nothing is cached, so a rule's use of it stays short-lived). */
  get span(): Span {
    return { start: this.data[this.at], end: this.data[this.at + 1] };
  }

  /** A new array on every access, like `span`. */
  get values(): InsertValue[] {
    const d = this.data;
    const count = d[this.at + 2];
    const values = new Array<InsertValue>(count);
    for (let v = 0, j = this.at + 3; v < count; v++, j += 3) values[v] = { kind: VALUE_KINDS[d[j]], span: { start: d[j + 1], end: d[j + 2] } };
    return values;
  }
}

/** Append-only storage for packed rows, in chunks (a row never straddles two). */
class PackedRowStore {
  private chunk: Int32Array;
  private used = 0;

  constructor(private readonly chunkSize: number) {
    this.chunk = new Int32Array(chunkSize);
  }

  /**
   * Makes room for `ints` more numbers and returns where they go; they only count as stored once
   * `commit` is called (a row that fails to parse leaves nothing behind).
   */
  reserve(ints: number): number {
    if (this.used + ints > this.chunk.length) {
      this.chunk = new Int32Array(Math.max(this.chunkSize, ints));
      this.used = 0;
    }
    return this.used;
  }

  get data(): Int32Array {
    return this.chunk;
  }

  commit(end: number): PackedValuesRow {
    const row = new PackedValuesRow(this.chunk, this.used);
    this.used = end;
    return row;
  }
}

/** Shared by every INSERT without NEXT VALUE FOR (nearly all of them): one array instead of 151,000. */
const NO_SEQUENCES: QualifiedName[] = Object.freeze([]) as unknown as QualifiedName[];

/** Tokens lexed per round in parseSql (a few hundred kB of buffer, reused). */
const ROUND_TOKENS = 1 << 15;

/** Placeholder source of an INSERT until its VALUES/SELECT is read (replaced on success). */
const EMPTY_VALUES_SOURCE: InsertStatement['source'] = Object.freeze({ kind: 'values', rows: Object.freeze([]) as unknown as ValuesRow[], span: Object.freeze({ start: 0, end: 0 }) }) as InsertStatement['source'];

type WithoutSpan<T> = T extends unknown ? Omit<T, 'span'> : never;

class ParseFail extends Error {
  constructor(readonly error: ParseError) {
    super(error.message);
  }
}

const REFERENTIAL: Record<string, ReferentialAction> = {
  'NO ACTION': 'NO ACTION',
  RESTRICT: 'RESTRICT',
  CASCADE: 'CASCADE',
  'SET NULL': 'SET NULL',
};

const TYPE_SYNONYMS: Record<string, string> = {
  INT: 'INTEGER',
  CHARACTER: 'CHAR',
  DEC: 'DECIMAL',
  NUMERIC: 'DECIMAL',
  NUM: 'DECIMAL',
  LONG: 'LONG VARCHAR',
};

const LOB_TYPES = new Set(['CLOB', 'BLOB', 'DBCLOB']);

/** Words that start a column option (so a DEFAULT right before them has no value). */
const COLUMN_OPTION_WORDS = new Set([
  'NOT', 'GENERATED', 'PRIMARY', 'UNIQUE', 'CONSTRAINT', 'REFERENCES', 'CHECK', 'LOGGED', 'COMPACT',
  'INLINE', 'IMPLICITLY', 'WITH', 'DEFAULT', 'FOR', 'CCSID', 'COMPRESS', 'SECURED', 'COLUMN',
]);

/** ALTER TABLE action words that end a column definition (NOT and COMPRESS are column options too). */
const COLUMN_ENDING_ALTER_ACTIONS = new Set([
  'ADD', 'DROP', 'ALTER', 'APPEND', 'LOCKSIZE', 'PCTFREE', 'ACTIVATE', 'DEACTIVATE', 'DATA', 'VOLATILE',
  'RENAME', 'ATTACH', 'DETACH', 'LOG', 'VALUE', 'ORGANIZE', 'SECURITY',
]);

const TYPED_LITERAL_WORDS = new Set(['DATE', 'TIME', 'TIMESTAMP', 'GRAPHIC', 'BINARY']);

const TABLE_REF_SKIP = new Set(['TABLE', 'LATERAL', 'UNNEST', 'XMLTABLE', 'FINAL', 'NEW', 'OLD', 'ONLY', 'OUTER']);

/** Words after which FROM/JOIN table lists end at the same nesting level (not ON: `JOIN b ON … , c`). */
const FROM_ENDERS = new Set([
  'WHERE', 'GROUP', 'HAVING', 'ORDER', 'FETCH', 'UNION', 'EXCEPT', 'INTERSECT', 'SELECT',
  'WINDOW', 'LIMIT', 'OFFSET', 'FOR', 'WITH', 'OPTIMIZE', 'SET', 'VALUES', 'WHEN', 'THEN', 'ELSE', 'END',
]);

class StatementParser {
  private p = 0;
  private end = 0;
  private partial: Statement | undefined;

  /** Packed VALUES rows; chunks sized to the text so that a short SQL string from code stays small. */
  private readonly rowStore: PackedRowStore;

  constructor(
    private readonly text: string,
    private readonly t: TokenList,
    private readonly origin: SqlOrigin,
  ) {
    this.rowStore = new PackedRowStore(Math.min(1 << 16, text.length + 16));
  }

  // ---------- statement level ----------

  parseRange(first: number, end: number, unterminatedBlock: boolean): Statement {
    const span = this.rangeSpan(first, end);
    let stmt: Statement;
    const savedP = this.p;
    const savedEnd = this.end;
    const savedPartial = this.partial;
    this.p = first;
    this.end = end;
    this.partial = undefined;
    try {
      stmt = this.parseStatement(span);
    } catch (err) {
      const error: ParseError =
        err instanceof ParseFail
          ? err.error
          : { message: `Internal parser error: ${err instanceof Error ? err.message : String(err)}`, span };
      stmt = this.partial ?? this.other(span, first, end);
      stmt.parseError = error;
      // An INSERT that failed before its source was read gets an empty VALUES source of its own.
      if (stmt.kind === 'insert' && stmt.source === EMPTY_VALUES_SOURCE) {
        stmt.source = { kind: 'values', rows: [], span: { start: span.end, end: span.end } };
      }
    } finally {
      this.p = savedP;
      this.end = savedEnd;
      this.partial = savedPartial;
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

  private parseStatement(span: Span): Statement {
    const first = this.p;
    if (this.t.kind[first] === TK_BAD_COMMENT) return this.other(span, first, this.end);
    if (this.t.kind[first] !== TK_WORD) return this.other(span, first, this.end);
    // The most common statement first, without allocating its keyword.
    if (this.kw(first, 'INSERT')) return this.parseInsert(span);
    const w = this.upper(first);
    switch (w) {
      case 'INSERT':
        return this.parseInsert(span);
      case 'MERGE':
        return this.parseMerge(span);
      case 'CREATE':
        return this.parseCreate(span);
      case 'ALTER':
        if (this.kw(first + 1, 'TABLE')) return this.parseAlterTable(span);
        if (this.kw(first + 1, 'SEQUENCE')) return this.parseSequence(span, 'alterSequence');
        return this.other(span, first, this.end);
      case 'DECLARE':
        if (this.kw(first + 1, 'GLOBAL') && this.kw(first + 2, 'TEMPORARY')) return this.parseCreateTable(span);
        if (this.kw(first + 2, 'CURSOR')) return this.parseDeclareCursor(span);
        return this.other(span, first, this.end);
      case 'COMMIT':
      case 'ROLLBACK':
        return this.parseTransaction(span, w === 'COMMIT' ? 'commit' : 'rollback');
      case 'SET':
        if (this.kw(first + 1, 'SCHEMA') || (this.kw(first + 1, 'CURRENT') && (this.kw(first + 2, 'SCHEMA') || this.kw(first + 2, 'SQLID'))) || this.kw(first + 1, 'CURRENT_SCHEMA')) {
          return this.parseSetSchema(span);
        }
        return this.other(span, first, this.end);
      case 'CONNECT':
        return this.parseConnect(span);
      case 'UPDATE':
        if (this.kw(first + 1, 'COMMAND') && this.kw(first + 2, 'OPTIONS')) return this.parseUpdateCommandOptions(span);
        if ((this.kw(first + 1, 'DB') || this.kw(first + 1, 'DATABASE')) && this.isCfgWord(first + 2)) return this.parseUpdateDbCfg(span);
        return this.other(span, first, this.end);
      case 'LOAD':
        return this.parseLoad(span);
      case 'IMPORT':
        return this.parseImport(span);
      case 'LOCK':
        if (this.kw(first + 1, 'TABLE')) return this.parseLockTable(span);
        return this.other(span, first, this.end);
      default:
        return this.other(span, first, this.end);
    }
  }

  private parseCreate(span: Span): Statement {
    let i = this.p + 1;
    if (this.kw(i, 'OR') && this.kw(i + 1, 'REPLACE')) i += 2;
    const w = this.kind(i) === TK_WORD ? this.upper(i) : '';
    switch (w) {
      case 'TABLE':
      case 'SUMMARY':
        return this.parseCreateTable(span);
      case 'GLOBAL':
        if (this.kw(i + 1, 'TEMPORARY')) return this.parseCreateTable(span);
        break;
      case 'UNIQUE':
      case 'INDEX':
        if (w === 'INDEX' || this.kw(i + 1, 'INDEX')) return this.parseCreateIndex(span);
        break;
      case 'SEQUENCE':
        return this.parseSequence(span, 'createSequence');
      case 'TRIGGER':
        return this.parseCreateTrigger(span);
      case 'TABLESPACE':
      case 'LARGE':
      case 'REGULAR':
        return this.parseCreateTablespace(span);
      case 'USER':
      case 'SYSTEM':
        if (this.kw(i + 1, 'TEMPORARY') && this.kw(i + 2, 'TABLESPACE')) return this.parseCreateTablespace(span);
        break;
      case 'TEMPORARY':
        if (this.kw(i + 1, 'TABLESPACE')) return this.parseCreateTablespace(span);
        break;
    }
    return this.other(span, this.p, this.end);
  }

  // ---------- token helpers ----------

  private kind(i: number): number {
    return i < this.end && i >= 0 ? this.t.kind[i] : 0;
  }

  private kw(i: number, upper: string): boolean {
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

  private peek(upper: string): boolean {
    return this.kw(this.p, upper);
  }

  private accept(upper: string): boolean {
    if (this.kw(this.p, upper)) {
      this.p++;
      return true;
    }
    return false;
  }

  /** Accepts a sequence of keywords only if all of them follow. */
  private acceptSeq(...uppers: string[]): boolean {
    for (let k = 0; k < uppers.length; k++) if (!this.kw(this.p + k, uppers[k])) return false;
    this.p += uppers.length;
    return true;
  }

  private expect(upper: string, context: string): void {
    if (!this.accept(upper)) this.fail(`expected ${upper}`, context);
  }

  private expectKind(kind: number, what: string, context: string): void {
    if (this.kind(this.p) !== kind) this.fail(`expected ${what}`, context);
    this.p++;
  }

  private fail(expected: string, context: string, at = this.p): never {
    if (at >= this.end) {
      const e = this.end > 0 ? this.t.end[this.end - 1] : 0;
      throw new ParseFail({ message: `Unexpected end of statement in ${context}: ${expected}`, span: { start: e, end: e } });
    }
    throw new ParseFail({ message: `Unexpected '${this.tokText(at)}' in ${context}: ${expected}`, span: this.tokSpan(at) });
  }

  private atEnd(): boolean {
    return this.p >= this.end;
  }

  private tokText(i: number): string {
    const s = this.t.start[i];
    const e = this.t.end[i];
    return e - s > 40 ? this.text.slice(s, s + 40) + '…' : this.text.slice(s, e);
  }

  private upper(i: number): string {
    return this.text.slice(this.t.start[i], this.t.end[i]).toUpperCase();
  }

  private tokSpan(i: number): Span {
    return { start: this.t.start[i], end: this.t.end[i] };
  }

  private rangeSpan(first: number, end: number): Span {
    if (end <= first) {
      const at = first < this.t.count ? this.t.start[first] : this.text.length;
      return { start: at, end: at };
    }
    return { start: this.t.start[first], end: this.t.end[end - 1] };
  }

  private isOp(i: number, ch: string): boolean {
    return this.kind(i) === TK_OP && this.t.end[i] - this.t.start[i] === ch.length && this.text.startsWith(ch, this.t.start[i]);
  }

  private isCfgWord(i: number): boolean {
    return this.kw(i, 'CFG') || this.kw(i, 'CONFIG') || this.kw(i, 'CONFIGURATION');
  }

  /** Identifier value: ordinary identifiers fold to upper case, delimited ones keep their case. */
  private identValue(i: number): string {
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
    let value: string | undefined;
    for (let k = s; k < e; k++) {
      const c = this.text.charCodeAt(k);
      if ((c >= 97 && c <= 122) || c > 127) {
        value = this.text.slice(s, e).toUpperCase();
        break;
      }
    }
    return this.intern(value ?? this.text.slice(s, e));
  }

  private readonly names = new Map<string, string>();

  /**
   * One string per distinct name: a script repeats the same table and column names in every statement,
   * and the model keeps them all, so sharing them saves memory and garbage-collector work.
   */
  private intern(name: string): string {
    const known = this.names.get(name);
    if (known !== undefined) return known;
    if (this.names.size < 100_000) this.names.set(name, name);
    return name;
  }

  private isIdent(i: number): boolean {
    const k = this.kind(i);
    return k === TK_WORD || k === TK_DELIM;
  }

  private parseIdentifier(context: string): { name: string; span: Span } {
    if (!this.isIdent(this.p)) this.fail('expected a name', context);
    const i = this.p++;
    return { name: this.identValue(i), span: this.tokSpan(i) };
  }

  /** name | schema.name | server.schema.name (the last two parts are kept). */
  private parseQualifiedName(context: string): QualifiedName {
    if (!this.isIdent(this.p)) this.fail('expected a name', context);
    const startTok = this.p;
    let last = this.p++;
    let parts = 1;
    while (this.kind(this.p) === TK_DOT && this.isIdent(this.p + 1) && parts < 3) {
      last = this.p + 1;
      this.p += 2;
      parts++;
    }
    const span = { start: this.t.start[startTok], end: this.t.end[last] };
    if (parts === 1) return { name: this.identValue(last), span };
    return { schema: this.identValue(last - 2), name: this.identValue(last), span };
  }

  /** Reads a qualified name at token `i` without moving the cursor; returns it and the index after it. */
  private qualifiedNameAt(i: number): { name: QualifiedName; next: number } | undefined {
    if (!this.isIdent(i)) return undefined;
    const saved = this.p;
    this.p = i;
    const name = this.parseQualifiedName('name');
    const next = this.p;
    this.p = saved;
    return { name, next };
  }

  /** Index of the token after the ')' matching the '(' at `i` (iterative; end of range if unbalanced). */
  private afterBalanced(i: number): number {
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

  /** At '(' : moves past the matching ')'; returns the span inside the parentheses. */
  private skipParens(context: string): Span {
    if (this.kind(this.p) !== TK_LPAREN) this.fail("expected '('", context);
    const open = this.p;
    const after = this.afterBalanced(open);
    if (after === this.end && this.kind(after - 1) !== TK_RPAREN) {
      this.p = this.end;
      this.fail("missing ')'", context);
    }
    this.p = after;
    const innerFirst = open + 1;
    const innerEnd = after - 1;
    if (innerEnd <= innerFirst) return { start: this.t.end[open], end: this.t.end[open] };
    return this.rangeSpan(innerFirst, innerEnd);
  }

  /** Skips one operand-ish unit: a parenthesised group or a single token. */
  private skipUnit(): void {
    if (this.kind(this.p) === TK_LPAREN) this.p = this.afterBalanced(this.p);
    else this.p++;
  }

  /** ( name, name, … ) — each element's first identifier; extra words per element are skipped. */
  private parseNameList(context: string): string[] {
    if (this.kind(this.p) !== TK_LPAREN) this.fail("expected '('", context);
    // Exact-size array (column lists of a million INSERTs stay in memory): count top-level commas.
    const close = this.afterBalanced(this.p) - 1;
    let count = 0;
    if (close > this.p + 1) {
      count = 1;
      for (let j = this.p + 1, depth = 0; j < close; j++) {
        const k = this.t.kind[j];
        if (k === TK_LPAREN) depth++;
        else if (k === TK_RPAREN) depth--;
        else if (k === TK_COMMA && depth === 0) count++;
      }
    }
    this.p++;
    const names: string[] = new Array<string>(count);
    let n = 0;
    for (;;) {
      if (this.kind(this.p) === TK_RPAREN) {
        this.p++;
        if (n < names.length) names.length = n;
        return names;
      }
      const name = this.parseIdentifier(context).name;
      if (n < names.length) names[n++] = name;
      else {
        names.push(name);
        n++;
      }
      while (!this.atEnd() && this.kind(this.p) !== TK_COMMA && this.kind(this.p) !== TK_RPAREN) this.skipUnit();
      if (this.kind(this.p) === TK_COMMA) this.p++;
      else if (this.kind(this.p) !== TK_RPAREN) this.fail("expected ',' or ')'", context);
    }
  }

  /** Number with optional sign; returns NaN-free value or fails. */
  private parseNumber(context: string): number {
    let sign = 1;
    if (this.isOp(this.p, '-')) {
      sign = -1;
      this.p++;
    } else if (this.isOp(this.p, '+')) this.p++;
    if (this.kind(this.p) !== TK_NUMBER) this.fail('expected a number', context);
    const v = Number(this.text.slice(this.t.start[this.p], this.t.end[this.p]));
    this.p++;
    return sign * v;
  }

  /** n [K|M|G] as a byte count. */
  private parseSize(context: string): number {
    const v = this.parseNumber(context);
    if (this.accept('K')) return v * 1024;
    if (this.accept('M')) return v * 1024 * 1024;
    if (this.accept('G')) return v * 1024 * 1024 * 1024;
    return v;
  }

  private other(span: Span, first: number, end: number): Statement {
    return { kind: 'other', keyword: this.keywordOf(first, end), span, origin: this.origin };
  }

  /** Leading keywords that name a statement: 'SELECT', 'CREATE VIEW', 'DROP TABLE', … */
  private keywordOf(first: number, end: number): string {
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

  // ---------- CREATE TABLE / DECLARE GLOBAL TEMPORARY TABLE ----------

  private parseCreateTable(span: Span): Statement {
    const context = 'CREATE TABLE';
    let temporary: 'global' | 'declared' | undefined;
    let summary = false;
    if (this.accept('DECLARE')) {
      this.expect('GLOBAL', context);
      this.expect('TEMPORARY', context);
      temporary = 'declared';
    } else {
      this.expect('CREATE', context);
      if (this.accept('GLOBAL')) {
        this.expect('TEMPORARY', context);
        temporary = 'global';
      } else if (this.accept('SUMMARY')) summary = true;
    }
    this.expect('TABLE', context);
    if (this.acceptSeq('IF', 'NOT', 'EXISTS')) {
      /* Db2 11.5 */
    }
    const table = this.parseQualifiedName(context);
    const stmt: CreateTableStatement = {
      kind: 'createTable',
      table,
      columns: [],
      constraints: [],
      tablespace: {},
      notLoggedInitially: false,
      span,
      origin: this.origin,
    };
    if (temporary) stmt.temporary = temporary;
    this.partial = stmt;

    let hadElements = false;
    if (this.kind(this.p) === TK_LPAREN) {
      hadElements = true;
      // (c1, c2) AS (…) — a column name list for an MQT / AS query
      const nameListOnly = this.isIdent(this.p + 1) && (this.kind(this.p + 2) === TK_COMMA || this.kind(this.p + 2) === TK_RPAREN);
      if (nameListOnly) this.parseNameList(context);
      else this.parseTableElements(stmt);
    }
    let queryTables: QualifiedName[] = [];
    if (this.accept('LIKE')) {
      stmt.like = this.parseQualifiedName(context);
    } else if (this.peek('AS') && this.kind(this.p + 1) === TK_LPAREN) {
      this.p++;
      const open = this.p;
      stmt.asQuery = this.skipParens(context);
      queryTables = this.tablesRead(open + 1, this.p - 1);
    } else if (!hadElements && this.accept('FOR')) {
      // staging table: CREATE TABLE s FOR mqt PROPAGATE IMMEDIATE
      this.parseQualifiedName(context);
      this.expect('PROPAGATE', context);
      this.expect('IMMEDIATE', context);
    } else if (!hadElements) {
      this.fail("expected '(', LIKE or AS", context);
    }
    this.parseTableOptions(stmt, summary, queryTables);
    return stmt;
  }

  private parseTableElements(stmt: CreateTableStatement): void {
    const context = 'CREATE TABLE';
    this.p++; // (
    for (;;) {
      if (this.kind(this.p) === TK_RPAREN) {
        this.p++;
        return;
      }
      if (this.atEnd()) this.fail("expected ')'", context);
      if (this.peek('CONSTRAINT') || this.peek('PRIMARY') || this.peek('UNIQUE') || this.peek('FOREIGN') || (this.peek('CHECK') && this.kind(this.p + 1) === TK_LPAREN)) {
        stmt.constraints.push(this.parseTableConstraint(context));
      } else if (this.peek('PERIOD') && this.isIdent(this.p + 1) && this.kind(this.p + 2) === TK_LPAREN) {
        this.p += 2;
        this.skipParens(context);
      } else if (this.peek('LIKE') && this.isIdent(this.p + 1)) {
        this.p++;
        this.parseQualifiedName(context);
      } else {
        const col = this.parseColumnDef(context, stmt.constraints);
        stmt.columns.push(col);
      }
      if (this.kind(this.p) === TK_COMMA) this.p++;
      else if (this.kind(this.p) !== TK_RPAREN) this.fail("expected ',' or ')'", context);
    }
  }

  private parseDataType(context: string): DataType {
    if (!this.isIdent(this.p)) this.fail('expected a data type', context);
    const startTok = this.p;
    let name = this.kind(this.p) === TK_WORD ? this.upper(this.p) : this.identValue(this.p);
    this.p++;
    if (name === 'LONG' && (this.peek('VARCHAR') || this.peek('VARGRAPHIC'))) {
      name = 'LONG ' + this.upper(this.p++);
    } else if ((name === 'CHARACTER' || name === 'CHAR') && this.peek('VARYING')) {
      this.p++;
      name = 'VARCHAR';
    } else if ((name === 'CHARACTER' || name === 'CHAR' || name === 'BINARY') && this.peek('LARGE') && this.kw(this.p + 1, 'OBJECT')) {
      this.p += 2;
      name = name === 'BINARY' ? 'BLOB' : 'CLOB';
    } else if (name === 'DOUBLE' && this.peek('PRECISION')) {
      this.p++;
    } else if (name === 'GRAPHIC' && this.peek('VARYING')) {
      this.p++;
      name = 'VARGRAPHIC';
    } else if (this.kind(this.p) === TK_DOT && this.isIdent(this.p + 1)) {
      // user-defined type schema.name
      this.p++;
      name = this.identValue(this.p++);
    }
    name = TYPE_SYNONYMS[name] ?? name;
    const type: DataType = {
      name,
      isLob: LOB_TYPES.has(name),
      isLong: name === 'LONG VARCHAR' || name === 'LONG VARGRAPHIC',
      isXml: name === 'XML',
      span: { start: 0, end: 0 },
    };
    if (this.kind(this.p) === TK_LPAREN) {
      const open = this.p;
      this.p++;
      if (this.kind(this.p) === TK_NUMBER) {
        type.length = this.parseSize(context);
      }
      this.p = this.afterBalanced(open);
      if (this.kind(this.p - 1) !== TK_RPAREN) this.fail("missing ')'", context);
    }
    // FOR BIT DATA / FOR SBCS DATA / FOR MIXED DATA belong to character types
    if (this.kw(this.p, 'FOR') && (this.kw(this.p + 1, 'BIT') || this.kw(this.p + 1, 'SBCS') || this.kw(this.p + 1, 'MIXED')) && this.kw(this.p + 2, 'DATA')) {
      this.p += 3;
    }
    type.span = { start: this.t.start[startTok], end: this.t.end[this.p - 1] };
    return type;
  }

  private parseColumnDef(context: string, constraints: TableConstraint[]): ColumnDef {
    const startTok = this.p;
    const id = this.parseIdentifier(context);
    const type = this.parseDataType(context);
    const col: ColumnDef = { name: id.name, nameSpan: id.span, type, notNull: false, span: { start: 0, end: 0 } };
    this.parseColumnOptions(col, context, constraints);
    col.span = { start: this.t.start[startTok], end: this.t.end[this.p - 1] };
    return col;
  }

  private parseColumnOptions(col: ColumnDef, context: string, constraints: TableConstraint[]): void {
    for (;;) {
      const k = this.kind(this.p);
      if (this.atEnd() || k === TK_COMMA || k === TK_RPAREN) return;
      if (k !== TK_WORD) this.fail('expected a column option', context);
      const w = this.upper(this.p);
      // ALTER TABLE … ADD COLUMN c t DEFAULT x ADD COLUMN …: the next action ends this column
      if (context === 'ALTER TABLE' && COLUMN_ENDING_ALTER_ACTIONS.has(w)) return;
      switch (w) {
        case 'NOT':
          if (this.acceptSeq('NOT', 'NULL')) col.notNull = true;
          else if (this.acceptSeq('NOT', 'LOGGED')) col.lobLogged = false;
          else if (this.acceptSeq('NOT', 'COMPACT')) col.lobCompact = false;
          else if (this.acceptSeq('NOT', 'HIDDEN')) {
            /* visible column */
          } else this.fail('expected NULL, LOGGED, COMPACT or HIDDEN after NOT', context, this.p + 1);
          continue;
        case 'NULL':
          this.p++;
          continue;
        case 'LOGGED':
          this.p++;
          col.lobLogged = true;
          continue;
        case 'COMPACT':
          this.p++;
          col.lobCompact = true;
          continue;
        case 'INLINE':
          this.p++;
          this.expect('LENGTH', context);
          col.inlineLength = this.parseNumber(context);
          continue;
        case 'IMPLICITLY':
          this.p++;
          this.expect('HIDDEN', context);
          continue;
        case 'FOR':
          // FOR BIT DATA / FOR SBCS DATA / FOR MIXED DATA
          this.p++;
          if (!(this.accept('BIT') || this.accept('SBCS') || this.accept('MIXED'))) this.fail('expected BIT, SBCS or MIXED', context);
          this.expect('DATA', context);
          continue;
        case 'CCSID':
          this.p += 2;
          continue;
        case 'COMPRESS':
          this.p++;
          if (this.acceptSeq('SYSTEM', 'DEFAULT') || this.accept('YES') || this.accept('NO')) continue;
          continue;
        case 'WITH':
          if (this.kw(this.p + 1, 'DEFAULT')) {
            this.p += 2;
            const v = this.parseDefaultValue();
            if (v) col.defaultValue = v;
            else col.defaultValue = this.tokSpan(this.p - 1);
            continue;
          }
          this.fail('expected DEFAULT after WITH', context, this.p + 1);
          break;
        case 'DEFAULT': {
          this.p++;
          const v = this.parseDefaultValue();
          col.defaultValue = v ?? this.tokSpan(this.p - 1);
          continue;
        }
        case 'GENERATED':
          this.parseGenerated(col, context);
          continue;
        case 'CONSTRAINT':
        case 'PRIMARY':
        case 'UNIQUE':
        case 'REFERENCES':
        case 'CHECK':
          constraints.push(this.parseColumnConstraint(col.name, context));
          continue;
        case 'SECURED':
          this.p++;
          this.expect('WITH', context);
          this.p++;
          continue;
        case 'COLUMN':
          if (this.kw(this.p + 1, 'SECURED')) {
            this.p += 4;
            continue;
          }
          break;
      }
      this.fail('expected a column option', context);
    }
  }

  /** Value after DEFAULT; undefined when the DEFAULT has no value (type default). */
  private parseDefaultValue(): Span | undefined {
    const first = this.p;
    const k = this.kind(this.p);
    if (this.atEnd() || k === TK_COMMA || k === TK_RPAREN) return undefined;
    if (k === TK_OP && (this.isOp(this.p, '-') || this.isOp(this.p, '+')) && this.kind(this.p + 1) === TK_NUMBER) {
      this.p += 2;
    } else if (k === TK_STRING || k === TK_NUMBER || k === TK_HOST || k === TK_MARKER) {
      this.p++;
    } else if (k === TK_LPAREN) {
      this.p = this.afterBalanced(this.p);
    } else if (k === TK_WORD) {
      const w = this.upper(this.p);
      if (COLUMN_OPTION_WORDS.has(w) && w !== 'DEFAULT') return undefined;
      if (w === 'CURRENT' && this.kind(this.p + 1) === TK_WORD) {
        this.p += 2;
        if (this.kind(this.p) === TK_WORD && this.kw(this.p - 1, 'CLIENT')) this.p++;
        if (this.kind(this.p) === TK_LPAREN) this.p = this.afterBalanced(this.p);
      } else if (TYPED_LITERAL_WORDS.has(w) && this.kind(this.p + 1) === TK_STRING) {
        this.p += 2;
      } else {
        this.p++;
        while (this.kind(this.p) === TK_DOT && this.isIdent(this.p + 1)) this.p += 2;
        if (this.kind(this.p) === TK_LPAREN) this.p = this.afterBalanced(this.p);
      }
    } else {
      return undefined;
    }
    return this.rangeSpan(first, this.p);
  }

  private parseGenerated(col: ColumnDef, context: string): void {
    const startTok = this.p;
    this.p++; // GENERATED
    let always = true;
    if (this.accept('ALWAYS')) always = true;
    else if (this.acceptSeq('BY', 'DEFAULT')) always = false;
    if (this.acceptSeq('FOR', 'EACH', 'ROW', 'ON', 'UPDATE', 'AS', 'ROW', 'CHANGE', 'TIMESTAMP')) {
      col.generatedExpression = this.rangeSpan(startTok, this.p);
      return;
    }
    this.expect('AS', context);
    if (this.accept('IDENTITY')) {
      const ident: IdentityOptions = { always, span: { start: 0, end: 0 } };
      if (this.kind(this.p) === TK_LPAREN) {
        this.p++;
        this.parseSequenceOptions(ident, context, true);
        this.expectKind(TK_RPAREN, "')'", context);
      }
      ident.span = this.rangeSpan(startTok, this.p);
      col.identity = ident;
      return;
    }
    if (this.kind(this.p) === TK_LPAREN) {
      col.generatedExpression = this.skipParens(context);
      return;
    }
    // Temporal: AS ROW BEGIN | ROW END | TRANSACTION START ID
    if (this.acceptSeq('ROW', 'BEGIN') || this.acceptSeq('ROW', 'END') || this.acceptSeq('TRANSACTION', 'START', 'ID')) {
      col.generatedExpression = this.rangeSpan(startTok, this.p);
      return;
    }
    this.fail("expected IDENTITY or '(' after GENERATED … AS", context);
  }

  /**
   * Identity / sequence options. Stops (without error) at ')' when `inParens`, or at the end.
   * Writes start, increment, cache (0 = NO CACHE), cacheSpan and order.
   */
  private parseSequenceOptions(
    target: { start?: number; increment?: number; cache?: number; cacheSpan?: Span; order?: boolean },
    context: string,
    inParens: boolean,
  ): void {
    for (;;) {
      if (this.atEnd() || (inParens && this.kind(this.p) === TK_RPAREN)) return;
      if (this.kind(this.p) === TK_COMMA) {
        this.p++;
        continue;
      }
      const optStart = this.p;
      if (this.acceptSeq('START', 'WITH')) target.start = this.parseNumber(context);
      else if (this.acceptSeq('INCREMENT', 'BY')) target.increment = this.parseNumber(context);
      else if (this.accept('MINVALUE') || this.accept('MAXVALUE')) this.parseNumber(context);
      else if (this.acceptSeq('NO', 'MINVALUE') || this.acceptSeq('NO', 'MAXVALUE') || this.acceptSeq('NO', 'CYCLE') || this.accept('CYCLE') || this.accept('NOMINVALUE') || this.accept('NOMAXVALUE') || this.accept('NOCYCLE')) {
        /* not modelled */
      } else if (this.accept('CACHE')) {
        target.cache = this.parseNumber(context);
        target.cacheSpan = this.rangeSpan(optStart, this.p);
      } else if (this.acceptSeq('NO', 'CACHE') || this.accept('NOCACHE')) {
        target.cache = 0;
        target.cacheSpan = this.rangeSpan(optStart, this.p);
      } else if (this.accept('ORDER')) {
        if ('order' in target || !inParens) target.order = true;
      } else if (this.acceptSeq('NO', 'ORDER') || this.accept('NOORDER')) {
        if ('order' in target || !inParens) target.order = false;
      } else if (!inParens && this.accept('RESTART')) {
        if (this.accept('WITH')) this.parseNumber(context);
      } else if (!inParens && this.accept('AS')) {
        this.parseDataType(context);
      } else {
        this.fail('expected a sequence option (START WITH, INCREMENT BY, CACHE, …)', context);
      }
    }
  }

  private parseColumnConstraint(column: string, context: string): TableConstraint {
    const startTok = this.p;
    let name: string | undefined;
    if (this.accept('CONSTRAINT')) name = this.parseIdentifier(context).name;
    let c: TableConstraint;
    if (this.acceptSeq('PRIMARY', 'KEY')) {
      c = { kind: 'primaryKey', columns: [column], span: { start: 0, end: 0 } };
      this.parseConstraintAttributes(c, context);
    } else if (this.accept('UNIQUE')) {
      c = { kind: 'unique', columns: [column], span: { start: 0, end: 0 } };
      this.parseConstraintAttributes(c, context);
    } else if (this.peek('REFERENCES')) {
      c = this.parseReferences([column], context);
    } else if (this.accept('CHECK')) {
      this.skipParens(context);
      c = { kind: 'check', enforced: true, span: { start: 0, end: 0 } };
      this.parseConstraintAttributes(c, context);
    } else {
      this.fail('expected PRIMARY KEY, UNIQUE, REFERENCES or CHECK', context);
    }
    if (name !== undefined) c.name = name;
    c.span = this.rangeSpan(startTok, this.p);
    return c;
  }

  private parseTableConstraint(context: string): TableConstraint {
    const startTok = this.p;
    let name: string | undefined;
    if (this.accept('CONSTRAINT')) name = this.parseIdentifier(context).name;
    let c: TableConstraint;
    if (this.acceptSeq('PRIMARY', 'KEY')) {
      c = { kind: 'primaryKey', columns: this.parseNameList(context), span: { start: 0, end: 0 } };
      this.parseConstraintAttributes(c, context);
    } else if (this.accept('UNIQUE')) {
      c = { kind: 'unique', columns: this.parseNameList(context), span: { start: 0, end: 0 } };
      this.parseConstraintAttributes(c, context);
    } else if (this.acceptSeq('FOREIGN', 'KEY')) {
      const cols = this.parseNameList(context);
      c = this.parseReferences(cols, context);
    } else if (this.accept('CHECK')) {
      this.skipParens(context);
      c = { kind: 'check', enforced: true, span: { start: 0, end: 0 } };
      this.parseConstraintAttributes(c, context);
    } else {
      this.fail('expected PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK', context);
    }
    if (name !== undefined) c.name = name;
    c.span = this.rangeSpan(startTok, this.p);
    return c;
  }

  private parseReferences(columns: string[], context: string): TableConstraint {
    this.expect('REFERENCES', context);
    const parent = this.parseQualifiedName(context);
    const parentColumns = this.kind(this.p) === TK_LPAREN ? this.parseNameList(context) : [];
    const fk: TableConstraint = { kind: 'foreignKey', columns, parent, parentColumns, enforced: true, span: { start: 0, end: 0 } };
    this.parseConstraintAttributes(fk, context);
    return fk;
  }

  /** ON DELETE/UPDATE rules, [NOT] ENFORCED, [NOT] TRUSTED, ENABLE/DISABLE QUERY OPTIMIZATION. */
  private parseConstraintAttributes(c: TableConstraint, context: string): void {
    for (;;) {
      if (this.kw(this.p, 'ON') && (this.kw(this.p + 1, 'DELETE') || this.kw(this.p + 1, 'UPDATE'))) {
        const isDelete = this.kw(this.p + 1, 'DELETE');
        this.p += 2;
        let action: ReferentialAction;
        if (this.acceptSeq('NO', 'ACTION')) action = REFERENTIAL['NO ACTION'];
        else if (this.acceptSeq('SET', 'NULL')) action = REFERENTIAL['SET NULL'];
        else if (this.accept('RESTRICT')) action = 'RESTRICT';
        else if (this.accept('CASCADE')) action = 'CASCADE';
        else this.fail('expected NO ACTION, RESTRICT, CASCADE or SET NULL', context);
        if (c.kind === 'foreignKey') {
          if (isDelete) c.onDelete = action;
          else c.onUpdate = action;
        }
        continue;
      }
      if (this.acceptSeq('NOT', 'ENFORCED')) {
        if (c.kind === 'foreignKey' || c.kind === 'check') c.enforced = false;
        continue;
      }
      if (this.accept('ENFORCED')) {
        if (c.kind === 'foreignKey' || c.kind === 'check') c.enforced = true;
        continue;
      }
      if (this.acceptSeq('NOT', 'TRUSTED') || this.accept('TRUSTED')) continue;
      if (this.acceptSeq('ENABLE', 'QUERY', 'OPTIMIZATION') || this.acceptSeq('DISABLE', 'QUERY', 'OPTIMIZATION')) continue;
      return;
    }
  }

  private parseTableOptions(stmt: CreateTableStatement, summary: boolean, queryTables: QualifiedName[]): void {
    const context = 'CREATE TABLE';
    let dataInitiallyDeferred = false;
    let refresh: 'immediate' | 'deferred' | undefined;
    let refreshSpan: Span | undefined;
    let maintainedBy: 'system' | 'user' | 'federated_tool' | 'replication' | undefined;
    let definitionOnly = false;
    while (!this.atEnd()) {
      const optStart = this.p;
      if (this.kind(this.p) !== TK_WORD) {
        this.fail('expected a table option', context);
      }
      const w = this.upper(this.p);
      switch (w) {
        case 'IN':
          this.p++;
          if (this.acceptSeq('DATABASE', 'PARTITION', 'GROUP')) {
            this.parseIdentifier(context);
            continue;
          }
          stmt.tablespace.data = this.parseIdentifier(context).name;
          // IN database.tablespace (Db2 for z/OS)
          if (this.kind(this.p) === TK_DOT && this.isIdent(this.p + 1)) {
            this.p++;
            stmt.tablespace.data = this.parseIdentifier(context).name;
          }
          // IN ts1, ts2 (partitioned tables list several)
          while (this.kind(this.p) === TK_COMMA && this.isIdent(this.p + 1)) this.p += 2;
          continue;
        case 'INDEX':
          this.p++;
          this.expect('IN', context);
          stmt.tablespace.index = this.parseIdentifier(context).name;
          continue;
        case 'LONG':
          this.p++;
          this.expect('IN', context);
          stmt.tablespace.long = this.parseIdentifier(context).name;
          while (this.kind(this.p) === TK_COMMA && this.isIdent(this.p + 1)) this.p += 2;
          continue;
        case 'CYCLE':
        case 'NO':
          if (this.acceptSeq('NO', 'CYCLE') || this.accept('CYCLE')) {
            this.accept('ON');
            continue;
          }
          break;
        case 'ORGANIZE':
          this.p++;
          this.expect('BY', context);
          if (this.accept('ROW')) {
            stmt.organizeBy = 'row';
            if (this.accept('USING')) this.skipParens(context);
          } else if (this.accept('COLUMN')) stmt.organizeBy = 'column';
          else if (this.accept('DIMENSIONS')) {
            stmt.organizeBy = 'dimensions';
            this.skipParens(context);
          } else if (this.acceptSeq('KEY', 'SEQUENCE')) {
            stmt.organizeBy = 'key sequence';
            this.skipParens(context);
            while (this.accept('ALLOW') || this.accept('DISALLOW') || this.accept('OVERFLOW') || this.accept('PCTFREE')) {
              if (this.kind(this.p) === TK_NUMBER) this.p++;
            }
          } else if (this.acceptSeq('INSERT', 'TIME')) stmt.organizeBy = 'insert time';
          else if (this.kind(this.p) === TK_LPAREN) {
            stmt.organizeBy = 'dimensions';
            this.skipParens(context);
          } else this.fail('expected ROW, COLUMN, DIMENSIONS, KEY SEQUENCE or INSERT TIME', context);
          continue;
        case 'DISTRIBUTE':
          this.p++;
          // DISTRIBUTE ON (…) / ON RANDOM is the Netezza-compatible spelling Db2 also accepts
          if (!this.accept('ON')) this.expect('BY', context);
          if (this.accept('RANDOM')) stmt.distributeBy = { kind: 'random', columns: [] };
          else if (this.accept('REPLICATION')) stmt.distributeBy = { kind: 'replication', columns: [] };
          else {
            this.accept('HASH');
            stmt.distributeBy = { kind: 'hash', columns: this.parseNameList(context) };
          }
          continue;
        case 'PARTITIONING':
          this.p++;
          this.expect('KEY', context);
          stmt.distributeBy = { kind: 'hash', columns: this.parseNameList(context) };
          this.acceptSeq('USING', 'HASHING');
          continue;
        case 'PARTITION':
          if (this.kw(this.p + 1, 'BY')) {
            this.p += 2;
            this.accept('RANGE');
            const s = this.p;
            this.skipParens(context);
            if (this.kind(this.p) === TK_LPAREN) this.skipParens(context);
            stmt.partitionBy = this.rangeSpan(s, this.p);
            continue;
          }
          break;
        case 'APPEND':
          this.p++;
          if (this.accept('ON')) stmt.append = true;
          else if (this.accept('OFF')) stmt.append = false;
          else this.fail('expected ON or OFF', context);
          continue;
        case 'LOCKSIZE':
          this.p++;
          stmt.locksize = this.parseLocksize(context);
          continue;
        case 'PCTFREE':
          this.p++;
          stmt.pctfree = this.parseNumber(context);
          stmt.pctfreeSpan = this.rangeSpan(optStart, this.p);
          continue;
        case 'NOT':
          if (this.acceptSeq('NOT', 'LOGGED', 'INITIALLY')) {
            stmt.notLoggedInitially = true;
            stmt.notLoggedInitiallySpan = this.rangeSpan(optStart, this.p);
            continue;
          }
          if (this.acceptSeq('NOT', 'LOGGED')) {
            if (this.accept('ON')) {
              this.expect('ROLLBACK', context);
              if (!(this.accept('DELETE') || this.accept('PRESERVE'))) this.fail('expected DELETE or PRESERVE', context);
              this.expect('ROWS', context);
            }
            continue;
          }
          if (this.acceptSeq('NOT', 'VOLATILE')) {
            this.accept('CARDINALITY');
            continue;
          }
          break;
        case 'LOGGED':
          this.p++;
          continue;
        case 'VOLATILE':
          this.p++;
          this.accept('CARDINALITY');
          continue;
        case 'COMPRESS':
          this.p++;
          if (this.accept('YES')) {
            if (!this.accept('ADAPTIVE')) this.accept('STATIC');
          } else if (!this.accept('NO')) this.fail('expected YES or NO', context);
          continue;
        case 'VALUE':
          this.p++;
          this.expect('COMPRESSION', context);
          continue;
        case 'CCSID':
          this.p += 2;
          continue;
        case 'DATA':
          if (this.acceptSeq('DATA', 'INITIALLY', 'DEFERRED')) {
            dataInitiallyDeferred = true;
            continue;
          }
          if (this.acceptSeq('DATA', 'CAPTURE')) {
            if (!this.accept('NONE')) {
              this.expect('CHANGES', context);
              this.acceptSeq('INCLUDE', 'LONGVAR', 'COLUMNS');
            }
            continue;
          }
          break;
        case 'REFRESH':
          this.p++;
          if (this.accept('IMMEDIATE')) refresh = 'immediate';
          else if (this.accept('DEFERRED')) refresh = 'deferred';
          else this.fail('expected IMMEDIATE or DEFERRED', context);
          refreshSpan = this.rangeSpan(optStart, this.p);
          continue;
        case 'ENABLE':
        case 'DISABLE':
          this.p++;
          this.expect('QUERY', context);
          this.expect('OPTIMIZATION', context);
          continue;
        case 'MAINTAINED':
          this.p++;
          this.expect('BY', context);
          if (this.accept('SYSTEM')) maintainedBy = 'system';
          else if (this.accept('USER')) maintainedBy = 'user';
          else if (this.accept('FEDERATED_TOOL')) maintainedBy = 'federated_tool';
          else if (this.accept('REPLICATION')) maintainedBy = 'replication';
          else this.fail('expected SYSTEM, USER, FEDERATED_TOOL or REPLICATION', context);
          continue;
        case 'DEFINITION':
          this.p++;
          this.expect('ONLY', context);
          definitionOnly = true;
          continue;
        case 'WITH':
          if (this.acceptSeq('WITH', 'NO', 'DATA')) {
            definitionOnly = true;
            continue;
          }
          if (this.acceptSeq('WITH', 'DATA') || this.acceptSeq('WITH', 'REPLACE')) continue;
          if (this.acceptSeq('WITH', 'RESTRICT', 'ON', 'DROP')) continue;
          break;
        case 'INCLUDING':
        case 'EXCLUDING':
          // LIKE/AS copy options: INCLUDING COLUMN DEFAULTS, EXCLUDING IDENTITY COLUMN ATTRIBUTES, …
          this.p++;
          while (this.kind(this.p) === TK_WORD && ['COLUMN', 'DEFAULTS', 'IDENTITY', 'ATTRIBUTES'].includes(this.upper(this.p))) this.p++;
          continue;
        case 'ON':
          if (this.kw(this.p + 1, 'COMMIT')) {
            this.p += 2;
            if (!(this.accept('DELETE') || this.accept('PRESERVE'))) this.fail('expected DELETE or PRESERVE', context);
            this.expect('ROWS', context);
            continue;
          }
          break;
        case 'SECURITY':
          this.p++;
          this.expect('POLICY', context);
          this.parseIdentifier(context);
          continue;
        case 'OPTIONS':
          this.p++;
          this.skipParens(context);
          continue;
        case 'PERIOD':
          this.p += 2;
          this.skipParens(context);
          continue;
        case 'USING':
          this.p++;
          this.expect('HASHING', context);
          continue;
      }
      this.fail('expected a table option', context);
    }
    if (stmt.asQuery && (dataInitiallyDeferred || refresh || summary || maintainedBy) && !definitionOnly) {
      stmt.mqt = {
        query: stmt.asQuery,
        baseTables: queryTables,
        refresh: refresh ?? 'deferred',
        summary,
      };
      if (refreshSpan) stmt.mqt.refreshSpan = refreshSpan;
      if (maintainedBy) stmt.mqt.maintainedBy = maintainedBy;
      delete stmt.asQuery;
    }
  }

  private parseLocksize(context: string): 'row' | 'table' | 'blockinsert' {
    if (this.accept('ROW')) return 'row';
    if (this.accept('TABLE')) return 'table';
    if (this.accept('BLOCKINSERT')) return 'blockinsert';
    this.fail('expected ROW, TABLE or BLOCKINSERT', context);
  }

  // ---------- ALTER TABLE ----------

  private parseAlterTable(span: Span): Statement {
    const context = 'ALTER TABLE';
    this.p += 2;
    const table = this.parseQualifiedName(context);
    const stmt: AlterTableStatement = { kind: 'alterTable', table, actions: [], span, origin: this.origin };
    this.partial = stmt;
    while (!this.atEnd()) {
      if (this.kind(this.p) === TK_COMMA) {
        this.p++;
        continue;
      }
      stmt.actions.push(this.parseAlterAction(context));
    }
    if (stmt.actions.length === 0) this.fail('expected an ALTER TABLE action', context);
    return stmt;
  }

  private static readonly ALTER_ACTION_WORDS = new Set([
    'ADD', 'DROP', 'ALTER', 'APPEND', 'LOCKSIZE', 'PCTFREE', 'ACTIVATE', 'DEACTIVATE', 'DATA', 'COMPRESS',
    'VOLATILE', 'RENAME', 'ATTACH', 'DETACH', 'LOG', 'VALUE', 'ORGANIZE', 'SECURITY', 'REFRESH', 'SET',
    'NOT', 'INCLUDE', 'EXCLUDE',
  ]);

  /** Skips tokens of an action we do not model, up to the next action keyword at this level. */
  private skipToNextAction(): void {
    while (!this.atEnd()) {
      if (this.kind(this.p) === TK_WORD && StatementParser.ALTER_ACTION_WORDS.has(this.upper(this.p))) return;
      this.skipUnit();
    }
  }

  private parseAlterAction(context: string): AlterTableAction {
    const startTok = this.p;
    const done = (a: WithoutSpan<AlterTableAction>): AlterTableAction =>
      ({ ...a, span: this.rangeSpan(startTok, this.p) }) as AlterTableAction;
    const otherAction = (): AlterTableAction => {
      this.skipToNextAction();
      return { kind: 'other', span: this.rangeSpan(startTok, this.p) };
    };
    if (this.kind(this.p) !== TK_WORD) this.fail('expected an ALTER TABLE action', context);
    const w = this.upper(this.p);
    switch (w) {
      case 'ADD': {
        this.p++;
        if (this.peek('CONSTRAINT') || this.peek('PRIMARY') || this.peek('UNIQUE') || this.peek('FOREIGN') || this.peek('CHECK')) {
          const constraint = this.parseTableConstraint(context);
          return done({ kind: 'addConstraint', constraint });
        }
        if (this.peek('MATERIALIZED') || this.peek('SUMMARY') || (this.kind(this.p) === TK_LPAREN && this.kw(this.afterBalanced(this.p), 'DATA'))) {
          // ADD MATERIALIZED QUERY (…) DATA INITIALLY DEFERRED REFRESH …
          this.accept('MATERIALIZED');
          this.accept('QUERY');
          this.skipParens(context);
          let refresh: 'immediate' | 'deferred' = 'deferred';
          while (!this.atEnd()) {
            if (this.acceptSeq('DATA', 'INITIALLY', 'DEFERRED')) continue;
            if (this.accept('REFRESH')) {
              if (this.accept('IMMEDIATE')) refresh = 'immediate';
              else this.expect('DEFERRED', context);
              continue;
            }
            if (this.acceptSeq('ENABLE', 'QUERY', 'OPTIMIZATION') || this.acceptSeq('DISABLE', 'QUERY', 'OPTIMIZATION')) continue;
            if (this.accept('MAINTAINED')) {
              this.expect('BY', context);
              this.p++;
              continue;
            }
            break;
          }
          return done({ kind: 'refresh', refresh });
        }
        if (['PERIOD', 'PARTITION', 'VERSIONING', 'RESTRICT', 'SECURITY', 'SCOPE', 'MATERIALIZED'].includes(this.kind(this.p) === TK_WORD ? this.upper(this.p) : '')) {
          this.p++;
          return otherAction();
        }
        this.accept('COLUMN');
        const column = this.parseColumnDef(context, []);
        return done({ kind: 'addColumn', column });
      }
      case 'DROP': {
        this.p++;
        if (this.accept('CONSTRAINT')) return done({ kind: 'dropConstraint', name: this.parseIdentifier(context).name });
        if (this.acceptSeq('FOREIGN', 'KEY')) return done({ kind: 'dropConstraint', name: this.parseIdentifier(context).name, constraintKind: 'foreignKey' });
        if (this.acceptSeq('PRIMARY', 'KEY')) return done({ kind: 'dropConstraint', name: '', constraintKind: 'primaryKey' });
        if (this.accept('UNIQUE')) return done({ kind: 'dropConstraint', name: this.parseIdentifier(context).name, constraintKind: 'unique' });
        if (this.accept('CHECK')) return done({ kind: 'dropConstraint', name: this.parseIdentifier(context).name, constraintKind: 'check' });
        // DROP [COLUMN] c, DROP PARTITION, DROP VERSIONING, … are not modelled
        return otherAction();
      }
      case 'ALTER': {
        this.p++;
        if (this.acceptSeq('FOREIGN', 'KEY') || this.accept('CHECK') || this.accept('CONSTRAINT')) {
          const name = this.parseIdentifier(context).name;
          let enforced: boolean | undefined;
          for (;;) {
            if (this.acceptSeq('NOT', 'ENFORCED')) enforced = false;
            else if (this.accept('ENFORCED')) enforced = true;
            else if (this.acceptSeq('NOT', 'TRUSTED') || this.accept('TRUSTED')) continue;
            else if (this.acceptSeq('ENABLE', 'QUERY', 'OPTIMIZATION') || this.acceptSeq('DISABLE', 'QUERY', 'OPTIMIZATION')) continue;
            else break;
          }
          if (enforced === undefined) return otherAction();
          return done({ kind: 'alterConstraintEnforcement', name, enforced });
        }
        this.accept('COLUMN');
        const column = this.parseIdentifier(context).name;
        let cache: number | undefined;
        let cacheSpan: Span | undefined;
        let identity = false;
        // one or more column alterations
        for (;;) {
          const s = this.p;
          if (this.acceptSeq('SET', 'CACHE')) {
            cache = this.parseNumber(context);
            cacheSpan = this.rangeSpan(s, this.p);
            identity = true;
          } else if (this.acceptSeq('SET', 'NO', 'CACHE')) {
            cache = 0;
            cacheSpan = this.rangeSpan(s, this.p);
            identity = true;
          } else if (this.accept('RESTART')) {
            identity = true;
            if (this.accept('WITH')) this.parseNumber(context);
          } else if (this.acceptSeq('SET', 'INCREMENT', 'BY') || this.acceptSeq('SET', 'START', 'WITH') || this.acceptSeq('SET', 'MINVALUE') || this.acceptSeq('SET', 'MAXVALUE')) {
            identity = true;
            this.parseNumber(context);
          } else if (this.acceptSeq('SET', 'NO', 'MINVALUE') || this.acceptSeq('SET', 'NO', 'MAXVALUE') || this.acceptSeq('SET', 'NO', 'CYCLE') || this.acceptSeq('SET', 'CYCLE') || this.acceptSeq('SET', 'NO', 'ORDER') || this.acceptSeq('SET', 'ORDER')) {
            identity = true;
          } else if (this.kw(this.p, 'SET') && this.kw(this.p + 1, 'GENERATED') && this.identityFollows(this.p + 2)) {
            // SET GENERATED [ALWAYS | BY DEFAULT] AS IDENTITY [(START WITH …, CACHE n, …)]
            this.p += 2;
            if (!this.accept('ALWAYS')) this.acceptSeq('BY', 'DEFAULT');
            this.expect('AS', context);
            this.expect('IDENTITY', context);
            identity = true;
            if (this.kind(this.p) === TK_LPAREN) {
              const optsStart = this.p;
              this.p++;
              const opts: { cache?: number; cacheSpan?: Span } = {};
              this.parseSequenceOptions(opts, context, true);
              this.expectKind(TK_RPAREN, "')'", context);
              if (opts.cache !== undefined) {
                cache = opts.cache;
                cacheSpan = opts.cacheSpan ?? this.rangeSpan(optsStart, this.p);
              }
            }
          } else if (this.acceptSeq('SET', 'DATA', 'TYPE')) {
            this.parseDataType(context);
          } else if (this.peek('SET')) {
            this.p++;
            // SET DEFAULT x / SET NOT NULL / SET INLINE LENGTH n / SET GENERATED … / SET EXPRESSION AS (…)
            while (!this.atEnd() && !this.peek('SET') && !this.peek('DROP') && !this.peek('RESTART') && !this.peek('ADD') && !this.peek('ALTER')) this.skipUnit();
          } else if (this.peek('DROP') && ['DEFAULT', 'NOT', 'IDENTITY', 'GENERATED', 'EXPRESSION', 'COLUMN'].some((x) => this.kw(this.p + 1, x))) {
            this.p += 2;
            if (this.kw(this.p - 1, 'NOT') || this.kw(this.p - 1, 'COLUMN')) this.p++;
          } else break;
        }
        if (identity) {
          const a: AlterTableAction = { kind: 'alterColumnIdentity', column, span: this.rangeSpan(startTok, this.p) };
          if (cache !== undefined) a.cache = cache;
          if (cacheSpan) a.cacheSpan = cacheSpan;
          return a;
        }
        return { kind: 'other', span: this.rangeSpan(startTok, this.p) };
      }
      case 'APPEND':
        this.p++;
        if (this.accept('ON')) return done({ kind: 'append', on: true });
        if (this.accept('OFF')) return done({ kind: 'append', on: false });
        this.fail('expected ON or OFF', context);
        break;
      case 'LOCKSIZE': {
        this.p++;
        const locksize = this.parseLocksize(context);
        return done({ kind: 'locksize', locksize });
      }
      case 'PCTFREE': {
        this.p++;
        const value = this.parseNumber(context);
        return done({ kind: 'pctfree', value });
      }
      case 'ACTIVATE':
        if (this.acceptSeq('ACTIVATE', 'NOT', 'LOGGED', 'INITIALLY')) {
          const withEmptyTable = this.acceptSeq('WITH', 'EMPTY', 'TABLE');
          return done({ kind: 'activateNotLoggedInitially', withEmptyTable });
        }
        this.p++;
        return otherAction();
    }
    if (StatementParser.ALTER_ACTION_WORDS.has(w)) {
      this.p++;
      return otherAction();
    }
    this.fail('expected an ALTER TABLE action', context);
  }

  // ---------- CREATE INDEX ----------

  private parseCreateIndex(span: Span): Statement {
    const context = 'CREATE INDEX';
    this.p++; // CREATE
    this.acceptSeq('OR', 'REPLACE');
    const unique = this.accept('UNIQUE');
    if (unique) this.acceptSeq('WHERE', 'NOT', 'NULL');
    this.expect('INDEX', context);
    this.acceptSeq('IF', 'NOT', 'EXISTS');
    const index = this.parseQualifiedName(context);
    this.expect('ON', context);
    const table = this.parseQualifiedName(context);
    const stmt: CreateIndexStatement = {
      kind: 'createIndex',
      index,
      table,
      unique,
      columns: [],
      include: [],
      cluster: false,
      span,
      origin: this.origin,
    };
    this.partial = stmt;
    if (this.kind(this.p) !== TK_LPAREN) this.fail("expected '(' and the index columns", context);
    this.p++;
    for (;;) {
      if (this.kind(this.p) === TK_RPAREN) {
        this.p++;
        break;
      }
      if (this.atEnd()) this.fail("expected ')'", context);
      const col: IndexColumn = { name: '', descending: false };
      if (this.isIdent(this.p)) col.name = this.identValue(this.p);
      while (!this.atEnd() && this.kind(this.p) !== TK_COMMA && this.kind(this.p) !== TK_RPAREN) {
        if (this.kw(this.p, 'DESC')) col.descending = true;
        this.skipUnit();
      }
      stmt.columns.push(col);
      if (this.kind(this.p) === TK_COMMA) this.p++;
    }
    // Options: the ones the model keeps are read; the many others are skipped word by word.
    while (!this.atEnd()) {
      const s = this.p;
      // INCLUDE (columns); db2look also writes INCLUDE NULL KEYS, an option that names no columns.
      if (this.kw(this.p, 'INCLUDE') && this.kind(this.p + 1) === TK_LPAREN) {
        this.p++;
        stmt.include = this.parseNameList(context);
      } else if (this.accept('CLUSTER')) {
        stmt.cluster = true;
        stmt.clusterSpan = this.tokSpan(s);
      } else if (this.accept('PCTFREE')) {
        stmt.pctfree = this.parseNumber(context);
      } else if (this.accept('PARTITIONED')) {
        stmt.partitioned = true;
      } else if (this.acceptSeq('NOT', 'PARTITIONED')) {
        stmt.partitioned = false;
      } else {
        this.skipUnit();
      }
    }
    return stmt;
  }

  // ---------- CREATE / ALTER SEQUENCE ----------

  private parseSequence(span: Span, kind: 'createSequence' | 'alterSequence'): Statement {
    const context = kind === 'createSequence' ? 'CREATE SEQUENCE' : 'ALTER SEQUENCE';
    this.p++;
    this.acceptSeq('OR', 'REPLACE');
    this.expect('SEQUENCE', context);
    const sequence = this.parseQualifiedName(context);
    const stmt: SequenceStatement = { kind, sequence, span, origin: this.origin };
    this.partial = stmt;
    this.parseSequenceOptions(stmt, context, false);
    return stmt;
  }

  // ---------- CREATE TRIGGER ----------

  private parseCreateTrigger(span: Span): Statement {
    const context = 'CREATE TRIGGER';
    this.p++;
    this.acceptSeq('OR', 'REPLACE');
    this.expect('TRIGGER', context);
    const trigger = this.parseQualifiedName(context);
    this.acceptSeq('NO', 'CASCADE');
    let timing: 'before' | 'after' | 'instead of';
    if (this.accept('BEFORE')) timing = 'before';
    else if (this.accept('AFTER')) timing = 'after';
    else if (this.acceptSeq('INSTEAD', 'OF')) timing = 'instead of';
    else this.fail('expected BEFORE, AFTER or INSTEAD OF', context);
    const events: ('insert' | 'update' | 'delete')[] = [];
    for (;;) {
      if (this.accept('INSERT')) events.push('insert');
      else if (this.accept('DELETE')) events.push('delete');
      else if (this.accept('UPDATE')) {
        events.push('update');
        if (this.accept('OF')) {
          this.parseIdentifier(context);
          while (this.kind(this.p) === TK_COMMA) {
            this.p++;
            this.parseIdentifier(context);
          }
        }
      } else this.fail('expected INSERT, UPDATE or DELETE', context);
      if (!this.accept('OR')) break;
    }
    this.expect('ON', context);
    const table = this.parseQualifiedName(context);
    const stmt: CreateTriggerStatement = {
      kind: 'createTrigger',
      trigger,
      timing,
      events,
      table,
      granularity: 'statement',
      body: [],
      bodySpan: { start: span.end, end: span.end },
      span,
      origin: this.origin,
    };
    this.partial = stmt;
    for (;;) {
      if (this.accept('REFERENCING')) {
        // OLD [ROW] [AS] x | NEW [ROW] [AS] x | OLD TABLE [AS] x | NEW TABLE [AS] x | OLD_TABLE … | NEW_TABLE …
        while (this.peek('OLD') || this.peek('NEW') || this.peek('OLD_TABLE') || this.peek('NEW_TABLE')) {
          this.p++;
          if (!this.accept('TABLE')) this.accept('ROW');
          this.accept('AS');
          this.parseIdentifier(context);
        }
        continue;
      }
      if (this.acceptSeq('FOR', 'EACH')) {
        if (this.accept('ROW')) stmt.granularity = 'row';
        else if (this.accept('STATEMENT')) stmt.granularity = 'statement';
        else this.fail('expected ROW or STATEMENT', context);
        continue;
      }
      if (this.acceptSeq('MODE', 'DB2SQL') || this.acceptSeq('NOT', 'SECURED') || this.accept('SECURED')) continue;
      if (this.peek('WHEN') && this.kind(this.p + 1) === TK_LPAREN) {
        this.p++;
        this.skipParens(context);
        continue;
      }
      break;
    }
    if (this.atEnd()) this.fail('expected the triggered action', context);
    const bodyFirst = this.p;
    stmt.bodySpan = this.rangeSpan(bodyFirst, this.end);
    // A trigger body cannot hold another trigger; nonsense input that nests them stays shallow.
    if (this.triggerDepth > 0) {
      stmt.body.push(this.other(stmt.bodySpan, bodyFirst, this.end));
      this.p = this.end;
      return stmt;
    }
    this.triggerDepth++;
    try {
      this.parseTriggerBody(stmt, bodyFirst, context);
    } finally {
      this.triggerDepth--;
    }
    this.p = this.end;
    return stmt;
  }

  private triggerDepth = 0;

  private parseTriggerBody(stmt: CreateTriggerStatement, bodyFirst: number, context: string): void {
    // label: BEGIN ATOMIC …
    let blockAt = bodyFirst;
    if (this.kind(bodyFirst + 1) === TK_OP && this.text.charCodeAt(this.t.start[bodyFirst + 1]) === 58 && this.kw(bodyFirst + 2, 'BEGIN')) blockAt = bodyFirst + 2;
    if (this.kw(blockAt, 'BEGIN')) {
      let inner = blockAt + 1;
      if (this.kw(inner, 'ATOMIC')) inner++;
      else if (this.kw(inner, 'NOT') && this.kw(inner + 1, 'ATOMIC')) inner += 2;
      // The block's own END is the last END in the statement (a label may follow it).
      let endTok = -1;
      for (let j = this.end - 1; j >= inner && j >= this.end - 3; j--) {
        if (this.kw(j, 'END')) {
          endTok = j;
          break;
        }
      }
      if (endTok < 0) {
        this.p = this.end;
        this.fail('expected END closing the BEGIN block', context);
      }
      for (const r of splitBody(this.text, this.t, inner, endTok)) stmt.body.push(this.parseRange(r.first, r.end, false));
    } else {
      stmt.body.push(this.parseRange(bodyFirst, this.end, false));
    }
  }

  // ---------- CREATE TABLESPACE ----------

  private parseCreateTablespace(span: Span): Statement {
    const context = 'CREATE TABLESPACE';
    this.p++;
    let type: CreateTablespaceStatement['type'];
    if (this.accept('LARGE')) type = 'large';
    else if (this.accept('REGULAR')) type = 'regular';
    else if (this.acceptSeq('USER', 'TEMPORARY')) type = 'user temporary';
    else if (this.acceptSeq('SYSTEM', 'TEMPORARY')) type = 'system temporary';
    else if (this.accept('TEMPORARY')) type = 'temporary';
    this.expect('TABLESPACE', context);
    const id = this.parseIdentifier(context);
    const stmt: CreateTablespaceStatement = { kind: 'createTablespace', tablespace: id.name, nameSpan: id.span, span, origin: this.origin };
    if (type) stmt.type = type;
    this.partial = stmt;
    let extentRaw: { value: number; unitBytes: number } | undefined;
    while (!this.atEnd()) {
      const s = this.p;
      if (this.accept('PAGESIZE')) {
        stmt.pageSize = this.parseSize(context);
      } else if (this.acceptSeq('MANAGED', 'BY')) {
        if (this.accept('SYSTEM')) stmt.managedBy = 'system';
        else if (this.accept('DATABASE')) stmt.managedBy = 'database';
        else if (this.acceptSeq('AUTOMATIC', 'STORAGE')) stmt.managedBy = 'automatic storage';
        else this.fail('expected SYSTEM, DATABASE or AUTOMATIC STORAGE', context);
        stmt.managedBySpan = this.rangeSpan(s, this.p);
      } else if (this.accept('EXTENTSIZE')) {
        const value = this.parseNumber(context);
        let unitBytes = 0;
        if (this.accept('K')) unitBytes = 1024;
        else if (this.accept('M')) unitBytes = 1024 * 1024;
        extentRaw = { value, unitBytes };
        stmt.extentSizeSpan = this.rangeSpan(s, this.p);
      } else if (this.accept('PREFETCHSIZE')) {
        if (!this.accept('AUTOMATIC')) {
          stmt.prefetchSize = this.parseNumber(context);
          if (!this.accept('K')) this.accept('M');
        }
      } else if (this.acceptSeq('NO', 'FILE', 'SYSTEM', 'CACHING')) {
        stmt.fileSystemCaching = false;
      } else if (this.acceptSeq('FILE', 'SYSTEM', 'CACHING')) {
        stmt.fileSystemCaching = true;
      } else {
        this.skipUnit();
      }
    }
    if (extentRaw) {
      stmt.extentSize = extentRaw.unitBytes ? Math.max(1, Math.round((extentRaw.value * extentRaw.unitBytes) / (stmt.pageSize ?? 4096))) : extentRaw.value;
    }
    return stmt;
  }

  // ---------- INSERT ----------

  private parseInsert(span: Span): Statement {
    const context = 'INSERT';
    this.p++;
    this.expect('INTO', context);
    // VALUES and SELECT are reserved: `INSERT INTO VALUES (1)` lacks its table, it does not name one.
    if (this.kw(this.p, 'VALUES') || this.kw(this.p, 'SELECT')) this.fail('expected the target table name', context);
    const target = this.parseQualifiedName(context);
    const stmt: InsertStatement = {
      kind: 'insert',
      target,
      columns: [],
      source: EMPTY_VALUES_SOURCE,
      sequences: this.sequencesUsed(this.p, this.end),
      span,
      origin: this.origin,
    };
    this.partial = stmt;
    if (this.kind(this.p) === TK_LPAREN && this.isIdent(this.p + 1) && !this.kw(this.p + 1, 'SELECT') && !this.kw(this.p + 1, 'VALUES') && !this.kw(this.p + 1, 'WITH')) {
      stmt.columns = this.parseNameList(context);
    }
    if (this.acceptSeq('OVERRIDING', 'USER', 'VALUE') || this.acceptSeq('OVERRIDING', 'SYSTEM', 'VALUE')) {
      /* identity override */
    }
    const isolation = this.isolationClause(this.p, this.end);
    if (isolation !== undefined) stmt.isolation = isolation;
    if (this.peek('VALUES')) {
      const sourceFirst = this.p;
      this.p++;
      // Most inserts have one row: an exact one-element array keeps a million of them small.
      const rows: ValuesRow[] = [this.parseValuesRow(context)];
      while (this.kind(this.p) === TK_COMMA) {
        this.p++;
        rows.push(this.parseValuesRow(context));
      }
      const valuesEnd = this.p;
      // Embedded multi-row insert: VALUES (:arr1, :arr2) FOR :n ROWS [ATOMIC | NOT ATOMIC CONTINUE ON SQLEXCEPTION]
      if (this.isForRowsAt(this.p)) this.p += 3;
      if (!this.accept('ATOMIC')) this.acceptSeq('NOT', 'ATOMIC', 'CONTINUE', 'ON', 'SQLEXCEPTION');
      if (this.atEnd() || this.isIsolationAt(this.p)) {
        stmt.source = { kind: 'values', rows, span: this.rangeSpan(sourceFirst, valuesEnd) };
        return stmt;
      }
      if (['UNION', 'EXCEPT', 'INTERSECT', 'ORDER', 'FETCH'].some((w) => this.peek(w))) {
        stmt.source = { kind: 'select', span: this.rangeSpan(sourceFirst, this.end), tables: this.tablesRead(sourceFirst, this.end) };
        return stmt;
      }
      stmt.source = { kind: 'values', rows, span: this.rangeSpan(sourceFirst, this.p) };
      this.fail("expected ',' or the end of the statement after a VALUES row", context);
    }
    if (this.peek('SELECT') || this.peek('WITH') || this.kind(this.p) === TK_LPAREN) {
      const sourceFirst = this.p;
      stmt.source = { kind: 'select', span: this.rangeSpan(sourceFirst, this.end), tables: this.tablesRead(sourceFirst, this.end) };
      this.p = this.end;
      return stmt;
    }
    this.fail('expected VALUES, SELECT or WITH', context);
  }

  /** [ALWAYS | BY DEFAULT] AS IDENTITY at token i. */
  private identityFollows(i: number): boolean {
    if (this.kw(i, 'ALWAYS')) i++;
    else if (this.kw(i, 'BY') && this.kw(i + 1, 'DEFAULT')) i += 2;
    return this.kw(i, 'AS') && this.kw(i + 1, 'IDENTITY');
  }

  /** FOR n ROWS / FOR :n ROWS / FOR ? ROWS after a VALUES list. */
  private isForRowsAt(i: number): boolean {
    return this.kw(i, 'FOR') && this.kw(i + 2, 'ROWS');
  }

  private isIsolationAt(i: number): boolean {
    return this.kw(i, 'WITH') && (this.kw(i + 1, 'UR') || this.kw(i + 1, 'CS') || this.kw(i + 1, 'RS') || this.kw(i + 1, 'RR'));
  }

  /** WITH UR|CS|RS|RR at nesting level 0 of [from, to). */
  private isolationClause(from: number, to: number): string | undefined {
    let depth = 0;
    for (let i = from; i < to; i++) {
      const k = this.t.kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (depth === 0 && this.isIsolationAt(i)) return this.upper(i + 1);
    }
    return undefined;
  }

  private parseValuesRow(context: string): ValuesRow {
    const startTok = this.p;
    const store = this.rowStore;
    if (this.kind(this.p) === TK_LPAREN) {
      const close = this.afterBalanced(this.p) - 1;
      if (this.kind(close) !== TK_RPAREN) {
        this.p = this.end;
        this.fail("missing ')' after the VALUES row", context);
      }
      let i = this.p + 1;
      if (i === close) this.fail('expected a value', context, i);
      // A row has at most as many values as tokens between its parentheses.
      const at = store.reserve(3 + 3 * (close - i));
      const data = store.data;
      let w = at + 3;
      while (i < close) {
        const vStart = i;
        let depth = 0;
        while (i < close) {
          const k = this.t.kind[i];
          if (k === TK_LPAREN) depth++;
          else if (k === TK_RPAREN) depth--;
          else if (k === TK_COMMA && depth === 0) break;
          i++;
        }
        if (i === vStart) this.fail('expected a value', context, i);
        data[w] = this.classifyValueKind(vStart, i);
        data[w + 1] = this.t.start[vStart];
        data[w + 2] = this.t.end[i - 1];
        w += 3;
        if (i < close) {
          i++; // comma
          if (i === close) this.fail('expected a value', context, i);
        }
      }
      this.p = close + 1;
      data[at] = this.t.start[startTok];
      data[at + 1] = this.t.end[close];
      data[at + 2] = (w - at - 3) / 3;
      return store.commit(w);
    }
    // VALUES expr — one single-column row; the expression ends at ',' or at the end / WITH isolation
    const vStart = this.p;
    let i = this.p;
    while (i < this.end && this.t.kind[i] !== TK_COMMA && !this.isIsolationAt(i) && !this.isForRowsAt(i)) {
      if (this.t.kind[i] === TK_LPAREN) i = this.afterBalanced(i);
      else i++;
    }
    if (i === vStart) this.fail('expected a value', context, i);
    const kind = this.classifyValueKind(vStart, i);
    this.p = i;
    const at = store.reserve(6);
    const data = store.data;
    const span = this.rangeSpan(vStart, i);
    data[at] = span.start;
    data[at + 1] = span.end;
    data[at + 2] = 1;
    data[at + 3] = kind;
    data[at + 4] = span.start;
    data[at + 5] = span.end;
    return store.commit(at + 6);
  }

  /** How the value in tokens [a, b) (not empty) is supplied, as a VK_ code. */
  private classifyValueKind(a: number, b: number): number {
    // Strip parentheses around the whole value in one pass (deep nesting must stay linear): k leading
    // '(' and trailing ')' enclose the value, less those that close inside it, as in (1)+(2).
    let lead = 0;
    while (a + lead < b && this.t.kind[a + lead] === TK_LPAREN) lead++;
    let trail = 0;
    while (b - 1 - trail > a + lead && this.t.kind[b - 1 - trail] === TK_RPAREN) trail++;
    let k = Math.min(lead, trail);
    if (k > 0) {
      let depth = 0;
      let lowest = 0;
      for (let i = a + k; i < b - k; i++) {
        const kind = this.t.kind[i];
        if (kind === TK_LPAREN) depth++;
        else if (kind === TK_RPAREN && --depth < lowest) lowest = depth;
      }
      k = Math.max(0, k + lowest);
      a += k;
      b -= k;
    }
    return this.valueKind(a, b);
  }

  private valueKind(a: number, b: number): number {
    const n = b - a;
    const k0 = this.t.kind[a];
    if (n === 1) {
      if (k0 === TK_STRING || k0 === TK_NUMBER) return VK_LITERAL;
      if (k0 === TK_MARKER) return VK_MARKER;
      if (k0 === TK_HOST) return VK_HOST;
      if (this.kw(a, 'NULL')) return VK_NULL;
      if (this.kw(a, 'DEFAULT')) return VK_DEFAULT;
      return VK_EXPRESSION;
    }
    if (n === 2) {
      if ((this.isOp(a, '-') || this.isOp(a, '+')) && this.t.kind[a + 1] === TK_NUMBER) return VK_LITERAL;
      // The string test first: upper() allocates, and two-word values such as CURRENT TIMESTAMP are common.
      if (k0 === TK_WORD && this.t.kind[a + 1] === TK_STRING && TYPED_LITERAL_WORDS.has(this.upper(a))) return VK_LITERAL;
    }
    if (n === 3 && k0 === TK_HOST && this.kw(a + 1, 'INDICATOR') && this.t.kind[a + 2] === TK_HOST) return VK_HOST;
    // CAST(? AS type) / CAST(:h AS type) / CAST(NULL AS type) / CAST('x' AS type)
    if (this.kw(a, 'CAST') && this.t.kind[a + 1] === TK_LPAREN && this.afterBalanced(a + 1) === b && this.kw(a + 3, 'AS')) {
      const inner = this.valueKind(a + 2, a + 3);
      if (inner !== VK_EXPRESSION && inner !== VK_DEFAULT) return inner;
    }
    return VK_EXPRESSION;
  }

  /** NEXT VALUE FOR s, NEXTVAL FOR s, s.NEXTVAL in tokens [from, to). */
  private sequencesUsed(from: number, to: number): QualifiedName[] {
    let out: QualifiedName[] | undefined;
    const saved = this.end;
    this.end = to;
    try {
      for (let i = from; i < to; i++) {
        if (this.t.kind[i] !== TK_WORD) continue;
        let nameAt = -1;
        if (this.kw(i, 'NEXT') && this.kw(i + 1, 'VALUE') && this.kw(i + 2, 'FOR')) nameAt = i + 3;
        else if (this.kw(i, 'NEXTVAL') && this.kw(i + 1, 'FOR')) nameAt = i + 2;
        else if (this.kw(i, 'NEXTVAL') && i - 2 >= from && this.t.kind[i - 1] === TK_DOT && this.isIdent(i - 2)) {
          // s.NEXTVAL or schema.s.NEXTVAL
          const nameEnd = i - 1;
          let first = i - 2;
          if (first - 2 >= from && this.t.kind[first - 1] === TK_DOT && this.isIdent(first - 2)) first -= 2;
          const name = this.identValue(nameEnd - 1);
          const q: QualifiedName = { name, span: { start: this.t.start[first], end: this.t.end[nameEnd - 1] } };
          if (first !== nameEnd - 1) q.schema = this.identValue(first);
          (out ??= []).push(q);
          continue;
        }
        if (nameAt >= 0) {
          const r = this.qualifiedNameAt(nameAt);
          if (r) (out ??= []).push(r.name);
        }
      }
    } finally {
      this.end = saved;
    }
    return out ?? NO_SEQUENCES;
  }

  /**
   * Tables read by a fullselect in tokens [from, to): names after FROM/JOIN (and after ',' in a FROM
   * list) at a level where SELECT was seen, excluding common table expressions. One linear pass.
   */
  private tablesRead(from: number, to: number): QualifiedName[] {
    const out: QualifiedName[] = [];
    const seen = new Set<string>();
    let ctes: Set<string> | undefined;
    const savedEnd = this.end;
    this.end = to;
    try {
      // common table expressions: WITH name [(cols)] AS ( … ) [, name …]
      for (let i = from; i < to; i++) {
        if (!this.kw(i, 'WITH') && !(this.t.kind[i] === TK_COMMA && ctes)) continue;
        let j = i + 1;
        if (!this.isIdent(j)) continue;
        j++;
        // name (cols) AS ( — the column list is short; do not scan far for it
        if (this.t.kind[j] === TK_LPAREN && j < to && this.isIdent(j + 1)) j = this.afterBalanced(j);
        if (this.kw(j, 'AS') && this.kind(j + 1) === TK_LPAREN) (ctes ??= new Set()).add(this.identValue(i + 1));
      }
      // Per nesting level: bit 1 = a FROM list is open, bit 2 = SELECT was seen.
      const levels = this.levelStack(to - from + 1);
      levels[0] = 0;
      let depth = 0;
      const readRef = (i: number): void => {
        if (!this.isIdent(i)) return;
        if (this.t.kind[i] === TK_WORD && TABLE_REF_SKIP.has(this.upper(i))) return;
        const r = this.qualifiedNameAt(i);
        if (!r) return;
        const key = (r.name.schema ?? '') + '.' + r.name.name;
        if (!r.name.schema && ctes?.has(r.name.name)) return;
        if (seen.has(key)) return;
        seen.add(key);
        out.push(r.name);
      };
      for (let i = from; i < to; i++) {
        const k = this.t.kind[i];
        if (k === TK_LPAREN) {
          levels[++depth] = 0;
          continue;
        }
        if (k === TK_RPAREN) {
          if (depth > 0) depth--;
          continue;
        }
        if (k === TK_COMMA) {
          if (levels[depth] & 1) readRef(i + 1);
          continue;
        }
        if (k !== TK_WORD) continue;
        if (this.kw(i, 'SELECT')) {
          levels[depth] = 2;
        } else if (this.kw(i, 'FROM') || this.kw(i, 'JOIN')) {
          if (levels[depth] & 2 || this.kw(i, 'JOIN')) {
            levels[depth] |= 1;
            readRef(i + 1);
          }
        } else if (levels[depth] & 1 && this.isFromEnder(i)) {
          levels[depth] &= ~1;
        }
      }
    } finally {
      this.end = savedEnd;
    }
    return out;
  }

  private levels = new Uint8Array(64);

  /** A scratch stack of at least `size` levels, reused across statements. */
  private levelStack(size: number): Uint8Array {
    if (this.levels.length < size) this.levels = new Uint8Array(Math.max(size, this.levels.length * 2));
    return this.levels;
  }

  private isFromEnder(i: number): boolean {
    const len = this.t.end[i] - this.t.start[i];
    return len >= 2 && len <= 9 && FROM_ENDERS.has(this.upper(i));
  }

  // ---------- MERGE ----------

  private parseMerge(span: Span): Statement {
    const context = 'MERGE';
    this.p++;
    this.expect('INTO', context);
    const target = this.parseQualifiedName(context);
    const stmt: Statement = { kind: 'merge', target, source: { start: span.end, end: span.end }, hasInsert: false, hasUpdate: false, hasDelete: false, span, origin: this.origin };
    this.partial = stmt;
    // optional correlation name
    if (this.accept('AS')) this.parseIdentifier(context);
    else if (this.isIdent(this.p) && !this.peek('USING')) this.p++;
    this.expect('USING', context);
    const sourceFirst = this.p;
    let depth = 0;
    while (!this.atEnd()) {
      const k = this.kind(this.p);
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (depth === 0 && this.peek('ON')) break;
      this.p++;
    }
    if (this.atEnd()) this.fail('expected ON', context);
    if (this.p === sourceFirst) this.fail('expected the source table or fullselect', context);
    stmt.source = this.rangeSpan(sourceFirst, this.p);
    depth = 0;
    for (let i = this.p; i < this.end; i++) {
      const k = this.t.kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (depth === 0 && this.kw(i, 'THEN')) {
        if (this.kw(i + 1, 'INSERT')) stmt.hasInsert = true;
        else if (this.kw(i + 1, 'UPDATE')) stmt.hasUpdate = true;
        else if (this.kw(i + 1, 'DELETE')) stmt.hasDelete = true;
      }
    }
    if (!stmt.hasInsert && !stmt.hasUpdate && !stmt.hasDelete) {
      let hasWhen = false;
      for (let i = this.p; i < this.end; i++) if (this.kw(i, 'WHEN')) hasWhen = true;
      if (!hasWhen) this.fail('expected WHEN [NOT] MATCHED', context, this.end);
    }
    this.p = this.end;
    return stmt;
  }

  // ---------- small statements ----------

  private expectEnd(context: string): void {
    if (!this.atEnd()) this.fail('expected the end of the statement', context);
  }

  private parseTransaction(span: Span, kind: 'commit' | 'rollback'): Statement {
    const context = kind.toUpperCase();
    this.p++;
    this.accept('WORK');
    const stmt: Statement = { kind, span, origin: this.origin };
    this.partial = stmt;
    if (kind === 'rollback' && this.acceptSeq('TO', 'SAVEPOINT')) {
      stmt.toSavepoint = true;
      if (this.isIdent(this.p)) this.p++;
    }
    this.expectEnd(context);
    return stmt;
  }

  private parseSetSchema(span: Span): Statement {
    const context = 'SET SCHEMA';
    this.p++;
    this.accept('CURRENT');
    if (!this.accept('SCHEMA') && !this.accept('SQLID')) this.accept('CURRENT_SCHEMA');
    if (this.isOp(this.p, '=')) this.p++;
    const k = this.kind(this.p);
    let schema: string;
    if (k === TK_STRING) {
      const s = this.t.start[this.p];
      const e = this.t.end[this.p];
      schema = this.text.slice(s + 1, this.t.flags[this.p] & FLAG_UNTERMINATED ? e : e - 1).replace(/''/g, "'");
      this.p++;
    } else if (k === TK_HOST) {
      schema = this.text.slice(this.t.start[this.p], this.t.end[this.p]);
      this.p++;
    } else if (this.kw(this.p, 'CURRENT') || this.kw(this.p, 'SESSION_USER') || this.kw(this.p, 'USER') || this.kw(this.p, 'SYSTEM_USER')) {
      schema = this.upper(this.p);
      this.p++;
      if (schema === 'CURRENT' && this.kind(this.p) === TK_WORD) schema += ' ' + this.upper(this.p++);
    } else {
      schema = this.parseIdentifier(context).name;
    }
    const stmt: Statement = { kind: 'setSchema', schema, span, origin: this.origin };
    this.partial = stmt;
    this.expectEnd(context);
    return stmt;
  }

  private parseConnect(span: Span): Statement {
    const context = 'CONNECT';
    this.p++;
    const stmt: Statement = { kind: 'connect', reset: false, span, origin: this.origin };
    this.partial = stmt;
    if (this.accept('RESET')) {
      stmt.reset = true;
    } else if (this.accept('TO')) {
      if (this.kind(this.p) === TK_HOST) {
        stmt.database = this.text.slice(this.t.start[this.p], this.t.end[this.p]);
        this.p++;
      } else stmt.database = this.parseIdentifier(context).name;
      // IN SHARE MODE, USER u USING p, NEW p CONFIRM p, … are connection options
      this.p = this.end;
    }
    this.expectEnd(context);
    return stmt;
  }

  private parseUpdateCommandOptions(span: Span): Statement {
    const context = 'UPDATE COMMAND OPTIONS';
    this.p += 3;
    const stmt: Statement = { kind: 'updateCommandOptions', options: {}, span, origin: this.origin };
    this.partial = stmt;
    this.expect('USING', context);
    for (;;) {
      if (this.kind(this.p) !== TK_WORD) this.fail('expected an option letter', context);
      const letter = this.upper(this.p++);
      let on: boolean;
      if (this.accept('ON')) on = true;
      else if (this.accept('OFF')) on = false;
      else this.fail('expected ON or OFF', context);
      stmt.options[letter] = on;
      if (letter === 'C') stmt.autocommit = on;
      // Some options take a value after ON (R ON file, Z ON file, L ON file, E ON c, …).
      if (on && !this.atEnd() && !(this.kind(this.p) === TK_WORD && (this.kw(this.p + 1, 'ON') || this.kw(this.p + 1, 'OFF')))) {
        this.p = this.afterAdjacentRun(this.p);
      }
      if (this.atEnd()) break;
    }
    return stmt;
  }

  /** Index after a run of tokens with no whitespace between them (a path like /tmp/x.del). */
  private afterAdjacentRun(i: number): number {
    let j = i + 1;
    while (j < this.end && this.t.start[j] === this.t.end[j - 1]) j++;
    return j;
  }

  private parseUpdateDbCfg(span: Span): Statement {
    const context = 'UPDATE DATABASE CONFIGURATION';
    this.p += 3;
    const stmt: Statement = { kind: 'updateDbCfg', parameters: [], span, origin: this.origin };
    this.partial = stmt;
    for (;;) {
      if (this.accept('FOR')) {
        stmt.database = this.parseIdentifier(context).name;
        continue;
      }
      if (this.accept('MEMBER') || this.accept('DBPARTITIONNUM')) {
        this.p++;
        continue;
      }
      break;
    }
    this.expect('USING', context);
    while (!this.atEnd()) {
      if (this.peek('IMMEDIATE') || this.peek('DEFERRED')) {
        this.p++;
        continue;
      }
      const nameTok = this.p;
      if (this.kind(nameTok) !== TK_WORD) this.fail('expected a configuration parameter name', context);
      this.p++;
      if (this.atEnd()) this.fail('expected a value', context);
      const valueFirst = this.p;
      this.p = this.afterAdjacentRun(this.p);
      let valueText = this.text.slice(this.t.start[valueFirst], this.t.end[this.p - 1]);
      const param: ConfigParameter = { name: this.upper(nameTok), value: valueText, span: this.rangeSpan(nameTok, this.p) };
      if (/^[+-]?\d+(\.\d+)?$/.test(valueText)) param.numericValue = Number(valueText);
      if (this.peek('AUTOMATIC') || this.peek('MANUAL')) {
        valueText += ' ' + this.upper(this.p++);
        param.value = valueText;
        param.span = this.rangeSpan(nameTok, this.p);
      }
      stmt.parameters.push(param);
    }
    return stmt;
  }

  /** File name in LOAD/IMPORT: a string literal or a run of adjacent tokens (a path). */
  private parseFileName(context: string): string {
    if (this.atEnd()) this.fail('expected a file name', context);
    if (this.kind(this.p) === TK_STRING) {
      const s = this.t.start[this.p];
      const e = this.t.end[this.p];
      this.p++;
      return this.text.slice(s + 1, Math.max(s + 1, e - 1));
    }
    const first = this.p;
    this.p = this.afterAdjacentRun(this.p);
    return this.text.slice(this.t.start[first], this.t.end[this.p - 1]);
  }

  /** INSERT|REPLACE|… INTO table inside a LOAD/IMPORT command. */
  private findInto(modes: string[]): { mode: string; at: number } | undefined {
    for (let i = this.p; i + 1 < this.end; i++) {
      if (this.t.kind[i] !== TK_WORD || !this.kw(i + 1, 'INTO')) continue;
      const w = this.upper(i);
      if (modes.includes(w)) return { mode: w, at: i };
    }
    return undefined;
  }

  private parseLoad(span: Span): Statement {
    const context = 'LOAD';
    this.p++;
    const client = this.accept('CLIENT');
    this.expect('FROM', context);
    const name = this.parseFileName(context);
    while (this.kind(this.p) === TK_COMMA) {
      this.p++;
      this.parseFileName(context);
    }
    this.expect('OF', context);
    if (this.kind(this.p) !== TK_WORD) this.fail('expected a file type (DEL, ASC, IXF, CURSOR)', context);
    const fileType = this.upper(this.p++);
    const found = this.findInto(['INSERT', 'REPLACE', 'RESTART', 'TERMINATE']);
    if (!found) this.fail('expected INSERT|REPLACE|RESTART|TERMINATE INTO table', context, this.end);
    let nonrecoverable = false;
    for (let i = this.p; i < this.end; i++) if (this.kw(i, 'NONRECOVERABLE')) nonrecoverable = true;
    this.p = found.at + 2;
    const table = this.parseQualifiedName(context);
    const stmt: Statement = {
      kind: 'load',
      from: { kind: fileType === 'CURSOR' ? 'cursor' : 'file', name: fileType === 'CURSOR' ? name.toUpperCase() : name },
      fileType,
      mode: found.mode.toLowerCase() as 'insert' | 'replace' | 'restart' | 'terminate',
      table,
      nonrecoverable,
      client,
      span,
      origin: this.origin,
    };
    this.p = this.end;
    return stmt;
  }

  private parseImport(span: Span): Statement {
    const context = 'IMPORT';
    this.p++;
    this.expect('FROM', context);
    const from = this.parseFileName(context);
    this.expect('OF', context);
    if (this.kind(this.p) !== TK_WORD) this.fail('expected a file type (DEL, ASC, IXF)', context);
    const fileType = this.upper(this.p++);
    let commitCount: number | 'automatic' | undefined;
    for (let i = this.p; i < this.end; i++) {
      if (!this.kw(i, 'COMMITCOUNT')) continue;
      if (this.kw(i + 1, 'AUTOMATIC')) commitCount = 'automatic';
      else if (this.kind(i + 1) === TK_NUMBER) commitCount = Number(this.text.slice(this.t.start[i + 1], this.t.end[i + 1]));
      break;
    }
    const found = this.findInto(['INSERT', 'INSERT_UPDATE', 'REPLACE', 'REPLACE_CREATE', 'CREATE']);
    if (!found) this.fail('expected INSERT|INSERT_UPDATE|REPLACE|REPLACE_CREATE|CREATE INTO table', context, this.end);
    this.p = found.at + 2;
    const table = this.parseQualifiedName(context);
    const stmt: Statement = {
      kind: 'import',
      from,
      fileType,
      mode: found.mode.toLowerCase() as 'insert' | 'insert_update' | 'replace' | 'replace_create' | 'create',
      table,
      span,
      origin: this.origin,
    };
    if (commitCount !== undefined) stmt.commitCount = commitCount;
    this.p = this.end;
    return stmt;
  }

  private parseDeclareCursor(span: Span): Statement {
    const context = 'DECLARE CURSOR';
    this.p++;
    const cursor = this.parseIdentifier(context).name;
    this.expect('CURSOR', context);
    // WITH HOLD, WITH RETURN [TO CALLER|CLIENT], DATABASE db USER u USING p (CLP) … up to FOR
    while (!this.atEnd() && !this.peek('FOR')) this.p++;
    this.expect('FOR', context);
    if (this.atEnd()) this.fail('expected a SELECT or a statement name', context);
    const queryFirst = this.p;
    const stmt: Statement = {
      kind: 'declareCursor',
      cursor,
      query: this.rangeSpan(queryFirst, this.end),
      tables: this.tablesRead(queryFirst, this.end),
      span,
      origin: this.origin,
    };
    this.p = this.end;
    return stmt;
  }

  private parseLockTable(span: Span): Statement {
    const context = 'LOCK TABLE';
    this.p += 2;
    const table = this.parseQualifiedName(context);
    this.expect('IN', context);
    let mode: 'share' | 'exclusive';
    if (this.accept('SHARE')) mode = 'share';
    else if (this.accept('EXCLUSIVE')) mode = 'exclusive';
    else this.fail('expected SHARE or EXCLUSIVE', context);
    this.expect('MODE', context);
    const stmt: Statement = { kind: 'lockTable', table, mode, span, origin: this.origin };
    this.expectEnd(context);
    return stmt;
  }
}

