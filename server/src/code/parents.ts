// Parent lookups that stay cheap in deep trees. web-tree-sitter's `Node.parent` is computed by walking down
// from the root, so it costs the node's depth: with a call site at each of 10,000 nested callbacks, finding
// parents took 91 s. A tree the walk finds deeply nested gets a parent table, built in one cursor pass.
import type { Node, Tree } from 'web-tree-sitter';
import { nowMs } from '../engine/clock';

/** Nesting of interesting nodes (functions, loops, calls…) above which the parent table pays for itself. */
export const DEEP_NESTING = 64;

const tables = new WeakMap<Tree, Map<number, Node>>();

/** Builds the parent table of `tree` (once). */
export function indexParents(tree: Tree): void {
  if (tables.has(tree)) return;
  const table = new Map<number, Node>();
  const cursor = tree.walk();
  try {
    // The ancestors of the cursor's node, the node itself on top.
    const open: Node[] = [cursor.currentNode];
    outer: for (;;) {
      if (cursor.gotoFirstChild()) {
        const child = cursor.currentNode;
        table.set(child.id, open[open.length - 1]);
        open.push(child);
        continue;
      }
      for (;;) {
        open.pop();
        if (cursor.gotoNextSibling()) {
          const sibling = cursor.currentNode;
          table.set(sibling.id, open[open.length - 1]);
          open.push(sibling);
          continue outer;
        }
        if (!cursor.gotoParent()) break outer;
      }
    }
  } finally {
    cursor.delete();
  }
  tables.set(tree, table);
}

/** Time spent in `Node.parent` per tree without a table, and what building its table would cost (ms). */
const walks = new WeakMap<Tree, { spentMs: number; tableMs: number }>();

/**
 * `node.parent`, from the table when the tree has one. Without one, once the parent walks have cost what building
 * the table would (about a microsecond per node, a node per ~4 characters of source), the table is built: a call at
 * each term of a long `a + f(x) + f(y) + …` is deep in the tree though no loop or function nests it, and its parent
 * walks grew with the square of the terms (8,000 terms: over 10 s). Either way the answer is the same.
 */
export function parentOf(node: Node): Node | null {
  const tree = node.tree;
  const table = tables.get(tree);
  if (table) return table.get(node.id) ?? null;
  const started = nowMs();
  const parent = node.parent;
  let walk = walks.get(tree);
  if (!walk) walks.set(tree, (walk = { spentMs: 0, tableMs: Math.max(2, tree.rootNode.endIndex / 4000) }));
  walk.spentMs += nowMs() - started;
  if (walk.spentMs > walk.tableMs) indexParents(tree);
  return parent;
}

/**
 * How many of the ifs around a call, up to the first node `stop` accepts (the loop or function around it), hold it in
 * their condition where it runs whatever the condition's value: not in the right operand of `and` / `or` (`&&`, `||`),
 * nor in a branch of a conditional expression. The walk counts those ifs among the call's conditions
 * (CallContext.conditions), yet the call runs whenever the if is reached.
 */
export function conditionsRunningIt(node: Node, ifs: ReadonlySet<string>, stop: (type: string) => boolean): number {
  let count = 0;
  let always = true;
  for (let child = node, p = parentOf(node); p && !stop(p.type); child = p, p = parentOf(p)) {
    const type = p.type;
    if (type === 'boolean_operator' || (type === 'binary_expression' && /^(?:&&|\|\|)$/.test(p.childForFieldName('operator')?.text ?? ''))) {
      if (sameSpan(p.childForFieldName('right'), child)) always = false;
    } else if (type === 'ternary_expression' || type === 'conditional_expression') {
      // (Python's `a if c else b` has no fields: its condition is the second named child.)
      const condition = type === 'ternary_expression' ? p.childForFieldName('condition') : p.namedChild(1);
      if (!sameSpan(condition, child)) always = false;
    } else if (ifs.has(type) && sameSpan(p.childForFieldName('condition'), child)) {
      if (always) count++;
      always = true;
    }
  }
  return count;
}

/** The same node (nodes read twice are distinct objects): the same span. */
export function sameSpan(a: Node | null | undefined, b: Node): boolean {
  return !!a && a.startIndex === b.startIndex && a.endIndex === b.endIndex;
}
