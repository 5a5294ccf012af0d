// From the calls the walk collected to the CodeModel: each call is classified into events (by its
// language adapter, as a call of a wrapper function of this file, or by its use: an SQL text handed to
// a query/execute method), SQL texts are rebuilt and parsed, statement handles are linked to their
// prepares and connections, and autocommit is resolved once every call is seen.
import type { Node, Tree } from 'web-tree-sitter';
import { fileSpanOf, type Comment, type Span, type Statement } from '../sql/ast';
import type { CodeModel, CommitCall, ExecutionAction, LoopInfo, SqlExecution } from '../code-model/types';
import { assignmentsNamed, plainText, scopesNaming, simpleName, type ApiEvent, type CallContext, type Evaluator, type LanguageAdapter, type ParseSqlFn, type Scope } from './adapter';
import { connectionState, type ConnectionFacts } from './autocommit';
import { CallsByScope } from './calls-by-scope';
import { HostEvaluator } from './evaluator';
import { constantPasses, receivedBound } from './loop-bounds';
import { isLiteralValues, rowWritersOf, splicedInsertValues } from '../code-model/facts';
import { buildMappedSql, looksLikeSql, type HostText, type TextPiece } from './sqltext';
import { functionScope, NOT_RUNNING_SQL, USAGE_CALL, walkTree, type Walked } from './walk';
import { parentOf } from './parents';
import { callsSqlEscape, COUNTER, doublesQuotes, DOUBLES_QUOTES, growsRowByRow, numericVariable, rowListVariable, splicesIn } from './spliced-values';
import { checkDeadline } from '../engine/deadline';

export interface ExtractResult {
  statements: Statement[];
  comments: Comment[];
  code: CodeModel;
}

export interface ExtractHooks {
  /** Events of calls a pre-scanner stands for (EXEC SQL, #sql placeholders); undefined: not such a call. */
  preEvents?: (ctx: CallContext, ev: Evaluator) => ApiEvent[] | undefined;
  /**
   * Where the adapter links modules (Python): the names a call in a loop must start with to be noted as another
   * module's (Walked.moduleCalls), the names the file's imports bind; undefined: every call.
   */
  moduleCallHeads?: ReadonlySet<string>;
}

/** Runs an adapter over a parsed tree (or the trees of disjoint parts of one file, the first spanning it: see walkTree). */
export function extractFromTree(tree: Tree | readonly Tree[], source: string, adapter: LanguageAdapter, parseSql: ParseSqlFn, hooks: ExtractHooks = {}): ExtractResult {
  return new ModelBuilder(walkTree(tree, adapter, source, hooks.moduleCallHeads), source, adapter, parseSql).build(hooks);
}

/** STATUS_NEW, Defaults.STATUS: a constant of another module, the same text every time (not a row value). */
const CONSTANT_NAME = /^(?:[A-Za-z_$][\w$]{0,60}\.){0,4}[A-Z][A-Z0-9_]{1,60}$/;
const MARKER_LIST = /\?|placeholder|\bmarks\b|marker|qmark|\bparams?\b|\bbinds?\b/i;
/** Parameter names that carry SQL text into a wrapper function. */
const SQL_PARAMETER = /sql|query|stmt|statement|command|text/i;
const PREPARED_ACTIONS: ReadonlySet<ExecutionAction> = new Set(['executePrepared', 'addBatch', 'executeBatch', 'executeMany']);

interface PrepareRecord {
  execution: SqlExecution;
  handle: string;
  at: number;
  scope: Scope;
  connection?: string;
}

/** The array sizes set on one statement handle: where they are set, and the largest anywhere in the file. */
interface Paramsets {
  largest: number;
  calls: CallsByScope<{ size: number; at: number }>;
}

interface PendingConnection {
  execution: SqlExecution;
  connection?: string;
  at: number;
  scope: Scope;
  handle?: string;
  /** The handle of the prepare whose statement the execution runs (its preparedAt). */
  preparedHandle?: string;
  autocommitOff?: boolean;
  libraryAutocommit?: ExecuteEvent['libraryAutocommit'];
  /** Sent at the session's flush (ExecuteEvent.atFlush). */
  atFlush?: boolean;
}

/** A function of this file that runs the SQL text one of its parameters brings (getStatement(conn, sql)). */
interface Wrapper {
  param: number;
  paramName: string;
  api: string;
  action: ExecutionAction;
  /** The first parameter is Python's self/cls: a method call passes its arguments one place later. */
  selfParam: boolean;
}

type ExecuteEvent = Extract<ApiEvent, { kind: 'execute' }>;

/** prepareStatement, prepareSql: a prepare; prepare_and_execute, prepareQuery: runs it too. */
const onlyPrepares = (name: string) => /prepare/i.test(name) && !/exec|query|run/i.test(name);

/** A query that flushes a session before it runs, on every pass of a loop (ModelBuilder autoflushedEveryPass). */
interface AutoflushQuery {
  query: string;
  entities?: string[];
  repository?: { type: string; from?: string[]; method: string };
}
const NO_AUTOFLUSH: readonly AutoflushQuery[] = [];

class ModelBuilder {
  private readonly statements: Statement[] = [];
  private readonly sqlComments: Comment[] = [];
  private readonly executions: SqlExecution[] = [];
  private readonly commits: CommitCall[] = [];
  /** Statement/cursor handle -> connection name. */
  private readonly handles = new Map<string, string>();
  /** The prepares by handle: an execute looks at its own handle's only (latestPrepare). */
  private readonly prepares = new Map<string, CallsByScope<PrepareRecord>>();
  private readonly preparedHandles = new Set<string>();
  /** SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, n) and SQLParamOptions calls, by handle. */
  private readonly paramsets = new Map<string, Paramsets>();
  private readonly pending: PendingConnection[] = [];
  private readonly facts: ConnectionFacts = { switches: [], connects: [], commits: [] };
  /**
   * The loops that commit or flush a connection or session on every pass (no guard), as `flushKey(name, loop)`
   * (ExecuteEvent.atFlush): looked up per session.add, so a file of thousands of loops over `session` is no scan.
   */
  private readonly flushedEveryPass = new Set<string>();
  /**
   * The loops that run a query of a session on every pass (no counter guard, no if but in its condition), which
   * flushes the session before it runs (SQLAlchemy's autoflush; Hibernate's FlushMode AUTO, only the `entities` the
   * query reads), as flushKey: the query as the message names it (ExecuteEvent.atFlush, SqlExecution.autoflushedBy).
   */
  private readonly autoflushedEveryPass = new Map<string, AutoflushQuery[]>();
  private readonly ev: HostEvaluator;
  private markerVars?: Set<string>;

  constructor(
    private readonly walked: Walked,
    private readonly source: string,
    private readonly adapter: LanguageAdapter,
    private readonly parseSql: ParseSqlFn,
  ) {
    this.ev = new HostEvaluator(source, adapter, walked.root);
    const linksFunctions = adapter.linksFunctions === true;
    for (const loop of walked.loops) {
      const passes = constantPasses(loop.node, loop.scope);
      if (passes !== undefined) loop.info.passes = passes;
      else if (linksFunctions) {
        const receives = receivedBound(loop.node, loop.scope);
        if (receives) loop.info.receives = receives;
      }
    }
  }

  build(hooks: ExtractHooks): ExtractResult {
    const events = this.classifyAll(hooks);
    // A run of a handle no prepare has named yet waits for them all: a helper defined above its caller
    // (execOne(h) { SQLExecute(h); } before the function that prepares h and calls it in a loop).
    const later: [CallContext, ApiEvent][] = [];
    this.walked.calls.forEach((ctx, i) => {
      this.ev.at(ctx.scope);
      for (const e of events[i]) {
        if (e.kind === 'execute' && PREPARED_ACTIONS.has(e.action) && e.handle && !e.sql && !this.preparedHandles.has(e.handle)) later.push([ctx, e]);
        else this.apply(ctx, e);
      }
    });
    if (later.length > 0) {
      for (const [ctx, e] of later) {
        this.ev.at(ctx.scope);
        this.apply(ctx, e);
      }
      this.executions.sort((a, b) => a.callSpan.start - b.callSpan.start);
    }
    // Autocommit and array sizes are known only once every call is seen (a helper may switch it).
    if (this.pending.length > 0 && this.adapter.driverConnectionFields) this.facts.driverFields = this.adapter.driverConnectionFields(this.walked.declarations);
    for (const p of this.pending) this.resolve(p);
    const returned = this.returnedTexts();
    this.statements.sort((a, b) => a.origin.toFile(a.span.start) - b.origin.toFile(b.span.start));
    const comments = [...this.walked.comments, ...this.sqlComments].sort((a, b) => a.span.start - b.span.start);
    const code: CodeModel = { executions: this.executions, commits: this.commits };
    if (returned.length > 0) code.returnedTexts = returned;
    return { statements: [...new Set(this.statements)], comments, code: this.crossFileFacts(code) };
  }

  /**
   * INSERT (or MERGE) texts that a named function builds with values spliced into their rows and returns: a query
   * builder whose callers run the text elsewhere (an ORM's query generator, which its query class prepares). Nothing in
   * this file runs them, so they are no executions (no loop, connection or autocommit of their own, and their statements
   * are not the file's); only their splices are read (prefer-parameter-markers). A text the file also runs, or one
   * with no value spliced into its rows, is left out.
   */
  private returnedTexts(): SqlExecution[] {
    const out: SqlExecution[] = [];
    for (const { value, scope } of this.walked.returns) {
      checkDeadline();
      this.ev.at(scope);
      const host = this.ev.evaluate(value);
      if (!host || !host.pieces.some((p) => p.kind === 'splice')) continue;
      const span: Span = { start: value.startIndex, end: value.endIndex };
      const read = this.readSql(host, span, false);
      if (read.spliced.length === 0 || !read.statements.some((st) => st.kind === 'insert' || st.kind === 'merge')) continue;
      const text: SqlExecution = { callSpan: span, api: this.adapter.usageApi ?? 'wrapper', action: 'executeDirect', statements: read.statements, textKind: host.kind, splicedValues: read.spliced, batched: false };
      if (splicedInsertValues(text).length === 0) continue;
      if (this.executions.some((e) => e.splicedValues.some((x) => read.spliced.some((y) => x.start === y.start && x.end === y.end)))) continue;
      const splices = read.all.map((x) => this.spliceOf(x.span, scope, x.shown));
      if (splices.length > 0) text.splices = splices;
      // Reported where its INSERT is written: the string that starts the INSERT with a value spliced into its rows, of
      // several the one built from the most spliced expressions (Sequelize's bulk INSERT with its table, columns and
      // rows, not the one for rows of defaults beside it); the returned expression when no string starts it.
      let anchor: Statement | undefined;
      let most = 0;
      for (const st of rowWritersOf(text)) {
        if (splicedInsertValues({ ...text, statements: [st] }).length === 0) continue;
        const count = splicesIn(st, read.all);
        if (count > most) [anchor, most] = [st, count];
      }
      if (anchor) text.callSpan = this.stringAt(anchor.origin.toFile(anchor.span.start)) ?? span;
      const fn = functionScope(scope)!;
      text.inFunction = { name: fn.functionName, span: { start: fn.node.startIndex, end: fn.node.endIndex } };
      out.push(text);
    }
    return out;
  }

  /**
   * What another file needs to lend this file's methods a loop, or this file's loops to its methods
   * (engine/cross-file.ts): the types of the receivers of methods called in loops, and the types this file's
   * classes are. Read only where it can matter (a file that calls methods in loops, or runs SQL).
   */
  private crossFileFacts(code: CodeModel): CodeModel {
    const { definitions, functionCalls } = this.walked;
    if (definitions && definitions.length > 0) code.functions = definitions;
    if (functionCalls && functionCalls.length > 0) code.functionCalls = functionCalls;
    const { moduleFunctions, moduleCalls } = this.walked;
    // (Module functions only where the file runs SQL or commits: what another file's loop can be lent to.)
    if (moduleFunctions && moduleFunctions.length > 0 && (code.executions.length > 0 || code.commits.length > 0)) {
      code.moduleFunctions = moduleFunctions;
      // (Their calls of one another: a loop lent to save_row() reaches the _commit() it calls.)
      if (this.walked.innerCalls.length > 0) code.innerCalls = this.walked.innerCalls;
    }
    if (moduleCalls && moduleCalls.length > 0) code.moduleCalls = moduleCalls;
    // The ORM entities the file declares: other files' inserts of them name their tables (engine/orm-entities.ts).
    const entities = this.adapter.ormEntities?.(this.walked.root.node, this.ev.at(this.walked.root));
    if (entities && entities.length > 0) code.entities = entities;
    const calls = this.walked.loopMethodCalls;
    if (!this.adapter.declaredTypes || (calls.length === 0 && code.executions.length === 0)) return code;
    const { variables, classes } = this.adapter.declaredTypes(this.walked.declarations, new Set(calls.map((c) => c.receiver)));
    if (code.executions.length > 0 && classes.length > 0) {
      code.types = classes;
      if (this.walked.innerCalls.length > 0) code.innerCalls = this.walked.innerCalls;
    }
    const loopCalls: NonNullable<CodeModel['loopCalls']> = [];
    for (const c of calls) {
      const type = variables.get(c.receiver);
      if (type) loopCalls.push({ name: c.name, type, loop: c.loop, guarded: c.guarded });
    }
    if (loopCalls.length > 0) code.loopCalls = loopCalls;
    return code;
  }

  // ---- classification ----------------------------------------------------------------------------

  /** Events per call: the adapter's; then calls of this file's wrapper functions; then SQL handed to query/execute. */
  private classifyAll(hooks: ExtractHooks): ApiEvent[][] {
    const { calls } = this.walked;
    const events = calls.map((ctx) => {
      checkDeadline();
      this.ev.at(ctx.scope);
      return hooks.preEvents?.(ctx, this.ev) ?? this.adapter.classify(ctx, this.ev);
    });
    // A wrapper may call another wrapper: a few rounds reach the fixpoint in real code.
    const wrappers = new Map<string, Wrapper | null>();
    for (let round = 0; round < 3; round++) {
      calls.forEach((ctx, i) => {
        if (events[i].length > 0) return;
        this.ev.at(ctx.scope);
        events[i] = this.wrapperCall(ctx, wrappers.get(ctx.call.name)) ?? this.usageEvents(ctx);
      });
      let found = false;
      calls.forEach((ctx, i) => {
        for (const e of events[i]) found = this.noteWrapper(ctx, e, wrappers) || found;
      });
      if (!found) break;
    }
    return events;
  }

  /** An execute whose SQL is a parameter of its named function makes that function a wrapper. */
  private noteWrapper(ctx: CallContext, e: ApiEvent, wrappers: Map<string, Wrapper | null>): boolean {
    if (e.kind !== 'execute' || !e.sql || 'pieces' in e.sql || e.sql.type !== 'identifier') return false;
    const fn = functionScope(ctx.scope);
    const name = fn?.functionName;
    const param = fn?.params?.indexOf(e.sql.text) ?? -1;
    if (!fn || !name || param < 0) return false;
    const known = wrappers.get(name);
    if (known === null || (known && known.param === param)) return false;
    // Overloads that take the SQL text at different places: which one a call means is not known.
    if (known) {
      wrappers.set(name, null);
      return false;
    }
    wrappers.set(name, { param, paramName: e.sql.text, api: e.api, action: e.action, selfParam: /^(?:self|cls)$/.test(fn.params![0] ?? '') });
    return true;
  }

  private wrapperCall(ctx: CallContext, wrapper: Wrapper | null | undefined): ApiEvent[] | undefined {
    if (!wrapper) return undefined;
    const { call } = ctx;
    const index = wrapper.param - (wrapper.selfParam && call.receiver ? 1 : 0);
    const sql = call.keywords.get(wrapper.paramName) ?? call.args[index];
    if (!sql) return undefined;
    const handle = wrapper.action === 'prepare' ? ctx.resultName ?? `@${call.node.startIndex}` : undefined;
    return [{ kind: 'execute', api: wrapper.api, action: wrapper.action, sql, handle }];
  }

  /**
   * A call named like execute/query/prepare that is handed an SQL text runs it, whatever object receives
   * it (a wrapper, a pool, an ORM's raw query): one execution per SQL argument (varargs of statements).
   */
  private usageEvents(ctx: CallContext): ApiEvent[] {
    const { call } = ctx;
    if (this.adapter.grammar === 'bash' || !USAGE_CALL.test(call.name) || NOT_RUNNING_SQL.test(call.name)) return [];
    const texts: HostText[] = [];
    for (const arg of call.args) {
      const text = this.ev.evaluate(arg);
      if (text && looksLikeSql(plainText(text))) texts.push(text);
    }
    const api = this.adapter.usageApi ?? 'wrapper';
    const connection = simpleName(call.receiver);
    if (texts.length === 0) {
      // Passing its own SQL parameter on (def run(sql): db.query(sql)) makes the enclosing function a wrapper.
      const params = functionScope(ctx.scope)?.params ?? [];
      const forwarded = call.args.find((a) => a.type === 'identifier' && SQL_PARAMETER.test(a.text) && params.includes(a.text));
      return forwarded ? [{ kind: 'execute', api, action: onlyPrepares(call.name) ? 'prepare' : 'executeDirect', sql: forwarded, connection }] : [];
    }
    if (onlyPrepares(call.name)) {
      return [{ kind: 'execute', api, action: 'prepare', sql: texts[0], connection, handle: ctx.resultName ?? `@${call.node.startIndex}` }];
    }
    const bound = call.args.length > texts.length;
    return texts.map((sql): ApiEvent => ({ kind: 'execute', api, action: bound ? 'executePrepared' : 'executeDirect', sql, connection }));
  }

  // ---- events ------------------------------------------------------------------------------------

  private apply(ctx: CallContext, e: ApiEvent): void {
    const span: Span = { start: ctx.call.node.startIndex, end: ctx.call.node.endIndex };
    switch (e.kind) {
      case 'link':
        this.handles.set(e.handle, e.connection);
        break;
      case 'connect':
        this.facts.connects.push({ connection: e.connection, api: e.api, scope: ctx.scope, ...(e.pooled ? { pooled: true } : {}) });
        if (e.autocommit !== undefined) this.facts.switches.push({ connection: e.connection, at: span.start, on: e.autocommit, span, scope: ctx.scope });
        break;
      case 'autocommit':
        this.facts.switches.push({ connection: e.connection, at: span.start, on: e.on, span, scope: ctx.scope });
        break;
      case 'paramset': {
        let sets = this.paramsets.get(e.handle);
        if (!sets) this.paramsets.set(e.handle, (sets = { largest: 0, calls: new CallsByScope() }));
        sets.largest = Math.max(sets.largest, e.size);
        sets.calls.add(ctx.scope, { size: e.size, at: span.start });
        break;
      }
      case 'commit':
        this.addCommit(ctx, span, e.api, e.connection);
        this.addFlush(ctx, e.connection);
        break;
      case 'flush':
        if (e.autoflush !== undefined) this.addAutoflush(ctx, e.connection, { query: e.autoflush, ...(e.entities ? { entities: e.entities } : {}), ...(e.repositoryMethod ? { repository: e.repositoryMethod } : {}) }, e.inConditions ?? 0);
        else this.addFlush(ctx, e.connection);
        break;
      case 'execute':
        this.addExecution(ctx, span, e);
        break;
    }
  }

  private addCommit(ctx: CallContext, span: Span, api: string, connection?: string): void {
    const commit: CommitCall = { callSpan: span, api, loop: this.loopOf(ctx), guarded: this.guardedAt(ctx), conditions: ctx.conditions };
    const fn = functionScope(ctx.scope);
    if (fn) commit.inFunction = { name: fn.functionName, span: { start: fn.node.startIndex, end: fn.node.endIndex } };
    this.commits.push(commit);
    if (connection) this.facts.commits.push({ name: connection, scope: ctx.scope });
  }

  private addExecution(ctx: CallContext, span: Span, e: ExecuteEvent): void {
    const host = this.textOf(e.sql, e.pyformatMarkers ?? false);
    // Where the statements' spans fall back when their text's pieces map out of order: the SQL argument (as a node,
    // or the expression the adapter read the text from), else the call (fileSpanOf).
    const extent = !e.sql ? span : 'pieces' in e.sql ? (e.sql.from ?? span) : { start: e.sql.startIndex, end: e.sql.endIndex };
    const read = host ? this.readSql(host, extent) : { statements: [], spliced: [], all: [] };
    const scope = ctx.scope;
    let statements = read.statements;
    let textKind: SqlExecution['textKind'] = host ? host.kind : 'unknown';
    let connection = e.connection;
    let prepare: PrepareRecord | undefined;
    if (PREPARED_ACTIONS.has(e.action) && e.handle && !e.sql) {
      prepare = latestPrepare(this.prepares.get(e.handle), span.start, ctx.scope);
      if (prepare) {
        statements = prepare.execution.statements;
        textKind = prepare.execution.textKind;
        connection ??= prepare.connection;
      }
    }
    if (!connection && e.handle) connection = this.handles.get(e.handle);
    if (connection && this.handles.has(connection)) connection = this.handles.get(connection);
    // A text SQLAlchemy builds binds its values: what is spliced into it is the table's name.
    const spliced = prepare || e.construct ? [] : read.spliced;
    const execution: SqlExecution = {
      callSpan: span,
      api: e.api,
      action: e.action,
      statements,
      textKind,
      splicedValues: spliced,
      // (An executemany the driver runs row by row is a loop over its rows, whatever loop it is in: a loop of chunks.)
      loop: (e.manyPerRow ? e.ownLoop : undefined) ?? this.loopOf(ctx, e.callerLoopAt) ?? e.ownLoop,
      batched: e.batched ?? (e.action === 'addBatch' || e.action === 'executeBatch' || e.action === 'executeMany'),
    };
    // A prepared handle runs its prepare's text: same splices to name, reported once at the prepare.
    const splices = prepare ? prepare.execution.splices : read.all.map((x) => this.spliceOf(x.span, scope, x.shown));
    if (splices && splices.length > 0) execution.splices = splices;
    if (e.escapedSplices) for (const s of execution.splices ?? []) if (!s.markers && !s.quoted) s.escaped = true;
    // (Asked only of a spliced INSERT text held in a variable: the rules read it for nothing else.)
    if (!prepare && e.sql && !('pieces' in e.sql) && read.spliced.length > 0 && statements.some((st) => st.kind === 'insert') && growsRowByRow(e.sql.text, scope, this.source)) execution.rowList = true;
    const fn = functionScope(ctx.scope);
    if (fn) execution.inFunction = { name: fn.functionName, span: { start: fn.node.startIndex, end: fn.node.endIndex } };
    if (prepare) execution.preparedAt = prepare.execution.callSpan;
    if (e.handleText) execution.handle = e.handleText;
    if (this.guardedAt(ctx, e.callerLoopAt)) execution.guarded = true;
    // A wrapper told not to commit (ibmdbpy's self._prepare_and_execute(query, autocommit=False)): Python keywords.
    if (e.api === (this.adapter.usageApi ?? 'wrapper')) {
      const flag = ctx.call.keywords.get('autocommit') ?? ctx.call.keywords.get('commit');
      if (flag && /^(False|false|0)$/.test(flag.text)) {
        const keyword = parentOf(flag);
        const receiver = ctx.call.receiver?.text;
        execution.noCommitArg = {
          call: `${receiver && receiver.length <= 40 && !/\s/.test(receiver) ? `${receiver}.` : ''}${ctx.call.name}()`,
          flag: keyword && keyword.type === 'keyword_argument' ? keyword.text.replace(/\s+/g, '') : flag.text,
        };
      }
    }
    if (e.construct) execution.construct = e.construct;
    if (e.ormPerCall) execution.ormPerCall = e.ormPerCall;
    if (e.manyPerRow) execution.manyPerRow = e.manyPerRow;
    if (e.hostFix) execution.hostFix = e.hostFix;
    if (e.ormClass) execution.ormClass = e.ormClass;
    if (e.queriesFirst) execution.queriesFirst = e.queriesFirst;
    if (e.mapperStatement) execution.mapperStatement = e.mapperStatement;
    if (e.ormConfig) execution.ormConfig = e.ormConfig;
    if (e.script) {
      execution.script = true;
      // COMMIT statements inside a here-document are commits at their place in the loop.
      for (const st of statements) {
        if (st.kind === 'commit') this.commits.push({ callSpan: fileSpanOf(st.origin, st.span), api: e.api, loop: execution.loop, guarded: execution.guarded ?? false });
      }
    } else if (e.action === 'executeDirect' && statements.length > 0 && statements.every((st) => st.kind === 'commit')) {
      // query('COMMIT'), cursor.execute("COMMIT"): a commit like the driver's own call.
      this.addCommit(ctx, span, e.api, connection);
    }
    this.executions.push(execution);
    if (e.action === 'prepare' && e.handle) {
      let prepares = this.prepares.get(e.handle);
      if (!prepares) this.prepares.set(e.handle, (prepares = new CallsByScope()));
      prepares.add(ctx.scope, { execution, handle: e.handle, at: span.start, scope: ctx.scope, connection });
      this.preparedHandles.add(e.handle);
    }
    this.pending.push({ execution, connection, at: span.start, scope: ctx.scope, handle: e.handle, preparedHandle: prepare?.handle, autocommitOff: e.autocommitOff, libraryAutocommit: e.libraryAutocommit, atFlush: e.atFlush });
  }

  private addFlush(ctx: CallContext, connection: string | undefined): void {
    const loop = this.loopOf(ctx);
    if (connection && loop && !this.guardedAt(ctx)) this.flushedEveryPass.add(flushKey(connection, loop));
  }

  /**
   * A query that autoflushes its session, on every pass of its loop: not under a counter guard, nor under any if of the
   * loop other than in its condition (a lookup on a cache miss runs on some passes only, and the adds between two of
   * them go together).
   */
  private addAutoflush(ctx: CallContext, connection: string | undefined, query: AutoflushQuery, inConditions: number): void {
    const loop = this.loopOf(ctx);
    // (A query in an if's condition runs whenever the if does: ExecuteEvent inConditions.)
    if (!connection || !loop || ctx.conditions - inConditions > 0 || this.guardedAt(ctx)) return;
    const key = flushKey(connection, loop);
    const queries = this.autoflushedEveryPass.get(key);
    if (queries) queries.push(query);
    else this.autoflushedEveryPass.set(key, [query]);
  }

  /** The queries of the loop that autoflush an execution's insert: those of any entity, or of the execution's class. */
  private autoflushesOf(key: string, execution: SqlExecution): readonly AutoflushQuery[] {
    const queries = this.autoflushedEveryPass.get(key);
    if (!queries) return NO_AUTOFLUSH;
    const cls = execution.ormClass?.name;
    return queries.filter((q) => !q.entities || (cls !== undefined && q.entities.includes(cls)));
  }

  private resolve(p: PendingConnection): void {
    const { execution } = p;
    // session.add(obj): one row per flush when the loop flushes (or commits) that session on every pass, or runs a
    // query of it on every pass that autoflushes the add (the previous pass's add goes out before the query: one
    // INSERT per pass whether the add comes before or after the query); else the flush after the loop sends its rows
    // together.
    if (p.atFlush) {
      const key = p.connection && execution.loop ? flushKey(p.connection, execution.loop) : undefined;
      const queries = key && !this.flushedEveryPass.has(key) ? this.autoflushesOf(key, execution) : NO_AUTOFLUSH;
      const autoflushed = queries[0]?.query;
      execution.batched = !(key && (this.flushedEveryPass.has(key) || autoflushed !== undefined));
      if (autoflushed !== undefined) execution.autoflushedBy = autoflushed;
      // (Spring Data's query methods: another file's interface may hint their flush mode off, engine/orm-entities.ts.)
      if (queries.length > 0 && queries.every((q) => q.repository)) execution.autoflushRepositoryQueries = queries.map((q) => ({ query: q.query, ...q.repository! }));
    }
    // CLI array input: the handle's SQL_ATTR_PARAMSET_SIZE is more than 1 where the statement runs. (A text of
    // literal values only binds nothing: one row per call, whatever the size.)
    if ((execution.action === 'executePrepared' || execution.action === 'executeDirect') && this.paramsets.size > 0 && !execution.statements.some(isLiteralValues)) {
      if ([p.handle, p.preparedHandle].some((h) => h && paramsetSize(this.paramsets.get(h), p.at, p.scope) > 1)) execution.batched = true;
    }
    execution.connection = p.autocommitOff
      ? { name: p.connection, autocommit: 'off', autocommitSpan: execution.callSpan }
      : connectionState(this.facts, this.adapter, p.connection, p.at, p.scope, execution.api);
    // SQLAlchemy 1.x commits a DML statement run outside a transaction itself: always for connectionless execution,
    // else where no switch the file shows (a transaction begun, an isolation level set) comes before the call.
    const library = p.libraryAutocommit;
    const state = execution.connection;
    if (library && state.autocommit !== 'on' && (library === 'always' || (state.autocommit === 'off' && !state.autocommitSpan))) {
      execution.connection = { name: state.name, autocommit: 'on', libraryAutocommit: true };
    }
  }

  // ---- SQL text ----------------------------------------------------------------------------------

  private textOf(sql: Node | HostText | undefined, pyformat: boolean): HostText | undefined {
    if (!sql) return undefined;
    const host = 'pieces' in sql ? sql : this.ev.evaluate(sql);
    if (!host || !pyformat) return host;
    // DB-API paramstyle format/pyformat: %s and %(name)s are markers; show them to the SQL parser as ?.
    const pieces = host.pieces.map((p): TextPiece => (p.kind === 'text' ? { ...p, text: p.text.replace(/%\((\w+)\)s|%s/g, (m) => '?' + ' '.repeat(m.length - 1)) } : p));
    return { pieces, kind: host.kind };
  }

  /** The span of the string literal around a file offset (the outermost of nested string nodes: string_fragment in string). */
  private stringAt(offset: number): Span | undefined {
    let found: Node | undefined;
    for (let n: Node | null = this.walked.root.node.descendantForIndex(offset); n; n = parentOf(n)) {
      if (/string/.test(n.type)) found = n;
      else if (found || this.adapter.functions.has(n.type)) break;
    }
    return found && { start: found.startIndex, end: found.endIndex };
  }

  /** Parses a rebuilt SQL text; returns its statements and the spliced values (file spans). */
  private readSql(host: HostText, extent: Span, executed = true): { statements: Statement[]; spliced: Span[]; all: { span: Span; shown?: Span }[] } {
    const mapped = buildMappedSql(host, extent);
    const spliced: Span[] = [];
    const all = mapped.splices.map((s) => (s.shown ? { span: s.fileSpan, shown: s.shown } : { span: s.fileSpan }));
    for (const s of mapped.splices) {
      const expr = this.source.slice(s.fileSpan.start, s.fileSpan.end);
      if (!CONSTANT_NAME.test(expr) && !this.isMarkerList(expr)) spliced.push(s.fileSpan);
    }
    if (!looksLikeSql(mapped.text)) return { statements: [], spliced, all };
    const parsed = this.parseSql(mapped.text, { origin: mapped.origin });
    // Text pieced together at run time that does not parse was guessed wrong, not written wrong.
    const statements = mapped.splices.length > 0 && parsed.statements.some((st) => st.parseError) ? [] : parsed.statements;
    // A table named at run time is no table the schema knows: such statements stay with their execution
    // (the code rules name them by the expression) but do not describe a table for the SQL rules.
    // A text only returned (returnedTexts) is not run here: its statements are not the file's.
    if (!executed) return { statements, spliced, all };
    for (const st of statements) if (!namedAtRunTime(st)) this.statements.push(st);
    for (const c of parsed.comments) this.sqlComments.push({ span: fileSpanOf(mapped.origin, c.span), text: c.text });
    return { statements, spliced, all };
  }

  /**
   * What messages and rules need of a splice: the expression the statement's text shows (`shown`, else the value
   * itself) names it; what the value is (a marker list, a number, a list of rows) is read from the value itself.
   */
  private spliceOf(span: Span, scope: Scope, shown?: Span): NonNullable<SqlExecution['splices']>[number] {
    const own = this.source.slice(span.start, span.end);
    const text = shown ? this.source.slice(shown.start, shown.end) : own;
    if (this.isMarkerList(own)) return { span, text, markers: true };
    if (numericVariable(own, scope) || this.countersOnly(own, scope)) return { span, text, numeric: true };
    const splice: NonNullable<SqlExecution['splices']>[number] = rowListVariable(own, scope, this.source) ? { span, text, rows: true } : { span, text };
    if (this.quoted(doublesQuotes, own, scope) || (shown && this.quoted(doublesQuotes, text, scope))) splice.quoted = true;
    else if (this.quoted(callsSqlEscape, own, scope) || (shown && this.quoted(callsSqlEscape, text, scope))) splice.escaped = true;
    return splice;
  }

  /**
   * quotedBy from the top, once per test, expression and scope: the same names are spliced again and again (a value
   * spliced into each of a file's statements), and each answer follows their assignments three levels down.
   */
  private quoted(quotes: (expr: string) => boolean, expr: string, scope: Scope): boolean {
    let byScope = this.quotedAnswers.get(quotes);
    if (!byScope) this.quotedAnswers.set(quotes, (byScope = new Map()));
    let byExpr = byScope.get(scope);
    if (!byExpr) byScope.set(scope, (byExpr = new Map()));
    let answer = byExpr.get(expr);
    if (answer === undefined) byExpr.set(expr, (answer = this.quotedBy(quotes, expr, scope, 0, new Set())));
    return answer;
  }

  private readonly quotedAnswers = new Map<(expr: string) => boolean, Map<Scope, Map<string, boolean>>>();

  /**
   * The code quotes a value before splicing it: it doubles its single quotes (`.replace("'", "''")`, `doublesQuotes`)
   * or passes it to an escape function (`this.escape(value)`, `callsSqlEscape`), in the expression, in what the variables
   * it reads were assigned or had pushed onto them (three levels down), or, for doubled quotes, in the body of a
   * function of this file it calls (db2magic's `addquotes(value, True)`).
   */
  private quotedBy(quotes: (expr: string) => boolean, expr: string, scope: Scope, depth: number, seen: Set<string>): boolean {
    if (quotes(expr)) return true;
    if (depth >= 3 || expr.length > 400) return false;
    for (const m of expr.matchAll(/([A-Za-z_$][\w$]*)(\s*\()?/g)) {
      const name = m[1];
      if (seen.has(name)) continue;
      seen.add(name);
      if (m[2]) {
        if (quotes === doublesQuotes && this.functionDoublesQuotes(name)) return true;
        continue;
      }
      const s = scopesNaming(scope, name)[0];
      if (!s) continue;
      for (const a of assignmentsNamed(s, name)) {
        if (this.quotedBy(quotes, this.source.slice(a.value.startIndex, a.value.endIndex), s, depth + 1, seen)) return true;
      }
    }
    return false;
  }

  /**
   * A spliced counter (`this.autoGenValue++`), or an array of texts whose only spliced values are counters, joined
   * (`valuesForEmptyQuery.join(',')`, filled with `(${this.autoGenValue++})` per row): numbers the code makes up.
   */
  private countersOnly(expr: string, scope: Scope): boolean {
    if (COUNTER.test(expr)) return true;
    const name = /^([A-Za-z_$][\w$]{0,60})(?:\.join\([^()]{0,20}\))?$/.exec(expr)?.[1];
    const s = name ? scopesNaming(scope, name)[0] : undefined;
    if (!s) return false;
    const assigned = assignmentsNamed(s, name!);
    if (assigned.length < 2 || !/^\[\s*\]$/.test(assigned[0].value.text) || assigned.slice(1).some((a) => !a.append)) return false;
    return assigned.slice(1).every((a) => {
      const value = this.ev.evaluate(a.value);
      const splices = value?.pieces.filter((p) => p.kind === 'splice') ?? [];
      return splices.length > 0 && splices.every((p) => p.kind === 'splice' && COUNTER.test(this.source.slice(p.span.start, p.span.end)));
    });
  }

  /** Whether a function of this file named `name` doubles quotes in its body; once per name (a splice per row of 40,000 may call it). */
  private functionDoublesQuotes(name: string): boolean {
    let known = this.quotingFunctions.get(name);
    if (known === undefined) {
      const fns = this.walked.functions.get(name) ?? [];
      known = fns.some((f) => f.node.endIndex - f.node.startIndex < 20000 && DOUBLES_QUOTES.test(this.source.slice(f.node.startIndex, f.node.endIndex)));
      this.quotingFunctions.set(name, known);
    }
    return known;
  }

  private readonly quotingFunctions = new Map<string, boolean>();

  /** A spliced list of markers ("?, ?, ?" built from the column count) is not a value. */
  private isMarkerList(expr: string): boolean {
    return MARKER_LIST.test(expr) || this.markerVariables().has(expr);
  }

  /** Variables assigned a text built from "?" (a marker list made from the column count). */
  private markerVariables(): Set<string> {
    if (this.markerVars) return this.markerVars;
    const vars = new Set<string>();
    const seen = new Set<Scope>();
    const visit = (scope: Scope) => {
      if (seen.has(scope)) return;
      seen.add(scope);
      for (const a of scope.assignments) if (/["'`]\s*\?\s*(?:,\s*)?["'`]/.test(this.source.slice(a.value.startIndex, a.value.endIndex))) vars.add(a.name);
    };
    visit(this.walked.root);
    // Up to the first scope already seen: the rest of the chain was visited with it.
    for (const c of this.walked.calls) for (let x: Scope | undefined = c.scope; x && !seen.has(x); x = x.parent) visit(x);
    this.markerVars = vars;
    return vars;
  }

  // ---- loops -------------------------------------------------------------------------------------

  /**
   * A call outside any loop in a helper function that a loop of this file calls runs once per pass. `loopAt`: of the
   * loops that call the helper, the one starting there (ExecuteEvent.callerLoopAt); else the first.
   */
  private helperCaller(scope: Scope, loopAt?: number): { loop: LoopInfo; guarded: boolean } | undefined {
    const fn = functionScope(scope);
    const callers = fn?.functionName !== undefined ? this.walked.loopCalls.get(fn.functionName) : undefined;
    const caller = callers && ((loopAt !== undefined ? callers.find((c) => c.loop.span.start === loopAt) : undefined) ?? callers[0]);
    return caller ? { loop: { ...caller.loop, via: fn!.functionName }, guarded: caller.guarded } : undefined;
  }

  private loopOf(ctx: CallContext, loopAt?: number): LoopInfo | undefined {
    return ctx.loop ?? this.helperCaller(ctx.scope, loopAt)?.loop;
  }

  /** Under a counter guard in its loop, or in a helper that the loop calls under one (if (n >= 1000) flush()). */
  private guardedAt(ctx: CallContext, loopAt?: number): boolean {
    return ctx.countGuarded || (!ctx.loop && (this.helperCaller(ctx.scope, loopAt)?.guarded ?? false));
  }
}

/** The placeholder of a spliced name: Zzzz, or 0000 inside double quotes ("%s"). */
const SPLICED_NAME = /^(?:Z+|0+)$/i;

function namedAtRunTime(stmt: Statement): boolean {
  const named = stmt as Partial<Record<'target' | 'table', { schema?: string; name: string }>>;
  const name = named.target ?? named.table;
  return !!name && (SPLICED_NAME.test(name.name) || (name.schema !== undefined && SPLICED_NAME.test(name.schema)));
}

/**
 * The array size of a statement handle (`sets`: the sizes set on it) where a call at `at` in `scope` runs: the latest
 * size set before it in that scope or an enclosing one (set to 1 again, it is 1; set only after it, none). Where no
 * such scope sets it, a helper runs a handle its callers size: the largest size the file sets on it. 0: none.
 */
function paramsetSize(sets: Paramsets | undefined, at: number, scope: Scope): number {
  if (!sets) return 0;
  const { latest, enclosing } = sets.calls.latest(at, scope);
  return enclosing ? (latest?.size ?? 0) : sets.largest;
}

/** The latest of a handle's prepares before `at` in `scope` or an enclosing one; else its last in the file. */
function latestPrepare(prepares: CallsByScope<PrepareRecord> | undefined, at: number, scope: Scope): PrepareRecord | undefined {
  return prepares && (prepares.latest(at, scope).latest ?? prepares.last);
}

/** A connection or session in a loop (the loop as sameLoop tells loops apart: by its span). */
function flushKey(connection: string, loop: LoopInfo): string {
  return `${connection}\u0000${loop.span.start}:${loop.span.end}`;
}
