// SQL PL read like a host language: what the routines and blocks of a script run, and in which loops, in
// the CodeModel shape the Java or Python front ends produce. The loop rules then see a cursor loop that
// inserts row by row, a COMMIT on every pass or an EXECUTE IMMEDIATE of a spliced INSERT exactly as they
// see them in application code. A routine called in a loop of the same file lends that loop to its
// statements (one level, as for host helper functions).
import { fileSpanOf, type DeclaredLength, type DynamicSql, type LoopStatement, type Span, type Statement } from './ast';
import type { CodeModel, CommitCall, CursorOrigin, LoopInfo, SqlExecution } from '../code-model/types';
import { valuesRowCount } from './grammar/values';
import { forEachStatement } from './walk';
import { appendAll } from '../engine/append';
import { countText } from '../engine/count-text';
import { allCatalogTables, CATALOG_SCHEMAS } from './metadata-tables';

const API = 'sqlpl';

/** Executions lent to callers' loops stop being added past this many in a file. */
const MAX_EXECUTIONS = 100_000;

interface Context {
  loop?: LoopInfo;
  /** Inside an IF or CASE within the innermost loop (a COMMIT there may run every n rows). */
  guarded: boolean;
  /** In a handler's action, which runs each time its condition is raised. */
  handler?: boolean;
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
  /** The routine's parameters, by name in order (none for a block). */
  parameters: readonly string[];
  /**
   * Counting loops whose bound (WHILE count < size) or start (WHILE size > 0 … SET size = size - 1) is a parameter:
   * their passes follow from the CALL's argument at `index`.
   */
  parameterLoops: { loop: LoopInfo; index: number; passes: (argument: number) => number }[];
  /** Every routine it CALLs, in a loop or not. */
  calledNames: Set<string>;
  /** The routine's cursors by name, as their query is given (the fold of a loop that FETCHes one names it). */
  cursors?: Map<string, CursorOrigin>;
  /** FOR loops over one table's rows that do not delete them, outside other loops (LoopInfo.rowsOf.runs). */
  tableLoops?: LoopInfo[];
  /** The routine jumps (GOTO): a loop in it may run more than once per call. */
  jumps?: boolean;
  /**
   * WHILE and REPEAT loops counting a variable up (LoopStatement.counter) or down (.countdown), counted once the routine is read
   * (countLoops); `nested` in another loop or a handler's action.
   */
  counting?: { stmt: LoopStatement; loop: LoopInfo; nested: boolean }[];
  /** Declared string lengths by name (parameters, variables); null for a name also declared without one. */
  lengths?: Map<string, { length: DeclaredLength; parameter: boolean } | null>;
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
  // The script's own CALLs, each with the definition of its routine in force where it stands (the last before it).
  const scriptCalls: { stmt: Extract<Statement, { kind: 'call' }>; callee?: RoutineFacts }[] = [];
  // (An index loop: it runs over every statement of every script, and an iterator made an object per statement.)
  for (let i = 0; i < statements.length; i++) {
    const stmt = statements[i];
    if (stmt.kind === 'call') {
      const defined = routines.get(stmt.procedure.name);
      scriptCalls.push({ stmt, callee: defined?.[defined.length - 1] });
      continue;
    }
    if (stmt.kind !== 'createRoutine' && stmt.kind !== 'compound') continue;
    const facts: RoutineFacts = { executions: [], commits: [], calls: [], parameters: stmt.kind === 'createRoutine' ? stmt.parameters : [], parameterLoops: [], calledNames: new Set() };
    const body = stmt.kind === 'createRoutine' ? stmt.body : stmt;
    if (stmt.kind === 'createRoutine') stmt.parameters.forEach((name, i) => declareLength(facts, name, stmt.parameterLengths?.[i], true));
    if (body) readStatement(body, { guarded: false }, facts, new Map());
    if (body && facts.counting) countLoops(facts, body, stmt.kind === 'createRoutine', lineAt);
    // A block of the script runs once, where it stands: so does a loop over a table in it.
    if (stmt.kind === 'compound' && facts.tableLoops && !facts.jumps) for (const loop of facts.tableLoops) loop.rowsOf!.runs = 1;
    all.push(facts);
    if (stmt.kind === 'createRoutine') {
      const list = routines.get(stmt.name.name) ?? [];
      list.push(facts);
      routines.set(stmt.name.name, list);
    }
  }
  countCalledLoops(statements, all, scriptCalls, lineAt);
  // A bound per call says nothing of a routine that a loop or a trigger of the file calls (once per row).
  if (all.some((f) => f.counting)) {
    const perRow = triggerCalls(statements);
    for (const facts of all) for (const call of facts.calls) perRow.add(call.name);
    for (const [name, list] of routines) if (perRow.has(name)) for (const facts of list) for (const { loop } of facts.counting ?? []) delete loop.passesBound;
  }
  const executions: SqlExecution[] = [];
  const commits: CommitCall[] = [];
  for (const facts of all) {
    appendAll(executions, facts.executions);
    appendAll(commits, facts.commits);
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

/**
 * The passes of a routine's counting loop bounded by a parameter (WHILE count < size), when the script calls the
 * routine only with an integer literal there (CALL insertdata(1000)): the sum over those calls. Not known when a
 * routine (or a loop) of the file calls it too, or a call passes anything else: then it runs as often as that says.
 */
function countCalledLoops(statements: readonly Statement[], all: readonly RoutineFacts[], scriptCalls: readonly { stmt: Extract<Statement, { kind: 'call' }>; callee?: RoutineFacts }[], lineAt?: (offset: number) => number): void {
  let calledByTriggers: Set<string> | undefined;
  // The script's calls by routine, and the names any routine calls: made once (a file of thousands of routines,
  // each called by the script, filtered every call and every routine per routine: quadratic).
  const callsOf = new Map<RoutineFacts, { stmt: Extract<Statement, { kind: 'call' }> }[]>();
  for (const c of scriptCalls) {
    if (!c.callee) continue;
    const list = callsOf.get(c.callee);
    if (list) list.push(c);
    else callsOf.set(c.callee, [c]);
  }
  let calledByRoutines: Set<string> | undefined;
  for (const facts of all) {
    if (facts.parameterLoops.length === 0 && !facts.tableLoops) continue;
    const calls = callsOf.get(facts);
    if (!calls) continue;
    const name = calls[0].stmt.procedure.name;
    if ((calledByRoutines ??= new Set(all.flatMap((f) => [...f.calledNames]))).has(name)) continue;
    // A loop over a table runs once per CALL: not when a trigger of the file calls the routine too (per row of
    // its table), nor when the routine may jump back over the loop.
    if (facts.tableLoops && !facts.jumps && !(calledByTriggers ??= triggerCalls(statements)).has(name)) {
      for (const loop of facts.tableLoops) loop.rowsOf!.runs = calls.length;
    }
    // A count to a parameter is per call: not told when a trigger of the file calls the routine too (per row).
    if (facts.parameterLoops.length > 0 && (calledByTriggers ??= triggerCalls(statements)).has(name)) continue;
    for (const { loop, index, passes } of facts.parameterLoops) {
      const args = calls.map((c) => c.stmt.integerArguments?.[index]);
      if (args.some((a) => a === undefined)) continue;
      loop.passes = args.reduce<number>((sum, a) => sum + passes(a!), 0);
      loop.passesFrom = calls.map(({ stmt }) => {
        const written = `CALL ${stmt.procedure.name}(${stmt.integerArguments!.map((a) => a ?? '…').join(', ')})`;
        return lineAt ? `${written} at line ${lineAt(stmt.origin.toFile(stmt.span.start))}` : written;
      });
    }
  }
}

/** The routines the file's triggers CALL. */
function triggerCalls(statements: readonly Statement[]): Set<string> {
  const names = new Set<string>();
  for (const stmt of statements) {
    if (stmt.kind === 'createTrigger') {
      forEachStatement(stmt.body, (inner) => {
        if (inner.kind === 'call') names.add(inner.procedure.name);
      });
    }
  }
  return names;
}

/** Records the declared length of `name` (a parameter's or a variable's), null once a declaration of it has none. */
function declareLength(facts: RoutineFacts, name: string, length: DeclaredLength | undefined, parameter: boolean): void {
  const lengths = (facts.lengths ??= new Map());
  const known = lengths.get(name);
  if (known === null) return;
  if (!length) lengths.set(name, null);
  else if (!known || length.max > known.length.max) lengths.set(name, { length, parameter });
}

/** Statements whose text was kept as one (a body nested too deep): what they assign is not known. */
const UNREAD_BLOCKS = new Set(['BEGIN', 'IF', 'CASE', 'WHILE', 'FOR', 'LOOP', 'REPEAT']);

/**
 * The statements of `statements`, and of those within them (bodies, branches, handlers' actions), that may assign one
 * of `variables`, each given to `visit` with the variable and whether it sits in a handler's action: SETs and
 * DECLAREs of it, statements that write it otherwise (StatementBase.writes: INTO, CALL …), and any statement read
 * only in part (for every variable). One walk for all of a routine's counting variables (countLoops).
 */
function assignmentsOf(statements: readonly Statement[], variables: ReadonlySet<string>, visit: (variable: string, stmt: Statement, inHandler: boolean) => void, inHandler = false): void {
  for (const stmt of statements) {
    if (stmt.parseError || (stmt.kind === 'other' && UNREAD_BLOCKS.has(stmt.keyword))) {
      for (const variable of variables) visit(variable, stmt, inHandler);
      continue;
    }
    switch (stmt.kind) {
      case 'setVariable':
        for (const variable of variables) if (stmt.targets.includes(variable) || stmt.writes?.includes(variable)) visit(variable, stmt, inHandler);
        break;
      case 'declareVariable':
        for (const variable of variables) if (stmt.names.includes(variable)) visit(variable, stmt, inHandler);
        break;
      case 'loop':
      case 'compound':
        assignmentsOf(stmt.body, variables, visit, inHandler);
        break;
      case 'if':
      case 'case':
        for (const branch of stmt.branches) assignmentsOf(branch.body, variables, visit, inHandler);
        break;
      case 'declareHandler':
        if (stmt.action) assignmentsOf([stmt.action], variables, visit, true);
        break;
      default:
        if (stmt.writes) for (const variable of variables) if (stmt.writes.includes(variable)) visit(variable, stmt, inHandler);
    }
  }
}

/** Whether `statements` (and those within them) hold an ITERATE of `label`, which skips the rest of a pass. */
function iterates(statements: readonly Statement[], label: string): boolean {
  let found = false;
  forEachStatement(statements, (stmt) => {
    if (stmt.kind === 'jump' && stmt.jump === 'iterate' && stmt.label === label) found = true;
  });
  return found;
}

/** A counter's step: SET v = v + n (`up`) or v - n, n > 0, one target. */
function isStep(stmt: Statement, variable: string, up: boolean): boolean {
  return stmt.kind === 'setVariable' && stmt.targets.length === 1 && stmt.step?.variable === variable && (up ? stmt.step.by > 0 : stmt.step.by < 0) && !stmt.writes?.includes(variable);
}

/** Where a counting loop's variable starts (CounterStart): the value that leaves it the most passes, and whence. */
interface CounterStart {
  value: number;
  stmt: Statement;
  /** Set to LENGTH of a parameter or variable whose string type has a length (a count-down's start). */
  length?: { of: string; declared: DeclaredLength; parameter: boolean };
  /** Every start gives the same integer, and no step but the loop's own moves the variable: the passes are exact. */
  exact: boolean;
}

/**
 * The start of a variable that a loop counts up (`up`) or down, from `assignments`, every assignment of it in the
 * routine: undefined unless each is one of
 * - a start: DECLARE … DEFAULT n (or no DEFAULT: null, which ends the loop), SET v = n, or, counting down, SET v =
 *   LENGTH(x) for x a parameter or variable of a string type with a length (CLOB(100000): at most 100,000);
 * - a step the loop's way (SET v = v + n up, v - n down), which only leaves fewer passes: the loop's own, or another.
 * The variable must be declared in the routine. Of several starts, the one that leaves the most passes: the lowest
 * counting up, the highest counting down.
 */
function counterStart(facts: RoutineFacts, variable: string, assignments: readonly Statement[], up: boolean): CounterStart | undefined {
  let start: CounterStart | undefined;
  let declared = false;
  let differing = 0;
  let steps = 0;
  for (const assignment of assignments) {
    let value: number | undefined;
    let length: CounterStart['length'];
    if (assignment.kind === 'declareVariable') {
      declared = true;
      value = assignment.initial;
      // (No DEFAULT: null, which no comparison passes.)
      if (!assignment.defaulted) continue;
    } else if (isStep(assignment, variable, up)) {
      steps++;
      continue;
    } else if (assignment.kind === 'setVariable' && assignment.targets.length === 1 && assignment.value && !assignment.writes?.includes(variable)) {
      const given = assignment.value;
      if ('integer' in given) value = given.integer;
      else if (!up) {
        const of = facts.lengths?.get(given.lengthOf);
        if (of) {
          value = of.length.max;
          length = { of: given.lengthOf, declared: of.length, parameter: of.parameter };
        }
      }
    }
    if (value === undefined) return undefined;
    if (start && value !== start.value) differing++;
    if (!start || (up ? value < start.value : value > start.value)) start = { value, stmt: assignment, length, exact: false };
  }
  if (!declared || !start) return undefined;
  start.exact = differing === 0 && steps === 1;
  return start;
}

/**
 * The passes of the routine's WHILE loops that count a variable up (WHILE count < size … SET count = count + 1) or
 * down (WHILE len > 0 … SET len = len - 80), and of its REPEAT … UNTIL loops that do the same (REPEAT … SET count =
 * count + 1; UNTIL count >= size: at least one pass, Db2 testing UNTIL after each), from where the variable starts
 * (counterStart), when
 * - the loop's own step is the only assignment of the variable in its body, once on every pass (in the body itself,
 *   not in a branch), and no ITERATE of the loop skips it;
 * - no handler assigns the variable (one may run in the middle of the loop);
 * - the routine has no GOTO.
 * A parameter is counted only down (WHILE n > 0 … SET n = n - 1), from the argument of the script's CALLs
 * (countCalledLoops), when the loop's step is its only assignment and the loop is in no other loop or handler.
 * Counting up to an integer: passes, at most those from the lowest start (they decide only whether it is a bulk loop,
 * as for a counting loop in code). Up to one of the routine's parameters, that the routine never assigns: noted for
 * the script's CALLs (countCalledLoops, which tell the count), for a loop in no other loop or handler whose start is
 * exact. Counting down: at most what the highest start allows; a bound from a LENGTH is told in the message
 * (LoopInfo.passesBound) for a loop in no other loop or handler, a constant's is not. One walk over the routine
 * finds every assignment of all those variables and bounds (assignmentsOf).
 */
function countLoops(facts: RoutineFacts, root: Statement, routine: boolean, lineAt?: (offset: number) => number): void {
  if (facts.jumps) return;
  const names = new Set<string>();
  for (const { stmt } of facts.counting!) {
    names.add((stmt.counter ?? stmt.countdown)!.variable);
    if (typeof stmt.counter?.bound === 'string') names.add(stmt.counter.bound);
  }
  // Every assignment of those names in the routine, in one walk; the names a handler assigns.
  const assignments = new Map<string, Statement[]>();
  const byHandlers = new Set<string>();
  assignmentsOf([root], names, (variable, stmt, inHandler) => {
    const list = assignments.get(variable);
    if (list) list.push(stmt);
    else assignments.set(variable, [stmt]);
    if (inHandler) byHandlers.add(variable);
  });
  for (const { stmt, loop, nested } of facts.counting!) {
    const up = stmt.counter !== undefined;
    // REPEAT … UNTIL tests after each pass: its body runs once even when the count is already reached.
    const once = stmt.loop === 'repeat' ? 1 : 0;
    const variable = (stmt.counter ?? stmt.countdown)!.variable;
    if (stmt.walksArray || byHandlers.has(variable)) continue;
    const inBody: Statement[] = [];
    assignmentsOf(stmt.body, new Set([variable]), (_, s) => inBody.push(s));
    const step = inBody[0];
    if (inBody.length !== 1 || !isStep(step, variable, up) || !stmt.body.includes(step)) continue;
    const by = (step as Extract<Statement, { kind: 'setVariable' }>).step!.by;
    if (stmt.label !== undefined && iterates(stmt.body, stmt.label)) continue;
    const parameter = facts.parameters.indexOf(variable);
    if (parameter >= 0) {
      // Counting a parameter down (WHILE n > 0 … SET n = n - 1): the CALL's argument is the start, when nothing
      // but the loop's step assigns it and the loop runs once per call.
      const { inclusive, floor } = stmt.countdown ?? {};
      if (floor !== undefined && !nested && assignments.get(variable)?.length === 1) {
        facts.parameterLoops.push({ loop, index: parameter, passes: (argument) => Math.max(once, countDownPasses(argument, floor, inclusive!, -by)) });
      }
      continue;
    }
    const start = counterStart(facts, variable, assignments.get(variable) ?? [], up);
    if (!start) continue;
    if (stmt.counter) {
      const { bound, inclusive } = stmt.counter;
      const extra = inclusive ? 1 : 0;
      if (typeof bound === 'number') {
        loop.passes = Math.max(once, countUpPasses(start.value, bound, extra, by));
        continue;
      }
      // The CALL's argument is the bound: a parameter the routine never assigns (nor declares again), reached from
      // one start, once per call.
      const index = facts.parameters.indexOf(bound);
      if (index < 0 || assignments.has(bound) || !start.exact || nested) continue;
      const from = start.value;
      facts.parameterLoops.push({ loop, index, passes: (argument) => Math.max(once, countUpPasses(from, argument, extra, by)) });
      continue;
    }
    const { inclusive, floor } = stmt.countdown!;
    loop.passes = Math.max(once, countDownPasses(start.value, floor, inclusive, -by));
    loop.countsDown = true;
    if (start.length && !nested) {
      const { of, declared: type, parameter } = start.length;
      const at = lineAt ? ` at line ${lineAt(start.stmt.origin.toFile(start.stmt.span.start))}` : '';
      // As the loop says it: WHILE len > 0, or REPEAT … UNTIL len <= 0.
      const condition = once ? `until ${variable} ${inclusive ? '<' : '<='} ${floor}` : `while ${variable} ${inclusive ? '>=' : '>'} ${floor}`;
      const from = `${variable} is set to LENGTH(${of})${at}, at most ${countText(type.max)} (${parameter ? 'parameter' : 'variable'} ${of} is ${type.type}), and the loop takes ${countText(-by)} from it on every pass ${condition}`;
      loop.passesBound = { from, perCall: routine };
    }
  }
}

/** Passes of WHILE v < bound (`extra` 0) or v <= bound (`extra` 1) from `start`, v stepping up by `by` on each. */
function countUpPasses(start: number, bound: number, extra: number, by: number): number {
  return Math.max(0, Math.ceil((bound - start + extra) / by));
}

/** Passes of WHILE v >= floor (`inclusive`) or v > floor from `start`, v stepping down by `by` on each. */
function countDownPasses(start: number, floor: number, inclusive: boolean, by: number): number {
  const over = start - floor;
  return inclusive ? (over >= 0 ? Math.floor(over / by) + 1 : 0) : over > 0 ? Math.ceil(over / by) : 0;
}

function fileSpan(stmt: Statement, span: Span = stmt.span): Span {
  return fileSpanOf(stmt.origin, span);
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
    case 'declareVariable':
      for (const name of stmt.names) declareLength(facts, name, stmt.length, false);
      return;
    case 'call':
      facts.lastCallAdmin = adminRoutine(stmt.procedure);
      facts.calledNames.add(stmt.procedure.name);
      if (!context.loop) return;
      // ADMIN_CMD('REORG …'), ADMIN_MOVE_TABLE …: a utility per pass, so a table (not a row) at a time.
      if (stmt.procedure.schema === 'SYSPROC' || stmt.procedure.name.startsWith('ADMIN_')) context.loop.chunked = true;
      facts.calls.push({ name: stmt.procedure.name, loop: context.loop });
      return;
    case 'loop': {
      const loop: LoopInfo = { span: fileSpan(stmt), kind: stmt.loop.toUpperCase() };
      if (stmt.query) loop.rowsFrom = { query: true };
      if (stmt.rowsOf) {
        loop.rowsOf = { table: stmt.rowsOf.table, at: stmt, deletes: stmt.rowsOf.deletes };
        if (!stmt.rowsOf.deletes && !context.loop && !context.handler) (facts.tableLoops ??= []).push(loop);
      }
      if (stmt.walksArray) loop.walksArray = true;
      if (stmt.queryChangesData) loop.noQueryToFold = true;
      // A loop over catalog rows (FOR t AS SELECT … FROM SYSCAT.TABLES) goes a table at a time.
      if (stmt.tables && allCatalogTables(stmt.tables)) loop.chunked = true;
      const before = facts.executions.length;
      readStatements(stmt.body, { loop, guarded: false }, facts, prepared);
      if (stmt.counter || stmt.countdown) (facts.counting ??= []).push({ stmt, loop, nested: context.loop !== undefined || context.handler === true });
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
      for (const branch of stmt.branches) readStatements(branch.body, { loop: context.loop, guarded: context.guarded || context.loop !== undefined, handler: context.handler }, facts, prepared);
      return;
    case 'compound':
      readStatements(stmt.body, context, facts, prepared);
      return;
    case 'allocate':
      (facts.resultSetCursors ??= new Set()).add(stmt.cursor);
      if (facts.lastCallAdmin) (facts.adminOutputCursors ??= new Set()).add(stmt.cursor);
      return;
    case 'declareCursor':
      (facts.cursors ??= new Map()).set(stmt.cursor, stmt.statementName ? { prepared: stmt.statementName } : { declare: true });
      return;
    case 'setVariable':
      if (stmt.cursorTables) for (const target of stmt.targets) (facts.cursors ??= new Map()).set(target, { set: true });
      return;
    case 'fetch':
      if (context.loop && !context.loop.rowsFrom) {
        const declared = facts.cursors?.get(stmt.cursor);
        context.loop.rowsFrom = declared ? { cursor: stmt.cursor, declared } : { cursor: stmt.cursor };
      }
      if (context.loop && facts.resultSetCursors?.has(stmt.cursor)) context.loop.noQueryToFold = true;
      if (context.loop && facts.adminOutputCursors?.has(stmt.cursor)) context.loop.readsAdminOutput = true;
      return;
    case 'jump':
      if (stmt.jump === 'goto') facts.jumps = true;
      return;
    case 'declareHandler':
      // A handler runs when its condition is raised, not on every pass of the loop around its declaration.
      if (stmt.action) readStatement(stmt.action, { guarded: false, handler: true }, facts, prepared);
      return;
    case 'other':
      // SELECT … INTO on a pass: a lookup per row, which the loop's one INSERT … SELECT makes a join.
      if (context.loop && stmt.keyword === 'SELECT') context.loop.looksUpPerRow = true;
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
