// How many passes a loop makes, when the code says so with constants: `for (int i = 0; i < 5; i++)`,
// `i <= N` with `final int N = 8`, `for x in range(1, 6)`. The per-row rules leave small loops alone.
import type { Node } from 'web-tree-sitter';
import { assignmentsNamed, scopesNaming, type Scope } from './adapter';

/**
 * Passes of a counting loop with a constant bound: for (i = 0; i < 5; i++), i <= N with N assigned a number,
 * for x in range(5) / range(1, 6). Undefined for anything else.
 */
export function constantPasses(loop: Node, scope: Scope): number | undefined {
  const condition = loop.childForFieldName('condition');
  if (condition?.type === 'binary_expression' && condition.childForFieldName('left')?.type === 'identifier') {
    const op = condition.childForFieldName('operator')?.text;
    const start = /(?:=|\s)([01])\s*;?\s*$/.exec(loop.childForFieldName('initializer')?.text ?? loop.childForFieldName('init')?.text ?? '');
    const limit = numberOf(condition.childForFieldName('right'), scope);
    if (!start || limit === undefined || (op !== '<' && op !== '<=')) return undefined;
    return limit - Number(start[1]) + (op === '<=' ? 1 : 0);
  }
  const range = loop.childForFieldName('right');
  if (range?.type === 'call' && /^x?range$/.test(range.childForFieldName('function')?.text ?? '')) {
    const args = range.childForFieldName('arguments')?.namedChildren.filter((a): a is Node => !!a) ?? [];
    const bounds = args.map((a) => numberOf(a, scope));
    if (args.length === 1 && bounds[0] !== undefined) return bounds[0];
    if (args.length === 2 && bounds[0] !== undefined && bounds[1] !== undefined) return bounds[1] - bounds[0];
  }
  return undefined;
}

/** An integer literal, or a variable of an enclosing scope assigned one (final int N = 5). */
function numberOf(node: Node | null, scope: Scope): number | undefined {
  if (!node) return undefined;
  if (/^\d{1,9}$/.test(node.text)) return Number(node.text);
  if (node.type !== 'identifier') return undefined;
  for (const s of scopesNaming(scope, node.text)) {
    const own = assignmentsNamed(s, node.text);
    if (own.length > 0) return own.length === 1 && /^\d{1,9}$/.test(own[0].value.text) ? Number(own[0].value.text) : undefined;
  }
  return undefined;
}
