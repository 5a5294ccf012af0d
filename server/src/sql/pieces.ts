// One large script read in pieces (issue 15 item 4: `check --jobs` cuts a very large file into
// statement-aligned pieces that worker threads parse at once). The text is cut at lines that look like the
// start of a statement; each piece is parsed from its cut on its own, and the parse of a piece reads on past
// the next cut until a statement starts there or later. The pieces are joined only if every such parse starts
// a statement exactly at the next cut: from a statement start the parse does not depend on the text before it
// (sql/incremental.ts re-parses from one too), so the joined statements are those of parseSql over the whole
// text. When a cut is not a statement start (inside a string, a comment, a block), joinPieces says "parse it
// whole". Scripts the parser reads with state across statements (SQL PL, terminator directives) are not cut.
import { IDENTITY_ORIGIN, type Comment, type ParsedSql, type Statement } from './ast';
import { parseStatementsFrom } from './parser';
import { STATEFUL_KINDS, STATEFUL_DIRECTIVE } from './incremental';

/** A piece of a script: parsed from `from` (a cut) until the first statement at or after `until` (the next cut). */
export interface ScriptPiece {
  from: number;
  /** Absent for the last piece (it reads to the end). */
  until?: number;
}

export interface ParsedPiece extends ParsedSql {
  /** Where the first statement at or past `until` starts (the next piece must start there); absent for the last. */
  nextStart?: number;
  /** A statement the parser reads with state (SQL PL, dynamic SQL) was met: the script must be parsed whole. */
  stateful: boolean;
}

/** The words a cut line may start with: statements that begin a line of a load script. */
const CUT_WORDS = /^(INSERT|CREATE|ALTER|DROP|COMMIT|CALL|DELETE|UPDATE|MERGE|GRANT|COMMENT|SET|IMPORT|LOAD|CONNECT|RUNSTATS|REORG)\b/i;

/** How far past its place a cut is looked for before that piece is given up (the neighbours grow instead). */
const CUT_SEARCH_CHARS = 1 << 20;

/**
 * Up to `count` pieces of about equal size, cut at the first word of lines that start with a statement word
 * right after a line ending with the terminator; fewer (maybe one) where no such line is found. Undefined when
 * the script must not be cut (terminator directives change the lexer's state mid-text).
 */
export function cutScript(text: string, terminator: string, count: number): ScriptPiece[] | undefined {
  if (STATEFUL_DIRECTIVE.test(text)) return undefined;
  const cuts = [0];
  for (let k = 1; k < count; k++) {
    const cut = cutNear(text, terminator, Math.max(cuts[cuts.length - 1] + 1, Math.floor((text.length * k) / count)));
    if (cut !== undefined) cuts.push(cut);
  }
  return cuts.map((from, i) => (i + 1 < cuts.length ? { from, until: cuts[i + 1] } : { from }));
}

function cutNear(text: string, terminator: string, at: number): number | undefined {
  const limit = Math.min(text.length, at + CUT_SEARCH_CHARS);
  for (let lineStart = text.indexOf('\n', at) + 1; lineStart > 0 && lineStart < limit; lineStart = text.indexOf('\n', lineStart) + 1) {
    let first = lineStart;
    while (first < limit && (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9)) first++;
    if (!CUT_WORDS.test(text.slice(first, first + 10))) continue;
    let before = lineStart - 1;
    while (before >= 0 && /\s/.test(text[before])) before--;
    if (before >= 0 && text.startsWith(terminator, before + 1 - terminator.length)) return first;
  }
  return undefined;
}

/** Parses one piece of `text` as parseSql would parse that stretch of the whole text (if the cuts hold). */
export function parsePiece(text: string, terminator: string, piece: ScriptPiece): ParsedPiece {
  const statements: Statement[] = [];
  let nextStart: number | undefined;
  let stateful = false;
  const lexed = parseStatementsFrom(text, terminator, IDENTITY_ORIGIN, { from: piece.from, lineStart: true, roundTokens: 1 << 15 }, (stmt) => {
    if (piece.until !== undefined && stmt.span.start >= piece.until) {
      nextStart = stmt.span.start;
      return false;
    }
    if (STATEFUL_KINDS.has(stmt.kind)) stateful = true;
    statements.push(stmt);
    return true;
  });
  // The lexer may have read a few comments past the statement it stopped at: they belong to the next piece.
  const comments: Comment[] = nextStart === undefined ? lexed : lexed.filter((c) => c.span.start < nextStart!);
  // A piece that ran to the end of the text without meeting a statement past its cut ends the script.
  return { statements, comments, nextStart: piece.until === undefined ? undefined : (nextStart ?? text.length), stateful };
}

/** The parse of the whole text from its pieces in order, or undefined when a cut was not a statement start. */
export function joinPieces(pieces: readonly ScriptPiece[], parsed: readonly ParsedPiece[]): ParsedSql | undefined {
  const statements: Statement[] = [];
  const comments: Comment[] = [];
  for (let i = 0; i < parsed.length; i++) {
    const piece = parsed[i];
    if (piece.stateful) return undefined;
    if (i + 1 < parsed.length && piece.nextStart !== pieces[i + 1].from) return undefined;
    for (const stmt of piece.statements) statements.push(stmt);
    for (const comment of piece.comments) comments.push(comment);
  }
  return { statements, comments };
}
