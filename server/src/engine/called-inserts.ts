// C/C++ files linked by their functions: a loop of one file calls, once per pass, a function another file defines
// that runs one single-row INSERT per call. db2_fdw: db2ExecForeignBatchInsert.c loops over the slots calling
// db2ExecForeignInsert() (db2ExecForeignInsert.c), which calls db2ExecuteInsert() (db2ExecuteInsert.c), which binds
// the row's parameters and calls SQLExecute once. The engine adds an execution at the loop's call (the caller is
// where the rows are together, and where a batch can be built), marked `callsInsert`, with no statements of its own:
// only single-row-insert reads it. Java's methods are followed by engine/cross-file.ts (through declared types).
//
// A function is found by its name: in the calling file (a static or not), else among the other files' non-static
// definitions, the nearest one (the same folder, else the parent's tree, and so on up); two at the same distance
// are no answer (two programs of one folder each with their own helper). Linear in the files and the calls: each
// function's answer is worked out once per index.
//
// A statement prepared in another file is found through its handle: db2ExecuteInsert() runs SQLExecute on
// `session->stmtp->hsql`, which db2PrepareQuery() (db2PrepareQuery.c) hands to SQLPrepare with a text not known
// there. The same path of fields, prepared with a text that is not known or is an INSERT, in the nearest file (as
// for functions; two at the same distance are no answer), is named as where the statement is prepared. A plain
// handle name (`hstmt`, a parameter in both) links nothing.
import type { FileModel } from './types';
import type { LoopInfo, PreparedSite, SqlExecution } from '../code-model/types';
import type { InsertStatement } from '../sql/ast';
import { runsRows, singleRowInsertOf } from '../code-model/facts';
import { LineIndex } from './lines';

/** The functions the C/C++ files of a run define, by name and by every folder above them. */
export interface FunctionIndex {
  readonly byName: ReadonlyMap<string, ReadonlyMap<string, readonly FileModel[]>>;
  /** Answers of `reachOf`, per file and function (filled as asked). */
  readonly reached: Map<FileModel, Map<string, Reach | null | typeof PENDING>>;
  /** The prepares of a text not known or of an INSERT, by handle path (`session->stmtp->hsql`) and by every folder above them. */
  readonly prepares: ReadonlyMap<string, ReadonlyMap<string, readonly { model: FileModel; execution: SqlExecution }[]>>;
}

/** How a function reaches a single-row INSERT: the functions from it down to the one that runs it. */
export interface Reach {
  model: FileModel;
  execution: SqlExecution;
  insert?: InsertStatement;
  /** The INSERT text is not known: the function that runs it is named for an insert. */
  byName: boolean;
  path: string[];
  /** The path leaves the file it starts in. */
  crossed: boolean;
}

const PENDING = 0;

/** At most this many functions from the call in the loop down to the execution (db2_fdw: 2). */
const MAX_PATH = 4;

/** A function named for an insert (db2ExecuteInsert, insert_row): its execution of a text not known here is an INSERT. */
const INSERT_NAMED = /insert/i;

/** The exported functions of all files, or undefined when no file has any (most workspaces). */
export function functionIndex(models: Iterable<FileModel>): FunctionIndex | undefined {
  let byName: Map<string, Map<string, FileModel[]>> | undefined;
  const prepares = new Map<string, Map<string, { model: FileModel; execution: SqlExecution }[]>>();
  for (const model of models) {
    const functions = model.code?.functions;
    if (!functions) continue;
    for (const execution of model.code!.executions) {
      const handle = execution.handle;
      if (execution.action !== 'prepare' || !handle || !FIELD_PATH.test(handle)) continue;
      if (execution.statements.length > 0 && !execution.statements.some((st) => st.kind === 'insert')) continue;
      let folders = prepares.get(handle);
      if (!folders) prepares.set(handle, (folders = new Map()));
      for (let folder = parentFolder(model.source.path); folder !== undefined; folder = parentFolder(folder)) {
        const list = folders.get(folder);
        if (list) list.push({ model, execution });
        else folders.set(folder, [{ model, execution }]);
      }
    }
    const seen = new Set<string>();
    for (const { name, exported } of functions) {
      if (!exported || seen.has(name)) continue;
      seen.add(name);
      byName ??= new Map();
      let folders = byName.get(name);
      if (!folders) byName.set(name, (folders = new Map()));
      for (let folder = parentFolder(model.source.path); folder !== undefined; folder = parentFolder(folder)) {
        const list = folders.get(folder);
        if (list) list.push(model);
        else folders.set(folder, [model]);
      }
    }
  }
  return byName ? { byName, reached: new Map(), prepares } : undefined;
}

/** A handle reached through fields (`session->stmtp->hsql`, `conn.stmt`): one name alone is every file's parameter. */
const FIELD_PATH = /->|\./;

/**
 * Where the statement an execute of `model` runs is prepared: its own file's SQLPrepare of the handle (the front
 * end's link), else the one prepare of the same handle path in the nearest other file; undefined when not known.
 */
function preparedSite(index: FunctionIndex, model: FileModel, e: SqlExecution): PreparedSite | undefined {
  const at = e.preparedAt;
  if (at) {
    const own = model.code?.executions.find((x) => x.action === 'prepare' && x.callSpan.start === at.start);
    return own ? siteOf(model, own) : undefined;
  }
  if (e.action !== 'executePrepared' || !e.handle || !FIELD_PATH.test(e.handle)) return undefined;
  const folders = index.prepares.get(e.handle);
  if (!folders) return undefined;
  for (let folder = parentFolder(model.source.path); folder !== undefined; folder = parentFolder(folder)) {
    const found = folders.get(folder);
    if (found) return found.length === 1 ? siteOf(found[0].model, found[0].execution) : undefined;
  }
  return undefined;
}

function siteOf(model: FileModel, prepare: SqlExecution): PreparedSite {
  const site: PreparedSite = { file: baseName(model.source.path), line: lineOf(model, prepare.callSpan.start), runs: runsName(model.source.text, prepare) };
  if (prepare.inFunction?.name) site.fn = prepare.inFunction.name;
  if (prepare.handle) site.handle = prepare.handle;
  return site;
}

/** The file whose function `name` a call in `from` runs: its own, else the nearest other file's; undefined if none or two. */
function definitionOf(index: FunctionIndex, from: FileModel, name: string): FileModel | undefined {
  if (definesFunction(from, name)) return from;
  const folders = index.byName.get(name);
  if (!folders) return undefined;
  for (let folder = parentFolder(from.source.path); folder !== undefined; folder = parentFolder(folder)) {
    const found = folders.get(folder);
    if (!found) continue;
    // Three or more: two others at least, whichever `from` is (no walk over a long list for every call).
    if (found.length > 2) return undefined;
    const others = found.filter((m) => m !== from);
    return others.length === 1 ? others[0] : undefined;
  }
  return undefined;
}

const definedNames = new WeakMap<FileModel, Set<string>>();

function definesFunction(model: FileModel, name: string): boolean {
  let names = definedNames.get(model);
  if (!names) definedNames.set(model, (names = new Set((model.code?.functions ?? []).map((f) => f.name))));
  return names.has(name);
}

/** A file's executions and its calls outside loops, by the function they are in (made once per model). */
const byFunction = new WeakMap<FileModel, { executions: Map<string, SqlExecution[]>; calls: Map<string, string[]> }>();

function functionFacts(model: FileModel): { executions: Map<string, SqlExecution[]>; calls: Map<string, string[]> } {
  let facts = byFunction.get(model);
  if (facts) return facts;
  facts = { executions: new Map(), calls: new Map() };
  for (const e of model.code?.executions ?? []) {
    const name = e.inFunction?.name;
    if (!name) continue;
    const list = facts.executions.get(name);
    if (list) list.push(e);
    else facts.executions.set(name, [e]);
  }
  for (const call of model.code?.functionCalls ?? []) {
    if (call.loop || call.from === undefined || call.from === call.name) continue;
    const list = facts.calls.get(call.from);
    if (list) list.push(call.name);
    else facts.calls.set(call.from, [call.name]);
  }
  byFunction.set(model, facts);
  return facts;
}

/** The single-row INSERT a call of `name` (defined in `model`) runs once, outside loops, directly or through its calls. */
export function reachOf(index: FunctionIndex, model: FileModel, name: string): Reach | null {
  let known = index.reached.get(model);
  if (!known) index.reached.set(model, (known = new Map()));
  const answer = known.get(name);
  // (A function that calls itself, directly or around a cycle, is not followed again.)
  if (answer === PENDING) return null;
  if (answer !== undefined) return answer;
  known.set(name, PENDING);
  const found = ownInsert(model, name) ?? calledInsert(index, model, name);
  known.set(name, found);
  return found;
}

function ownInsert(model: FileModel, name: string): Reach | null {
  for (const e of functionFacts(model).executions.get(name) ?? []) {
    // In a loop of its own file, the execution is that loop's; a batch or array sends many rows per call.
    if (e.loop || e.batched || !runsRows(e) || e.callsInsert || e.script) continue;
    const insert = singleRowInsertOf(e);
    if (insert) return { model, execution: e, insert, byName: false, path: [name], crossed: false };
    const unknownText = e.statements.length === 0 && (e.action === 'executePrepared' || e.action === 'executeDirect');
    if (unknownText && INSERT_NAMED.test(name)) return { model, execution: e, byName: true, path: [name], crossed: false };
  }
  return null;
}

function calledInsert(index: FunctionIndex, model: FileModel, name: string): Reach | null {
  for (const callee of functionFacts(model).calls.get(name) ?? []) {
    const target = definitionOf(index, model, callee);
    if (!target) continue;
    const found = reachOf(index, target, callee);
    if (found && found.path.length < MAX_PATH) return { ...found, path: [name, ...found.path], crossed: found.crossed || target !== model };
  }
  return null;
}

/** The names of the exported functions that reach a single-row INSERT (a file calling one has Db2 access through it). */
export function insertFunctionNames(index: FunctionIndex | undefined): Set<string> {
  const names = new Set<string>();
  if (!index) return names;
  for (const [name, folders] of index.byName) {
    // Every definition sits under the top folder ('' or '/'): the shortest key holds them all.
    let all: readonly FileModel[] = [];
    for (const list of folders.values()) if (list.length > all.length) all = list;
    if (all.some((m) => reachOf(index, m, name) !== null)) names.add(name);
  }
  return names;
}

/**
 * `model` with an execution added at each call, in a loop, of a function that runs a single-row INSERT per call
 * through another file; `model` itself when there is none. Calls guarded by a counter, calls the front end already
 * read as executions, and functions reached without leaving the file (the front end lends those: LoopInfo.via) add none.
 */
export function withCalledInserts(model: FileModel, index: FunctionIndex | undefined): FileModel {
  const code = model.code;
  if (!index || !code?.functionCalls) return model;
  let added: SqlExecution[] | undefined;
  let executed: Set<number> | undefined;
  for (const call of code.functionCalls) {
    if (!call.loop || call.guarded) continue;
    const target = definitionOf(index, model, call.name);
    if (!target) continue;
    const found = reachOf(index, target, call.name);
    if (!found || !(found.crossed || target !== model) || found.path.length > MAX_PATH) continue;
    executed ??= new Set(code.executions.map((e) => e.callSpan.start));
    if (executed.has(call.span.start)) continue;
    const e = found.execution;
    const loop: LoopInfo = { ...call.loop, via: viaText(found.path) };
    const at = { file: baseName(found.model.source.path), line: lineOf(found.model, e.callSpan.start), runs: runsName(found.model.source.text, e) };
    const prepared = found.byName ? preparedSite(index, found.model, e) : undefined;
    (added ??= []).push({
      callSpan: call.span,
      api: e.api,
      action: e.action,
      statements: [],
      textKind: 'unknown',
      splicedValues: [],
      loop,
      batched: false,
      callsInsert: { ...at, ...(found.insert ? { insert: found.insert } : {}), ...(found.byName ? { byName: true } : {}), ...(prepared ? { prepared } : {}) },
    });
  }
  if (!added) return model;
  const executions = [...code.executions, ...added].sort((a, b) => a.callSpan.start - b.callSpan.start);
  return { ...model, code: { ...code, executions } };
}

/** "db2ExecForeignInsert" for the function called in the loop; "f(), then g()" when it reaches the INSERT through g. */
function viaText(path: readonly string[]): string {
  return path.length === 1 ? path[0] : path.map((name) => `${name}()`).join(', then ');
}

/** The name of an execute call as written (SQLExecute, SQLExecDirect), or EXEC SQL for embedded SQL. */
function runsName(text: string, e: SqlExecution): string {
  if (e.api === 'esql') return 'EXEC SQL';
  const m = /^[\w$.:>-]{0,200}?(\w+)\s*\(/.exec(text.slice(e.callSpan.start, Math.min(e.callSpan.end, e.callSpan.start + 300)));
  return m ? m[1] : 'the execute call';
}

/** The 1-based line of `offset` in a file (its line index made once per model: many loops may reach one execute). */
function lineOf(model: FileModel, offset: number): number {
  let lines = lineIndexes.get(model);
  if (!lines) lineIndexes.set(model, (lines = new LineIndex(model.source.text)));
  return lines.line(offset) + 1;
}

const lineIndexes = new WeakMap<FileModel, LineIndex>();

function baseName(path: string): string {
  return path.replace(/^.*[\\/]/, '');
}

/** The folder holding `path` ("src/db" for "src/db/a.c", "" for "a.c"), undefined above the top. */
function parentFolder(path: string): string | undefined {
  if (path === '') return undefined;
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? '' : path.slice(0, cut);
}

const CALLED_NAME = /\b([A-Za-z_]\w{0,100})\s*\(/g;
const calledNames = new WeakMap<FileModel, Set<string>>();

/** The names a file's text calls (`name(`), for a file the front end left out: made once per model. */
export function namesCalledIn(model: FileModel): Set<string> {
  let names = calledNames.get(model);
  if (names) return names;
  names = new Set();
  const text = model.source.text;
  CALLED_NAME.lastIndex = 0;
  for (let m = CALLED_NAME.exec(text); m; m = CALLED_NAME.exec(text)) names.add(m[1]);
  calledNames.set(model, names);
  return names;
}
