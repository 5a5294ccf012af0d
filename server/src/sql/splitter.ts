// Splits a token list into statements. The lexer already knows the current terminator (it follows
// `--#SET TERMINATOR`), so a TK_TERM token normally ends a statement. The exception is SQL PL with `;` as
// terminator: inside BEGIN … END blocks of routines, triggers and compound statements, and inside CASE …
// END, a `;` separates inner statements and does not end the outer one.
import { Lexer, TokenList, TK_WORD, TK_TERM, TK_DOT, TK_COMMA, TK_RPAREN, TK_LPAREN, TK_OP, TK_SEMI } from './lexer';

export interface StatementRange {
  /** First token index. */
  first: number;
  /** One past the last token index (the terminator is not included). */
  end: number;
  /** A BEGIN/CASE block was still open at the end of input. */
  unterminatedBlock: boolean;
}

/** Case-insensitive comparison of a WORD token with an upper-case keyword, without allocating. */
export function isKeyword(text: string, tokens: TokenList, i: number, upper: string): boolean {
  if (i < 0 || i >= tokens.count || tokens.kind[i] !== TK_WORD) return false;
  const s = tokens.start[i];
  if (tokens.end[i] - s !== upper.length) return false;
  for (let k = 0; k < upper.length; k++) {
    let c = text.charCodeAt(s + k);
    if (c >= 97 && c <= 122) c -= 32;
    if (c !== upper.charCodeAt(k)) return false;
  }
  return true;
}

/** Words mayHoldBlock looks at after a statement's first token. */
const BLOCK_LOOKAHEAD_WORDS = 8;

const ROUTINE_WORDS = ['PROCEDURE', 'FUNCTION', 'TRIGGER', 'METHOD', 'MODULE'];
const LOOP_CLOSERS = ['IF', 'LOOP', 'WHILE', 'REPEAT', 'FOR'];

/** Whether the statement starting at `first` may hold an SQL PL body with inner `;`. */
function mayHoldBlock(text: string, tokens: TokenList, first: number, limit: number): boolean {
  if (isKeyword(text, tokens, first, 'BEGIN')) return true;
  // label: BEGIN / label: FOR … (compound statement with a label)
  if (tokens.kind[first] === TK_WORD && first + 1 < limit && tokens.kind[first + 1] === TK_OP && text.charCodeAt(tokens.start[first + 1]) === 58) {
    return true;
  }
  if (!isKeyword(text, tokens, first, 'CREATE') && !isKeyword(text, tokens, first, 'ALTER')) return false;
  let words = 0;
  for (let i = first + 1; i < limit && words < BLOCK_LOOKAHEAD_WORDS; i++) {
    if (tokens.kind[i] !== TK_WORD) continue;
    words++;
    for (const w of ROUTINE_WORDS) if (isKeyword(text, tokens, i, w)) return true;
  }
  return false;
}

/** Whether BEGIN at `i` starts a block (and is not, say, a column named BEGIN). */
function isBlockBegin(text: string, tokens: TokenList, i: number): boolean {
  const prev = i > 0 ? tokens.kind[i - 1] : 0;
  if (prev === TK_DOT || prev === TK_COMMA || prev === TK_LPAREN) return false;
  if (i + 1 < tokens.count) {
    const nk = tokens.kind[i + 1];
    if (nk === TK_DOT || nk === TK_COMMA || nk === TK_RPAREN) return false;
  }
  return true;
}

/**
 * Called with each statement's tokens [first, end), whether a BEGIN/CASE block was still open at the end of
 * input, and `innerTerminator`: the text offset of the first `;` inside an SQL PL body that was the statement
 * terminator the lexer ran with (read as part of the statement, as Flyway, Liquibase and JDBC send it; the CLP
 * run with `-t` would end the statement there), or -1.
 */
export type StatementVisit = (first: number, end: number, unterminatedBlock: boolean, innerTerminator: number) => void;

export function splitStatements(text: string, tokens: TokenList): StatementRange[] {
  const out: StatementRange[] = [];
  forEachStatement(text, tokens, (first, end, unterminatedBlock) => out.push({ first, end, unterminatedBlock }));
  return out;
}

/** Calls `visit` for each statement in order (no intermediate array: scripts can hold a million). */
export function forEachStatement(
  text: string,
  tokens: TokenList,
  visit: StatementVisit,
): void {
  const splitter = new StatementSplitter(text, visit);
  splitter.scan(tokens, tokens.count);
  splitter.finish(tokens);
}

/**
 * forEachStatement in rounds, for a token list that is filled and emptied as it goes (parseSql): `scan`
 * goes on where the last one stopped; the caller may then drop the tokens before `keepFrom` and tell the
 * splitter with `rebase`. Statements come out exactly as forEachStatement over the whole list gives them
 * as long as each scan stops at `scanLimit` (the look-ahead of mayHoldBlock and END … must be in the list).
 */
/**
 * Lexes and splits `lexer`'s text in rounds of about `roundTokens` tokens through the (reused) list
 * `tokens`, dropping the tokens of finished statements each round; same statements as forEachStatement
 * over the whole token list. The token indexes `visit` gets are valid during that call only.
 */
export function forEachStatementInRounds(
  lexer: Lexer,
  text: string,
  tokens: TokenList,
  roundTokens: number,
  visit: StatementVisit,
): void {
  const splitter = new StatementSplitter(text, visit);
  for (;;) {
    lexer.run(tokens, tokens.count + roundTokens);
    if (lexer.done) break;
    splitter.scan(tokens, splitter.scanLimit(tokens));
    const unneeded = splitter.keepFrom;
    tokens.discard(unneeded);
    splitter.rebase(unneeded);
  }
  splitter.finish(tokens);
}

export class StatementSplitter {
  /** First token of the statement being read, or -1 between statements. */
  private first = -1;
  private blockAware = false;
  private depth = 0;
  /** The text offset of the open statement's first `;` terminator read as inside its body, or -1. */
  private innerTerminator = -1;
  /** The next token to look at. */
  private next = 0;

  constructor(
    private readonly text: string,
    private readonly visit: StatementVisit,
  ) {}

  /** Looks at tokens up to (not including) `upTo`. */
  scan(tokens: TokenList, upTo: number): void {
    const text = this.text;
    let first = this.first;
    let blockAware = this.blockAware;
    let depth = this.depth;
    let innerTerminator = this.innerTerminator;
    for (let i = this.next; i < upTo; i++) {
      const k = tokens.kind[i];
      if (k === TK_TERM) {
        const isSemicolon = text.charCodeAt(tokens.start[i]) === 59 && tokens.end[i] - tokens.start[i] === 1;
        if (first >= 0 && depth > 0 && isSemicolon) {
          // inner statement of an SQL PL body
          if (innerTerminator < 0) innerTerminator = tokens.start[i];
          continue;
        }
        if (first >= 0) this.visit(first, i, false, innerTerminator);
        first = -1;
        depth = 0;
        innerTerminator = -1;
        continue;
      }
      if (first < 0) {
        first = i;
        depth = 0;
        blockAware = mayHoldBlock(text, tokens, i, tokens.count);
      }
      if (!blockAware) {
        // Nothing but the next terminator matters: find it with the typed array's own search (a statement's
        // tokens were a loop turn each, over every token of the script). Tokens past upTo may be stale.
        const term = tokens.kind.indexOf(TK_TERM, i + 1);
        i = (term < 0 || term > upTo ? upTo : term) - 1;
        continue;
      }
      if (k !== TK_WORD) continue;
      if (isKeyword(text, tokens, i, 'BEGIN')) {
        if (isBlockBegin(text, tokens, i)) depth++;
      } else if (isKeyword(text, tokens, i, 'CASE')) {
        // END CASE closes a CASE statement; the CASE after END is not an opener.
        if (!isKeyword(text, tokens, i - 1, 'END')) depth++;
      } else if (isKeyword(text, tokens, i, 'END')) {
        let closesLoop = false;
        for (const w of LOOP_CLOSERS) if (isKeyword(text, tokens, i + 1, w)) closesLoop = true;
        // "END;" inside a body written with ';' between statements is still an END of a block.
        if (!closesLoop && depth > 0) depth--;
      }
    }
    this.first = first;
    this.blockAware = blockAware;
    this.depth = depth;
    this.innerTerminator = innerTerminator;
    this.next = Math.max(this.next, upTo);
  }

  /**
   * How far a scan may go while more tokens are still to come: every token it looks at needs the
   * BLOCK_LOOKAHEAD_WORDS words after it in the list (mayHoldBlock), and the token after an END.
   */
  scanLimit(tokens: TokenList): number {
    let limit = tokens.count;
    let words = 0;
    while (limit > this.next && words < BLOCK_LOOKAHEAD_WORDS) {
      limit--;
      if (tokens.kind[limit] === TK_WORD) words++;
    }
    return words < BLOCK_LOOKAHEAD_WORDS ? this.next : limit;
  }

  /** Tokens before this index are no longer needed (the open statement's and the one before `next` stay). */
  get keepFrom(): number {
    const before = Math.max(0, this.next - 1);
    return this.first >= 0 ? Math.min(this.first, before) : before;
  }

  /** The caller dropped the first `n` tokens of the list. */
  rebase(n: number): void {
    this.next -= n;
    if (this.first >= 0) this.first -= n;
  }

  /** At the end of input: the last statement, if it had no terminator. */
  finish(tokens: TokenList): void {
    this.scan(tokens, tokens.count);
    if (this.first >= 0) this.visit(this.first, tokens.count, this.depth > 0, this.innerTerminator);
    this.first = -1;
    this.innerTerminator = -1;
  }
}

/**
 * Splits the tokens of an SQL PL body (between BEGIN [ATOMIC] and its END) into inner statements at
 * `;` (a TK_SEMI or a `;` TK_TERM) that are not inside nested blocks.
 */
const STATEMENT_OPENERS = ['IF', 'WHILE', 'REPEAT', 'FOR', 'LOOP'];
const OPENER_PREVIOUS = ['THEN', 'ELSE', 'DO', 'BEGIN', 'ATOMIC', 'LOOP', 'REPEAT'];

/** IF/WHILE/REPEAT/FOR/LOOP that start a control statement (after ';', THEN, ELSE, DO, BEGIN or a label). */
function isControlOpener(text: string, tokens: TokenList, i: number, first: number): boolean {
  let opener = false;
  for (const w of STATEMENT_OPENERS) if (isKeyword(text, tokens, i, w)) opener = true;
  if (!opener) return false;
  if (i === first) return true;
  const pk = tokens.kind[i - 1];
  if (pk === TK_SEMI || pk === TK_TERM) return true;
  if (pk === TK_OP && text.charCodeAt(tokens.start[i - 1]) === 58) return true;
  for (const w of OPENER_PREVIOUS) if (isKeyword(text, tokens, i - 1, w)) return true;
  return false;
}

/**
 * Walks the tokens [from, to) of an SQL PL body, calling `visit(i, depth)` with the block nesting before
 * each token: BEGIN … END, CASE … END [CASE], and IF/WHILE/REPEAT/FOR/LOOP … END IF/…. The second word
 * of a closer (the IF of END IF) is not visited. `visit` returns true to stop. `from` starts a statement
 * unless `atStatementStart` is false (a condition: `WHILE loop < 9`, where loop is a variable).
 */
export function scanBlocks(
  text: string,
  tokens: TokenList,
  from: number,
  to: number,
  visit: (i: number, depth: number) => boolean | void,
  atStatementStart = true,
): void {
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (visit(i, depth) === true) return;
    if (tokens.kind[i] !== TK_WORD) continue;
    if (isKeyword(text, tokens, i, 'BEGIN')) {
      if (isBlockBegin(text, tokens, i)) depth++;
    } else if (isKeyword(text, tokens, i, 'CASE')) {
      if (!isKeyword(text, tokens, i - 1, 'END')) depth++;
    } else if (isKeyword(text, tokens, i, 'END')) {
      if (depth > 0) depth--;
      // END IF / END LOOP / …: the closer's second word is not an opener
      for (const w of STATEMENT_OPENERS) if (isKeyword(text, tokens, i + 1, w)) i++;
    } else if (isControlOpener(text, tokens, i, atStatementStart ? from : -1)) {
      depth++;
    }
  }
}

/**
 * Splits the tokens of an SQL PL body (between BEGIN [ATOMIC] and its END) into inner statements at
 * `;` (a TK_SEMI or a `;` TK_TERM) that are not inside nested blocks or control statements.
 */
export function splitBody(text: string, tokens: TokenList, from: number, to: number): StatementRange[] {
  const out: StatementRange[] = [];
  let first = -1;
  scanBlocks(text, tokens, from, to, (i, depth) => {
    const k = tokens.kind[i];
    const isSemi = k === TK_SEMI || (k === TK_TERM && text.charCodeAt(tokens.start[i]) === 59);
    if (isSemi && depth === 0) {
      if (first >= 0) out.push({ first, end: i, unterminatedBlock: false });
      first = -1;
    } else if (first < 0) first = i;
  });
  if (first >= 0) out.push({ first, end: to, unterminatedBlock: false });
  return out;
}
