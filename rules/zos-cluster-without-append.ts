// Db2 for z/OS: a table that batch jobs insert into, kept in clustering order (an index with CLUSTER, or the
// first index created when none has it) while the table is not APPEND YES.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { bulkTargetFor, tableName } from './support/targets';
import { insertPathReasons, isClusteringIndex } from './support/zos';

const ZosClusterWithoutAppendRule: Rule = {
  meta: {
    id: 'zos-cluster-without-append',
    description: 'Db2 for z/OS: a clustering index on a table that batch jobs insert into, without APPEND YES',
    defaultSeverity: 'warning',
    reads: { statements: ['createIndex'] },
    dialects: ['zos'],
    evidence: ['002 Sync_Read breakdown', '002 IFCID 199 per index'],
    messages: {
      explicit:
        'Clustering index {index} keeps bulk inserts into {table} in {columns} order; the table is not APPEND YES. Rows arrive in bulk ({why}), and Db2 for z/OS looks for the page each row belongs on and reads it (and the index pages on the way) synchronously when it is not in the buffer pool. In seed 002 a month-end batch inserting 1.2 million rows ran at 250 rows/s with 60% of its Db2 time waiting for synchronous reads, 56% of them on the table space; keeping cluster order caused them and APPEND removed them. Use ALTER TABLE {table} APPEND YES for the batch (REORG re-clusters later), or feed the rows sorted by {columns}.',
      implicit:
        '{index} clusters bulk inserts into {table} by {columns} (first index, none says CLUSTER); no APPEND YES. Db2 for z/OS uses the first index created to place inserted rows while rows arrive in bulk ({why}). Each row then costs a look for its page, read synchronously when not in the buffer pool: in seed 002 a 1.2-million-row month-end batch ran at 250 rows/s with 60% of its Db2 time in synchronous reads, caused by keeping cluster order and removed by APPEND. Use ALTER TABLE {table} APPEND YES for the batch, or feed the rows sorted by {columns}.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createIndex')) {
      if (stmt.kind !== 'createIndex') continue;
      const table = schema.table(stmt.table, stmt);
      if (!table || table.append) continue;
      // Without a CLUSTER index, the index created first is the implicit clustering index.
      if (!isClusteringIndex(table, stmt)) continue;
      const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
      const reasons = target ? insertPathReasons(target) : [];
      if (reasons.length === 0) continue;
      report({
        messageId: stmt.cluster ? 'explicit' : 'implicit',
        data: { index: stmt.index.name, table: tableName(table), columns: stmt.columns.map((c) => c.name).join(', '), why: reasons.slice(0, 3).join('; ') },
        stmt,
        span: stmt.clusterSpan ?? stmt.index.span,
      });
    }
  },
};

export default ZosClusterWithoutAppendRule;
