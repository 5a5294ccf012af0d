// A clustering index on a table that receives bulk inserts: every row is placed near its key neighbours.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { BASELINE_SECONDS, CLUSTERED_INDEX_SECONDS, SECONDS_BY_INDEX_COUNT, secsOf } from './support/measurements';
import { knownVolume } from './support/known-volume';
import { bulkTargetFor, bulkWhy, tableName } from './support/targets';

const ClusteredIndexBulkTargetRule: Rule = {
  meta: {
    id: 'clustered-index-bulk-target',
    description: 'CLUSTER index on a table that receives bulk inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createIndex'] },
    dialects: ['luw'],
    evidence: ['Db2 INSERT tips, test 31', 'Db2 INSERT tips, test 32', 'Db2 INSERT tips, test 37', 'Db2 INSERT tips, test 38'],
    messages: {
      cluster:
        'Clustering index {index} on bulk insert target {table} ({why}). For every row Db2 looks for a page holding neighbouring key values, then nearby pages, and only then free space anywhere, on top of the index entry itself. Measured on 100,000 inserts (Db2 INSERT tips, tests 32 and 38): {plain} with one ordinary index, {clustered} when it clusters ({base} with none, test 31).{volume} Create the index after the load (test 37), or drop it around bulk inserts and REORG afterwards; if it must stay, leave free space with PCTFREE and REORG.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createIndex')) {
      if (stmt.kind !== 'createIndex' || !stmt.cluster) continue;
      const table = schema.table(stmt.table, stmt);
      const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
      if (!table || !target) continue;
      const volume = knownVolume(schema, target, CLUSTERED_INDEX_SECONDS - BASELINE_SECONDS, 'tests 38 and 31');
      report({
        messageId: 'cluster',
        data: {
          index: stmt.index.name,
          table: tableName(table),
          why: bulkWhy(target),
          plain: secsOf(SECONDS_BY_INDEX_COUNT[1]),
          clustered: secsOf(CLUSTERED_INDEX_SECONDS),
          base: secsOf(BASELINE_SECONDS),
          volume: volume.sentence,
        },
        stmt,
        span: stmt.clusterSpan ?? stmt.index.span,
        maxSeverity: volume.maxSeverity,
      });
    }
  },
};

export default ClusteredIndexBulkTargetRule;
