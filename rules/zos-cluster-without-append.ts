// Db2 for z/OS: a table that batch jobs insert into, kept in clustering order (an index with CLUSTER, or the
// first index created when none has it) while the table is not APPEND YES. A script whose header says it is for
// DB2 for z/OS V8 or older gets advice that exists there: APPEND YES came with DB2 9.
import type { Rule } from '../server/src/engine/types';
import type { TableInfo } from '../server/src/schema/schema';
import { statementsOf } from '../server/src/engine/statements';
import { knownVolume } from './support/known-volume';
import { megabytes, smallByKey } from './support/key-domain';
import { countText } from '../server/src/engine/count-text';
import { bulkTargetFor, tableName } from './support/targets';
import { insertPathReasons, isClusteringIndex } from './support/zos';

/**
 * Seed 002's batch: 250 rows/s, 60% of its Db2 time in synchronous reads, taken as the seconds cluster order costs
 * per 100,000 rows (2.4 ms a row). A table so large that its pages are not in the buffer pool; a few known rows into a
 * fresh table cost less, so an estimate from it is an upper bound.
 */
const SEED_002_EXTRA_PER_100K = (100_000 / 250) * 0.6;

/** The first Db2 for z/OS version with APPEND YES (CREATE/ALTER TABLE). */
const APPEND_SINCE = 9;

const ZosClusterWithoutAppendRule: Rule = {
  meta: {
    id: 'zos-cluster-without-append',
    description: 'Db2 for z/OS: a clustering index on a table that batch jobs insert into, without APPEND YES',
    defaultSeverity: 'warning',
    reads: { statements: ['createIndex'] },
    dialects: ['zos'],
    evidence: ['the z/OS SSD study, Sync_Read breakdown', 'the z/OS SSD study, IFCID 199 per index', 'Db2 INSERT tips, test 37', 'Db2 INSERT tips, test 38'],
    messages: {
      explicit:
        'Clustering index {index} keeps bulk inserts into {table} in {columns} order; the table is not APPEND YES. Rows arrive in bulk ({why}), and Db2 for z/OS looks for the page each row belongs on and reads it (and the index pages on the way) synchronously when it is not in the buffer pool. In the z/OS SSD study a month-end batch inserting 1.2 million rows ran at 250 rows/s with 60% of its Db2 time waiting for synchronous reads, 56% of them on the table space (the rest on the indexes); the study names keeping cluster order as their cause and APPEND as what removes it cleanly. Use ALTER TABLE {table} APPEND YES for the batch (REORG re-clusters later), or feed the rows sorted by {columns}.{volume}{small}',
      implicit:
        '{index} clusters bulk inserts into {table} by {columns} (first index, none says CLUSTER); no APPEND YES. Db2 for z/OS uses the first index created to place inserted rows while rows arrive in bulk ({why}). Each row then costs a look for its page, read synchronously when not in the buffer pool: in the z/OS SSD study a 1.2-million-row month-end batch ran at 250 rows/s with 60% of its Db2 time in synchronous reads, 56% of them on the table space, where the study names keeping cluster order as the cause and APPEND as what removes it cleanly. Use ALTER TABLE {table} APPEND YES for the batch, or feed the rows sorted by {columns}.{volume}{small}',
      beforeAppend:
        '{index} keeps bulk inserts into {table} in {columns} order; this script is for DB2 for z/OS V{version}. APPEND YES, which removes that cost, came with DB2 9 and does not exist there (the version is the one its header names; {index} is {clustering}). Rows arrive in bulk ({why}); Db2 looks for the page each row belongs on and reads it synchronously when it is not in the buffer pool (60% of a 1.2-million-row batch\'s Db2 time in the z/OS SSD study). When the table is filled from empty, create {index} after the rows are in: on Db2 V8 for LUW (Db2 INSERT tips, tests 38 and 37) 100,000 rows took 62.9 s with a clustering index in place, 39.4 s with the index created afterwards. A batch that reads an input file can sort it by {columns} first: in the z/OS SSD study the indexes whose keys arrived in sequence had almost no synchronous reads.{volume}{small}',
    },
  },
  check({ file, schema, report }) {
    const version = file.statedZosVersion;
    const beforeAppend = version !== undefined && version < APPEND_SINCE;
    const bounds = new Map<TableInfo, ReturnType<typeof smallByKey>>();
    for (const stmt of statementsOf(file, 'createIndex')) {
      if (stmt.kind !== 'createIndex') continue;
      const table = schema.table(stmt.table, stmt);
      if (!table || table.append) continue;
      // Without a CLUSTER index, the index created first is the implicit clustering index.
      if (!isClusteringIndex(table, stmt)) continue;
      // A plain DDL file describing again a table that a z/OS deck defines with its storage: the deck's finding on
      // the same index is the one (both said the same words).
      const twin = schema.storedTwin(table);
      const same = twin?.indexes.find((ix) => ix.name === stmt.index.name);
      if (twin && same && !twin.append && isClusteringIndex(twin, same.stmt)) continue;
      const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
      const reasons = target ? insertPathReasons(target) : [];
      if (!target || reasons.length === 0) continue;
      const volume = knownVolume(schema, target, SEED_002_EXTRA_PER_100K, 'the z/OS SSD study: 250 rows/s, 60% of it in synchronous reads');
      // A key of few possible values and narrow rows bound the table to a few MB, which stay in the buffer pool:
      // the study's synchronous reads (a table far larger than its pool) do not arise, and there is nothing to act on.
      // Once per table: a table may have several indexes that say CLUSTER (only the first counts in Db2).
      if (!bounds.has(table)) bounds.set(table, smallByKey(table));
      const bound = bounds.get(table);
      const small = bound
        ? ` Its key (${bound.key.join(', ')}) lets ${tableName(table)} hold at most ${countText(bound.rows)} rows at a time, ${megabytes(bound.bytes)} of data at most: a table that small keeps its pages in the buffer pool, where the study's synchronous reads do not arise.`
        : '';
      report({
        messageId: beforeAppend ? 'beforeAppend' : stmt.cluster ? 'explicit' : 'implicit',
        data: {
          index: stmt.index.name,
          table: tableName(table),
          columns: stmt.columns.map((c) => c.name).join(', '),
          why: reasons.slice(0, 3).join('; '),
          clustering: stmt.cluster ? 'the clustering index' : 'the first index created and none says CLUSTER',
          version: version ?? '',
          volume: volume.sentence,
          small,
        },
        stmt,
        span: stmt.clusterSpan ?? stmt.index.span,
        maxSeverity: bound ? 'hint' : volume.maxSeverity,
      });
    }
  },
};

export default ZosClusterWithoutAppendRule;
