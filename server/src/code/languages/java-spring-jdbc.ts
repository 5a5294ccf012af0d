// Spring's SimpleJdbcInsert: `insertOrder = new SimpleJdbcInsert(dataSource).withSchemaName("APP")
// .withTableName("ORDERS").usingGeneratedKeyColumns("ID")`, then `insertOrder.execute(params)`,
// `executeAndReturnKey(params)` or `executeAndReturnKeyHolder(params)`: one INSERT of one row per call, read as the
// INSERT it sends (`INSERT INTO APP.ORDERS VALUES (?)`, as java-jpa.ts reads an ORM's); `executeBatch(rows)` sends
// the rows as one JDBC batch and is not an insert per row.
//
// The table and schema come from the withTableName / withSchemaName calls of the chain that builds the insert (a
// field assigned in the constructor, a local variable) or of a later call on the variable (`insertOrder
// .withTableName("ORDERS")`), matched by the variable's name in the file. Spring reads the table's metadata through
// JDBC and, for Db2 (which stores names in upper case), upper-cases a plain name: `withTableName("orders")` is ORDERS.
// A name set twice to different tables in the file, or not shown, leaves the receiver naming it (`<insertOrder>`).
//
// The insert runs on a DataSource's connection: whether each call commits on its own depends on the DataSource's
// autocommit and on a transaction around the loop, which the code need not show; no autocommit is claimed (the api's
// default autocommit is unknown, java.ts).
import type { Node } from 'web-tree-sitter';
import { plainText, simpleName, type ApiEvent, type CallContext, type Evaluator } from '../adapter';
import { insertText, type InsertTarget } from '../orm-insert-text';

/** The calls this module reads (java.ts hands them over first in a file that names SimpleJdbcInsert). */
export const SIMPLE_INSERT_CALLS = ['execute', 'executeAndReturnKey', 'executeAndReturnKeyHolder', 'executeBatch'];
const ONE_ROW = new Set(['execute', 'executeAndReturnKey', 'executeAndReturnKeyHolder']);
const CONFIG = new Set(['withTableName', 'withSchemaName', 'usingGeneratedKeyColumns']);

/** The api of the INSERT: its advice says executeBatch, and, with generated keys, what executeBatch does not return. */
export const SIMPLE_INSERT_API = 'spring-simple-insert';
export const SIMPLE_INSERT_KEYS_API = 'spring-simple-insert-keys';

interface SimpleInsert {
  table?: string;
  schema?: string;
  /** Set to two different tables in the file: not known. */
  conflict?: boolean;
  keys: boolean;
}

let facts: { source: string; tree: Node['tree']; inserts: Map<string, SimpleInsert> } | undefined;

const NAMES_IT = /\bSimpleJdbcInsert\b/;
/** Whether the file being read names SimpleJdbcInsert (asked once per file, not per call). */
let named: { source: string; it: boolean } | undefined;
const PLAIN = /^[A-Za-z_][A-Za-z0-9_$#@]*$/;

/** The events of a SimpleJdbcInsert call, or undefined for a call of something else (JDBC's reading goes on). */
export function classifySimpleJdbcInsert(ctx: CallContext, ev: Evaluator): ApiEvent[] | undefined {
  const { call } = ctx;
  if (named?.source !== ev.source) named = { source: ev.source, it: NAMES_IT.test(ev.source) };
  if (!named.it || !call.receiver) return undefined;
  const insert = simpleInsertOf(call.receiver, call.node, ev);
  if (!insert) return undefined;
  // executeBatch(rows): one JDBC batch; nothing per row.
  if (!ONE_ROW.has(call.name) || call.args.length !== 1) return [];
  const known = insert.table && !insert.conflict;
  const target: InsertTarget = known ? { table: { name: insert.table!, ...(insert.schema ? { schema: insert.schema } : {}) } } : { expression: call.receiver };
  const keys = insert.keys || call.name !== 'execute';
  return [{
    kind: 'execute',
    api: keys ? SIMPLE_INSERT_KEYS_API : SIMPLE_INSERT_API,
    action: 'executePrepared',
    sql: insertText(target, call.node, (n) => n),
    connection: call.receiver.text.replace(/\s+/g, ''),
    batched: false,
  }];
}

/** What the receiver is when it is a SimpleJdbcInsert: built in the chain itself, or a variable of the file's. */
function simpleInsertOf(receiver: Node, call: Node, ev: Evaluator): SimpleInsert | undefined {
  if (receiver.type === 'method_invocation' || receiver.type === 'object_creation_expression') {
    const chain = readChain(receiver, ev);
    return chain?.root.type === 'object_creation_expression' ? chain.insert : undefined;
  }
  if (receiver.type !== 'identifier' && receiver.type !== 'field_access') return undefined;
  const name = simpleName(receiver);
  return name ? insertsOf(call, ev).get(name) : undefined;
}

/** The SimpleJdbcInsert variables and fields of the file, by name, read from the tree once per file. */
function insertsOf(call: Node, ev: Evaluator): Map<string, SimpleInsert> {
  if (facts?.source === ev.source && facts.tree === call.tree) return facts.inserts;
  const inserts = new Map<string, SimpleInsert>();
  facts = { source: ev.source, tree: call.tree, inserts };
  const root = call.tree.rootNode;
  // Declared `SimpleJdbcInsert insertOrder;` (assigned elsewhere, configured or not).
  for (const m of ev.source.matchAll(/\bSimpleJdbcInsert\s+([A-Za-z_$][\w$]{0,100})\s*[;=,)]/g)) if (!inserts.has(m[1])) inserts.set(m[1], { keys: false });
  const merge = (name: string, found: SimpleInsert) => {
    const had = inserts.get(name);
    if (!had) return void inserts.set(name, found);
    if (found.table && had.table && (found.table !== had.table || found.schema !== had.schema)) had.conflict = true;
    had.table ??= found.table;
    had.schema ??= found.schema;
    had.keys ||= found.keys;
  };
  const tops = new Set<number>();
  for (const node of root.descendantsOfType(['object_creation_expression', 'method_invocation'])) {
    if (!node) continue;
    // Each chain once, from its top: a `new SimpleJdbcInsert(…)…`, or configuration called on a variable.
    if (node.type === 'object_creation_expression' ? node.childForFieldName('type')?.text !== 'SimpleJdbcInsert' : !CONFIG.has(node.childForFieldName('name')?.text ?? '')) continue;
    let top = node;
    while (top.parent?.type === 'method_invocation' && top.parent.childForFieldName('object')?.startIndex === top.startIndex) top = top.parent;
    if (tops.has(top.startIndex)) continue;
    tops.add(top.startIndex);
    const chain = readChain(top, ev);
    if (!chain) continue;
    const name = chain.root.type === 'object_creation_expression' ? assignedName(top) : simpleName(chain.root);
    if (name) merge(name, chain.insert);
  }
  return inserts;
}

/** The variable or field a chain's value goes to (`x = …`, `this.x = …`, `SimpleJdbcInsert x = …`). */
function assignedName(top: Node): string | undefined {
  const holder = top.parent;
  if (holder?.type === 'variable_declarator' && holder.childForFieldName('value')?.startIndex === top.startIndex) return holder.childForFieldName('name')?.text;
  if (holder?.type === 'assignment_expression' && holder.childForFieldName('right')?.startIndex === top.startIndex) return simpleName(holder.childForFieldName('left'));
  return undefined;
}

/** A chain of configuration calls down to its root: what it sets (undefined when it calls anything else on the way). */
function readChain(top: Node, ev: Evaluator): { root: Node; insert: SimpleInsert } | undefined {
  const insert: SimpleInsert = { keys: false };
  let node: Node | null = top;
  for (let steps = 0; node?.type === 'method_invocation' && steps < 40; steps++) {
    const name = node.childForFieldName('name')?.text ?? '';
    const arg = node.childForFieldName('arguments')?.namedChildren.find((c) => !!c && c.type !== 'line_comment' && c.type !== 'block_comment');
    if (name === 'withTableName' || name === 'withSchemaName') {
      const value = arg ? nameOf(arg, ev) : undefined;
      // (The outermost call wins, as the last one made.)
      if (name === 'withTableName') insert.table ??= value;
      else insert.schema ??= value;
    } else if (name === 'usingGeneratedKeyColumns') insert.keys = true;
    else if (!/^(?:usingColumns|withCatalogName|withoutTableColumnMetaDataAccess|includeSynonymsForTableColumnMetaData|usingQuotedIdentifiers|compile)$/.test(name)) return undefined;
    node = node.childForFieldName('object');
  }
  if (!node) return undefined;
  if (node.type === 'object_creation_expression' && node.childForFieldName('type')?.text !== 'SimpleJdbcInsert') return undefined;
  return { root: node, insert };
}

/** A constant name as Spring sends it to Db2: a plain one upper-cased; anything else undefined. */
function nameOf(arg: Node, ev: Evaluator): string | undefined {
  const text = ev.evaluate(arg);
  if (!text || text.pieces.some((p) => p.kind !== 'text')) return undefined;
  const s = plainText(text);
  return PLAIN.test(s) && s.length <= 128 ? s.toUpperCase() : undefined;
}
