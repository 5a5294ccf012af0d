// Parent lookups that stay cheap in deep trees. web-tree-sitter's `Node.parent` is computed by walking down
// from the root, so it costs the node's depth: with a call site at each of 10,000 nested callbacks, finding
// parents took 91 s. A tree the walk finds deeply nested gets a parent table, built in one cursor pass.
import type { Node, Tree } from 'web-tree-sitter';

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

/** `node.parent`, from the table when the tree has one. */
export function parentOf(node: Node): Node | null {
  const table = tables.get(node.tree);
  return table ? (table.get(node.id) ?? null) : node.parent;
}
