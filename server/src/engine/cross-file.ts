// Loops of one file that call a method another file's class defines: a populate loop calling ts.createQuote(…),
// where TradeDirect.createQuote prepares, inserts one row and commits (DayTrader). The engine lends such a loop to
// the method's executions and commits, as the code front end does for a helper of the same file (LoopInfo.via).
// The call's receiver must be declared with a type the other file's class is (its name, or what it extends or
// implements): a method name alone (add, insert, save) is shared by too many classes.
//
// Python the same way, by module: a loop calling save_row(r) after `from app.dao import save_row` (or dao.save_row(r)
// after `import app.dao as dao`, `from . import dao`: CodeModel.moduleCalls, resolved by the caller's imports) is
// lent to the module-level save_row of a file whose path ends with that module (app/dao.py, app/dao/__init__.py).
// Such a call is indexed as a call of save_row on the type `py:app.dao`, and a Python file is every type
// `py:<the dotted tail of its path>` (modulesOf): no walk over the files per call.
import type { FileModel } from './types';
import type { CommitCall, LoopInfo, SqlExecution } from '../code-model/types';
import type { Span } from '../sql/ast';

/** A loop call of another file: the declared type of its receiver (or `py:<module>`), the caller's file, in index order. */
type LoopCall = { file: string; type: string; loop: LoopInfo; guarded: boolean; seq: number };

/**
 * Method name → the receiver's type → the loops that call it, with the caller's file: a file looks up each of its
 * types (a few classes, or the tails of a Python module's path), not every caller of a common name (save_row).
 */
export type CallerIndex = ReadonlyMap<string, ReadonlyMap<string, readonly LoopCall[]>>;

/** The loop calls of all files, by method name and type; undefined when no file has any (most workspaces). */
export function callerIndex(models: Iterable<FileModel>): CallerIndex | undefined {
  let byName: Map<string, Map<string, LoopCall[]>> | undefined;
  let seq = 0;
  // (One object per call: an index of every loop call of a large workspace is mostly these.)
  const add = (name: string, file: string, type: string, loop: LoopInfo, guarded: boolean) => {
    byName ??= new Map();
    let byType = byName.get(name);
    if (!byType) byName.set(name, (byType = new Map()));
    const list = byType.get(type);
    const call: LoopCall = { file, type, loop, guarded, seq: seq++ };
    if (list) list.push(call);
    else byType.set(type, [call]);
  };
  for (const model of models) {
    const file = model.source.path;
    for (const call of model.code?.loopCalls ?? []) add(call.name, file, call.type, call.loop, call.guarded);
    for (const { callee, loop, guarded } of model.code?.moduleCalls ?? []) {
      const dot = callee.lastIndexOf('.');
      add(callee.slice(dot + 1), file, MODULE + callee.slice(0, dot), loop, guarded);
    }
  }
  return byName;
}

/** The calls of `name` on one of `types`, in index order (the callers' files in the workspace's order). */
function callsOf(index: CallerIndex, name: string, types: readonly string[]): readonly LoopCall[] {
  const byType = index.get(name);
  if (!byType) return [];
  // Each type's list is in index order already (calls are added in seq order): merged, not sorted again (a module
  // called from every file's loops made this the run's one n log n step).
  let merged: readonly LoopCall[] = [];
  for (const type of types) {
    const list = byType.get(type);
    if (list) merged = merged.length === 0 ? list : mergeBySeq(merged, list);
  }
  return merged;
}

function mergeBySeq(a: readonly LoopCall[], b: readonly LoopCall[]): LoopCall[] {
  const out: LoopCall[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i].seq < b[j].seq ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/** The prefix of a Python module as a type (`py:app.dao`): no Java type has a colon. */
const MODULE = 'py:';

/**
 * The modules a Python file may be imported as: the dotted tails of its path, back to the first folder that is no
 * Python name (`dao`, `app.dao`, `src.app.dao` for src/app/dao.py; a package's __init__.py is its folder).
 */
export function modulesOf(path: string): string[] {
  const parts = path.replace(/\.pyw?$/, '').split(/[\\/]/);
  if (parts[parts.length - 1] === '__init__') parts.pop();
  const modules: string[] = [];
  let name = '';
  for (let i = parts.length - 1; i >= 0 && PY_NAME.test(parts[i]); i--) {
    name = name ? `${parts[i]}.${name}` : parts[i];
    modules.push(MODULE + name);
  }
  return modules;
}

const PY_NAME = /^[A-Za-z_]\w*$/;

/**
 * `model` with the loops of other files lent to the executions and commits of its methods those loops call
 * (on a receiver of a type its classes are); `model` itself when there are none. Its own loops come first.
 */
export function withCallersLoops(model: FileModel, index: CallerIndex | undefined): FileModel {
  const code = model.code;
  if (!index || !(code?.types || code?.moduleFunctions)) return model;
  const types = [...new Set(code.types ?? modulesOf(model.source.path))];
  // Python: lent to module-level functions only (a method or a nested function of the same name is not what the
  // import names). Java: any method of the file's classes.
  const moduleLevel = code.moduleFunctions ? new Set(code.moduleFunctions.map((f) => f.span.start)) : undefined;
  const lendable = (fn: { span: Span } | undefined) => !moduleLevel || (fn !== undefined && moduleLevel.has(fn.span.start));
  const path = model.source.path;
  const isLent = (c: { file: string }) => c.file !== path;
  // The methods of this file that call each method (outside loops): a loop lent to buy() reaches createOrder().
  const callers = new Map<string, string[]>();
  const callSpans = new Map<string, { span: Span; conditions: number }>();
  for (const { caller, callee, span, conditions } of code.innerCalls ?? []) {
    const list = callers.get(callee);
    if (list) list.push(caller);
    else callers.set(callee, [caller]);
    callSpans.set(`${caller}\u0000${callee}`, { span, conditions });
  }
  // Every loop of other files that reaches a method (a commit helper is called by createQuote(), register() and
  // buy(), each from its own populate loop), each by its nearest path: a commit in it commits per pass of each.
  const reaching = new Map<string, { loop: LoopInfo; guarded: boolean; path: string[] }[]>();
  // `firstOnly`: stop at the first loop found (not kept: a later call wanting them all walks again).
  const walkReaching = (name: string, firstOnly: boolean) => {
    const found: { loop: LoopInfo; guarded: boolean; path: string[] }[] = [];
    const loops = new Set<string>();
    let level: { name: string; path: string[] }[] = [{ name, path: [name] }];
    const seen = new Set([name]);
    for (let depth = 0; depth <= MAX_INNER_DEPTH && level.length > 0; depth++) {
      const next: typeof level = [];
      for (const at of level) {
        for (const call of callsOf(index, at.name, types)) {
          const key = `${call.file}\u0000${call.loop.span.start}\u0000${call.loop.span.end}`;
          if (!isLent(call) || loops.has(key)) continue;
          loops.add(key);
          found.push({ loop: { ...call.loop, via: viaText(at.path), file: baseName(call.file) }, guarded: call.guarded, path: at.path });
          if (firstOnly) return found;
        }
        for (const up of callers.get(at.name) ?? []) {
          if (seen.has(up)) continue;
          seen.add(up);
          next.push({ name: up, path: [up, ...at.path] });
        }
      }
      level = next;
    }
    return found;
  };
  const loopsReaching = (name: string) => {
    let found = reaching.get(name);
    if (!found) reaching.set(name, (found = walkReaching(name, false)));
    return found;
  };
  // The nearest of them (the first found, breadth first): the loop an execution of the method runs in. Found alone
  // when no commit needs them all (a function called from every file's loops: one is enough here).
  const callerOf = (name: string): { loop: LoopInfo; guarded: boolean } | null => (reaching.get(name) ?? walkReaching(name, true))[0] ?? null;
  const functions: { span: { start: number; end: number }; loop: LoopInfo; guarded: boolean }[] = [];
  let executions: SqlExecution[] | undefined;
  code.executions.forEach((e, i) => {
    const name = e.inFunction?.name;
    const caller = !e.loop && name && lendable(e.inFunction) ? callerOf(name) : null;
    if (!caller) return;
    executions ??= [...code.executions];
    executions[i] = { ...e, loop: caller.loop, ...(caller.guarded ? { guarded: true } : {}) };
    functions.push({ span: e.inFunction!.span, ...caller });
  });
  if (!executions) return model;
  // Its commits, in those methods (conn.commit() after each row the loop inserts), or in a method they call
  // (DayTrader's commit(conn) helper, which createQuote(), register() and buy() call after their INSERTs): lent
  // every loop that reaches it, each placed on the call of the helper in the method that loop reaches it through
  // (one commit line in the helper would hold a finding per loop).
  const commits = code.commits.flatMap((c): CommitCall[] => {
    if (c.loop) return [c];
    const fn = functions.find((f) => f.span.start <= c.callSpan.start && c.callSpan.end <= f.span.end);
    if (fn) return [{ ...c, loop: fn.loop, guarded: c.guarded || fn.guarded }];
    const reached = c.inFunction?.name && lendable(c.inFunction) ? loopsReaching(c.inFunction.name) : [];
    if (reached.length === 0) return [c];
    return reached.map(({ loop, guarded, path }) => {
      const call = path.length > 1 ? callSpans.get(`${path[path.length - 2]}\u0000${path[path.length - 1]}`) : undefined;
      return { ...c, loop, guarded: c.guarded || guarded, ...(call ? { callSpan: call.span, conditions: call.conditions } : {}) };
    });
  });
  return { ...model, code: { ...code, executions, commits } };
}

/** How many calls within the callee's file a lent loop follows down (buy() → completeOrder() → createHolding()). */
const MAX_INNER_DEPTH = 3;

/** "createQuote" for a method called in the loop; "buy(), then createOrder()" for one it calls. */
function viaText(path: readonly string[]): string {
  return path.length === 1 ? path[0] : path.map((name) => `${name}()`).join(', then ');
}

function baseName(path: string): string {
  return path.replace(/^.*[\\/]/, '');
}
