// Parsing a shell script in time linear in its size, broken or not. tree-sitter-bash recovers from an error at a
// cost that grows with the errors before it: broken lines in a row (SQL read as commands because a quote was lost:
// `NAME VARCHAR(30),`, `PRIMARY KEY (ID)`) cost 0.1-0.4 ms each at first and more with every one (800 such lines:
// 0.7 s; 4,800: 7.4 s), and a 125 KB broken script ran past the 10 s budget with all its findings lost. Nor does
// tree-sitter always say that it met an error before it is done (inside an `if`, never), so the parse cannot just be
// stopped at the first error. A quick scan (shell-chunks.ts) finds the lines of the kinds tree-sitter is slow on:
//   1. each is parsed on its own, in the file's offsets (tree-sitter's included ranges: every position is the file's
//      own); one that does not parse cleanly keeps its own tree (a `db2 "…"` tree-sitter finds in it is kept) and is
//      masked (`:`, the no-op command, and blanks) in the text the rest is read from;
//   2. that text is parsed whole, as a script that never held those lines: a compound command around them, a
//      variable set above, a file written by an earlier command read as in any script;
//   3. when that has errors still, each top-level command of it is parsed on its own, and those that do not parse
//      cleanly keep their own trees and are blanked in a last parse of the rest.
// A script without such lines that parses cleanly is read as before: one parse, one tree.
import type { ParseState, Parser, Tree } from 'web-tree-sitter';
import { checkDeadline, deadlinePassed } from '../../engine/deadline';
import { LineIndex } from '../../engine/lines';
import { scanShell, type Chunk } from './shell-chunks';

/** tree-sitter's progress callback (true: stop) as the typings declare it (they say it returns nothing). */
type ProgressCallback = (state: ParseState) => void;

const untilDeadline = deadlinePassed as unknown as ProgressCallback;
const untilError = ((state: ParseState) => deadlinePassed() || state.hasError) as unknown as ProgressCallback;

/**
 * The trees of a shell script for the walk (walkTree), the first spanning the whole file: the file's own tree when
 * it parses cleanly; else that of the text the broken lines and commands were taken out of, then theirs. Undefined
 * when parsing stopped (the time budget: checkDeadline throws, or the parser gave up). The caller deletes the trees.
 */
export function shellTrees(parser: Parser, text: string): Tree[] | undefined {
  const { pieces, suspectLines } = scanShell(text);
  const lines = new LineIndex(text);
  const own: Tree[] = [];
  try {
    /** Parses `piece` of `from` alone; keeps its tree (true) when it is broken. */
    const readApart = (from: string, piece: Chunk): boolean => {
      checkDeadline();
      const tree = parseRange(parser, from, piece, lines);
      if (!tree) stopped(parser);
      if (!tree.rootNode.hasError) {
        tree.delete();
        return false;
      }
      own.push(tree);
      return true;
    };
    const masked = suspectLines.flatMap((line) => commandsOf(text, line)).filter((piece) => readApart(text, piece));
    let host = masked.length > 0 ? mask(text, masked) : text;
    const whole = parser.parse(host, null, { progressCallback: untilError });
    if (whole && !whole.rootNode.hasError) return [whole, ...own];
    if (whole) whole.delete();
    else parser.reset();
    checkDeadline();
    const hostPieces = masked.length > 0 ? scanShell(host).pieces : pieces;
    const blanked = hostPieces.filter((piece) => readApart(host, piece));
    // None broken on its own (the scan cut where the grammar does not): the text whole, errors and all, as before.
    if (blanked.length > 0) host = blank(host, blanked);
    const rest = parser.parse(host, null, { progressCallback: untilDeadline });
    if (!rest) stopped(parser);
    return [rest, ...own];
  } catch (error) {
    for (const tree of own) tree.delete();
    if (error instanceof ParseStopped) return undefined;
    throw error;
  }
}

class ParseStopped extends Error {}

/** A suspect line longer than this is read apart command by command (commandsOf). */
const LONG_LINE = 2048;

/**
 * A suspect line as the pieces to read apart: itself, or when it is long its commands, cut after each `;` or `&`
 * outside quotes. One line of thousands of broken commands (`INSERT INTO T VALUES (1);INSERT …` with its quote
 * lost) cost tree-sitter's recovery as many in a row do (2,000 on one line: 3.4 s; 42,000: past the budget). A
 * wrong cut (a `;` inside `$( )`) makes pieces that are broken on their own, never a wrong offset.
 */
function commandsOf(text: string, line: Chunk): Chunk[] {
  if (line.end - line.start <= LONG_LINE) return [line];
  const pieces: Chunk[] = [];
  let start = line.start;
  let quote = 0;
  for (let i = line.start; i < line.end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */ && quote !== 0x27) i++;
    else if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x27 || c === 0x22 || c === 0x60) quote = c;
    else if ((c === 0x3b /* ; */ || c === 0x26) /* & */ && i + 1 < line.end) {
      pieces.push({ start, end: i + 1 });
      start = i + 1;
    }
  }
  pieces.push({ start, end: line.end });
  return pieces.filter((piece) => /\S/.test(text.slice(piece.start, piece.end)));
}

/** A parse that did not finish: the time budget ran out (checkDeadline throws), else the parser gave up. */
function stopped(parser: Parser): never {
  parser.reset();
  checkDeadline();
  throw new ParseStopped();
}

/** Parses `piece` of `text` alone, in the file's offsets. */
function parseRange(parser: Parser, text: string, piece: Chunk, lines: LineIndex): Tree | null {
  const { start, end } = piece;
  const from = lines.position(start);
  const to = lines.position(end);
  // Read up to the piece's end only (the whole text from each offset would be copied into the parser again and again).
  const input = (index: number) => (index < end ? text.slice(index, Math.min(end, index + 4096)) : '');
  return parser.parse(input, null, {
    includedRanges: [{ startIndex: start, endIndex: end, startPosition: { row: from.line, column: from.column }, endPosition: { row: to.line, column: to.column } }],
    progressCallback: untilDeadline,
  });
}

/** `text` with `lines` (in order, apart) made `:` (the no-op command, where each starts) and blanks, line ends kept. */
function mask(text: string, lines: readonly Chunk[]): string {
  return replaced(text, lines, (line) => {
    const indent = /^[ \t]*/.exec(line)![0].length;
    return line.slice(0, indent) + ':' + line.slice(indent + 1).replace(/[^\r\n]/g, ' ');
  });
}

/** `text` with `pieces` (in order, apart) made blank: spaces, line ends kept, so every offset and line stays. */
function blank(text: string, pieces: readonly Chunk[]): string {
  return replaced(text, pieces, (piece) => piece.replace(/[^\r\n]/g, ' '));
}

function replaced(text: string, pieces: readonly Chunk[], replace: (piece: string) => string): string {
  const parts: string[] = [];
  let at = 0;
  for (const { start, end } of pieces) {
    parts.push(text.slice(at, start), replace(text.slice(start, end)));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
