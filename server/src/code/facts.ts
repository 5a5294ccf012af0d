// Questions the insert-pattern rules ask of a file: which executions insert, which loops they run in,
// and the script-level equivalents (runs of single-row INSERTs, COMMIT after each INSERT).
import type { InsertStatement, Span, Statement } from '../sql/ast';
import type { FileModel } from '../engine/types';
import type { LoopInfo, SqlExecution } from './types';

export function insertsOf(execution: SqlExecution): InsertStatement[] {
  return execution.statements.filter((s): s is InsertStatement => s.kind === 'insert');
}

/** An INSERT … VALUES with one row (the shape that runs once per application row). */
export function isSingleRowValues(stmt: Statement): stmt is InsertStatement {
  return stmt.kind === 'insert' && stmt.source.kind === 'values' && stmt.source.rows.length === 1;
}

/** Executions that send rows: a direct or prepared run, not a prepare on its own. */
export function runsRows(execution: SqlExecution): boolean {
  return execution.action !== 'prepare';
}

export function sameLoop(a: LoopInfo | undefined, b: LoopInfo | undefined): boolean {
  return !!a && !!b && a.span.start === b.span.start && a.span.end === b.span.end;
}

export function within(inner: Span, outer: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** File span of a statement-relative span. */
function toFileSpan(stmt: Statement, span: Span): Span {
  return { start: stmt.origin.toFile(span.start), end: stmt.origin.toFile(span.end) };
}

/** Spliced values (file spans) of an execution that land inside the VALUES of one of its INSERTs. */
export function splicedInsertValues(execution: SqlExecution): Span[] {
  if (execution.splicedValues.length === 0) return [];
  const valueSpans: Span[] = [];
  for (const insert of insertsOf(execution)) {
    if (insert.source.kind !== 'values') continue;
    for (const row of insert.source.rows) {
      for (const v of row.values) {
        const span = toFileSpan(insert, v.span);
        valueSpans.push({ start: Math.min(span.start, span.end), end: Math.max(span.start, span.end, span.start + 1) });
      }
    }
  }
  return execution.splicedValues.filter((s) => valueSpans.some((v) => s.start < v.end && v.start < s.end));
}

/** A CLP script: an SQL file, or a here-document fed to `db2` in a shell script. */
export interface ScriptUnit {
  statements: Statement[];
  /** The script runs with autocommit off from its start (`db2 +c`). */
  autocommitOff: boolean;
}

/** The scripts of a file that rules read as scripts (code statements, run one by one, are not). */
export function scriptUnits(file: FileModel): ScriptUnit[] {
  if (!file.code) return [{ statements: file.statements, autocommitOff: false }];
  return file.code.executions
    .filter((e) => e.script && e.statements.length > 0)
    .map((e) => ({ statements: e.statements, autocommitOff: e.connection?.autocommit === 'off' }));
}

/** Short advice on sending many rows per call, by driver API. */
export function batchAdvice(api: string): string {
  switch (api) {
    case 'jdbc':
      return 'prepare once, call addBatch() per row and executeBatch() every few hundred rows';
    case 'spring':
      return 'collect the rows and call JdbcTemplate.batchUpdate';
    case 'ibm_db':
      return 'prepare once and send the rows with ibm_db.execute_many';
    case 'dbapi':
      return 'send the rows with cursor.executemany';
    case 'node-ibm_db':
      return 'send the rows as an array insert (query with ArraySize) or a multi-row VALUES list';
    case 'cli':
      return 'bind parameter arrays and set SQL_ATTR_PARAMSET_SIZE (100 or more) so that one SQLExecute sends many rows';
    case 'clp':
      return 'write the rows to a file and IMPORT or LOAD it, or run one INSERT with a multi-row VALUES list';
    case 'esql':
    case 'sqlj':
      return 'insert several rows per statement (multi-row VALUES or host-variable arrays)';
    default:
      return 'send many rows per call (batch, array insert or multi-row VALUES)';
  }
}

/** How a message names a loop: `for`, or `for (through insertRow())` for a helper called in the loop. */
export function loopName(loop: LoopInfo): string {
  return loop.via ? `${loop.kind} (through ${loop.via}())` : loop.kind;
}
