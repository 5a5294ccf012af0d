// A bulk insert target without APPEND ON: each row starts with a search for a page that has room.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { bulkTargetFor, bulkWhy, tableName } from './support/targets';

const AppendModeOffRule: Rule = {
  meta: {
    id: 'append-mode-off',
    description: 'Bulk insert target whose table is not in APPEND mode',
    defaultSeverity: 'information',
    reads: { statements: ['createTable'] },
    dialects: ['luw'],
    recommended: false,
    evidence: ['Db2 INSERT tips, test 22', 'Db2 INSERT tips, test 23', 'Db2 INSERT tips, Appendix B 7', 'the z/OS SSD study'],
    messages: {
      off:
        'Bulk insert target {table} ({why}) is not in APPEND mode. For each row Db2 first searches the free space control records for a page with room. With ALTER TABLE {table} APPEND ON, rows go straight to the end of the table. The gain was small in Db2 INSERT tips (tests 22 and 23: 282.0 s vs 281.6 s for 1,000,000 rows) but part of the best combination (test 111), and on Db2 for z/OS it removed the page reads spent keeping cluster order (the z/OS SSD study). Space freed by deletes is not reused in APPEND mode; REORG reclaims it.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTable')) {
      // APPEND ON does not apply to MQTs, temporary tables, column-organized or MDC/ITC tables.
      if (stmt.kind !== 'createTable' || stmt.mqt || stmt.temporary || (stmt.organizeBy && stmt.organizeBy !== 'row')) continue;
      const table = schema.table(stmt.table, stmt);
      if (!table || table.definition?.stmt !== stmt || table.append) continue;
      // A clustering index and APPEND ON exclude each other; clustered-index-bulk-target covers that case.
      if (table.indexes.some((i) => i.cluster)) continue;
      const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
      if (!target) continue;
      report({ messageId: 'off', data: { table: tableName(table), why: bulkWhy(target) }, stmt, span: stmt.table.span });
    }
  },
};

export default AppendModeOffRule;
