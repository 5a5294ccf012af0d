// The contract between the language-independent walk (walk.ts, model.ts) and the per-language adapters
// (languages/*.ts): what the walk collects, what an adapter reports for a call, and small helpers that
// several adapters share.
import type { Node } from 'web-tree-sitter';
import type { Comment, SqlOrigin, Statement } from '../sql/ast';
import type { ExecutionAction, HibernateBatching, HostFix, LoopInfo, OrmEntity } from '../code-model/types';
import type { HostText } from './sqltext';
import type { GrammarName } from './wasm';

export type ParseSqlFn = (text: string, options: { origin: SqlOrigin }) => { statements: Statement[]; comments: Comment[] };

// ---- what the walk collects ------------------------------------------------------------------

export interface Assignment {
  name: string;
  /** File offset where the assignment takes effect. */
  at: number;
  value: Node;
  append: boolean;
  /** The innermost loop around the assignment (appends in a loop make a text unknowable). */
  loop?: LoopInfo;
}

export interface Scope {
  node: Node;
  /** Name of the named function or method this scope is (not set for lambdas and the file). */
  functionName?: string;
  /** Parameter names of a named function, in order. */
  params?: string[];
  parent?: Scope;
  assignments: Assignment[];
  /** Offsets of the node and nesting depth (the file is 0): `within` answers from them without a walk. */
  start: number;
  end: number;
  depth: number;
  /** The innermost named function this scope is or is in. */
  fn?: Scope;
  /** Shared by every scope of one file: name → scopes that assign it or take it as a parameter. */
  names: Map<string, Scope[]>;
  /** The names this scope assigns or takes as parameters: how many times it is listed in `names` under each. */
  named?: Map<string, number>;
}

/** A scope nested in `parent` (or the file's scope when there is none); registers its parameters' names. */
export function newScope(node: Node, parent: Scope | undefined, fields: { functionName?: string; params?: string[] } = {}): Scope {
  const scope: Scope = { node, ...fields, parent, assignments: [], start: node.startIndex, end: node.endIndex, depth: parent ? parent.depth + 1 : 0, names: parent?.names ?? new Map() };
  scope.fn = fields.functionName !== undefined ? scope : parent?.fn;
  for (const name of fields.params ?? []) noteName(scope, name);
  return scope;
}

/** Records an assignment in its scope. */
export function addAssignment(scope: Scope, assignment: Assignment): void {
  scope.assignments.push(assignment);
  noteName(scope, assignment.name);
}

function noteName(scope: Scope, name: string): void {
  const scopes = scope.names.get(name);
  if (scopes && scopes[scopes.length - 1] === scope) return;
  if (!scopes) scope.names.set(name, [scope]);
  else scopes.push(scope);
  scope.named ??= new Map();
  scope.named.set(name, (scope.named.get(name) ?? 0) + 1);
}

/** True when `scope` is `outer` or nested in it. */
export function within(scope: Scope, outer: Scope): boolean {
  return scope === outer || (outer.depth < scope.depth && outer.start <= scope.start && scope.end <= outer.end);
}

/**
 * The scopes from `scope` outwards that assign `name` or take it as a parameter, innermost first (a scope listed
 * twice in `names`, as often). Through the fewer of the scopes naming it and the parent chain: the chain alone cost
 * the nesting depth for every lookup (quadratic in 10,000 nested callbacks), the scopes naming it alone their
 * number (quadratic in 16,000 functions that each take `hdbc` and run a statement on it).
 */
export function scopesNaming(scope: Scope, name: string): Scope[] {
  const all = scope.names.get(name);
  if (!all) return [];
  if (all.length <= scope.depth + 1) return all.filter((s) => within(scope, s)).sort((a, b) => b.depth - a.depth);
  // The walk nests scopes as their nodes nest: the scopes a scope is within are its parents.
  const found: Scope[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    const times = s.named?.get(name) ?? 0;
    for (let i = 0; i < times; i++) found.push(s);
  }
  return found;
}

/** The assignments to `name` in `scope` itself, in order. */
export function assignmentsNamed(scope: Scope, name: string): Assignment[] {
  return scope.assignments.filter((a) => a.name === name);
}

export interface CallSite {
  node: Node;
  /** Method or function name (last segment). */
  name: string;
  /** Receiver expression of a method call. */
  receiver?: Node;
  /** Positional arguments. */
  args: Node[];
  /** Keyword arguments (Python) by name. */
  keywords: Map<string, Node>;
}

export interface CallContext {
  call: CallSite;
  scope: Scope;
  loop?: LoopInfo;
  /** Ifs between the innermost loop (or function) and the call. */
  conditions: number;
  /** One of those ifs is a counter check (isCountGuard: if (++n % 1000 == 0)). */
  countGuarded: boolean;
  /** Variable the call's result is assigned to, where it is. */
  resultName?: string;
  /** Callback parameters when the call passes a function (node callback style): names in order. */
  callbackParams?: string[];
}

// ---- what adapters report ------------------------------------------------------------------

export type ApiEvent =
  | {
      kind: 'execute';
      api: string;
      action: ExecutionAction;
      /** Where the SQL text comes from (expression node), or a text built by the adapter. */
      sql?: Node | HostText;
      /** The statement handle this call prepares into (prepare) or runs (executePrepared/addBatch/executeBatch). */
      handle?: string;
      /** That handle as written, blanks dropped (`session->stmtp->hsql`): SqlExecution.handle. */
      handleText?: string;
      connection?: string;
      batched?: boolean;
      /** DB-API execute(sql, params): %s / %(name)s in the text are parameter markers, not formatting. */
      pyformatMarkers?: boolean;
      /** This call runs without autocommit whatever the connection's state (`db2 +c ...`). */
      autocommitOff?: boolean;
      /** The text is a whole CLP script (here-document), not one statement. */
      script?: boolean;
      /**
       * SQLAlchemy 1.x's library-level autocommit: the library commits a DML statement it runs outside a transaction.
       * 'always': connectionless (`engine.execute(...)`, no transaction to be in); 'outsideTransaction': on a
       * connection, unless the file shows a transaction begun on it (a switch off before the call).
       */
      libraryAutocommit?: 'always' | 'outsideTransaction';
      /** No SQL text in the file: SQLAlchemy builds the INSERT (`sql` is the adapter's text of it): SqlExecution.construct. */
      construct?: 'orm' | 'core';
      /**
       * The row reaches Db2 at the session's next flush (session.add): one row per call only when the same loop flushes
       * or commits the session (`connection`) on every pass; otherwise the flush sends the loop's rows together.
       */
      atFlush?: boolean;
      /** An ORM insert sent one row per call whatever the code flushes: SqlExecution.ormPerCall. */
      ormPerCall?: 'identity' | 'transaction' | 'unbatched';
      /**
       * The library escapes the values spliced into the text before sending it (Sequelize's replacements): no open
       * injection hole, but still a new statement text per value (SqlExecution.splices[].escaped).
       */
      escapedSplices?: boolean;
      /** The ORM insert's class, where the file does not settle its table or id: SqlExecution.ormClass. */
      ormClass?: { name: string; from?: string[] };
      /** The call looks its row up first and inserts only when it finds none: SqlExecution.queriesFirst. */
      queriesFirst?: string;
      /** The project's Hibernate configuration, when found: SqlExecution.ormConfig. */
      ormConfig?: HibernateBatching;
      /**
       * The call goes over a collection itself, one statement per element (Spring Data's saveAll calls save() on each):
       * its loop when the call is in no other.
       */
      ownLoop?: LoopInfo;
      /** SqlExecution.manyPerRow: the call is its own loop (`ownLoop`), inside any other. */
      manyPerRow?: 'pyodbc' | 'pypyodbc';
      /** SqlExecution.hostFix: an edit of the host file that fixes what the call does per row. */
      hostFix?: HostFix;
      /**
       * The call sits in a helper that several loops of the file call, and this one (by its start) is the loop its
       * finding is about (a Spring Data save called from a loop in a transaction and from one outside any: the latter).
       */
      callerLoopAt?: number;
      /** A MyBatis mapper statement another file declares, by its qualified ids: SqlExecution.mapperStatement. */
      mapperStatement?: string[];
    }
  | { kind: 'commit'; api: string; connection?: string }
  /**
   * session.flush(): sends what was added, without committing (atFlush). `autoflush`: not a flush call but one that
   * flushes the session before it runs (SQLAlchemy's autoflush: a query of the session), named as the message says it
   * (`session.query(Customer)…first()`).
   */
  | {
      kind: 'flush';
      api: string;
      connection?: string;
      autoflush?: string;
      /** An autoflush that sends only the pending inserts of these entity classes (Hibernate: those the query reads); absent, all. */
      entities?: string[];
      /**
       * An autoflush by a Spring Data repository's query method: the repository's type as declared, the qualified names
       * the file makes of it (absent: the file does not say) and the method (SqlExecution.autoflushRepositoryQueries).
       */
      repositoryMethod?: { type: string; from?: string[]; method: string };
      /**
       * Of the ifs the walk counts around the call (CallContext.conditions), those that hold it in their condition, run
       * whichever way the condition goes (`if session.query(…).first() is None:`): parents.ts conditionsRunningIt.
       */
      inConditions?: number;
    }
  | { kind: 'autocommit'; api: string; on: boolean; connection?: string }
  | { kind: 'link'; handle: string; connection: string }
  | { kind: 'paramset'; handle: string; size: number }
  | { kind: 'connect'; api: string; connection: string; autocommit?: boolean; pooled?: boolean };

export interface Evaluator {
  /** The string value of an expression, or undefined when it is not a known string. */
  evaluate(node: Node): HostText | undefined;
  /** Latest value of a variable before `at` (follows simple assignments and appends). */
  variable(name: string, at: number): HostText | undefined;
  splice(node: Node): HostText;
  /**
   * The assignments a variable holds before `at`: its latest plain assignment and the appends after it, each with
   * the loop it is in (an array literal and the `push`es onto it, for `rows.join(sep)`); undefined when not known.
   */
  assignedBefore?(name: string, at: number): readonly Assignment[] | undefined;
  source: string;
}

export interface LanguageAdapter {
  grammar: GrammarName;
  /** Loop statement node types → loop kind. */
  loops: Record<string, string>;
  /** Named functions and methods: loops outside them do not apply inside. */
  functions: Set<string>;
  /** Lambdas, arrow functions, callbacks: they run where they are passed, loops around them apply. */
  lambdas: Set<string>;
  /** Node types of conditional statements; their `condition` field is the guard. */
  ifs: Set<string>;
  comments: Set<string>;
  calls: Set<string>;
  /** Node types that assign variables. */
  assignmentTypes: Set<string>;
  /** Method names whose callback runs once per element (forEach, map...). */
  loopMethods: Set<string>;
  /** The called method/function name, cheaply (most calls in a file are not database calls). */
  calleeName(node: Node): string | undefined;
  /** Whether a call of that name can matter (database API, string building, loop callbacks). */
  interestingCall(name: string): boolean;
  callSite(node: Node): CallSite | undefined;
  assignments(node: Node): { name: string; value: Node; append: boolean }[];
  /**
   * Assignments made by calls (sprintf(buf, ...), strcpy, sb.append(...), rows.push(...)). `enclosing`: the assignment
   * belongs to the scope that declares the name, not the callback it is made in (a `push` from a forEach callback onto
   * an array of the function around it).
   */
  callAssignments?(call: CallSite): { name: string; value: Node; append: boolean; enclosing?: boolean }[];
  /**
   * Statement node types that return a value from a named function (JavaScript's `return_statement`): a function that
   * returns an INSERT text it built with values spliced in is a query builder whose callers run the text (model.ts,
   * CodeModel.returnedTexts).
   */
  returns?: Set<string>;
  /**
   * The name of the class member a lambda is the value of (JavaScript's `insertQuery = (row) => ...` in a class body):
   * such a lambda is a named function, a method by that name (wrappers, returned texts, helpers called in loops).
   */
  memberName?(lambda: Node): string | undefined;
  evaluate(node: Node, ev: Evaluator): HostText | undefined;
  classify(ctx: CallContext, ev: Evaluator): ApiEvent[];
  /** Text of a comment without its delimiters. */
  commentText(raw: string): string;
  /**
   * Autocommit of a connection this file opens with the API's connect call and never switches. Connections
   * that come from elsewhere (parameters, fields, factories) are 'unknown' whatever this says.
   */
  defaultAutocommit(api: string): 'on' | 'off' | 'unknown';
  /** APIs whose autocommit does not depend on how the connection was opened (the CLP's default, static SQL). */
  fixedAutocommit?(api: string): 'on' | 'off' | undefined;
  /**
   * Fields of this file's classes declared with the driver's own connection type (TypeScript `connection?:
   * Connection`, Connection imported from 'ibm_db'), by name: the driver's connection, whose default autocommit
   * (defaultAutocommit of `api`) holds while this file never switches it. `described`: "an ibm_db Connection".
   * Reads the `declarations` nodes.
   */
  driverConnectionFields?(declarations: readonly Node[]): Map<string, { api: string; described: string }>;
  /** The API to name for a call recognised only by its use (a wrapper's query(sql)): the file's driver when known. */
  usageApi?: string;
  /**
   * The types the file's variables, fields and parameters are declared with (name → type name), and the types its
   * classes are (their names, and what they extend and implement): to match a method called in another file's loop
   * on `ts` of type TradeServices with the class here that implements it (code-model/types.ts, CodeModel.types).
   * `names`: the variables asked about (the receivers of methods called in loops); others may be left out.
   */
  declaredTypes?(declarations: readonly Node[], names: ReadonlySet<string>): { variables: Map<string, string>; classes: string[] };
  /**
   * Free functions link files (C/C++): the walk records the functions the file defines (static or not) and the
   * calls of functions by plain name, once per calling function outside loops and once per loop inside one
   * (CodeModel.functions, functionCalls): a loop of another file may call one that inserts (engine/called-inserts.ts).
   */
  linksFunctions?: boolean;
  /**
   * Modules link files (Python): the walk records the functions defined at module level (a `def` in the first
   * column) and the calls in loops of a name or a dotted name (`save_row(r)`, `dao.save_row(r)`), once per callee
   * and loop (Walked.moduleFunctions, moduleCalls); the language module keeps the calls its imports resolve.
   */
  linksModules?: boolean;
  /**
   * The node types declaredTypes reads: the walk collects them in its one pass over the tree (walk.ts), since a
   * second search of the whole tree cost a Java file about a tenth of its time.
   */
  declarations?: Set<string>;
  /**
   * The ORM entity classes the file declares (CodeModel.entities: Java's @Entity and @MappedSuperclass, Python's
   * mapped classes), read from the tree once per file; undefined or empty when none. `ev` is at the file's scope.
   */
  ormEntities?(root: Node, ev: Evaluator): OrmEntity[] | undefined;
}

// ---- helpers for adapters --------------------------------------------------------------------

/** The last identifier of an expression: conn, this.conn, self.conn, obj->conn → conn. */
export function simpleName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const text = node.text.trimEnd();
  if (text.length === 0 || text.length > 200 || !/^[\w$.\->\s&*()]+$/.test(text)) return undefined;
  // Scan back over identifier characters (a loop, not a regex with an unanchored start).
  let i = text.length;
  while (i > 0 && /[\w$]/.test(text[i - 1])) i--;
  const name = text.slice(i);
  return /^[A-Za-z_$]/.test(name) ? name : undefined;
}

const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);

/** The arguments of a call's argument list, comments left out (each grammar names its comment nodes its own way). */
export function argsOf(list: Node | null): Node[] {
  // (`type` once per node: each read of it is a call into wasm.)
  return list ? list.namedChildren.filter((n): n is Node => !!n && !COMMENT_TYPES.has(n.type)) : [];
}

/** The text of a `//` or `/* ... *\/` comment without its delimiters (Java, JavaScript, C). */
export function cStyleCommentText(raw: string): string {
  if (raw.startsWith('//')) return raw.slice(2);
  return raw.replace(/^\/\*+/, '').replace(/\*\/$/, '');
}

/** `name = value` of a declarator with name and value fields (Java variable_declarator, C #define ...). */
export function declaratorAssignment(node: Node): { name: string; value: Node; append: boolean }[] {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  return name && value ? [{ name: name.text, value, append: false }] : [];
}

/** `left = right`, and `left += right` as an append when `+=` is among `appendOperators`. */
export function operatorAssignment(node: Node, appendOperators: readonly string[]): { name: string; value: Node; append: boolean }[] {
  const left = simpleName(node.childForFieldName('left'));
  const right = node.childForFieldName('right');
  const op = node.childForFieldName('operator')?.text ?? '=';
  if (!left || !right || (op !== '=' && !appendOperators.includes(op))) return [];
  return [{ name: left, value: right, append: op !== '=' }];
}

/** The text of a host value with its splices written as 0 (to ask "does this look like SQL?"). */
export function plainText(host: HostText): string {
  return host.pieces.map((p) => (p.kind === 'text' ? p.text : '0')).join('');
}

/** A guard that limits a commit to every n-th row: a modulo, or a comparison with a count or size. */
export function isCountGuard(condition: string): boolean {
  if (condition.includes('%')) return true;
  if (!/(>=|<=|==|!=|>|<|-ge|-gt|-eq)/.test(condition)) return false;
  return /\b(?:count|cnt|batch\w*|size|limit|every|interval|chunk\w*|commit\w*|threshold|max\w*|n_?rows|rows?_?(?:count|since\w*|in\w*)|pending|len|length)\b/i.test(condition) ||
    /\.size\(\)|\.length\b|len\(/.test(condition) ||
    /(>=|==|>|-ge|-eq|-gt)\s*(?:\(\s*)?\d{2,}/.test(condition);
}
