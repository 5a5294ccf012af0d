// SQLAlchemy Core in a Python file that imports it (python.ts hands over the calls it does not read as a driver's):
// engines (create_engine), connections (engine.connect(), engine.begin()), sessions (Session, sessionmaker),
// isolation_level="AUTOCOMMIT", execute of text() or of an insert construct with one row or a list of rows, the ORM's
// session.add / add_all / merge of a mapped class's instance (python-sqlalchemy-inserts.ts), flush, commit, and 1.x's
// library-level autocommit. Flask-SQLAlchemy (`db = SQLAlchemy(app)`, or `from app import db` used as one) is read
// the same way: `db.session` is a session, `db.insert` / `db.text` are SQLAlchemy's. Also the per-file state the Python front end keeps: the imports and the names SQLAlchemy made.
// The queries and merges that autoflush a session in a loop: python-autoflush.ts.
import { ReadScoped } from '../read-scope';
import type { Node } from 'web-tree-sitter';
import { plainText as PLAIN, simpleName, type ApiEvent, type CallContext, type Evaluator } from '../adapter';
import { looksLikeSql } from '../sqltext';
import { pythonImports, type PythonImportLine, type PythonImports } from './python-imports';
import { constructedClass, insertConstruct, mappedClasses, targetOf, type MappedClasses } from './python-sqlalchemy-inserts';
import { insertText, sqlName, type InsertTarget } from '../orm-insert-text';
import type { DjangoProject, OrmEntity } from '../../code-model/types';
import { parentOf } from '../parents';
import { isFalse, keywordOf, sessionAsWritten, sessionLike, type ReceivingFile, type SqlalchemyName } from './python-sqlalchemy-names';
import { autoflushes, autoflushEvent, queryRunAutoflush, sessionRunAutoflush, type AutoflushOff } from './python-autoflush';

export interface PythonFile extends ReceivingFile {
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
  /** Every session factory of the file's project sets autoflush off (PythonRead.projectAutoflushOff). */
  projectAutoflushOff?: boolean;
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
  /**
   * Every SQLAlchemy session factory and constructor of the file's project sets autoflush off (access.ts
   * projectAutoflushOff): a session the file does not build itself (a parameter, another module's SessionLocal())
   * does not autoflush.
   */
  projectAutoflushOff?: boolean;
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
      // (SQLModel is SQLAlchemy's ORM under other names: its create_engine, Session, select and table=True models.)
      sqlalchemy: imports.imports('sqlalchemy') || imports.imports('flask_sqlalchemy') || imports.imports('sqlmodel') || flask.size > 0,
      names: new Map(),
      ...(flask.size > 0 ? { flaskDb: flask } : {}),
      ...(reading.current?.projectAutoflushOff && reading.current.text === ev.source ? { projectAutoflushOff: true } : {}),
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
    ...(imports.relative ? { relative: imports.relative } : {}),
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
      if (!/^(?:sqlalchemy\.(?:engine\.)?|sqlmodel\.)create_engine$/.test(qualified) || !result) return undefined;
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
      return recvName && (known || sessionLike(recvName, known, file, call.node)) && a.length === 0 ? [{ kind: 'commit', api, connection: sessionAsWritten(call.receiver, recvName, known) }] : undefined;
    case 'flush':
      return recvName && sessionLike(recvName, known, file, call.node) ? [{ kind: 'flush', api, connection: sessionAsWritten(call.receiver, recvName, known) }] : undefined;
    case 'add':
    case 'add_all':
    case 'merge':
      return ormAdd(ctx, ev, file, known);
    case 'execute': {
      const events = sqlalchemyExecute(ctx, ev, file, known);
      const autoflush = sessionRunAutoflush(ctx, ev, file, known);
      return autoflush ? [...(events ?? []), autoflush] : events;
    }
    case 'exec':
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
      const session = /^(?:sqlalchemy\.orm(?:\.session)?|sqlmodel(?:\.orm\.session)?)\.Session$/.test(qualified) || factory?.kind === 'factory';
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
  if (!recvName || !arg || call.args.length > 1 || !sessionLike(recvName, known, file, call.node)) return undefined;
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
