// Helpers every renderer of an ExplainReport shares: the plan as indented lines, the names of objects and
// hidden work, and how the statement's own operators are tagged ("the insert", "the delete", …).
import { pct, shownShares } from './describe';
import { statementWord } from './statement';
import type { AccessPlan, PlanOperator } from './model';
import type { ExplainedStatement } from './report';

/** TABLE, INDEX, TABLE-FUNCTION…; OBJECT when the source did not say (Plan Details without Objects Used). */
export function kindLabel(kind: string): string {
  return kind === 'unknown' ? 'OBJECT' : kind.toUpperCase();
}

export function share(x: number | undefined): string {
  return pct(x, '?');
}

/** The share of the hidden-work piece an operator belongs to, as the verdict shows it. */
export function shareOf(es: ExplainedStatement, op: PlanOperator): string | undefined {
  const i = es.report.pieces.findIndex((p) => p.operators.includes(op.id));
  return i >= 0 ? pieceShare(es, i) : undefined;
}

/** The share of the i-th piece of hidden work, rounded with the others so that the shares shown add up. */
export function pieceShare(es: ExplainedStatement, i: number): string {
  const shown = shownShares(es.report).pieces[i];
  return shown === undefined || shown === '?%' ? share(es.report.pieces[i]?.share) : shown;
}

/** "the insert", "the update", "the delete", "the merge" for the statement's own DML operators, else undefined. */
export function mainTag(es: ExplainedStatement, op: PlanOperator): string | undefined {
  return es.report.mainOperators.includes(op.id) ? `the ${statementWord(es.report.statementKind).toLowerCase()}` : undefined;
}

export interface TreeLine {
  depth: string;
  op?: PlanOperator;
  /** A shared operator (a TEMP read twice) printed again: its inputs are under its first line. */
  repeat?: boolean;
  object?: { key: string; kind: string; written: boolean; rows?: number };
}

/** Past this many levels the tree stops indenting (a 10,000-deep chain would otherwise print ~150 MB). */
const MAX_INDENT_LEVELS = 40;

/** The plan as indented lines (roots first, inputs in drawing order); iterative, with cycle protection. */
export function treeLines(plan: AccessPlan): TreeLine[] {
  const byId = new Map(plan.operators.map((op) => [op.id, op]));
  const out: TreeLine[] = [];
  const seen = new Set<number>();
  type Frame = { id: number; prefix: string; connector: string; level: number } | { line: TreeLine };
  const run = (rootId: number) => {
    const stack: Frame[] = [{ id: rootId, prefix: '', connector: '', level: 0 }];
    while (stack.length) {
      const frame = stack.pop()!;
      if ('line' in frame) {
        out.push(frame.line);
        continue;
      }
      const op = byId.get(frame.id);
      if (!op) continue;
      const deep = frame.level > MAX_INDENT_LEVELS ? `[level ${frame.level}] ` : '';
      if (seen.has(op.id)) {
        out.push({ depth: frame.prefix + frame.connector + deep, op, repeat: true });
        continue;
      }
      seen.add(op.id);
      out.push({ depth: frame.prefix + frame.connector + deep, op });
      const childPrefix =
        frame.level >= MAX_INDENT_LEVELS ? frame.prefix : frame.prefix + (frame.connector === '' ? '' : frame.connector.startsWith('└') ? '   ' : '│  ');
      const inputs = op.inputs.length > 0 ? op.inputs : op.children.map((c) => ({ kind: 'operator' as const, id: c }));
      const frames: Frame[] = inputs.map((input, i) => {
        const conn = i === inputs.length - 1 ? '└─ ' : '├─ ';
        if (input.kind === 'operator') return { id: input.id, prefix: childPrefix, connector: conn, level: frame.level + 1 };
        return {
          line: {
            depth: childPrefix + conn,
            object: { key: input.object.key, kind: input.object.kind, written: op.objectsWritten.includes(input.object.key), rows: input.object.rows },
          },
        };
      });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]);
    }
  };
  for (const r of plan.roots) run(r);
  for (const op of plan.operators) if (!seen.has(op.id)) run(op.id);
  return out;
}

export function withOneNewline(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return text.slice(0, end) + '\n';
}
