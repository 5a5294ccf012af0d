// SQLAlchemy Core in a Python file that imports it (python.ts hands over the calls it does not read as a driver's):
// engines (create_engine), connections (engine.connect(), engine.begin()), sessions (Session, sessionmaker),
// isolation_level="AUTOCOMMIT", execute of text() or of an insert construct with one row or a list of rows, the ORM's
// session.add / add_all / merge of a mapped class's instance (python-sqlalchemy-inserts.ts), flush, commit, and 1.x's
// library-level autocommit. Flask-SQLAlchemy (`db = SQLAlchemy(app)`, or `from app import db` used as one) is read
// the same way: `db.session` is a session, `db.insert` / `db.text` are SQLAlchemy's. Also the per-file state the Python front end keeps: the imports and the names SQLAlchemy made.
import { ReadScoped } from '../read-scope';
import type { Node } from 'web-tree-sitter';
import { plainText as PLAIN, simpleName, type ApiEvent, type CallContext, type Evaluator } from '../adapter';
import { looksLikeSql } from '../sqltext';
import { pythonImports, type PythonImportLine, type PythonImports } from './python-imports';
import { constructedClass, insertConstruct, insertText, mappedClasses, sqlName, targetOf, type InsertTarget, type MappedClasses } from './python-sqlalchemy-inserts';
import type { DjangoProject, OrmEntity } from '../../code-model/types';
import { conditionsRunningIt, parentOf, sameSpan } from '../parents';

/** What a name of the file holds, as far as SQLAlchemy goes: where the file made it, and whether it autocommits. */
interface SqlalchemyName {
  kind: 'engine' | 'connection' | 'session' | 'factory';
  /** isolation_level="AUTOCOMMIT" on it or on the engine it comes from. */
  autocommit: boolean;
  /** A session or factory made with autoflush=False (or a session of such a factory): its queries flush nothing. */
  noAutoflush?: boolean;
}

export interface PythonFile {
  imports: PythonImports;
  /** The file imports sqlalchemy (or a module inside it). */
  sqlalchemy: boolean;
  /** Engines, connections, sessions and session factories by name, as the calls that make them are classified (in text order). */
  names: Map<string, SqlalchemyName>;
  /** The file's declarative classes and their tables, read from the module's nodes when first needed. */
  classes?: MappedClasses;
  /** Names of Flask-SQLAlchemy objects (`db`): `class Order(db.Model)` maps a table named after the class. */
  flaskDb?: ReadonlySet<string>;
  /** Where the file turns autoflush off other than by a session's constructor (autoflushOffIn), read when first needed. */
  autoflushOff?: AutoflushOff;
}

function classesOf(file: PythonFile, node: Node, ev: Evaluator): MappedClasses {
  return (file.classes ??= mappedClasses(node.tree.rootNode, ev, file.flaskDb));
}

/**
 * The file's mapped classes with a table (CodeModel.entities), the table as SQL writes it. A `db` imported from the
 * application counts as Flask-SQLAlchemy's here whatever the file shows of Db2: the classes only name the tables of
 * inserts other modules make (engine/orm-entities.ts).
 */
export function pythonEntities(root: Node, ev: Evaluator): OrmEntity[] {
  if (!/__tablename__|\.Model\b/.test(ev.source)) return [];
  const flask = flaskDbNames(ev.source, pythonImports(importLinesOf(ev)), true);
  const out: OrmEntity[] = [];
  for (const [name, table] of mappedClasses(root, ev, flask)) {
    if (table) out.push({ name, table: table.schema ? { name: sqlName(table.name), schema: sqlName(table.schema) } : { name: sqlName(table.name) } });
  }
  return out;
}

/**
 * An ORM or Core insert of a class none of the file's (SqlExecution.ormClass): its name, and the class as written
 * (`Order`, `models.Order`) in `from` until python.ts resolves it through the file's imports (withResolvedOrmClasses).
 */
function ormClassOf(target: InsertTarget, file: PythonFile): { name: string; from: string[] } | undefined {
  if (!('expression' in target)) return undefined;
  const node = target.expression;
  const name = node.type === 'identifier' ? node.text : node.type === 'attribute' ? node.childForFieldName('attribute')?.text : undefined;
  if (!name || !/^[A-Z]\w*$/.test(name) || (node.type === 'identifier' && file.classes?.has(name))) return undefined;
  return { name, from: [node.text] };
}

/** A session: one the file made, or a name for one it did not (db.session, self.session, db_session). */
function sessionLike(name: string, known: SqlalchemyName | undefined): boolean {
  return known ? known.kind === 'session' : /^(?:\w+_)?session$|^sess$/i.test(name);
}

/**
 * A session the file did not make, named as the code writes it (`db.session` in Flask, `self.session`): its adds,
 * flushes and commits are kept under that name, which the advice then uses (`db.session.commit()`); else the name.
 */
function sessionAsWritten(receiver: Node | null | undefined, name: string, known: SqlalchemyName | undefined): string {
  const written = receiver?.text;
  return !known && written && written.length <= 100 && DOTTED_SESSION.test(written) && written.endsWith(`.${name}`) ? written : name;
}

const DOTTED_SESSION = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){1,3}$/;

/** One per file read: the model builder hands every call of a file the same evaluator. */
const files = new WeakMap<Evaluator, PythonFile>();

/** What python.ts knows of the file it reads, set around the read (reads are synchronous). */
export interface PythonRead {
  /** The file's text (the evaluator's source). */
  text: string;
  /** Whether the file shows Db2 (access.ts sqlalchemyDb2Shown). */
  db2Shown: boolean;
  /** The file's import lines, read once for the whole read (python-imports.ts importLinesOnce). */
  importLines: () => readonly PythonImportLine[];
  /** A file that uses Django, of a project on Db2 (python-django.ts): the project, and the file's path. */
  django?: { project: DjangoProject; path: string };
}

const reading = new ReadScoped<PythonRead | undefined>(undefined);

export function withPythonRead<T>(read: PythonRead, run: () => T): T {
  return reading.run(read, run);
}

/** Whether the file being read is a Django file of a project on Db2 (python.ts asks which calls matter). */
export function djangoReading(): boolean {
  return reading.current?.django !== undefined;
}

/** What python.ts knows of the evaluator's file, while it reads it. */
export function pythonReadOf(ev: Evaluator): PythonRead | undefined {
  const read = reading.current;
  return read !== undefined && read.text === ev.source ? read : undefined;
}

/** The import lines of the evaluator's file: the read's, else read from its text (the adapter used on its own). */
function importLinesOf(ev: Evaluator): string | readonly PythonImportLine[] {
  const read = reading.current;
  return read !== undefined && read.text === ev.source ? read.importLines() : ev.source;
}

export function fileOf(ev: Evaluator): PythonFile {
  let file = files.get(ev);
  if (!file) {
    const imports = pythonImports(importLinesOf(ev));
    const flask = flaskDbNames(ev.source, imports, reading.current?.db2Shown ?? false);
    file = {
      imports: flask.size > 0 ? throughFlaskDb(imports, flask) : imports,
      sqlalchemy: imports.imports('sqlalchemy') || imports.imports('flask_sqlalchemy') || flask.size > 0,
      names: new Map(),
      ...(flask.size > 0 ? { flaskDb: flask } : {}),
    };
    files.set(ev, file);
  }
  return file;
}

/** `db = SQLAlchemy(app)` / `db = SQLAlchemy()` (flask_sqlalchemy's, under any name the file imports it as). */
const FLASK_DB_MADE = /^[ \t]*([A-Za-z_]\w{0,60})[ \t]*(?::[^=\n]{1,100})?=[ \t]*([\w.]{1,100})[ \t]*\(/gm;
/** `from app import db`, `from .extensions import db as _db`: the usual name of an application's Flask-SQLAlchemy object. */
const FLASK_DB_IMPORTED = /^[ \t]*from[ \t]+[\w.]{1,200}[ \t]+import[ \t]+\(?[^\n#;]{0,2000}?\bdb(?:[ \t]+as[ \t]+(\w{1,60}))?\b/gm;

/**
 * The names of the file's Flask-SQLAlchemy objects: assigned `SQLAlchemy(...)` of flask_sqlalchemy here, or a `db`
 * imported from the application (`from app import db`) that the file uses as one (`db.session`, `db.Model`), where the
 * file imports flask_sqlalchemy or `importedToo` (the file or its project shows Db2).
 */
export function flaskDbNames(source: string, imports: PythonImports, importedToo: boolean): Set<string> {
  const names = new Set<string>();
  if (!source.includes('SQLAlchemy') && !source.includes('db')) return names;
  if (imports.imports('flask_sqlalchemy')) {
    for (const m of source.matchAll(FLASK_DB_MADE)) {
      if (/^flask_sqlalchemy(?:\.extension)?\.SQLAlchemy$/.test(imports.qualify(m[2]))) names.add(m[1]);
    }
  }
  // An imported `db` only where the file or its project shows Db2 (a Postgres application's loader reads as before).
  if (!importedToo && !imports.imports('flask_sqlalchemy')) return names;
  for (const m of source.matchAll(FLASK_DB_IMPORTED)) {
    const name = m[1] ?? 'db';
    if (new RegExp(`\\b${name}\\.(?:session\\b|Model\\b)`).test(source)) names.add(name);
  }
  return names;
}

/**
 * The file's imports, with a Flask-SQLAlchemy object's names as SQLAlchemy's: the object exposes sqlalchemy's and
 * sqlalchemy.orm's names (`db.insert(Order)`, `db.text(sql)`, `db.Table(...)`, `db.select`), so `db.insert` is
 * `sqlalchemy.insert`.
 */
function throughFlaskDb(imports: PythonImports, names: ReadonlySet<string>): PythonImports {
  const head = (text: string) => {
    const dot = text.indexOf('.');
    return dot < 0 ? undefined : names.has(text.slice(0, dot)) ? text.slice(dot) : undefined;
  };
  return {
    qualify: (text) => {
      const rest = head(text);
      return rest === undefined ? imports.qualify(text) : `sqlalchemy${rest}`;
    },
    resolve: (text) => imports.resolve(text),
    imports: (module) => imports.imports(module),
    bound: imports.bound,
  };
}

export function isSqlalchemyText(qualified: string): boolean {
  return /^sqlalchemy(?:\.sql(?:\.expression)?)?\.text$/.test(qualified);
}

/** The isolation level a call sets: true for "AUTOCOMMIT", false for another level, undefined when it sets none. */
function isolationOf(call: CallContext['call']): boolean | undefined {
  const level = call.keywords.get('isolation_level');
  if (level) return /^[rRuUbB]?["']AUTOCOMMIT["']$/i.test(level.text.trim()) ? true : false;
  // create_engine(url, execution_options={"isolation_level": "AUTOCOMMIT"})
  const options = call.keywords.get('execution_options');
  const set = options ? /["']isolation_level["']\s*:\s*["'](\w+)["']/.exec(options.text) : null;
  return set ? set[1].toUpperCase() === 'AUTOCOMMIT' : undefined;
}

/** The value of a `with` item (`with engine.begin() as conn:`): the block's end commits or rolls back. */
function isWithItem(node: Node): boolean {
  const parent = parentOf(node);
  return parent?.type === 'with_item' || (parent?.type === 'as_pattern' && parentOf(parent)?.type === 'with_item');
}

/** A name the file uses as an engine: made by create_engine, or named so (self._engine, db_engine). */
function engineLike(name: string | undefined, known: SqlalchemyName | undefined): boolean {
  return known ? known.kind === 'engine' : !!name && /engine/i.test(name);
}

/**
 * The parameters of an execute hold many rows (SQLAlchemy then runs an executemany): a list literal or comprehension;
 * a variable assigned one; a parameter or field named for rows (rows, records, batch). Not a dict, nor the variable
 * of the loop around the call (for r in rows: conn.execute(stmt, r)).
 */
function holdsRows(node: Node, call: CallContext['call'], ev: Evaluator): boolean {
  if (node.type === 'list' || node.type === 'list_comprehension' || node.type === 'generator_expression') return true;
  if (node.type === 'call') return /^list$/.test(node.childForFieldName('function')?.text ?? '');
  if (node.type !== 'identifier' && node.type !== 'attribute') return false;
  const name = simpleName(node);
  if (!name) return false;
  for (let p = parentOf(call.node); p; p = parentOf(p)) {
    if (p.type === 'function_definition') break;
    if (p.type === 'for_statement' || p.type === 'for_in_clause') {
      const target = p.childForFieldName('left')?.text ?? '';
      if (new RegExp(`(?:^|[^\\w.])${name}(?![\\w])`).test(target)) return false;
    }
  }
  if (node.type === 'identifier') {
    const assigned = ev.assignedBefore?.(name, call.node.startIndex);
    const value = assigned?.[0]?.value;
    if (value) {
      if (value.type === 'list' || value.type === 'list_comprehension') return true;
      if (value.type === 'dictionary' || value.type === 'dictionary_comprehension' || value.type === 'tuple') return false;
      if (value.type === 'call') {
        const fn = value.childForFieldName('function')?.text ?? '';
        if (fn === 'list') return true;
        if (fn === 'dict') return false;
      }
    }
  }
  return ROWS_NAME.test(name);
}

const ROWS_NAME = /^(?:rows|records|batch|chunk|items|entries|param_list|params_list|parameters_list)$|(?:rows|records|_list|_batch|chunk)$/i;

/**
 * SQLAlchemy's calls in a file that imports it; undefined for a call that is not one (the DB-API reading follows).
 * Engines come from create_engine, connections from engine.connect() and engine.begin() (assigned or bound by a
 * `with`), sessions from Session(engine) and the factories sessionmaker makes. isolation_level="AUTOCOMMIT" (on
 * create_engine, or execution_options of an engine or a connection) turns autocommit on; else a connection is in a
 * transaction (2.x autobegin), one that `with engine.begin()` / `with conn.begin()` commits at the block's end.
 */
export function classifySqlalchemy(ctx: CallContext, ev: Evaluator, file: PythonFile): ApiEvent[] | undefined {
  const { call } = ctx;
  const a = call.args;
  const recvName = simpleName(call.receiver);
  const known = recvName !== undefined ? file.names.get(recvName) : undefined;
  const qualified = file.imports.qualify(call.receiver ? `${call.receiver.text}.${call.name}` : call.name);
  const result = ctx.resultName;
  const api = 'sqlalchemy';
  switch (call.name) {
    case 'create_engine': {
      if (!/^sqlalchemy\.(?:engine\.)?create_engine$/.test(qualified) || !result) return undefined;
      const autocommit = isolationOf(call) === true;
      file.names.set(result, { kind: 'engine', autocommit });
      return [{ kind: 'connect', api, connection: result, autocommit: autocommit || undefined }];
    }
    case 'execution_options': {
      const level = isolationOf(call);
      if (level === undefined || !recvName) return undefined;
      if (result) {
        // eng = engine.execution_options(...), conn = conn.execution_options(...): a copy (or the same connection) at that level.
        file.names.set(result, { kind: known?.kind ?? (engineLike(recvName, known) ? 'engine' : 'connection'), autocommit: level });
        return [{ kind: 'connect', api, connection: result, autocommit: level || (known?.autocommit ? false : undefined) }];
      }
      // Engine.execution_options returns a copy: called alone it changes nothing. A connection's changes the connection.
      if (engineLike(recvName, known)) return [];
      if (!level && !known?.autocommit) return [];
      if (known) known.autocommit = level;
      else file.names.set(recvName, { kind: 'connection', autocommit: level });
      return [{ kind: 'autocommit', api, on: level, connection: recvName }];
    }
    case 'connect': {
      // engine.connect(), or any `with x.connect() as conn:` of a SQLAlchemy file (the drivers' own connect calls are
      // read before this).
      if (!engineLike(recvName, known) && !(isWithItem(call.node) && (!known || known.kind === 'engine'))) return undefined;
      if (!result) return [];
      const autocommit = known?.autocommit ?? false;
      file.names.set(result, { kind: 'connection', autocommit });
      return [{ kind: 'connect', api, connection: result, autocommit: autocommit || undefined }];
    }
    case 'begin': {
      if (!recvName) return undefined;
      const inWith = isWithItem(call.node);
      // engine.begin(), or a session factory's: a connection (session) in a transaction the block's end commits.
      if (engineLike(recvName, known) || known?.kind === 'factory' || (!known && result !== undefined && inWith)) {
        const autocommit = known?.autocommit ?? false;
        const events: ApiEvent[] = [];
        if (result) {
          file.names.set(result, { kind: known?.kind === 'factory' ? 'session' : 'connection', autocommit });
          events.push({ kind: 'connect', api, connection: result, autocommit });
        }
        if (inWith && !autocommit) events.push({ kind: 'commit', api, connection: result });
        return events;
      }
      if (!known && !/conn|session|sess\b|db/i.test(recvName)) return undefined;
      // conn.begin(), session.begin(): a transaction on it (an AUTOCOMMIT connection stays so: nothing to begin).
      if (known?.autocommit) return [];
      const events: ApiEvent[] = [{ kind: 'autocommit', api, on: false, connection: recvName }];
      if (inWith) events.push({ kind: 'commit', api, connection: recvName });
      return events;
    }
    case 'commit':
      return recvName && (known || sessionLike(recvName, known)) && a.length === 0 ? [{ kind: 'commit', api, connection: sessionAsWritten(call.receiver, recvName, known) }] : undefined;
    case 'flush':
      return recvName && sessionLike(recvName, known) ? [{ kind: 'flush', api, connection: sessionAsWritten(call.receiver, recvName, known) }] : undefined;
    case 'add':
    case 'add_all':
    case 'merge':
      return ormAdd(ctx, ev, file, known);
    case 'execute': {
      const events = sqlalchemyExecute(ctx, ev, file, known);
      const autoflush = sessionRunAutoflush(ctx, ev, file, known);
      return autoflush ? [...(events ?? []), autoflush] : events;
    }
    case 'scalars':
    case 'scalar':
    case 'all':
    case 'first':
    case 'one':
    case 'one_or_none':
    case 'count':
    case 'first_or_404':
    case 'one_or_404':
    case 'paginate': {
      const autoflush = queryRunAutoflush(ctx, ev, file) ?? sessionRunAutoflush(ctx, ev, file, known);
      return autoflush ? [autoflush] : undefined;
    }
    default: {
      // Session(engine), sessionmaker(bind=engine), scoped_session(...), and a factory's session: SessionLocal().
      const factory = !call.receiver ? file.names.get(call.name) : undefined;
      const maker = /^sqlalchemy\.orm(?:\.session)?\.(?:sessionmaker|scoped_session)$/.test(qualified);
      const session = /^sqlalchemy\.orm(?:\.session)?\.Session$/.test(qualified) || factory?.kind === 'factory';
      if (!maker && !session) return undefined;
      const bind = a[0] ?? call.keywords.get('bind');
      const bound = bind ? file.names.get(simpleName(bind) ?? '') : undefined;
      const autocommit = factory?.autocommit ?? bound?.autocommit ?? false;
      if (!result) return [];
      // autoflush=False on the call, or on the sessionmaker scoped_session wraps; else as the factory made it.
      const inner = a[0]?.type === 'call' ? a[0] : undefined;
      const flag = call.keywords.get('autoflush') ?? (inner ? keywordOf(inner, 'autoflush') : undefined);
      const noAutoflush = flag ? isFalse(flag) : factory?.noAutoflush === true;
      file.names.set(result, { kind: maker ? 'factory' : 'session', autocommit, ...(noAutoflush ? { noAutoflush } : {}) });
      return maker ? [] : [{ kind: 'connect', api, connection: result, autocommit: autocommit || undefined }];
    }
  }
}

/**
 * session.add(obj), session.merge(obj): a new instance of a class (`Order(...)`, directly or through a variable) that
 * the session INSERTs at its next flush, one row per pass where the loop flushes or commits the session on every pass
 * (ExecuteEvent.atFlush); session.add_all(objs) of a list of them: rows together. The table is the class's
 * __tablename__ when the file declares it, else named by the class. An object the call does not show being made (a
 * loaded one, added again) may insert nothing: no event.
 */
function ormAdd(ctx: CallContext, ev: Evaluator, file: PythonFile, known: SqlalchemyName | undefined): ApiEvent[] | undefined {
  const { call } = ctx;
  const recvName = simpleName(call.receiver);
  const arg = call.args[0];
  if (!recvName || !arg || call.args.length > 1 || !sessionLike(recvName, known)) return undefined;
  const at = call.node.startIndex;
  const all = call.name === 'add_all';
  let item: Node | null | undefined = arg;
  if (all) {
    let list: Node | undefined = arg;
    if (list.type === 'identifier') list = ev.assignedBefore?.(list.text, at)?.[0]?.value;
    item = list?.type === 'list' ? list.namedChild(0) : list?.type === 'list_comprehension' || list?.type === 'generator_expression' ? list.childForFieldName('body') : undefined;
  }
  // session.merge(obj) flushes the session before it looks the object up (Session.merge, load=True by default).
  const session = sessionAsWritten(call.receiver, recvName, known);
  const flushes: ApiEvent[] = call.name === 'merge' && !isFalse(call.keywords.get('load')) && autoflushes(call.node, session, recvName, known, file, ev) ? [autoflushEvent(call.node, session, `${session}.merge()`)] : [];
  const cls = item ? constructedClass(item, at, ev) : undefined;
  if (!cls) return all ? [] : flushes.length > 0 ? flushes : undefined;
  const target = targetOf(cls, at, ev, file.imports, classesOf(file, call.node, ev));
  const ormClass = ormClassOf(target, file);
  return [...flushes, {
    kind: 'execute',
    api: 'sqlalchemy',
    action: all ? 'executeMany' : 'executePrepared',
    sql: insertText(target, call.node),
    connection: session,
    batched: all,
    construct: 'orm',
    ...(all ? {} : { atFlush: true }),
    ...(ormClass ? { ormClass } : {}),
  }];
}

/**
 * conn.execute(text(sql), params), session.execute(...), engine.execute(...): a text() construct, or any SQL on a name
 * the file got from SQLAlchemy. A list of parameter sets is an executemany (batched). A plain string (refused by 2.x)
 * or an engine's own execute (removed in 2.x) is 1.x code, whose library-level autocommit commits each INSERT run
 * outside a transaction.
 */
function sqlalchemyExecute(ctx: CallContext, ev: Evaluator, file: PythonFile, known: SqlalchemyName | undefined): ApiEvent[] | undefined {
  const { call } = ctx;
  const a = call.args;
  const recvName = simpleName(call.receiver);
  const sql = a[0];
  if (!sql || !recvName) return undefined;
  const wrapped = isTextConstruct(sql, call, ev, file);
  const engine = engineLike(recvName, known);
  const params = a[1] ?? call.keywords.get('parameters');
  const sessionRun = known?.kind === 'session';
  // insert(t).values(...), t.insert(): the INSERT SQLAlchemy builds, its values bound.
  const construct = wrapped ? undefined : insertConstruct(sql, call.node.startIndex, ev, file.imports, classesOf(file, call.node, ev));
  if (construct && (known || engine || 'table' in construct.target || /conn|session|sess\b/i.test(recvName))) {
    const many = a.length > 2 || (params !== undefined && holdsRows(params, call, ev));
    const ormClass = ormClassOf(construct.target, file);
    return [{
      kind: 'execute',
      api: 'sqlalchemy',
      action: many ? 'executeMany' : 'executePrepared',
      sql: insertText(construct.target, call.node),
      connection: recvName,
      batched: many || construct.multiRow,
      construct: 'core',
      ...(engine && !sessionRun ? { libraryAutocommit: 'always' as const } : {}),
      ...(ormClass ? { ormClass } : {}),
    }];
  }
  if (!wrapped && !known && !engine) return undefined;
  const text = ev.evaluate(sql);
  if (text && !looksLikeSql(PLAIN(text))) return [];
  const batched = a.length > 2 || (params !== undefined && holdsRows(params, call, ev));
  const library = sessionRun ? undefined : engine ? 'always' : !wrapped && text ? 'outsideTransaction' : undefined;
  return [{
    kind: 'execute',
    api: 'sqlalchemy',
    action: batched ? 'executeMany' : params ? 'executePrepared' : 'executeDirect',
    sql: text ?? sql,
    connection: recvName,
    batched,
    ...(library ? { libraryAutocommit: library } : {}),
  }];
}

/** text("…") under the name the file imports it as, or a variable last assigned one before the call. */
function isTextConstruct(node: Node, call: CallContext['call'], ev: Evaluator, file: PythonFile): boolean {
  if (node.type === 'call') {
    const fn = node.childForFieldName('function')?.text ?? '';
    return isSqlalchemyText(file.imports.qualify(fn));
  }
  if (node.type !== 'identifier') return false;
  const value = ev.assignedBefore?.(node.text, call.node.startIndex)?.[0]?.value;
  return value?.type === 'call' && isSqlalchemyText(file.imports.qualify(value.childForFieldName('function')?.text ?? ''));
}

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
interface AutoflushOff {
  /** Receivers assigned `x.autoflush = False` (as written: session, db.session, self.session). */
  names: ReadonlySet<string>;
  /** The file configures sessions it does not name with autoflush off (SQLAlchemy(session_options={"autoflush": False}), Session.configure(autoflush=False)). */
  all: boolean;
}

const AUTOFLUSH_ASSIGNED_OFF = /([A-Za-z_][\w.]{0,100})[ \t]*\.[ \t]*autoflush[ \t]*=[ \t]*(?:False|0)\b/g;
const AUTOFLUSH_CONFIGURED_OFF = /["']autoflush["'][ \t]*:[ \t]*(?:False|0)\b|\.configure\([^)]{0,400}\bautoflush[ \t]*=[ \t]*(?:False|0)\b|SESSION_AUTOFLUSH[ \t]*=[ \t]*False\b/;

function autoflushOffIn(file: PythonFile, ev: Evaluator): AutoflushOff {
  if (file.autoflushOff) return file.autoflushOff;
  const source = ev.source;
  const names = new Set<string>();
  if (source.includes('autoflush')) for (const m of source.matchAll(AUTOFLUSH_ASSIGNED_OFF)) names.add(m[1]);
  return (file.autoflushOff = { names, all: source.includes('autoflush') && AUTOFLUSH_CONFIGURED_OFF.test(source) });
}

function isFalse(node: Node | undefined): boolean {
  return !!node && /^(?:False|0)$/.test(node.text.trim());
}

function keywordOf(call: Node, name: string): Node | undefined {
  for (const child of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (child?.type === 'keyword_argument' && child.childForFieldName('name')?.text === name) return child.childForFieldName('value') ?? undefined;
  }
  return undefined;
}

/**
 * Whether a query of `session` at `node` autoflushes it on the passes of the loop around it: autoflush is not turned
 * off for that session where the file shows it (its constructor or factory, an assignment to its autoflush, a session
 * configuration of the file), the query runs in no `with ….no_autoflush:` block of its function, and it is not what a
 * for statement iterates over (run once, before the loop's passes).
 */
function autoflushes(node: Node, session: string, recvName: string, known: SqlalchemyName | undefined, file: PythonFile, ev: Evaluator): boolean {
  if (known?.noAutoflush) return false;
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
function autoflushEvent(node: Node, session: string, label: string): ApiEvent {
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
function queryRunAutoflush(ctx: CallContext, ev: Evaluator, file: PythonFile): ApiEvent | undefined {
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
      if (!recvName || !sessionLike(recvName, known)) return undefined;
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
 * session.execute(select(Customer)…), session.scalars(…), session.scalar(…) of an ORM select (of a class or a class's
 * attributes, directly or through a variable assigned before the call): an autoflush of the session. A select of a
 * Core Table or a text() does not autoflush.
 */
function sessionRunAutoflush(ctx: CallContext, ev: Evaluator, file: PythonFile, known: SqlalchemyName | undefined): ApiEvent | undefined {
  const { call } = ctx;
  const recvName = simpleName(call.receiver);
  const statement = call.args[0];
  if (!recvName || !statement || !(call.name === 'execute' || call.name === 'scalars' || call.name === 'scalar') || !sessionLike(recvName, known)) return undefined;
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
    if (/^sqlalchemy(?:\.future|\.sql(?:\.expression)?)?\.select$/.test(file.imports.qualify(fn.text))) {
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
