// One row per INSERT call: an execute per row inside a loop in code, or a long run of single-row
// INSERT statements in a script, where batches, arrays or multi-row VALUES send many rows per call.
import type { FileModel, Rule } from '../server/src/engine/types';
import type { SqlExecution } from '../server/src/code/types';
import { IDENTITY_ORIGIN, type InsertStatement, type Span } from '../server/src/sql/ast';
import { displayKey } from '../server/src/schema/schema';
import { batchAdvice, perRowCallee, isBulkLoop, isLiteralValues, isSingleRowValues, loopName, runsRows, sameLoop, scriptUnits, singleRowInsertOf, targetName } from '../server/src/code/facts';
import { countText, runReportOf } from './support/runs';
import { writesSeedRows } from './support/targets';
import { firstRowSpan } from '../server/src/sql/grammar/values';

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
        'One INSERT INTO {table} call per row in the {loop}.{more} Each row pays a round trip and the per-statement work: Db2 INSERT tips measured 10,000 rows at 92.1 s one row per call against 12.9 s with 10 rows per call, each call committed (tests 2-3); committing every 1000 rows, one row per call took 7.6 s (test 68) and arrays of 10 or 1000 rows about 3.0 s and 2.3 s per 10,000 rows (tests 71, 74). Instead, {advice}.',
      calledLoop:
        'One {insert} call per row in the {loop}. {runner}() runs it with {runs} at {at}, once per call{unknown}.{more} Each row pays a round trip and the per-statement work: Db2 INSERT tips measured 10,000 rows at 92.1 s one row per call against 12.9 s with 10 rows per call, each call committed (tests 2-3); committing every 1000 rows, one row per call took 7.6 s (test 68) and arrays of 10 or 1000 rows about 3.0 s and 2.3 s per 10,000 rows (tests 71, 74). Instead, {advice}.',
      batchOfOne:
        'executeBatch after every addBatch in the {loop}: each batch of INSERT INTO {table} holds one row. Batching then saves nothing (Db2 INSERT tips, tests 2-3: 92.1 s for 10,000 rows one per call vs 12.9 s with 10 per call). Call executeBatch when a counter reaches the batch size (if (++n % 1000 == 0)) and once after the loop.',
      routineLoop:
        'One single-row INSERT INTO {table} on every pass of the {loop}: the routine runs the statement once per row.{more} Db2 INSERT tips filled 100,000 rows with one INSERT … SELECT in 15.7 s (test 6); one row per INSERT took 7.6 s per 10,000 rows even prepared and committed every 1000 (test 68, from a client: a routine saves the round trip, not the per-statement work). Replace the loop with one INSERT … SELECT over the query it reads (the FOR loop\'s SELECT, or the cursor it fetches from); rows the loop makes up itself (a counter, literal values) come from a recursive common table expression as well.',
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
      // The single-row INSERTs of one loop into one table are one finding, on the first (a data generator that
      // writes five rows per pass is one loop to rewrite, not five findings).
      const byLoopAndTable = new Map<string, { execution: SqlExecution; insert: InsertStatement | undefined; count: number }>();
      for (const execution of executions) {
        if (!isBulkLoop(execution.loop) || execution.batched || !runsRows(execution)) continue;
        // Rows fetched from a called procedure's result set, or from a query that changes data, cannot be read by
        // one INSERT … SELECT: nothing to fold.
        if (execution.loop.noQueryToFold) continue;
        // A call of another file's function that runs a single-row INSERT per call (engine/called-inserts.ts).
        const called = execution.callsInsert;
        const insert = called ? called.insert : singleRowInsertOf(execution);
        if (!insert && !called) continue;
        const key = `${execution.loop.span.start}:${execution.loop.via ?? ''}:${insert ? schema.keyOf(insert.target, insert) : ''}`;
        const seen = byLoopAndTable.get(key);
        if (seen) seen.count++;
        else byLoopAndTable.set(key, { execution, insert, count: 1 });
      }
      for (const { execution, insert, count } of byLoopAndTable.values()) {
        const sqlpl = execution.api === 'sqlpl';
        const more = count === 1 ? '' : sqlpl ? ` Its body holds ${count} such INSERTs into it: ${count} statements, one row each, on every pass.` : ` The loop makes ${count} such calls into it.`;
        const called = execution.callsInsert;
        if (called) {
          const via = execution.loop!.via ?? '';
          report({
            messageId: 'calledLoop',
            data: {
              insert: insert ? `INSERT INTO ${targetName(undefined, insert, schema)}` : 'INSERT',
              loop: loopName(execution.loop!),
              runner: /\(\)$/.test(via) ? via.slice(via.lastIndexOf(' ') + 1, -2) : via,
              runs: called.runs,
              at: `${called.file}:${called.line}`,
              unknown: called.byName ? ' (its SQL text is prepared elsewhere; the function is named for an INSERT)' : '',
              advice: batchAdvice(execution.api, file.dialect) + perCallNote(execution),
              more,
            },
            span: execution.callSpan,
          });
          continue;
        }
        if (!insert) continue;
        report({ messageId: sqlpl ? 'routineLoop' : 'loop', data: { table: targetName(execution, insert, schema), loop: loopName(execution.loop!), advice: batchAdvice(execution.api, file.dialect) + perCallNote(execution), more }, span: execution.callSpan });
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

/**
 * A test of whether a span overlaps one of the comments (in text order, as the lexer gives them): a binary
 * search per span, where trying every comment for every edit was quadratic on long commented runs.
 */
function overlapsComment(comments: readonly { span: Span }[]): (edit: { span: Span }) => boolean {
  return ({ span }) => {
    let low = 0;
    let high = comments.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (comments[mid].span.end <= span.start) low = mid + 1;
      else high = mid;
    }
    return low < comments.length && comments[low].span.start < span.end;
  };
}

export default SingleRowInsertRule;
