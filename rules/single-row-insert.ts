// One row per INSERT call: an execute per row inside a loop in code, or a long run of single-row
// INSERT statements in a script, where batches, arrays or multi-row VALUES send many rows per call.
import type { Rule } from '../server/src/engine/types';
import type { InsertStatement } from '../server/src/sql/ast';
import { displayKey } from '../server/src/schema/schema';
import { batchAdvice, insertsOf, isSingleRowValues, loopName, runsRows, sameLoop, scriptUnits } from '../server/src/code/facts';

const SingleRowInsertRule: Rule = {
  meta: {
    id: 'single-row-insert',
    description: 'INSERTs that send one row per call where a batch, array or multi-row VALUES would send many',
    defaultSeverity: 'warning',
    evidence: ['000 test 2', '000 test 3', '000 tests 69-78'],
    defaultOptions: { minRun: 3 },
    messages: {
      loop:
        'One INSERT call per row inside this {loop} loop: each row pays a round trip and the per-statement work. Seed 000 measured 10,000 rows at 92.1 s one row per call vs 12.9 s with 10 rows per call (tests 2-3); with a commit every 1000 rows, arrays of 1000 rows cut the time about 2.5x against one row per call (tests 68, 71-78). Instead, {advice}.',
      batchOfOne:
        'executeBatch runs on every pass of this {loop} loop, right after addBatch: each batch holds one row, so batching saves nothing (seed 000: 92.1 s for 10,000 rows one per call vs 12.9 s with 10 per call, tests 2-3). Call executeBatch when a counter reaches the batch size (if (++n % 1000 == 0)) and once after the loop.',
      routineLoop:
        'One single-row INSERT on every pass of this {loop} loop: the routine runs the statement once per row. Seed 000 filled 100,000 rows with one INSERT … SELECT in 15.7 s (test 6); one row per INSERT took 7.6 s per 10,000 rows even prepared and committed every 1000 (test 68, from a client: a routine saves the round trip, not the per-statement work). Replace the loop with one INSERT … SELECT over the query it reads (the FOR loop\'s SELECT, or the cursor it fetches from).',
      script:
        '{count} consecutive single-row INSERTs into {table}: each is a separate statement with its own round trip. Combine them into multi-row VALUES lists (seed 000: 92.1 s for 10,000 rows one per call vs 12.9 s with 10 rows per call, tests 2-3), or IMPORT/LOAD the data.',
    },
  },
  check({ file, schema, options, report }) {
    if (file.code) {
      const executions = file.code.executions;
      for (const execution of executions) {
        // addBatch then executeBatch on every pass: a batch of one row.
        if (execution.action === 'executeBatch' && execution.loop && !execution.guarded && insertsOf(execution).some(isSingleRowValues)) {
          const loop = execution.loop;
          const fills = executions.some((e) => e.action === 'addBatch' && sameLoop(e.loop, loop) && e.preparedAt && e.preparedAt.start === execution.preparedAt?.start);
          if (fills) report({ messageId: 'batchOfOne', data: { loop: loopName(loop) }, span: execution.callSpan });
        }
      }
      for (const execution of executions) {
        if (!execution.loop || execution.loop.chunked || execution.batched || !runsRows(execution)) continue;
        if (!insertsOf(execution).some(isSingleRowValues)) continue;
        const messageId = execution.api === 'sqlpl' ? 'routineLoop' : 'loop';
        report({ messageId, data: { loop: loopName(execution.loop), advice: batchAdvice(execution.api) }, span: execution.callSpan });
      }
    }
    const minRun = Number(options.minRun);
    for (const unit of scriptUnits(file)) {
      let run: InsertStatement[] = [];
      let key = '';
      const flush = () => {
        if (run.length >= minRun) {
          report({ messageId: 'script', data: { count: run.length, table: displayKey(key) }, stmt: run[0], span: run[0].span });
        }
        run = [];
      };
      for (const stmt of unit.statements) {
        if (stmt.kind === 'commit') continue;
        if (!isSingleRowValues(stmt)) {
          flush();
          continue;
        }
        const k = schema.keyOf(stmt.target, stmt);
        if (k !== key) flush();
        key = k;
        run.push(stmt);
      }
      flush();
    }
  },
};

export default SingleRowInsertRule;
