// Splits a token list into statements. The lexer already knows the current terminator (it follows
// `--#SET TERMINATOR`), so a TK_TERM token normally ends a statement. The exception is SQL PL with `;` as
// terminator: inside BEGIN … END blocks of routines, triggers and compound statements, and inside CASE …
// END, a `;` separates inner statements and does not end the outer one.
import { TokenList, TK_WORD, TK_TERM, TK_DOT, TK_COMMA, TK_RPAREN, TK_LPAREN, TK_OP, TK_SEMI } from './lexer';

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
  for (let i = first + 1; i < limit && words < 8; i++) {
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

export function splitStatements(text: string, tokens: TokenList): StatementRange[] {
  const out: StatementRange[] = [];
  forEachStatement(text, tokens, (first, end, unterminatedBlock) => out.push({ first, end, unterminatedBlock }));
  return out;
}

/** Calls `visit` for each statement in order (no intermediate array: scripts can hold a million). */
export function forEachStatement(
  text: string,
  tokens: TokenList,
  visit: (first: number, end: number, unterminatedBlock: boolean) => void,
): void {
  const count = tokens.count;
  let first = -1;
  let blockAware = false;
  let depth = 0;
  for (let i = 0; i < count; i++) {
    const k = tokens.kind[i];
    if (k === TK_TERM) {
      const isSemicolon = text.charCodeAt(tokens.start[i]) === 59 && tokens.end[i] - tokens.start[i] === 1;
      if (first >= 0 && depth > 0 && isSemicolon) continue; // inner statement of an SQL PL body
      if (first >= 0) visit(first, i, false);
      first = -1;
      depth = 0;
      continue;
    }
    if (first < 0) {
      first = i;
      depth = 0;
      blockAware = mayHoldBlock(text, tokens, i, count);
    }
    if (!blockAware || k !== TK_WORD) continue;
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
  if (first >= 0) visit(first, count, depth > 0);
}

/**
 * Splits the tokens of an SQL PL body (between BEGIN [ATOMIC] and its END) into inner statements at
 * `;` (a TK_SEMI or a `;` TK_TERM) that are not inside nested blocks.
 */
const STATEMENT_OPENERS = ['IF', 'WHILE', 'REPEAT', 'FOR', 'LOOP'];
const OPENER_PREVIOUS = ['THEN', 'ELSE', 'DO', 'BEGIN', 'ATOMIC'];

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
 * Splits the tokens of an SQL PL body (between BEGIN [ATOMIC] and its END) into inner statements at
 * `;` (a TK_SEMI or a `;` TK_TERM) that are not inside nested blocks or control statements.
 */
export function splitBody(text: string, tokens: TokenList, from: number, to: number): StatementRange[] {
  const out: StatementRange[] = [];
  let first = -1;
  let depth = 0;
  for (let i = from; i < to; i++) {
    const k = tokens.kind[i];
    const isSemi = k === TK_SEMI || (k === TK_TERM && text.charCodeAt(tokens.start[i]) === 59);
    if (isSemi && depth === 0) {
      if (first >= 0) out.push({ first, end: i, unterminatedBlock: false });
      first = -1;
      continue;
    }
    if (first < 0) first = i;
    if (k !== TK_WORD) continue;
    if (isKeyword(text, tokens, i, 'BEGIN')) {
      if (isBlockBegin(text, tokens, i)) depth++;
    } else if (isKeyword(text, tokens, i, 'CASE')) {
      if (!isKeyword(text, tokens, i - 1, 'END')) depth++;
    } else if (isKeyword(text, tokens, i, 'END')) {
      if (depth > 0) depth--;
      // END IF / END LOOP / …: the closer's second word is not an opener
      for (const w of STATEMENT_OPENERS) if (isKeyword(text, tokens, i + 1, w)) i++;
    } else if (isControlOpener(text, tokens, i, first)) {
      depth++;
    }
  }
  if (first >= 0) out.push({ first, end: to, unterminatedBlock: false });
  return out;
}
