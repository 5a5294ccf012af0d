// SQL PL read like a host language: what the routines and blocks of a script run, and in which loops, in
// the CodeModel shape the Java or Python front ends produce. The loop rules then see a cursor loop that
// inserts row by row, a COMMIT on every pass or an EXECUTE IMMEDIATE of a spliced INSERT exactly as they
// see them in application code. A routine called in a loop of the same file lends that loop to its
// statements (one level, as for host helper functions).
import type { DynamicSql, Span, Statement } from '../sql/ast';
import type { CodeModel, CommitCall, LoopInfo, SqlExecution } from './types';
import { valuesRowCount } from '../sql/grammar/values';

const API = 'sqlpl';

/** Executions lent to callers' loops stop being added past this many in a file. */
const MAX_EXECUTIONS = 100_000;

/** Schemas of the Db2 catalog and administrative views. */
const CATALOG_SCHEMAS = /^SYS(CAT|IBM|IBMADM|STAT|TOOLS|PROC|FUN)$/;

interface Context {
  loop?: LoopInfo;
  /** Inside an IF or CASE within the innermost loop (a COMMIT there may run every n rows). */
  guarded: boolean;
}

interface RoutineFacts {
  executions: SqlExecution[];
  commits: CommitCall[];
  /** CALLs made inside a loop: the callee's loop-free statements run once per pass. */
  calls: { name: string; loop: LoopInfo }[];
  /** Cursors ALLOCATEd for a called procedure's result set. */
  resultSetCursors?: Set<string>;
  /** Those of them ALLOCATEd after a CALL of a routine Db2 supplies (adminRoutine): its output, a few rows. */
  adminOutputCursors?: Set<string>;
  /** Whether the last CALL read was of such a routine (its result sets are the next ALLOCATEd). */
  lastCallAdmin?: boolean;
}

/** SYSPROC.ADMIN_CMD, ADMIN_MOVE_TABLE, SYSIBMADM...: routines Db2 supplies, whose output is a report. */
function adminRoutine(procedure: { schema?: string; name: string }): boolean {
  return (procedure.schema !== undefined && CATALOG_SCHEMAS.test(procedure.schema)) || procedure.name.startsWith('ADMIN_');
}

/**
 * The CodeModel of a script's routines, triggers aside, with `script` first: the script itself as one
 * execution (what rules read as a CLP script). Undefined when no routine or block runs anything.
 */
export function sqlplCodeModel(statements: readonly Statement[], script: () => SqlExecution, lineAt?: (offset: number) => number): CodeModel | undefined {
  // Most scripts hold neither: no maps and lists made per file for them.
  if (!statements.some((stmt) => stmt.kind === 'createRoutine' || stmt.kind === 'compound')) return undefined;
  const routines = new Map<string, RoutineFacts[]>();
  const all: RoutineFacts[] = [];
  // (An index loop: it runs over every statement of every script, and an iterator made an object per statement.)
  for (let i = 0; i < statements.length; i++) {
    const stmt = statements[i];
    if (stmt.kind !== 'createRoutine' && stmt.kind !== 'compound') continue;
    const facts: RoutineFacts = { executions: [], commits: [], calls: [] };
    const body = stmt.kind === 'createRoutine' ? stmt.body : stmt;
    if (body) readStatement(body, { guarded: false }, facts, new Map());
    all.push(facts);
    if (stmt.kind === 'createRoutine') {
      const list = routines.get(stmt.name.name) ?? [];
      list.push(facts);
      routines.set(stmt.name.name, list);
    }
  }
  const executions: SqlExecution[] = [];
  const commits: CommitCall[] = [];
  for (const facts of all) {
    executions.push(...facts.executions);
    commits.push(...facts.commits);
    for (const call of facts.calls) {
      // One level, and bounded: a generated file calling a routine in thousands of loops stays linear.
      if (executions.length > MAX_EXECUTIONS) break;
      for (const callee of routines.get(call.name) ?? []) {
        const loop: LoopInfo = { ...call.loop, via: call.name };
        for (const e of callee.executions) if (!e.loop) executions.push({ ...e, loop });
        for (const c of callee.commits) if (!c.loop) commits.push({ ...c, loop, guarded: false });
      }
    }
  }
  if (executions.length === 0 && commits.length === 0) return undefined;
  // The loops' lines, for messages ("the WHILE loop at line 143"), as the host front ends give them.
  if (lineAt) for (const { loop } of [...executions, ...commits]) if (loop && loop.line === undefined) loop.line = lineAt(loop.span.start);
  return { executions: [script(), ...executions], commits };
}

function fileSpan(stmt: Statement, span: Span = stmt.span): Span {
  return { start: stmt.origin.toFile(span.start), end: stmt.origin.toFile(span.end) };
}

function readStatements(statements: readonly Statement[], context: Context, facts: RoutineFacts, prepared: Map<string, SqlExecution>): void {
  for (const stmt of statements) readStatement(stmt, context, facts, prepared);
}

function readStatement(stmt: Statement, context: Context, facts: RoutineFacts, prepared: Map<string, SqlExecution>): void {
  switch (stmt.kind) {
    case 'insert':
    case 'merge':
    case 'update':
    case 'delete':
      // Static SQL is compiled with the routine: each run is an execute of a prepared statement.
      facts.executions.push(execution(stmt, context, 'executePrepared', [stmt], { textKind: 'constant', statements: [stmt], splices: [] }, !oneRowAtATime(stmt)));
      return;
    case 'commit':
      facts.commits.push(commit(stmt, context));
      return;
    case 'prepare': {
      const e = execution(stmt, context, 'prepare', stmt.text.statements, stmt.text, false);
      facts.executions.push(e);
      prepared.set(stmt.statementName, e);
      return;
    }
    case 'execute': {
      const prepare = prepared.get(stmt.statementName);
      const e = execution(stmt, context, 'executePrepared', prepare?.statements ?? [], undefined, false);
      if (prepare) {
        e.preparedAt = prepare.callSpan;
        e.textKind = prepare.textKind;
        e.batched = prepare.statements.length > 0 && !prepare.statements.some(oneRowAtATime);
      }
      facts.executions.push(e);
      return;
    }
    case 'executeImmediate':
      facts.executions.push(execution(stmt, context, 'executeDirect', stmt.text.statements, stmt.text, stmt.text.statements.length > 0 && !stmt.text.statements.some(oneRowAtATime)));
      return;
    case 'call':
      facts.lastCallAdmin = adminRoutine(stmt.procedure);
      if (!context.loop) return;
      // ADMIN_CMD('REORG …'), ADMIN_MOVE_TABLE …: a utility per pass, so a table (not a row) at a time.
      if (stmt.procedure.schema === 'SYSPROC' || stmt.procedure.name.startsWith('ADMIN_')) context.loop.chunked = true;
      facts.calls.push({ name: stmt.procedure.name, loop: context.loop });
      return;
    case 'loop': {
      const loop: LoopInfo = { span: fileSpan(stmt), kind: stmt.loop.toUpperCase() };
      if (stmt.query) loop.rowsFrom = { query: true };
      if (stmt.walksArray) loop.walksArray = true;
      if (stmt.queryChangesData) loop.noQueryToFold = true;
      // A loop over catalog rows (FOR t AS SELECT … FROM SYSCAT.TABLES) goes a table at a time.
      if (stmt.tables && stmt.tables.length > 0 && stmt.tables.every((t) => t.schema !== undefined && CATALOG_SCHEMAS.test(t.schema))) loop.chunked = true;
      const before = facts.executions.length;
      readStatements(stmt.body, { loop, guarded: false }, facts, prepared);
      // So does one whose pass inserts a set of rows (copy a month at a time) or runs SQL text it cannot know.
      for (let i = before; i < facts.executions.length; i++) {
        const e = facts.executions[i];
        if (e.loop !== loop || e.action === 'prepare') continue;
        if (e.statements.length === 0 && e.textKind !== 'constant') loop.chunked = true;
        if (e.batched && e.statements.some((s) => s.kind === 'insert' || s.kind === 'merge')) loop.chunked = true;
      }
      loop.rowsFrom ??= { madeUp: true };
      return;
    }
    case 'if':
    case 'case':
      for (const branch of stmt.branches) readStatements(branch.body, { loop: context.loop, guarded: context.guarded || context.loop !== undefined }, facts, prepared);
      return;
    case 'compound':
      readStatements(stmt.body, context, facts, prepared);
      return;
    case 'allocate':
      (facts.resultSetCursors ??= new Set()).add(stmt.cursor);
      if (facts.lastCallAdmin) (facts.adminOutputCursors ??= new Set()).add(stmt.cursor);
      return;
    case 'fetch':
      if (context.loop && !context.loop.rowsFrom) context.loop.rowsFrom = { cursor: stmt.cursor };
      if (context.loop && facts.resultSetCursors?.has(stmt.cursor)) context.loop.noQueryToFold = true;
      if (context.loop && facts.adminOutputCursors?.has(stmt.cursor)) context.loop.readsAdminOutput = true;
      return;
    case 'declareHandler':
      // A handler runs when its condition is raised, not on every pass of the loop around its declaration.
      if (stmt.action) readStatement(stmt.action, { guarded: false }, facts, prepared);
      return;
    default:
      return;
  }
}

/** An INSERT of one row per run (VALUES with one row): the shape that makes a loop row by row. */
function oneRowAtATime(stmt: Statement): boolean {
  return stmt.kind === 'insert' && stmt.source.kind === 'values' && valuesRowCount(stmt.source) === 1;
}

function execution(
  stmt: Statement,
  context: Context,
  action: SqlExecution['action'],
  statements: Statement[],
  text: DynamicSql | undefined,
  batched: boolean,
): SqlExecution {
  const e: SqlExecution = {
    callSpan: fileSpan(stmt),
    api: API,
    action,
    statements,
    textKind: text?.textKind ?? 'unknown',
    splicedValues: (text?.splices ?? []).map((s) => fileSpan(stmt, s)),
    batched,
  };
  if (context.loop) {
    e.loop = context.loop;
    if (context.guarded) e.guarded = true;
  }
  return e;
}

function commit(stmt: Statement, context: Context): CommitCall {
  const c: CommitCall = { callSpan: fileSpan(stmt), api: API, guarded: context.guarded };
  if (context.loop) c.loop = context.loop;
  return c;
}
