// SQLAlchemy's autoflush in a loop (python-sqlalchemy.ts hands over the queries and merges of a session): a query of
// the session on every pass flushes the previous pass's add, one INSERT per pass.
import type { Node } from 'web-tree-sitter';
import { simpleName, type ApiEvent, type CallContext, type Evaluator } from '../adapter';
import { conditionsRunningIt, parentOf, sameSpan } from '../parents';
import { AUTOFLUSH_CONFIGURED_OFF } from '../sqlalchemy-sessions';
import { isFalse, keywordOf, sessionAsWritten, sessionLike, type SqlalchemyName } from './python-sqlalchemy-names';
import type { PythonFile } from './python-sqlalchemy';

// ---- autoflush ---------------------------------------------------------------------------------------------------
//
// A Session flushes what was added before it runs a query (autoflush, on by default). SQLAlchemy's documentation
// (orm/session_basics.rst, "Flushing"): "the flush occurs before any individual SQL statement is issued as a result of
// a Query or a 2.0-style Session.execute call"; it is turned off by sessionmaker(autoflush=False) / Session(...,
// autoflush=False), by `session.autoflush = False`, and within a `with session.no_autoflush:` block. Session.merge()
// flushes too before it looks the object up (session.py merge: "flush current contents if we expect to load data",
// unless load=False). Only ORM statements autoflush: a Core or text() statement given to Session.execute does not
// (sqlalchemy/sqlalchemy#9809: the session flushes "only when an orm related thing is executed"). Left out:
// Session.get() / Query.get(), which flush only when the object is not already in the identity map (no SQL then).
// Flask-SQLAlchemy's Model.query is a query of db.session.

/** Where a file turns autoflush off apart from a session's constructor. */
export interface AutoflushOff {
  /** Receivers assigned `x.autoflush = False` (as written: session, db.session, self.session). */
  names: ReadonlySet<string>;
  /** The file configures sessions it does not name with autoflush off (SQLAlchemy(session_options={"autoflush": False}), Session.configure(autoflush=False)). */
  all: boolean;
}

const AUTOFLUSH_ASSIGNED_OFF = /([A-Za-z_][\w.]{0,100})[ \t]*\.[ \t]*autoflush[ \t]*=[ \t]*(?:False|0)\b/g;

function autoflushOffIn(file: PythonFile, ev: Evaluator): AutoflushOff {
  if (file.autoflushOff) return file.autoflushOff;
  const source = ev.source;
  const names = new Set<string>();
  if (source.includes('autoflush')) for (const m of source.matchAll(AUTOFLUSH_ASSIGNED_OFF)) names.add(m[1]);
  return (file.autoflushOff = { names, all: source.includes('autoflush') && AUTOFLUSH_CONFIGURED_OFF.test(source) });
}

/**
 * Whether a query of `session` at `node` autoflushes it on the passes of the loop around it: autoflush is not turned
 * off for that session where the file shows it (its constructor or factory, an assignment to its autoflush, a session
 * configuration of the file) nor, for a session the file does not build, by every session factory of its project
 * (PythonFile.projectAutoflushOff), the query runs in no `with ….no_autoflush:` block of its function, and it is not what a
 * for statement iterates over (run once, before the loop's passes).
 */
export function autoflushes(node: Node, session: string, recvName: string, known: SqlalchemyName | undefined, file: PythonFile, ev: Evaluator): boolean {
  if (known?.noAutoflush) return false;
  // A session the file does not build (a parameter, another module's factory's): as every factory of the project.
  if (!known && file.projectAutoflushOff) return false;
  const off = autoflushOffIn(file, ev);
  if (off.all || off.names.has(session) || off.names.has(recvName)) return false;
  for (let child = node, p = parentOf(node); p; child = p, p = parentOf(p)) {
    const type = p.type;
    if (type === 'function_definition' || type === 'class_definition' || type === 'module') break;
    // (Any `….no_autoflush` among the block's items: the session may be named apart from the query's receiver.)
    if (type === 'with_statement' && /\.\s*no_autoflush\b/.test(p.namedChildren.find((c) => c?.type === 'with_clause')?.text ?? '')) return false;
    // `for c in session.query(Customer).all():` runs the query once, before the passes, not on each.
    // (Nor a loop's else block, run once after it.)
    if ((type === 'for_statement' || type === 'for_in_clause') && sameSpan(p.childForFieldName('right'), child)) return false;
    if ((type === 'for_statement' || type === 'while_statement') && sameSpan(p.childForFieldName('alternative'), child)) return false;
  }
  return true;
}

/** An autoflush of `session` by the query at `node`, with the ifs that hold it in their condition (conditionsRunningIt). */
export function autoflushEvent(node: Node, session: string, label: string): ApiEvent {
  const inConditions = conditionsRunningIt(node, PY_IFS, (type) => PY_SCOPES.test(type));
  return { kind: 'flush', api: 'sqlalchemy', connection: session, autoflush: label, ...(inConditions > 0 ? { inConditions } : {}) };
}

const PY_IFS: ReadonlySet<string> = new Set(['if_statement', 'elif_clause']);
/** The loops and functions (python.ts pythonAdapter's) that bound the ifs the walk counts around a call. */
const PY_SCOPES = /^(?:for_statement|while_statement|list_comprehension|generator_expression|set_comprehension|dictionary_comprehension|function_definition|lambda|class_definition|module)$/;

/** The methods that run a Query (and flush its session first), Flask-SQLAlchemy's among them. */
const QUERY_RUNS = new Set(['all', 'first', 'one', 'one_or_none', 'scalar', 'count', 'first_or_404', 'one_or_404', 'paginate']);

/** How a message names a query: its text where short and on one line, else its session and method. */
function queryLabel(node: Node, short: string): string {
  const text = node.text;
  return text.length <= 80 && !/[\n\r]/.test(text) ? text : short;
}

/**
 * A Query run (`.first()`, `.all()`, `.count()`, …) on a query of a session (`session.query(Customer).filter_by(…)`)
 * or on a Flask-SQLAlchemy model's (`Customer.query.filter_by(…)`, db.session's): an autoflush of that session, named
 * as the code writes it. Not when the chain turns it off (`.autoflush(False)`, `.execution_options(autoflush=False)`).
 */
export function queryRunAutoflush(ctx: CallContext, ev: Evaluator, file: PythonFile): ApiEvent | undefined {
  const { call } = ctx;
  if (!QUERY_RUNS.has(call.name) || (call.name !== 'paginate' && call.args.length > 0)) return undefined;
  let node: Node | null | undefined = call.receiver;
  for (let steps = 0; node && steps < 16; steps++) {
    if (node.type === 'attribute') {
      // Customer.query: Flask-SQLAlchemy's query of db.session (one Flask-SQLAlchemy object in the file).
      const model = node.childForFieldName('object');
      const db = file.flaskDb && file.flaskDb.size === 1 ? [...file.flaskDb][0] : undefined;
      if (node.childForFieldName('attribute')?.text !== 'query' || model?.type !== 'identifier' || !db || !isClassName(model.text)) return undefined;
      const session = `${db}.session`;
      if (!autoflushes(call.node, session, 'session', undefined, file, ev)) return undefined;
      return autoflushEvent(call.node, session, queryLabel(call.node, `${model.text}.query…${call.name}()`));
    }
    if (node.type !== 'call') return undefined;
    const fn: Node | null = node.childForFieldName('function');
    if (fn?.type !== 'attribute') return undefined;
    const method = fn.childForFieldName('attribute')?.text;
    const object = fn.childForFieldName('object');
    if (!object) return undefined;
    if ((method === 'autoflush' && isFalse(node.childForFieldName('arguments')?.namedChildren[0] ?? undefined)) || (method === 'execution_options' && isFalse(keywordOf(node, 'autoflush')))) return undefined;
    if (method === 'query') {
      const recvName = simpleName(object);
      const known = recvName !== undefined ? file.names.get(recvName) : undefined;
      if (!recvName || !sessionLike(recvName, known, file, object)) return undefined;
      const session = sessionAsWritten(object, recvName, known);
      if (!autoflushes(call.node, session, recvName, known, file, ev)) return undefined;
      return autoflushEvent(call.node, session, queryLabel(call.node, `${session}.query(…)…${call.name}()`));
    }
    node = object;
  }
  return undefined;
}

/** A class's name as code writes it (Customer, OrderLine), not a constant's (ORDERS). */
function isClassName(name: string): boolean {
  return /^[A-Z]\w{0,100}$/.test(name) && !/^[A-Z0-9_]+$/.test(name);
}

/**
 * session.execute(select(Customer)…), session.scalars(…), session.scalar(…), SQLModel's session.exec(…) of an ORM select (of a class or a class's
 * attributes, directly or through a variable assigned before the call): an autoflush of the session. A select of a
 * Core Table or a text() does not autoflush.
 */
export function sessionRunAutoflush(ctx: CallContext, ev: Evaluator, file: PythonFile, known: SqlalchemyName | undefined): ApiEvent | undefined {
  const { call } = ctx;
  const recvName = simpleName(call.receiver);
  const statement = call.args[0];
  if (!recvName || !statement || !(call.name === 'execute' || call.name === 'scalars' || call.name === 'scalar' || (call.name === 'exec' && file.imports.imports('sqlmodel'))) || !sessionLike(recvName, known, file, call.node)) return undefined;
  if (!ormSelect(statement, call.node.startIndex, ev, file)) return undefined;
  const session = sessionAsWritten(call.receiver, recvName, known);
  if (!autoflushes(call.node, session, recvName, known, file, ev)) return undefined;
  return autoflushEvent(call.node, session, queryLabel(call.node, `${session}.${call.name}(select(…))`));
}

/**
 * select(Customer)…, select(Customer.id, …)… (sqlalchemy's select, under any name the file imports it as), with
 * chained calls (where, filter_by, limit, …); a variable assigned one before `at`. Not one chained with
 * execution_options(autoflush=False), nor a select of a name assigned a Table().
 */
function ormSelect(node: Node, at: number, ev: Evaluator, file: PythonFile, depth = 0): boolean {
  if (node.type === 'identifier') {
    const value = depth === 0 ? ev.assignedBefore?.(node.text, at)?.[0]?.value : undefined;
    return value ? ormSelect(value, at, ev, file, 1) : false;
  }
  let call: Node | null = node;
  for (let steps = 0; call?.type === 'call' && steps < 16; steps++) {
    const fn: Node | null = call.childForFieldName('function');
    if (!fn) return false;
    if (/^(?:sqlalchemy(?:\.future|\.sql(?:\.expression)?)?|sqlmodel(?:\.sql\.expression)?)\.select$/.test(file.imports.qualify(fn.text))) {
      const first = call.childForFieldName('arguments')?.namedChildren.find((c) => !!c && c.type !== 'comment' && c.type !== 'keyword_argument');
      const cls = first?.type === 'attribute' ? first.childForFieldName('object') : first;
      if (cls?.type !== 'identifier' || !isClassName(cls.text)) return false;
      const value = ev.assignedBefore?.(cls.text, at)?.[0]?.value;
      return !(value?.type === 'call' && /(?:^|\.)Table$/.test(value.childForFieldName('function')?.text ?? ''));
    }
    if (fn.type !== 'attribute') return false;
    if (fn.childForFieldName('attribute')?.text === 'execution_options' && isFalse(keywordOf(call, 'autoflush'))) return false;
    call = fn.childForFieldName('object');
  }
  return false;
}
