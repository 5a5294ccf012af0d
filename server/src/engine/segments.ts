// A rule about runs of statements (Rule.endsRun) checks a SQL script piece by piece, cut after each statement
// that ends every run, and a piece's findings are kept while its statements are the same objects: an edit
// re-parses the statements it touched (sql/incremental.ts) and moves the others in place, so a keystroke in
// one INSERT re-checks the piece it is in, not 45,000 INSERTs (issue 15: single-row-insert re-made 3,448 run
// findings, their messages and multi-row fixes, on every keystroke of a 50,000-line script).
// The findings equal those of checking the whole script (test/engine/segments.test.ts, on random edits).
import type { LineIndex } from './lines';
import type { Span, Statement } from '../sql/ast';
import type { Diagnostic } from './types';

/** A piece's findings, and where its statements were when they were found (file offsets, 0-based line). */
interface Piece {
  statements: readonly Statement[];
  start: number;
  end: number;
  line: number;
  /** As the rule reported them (handed out as they are: nothing marks a finding in place, see applySuppressions). */
  findings: readonly Diagnostic[];
}

/** The pieces of one rule on one script, by their first statement, and what they were checked with. */
export interface PieceCache {
  /** The rule's setting, the schema's epoch, the dialect: when any differs, nothing is kept. */
  basis: readonly unknown[];
  byFirst: Map<Statement, Piece>;
}

/**
 * The findings of a rule over `statements`, checked piece by piece (`check` of the piece's statements as the
 * script's): pieces of `previous` whose statements are the same objects, on the same lines, are not checked
 * again (their findings are moved by as much as their statements moved). Returns the findings and the
 * cache for the next call.
 */
export function checkByPieces(
  statements: readonly Statement[],
  endsRun: (stmt: Statement) => boolean,
  lines: LineIndex,
  check: (piece: Statement[]) => Diagnostic[],
  basis: readonly unknown[],
  previous: PieceCache | undefined,
): { findings: Diagnostic[]; cache: PieceCache } {
  const old = previous && sameBasis(previous.basis, basis) ? previous.byFirst : undefined;
  const byFirst = new Map<Statement, Piece>();
  const findings: Diagnostic[] = [];
  let from = 0;
  for (let i = 0; i < statements.length; i++) {
    if (i < statements.length - 1 && !endsRun(statements[i])) continue;
    const first = statements[from];
    const last = statements[i];
    const start = first.origin.toFile(first.span.start);
    const end = last.origin.toFile(last.span.end);
    // The same statements are the same text, and so is the text between them (an edit there re-parses the
    // statement before it): on the same first line, the piece's messages ("lines 2–20") are the same too.
    const line = lines.line(start);
    const kept = old?.get(first);
    let piece: Piece;
    if (kept && kept.line === line && end - start === kept.end - kept.start && sameObjects(kept.statements, statements, from, i + 1)) {
      const delta = start - kept.start;
      piece = delta === 0 ? kept : { ...kept, start, end, findings: kept.findings.map((d) => moved(d, delta)) };
    } else {
      const own = statements.slice(from, i + 1);
      piece = { statements: own, start, end, line, findings: check(own) };
    }
    byFirst.set(first, piece);
    for (const d of piece.findings) findings.push(d);
    from = i + 1;
  }
  return { findings, cache: { basis, byFirst } };
}

function sameBasis(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameObjects(kept: readonly Statement[], statements: readonly Statement[], from: number, to: number): boolean {
  if (kept.length !== to - from) return false;
  for (let k = 0; k < kept.length; k++) if (kept[k] !== statements[from + k]) return false;
  return true;
}

/** A finding moved `delta` characters in its own file (its related places in other files stay). */
function moved(d: Diagnostic, delta: number): Diagnostic {
  const shift = (span: Span): Span => ({ start: span.start + delta, end: span.end + delta });
  const out: Diagnostic = { ...d, span: shift(d.span) };
  if (d.extent) out.extent = shift(d.extent);
  if (d.partOf) out.partOf = shift(d.partOf);
  if (d.fix) out.fix = { ...d.fix, edits: d.fix.edits.map((e) => ({ span: shift(e.span), newText: e.newText })) };
  if (d.related) out.related = d.related.map((r) => (r.file === d.file ? { ...r, span: shift(r.span) } : r));
  return out;
}
