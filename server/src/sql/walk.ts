// Statements inside statements: the body of a routine, block or loop, the branches of IF and CASE, a
// handler's action, a trigger's action, and the statements of SQL text a routine builds at run time.
import type { QualifiedName, Statement } from './ast';

/** The statements directly inside `stmt`, in text order (empty for the flat statements of a script). */
export function childStatements(stmt: Statement): readonly Statement[] {
  switch (stmt.kind) {
    case 'createRoutine':
      return stmt.body ? [stmt.body] : NONE;
    case 'compound':
    case 'loop':
    case 'createTrigger':
      return stmt.body;
    case 'if':
    case 'case':
      return stmt.branches.length === 1 ? stmt.branches[0].body : stmt.branches.flatMap((b) => b.body);
    case 'declareHandler':
      return stmt.action ? [stmt.action] : NONE;
    case 'executeImmediate':
    case 'prepare':
      return stmt.text.statements;
    case 'call':
      return stmt.command?.statements ?? NONE;
    default:
      return NONE;
  }
}

const NONE: readonly Statement[] = Object.freeze([]);

export interface WalkOptions {
  /** Enter the triggered actions of CREATE TRIGGER (they run per row of another table's inserts). Default true. */
  triggers?: boolean;
}

/**
 * Calls `visit` for each statement and, depth first in text order, for the statements inside it, with the
 * statement that holds it (undefined at top level). Iterative: nesting depth costs no stack.
 */
export function forEachStatement(
  statements: readonly Statement[],
  visit: (stmt: Statement, parent: Statement | undefined) => void,
  options: WalkOptions = {},
): void {
  const enterTriggers = options.triggers ?? true;
  const stack: { list: readonly Statement[]; next: number; parent: Statement | undefined }[] = [{ list: statements, next: 0, parent: undefined }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next >= top.list.length) {
      stack.pop();
      continue;
    }
    const stmt = top.list[top.next++];
    visit(stmt, top.parent);
    if (stmt.kind === 'createTrigger' && !enterTriggers) continue;
    const children = childStatements(stmt);
    if (children.length > 0) stack.push({ list: children, next: 0, parent: stmt });
  }
}

/** Whether any statement holds others (most scripts: none, and their statement list serves as is). */
export function hasNestedStatements(statements: readonly Statement[], options: WalkOptions = {}): boolean {
  for (let i = 0; i < statements.length; i++) {
    const stmt = statements[i];
    if (stmt.kind === 'createTrigger' && options.triggers === false) continue;
    if (childStatements(stmt).length > 0) return true;
  }
  return false;
}

/**
 * A table name in dynamic SQL that a spliced value stands for (`'INSERT INTO ' || tab || …`): the
 * placeholder's name is not a table of the schema.
 */
export function isSplicedName(name: QualifiedName, stmt: Statement, parent: Statement | undefined): boolean {
  if (!parent || (parent.kind !== 'executeImmediate' && parent.kind !== 'prepare')) return false;
  const start = stmt.origin.toFile(name.span.start);
  return parent.text.splices.some((s) => start >= parent.origin.toFile(s.start) && start < parent.origin.toFile(s.end));
}
