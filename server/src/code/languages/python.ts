// Python: ibm_db (exec_immediate, prepare, execute, execute_many, autocommit, commit, commit_two_phase),
// ibm_db_dbi and other DB-API cursors (execute, executemany, connection.commit, tpc_commit, autocommit),
// SQLAlchemy Core (create_engine, connect, begin, execution_options, Session, execute of text() or an insert construct,
// commit) and ORM (session.add / add_all / merge / flush). Modules and
// names are read through the file's imports (import pyodbc as odbc, from sqlalchemy import text as sql_text).
import type { Node } from 'web-tree-sitter';
import type { HostFix } from '../../code-model/types';
import { operatorAssignment, plainText as PLAIN, simpleName, type ApiEvent, type CallContext, type Evaluator, type LanguageAdapter } from '../adapter';
import { djangoDb2Project, projectAutoflushOff, pythonAccess, sqlalchemyDb2Shown, usesSqlalchemy } from '../access';
import { emptyResult, entitiesOnly, readWithAdapter, type HostLanguage } from '../host-language';
import { applyFormat, concatenate, decodeQuoted, joinWithSeparator } from '../literals';
import { joinTexts, looksLikeSql, type HostText } from '../sqltext';
import { blankWholeLineComments } from './python-comments';
import { importLinesOnce, pythonImports, withResolvedModuleCalls, withResolvedOrmClasses, type PythonImports } from './python-imports';
import { classifySqlalchemy, djangoReading, fileOf, isSqlalchemyText, pythonEntities, withPythonRead } from './python-sqlalchemy';
import { classifyDjango, DJANGO_CALLS, djangoEntities } from './python-django';
import { usesDjango } from './python-django-project';
import { parentOf } from '../parents';
import { bindingScope, type PythonScope } from './python-scopes';

function splitArgs(list: Node | null): { args: Node[]; keywords: Map<string, Node> } {
  const args: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const child of list?.namedChildren ?? []) {
    // (`type` read once: each read is a call into wasm.)
    const type = child?.type;
    if (!child || type === 'comment') continue;
    if (type === 'keyword_argument') {
      const name = child.childForFieldName('name');
      const value = child.childForFieldName('value');
      if (name && value) keywords.set(name.text, value);
    } else args.push(child);
  }
  return { args, keywords };
}

function stringText(node: Node, ev: Evaluator): HostText | undefined {
  // The parts by type, each child's type read once (a call into wasm): the first string_start and string_end, and
  // the interpolations.
  let start: Node | undefined;
  let end: Node | undefined;
  const interpolations: Node[] = [];
  for (const c of node.namedChildren) {
    const type = c?.type;
    if (type === 'string_start') start ??= c!;
    else if (type === 'string_end') end ??= c!;
    else if (type === 'interpolation') interpolations.push(c!);
  }
  if (!start || !end) return undefined;
  const opening = start.text;
  const quote = opening.search(/['"]/);
  const prefix = (quote < 0 ? opening : opening.slice(0, quote)).toLowerCase();
  if (prefix.includes('b')) return undefined;
  const raw = prefix.includes('r');
  const fstring = prefix.includes('f');
  const splices = fstring ? interpolations : [];
  const pieces = decodeQuoted(ev.source, start.endIndex, end.startIndex, raw ? 'none' : fstring ? 'python-f' : 'c', splices, (e) => ev.evaluate(e));
  return { pieces, kind: splices.length > 0 ? 'template' : 'constant' };
}

const PY_CALLS = new Set([
  'connect', 'pconnect', 'connect_coordinated', 'autocommit', 'commit', 'commit_two_phase', 'exec_immediate', 'prepare', 'execute',
  'execute_many', 'set_option', 'cursor', 'autocommit=', 'set_autocommit', 'executemany', 'tpc_begin', 'tpc_commit',
  'setAutoCommit', 'create_engine', 'execution_options', 'begin', 'sessionmaker', 'scoped_session', 'add', 'add_all', 'merge', 'flush',
  // (A SQLAlchemy query run: it autoflushes the session, python-sqlalchemy.ts QUERY_RUNS.)
  'all', 'first', 'one', 'one_or_none', 'scalar', 'scalars', 'count', 'first_or_404', 'one_or_404', 'paginate',
  // (SQLModel's Session.exec(select(...)): a query run too.)
  'exec',
]);

export const pythonAdapter: LanguageAdapter = {
  grammar: 'python',
  loops: {
    for_statement: 'for',
    while_statement: 'while',
    list_comprehension: 'comprehension',
    generator_expression: 'comprehension',
    set_comprehension: 'comprehension',
    dictionary_comprehension: 'comprehension',
  },
  functions: new Set(['function_definition']),
  lambdas: new Set(['lambda']),
  ifs: new Set(['if_statement', 'elif_clause']),
  comments: new Set(['comment']),
  calls: new Set(['call', 'assignment']),
  // (as_pattern: `with engine.connect() as conn:` binds conn, a local of the function like an assignment's.)
  assignmentTypes: new Set(['assignment', 'augmented_assignment', 'as_pattern']),
  loopMethods: new Set(),
  // (Another module's function called in a loop: engine/cross-file.ts.)
  linksModules: true,
  ormEntities: (root, ev) => [...pythonEntities(root, ev), ...djangoEntities(root, ev)],

  calleeName(node) {
    if (node.type === 'assignment') return /\.autocommit\s*$/.test(node.childForFieldName('left')?.text ?? '') ? 'autocommit=' : undefined;
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    return fn.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn.text;
  },
  interestingCall(name) {
    // (Session, and the session factories a file makes with sessionmaker: SessionLocal(), make_session().)
    // (Django's model calls only in a Django file of a project on Db2: python-django.ts.)
    return PY_CALLS.has(name) || /[Ss]ession/.test(name) || (DJANGO_CALLS.has(name) && djangoReading());
  },
  callSite(node) {
    if (node.type === 'assignment') {
      // conn.autocommit = False is a setting, handled like a call.
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left?.type === 'attribute' && left.childForFieldName('attribute')?.text === 'autocommit' && right) {
        return { node, name: 'autocommit=', receiver: left.childForFieldName('object') ?? undefined, args: [right], keywords: new Map() };
      }
      return undefined;
    }
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    const { args, keywords } = splitArgs(node.childForFieldName('arguments'));
    if (fn.type === 'attribute') {
      const attr = fn.childForFieldName('attribute');
      return attr ? { node, name: attr.text, receiver: fn.childForFieldName('object') ?? undefined, args, keywords } : undefined;
    }
    return { node, name: fn.text, args, keywords };
  },

  assignments(node) {
    if (node.type === 'as_pattern') {
      const name = parentOf(node)?.type === 'with_item' ? simpleName(node.childForFieldName('alias')) : undefined;
      const value = node.namedChildren.find((c): c is Node => !!c && c.type !== 'as_pattern_target' && c.type !== 'comment');
      return name && value ? [{ name, value, append: false }] : [];
    }
    const leftType = node.childForFieldName('left')?.type;
    return leftType === 'identifier' || leftType === 'attribute' ? operatorAssignment(node, ['+=']) : [];
  },

  evaluate(node, ev) {
    switch (node.type) {
      case 'string':
        return stringText(node, ev);
      case 'concatenated_string': {
        const parts = node.namedChildren.filter((c): c is Node => c?.type === 'string').map((c) => stringText(c, ev));
        if (parts.some((p) => !p)) return undefined;
        const texts = parts as HostText[];
        return joinTexts(texts, texts.some((t) => t.kind === 'template') ? 'template' : 'constant');
      }
      case 'parenthesized_expression': {
        const inner = node.namedChildren.find((c) => c && c.type !== 'comment');
        return inner ? ev.evaluate(inner) : undefined;
      }
      case 'identifier':
        return ev.variable(node.text, node.startIndex);
      case 'attribute': {
        const attr = node.childForFieldName('attribute');
        return attr ? ev.variable(attr.text, node.startIndex) : undefined;
      }
      case 'binary_operator': {
        const op = node.childForFieldName('operator')?.text;
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (!left || !right) return undefined;
        if (op === '+') return concatenate(node, ev, (n) => n.type === 'binary_operator' && n.childForFieldName('operator')?.text === '+');
        if (op === '%') {
          const fmt = ev.evaluate(left);
          if (!fmt) return undefined;
          const args = right.type === 'tuple' ? right.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') : [right];
          return applyFormat(fmt, right.type === 'dictionary' ? [] : args, new Map(), 'printf', (n) => ev.evaluate(n) ?? ev.splice(n));
        }
        return undefined;
      }
      case 'call': {
        const fn = node.childForFieldName('function');
        // textwrap.dedent(text) only changes white space; sqlalchemy.text(sql) wraps the SQL as is (under any name the
        // file imports it as: from sqlalchemy import text as sql_text).
        if (fn && (/(?:^|\.)(?:dedent|text)$/.test(fn.text) || isSqlalchemyText(fileOf(ev).imports.qualify(fn.text)))) {
          const { args } = splitArgs(node.childForFieldName('arguments'));
          return args[0] ? ev.evaluate(args[0]) : undefined;
        }
        if (fn?.type !== 'attribute') return undefined;
        const attr = fn.childForFieldName('attribute')?.text;
        const object = fn.childForFieldName('object');
        if (!object) return undefined;
        if (attr === 'format') {
          const fmt = ev.evaluate(object);
          if (!fmt) return undefined;
          const { args, keywords } = splitArgs(node.childForFieldName('arguments'));
          return applyFormat(fmt, args, keywords, 'brace', (n) => ev.evaluate(n) ?? ev.splice(n));
        }
        if (attr === 'strip' || attr === 'upper' || attr === 'lstrip' || attr === 'rstrip') return ev.evaluate(object);
        if (attr === 'join') {
          // " ".join(["INSERT INTO t", "VALUES (?, ?)"]): a literal list of parts.
          const sep = ev.evaluate(object);
          const { args } = splitArgs(node.childForFieldName('arguments'));
          const list = args[0];
          if (!sep || !list || (list.type !== 'list' && list.type !== 'tuple')) return undefined;
          return joinWithSeparator(list.namedChildren, sep, ev);
        }
        return undefined;
      }
      default:
        return undefined;
    }
  },

  classify(ctx, ev) {
    return classifyPython(ctx, ev);
  },

  commentText(raw) {
    return raw.replace(/^#/, '');
  },

  defaultAutocommit(api) {
    // ibm_db.connect opens in autocommit mode; DB-API connections (ibm_db_dbi, pyodbc, pypyodbc) start a
    // transaction, as PEP 249 has it (pyodbc and pypyodbc switch the ODBC default off after connecting);
    // jaydebeapi leaves the JDBC connection as the driver opens it: autocommit on.
    if (api === 'ibm_db' || api === 'jaydebeapi') return 'on';
    if (api === 'dbapi') return 'off';
    // SQLAlchemy 2.x (and 1.4 with future=True) begins a transaction on a connection's first statement and commits
    // only when told (conn.commit(), the end of a `with engine.begin()` block); 1.x's library-level autocommit of
    // DML is the execute event's (libraryAutocommit).
    if (api === 'sqlalchemy') return 'off';
    return 'unknown';
  },

  fixedAutocommit(api) {
    // Django runs in autocommit mode: an ORM write outside transaction.atomic() is committed on its own (python-django.ts
    // marks those inside one autocommitOff).
    return api === 'django' ? 'on' : undefined;
  },
};

export const pythonLanguage: HostLanguage = {
  languages: ['python'],
  grammars: ['python'],
  read(source, env) {
    // (The file's import lines, read once for all that asks: access.ts, the SQLAlchemy reader, the module calls.)
    const importLines = importLinesOnce(source.text);
    const leftOut = pythonAccess(source.text, env.options, source.path, importLines);
    // A models module with no data access of its own: left out, with the mapped classes it declares, which other
    // modules' inserts name their tables by (engine/orm-entities.ts).
    const models = leftOut !== undefined && MAPPED_CLASS.test(source.text) && usesSqlalchemy(source.text);
    if (leftOut && !models) return emptyResult(leftOut);
    if (nestsTooDeep(source.text)) return emptyResult(TOO_DEEP);
    const blanked = blankWholeLineComments(source.text);
    // A Django file of a project whose settings name ibm_db_django: its model calls are read (python-django.ts).
    const project = leftOut ? undefined : djangoDb2Project(source.path, env.options);
    const django = project && usesDjango(source.text) ? { project, path: source.path } : undefined;
    const read = (db2Shown: boolean, moduleCallHeads: ReadonlySet<string>) =>
      withPythonRead({ text: source.text, db2Shown, importLines, projectAutoflushOff: projectAutoflushOff(env.options, source.path), ...(django ? { django } : {}) }, () => readWithAdapter(source, env, pythonAdapter, { hostText: blanked.text, hooks: { moduleCallHeads } }));
    // (Only the entities are kept: no call is another module's.)
    if (leftOut) return entitiesOnly(read(false, NO_NAMES), leftOut);
    // A call in a loop is another module's only where an import binds its first name (withResolvedModuleCalls).
    const imports = pythonImports(importLines(), source.path);
    const result = withResolvedOrmClasses(withResolvedModuleCalls(read(sqlalchemyDb2Shown(source.text, env.options, source.path), imports.bound), imports), imports);
    if (blanked.comments.length === 0) return result;
    return { ...result, comments: [...result.comments, ...blanked.comments].sort((a, b) => a.span.start - b.span.start) };
  },
};

const NO_NAMES: ReadonlySet<string> = new Set();

/** A mapped class's table: its __tablename__, or a Flask-SQLAlchemy model's (`class Order(db.Model)`). */
const MAPPED_CLASS = /__tablename__|\.Model\b/;

function isOff(node: Node | undefined): boolean {
  if (!node) return false;
  const t = node.text;
  return /OFF\b|^False$|^0$/.test(t);
}

function classifyPython(ctx: CallContext, ev: Evaluator): ApiEvent[] {
  const { call } = ctx;
  const file = fileOf(ev);
  // The receiver as the imports name it: odbc.connect is pyodbc's after `import pyodbc as odbc`.
  const recv = call.receiver ? file.imports.qualify(call.receiver.text) : undefined;
  const recvName = simpleName(call.receiver);
  const a = call.args;
  // (A bare `db2` is ibm_db's usual short name, except in a SQLAlchemy file, where it is as likely an engine.)
  const module = recv === 'ibm_db' || (call.receiver?.text === 'db2' && !file.sqlalchemy) ? 'ibm_db' : recv === 'ibm_db_dbi' ? 'ibm_db_dbi' : undefined;
  if (module === 'ibm_db') {
    switch (call.name) {
      case 'connect':
      case 'pconnect':
      case 'connect_coordinated': {
        const options = a[3] ?? call.keywords.get('options') ?? call.keywords.get('conn_options');
        // A coordinated (two-phase) connection is committed by its coordinator, never per statement.
        const off = call.name === 'connect_coordinated' || (options ? /SQL_AUTOCOMMIT_OFF/.test(options.text) : false);
        return ctx.resultName ? [{ kind: 'connect', api: 'ibm_db', connection: ctx.resultName, autocommit: off ? false : undefined }] : [];
      }
      case 'autocommit':
        return a.length >= 2 ? [{ kind: 'autocommit', api: 'ibm_db', on: !isOff(a[1]), connection: simpleName(a[0]) }] : [];
      case 'commit':
      case 'commit_two_phase':
        return [{ kind: 'commit', api: 'ibm_db', connection: simpleName(a[0]) }];
      case 'exec_immediate':
        return a.length >= 2 ? [{ kind: 'execute', api: 'ibm_db', action: 'executeDirect', sql: a[1], connection: simpleName(a[0]) }] : [];
      case 'prepare':
        return a.length >= 2 ? [{ kind: 'execute', api: 'ibm_db', action: 'prepare', sql: a[1], connection: simpleName(a[0]), handle: ctx.resultName ?? `@${call.node.startIndex}` }] : [];
      case 'execute':
        return a.length >= 1 ? [{ kind: 'execute', api: 'ibm_db', action: 'executePrepared', handle: simpleName(a[0]) }] : [];
      case 'execute_many':
        return a.length >= 1 ? [{ kind: 'execute', api: 'ibm_db', action: 'executeMany', handle: simpleName(a[0]), batched: true }] : [];
      case 'set_option':
        return a.length >= 2 && /SQL_ATTR_AUTOCOMMIT/.test(a[1].text) ? [{ kind: 'autocommit', api: 'ibm_db', on: !/OFF/.test(a[1].text), connection: simpleName(a[0]) }] : [];
      default:
        return [];
    }
  }
  if (module === 'ibm_db_dbi' && call.name === 'connect') {
    return ctx.resultName ? [{ kind: 'connect', api: 'dbapi', connection: ctx.resultName }] : [];
  }
  if ((recv === 'pyodbc' || recv === 'pypyodbc') && call.name === 'connect') {
    if (!ctx.resultName) return [];
    // connect(..., autocommit=True) (pypyodbc also takes it second): on from the start; else off, the DB-API default.
    const flag = call.keywords.get('autocommit') ?? (recv === 'pypyodbc' ? a[1] : undefined);
    const on = flag ? (/^True$|^1$/.test(flag.text) ? true : isOff(flag) ? undefined : null) : undefined;
    // A flag the file computes (autocommit=cfg.autocommit): either state.
    if (on === null) return [{ kind: 'connect', api: 'dbapi-computed', connection: ctx.resultName }];
    return [{ kind: 'connect', api: 'dbapi', connection: ctx.resultName, autocommit: on }];
  }
  if (recv === 'jaydebeapi' && call.name === 'connect') {
    return ctx.resultName ? [{ kind: 'connect', api: 'jaydebeapi', connection: ctx.resultName }] : [];
  }
  const django = classifyDjango(ctx, ev);
  if (django) return django;
  if (file.sqlalchemy) {
    const events = classifySqlalchemy(ctx, ev, file);
    if (events) return events;
  }
  switch (call.name) {
    case 'cursor':
      return ctx.resultName && recvName ? [{ kind: 'link', handle: ctx.resultName, connection: recvName }] : [];
    case 'autocommit=':
      return [{ kind: 'autocommit', api: 'dbapi', on: !isOff(a[0]), connection: recvName }];
    case 'set_autocommit':
      return a.length === 1 && recvName ? [{ kind: 'autocommit', api: 'dbapi', on: !isOff(a[0]), connection: recvName }] : [];
    case 'commit':
    case 'tpc_commit':
      return a.length === 0 && recvName ? [{ kind: 'commit', api: 'dbapi', connection: recvName }] : [];
    case 'setAutoCommit': {
      // jaydebeapi: conn.jconn.setAutoCommit(False), the JDBC connection under the DB-API one.
      const object = call.receiver?.type === 'attribute' && call.receiver.childForFieldName('attribute')?.text === 'jconn' ? call.receiver.childForFieldName('object') : undefined;
      const name = simpleName(object);
      return a.length === 1 && name ? [{ kind: 'autocommit', api: 'jaydebeapi', on: !isOff(a[0]), connection: name }] : [];
    }
    case 'tpc_begin':
      return recvName ? [{ kind: 'autocommit', api: 'dbapi', on: false, connection: recvName }] : [];
    case 'execute':
    case 'executemany': {
      if (a.length === 0 || !recvName) return [];
      const text = ev.evaluate(a[0]);
      // execute() is a common name: only SQL text, or a receiver that is a cursor, counts.
      if (text && !looksLikeSql(PLAIN(text))) return [];
      if (!text && !/cur|cursor/i.test(recvName)) return [];
      const many = call.name === 'executemany';
      const perRow = many ? odbcExecutemanyPerRow(file.imports, ev.source, call.receiver) : undefined;
      return [{
        kind: 'execute',
        api: 'dbapi',
        action: many ? 'executeMany' : a.length > 1 ? 'executePrepared' : 'executeDirect',
        sql: text ?? a[0],
        handle: recvName,
        batched: many && !perRow,
        pyformatMarkers: a.length > 1,
        ...(perRow ? { manyPerRow: perRow, ownLoop: { span: { start: call.node.startIndex, end: call.node.endIndex }, kind: 'executemany()', line: call.node.startPosition.row + 1 } } : {}),
        ...(perRow === 'pyodbc' ? fastExecutemanyFix(call.node, call.receiver, ev.source) : {}),
      }];
    }
    default:
      return [];
  }
}

/**
 * The ODBC driver module whose `executemany` on `cursor` runs one execute per parameter set, when the file's DB-API
 * cursors are its: pyodbc, unless that cursor has `fast_executemany = True` (pyodbc 4.0.19+ then binds the rows as a
 * parameter array: pyodbc pull request #256, "defaults to off (using the existing execute()-in-a-loop)"), and pypyodbc,
 * which has no such option. Only in a file that imports no other DB-API driver (whose cursor it might be). Which
 * cursor has it is read only where the code shows it (fastCursorsOf): else a file that sets it anywhere is taken to.
 */
function odbcExecutemanyPerRow(imports: PythonImports, source: string, cursor: Node | null | undefined): 'pyodbc' | 'pypyodbc' | undefined {
  // (Once per file: the fast_executemany search reads the whole text.)
  if (perRowAsked?.source !== source) perRowAsked = { source, driver: odbcDriverPerRow(imports), fastAnywhere: FAST_EXECUTEMANY.test(source) };
  const { driver, fastAnywhere } = perRowAsked;
  if (driver !== 'pyodbc' || !fastAnywhere) return driver;
  const cursorScope = cursor?.type === 'identifier' ? followedCursor(cursor.text, cursor) : undefined;
  if (!cursor || cursorScope === undefined) return undefined;
  const fast = fastCursorsOf(cursor.tree);
  return fast !== undefined && !fast.has(`${cursorScope.start}:${cursor.text}`) ? 'pyodbc' : undefined;
}

let perRowAsked: { source: string; driver: 'pyodbc' | 'pypyodbc' | undefined; fastAnywhere: boolean } | undefined;

/**
 * The quick fix of a pyodbc `cur.executemany(...)` run one execute per row: `cur.fast_executemany = True` on a line of
 * its own before the statement that makes the call, indented as that statement. Only for a cursor written as a name
 * or a chain of attributes (`cur`, `self.cursor`), and a statement that starts its line in a block.
 */
function fastExecutemanyFix(call: Node, receiver: Node | null | undefined, source: string): { hostFix: HostFix } | {} {
  if (!receiver || !/^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$/.test(receiver.text)) return {};
  let statement: Node = call;
  for (let parent = parentOf(statement); parent && parent.type !== 'block' && parent.type !== 'module'; parent = parentOf(statement)) statement = parent;
  const at = statement.startIndex;
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  const indent = source.slice(lineStart, at);
  if (!/^[ \t]*$/.test(indent)) return {};
  return {
    hostFix: {
      title: `Set ${receiver.text}.fast_executemany = True before executemany`,
      edits: [{ span: { start: at, end: at }, newText: `${receiver.text}.fast_executemany = True\n${indent}` }],
      // The rows then go as one parameter array: a row Db2 rejects fails the call as a whole (and the array takes
      // memory for all of them), where one execute per row had run the rows before it. Offered, never applied by Fix all.
      changesMeaning: true,
    },
  };
}

function odbcDriverPerRow(imports: PythonImports): 'pyodbc' | 'pypyodbc' | undefined {
  const odbc = imports.imports('pyodbc') ? 'pyodbc' : imports.imports('pypyodbc') ? 'pypyodbc' : undefined;
  if (!odbc || OTHER_DBAPI_DRIVERS.some((m) => imports.imports(m)) || (odbc === 'pyodbc' && imports.imports('pypyodbc'))) return undefined;
  return odbc;
}

const OTHER_DBAPI_DRIVERS = ['ibm_db_dbi', 'ibm_db', 'jaydebeapi', 'sqlalchemy', 'turbodbc'];
/** `cur.fast_executemany = True` (any receiver), or the keyword on a call that passes it on. */
const FAST_EXECUTEMANY = /\bfast_executemany\s*=\s*(?:True|1)\b/;

/**
 * The scope (python-scopes.ts) of the plain name `name` read at `at` when each of that scope's bindings of it makes a
 * cursor (`cur = conn.cursor()`, `with conn.cursor() as cur:`); else undefined (a parameter, a helper's cursor, ...).
 */
function followedCursor(name: string, at: Node): PythonScope | undefined {
  const scope = bindingScope(name, at);
  const bindings = scope?.bindings.get(name);
  if (!scope || !bindings) return undefined;
  for (const by of bindings) {
    const value = by.type === 'assignment' && by.childForFieldName('left')?.type === 'identifier' ? by.childForFieldName('right') : by.type === 'as_pattern' ? by.namedChild(0) : undefined;
    const fn = value?.type === 'call' ? value.childForFieldName('function') : undefined;
    if (fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'cursor') return undefined;
  }
  return scope;
}

const fastCursors = new WeakMap<Node['tree'], ReadonlySet<string> | null>();

/**
 * The cursors the file sets `fast_executemany = True` on, as `scopeStart:name`, each a followed cursor (followedCursor);
 * undefined when the file sets it where that cannot be told (on a parameter, an attribute such as self.cur, to a value
 * it computes, as a keyword of a call, or only in text the grammar does not read as an assignment).
 */
function fastCursorsOf(tree: Node['tree']): ReadonlySet<string> | undefined {
  const known = fastCursors.get(tree);
  if (known !== undefined) return known ?? undefined;
  const found = new Set<string>();
  let followed = true;
  for (const node of tree.rootNode.descendantsOfType(['assignment', 'keyword_argument'])) {
    if (!node || !followed) continue;
    if (node.type === 'keyword_argument') {
      if (node.childForFieldName('name')?.text === 'fast_executemany' && !/^(?:False|0)$/.test(node.childForFieldName('value')?.text ?? '')) followed = false;
      continue;
    }
    const left = node.childForFieldName('left');
    if (left?.type !== 'attribute' || left.childForFieldName('attribute')?.text !== 'fast_executemany') continue;
    const value = node.childForFieldName('right')?.text ?? '';
    if (/^(?:False|0)$/.test(value)) continue;
    const object = left.childForFieldName('object');
    const scope = /^(?:True|1)$/.test(value) && object?.type === 'identifier' ? followedCursor(object.text, object) : undefined;
    if (scope) found.add(`${scope.start}:${object!.text}`);
    else followed = false;
  }
  const answer = followed && found.size > 0 ? found : undefined;
  fastCursors.set(tree, answer ?? null);
  return answer;
}

/** CPython's limit on indentation levels (MAXINDENT): deeper, it stops with "too many levels of indentation". */
const MAX_INDENT_LEVELS = 100;
const TOO_DEEP = `it nests blocks ${MAX_INDENT_LEVELS} or more levels deep, which Python refuses ("too many levels of indentation") and its grammar cannot read`;

/**
 * Whether some line is indented MAX_INDENT_LEVELS levels deep, counted as Python's tokenizer counts them (a level
 * per indentation deeper than the one before it; tabs to the next multiple of 8). Such a file is not read:
 * tree-sitter-python's scanner keeps only about 500 levels between tokens, and a file nested 600 deep left its
 * parser damaged: the next Python files read as errors or failed ("memory access out of bounds") until the
 * process ended. Each level takes at least one character of indentation, so files without a line indented
 * by 100 characters are passed at the cost of one search.
 */
export function nestsTooDeep(text: string): boolean {
  if (!DEEP_LINE.test(text)) return false;
  const stack = [0];
  let at = 0;
  while (at < text.length) {
    let column = 0;
    let i = at;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) column++;
      else if (c === 9) column = (column + 8) & ~7;
      else if (c === 12) column = 0;
      else break;
    }
    const end = text.indexOf('\n', i);
    const next = end < 0 ? text.length : end + 1;
    const c = text.charCodeAt(i);
    // Blank lines and comment lines do not count.
    if (i < text.length && c !== 10 && c !== 13 && c !== 35) {
      if (column > stack[stack.length - 1]) {
        stack.push(column);
        if (stack.length > MAX_INDENT_LEVELS) return true;
      } else while (column < stack[stack.length - 1]) stack.pop();
    }
    at = next;
  }
  return false;
}

const DEEP_LINE = new RegExp(`^[ \\t\\f]{${MAX_INDENT_LEVELS},}[^\\s#]`, 'm');

