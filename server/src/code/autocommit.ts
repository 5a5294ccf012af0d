// Autocommit of the connection an execution runs on, as far as the file shows it: a switch the code makes
// (setAutoCommit, ibm_db.autocommit, SQLSetConnectAttr, UPDATE COMMAND OPTIONS, beginTransaction …), else
// the driver's default for a connection this file opens itself, else unknown. A connection passed in as a
// parameter, kept in a field or made by a factory the analysis does not know may be in either state.
import type { Node } from 'web-tree-sitter';
import type { Span } from '../sql/ast';
import type { ConnectionInfo } from '../code-model/types';
import { assignmentsNamed, scopesNaming, within, type LanguageAdapter, type Scope } from './adapter';
import { parentOf } from './parents';
import { CallsByScope } from './calls-by-scope';

export interface AutocommitSwitch {
  connection?: string;
  at: number;
  on: boolean;
  span: Span;
  scope: Scope;
}

export interface ConnectionFacts {
  switches: AutocommitSwitch[];
  /** Connections this file opens with a driver's connect call, and where. */
  connects: { connection: string; api: string; scope: Scope; pooled?: boolean }[];
  /** Connections the code commits (JDBC refuses commit() in autocommit mode). */
  commits: { name: string; scope: Scope }[];
  /** Fields declared with the driver's connection type (LanguageAdapter.driverConnectionFields). */
  driverFields?: Map<string, { api: string; described: string }>;
}

export function connectionState(facts: ConnectionFacts, adapter: LanguageAdapter, name: string | undefined, at: number, scope: Scope, api: string): ConnectionInfo {
  const index = switchIndex(facts.switches);
  // Latest switch before the call in the same function or an enclosing one (of this connection, or of none named);
  // else one elsewhere in the file (a constructor or an init method switched it), unless the connection is a local
  // of this function.
  const latest = (calls: CallsByScope<AutocommitSwitch> | undefined) => calls?.latest(at - 1, scope).latest;
  const named = name === undefined ? undefined : latest(index.byName.get(name));
  const unnamed = name === undefined ? latest(index.all) : latest(index.unnamed);
  const before = named && unnamed ? (named.at > unnamed.at ? named : unnamed) : (named ?? unnamed);
  const local = name !== undefined && declaredIn(scope, name);
  const chosen = before ?? (local ? undefined : index.elsewhere(name).find((e) => !within(scope, e.scope)));
  if (chosen) return { name, autocommit: chosen.on ? 'on' : 'off', autocommitSpan: chosen.span };
  const fixed = adapter.fixedAutocommit?.(api);
  if (fixed) return { name, autocommit: fixed };
  // The connect must be in scope where the call is (same function or an enclosing one) and its name not
  // shadowed by a parameter on the way: load(conn) does not use the conn that refresh() opened.
  const candidates = name === undefined ? [] : enclosing(facts.connects, (c) => c.connection, name, scope).filter((c) => !shadowed(scope, c.scope, name));
  const connect = candidates[0];
  // The same connection opened by drivers that disagree (ibmdbpy's self._con: pypyodbc.connect, autocommit off,
  // or jaydebeapi.connect, on): either state.
  if (candidates.some((c) => adapter.defaultAutocommit(c.api) !== adapter.defaultAutocommit(connect.api))) return { name, autocommit: 'unknown' };
  if (!connect) {
    // A field declared with the driver's connection type (nestjsdb2's `connection?: Connection` from 'ibm_db'),
    // which no code of this file switches: the driver's default, as for a connection the file opens.
    const field = name !== undefined && !local ? facts.driverFields?.get(name) : undefined;
    const state = field ? adapter.defaultAutocommit(field.api) : 'unknown';
    return field && state !== 'unknown' ? { name, autocommit: state, declaredAs: field.described } : { name, autocommit: 'unknown' };
  }
  let state = adapter.defaultAutocommit(connect.api);
  // JDBC refuses commit() in autocommit mode: code that commits has switched it off somewhere (jaydebeapi too,
  // whose commit() is the JDBC connection's).
  if (state === 'on' && (connect.api === 'jdbc' || connect.api === 'jaydebeapi') && (local ? enclosing(facts.commits, (c) => c.name, name!, scope).length > 0 : namedIn(facts.commits, (c) => c.name, name!).length > 0)) state = 'unknown';
  const pooled = state === 'on' && candidates.every((c) => c.pooled) ? { pooled: true } : {};
  return connect.api === api || state === 'unknown' ? { name, autocommit: state, ...pooled } : { name, autocommit: state, driver: connect.api, ...pooled };
}

/**
 * Items of a file (connects, commits) by the name they concern, and by name and scope, made once per list: each
 * execute filtered every connect of the file (8,000 functions that each open `session`: 0.9 s of 5 s).
 */
interface NamedInScopes<T> {
  count: number;
  byName: Map<string, T[]>;
  byScope: Map<Scope, Map<string, T[]>>;
  /** Each item's place in the file's list. */
  position: Map<T, number>;
}

const namedIndexes = new WeakMap<object, NamedInScopes<unknown>>();

function namedIndex<T extends { scope: Scope }>(items: T[], nameOf: (item: T) => string): NamedInScopes<T> {
  const known = namedIndexes.get(items) as NamedInScopes<T> | undefined;
  if (known && known.count === items.length) return known;
  const index: NamedInScopes<T> = { count: items.length, byName: new Map(), byScope: new Map(), position: new Map() };
  for (const item of items) {
    index.position.set(item, index.position.size);
    const name = nameOf(item);
    const list = index.byName.get(name);
    if (list) list.push(item);
    else index.byName.set(name, [item]);
    let inScope = index.byScope.get(item.scope);
    if (!inScope) index.byScope.set(item.scope, (inScope = new Map()));
    const here = inScope.get(name);
    if (here) here.push(item);
    else inScope.set(name, [item]);
  }
  namedIndexes.set(items, index as NamedInScopes<unknown>);
  return index;
}

/** The items named `name`, in the file's order. */
function namedIn<T extends { scope: Scope }>(items: T[], nameOf: (item: T) => string, name: string): T[] {
  return namedIndex(items, nameOf).byName.get(name) ?? [];
}

/**
 * The items named `name` made in `scope` or a scope around it, in the file's order: through the fewer of the items
 * so named and the scopes around it (as scopesNaming does: neither many same-named items nor deep nesting is quadratic).
 */
function enclosing<T extends { scope: Scope }>(items: T[], nameOf: (item: T) => string, name: string, scope: Scope): T[] {
  const index = namedIndex(items, nameOf);
  const named = index.byName.get(name);
  if (!named) return [];
  if (named.length <= scope.depth + 1) return named.filter((item) => within(scope, item.scope));
  const found: T[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    const here = index.byScope.get(s)?.get(name);
    if (here) found.push(...here.filter((item) => within(scope, item.scope)));
  }
  return found.length < 2 ? found : found.sort((a, b) => index.position.get(a)! - index.position.get(b)!);
}

/**
 * A file's autocommit switches by connection and scope, made once when connections are resolved (model.ts resolve,
 * after the walk): each execute looked at every switch of the file (16,000 C functions that each switch `hdbc` and
 * execute: 16 s).
 */
interface SwitchIndex {
  count: number;
  all: CallsByScope<AutocommitSwitch>;
  /** Switches that name no connection (the CLP's UPDATE COMMAND OPTIONS): they apply to every connection. */
  unnamed: CallsByScope<AutocommitSwitch>;
  byName: Map<string, CallsByScope<AutocommitSwitch>>;
  /**
   * The switches that count for `name` from another function, in document order: on a field or a global (this.conn),
   * not on a local of their own function.
   */
  elsewhere(name: string | undefined): AutocommitSwitch[];
}

const switchIndexes = new WeakMap<AutocommitSwitch[], SwitchIndex>();

function switchIndex(switches: AutocommitSwitch[]): SwitchIndex {
  const known = switchIndexes.get(switches);
  if (known && known.count === switches.length) return known;
  const all = new CallsByScope<AutocommitSwitch>();
  const unnamed = new CallsByScope<AutocommitSwitch>();
  const byName = new Map<string, CallsByScope<AutocommitSwitch>>();
  for (const e of switches) {
    all.add(e.scope, e);
    if (!e.connection) unnamed.add(e.scope, e);
    else {
      let calls = byName.get(e.connection);
      if (!calls) byName.set(e.connection, (calls = new CallsByScope()));
      calls.add(e.scope, e);
    }
  }
  // Asked only when no switch precedes a call in its own scope chain: worked out then, once.
  let notLocal: AutocommitSwitch[] | undefined;
  const elsewhere = new Map<string | undefined, AutocommitSwitch[]>();
  const index: SwitchIndex = {
    count: switches.length,
    all,
    unnamed,
    byName,
    elsewhere(name) {
      let list = elsewhere.get(name);
      if (!list) {
        notLocal ??= switches.filter((e) => !(e.connection && declaredIn(e.scope, e.connection)));
        elsewhere.set(name, (list = name === undefined ? notLocal : notLocal.filter((e) => !e.connection || e.connection === name)));
      }
      return list;
    },
  };
  switchIndexes.set(switches, index);
  return index;
}

/** True when a function between `scope` and `outer` (outer excluded) has a parameter called `name`. */
function shadowed(scope: Scope, outer: Scope, name: string): boolean {
  return scopesNaming(scope, name).some((x) => x !== outer && !within(outer, x) && !!x.params?.includes(name));
}

/** True when `name` is a local of the function that `scope` belongs to (lambdas included): assigned, not as a field. */
function declaredIn(scope: Scope, name: string): boolean {
  // The file's own scope (depth 0) holds no locals.
  return scopesNaming(scope, name).some((x) => x.depth > 0 && (!!x.params?.includes(name) || assignmentsNamed(x, name).some((a) => !a.append && !isFieldAssignment(a.value))));
}

/** this.conn = …, self.conn = …, s->conn = …: the value of an assignment to a member. */
function isFieldAssignment(value: Node): boolean {
  const left = parentOf(value)?.childForFieldName('left');
  return !!left && left.id !== value.id && /[.>]/.test(left.text);
}
