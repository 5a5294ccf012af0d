// A REFRESH IMMEDIATE materialized query table over a table that receives inserts.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { displayKey } from '../server/src/schema/schema';

const RefreshImmediateMqtRule: Rule = {
  meta: {
    id: 'refresh-immediate-mqt',
    description: 'REFRESH IMMEDIATE materialized query table over a table that receives inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createTable'] },
    evidence: ['Db2 INSERT tips, Appendix B 22'],
    messages: {
      immediate:
        'MQT {mqt} is REFRESH IMMEDIATE over insert target {bases}. In the same unit of work as each insert, Db2 recomputes the affected rows of {mqt} (an extra read of the MQT or its base and a logged update per inserted row, visible in Explain). Db2 INSERT tips (Appendix B, item 22) advises not to insert into tables with such MQTs. Make it REFRESH DEFERRED and run REFRESH TABLE after the load, or drop and recreate it around bulk inserts.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTable')) {
      if (stmt.kind !== 'createTable' || stmt.mqt?.refresh !== 'immediate') continue;
      const bases = stmt.mqt.baseTables
        .map((name) => schema.table(name, stmt))
        .filter((t) => t !== undefined && schema.receivesRows(t))
        .map((t) => displayKey(t!.key));
      if (bases.length === 0) continue;
      report({
        messageId: 'immediate',
        data: { mqt: displayKey(schema.keyOf(stmt.table, stmt)), bases: [...new Set(bases)].join(', ') },
        stmt,
        span: stmt.mqt.refreshSpan ?? stmt.table.span,
      });
    }
  },
};

export default RefreshImmediateMqtRule;
