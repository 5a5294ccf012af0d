// IMPORT runs INSERTs; how often it commits decides much of its speed.
import type { Fix, Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { displayKey } from '../server/src/schema/schema';
import { countText, runReport } from './support/runs';
import { listNames } from './support/targets';
import type { ImportStatement } from '../server/src/sql/ast';

const ImportCommitcountRule: Rule = {
  meta: {
    id: 'import-commitcount',
    description: 'IMPORT without COMMITCOUNT, or committing every few rows',
    defaultSeverity: 'information',
    reads: { statements: ['import'] },
    dialects: ['luw'],
    evidence: ['Db2 INSERT tips, tests 61-68', 'Db2 INSERT tips, tests 69-78', 'Db2 INSERT tips, test 79'],
    defaultOptions: { minCommitCount: 1000 },
    fixable: true,
    messages: {
      missing:
        'IMPORT into {table} has no COMMITCOUNT, so it commits once, at the end. {why}',
      missingMany:
        'IMPORT without COMMITCOUNT: {count} in this script ({runLines}), loading {tables}. Each commits once, at the end of its file. {why}',
      small:
        'IMPORT into {table} commits every {count} rows: each commit is a synchronous log write. Measured on 10,000 prepared single-row inserts (Db2 INSERT tips, tests 65-68): 22.3 s committing every 5 rows, 20.8 s every 10, 10.1 s every 100, 7.6 s every 1000. Use COMMITCOUNT {min} or AUTOMATIC.',
    },
  },
  check({ file, schema, options, report }) {
    const min = Number(options.minCommitCount);
    // IMPORTs without COMMITCOUNT in one script are one finding (a generated script such as db2mon_import.sql
    // imports fifty tables, each the same advice), with one fix for all of them.
    const missing: { stmt: ImportStatement; table: string }[] = [];
    for (const stmt of statementsOf(file, 'import')) {
      if (stmt.kind !== 'import') continue;
      const table = displayKey(schema.table(stmt.table, stmt)?.key ?? schema.keyOf(stmt.table, stmt));
      // An online import (ALLOW WRITE ACCESS) without COMMITCOUNT commits as COMMITCOUNT AUTOMATIC does.
      if (stmt.commitCount === undefined) {
        if (!stmt.allowWriteAccess) missing.push({ stmt, table });
      } else if (stmt.commitCount !== 'automatic' && stmt.commitCount < min) {
        const fix = stmt.commitCountSpan ? { title: `Use COMMITCOUNT ${min}`, edits: [{ span: stmt.commitCountSpan, newText: String(min) }], changesMeaning: true } : undefined;
        report({ messageId: 'small', data: { table, count: stmt.commitCount, min }, stmt, span: stmt.table.span, fix });
      }
    }
    if (missing.length === 0) return;
    const fix = addCommitCount(missing.map((m) => m.stmt));
    const why = WHY_COMMITCOUNT.replace('{min}', String(min));
    if (missing.length === 1) {
      const { stmt, table } = missing[0];
      report({ messageId: 'missing', data: { table, why }, stmt, span: stmt.table.span, fix });
      return;
    }
    const tables = listNames([...new Set(missing.map((m) => m.table))]);
    const places = missing.map(({ stmt }) => ({ span: stmt.table.span, stmt }));
    report({ messageId: 'missingMany', data: { count: countText(missing.length), tables, why }, ...runReport(places, 1), fix });
  },
};

/** What one unit of work per file risks, and what COMMITCOUNT does and does not change (the table lock). */
const WHY_COMMITCOUNT =
  'IMPORT inserts row by row, and the whole file is one unit of work: a large file can fill the active log (SQL0964C), and a failure rolls back every row with no point to restart from (RESTARTCOUNT). COMMITCOUNT AUTOMATIC, or a count such as {min}, commits as it goes at little cost (committing every 1000 rows or more was near the fastest in Db2 INSERT tips, tests 61-78 and 104). It does not free the table sooner: the default ALLOW NO ACCESS holds an exclusive table lock until the IMPORT ends; only ALLOW WRITE ACCESS, for an IMPORT that INSERTs into an existing table, lets other work in. For large files LOAD is faster still (test 79).';

/**
 * COMMITCOUNT AUTOMATIC added to each IMPORT. Committing every n rows leaves the rows before a failure
 * committed (restart with RESTARTCOUNT): a change of behaviour the user accepts finding by finding, not with "Fix all".
 */
function addCommitCount(imports: ImportStatement[]): Fix | undefined {
  const edits = imports.flatMap((stmt) => (stmt.modeSpan ? [{ span: { start: stmt.modeSpan.start, end: stmt.modeSpan.start }, newText: 'COMMITCOUNT AUTOMATIC ' }] : []));
  if (edits.length === 0) return undefined;
  return { title: edits.length === 1 ? 'Add COMMITCOUNT AUTOMATIC' : `Add COMMITCOUNT AUTOMATIC to the ${countText(edits.length)} IMPORTs`, edits, changesMeaning: true };
}

export default ImportCommitcountRule;
