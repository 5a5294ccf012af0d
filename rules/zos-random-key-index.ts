// Db2 for z/OS: an index on a table filled in bulk whose key does not grow with the inserts (not an identity
// or a generated timestamp): each row's key lands on a leaf page somewhere in the index.
import type { Rule } from '../server/src/engine/types';
import type { ColumnDef } from '../server/src/sql/ast';
import { statementsOf } from '../server/src/engine/statements';
import { bulkTargetFor, tableName } from './support/targets';
import { insertPathReasons, isClusteringIndex } from './support/zos';

/** A column whose values grow with every insert: an identity, or a timestamp Db2 fills in. */
function ascending(column: ColumnDef | undefined): boolean {
  if (!column) return false;
  if (column.identity) return true;
  return /TIMESTAMP/i.test(column.type.name) && (column.generatedExpression !== undefined || column.defaultValue !== undefined);
}

const ZosRandomKeyIndexRule: Rule = {
  meta: {
    id: 'zos-random-key-index',
    description: 'Db2 for z/OS: an index on a bulk insert target whose keys do not arrive in key order',
    defaultSeverity: 'information',
    reads: { statements: ['createIndex'] },
    dialects: ['zos'],
    evidence: ['the z/OS SSD study, IFCID 199 per index'],
    messages: {
      random:
        'Index {index} on {table} is keyed on {columns}, which do not grow with the inserts. {table} is a bulk target ({why}): unless the input is sorted by them, each row puts its key on a leaf page somewhere in the index, read synchronously when it is not in the buffer pool. In the z/OS SSD study the indexes whose keys came in sequence took almost no synchronous reads during the insert batch, while the ones whose keys arrived out of order took them all (90% for a 50-byte clustering key read skip-sequentially, 10% for another). Sort the input by the key of the index that matters most, drop or defer indexes the batch does not need, or give their index pages more buffer pool (or faster devices, as the z/OS SSD study did).',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createIndex')) {
      if (stmt.kind !== 'createIndex' || stmt.columns.length === 0) continue;
      const table = schema.table(stmt.table, stmt);
      if (!table) continue;
      // The clustering index of a table without APPEND YES is zos-cluster-without-append's finding.
      if (isClusteringIndex(table, stmt) && !table.append) continue;
      const leading = table.columns.find((c) => c.name === stmt.columns[0].name);
      if (ascending(leading)) continue;
      const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
      const reasons = target ? insertPathReasons(target) : [];
      if (reasons.length === 0) continue;
      report({
        messageId: 'random',
        data: { index: stmt.index.name, table: tableName(table), columns: stmt.columns.map((c) => c.name).join(', '), why: reasons.slice(0, 3).join('; ') },
        stmt,
        span: stmt.index.span,
      });
    }
  },
};

export default ZosRandomKeyIndexRule;
