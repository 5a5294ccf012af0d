// IMPORT runs INSERTs; how often it commits decides much of its speed.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { displayKey } from '../server/src/schema/schema';

const ImportCommitcountRule: Rule = {
  meta: {
    id: 'import-commitcount',
    description: 'IMPORT without COMMITCOUNT, or committing every few rows',
    defaultSeverity: 'information',
    dialects: ['luw'],
    evidence: ['000 tests 61-68', '000 tests 69-78', '000 test 79'],
    defaultOptions: { minCommitCount: 1000 },
    fixable: true,
    messages: {
      missing:
        'IMPORT into {table} has no COMMITCOUNT. IMPORT inserts row by row, and without COMMITCOUNT the whole file is one unit of work that can fill the log and holds a lock on every new row until the end. Use COMMITCOUNT AUTOMATIC or a large count such as {min}: seed 000 (tests 61-78) found committing every 1000 rows up to ten times faster than every 1 or 2, with little gain beyond that. For large files LOAD is faster still (test 79).',
      small:
        'IMPORT into {table} commits every {count} rows: each commit is a synchronous log write. Measured on 10,000 prepared single-row inserts (seed 000, tests 65-68): 22.3 s committing every 5 rows, 20.8 s every 10, 10.1 s every 100, 7.6 s every 1000. Use COMMITCOUNT {min} or AUTOMATIC.',
    },
  },
  check({ file, schema, options, report }) {
    const min = Number(options.minCommitCount);
    for (const stmt of statementsOf(file, 'import')) {
      if (stmt.kind !== 'import') continue;
      const table = displayKey(schema.table(stmt.table, stmt)?.key ?? schema.keyOf(stmt.table, stmt));
      // Committing every n rows leaves the rows before a failure committed (restart with RESTARTCOUNT):
      // a change of behaviour the user accepts finding by finding, not with "Fix all".
      if (stmt.commitCount === undefined) {
        const at = stmt.modeSpan?.start;
        const fix = at === undefined ? undefined : { title: 'Add COMMITCOUNT AUTOMATIC', edits: [{ span: { start: at, end: at }, newText: 'COMMITCOUNT AUTOMATIC ' }], changesMeaning: true };
        report({ messageId: 'missing', data: { table, min }, stmt, span: stmt.table.span, fix });
      } else if (stmt.commitCount !== 'automatic' && stmt.commitCount < min) {
        const fix = stmt.commitCountSpan ? { title: `Use COMMITCOUNT ${min}`, edits: [{ span: stmt.commitCountSpan, newText: String(min) }], changesMeaning: true } : undefined;
        report({ messageId: 'small', data: { table, count: stmt.commitCount, min }, stmt, span: stmt.table.span, fix });
      }
    }
  },
};

export default ImportCommitcountRule;
