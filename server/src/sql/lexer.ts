// Db2 LUW lexer. Tokens live in typed arrays (struct of arrays) so that a million-line script does not
// allocate one object per token; the parser reads token text through offsets into the source.
// Whitespace is skipped; comments go to a separate list (they matter for suppression comments only).
import type { Comment } from './ast';

export const TK_WORD = 1; // ordinary identifier or keyword (folded to upper case when read as a name)
export const TK_DELIM = 2; // "delimited identifier"
export const TK_STRING = 3; // '...', X'..', G'..', N'..', U&'..', GX'..', UX'..', BX'..'
export const TK_NUMBER = 4;
export const TK_MARKER = 5; // ?
export const TK_HOST = 6; // :name or :name:indicator
export const TK_LPAREN = 7;
export const TK_RPAREN = 8;
export const TK_COMMA = 9;
export const TK_DOT = 10;
export const TK_SEMI = 11; // a ';' that is not the statement terminator
export const TK_OP = 12; // any other operator or punctuation
export const TK_TERM = 13; // the current statement terminator
export const TK_RAW = 14; // free text of a CLP ECHO or !shell command
export const TK_BAD_COMMENT = 15; // a /* comment that never ends

/** Token flag: the string, delimited identifier or comment runs to the end of input. */
export const FLAG_UNTERMINATED = 1;

export class TokenList {
  kind: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  flags: Uint8Array;
  count = 0;

  constructor(capacity: number) {
    const n = Math.max(16, capacity | 0);
    this.kind = new Uint8Array(n);
    this.start = new Int32Array(n);
    this.end = new Int32Array(n);
    this.flags = new Uint8Array(n);
  }

  push(kind: number, start: number, end: number, flags: number): void {
    if (this.count === this.kind.length) this.grow();
    const i = this.count++;
    this.kind[i] = kind;
    this.start[i] = start;
    this.end[i] = end;
    this.flags[i] = flags;
  }

  /** The most tokens the list held before a discard (reset clears that far). */
  private highWater = 0;

  get capacity(): number {
    return this.kind.length;
  }

  /** Empties the list as it was made, zeroed where tokens were, for another text (parser.ts reuses lists). */
  reset(): void {
    const used = Math.max(this.count, this.highWater);
    this.kind.fill(0, 0, used);
    this.start.fill(0, 0, used);
    this.end.fill(0, 0, used);
    this.flags.fill(0, 0, used);
    this.count = 0;
    this.highWater = 0;
  }

  /** Drops the first `n` tokens (the rest move to the front): a caller that lexes in rounds reuses one buffer. */
  discard(n: number): void {
    if (n <= 0) return;
    if (this.count > this.highWater) this.highWater = this.count;
    const keep = this.count - n;
    this.kind.copyWithin(0, n, this.count);
    this.start.copyWithin(0, n, this.count);
    this.end.copyWithin(0, n, this.count);
    this.flags.copyWithin(0, n, this.count);
    this.count = keep;
  }

  private grow(): void {
    const n = Math.ceil(this.kind.length * 1.5);
    const kind = new Uint8Array(n);
    kind.set(this.kind);
    const start = new Int32Array(n);
    start.set(this.start);
    const end = new Int32Array(n);
    end.set(this.end);
    const flags = new Uint8Array(n);
    flags.set(this.flags);
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.flags = flags;
  }
}

export interface LexResult {
  tokens: TokenList;
  comments: Comment[];
}

// ASCII character classes in a table: the lexer asks for every character of scripts of many MB.
const CC_SPACE = 1;
const CC_IDENT_START = 2;
const CC_DIGIT = 4;
const CC_LETTER = 8;
const ASCII_CLASS = new Uint8Array(128);
for (const c of [32, 9, 10, 13, 12, 11, 0]) ASCII_CLASS[c] = CC_SPACE;
for (let c = 65; c <= 90; c++) ASCII_CLASS[c] = CC_IDENT_START | CC_LETTER;
for (let c = 97; c <= 122; c++) ASCII_CLASS[c] = CC_IDENT_START | CC_LETTER;
for (const c of [95, 64, 35, 36]) ASCII_CLASS[c] = CC_IDENT_START; // _ @ # $ (Db2 allows them in names)
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = CC_DIGIT;

// The classes of Lexer.run's fast path: characters that start only one kind of token wherever they are
// (a letter starting a prefixed string, B G N U X, is not FAST_WORD; nor are _ @ # $, the last two of which
// start comments and placeholders).
const FAST_PUNCT = 1;
const FAST_DIGIT = 2;
const FAST_WORD = 3;
const FAST_CLASS = new Uint8Array(128);
for (const c of [40, 41, 44]) FAST_CLASS[c] = FAST_PUNCT;
for (let c = 48; c <= 57; c++) FAST_CLASS[c] = FAST_DIGIT;
for (let c = 65; c <= 90; c++) if (![66, 71, 78, 85, 88].includes(c)) FAST_CLASS[c] = FAST_CLASS[c + 32] = FAST_WORD;

function isSpace(c: number): boolean {
  return c < 128 ? (ASCII_CLASS[c] & CC_SPACE) !== 0 : c === 0xa0 || c === 0xfeff;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return c < 128 && (ASCII_CLASS[c] & CC_LETTER) !== 0;
}

/** Characters that may start an ordinary identifier (Db2 also allows @, # and $; non-ASCII letters). */
function isIdentStart(c: number): boolean {
  return c < 128 ? (ASCII_CLASS[c] & CC_IDENT_START) !== 0 : c !== 0xa0 && c !== 0xfeff && c !== 0xac;
}

function isIdentPart(c: number): boolean {
  return c < 128 ? (ASCII_CLASS[c] & (CC_IDENT_START | CC_DIGIT)) !== 0 : c !== 0xa0 && c !== 0xfeff && c !== 0xac;
}

// Made once: a regular expression literal is a new object each time it is evaluated, two per `--` comment lexed
// (~3 of the ~95 MB a run over the SQL corpus allocates). Not global, so exec keeps no state between calls.
const SET_TERMINATOR = /^\s*#SET\s+TERMINATOR\s+(\S+)/i;
const SCRIPT_OPTIONS_TERMINATOR = /<ScriptOptions\s+statementTerminator="([^"\s]+)"/i;

/**
 * `--#SET TERMINATOR x` (CLP) and `<ScriptOptions statementTerminator="x"/>` (Data Studio) switch the
 * terminator. Returns the new terminator or undefined. `body` is the comment text after `--`.
 */
export function terminatorDirective(body: string): string | undefined {
  // Nearly every comment is prose: each expression runs only where its first character is (a 200,000-line
  // script spent 8 ms, 2% of its run, in SET_TERMINATOR alone).
  if (mayStartWithHash(body)) {
    const m = SET_TERMINATOR.exec(body);
    if (m) return m[1];
  }
  if (body.indexOf('<') >= 0) {
    const s = SCRIPT_OPTIONS_TERMINATOR.exec(body);
    if (s) return s[1];
  }
  return undefined;
}

/** Whether the first character after ASCII white space is '#' or not ASCII (\s also matches Unicode spaces). */
function mayStartWithHash(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    return c === 35 || c >= 128;
  }
  return false;
}

function keywordAt(text: string, start: number, end: number, upper: string): boolean {
  if (end - start !== upper.length) return false;
  for (let k = 0; k < upper.length; k++) {
    let c = text.charCodeAt(start + k);
    if (c >= 97 && c <= 122) c -= 32;
    if (c !== upper.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Splits `text` into tokens. Never throws: anything unexpected becomes a one-character TK_OP token and
 * unterminated strings/comments run to the end of input with FLAG_UNTERMINATED.
 */
export function lex(text: string, initialTerminator = ';'): LexResult {
  // About one token per four or five characters in SQL scripts; the list grows when that is too few.
  const tokens = new TokenList(Math.min((text.length / 4) | 0, 1 << 24) + 16);
  const lexer = new Lexer(text, initialTerminator);
  lexer.run(tokens);
  return { tokens, comments: lexer.comments };
}

/**
 * The lexer, resumable: `run` can stop after a statement terminator once enough tokens are in the list,
 * and carry on later. parseSql lexes a big script in rounds into one reused buffer (the tokens of a
 * whole 1,000,000-line script took 124 MB, written once and read twice from memory far bigger than
 * the caches); `lex` runs it to the end in one go.
 */
export class Lexer {
  readonly comments: Comment[] = [];
  private i = 0;
  private term: string;
  private atStatementStart = true;
  /** Only whitespace since the last line break. */
  private lineStart = true;

  /**
   * `from`: where to start, at the start of a statement (sql/incremental.ts re-lexes from there);
   * `lineStart`: only whitespace lies between the last line break and `from`; `fastPath`: false only in tests,
   * which compare run's fast path with the general one.
   */
  constructor(
    private readonly text: string,
    initialTerminator = ';',
    from = 0,
    lineStart = true,
    private readonly fastPath = true,
  ) {
    this.term = initialTerminator.length > 0 ? initialTerminator : ';';
    this.i = from;
    this.lineStart = lineStart;
  }

  /** True once the whole text is tokenised. */
  get done(): boolean {
    return this.i >= this.text.length;
  }

  /**
   * Adds tokens to `tokens` up to the end of the text, or stops right after a terminator token once the
   * list holds `minTokens` tokens.
   */
  run(tokens: TokenList, minTokens = Infinity): void {
    // The state lives in locals while the loop runs (faster than fields) and goes back at the end.
    const text = this.text;
    const comments = this.comments;
    const n = text.length;
    let term = this.term;
    let termC0 = term.charCodeAt(0);
    let termLen = term.length;
    let atStatementStart = this.atStatementStart;
    let lineStart = this.lineStart;
    let i = this.i;
    const fastPath = this.fastPath;


    while (i < n) {
      const c = text.charCodeAt(i);
      // CLP without -t: each line is one command (terminator "\n")
      // ... where a backslash at the end of a line continues the command on the next line.
      if (c === 92 && termC0 === 10) {
        let j = i + 1;
        while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || text.charCodeAt(j) === 13)) j++;
        if (j >= n || text.charCodeAt(j) === 10) {
          i = j + 1;
          continue;
        }
      }
      if (c === 10 && termC0 === 10) {
        tokens.push(TK_TERM, i, i + 1, 0);
        i++;
        lineStart = true;
        atStatementStart = true;
        if (tokens.count >= minTokens) break;
        continue;
      }
      if (isSpace(c)) {
        if (c === 10 || c === 13) lineStart = true;
        i++;
        continue;
      }
      // The tokens most of a script is made of, without the tests below for what they cannot be (comments,
      // terminators, placeholders, prefixed strings, ECHO): '(' ')' ',', numbers, and words that start neither
      // a prefixed string nor a statement. About a fifth of the lexer's time on an insert workload.
      const fast = fastPath && c < 128 && c !== termC0 ? FAST_CLASS[c] : 0;
      if (fast === FAST_PUNCT) {
        lineStart = false;
        atStatementStart = false;
        tokens.push(c === 40 ? TK_LPAREN : c === 41 ? TK_RPAREN : TK_COMMA, i, i + 1, 0);
        i++;
        continue;
      }
      if (fast === FAST_DIGIT) {
        lineStart = false;
        atStatementStart = false;
        i = lexNumber(text, i, tokens);
        continue;
      }
      if (fast === FAST_WORD && !atStatementStart) {
        lineStart = false;
        const j = wordEnd(text, i, n, term, termC0);
        tokens.push(TK_WORD, i, j, 0);
        i = j;
        continue;
      }
      const wasLineStart = lineStart;
      lineStart = false;
      const next = i + 1 < n ? text.charCodeAt(i + 1) : -1;

      // -- line comment
      if (c === 45 && next === 45) {
        let j = i + 2;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 10 || d === 13) break;
          j++;
        }
        const body = text.slice(i + 2, j);
        comments.push({ span: { start: i, end: j }, text: body });
        const directive = body.length > 8 ? terminatorDirective(body) : undefined;
        if (directive !== undefined) {
          term = directive;
          termC0 = term.charCodeAt(0);
          termLen = term.length;
        }
        i = j;
        continue;
      }
      // /* nested block comment */
      // ('//*' is an XQuery path step, not a comment start.)
      // ('/*:name' is an XQuery wildcard step, not a comment either.)
      if (c === 47 && next === 42 && !(i > 0 && text.charCodeAt(i - 1) === 47) && text.charCodeAt(i + 2) !== 58) {
        let depth = 1;
        let j = i + 2;
        while (j < n && depth > 0) {
          const d = text.charCodeAt(j);
          if (d === 42 && text.charCodeAt(j + 1) === 47) {
            depth--;
            j += 2;
          } else if (d === 47 && text.charCodeAt(j + 1) === 42) {
            depth++;
            j += 2;
          } else {
            j++;
          }
        }
        if (depth > 0) {
          comments.push({ span: { start: i, end: n }, text: text.slice(i + 2, n) });
          tokens.push(TK_BAD_COMMENT, i, n, FLAG_UNTERMINATED);
          i = n;
          break;
        }
        comments.push({ span: { start: i, end: j }, text: text.slice(i + 2, j - 2) });
        i = j;
        continue;
      }
      // '#' comment lines (Quartz scripts) when '#' starts a line and is not an identifier like #T1
      if (c === 35 && wasLineStart && !(next >= 0 && isIdentPart(next) && next !== 35)) {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 10 || d === 13) break;
          j++;
        }
        comments.push({ span: { start: i, end: j }, text: text.slice(i + 1, j) });
        i = j;
        continue;
      }
      if (terminatorAt(text, i, term, termC0)) {
        tokens.push(TK_TERM, i, i + termLen, 0);
        i += termLen;
        atStatementStart = true;
        if (tokens.count >= minTokens) break;
        continue;
      }
      // !name! placeholders in IBM replication templates (substituted before the script runs): a name.
      if (c === 33 && !atStatementStart && next >= 0 && isIdentStart(next)) {
        let j = scanIdent(text, i + 1);
        if (text.charCodeAt(j) === 33 && !terminatorAt(text, j, term, termC0)) j++;
        tokens.push(TK_WORD, i, j, 0);
        i = j;
        continue;
      }
      // CLP shell escape: !command at the start of a statement runs up to the terminator.
      if (c === 33 && atStatementStart) {
        let j = i + 1;
        while (j < n && !terminatorAt(text, j, term, termC0)) j++;
        tokens.push(TK_RAW, i, j, 0);
        i = j;
        atStatementStart = false;
        continue;
      }
      const startsStatement = atStatementStart;
      atStatementStart = false;

      // Prefixed string literals: X'..' G'..' N'..' B'..' GX'..' UX'..' BX'..' U&'..' and U&".."
      if (isLetter(c)) {
        const u = c & ~32;
        let quoteAt = -1;
        if (next === 39 && (u === 88 || u === 71 || u === 78 || u === 66)) quoteAt = i + 1;
        else if ((next | 32) === 120 && (u === 71 || u === 85 || u === 66) && text.charCodeAt(i + 2) === 39) quoteAt = i + 2;
        else if (u === 85 && next === 38 && text.charCodeAt(i + 2) === 39) quoteAt = i + 2;
        if (quoteAt >= 0) {
          i = lexQuoted(text, i, quoteAt, 39, TK_STRING, tokens);
          continue;
        }
        if (u === 85 && next === 38 && text.charCodeAt(i + 2) === 34) {
          i = lexQuoted(text, i, i + 2, 34, TK_DELIM, tokens);
          continue;
        }
      }
      if (isIdentStart(c)) {
        const j = wordEnd(text, i, n, term, termC0);
        tokens.push(TK_WORD, i, j, 0);
        // CLP ECHO: the rest up to the terminator is free text (it may hold quotes and '--').
        if (startsStatement && keywordAt(text, i, j, 'ECHO')) {
          let k = j;
          while (k < n && !terminatorAt(text, k, term, termC0)) k++;
          if (k > j) tokens.push(TK_RAW, j, k, 0);
          i = k;
          continue;
        }
        i = j;
        continue;
      }
      if (c === 39) {
        i = lexQuoted(text, i, i, 39, TK_STRING, tokens);
        continue;
      }
      if (c === 34) {
        i = lexQuoted(text, i, i, 34, TK_DELIM, tokens);
        continue;
      }
      if (isDigit(c) || (c === 46 && isDigit(next))) {
        i = lexNumber(text, i, tokens);
        continue;
      }
      switch (c) {
        case 40:
          tokens.push(TK_LPAREN, i, i + 1, 0);
          i++;
          continue;
        case 41:
          tokens.push(TK_RPAREN, i, i + 1, 0);
          i++;
          continue;
        case 44:
          tokens.push(TK_COMMA, i, i + 1, 0);
          i++;
          continue;
        case 46:
          tokens.push(TK_DOT, i, i + 1, 0);
          i++;
          continue;
        case 59:
          tokens.push(TK_SEMI, i, i + 1, 0);
          i++;
          continue;
        case 63:
          tokens.push(TK_MARKER, i, i + 1, 0);
          i++;
          continue;
        case 58: // ':' host variable, or a label colon / other
          if (next >= 0 && (isIdentStart(next) || next === 34) && next !== 35) {
            let j = i + 1;
            j = next === 34 ? skipQuoted(text, j, 34) : scanIdent(text, j);
            // :name:indicator
            if (text.charCodeAt(j) === 58 && isIdentStart(text.charCodeAt(j + 1))) j = scanIdent(text, j + 1);
            tokens.push(TK_HOST, i, j, 0);
            i = j;
            continue;
          }
          break;
      }
      // operators: two-character forms first
      if (next >= 0) {
        const two =
          (c === 60 && (next === 61 || next === 62)) || // <= <>
          (c === 62 && next === 61) || // >=
          ((c === 33 || c === 94 || c === 0xac) && (next === 61 || next === 60 || next === 62)) || // != ^= (not sign)= !< ...
          (c === 124 && next === 124) || // ||
          (c === 61 && next === 62) || // =>
          (c === 42 && next === 42); // **
        if (two) {
          tokens.push(TK_OP, i, i + 2, 0);
          i += 2;
          continue;
        }
      }
      // Any other character (including stray ones) is a one-character operator token.
      const width = c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
      tokens.push(TK_OP, i, i + width, 0);
      i += width;
    }
    this.i = i;
    this.term = term;
    this.atStatementStart = atStatementStart;
    this.lineStart = lineStart;
  }
}

/**
 * Whether the terminator `term` (first character `termC0`) is at `p`. A module function, not a closure in
 * Lexer.run: parseSql calls run once per round, and a closure made per call made V8 throw away the optimised
 * lexer ("wrong call target") and compile it again (~40 ms, while the lexer ran unoptimised). CLP recognises an alternative
 * terminator (-td@, --#SET TERMINATOR @) only at the end of a line, so '@' in XQuery (@attr), e-mail
 * addresses or '!=' mid-line is not one. ';' ends a statement anywhere.
 */
/** The end of the word that starts at `i`: identifier characters, up to the statement terminator. */
function wordEnd(text: string, i: number, n: number, term: string, termC0: number): number {
  let j = i + 1;
  while (j < n) {
    const d = text.charCodeAt(j);
    if (!isIdentPart(d) || (d === termC0 && terminatorAt(text, j, term, termC0))) break;
    j++;
  }
  return j;
}

function terminatorAt(text: string, p: number, term: string, termC0: number): boolean {
  if (text.charCodeAt(p) !== termC0 || (term.length > 1 && !text.startsWith(term, p))) return false;
  if (termC0 === 59 || termC0 === 10) return true;
  const n = text.length;
  let j = p + term.length;
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d === 10 || d === 13) return true;
    if (d === 45 && text.charCodeAt(j + 1) === 45) return true;
    if (!isSpace(d)) return false;
    j++;
  }
  return true;
}

/** A number at `i` (a digit, or '.' before one): 12, 1.5, .5, 1e-3; returns the offset after it. */
function lexNumber(text: string, i: number, tokens: TokenList): number {
  const n = text.length;
  let j = i;
  while (j < n && isDigit(text.charCodeAt(j))) j++;
  if (text.charCodeAt(j) === 46) {
    j++;
    while (j < n && isDigit(text.charCodeAt(j))) j++;
  }
  const e = text.charCodeAt(j);
  if (e === 69 || e === 101) {
    const s = text.charCodeAt(j + 1);
    if (isDigit(s)) j += 1;
    else if ((s === 43 || s === 45) && isDigit(text.charCodeAt(j + 2))) j += 2;
    if (j > i && isDigit(text.charCodeAt(j))) while (j < n && isDigit(text.charCodeAt(j))) j++;
  }
  tokens.push(TK_NUMBER, i, j, 0);
  return j;
}

function scanIdent(text: string, j: number): number {
  const n = text.length;
  while (j < n && isIdentPart(text.charCodeAt(j))) j++;
  return j;
}

/** Returns the offset after the closing quote (doubled quotes escape), or text.length. */
function skipQuoted(text: string, openAt: number, quote: number): number {
  const n = text.length;
  let j = openAt + 1;
  while (j < n) {
    const idx = text.indexOf(quote === 39 ? "'" : '"', j);
    if (idx < 0) return n;
    if (text.charCodeAt(idx + 1) === quote) {
      j = idx + 2;
      continue;
    }
    return idx + 1;
  }
  return n;
}

function lexQuoted(text: string, start: number, openAt: number, quote: number, kind: number, tokens: TokenList): number {
  const n = text.length;
  let j = openAt + 1;
  let closed = false;
  while (j < n) {
    const idx = text.indexOf(quote === 39 ? "'" : '"', j);
    if (idx < 0) break;
    if (text.charCodeAt(idx + 1) === quote) {
      j = idx + 2;
      continue;
    }
    j = idx + 1;
    closed = true;
    break;
  }
  if (!closed) j = n;
  tokens.push(kind, start, j, closed ? 0 : FLAG_UNTERMINATED);
  return j;
}
