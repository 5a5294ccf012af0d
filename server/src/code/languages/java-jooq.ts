// jOOQ (which supports Db2), in a file that imports org.jooq: the inserts it sends one row per call, read as the
// INSERT it sends (`INSERT INTO <ORDERS> VALUES (?)`, as java-jpa.ts reads an ORM's):
// - `dsl.insertInto(ORDERS).set(ORDERS.ITEM, x).execute()`, `dsl.insertInto(ORDERS, ORDERS.ID, ORDERS.ITEM)
//   .values(a, b).execute()` (or `.returning(…).fetchOne()`), a chain of one row, also through a variable;
// - `r.store()` / `r.insert()` of a record made by `dsl.newRecord(ORDERS)` (or `new OrdersRecord(…)`): store() inserts
//   a new record, and updates one it already stored or fetched, so it counts only when the record is made in the loop
//   (or in the method, for a helper outside any loop); insert() always inserts;
// - `dsl.executeInsert(record)`.
// Not per row, so not read: `dsl.batchInsert(records)`, `dsl.batch(query…)` / `batch(query).bind(…)…execute()`, an
// insertInto chain with several `.values(…)`, `valuesOfRows` / `valuesOfRecords`, `set(…).newRecord().set(…)` or a
// `select(…)`, and the Loader API (`loadInto(T)…execute()`).
//
// The table: the generated table constant as written (`ORDERS`, `Tables.ORDERS`, `APP.ORDERS`; `ORDERS.as("o")` is
// ORDERS), spliced where the table goes (`INSERT INTO <ORDERS>`): jOOQ's code generator names the constant after the
// table, but its schema (the generated one, or a runtime mapping) is not in the code. jOOQ runs on the connection its
// configuration holds: its autocommit is the DataSource's, and `dsl.transaction(cfg -> …)` is not followed; no
// autocommit is claimed (the api's default autocommit is unknown, java.ts).
import type { Node } from 'web-tree-sitter';
import type { ApiEvent, CallContext, Evaluator } from '../adapter';
import { declaration, type DeclaredTypes } from './java-syntax';
import { insertText, type InsertTarget } from '../orm-insert-text';

export const JOOQ_API = 'jooq';

/** The calls this module reads (java.ts hands them over first in a file that imports org.jooq). */
export const JOOQ_CALLS = ['execute', 'fetchOne', 'fetchSingle', 'fetchOptional', 'store', 'insert', 'executeInsert'];
const RUNS = new Set(['execute', 'fetchOne', 'fetchSingle', 'fetchOptional']);

/** The insertInto chain's steps that make it many rows, or no row of its own (an INSERT … SELECT). */
const MANY = new Set(['valuesOfRows', 'valuesOfRecords', 'newRecord', 'select']);
/** Steps after which the chain is no longer the insert itself (a batch, a loader). */
const NOT_INSERT = new Set(['batch', 'batchInsert', 'batchStore', 'loadInto', 'bind']);

const IMPORTS_JOOQ = /^[ \t]*import[ \t]+(?:static[ \t]+)?org\.jooq\b/m;

let facts: { source: string; jooq: boolean; types: DeclaredTypes } | undefined;

/** The events of a jOOQ insert, or undefined for a call that is none (JDBC's reading goes on). */
export function classifyJooq(ctx: CallContext, ev: Evaluator): ApiEvent[] | undefined {
  if (facts?.source !== ev.source) facts = { source: ev.source, jooq: IMPORTS_JOOQ.test(ev.source), types: new Map() };
  if (!facts.jooq) return undefined;
  const { call } = ctx;
  const receiver = call.receiver;
  if (!receiver) return undefined;
  let table: Node | undefined;
  if (RUNS.has(call.name) && call.args.length === 0) {
    const chain = receiver.type === 'identifier' ? ev.assignedBefore?.(receiver.text, call.node.startIndex)?.[0]?.value : receiver;
    const insert = chain ? insertChain(chain) : undefined;
    if (insert === undefined) return undefined;
    if (insert === 'many') return [];
    table = insert;
  } else if ((call.name === 'store' || call.name === 'insert') && call.args.length === 0) {
    table = newRecordTable(receiver, call.node, ctx, ev, call.name === 'store');
    if (table === undefined) return undefined;
  } else if (call.name === 'executeInsert' && call.args.length === 1) {
    table = newRecordTable(call.args[0], call.node, ctx, ev, false);
    if (table === undefined) {
      // A record of another origin (a parameter, a record fetched): the record names the table, by its declared type
      // when the file shows one.
      const arg = call.args[0];
      const declared = arg.type === 'identifier' ? declaration(arg.text, ev.source, facts.types) : undefined;
      return [insertEvent(declared ? { span: declared.span } : { expression: arg }, call.node, receiver)];
    }
  } else return undefined;
  return [insertEvent({ expression: tableConstant(table) }, call.node, receiver)];
}

function insertEvent(target: InsertTarget, call: Node, receiver: Node): ApiEvent {
  return { kind: 'execute', api: JOOQ_API, action: 'executePrepared', sql: insertText(target, call, (n) => n), connection: receiver.text.replace(/\s+/g, '').slice(0, 80), batched: false };
}

/**
 * An insertInto chain down to its root: the table argument for one row, 'many' for many rows (or an INSERT … SELECT,
 * or a batch), undefined when the chain is no insert.
 */
function insertChain(top: Node): Node | 'many' | undefined {
  let values = 0;
  let many = false;
  let node: Node | null = top;
  for (let steps = 0; node?.type === 'method_invocation' && steps < 200; steps++) {
    const name = node.childForFieldName('name')?.text ?? '';
    if (NOT_INSERT.has(name)) return 'many';
    if (name === 'values') values++;
    else if (MANY.has(name)) many = true;
    if (name === 'insertInto') {
      const table = args(node)[0];
      // (DSL.insertInto(…) of no DSLContext is attached to no connection: it runs in a batch or another query.)
      const owner = node.childForFieldName('object');
      if (!table || !owner || owner.text === 'DSL') return undefined;
      return many || values > 1 ? 'many' : table;
    }
    node = node.childForFieldName('object');
  }
  return undefined;
}

/**
 * The table of a record made new for this insert: `dsl.newRecord(ORDERS…)` (the table node), `new OrdersRecord(…)`
 * (the class), as the receiver itself or a variable's value. For store(), only a record made in the loop (or in the
 * method, outside any loop): a record stored again is updated. Undefined when not such a record.
 */
function newRecordTable(record: Node, call: Node, ctx: CallContext, ev: Evaluator, madeHere: boolean): Node | undefined {
  let value: Node | undefined = record;
  if (record.type === 'identifier') {
    const assigned = ev.assignedBefore?.(record.text, call.startIndex)?.[0];
    if (!assigned) return undefined;
    const loop = ctx.loop?.span;
    if (madeHere && loop && (assigned.at < loop.start || assigned.at > loop.end)) return undefined;
    value = assigned.value;
  }
  if (value?.type === 'method_invocation' && value.childForFieldName('name')?.text === 'newRecord') return args(value)[0];
  if (value?.type === 'object_creation_expression') {
    const type = value.childForFieldName('type');
    return type && /Record$/.test(type.text) && !/^(?:Record|UpdatableRecord|TableRecord)$/.test(type.text) ? type : undefined;
  }
  return undefined;
}

/** `ORDERS.as("o")` → `ORDERS`; a table constant as written otherwise. */
function tableConstant(node: Node): Node {
  if (node.type === 'method_invocation' && node.childForFieldName('name')?.text === 'as') return node.childForFieldName('object') ?? node;
  return node;
}

function args(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter((c): c is Node => !!c && c.type !== 'line_comment' && c.type !== 'block_comment');
}
