// Autocommit of the connection an execution runs on, as far as the file shows it: a switch the code makes
// (setAutoCommit, ibm_db.autocommit, SQLSetConnectAttr, UPDATE COMMAND OPTIONS, beginTransaction …), else
// the driver's default for a connection this file opens itself, else unknown. A connection passed in as a
// parameter, kept in a field or made by a factory the analysis does not know may be in either state.
import type { Node } from 'web-tree-sitter';
import type { Span } from '../sql/ast';
import type { ConnectionInfo } from './types';
import { assignmentsNamed, scopesNaming, within, type LanguageAdapter, type Scope } from './adapter';
import { parentOf } from './parents';

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
  connects: { connection: string; api: string; scope: Scope }[];
  /** Connections the code commits (JDBC refuses commit() in autocommit mode). */
  commits: { name: string; scope: Scope }[];
  /** Fields declared with the driver's connection type (LanguageAdapter.driverConnectionFields). */
  driverFields?: Map<string, { api: string; described: string }>;
}

export function connectionState(facts: ConnectionFacts, adapter: LanguageAdapter, name: string | undefined, at: number, scope: Scope, api: string): ConnectionInfo {
  const relevant = facts.switches.filter((e) => !name || !e.connection || e.connection === name);
  // Latest switch before the call in the same function or an enclosing one; else one elsewhere in the
  // file (a constructor or an init method switched it), unless the connection is a local of this function.
  const before = relevant.filter((e) => e.at < at && within(scope, e.scope));
  const local = name !== undefined && declaredIn(scope, name);
  // A switch elsewhere counts when it is on a field or a global (this.conn), not on that function's own local.
  const chosen = before.length > 0 ? before[before.length - 1] : local ? undefined : relevant.find((e) => !within(scope, e.scope) && !(e.connection && declaredIn(e.scope, e.connection)));
  if (chosen) return { name, autocommit: chosen.on ? 'on' : 'off', autocommitSpan: chosen.span };
  const fixed = adapter.fixedAutocommit?.(api);
  if (fixed) return { name, autocommit: fixed };
  // The connect must be in scope where the call is (same function or an enclosing one) and its name not
  // shadowed by a parameter on the way: load(conn) does not use the conn that refresh() opened.
  const connect = name === undefined ? undefined : facts.connects.find((c) => c.connection === name && within(scope, c.scope) && !shadowed(scope, c.scope, name));
  if (!connect) {
    // A field declared with the driver's connection type (nestjsdb2's `connection?: Connection` from 'ibm_db'),
    // which no code of this file switches: the driver's default, as for a connection the file opens.
    const field = name !== undefined && !local ? facts.driverFields?.get(name) : undefined;
    const state = field ? adapter.defaultAutocommit(field.api) : 'unknown';
    return field && state !== 'unknown' ? { name, autocommit: state, declaredAs: field.described } : { name, autocommit: 'unknown' };
  }
  let state = adapter.defaultAutocommit(connect.api);
  // JDBC refuses commit() in autocommit mode: code that commits has switched it off somewhere.
  if (state === 'on' && connect.api === 'jdbc' && facts.commits.some((c) => c.name === name && (within(scope, c.scope) || !local))) state = 'unknown';
  return { name, autocommit: state };
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
