// A batch program that inserts row by row in a loop and never commits inside it: the whole run is one unit
// of work (embedded SQL, where autocommit is off and the program decides when to commit).
import type { Rule } from '../server/src/engine/types';
import { insertsOf, isBulkLoop, loopName, runsRows, singleRowInsertOf, targetName, within } from '../server/src/code-model/facts';
import type { CodeModel, SqlExecution } from '../server/src/code-model/types';
import type { SchemaModel, TableInfo } from '../server/src/schema/schema';
import { zosTablespaceOf } from './support/zos';
import { megabytes, smallByKey } from './support/key-domain';
import { countText } from '../server/src/engine/count-text';

const BatchWithoutCommitRule: Rule = {
  meta: {
    id: 'batch-without-commit',
    description: 'A batch loop that inserts and does not commit inside the loop (embedded SQL; application code that tells its execute helper not to commit)',
    defaultSeverity: 'warning',
    reads: { code: true },
    // On the INSERT of a loop that single-row-insert reports too: one diagnostic for the loop, the other part related.
    group: 'row-at-a-time',
    evidence: ['Db2 INSERT tips, section 5 (locking)', 'Db2 INSERT tips, section 7 (committing)', 'Db2 INSERT tips, tests 61-68'],
    messages: {
      never:
        'The {loop} inserts into {table} row by row and the program never commits. The whole run is one unit of work: {locks}, the log of the whole run must stay available for backout, and an abend near the end backs out and repeats all of it. Commit every 1000 rows or so with a counter (Db2 INSERT tips advises a large N such as 1000; it measured 10,000 prepared single-row inserts at 7.6 s committing every 1000, test 68), keep a restart key, and commit once after the loop.{small}',
      afterLoop:
        'The {loop} inserts into {table} row by row and the program commits only after it. Every row until then is one unit of work: {locks}, and an abend backs out the whole run. Commit every 1000 rows or so inside the loop with a counter (Db2 INSERT tips, tests 64 and 68), and once after it.{small}',
      toldNotToCommit:
        'The {loop} inserts into {table} and nothing in it commits: with autocommit off, the loop is one unit of work. It runs its INSERT through {call} told not to commit ({flag}). With autocommit off (the DB-API default of pyodbc, pypyodbc and ibm_db_dbi), every pass until a later commit is in that unit of work: each inserted row keeps its lock, the log of every pass must stay available for backout (a full log stops the run with SQL0964C and rolls back all of it), and a failure near the end backs out everything. Commit every pass or every few passes inside the loop (a few thousand rows each; Db2 INSERT tips, tests 64 and 68). On a connection with autocommit on (ibm_db, JDBC, jaydebeapi) each statement commits on its own and this does not apply; {autocommit}.',
    },
  },
  check({ file, schema, report }) {
    const code = file.code;
    if (!code) return;
    const seen = new Set<string>();
    for (const execution of code.executions) {
      if (execution.noCommitArg) {
        const found = toldNotToCommit(code, execution, seen);
        if (found) {
          const { loop, insert } = found;
          const autocommit = execution.connection?.autocommit === 'off' ? 'here it is off' : 'this file does not show which it is';
          report({
            messageId: 'toldNotToCommit',
            data: { loop: loopName(loop), table: targetName(execution, insert, schema), call: execution.noCommitArg.call, flag: execution.noCommitArg.flag, autocommit },
            span: execution.callSpan,
            // Whether the whole run is one unit of work depends on a driver the file does not show: a hint to check.
            maxSeverity: execution.connection?.autocommit === 'off' ? undefined : 'information',
          });
        }
        continue;
      }
      if (!execution.api.startsWith('esql') || execution.connection?.autocommit !== 'off' || execution.connection.name === 'CICS task') continue;
      if (!isBulkLoop(execution.loop) || execution.batched || !runsRows(execution)) continue;
      const insert = singleRowInsertOf(execution);
      if (!insert) continue;
      const loop = execution.loop;
      // One finding per loop: its first row-by-row insert.
      const key = `${loop.span.start}:${loop.span.end}`;
      if (seen.has(key)) continue;
      if (code.commits.some((c) => c.loop && within(c.loop.span, loop.span))) continue;
      seen.add(key);
      const outside = code.commits.find((c) => !c.loop);
      const table = schema.table(insert.target, insert);
      const whole = table && wholeTableLock(schema, table);
      // Locked whole and bounded by its key to a few MB (carddemo's TRANSACTION_TYPE, keyed by a CHAR(2) code):
      // the run can hold no more rows than that in its unit of work, no locks pile up, and the backout is short.
      const bound = whole ? smallByKey(table) : undefined;
      const small = bound
        ? ` Its key (${bound.key.join(', ')}) lets the table hold at most ${countText(bound.rows)} rows at a time, ${megabytes(bound.bytes)}: a unit of work no larger than that is short to back out, and nothing else piles up.`
        : '';
      const data = { loop: loopName(loop), table: targetName(execution, insert, schema), locks: locksText(whole), small };
      report({ messageId: outside ? 'afterLoop' : 'never', data, span: execution.callSpan, maxSeverity: bound ? 'hint' : undefined });
    }
  },
};

/**
 * An execute helper called in a bulk loop with `autocommit=False` (ibmdbpy's chunked DataFrame upload): the loop and
 * its INSERT, when no commit runs in the loop (there or in a helper of this file the
 * loop calls: the model lends the loop to those) and the connection is not known to autocommit. A loop lent from
 * another file is left alone: what that file commits is not known here.
 */
function toldNotToCommit(code: CodeModel, execution: SqlExecution, seen: Set<string>) {
  const loop = execution.loop;
  if (!isBulkLoop(loop) || loop.file || execution.batched || !runsRows(execution) || execution.connection?.autocommit === 'on') return undefined;
  const insert = insertsOf(execution)[0];
  if (!insert) return undefined;
  const key = `${loop.span.start}:${loop.span.end}`;
  if (seen.has(key)) return undefined;
  if (code.commits.some((c) => c.loop && within(c.loop.span, loop.span))) return undefined;
  seen.add(key);
  return { loop, insert };
}

/** How the table is locked as a whole (LUW LOCKSIZE TABLE, or its z/OS table space's LOCKSIZE TABLE / TABLESPACE), if it is. */
function wholeTableLock(schema: SchemaModel, table: TableInfo): string | undefined {
  const zos = zosTablespaceOf(schema, table)?.zos.locksize?.toUpperCase();
  if (zos === 'TABLE' || zos === 'TABLESPACE') return `its table space's LOCKSIZE ${zos}`;
  return table.locksize === 'table' ? 'LOCKSIZE TABLE' : undefined;
}

/** What the open unit of work holds in locks: a lock per inserted row, unless the table is locked as a whole. */
function locksText(whole: string | undefined): string {
  if (whole) return `the table is locked as a whole (${whole}), so row locks do not pile up, but other work waits for the commit`;
  return 'each inserted row keeps its lock until the commit (Db2 INSERT tips), so locks pile up (Db2 for z/OS escalates them past LOCKMAX or fails the insert at NUMLKUS with SQLCODE -904)';
}

export default BatchWithoutCommitRule;
