// One row per INSERT call: an execute per row inside a loop in code, or a long run of single-row
// INSERT statements in a script, where batches, arrays or multi-row VALUES send many rows per call.
import type { FileModel, Rule, Severity } from '../server/src/engine/types';
import type { CursorOrigin, LoopInfo, SqlExecution } from '../server/src/code-model/types';
import { IDENTITY_ORIGIN, type InsertStatement, type Span } from '../server/src/sql/ast';
import { displayKey } from '../server/src/schema/schema';
import { batchAdvice, perRowCallee, isBulkLoop, isLiteralValues, isRowAtATimeInsert, isSingleRowValues, loopName, rowAtATimeLoopKey, runsOnEveryPass, sameLoop, scriptUnits, sharedPathLoop, singleRowInsertOf, targetName } from '../server/src/code-model/facts';
import { countText, runReportOf } from './support/runs';
import { estimateText, scaledCost } from './support/known-volume';
import { ROW_AT_A_TIME_EXTRA_PER_100K } from './support/measurements';
import { andList } from '../server/src/engine/merge';
import { writesSeedRows } from './support/targets';
import { firstRowSpan } from '../server/src/sql/grammar/values';
import { partitionPoint } from '../server/src/engine/sorted';

/**
 * A loop lent through a function the loop calls once per row (buy() in DayTrader's populate loop): the INSERT's own
 * function sees one row per call, so a batch cannot be built inside it. Said, so that the advice is one a reader
 * can follow (perRowCallee: not for COBOL PERFORM chains).
 */
function perCallNote(execution: SqlExecution): string {
  const first = perRowCallee(execution.loop);
  if (!first || execution.api === 'esql' || execution.api === 'sqlj') return '';
  const kind = execution.api === 'jdbc' || execution.api === 'spring' ? 'method' : 'function';
  return `, in a ${kind} that receives the rows together (a list): the loop calls ${first}() once per row, and each call can only send its own`;
}

/**
 * A routine loop whose passes are known (WHILE count < size, and the script calls the routine with size 1000), or
 * bounded by a string's declared length (WHILE len > 0 counting down from LENGTH of a CLOB(100000) parameter): the
 * rows its single-row INSERTs make, at most for a bound, and what they cost beyond one INSERT … SELECT at Db2 INSERT
 * tips' rates (tests 68 and 6). Capped as the per-row rules' known volumes are (rules/support/known-volume.ts: a hint
 * under a second, information under ten).
 */
function loopVolume(loop: LoopInfo, inserts: number): { sentence: string; maxSeverity?: Severity } {
  // (A loop counted to an integer of its own says no more than a counting loop in code does.)
  if (loop.passes === undefined || (!loop.passesFrom && !loop.passesBound)) return { sentence: '' };
  const rows = loop.passes * inserts;
  const cost = scaledCost(rows, ROW_AT_A_TIME_EXTRA_PER_100K);
  if (loop.passesBound) {
    const { from, perCall } = loop.passesBound;
    const passes = `at most ${countText(loop.passes)} pass${loop.passes === 1 ? '' : 'es'}${perCall ? ' per call' : ''}`;
    const sentence = ` ${from}: ${passes}, up to ${countText(rows)} row${rows === 1 ? '' : 's'}, at most ${estimateText(cost.seconds)} more than one INSERT … SELECT at Db2 INSERT tips' rates (tests 68 and 6).`;
    return { sentence, maxSeverity: cost.cap };
  }
  const passesFrom = loop.passesFrom!;
  const passes = `${countText(loop.passes)} pass${loop.passes === 1 ? '' : 'es'}`;
  const runs = `The script's ${andList(passesFrom)} make${passesFrom.length === 1 ? 's' : ''} ${passes}`;
  const sentence = ` ${runs}: ${countText(rows)} row${rows === 1 ? '' : 's'}, ${estimateText(cost.seconds)} more than one INSERT … SELECT at Db2 INSERT tips' rates (tests 68 and 6).`;
  return { sentence, maxSeverity: cost.cap };
}

/** The loop message's figures: one row per call against several, each call committed (tests 2-3), and at a commit every 1000 rows (68, 71, 74). */
const FIGURES =
  'Db2 INSERT tips measured 10,000 rows at 92.1 s one row per call against 12.9 s with 10 rows per call, each call committed (tests 2-3); committing every 1000 rows, one row per call took 7.6 s (test 68) and arrays of 10 or 1000 rows about 3.0 s and 2.3 s per 10,000 rows (tests 71, 74).';

/**
 * For a loop that calls another file's function: its file shows neither the connection nor its commits, so one pair,
 * both committed every 1000 rows, one row per call against arrays (what the advice asks for).
 */
const CALLED_FIGURES = 'committing every 1000 rows, Db2 INSERT tips measured 7.6 s per 10,000 rows one row per call (test 68) against 2.3 s in arrays of 1000 (test 74).';

/**
 * CLI array input in the function that was handed the loop's rows (LoopInfo.receives: db2ExecForeignBatchInsert() and
 * its *numSlots): bind the arrays there, sized by that count. Undefined for other loops and drivers.
 */
function receivedArrayAdvice(api: string, loop: LoopInfo | undefined, runs: string): string | undefined {
  const received = loop?.receives;
  if (!received || api !== 'cli') return undefined;
  return `in ${received.fn}(), which receives the rows together, bind column arrays of them, set SQL_ATTR_PARAMSET_SIZE to ${received.count} and run one ${runs} for the batch (Db2 CLI array input)`;
}

/**
 * An ORM insert sent one row per pass by a query of its session that autoflushes it on every pass (SQLAlchemy's
 * autoflush, Hibernate's FlushMode AUTO: SqlExecution.autoflushedBy): which call, and why the rows do not wait for the
 * flush after the loop.
 */
function autoflushNote(execution: SqlExecution): string {
  const query = execution.autoflushedBy;
  if (!query) return '';
  if (execution.api !== 'sqlalchemy') return ` ${query} runs on every pass, and with the default FlushMode AUTO Hibernate first flushes the persisted entities the query reads: the entity persisted on one pass goes to Db2 as an INSERT of its own at the next pass's query.`;
  if (/\.merge\(\)$/.test(query)) return ` ${query} runs on every pass and first flushes the session, to look its object up (SQLAlchemy's autoflush): what one pass added or merged goes to Db2 as an INSERT of its own at the next pass's merge.`;
  return ` ${query} runs on every pass, and a query first flushes what was added to its session (SQLAlchemy's autoflush): the object added on one pass goes to Db2 as an INSERT of its own at the next pass's query.`;
}

/**
 * A Django get_or_create / update_or_create (SqlExecution.queriesFirst): a query on every pass before any INSERT, and
 * the INSERT only for a row it does not find.
 */
function queriesFirstNote(execution: SqlExecution): string {
  const call = execution.queriesFirst;
  if (!call) return '';
  return ` ${call} first queries for the row: one SELECT per row${/update_or_create\(\)$/.test(call) ? ' (FOR UPDATE, then an UPDATE of a row it finds)' : ''}, and an INSERT for every row it does not find.`;
}

/** The CLI call an execution runs its rows with. */
function cliRunName(execution: SqlExecution): string {
  return execution.action === 'executeDirect' ? 'SQLExecDirect' : 'SQLExecute';
}

const SingleRowInsertRule: Rule = {
  meta: {
    id: 'single-row-insert',
    description: 'INSERTs that send one row per call where a batch, array or multi-row VALUES would send many',
    defaultSeverity: 'warning',
    reads: { statements: ['insert'], code: true },
    group: 'row-at-a-time',
    evidence: ['Db2 INSERT tips, test 2', 'Db2 INSERT tips, test 3', 'Db2 INSERT tips, tests 69-78'],
    defaultOptions: { minRun: 3 },
    fixable: true,
    messages: {
      loop:
        '{calls} per row in the {loop}.{more} Each row pays a round trip and the per-statement work: {figures} Instead, {advice}.',
      batchOfOne:
        'executeBatch after every addBatch in the {loop}: each batch of INSERT INTO {table} holds one row. Batching then saves nothing (Db2 INSERT tips, tests 2-3: 92.1 s for 10,000 rows one per call vs 12.9 s with 10 per call). Call executeBatch when a counter reaches the batch size (if (++n % 1000 == 0)) and once after the loop.',
      routineLoop:
        '{inserts} on every pass of the {loop}: the routine runs {them} once per row.{more}{volume} Db2 INSERT tips filled 100,000 rows with one INSERT … SELECT in 15.7 s (test 6); one row per INSERT took 7.6 s for 10,000 rows, about 76 s per 100,000 at that rate, even prepared and committed every 1000 (test 68, from a client: a routine saves the round trip, not the per-statement work). {fold}',
      script:
        'Single-row INSERTs into {table}: {count} in a row ({runLines}), one statement and one round trip per row. Combine such runs into multi-row VALUES lists (Db2 INSERT tips, tests 2-3: 92.1 s for 10,000 rows one per call vs 12.9 s with 10 rows per call), or IMPORT/LOAD the data.',
    },
  },
  check({ file, schema, options, report }) {
    if (file.code) {
      const executions = file.code.executions;
      for (const execution of executions) {
        // addBatch then executeBatch on every pass: a batch of one row.
        if (execution.action === 'executeBatch' && isBulkLoop(execution.loop) && !execution.guarded && singleRowInsertOf(execution) !== undefined) {
          const loop = execution.loop;
          const fills = executions.some((e) => e.action === 'addBatch' && sameLoop(e.loop, loop) && e.preparedAt && e.preparedAt.start === execution.preparedAt?.start);
          if (fills) report({ messageId: 'batchOfOne', data: { loop: loopName(loop), table: targetName(execution, singleRowInsertOf(execution)!, schema) }, span: execution.callSpan });
        }
      }
      // The single-row INSERTs of one loop are one finding, on the first, into one table or several (a data
      // generator that writes five rows per pass, DayTrader's register() an account and its profile, is one loop
      // to rewrite, not five findings).
      const byLoop = new Map<string, LoopInserts>();
      // Calls of another file's function that runs a single-row INSERT per call (engine/called-inserts.ts).
      const called = new Map<string, { execution: SqlExecution; count: number }>();
      for (const execution of executions) {
        if (execution.callsInsert) {
          if (!runsOnEveryPass(execution)) continue;
          const insert = execution.callsInsert.insert;
          const key = `${rowAtATimeLoopKey(execution.loop)}:${insert ? schema.keyOf(insert.target, insert) : ''}`;
          const seen = called.get(key);
          if (seen) seen.count++;
          else called.set(key, { execution, count: 1 });
          continue;
        }
        // (Not rows fetched from a called procedure's result set: one INSERT … SELECT cannot read them.)
        if (!isRowAtATimeInsert(execution)) continue;
        const insert = singleRowInsertOf(execution)!;
        const key = rowAtATimeLoopKey(execution.loop);
        const group = byLoop.get(key) ?? { first: execution, last: execution, calls: 0, tables: new Map<string, string>(), loops: [] };
        if (group.calls === 0) byLoop.set(key, group);
        group.calls++;
        group.last = execution;
        group.loops.push(execution.loop);
        const table = schema.keyOf(insert.target, insert);
        if (!group.tables.has(table)) group.tables.set(table, targetName(execution, insert, schema));
      }
      for (const { first, last, calls, tables, loops } of byLoop.values()) {
        const loop = sharedPathLoop(loops);
        const sqlpl = first.api === 'sqlpl';
        const names = andList([...tables.values()]);
        const several = tables.size > 1;
        const into = several ? `, into ${tables.size} tables` : ' into it';
        // "One INSERT call into each of A and B" says it all when there is one per table.
        const more = (calls === tables.size && (several || calls === 1) ? '' : sqlpl ? ` Its body holds ${calls} such INSERTs${into}: ${calls} statements, one row each, on every pass.` : ` The loop makes ${calls} such calls${into}.`) + autoflushNote(first) + queriesFirstNote(first);
        const volume = sqlpl ? loopVolume(loop, calls) : { sentence: '' };
        const data = {
          calls: several ? `One INSERT call into each of ${names}` : `One INSERT INTO ${names} call`,
          inserts: several ? `A single-row INSERT into each of ${names}` : `One single-row INSERT INTO ${names}`,
          them: several ? 'each' : 'the statement',
          loop: loopName(loop),
          advice: receivedArrayAdvice(first.api, loop, cliRunName(first)) ?? batchAdvice(first.api, file.dialect, first) + perCallNote(first),
          figures: FIGURES,
          more,
          fold: sqlpl ? routineFold(loop) : '',
          volume: volume.sentence,
        };
        const extent = last !== first ? { extent: { first: { span: first.callSpan }, last: { span: last.callSpan } } } : {};
        // A host-code edit where the front end found a mechanical one (pyodbc: fast_executemany), for a loop of one call.
        const fix = calls === 1 ? first.hostFix : undefined;
        report({ messageId: sqlpl ? 'routineLoop' : 'loop', data, span: first.callSpan, maxSeverity: volume.maxSeverity, ...extent, ...(fix ? { fix } : {}) });
      }
      for (const { execution, count } of called.values()) {
        const call = execution.callsInsert!;
        const via = execution.loop!.via ?? '';
        const runner = /\(\)$/.test(via) ? via.slice(via.lastIndexOf(' ') + 1, -2) : via;
        // Where its statement is prepared, when the engine found it (db2_fdw: db2PrepareQuery()).
        const prepared = call.prepared;
        const where = prepared ? `, on the statement ${prepared.fn ? `${prepared.fn}() prepares` : 'prepared'} (${prepared.runs}${prepared.handle ? ` of ${prepared.handle}` : ''} at ${prepared.file}:${prepared.line})` : '';
        // The loop message, with the function of the other file that runs the INSERT said after the loop.
        report({
          messageId: 'loop',
          data: {
            calls: `One ${call.insert ? `INSERT INTO ${targetName(undefined, call.insert, schema)}` : 'INSERT'} call`,
            loop: loopName(execution.loop!),
            advice: receivedArrayAdvice(execution.api, execution.loop, call.runs) ?? batchAdvice(execution.api, file.dialect) + perCallNote(execution),
            figures: CALLED_FIGURES,
            more: ` ${runner}() runs it with ${call.runs} at ${call.file}:${call.line}, once per call${where}.${count === 1 ? '' : ` The loop makes ${count} such calls into it.`}`,
          },
          span: execution.callSpan,
        });
      }
    }
    const minRun = Number(options.minRun);
    for (const unit of scriptUnits(file)) {
      let run: InsertStatement[] = [];
      let key = '';
      let commitInRun = false; // between two INSERTs of the run
      let commitAfterRun = false; // after its last INSERT so far
      // One finding per run, on its minRun-th INSERT, extending over the whole run (see rules/support/runs.ts).
      const flush = () => {
        if (run.length >= minRun) {
          // The quick fix combines the whole run (an edit per INSERT: worked out only where fixes are shown).
          const rows = run;
          const fix = commitInRun ? undefined : () => multiRowFix(file, rows);
          report({ messageId: 'script', data: { count: countText(run.length), table: displayKey(key) }, ...runReportOf(run, minRun, placeOf), fix });
        }
        run = [];
        commitInRun = false;
        commitAfterRun = false;
      };
      const statements = unit.statements;
      // (An index loop: an iterator's result object per statement was garbage on every pass over a script.)
      for (let i = 0; i < statements.length; i++) {
        const stmt = statements[i];
        if (stmt.kind === 'commit') {
          commitAfterRun ||= run.length > 0;
          continue;
        }
        if (!isSingleRowValues(stmt) || writesSeedRows(schema, stmt)) {
          flush();
          continue;
        }
        const k = schema.keyOf(stmt.target, stmt);
        if (k !== key) flush();
        key = k;
        // A COMMIT between two INSERTs of the run: combining the rows would drop it, so no fix.
        commitInRun ||= commitAfterRun;
        commitAfterRun = false;
        run.push(stmt);
      }
      flush();
    }
  },
  // A run of a script ends at any statement that is neither a single-row INSERT nor a COMMIT (flush above).
  endsRun: (stmt) => stmt.kind !== 'commit' && !isSingleRowValues(stmt),
};

/**
 * One INSERT with a multi-row VALUES list for a run of literal single-row INSERTs in a SQL script: the text
 * between one row and the next (terminator, INSERT INTO … VALUES) becomes a comma. Offered only when that
 * loses nothing: the same column list, no COMMIT and no comment in between, statements read as written
 * (not from a code string). The rows then succeed or fail together: a change of meaning, so never "Fix all".
 */
function multiRowFix(file: FileModel, run: InsertStatement[]) {
  // (A SELECT … FROM FINAL TABLE (INSERT …) hands its row back: combined, the caller would get several.)
  if (file.code || run.some((s) => s.origin !== IDENTITY_ORIGIN || s.parseError || s.returnsRows || !isLiteralValues(s))) return undefined;
  const columns = run[0].columns;
  if (run.some((s) => !sameNames(s.columns, columns))) return undefined;
  // (Each row's span read once, without building the statement's rows: a packed row makes new objects on every read.)
  const rowOf = (s: InsertStatement) => (s.source.kind === 'values' ? firstRowSpan(s.source) : s.span);
  const edits: { span: Span; newText: string }[] = [];
  let previous = rowOf(run[0]);
  for (let i = 1; i < run.length; i++) {
    const row = rowOf(run[i]);
    edits.push({ span: { start: previous.end, end: row.start }, newText: ',\n  ' });
    previous = row;
  }
  if (edits.some(overlapsComment(file.comments))) return undefined;
  return { title: `Combine the ${run.length} INSERTs into one multi-row VALUES list`, edits, changesMeaning: true };
}

/** The same column list (compared without joining each statement's names into a string). */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const placeOf = (stmt: InsertStatement) => ({ span: stmt.span, stmt });

/** The one-row-per-pass INSERT calls of one loop: the first and last, how many, and the tables they fill (key, name). */
interface LoopInserts {
  first: SqlExecution;
  last: SqlExecution;
  calls: number;
  tables: Map<string, string>;
  /** The loop as each call sees it (the same loop, through its own calls: LoopInfo.via). */
  loops: LoopInfo[];
}

/** Where the query of a routine's cursor is written, for the fold's advice. */
function cursorQuery(declared: CursorOrigin | undefined): string {
  if (!declared) return 'as it is declared or SET';
  if ('prepared' in declared) return `the text PREPAREd as ${declared.prepared}, written out as SQL`;
  return 'set' in declared ? 'its SET … = CURSOR FOR' : 'its DECLARE … CURSOR FOR';
}

/** How a routine's row-by-row loop folds into one INSERT … SELECT, by where its rows come from (LoopInfo.rowsFrom). */
function routineFold(loop: LoopInfo): string {
  const from = loop.rowsFrom;
  const lookups = loop.looksUpPerRow ? ', and what it looks up per row (SELECT … INTO) joined in' : '';
  if (from && 'query' in from) return `Replace the loop with one INSERT … SELECT over the FOR loop's query, with the values the body computes written as expressions of its columns${lookups}.`;
  if (from && 'cursor' in from) return `Replace the loop with one INSERT … SELECT over the query of cursor ${from.cursor} (${cursorQuery(from.declared)}), with the values the body computes written as expressions of its columns${lookups}.`;
  // A WHILE counted up to a known bound (LoopInfo.passes): the counter is the recursive table's own. (One counting
  // down, a string split into rows, has no `i < bound` to copy: the general advice below.)
  if (loop.passes !== undefined && !loop.countsDown) return `The loop is a counter that makes each row itself: make the rows in one INSERT … SELECT from a recursive common table expression that counts the same way (WITH n (i) AS (VALUES 1 UNION ALL SELECT i + 1 FROM n WHERE i < bound), bound being the loop's), the values the body computes written as expressions of i.`;
  return 'The loop makes its rows itself (a counter, a string it splits, values it computes): make them in one INSERT … SELECT instead, from a recursive common table expression (WITH n (i) AS (VALUES 1 UNION ALL SELECT i + 1 FROM n WHERE i < …)), or list literal rows in one multi-row VALUES.';
}

/**
 * A test of whether a span overlaps one of the comments (in text order, as the lexer gives them): a binary
 * search per span, where trying every comment for every edit was quadratic on long commented runs.
 */
function overlapsComment(comments: readonly { span: Span }[]): (edit: { span: Span }) => boolean {
  return ({ span }) => {
    const first = partitionPoint(comments, (c) => c.span.end <= span.start);
    return first < comments.length && comments[first].span.start < span.end;
  };
}

export default SingleRowInsertRule;
