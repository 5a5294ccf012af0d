// The statements of given kinds in a file, from an index built once per model. A million-line insert
// workload holds ~151,000 statements of which a few hundred are DDL; rules about DDL used to walk all of
// them, each, checking the kind (about 27 walks per lint; ~0.3 s of the 1M-line run, bench/RESULTS.md).
import type { Statement, StatementKind } from '../sql/ast';
import type { FileModel, StatementIndex } from './types';

type OfKind<K extends StatementKind> = Extract<Statement, { kind: K }>;

/**
 * The statements of `file` whose kind is one of `kinds`, in file order (the order of `file.statements`).
 * The result is shared between callers: do not modify it.
 */
export function statementsOf<K extends StatementKind>(file: FileModel, ...kinds: K[]): readonly OfKind<K>[] {
  const index = indexOf(file);
  const key = kinds.join(',');
  let list = index.lists.get(key);
  if (!list) {
    list = merged(index, kinds);
    index.lists.set(key, list);
  }
  return list as readonly OfKind<K>[];
}

function indexOf(file: FileModel): StatementIndex {
  const statements = file.statements;
  const known = file.statementIndex;
  // A model whose statements were replaced or extended since (an editor's incremental update) is indexed again.
  if (known && known.statements === statements && known.length === statements.length) return known;
  const positions = new Map<StatementKind, number[]>();
  for (let i = 0; i < statements.length; i++) {
    const kind = statements[i].kind;
    const list = positions.get(kind);
    if (list) list.push(i);
    else positions.set(kind, [i]);
  }
  const index: StatementIndex = { statements, length: statements.length, positions, lists: new Map() };
  file.statementIndex = index;
  return index;
}

/** The statements at the positions of several kinds, merged back into file order. */
function merged(index: StatementIndex, kinds: readonly StatementKind[]): Statement[] {
  const lists = kinds.map((k) => index.positions.get(k)).filter((p): p is number[] => p !== undefined && p.length > 0);
  const out: Statement[] = [];
  if (lists.length === 1) {
    for (const i of lists[0]) out.push(index.statements[i]);
    return out;
  }
  // Few kinds, each list sorted: take the smallest head each time.
  const heads = lists.map(() => 0);
  for (;;) {
    let best = -1;
    for (let l = 0; l < lists.length; l++) {
      if (heads[l] < lists[l].length && (best < 0 || lists[l][heads[l]] < lists[best][heads[best]])) best = l;
    }
    if (best < 0) return out;
    out.push(index.statements[lists[best][heads[best]++]]);
  }
}
