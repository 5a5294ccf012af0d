// Generated (GENERATED ALWAYS AS (expression)) columns on a bulk insert target: computed per row.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { bulkTargetFor, bulkWhy, columnsDefinedBy, tableName } from './support/targets';

const GeneratedColumnBulkTargetRule: Rule = {
  meta: {
    id: 'generated-column-bulk-target',
    description: 'Generated column computed for every row of a bulk insert (low cost)',
    defaultSeverity: 'hint',
    reads: { statements: ['createTable', 'alterTable'] },
    recommended: false,
    evidence: ['Db2 INSERT tips, Appendix B 20'],
    messages: {
      generated:
        'Column {column} of bulk insert target {table} ({why}) is GENERATED … AS an expression. Db2 evaluates it for every inserted row. Db2 INSERT tips found this overhead very small and says it should not stop you using generated columns (Appendix B, item 20 lists it among things to minimise); look here only once the bigger costs are gone.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTable', 'alterTable')) {
      const table = schema.table(stmt.table, stmt);
      if (!table) continue;
      const generated = columnsDefinedBy(stmt, table).filter((c) => c.generatedExpression !== undefined && !c.identity);
      if (generated.length === 0) continue;
      const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
      if (!target) continue;
      for (const column of generated) {
        report({ messageId: 'generated', data: { column: column.name, table: tableName(table), why: bulkWhy(target) }, stmt, span: column.nameSpan });
      }
    }
  },
};

export default GeneratedColumnBulkTargetRule;
