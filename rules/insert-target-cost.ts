// At the first insert into a table in a file: what else Db2 does for every row it inserts there.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import type { Statement } from '../server/src/sql/ast';
import { displayKey, keysWithOwnIndex, type Located, type SchemaModel, type TableInfo } from '../server/src/schema/schema';
import {
  CHECK_SECONDS,
  CLUSTERED_INDEX_SECONDS,
  FK_SECONDS,
  INSERTING_TRIGGER_SECONDS,
  LOB_SECONDS,
  SECONDS_BY_INDEX_COUNT,
  UPDATING_TRIGGER_SECONDS,
  factor,
  identityMeasurement,
} from './support/measurements';
import { inEffectAt, insertTargetName, isInsertLike } from './support/targets';
import { isFullyInlined } from '../server/src/schema/insert-costs';

const InsertTargetCostRule: Rule = {
  meta: {
    id: 'insert-target-cost',
    description: 'Summary, at the first insert into a table, of the hidden per-row work its schema adds',
    defaultSeverity: 'information',
    reads: { statements: ['insert', 'import', 'merge'] },
    recommended: false,
    evidence: ['Db2 INSERT tips, tests 11-21', 'Db2 INSERT tips, tests 31-38', 'Db2 INSERT tips, tests 41-51', 'Db2 INSERT tips, test 91', 'Db2 INSERT tips, Appendix B 22', 'Db2 INSERT tips, Appendix B 26'],
    messages: {
      summary:
        'Each row inserted into {table} also costs: {items}. Factors are elapsed time against the same 100,000 rows into a bare table (31.5 s, Db2 INSERT tips, Appendix A, test 11); they add up. See the findings on the DDL for each fix.',
    },
  },
  check({ file, schema, report }) {
    const seen = new Set<TableInfo>();
    for (const stmt of statementsOf(file, 'insert', 'import', 'merge')) {
      if (!isInsertLike(stmt)) continue;
      const name = insertTargetName(stmt)!;
      const table = schema.table(name, stmt);
      if (!table || seen.has(table)) continue;
      seen.add(table);
      const items = hiddenWork(schema, table, { file: file.source.path, stmt });
      if (items.length === 0) continue;
      report({ messageId: 'summary', data: { table: displayKey(table.key), items: items.join('; ') }, stmt, span: name.span });
    }
  },
};

/** The per-row work of `table` in force at `site`, each with the seed's measured relative cost. */
function hiddenWork(schema: SchemaModel, table: TableInfo, site: Located): string[] {
  const items: string[] = [];
  const indexes = table.indexes.filter((i) => inEffectAt(i, site));
  const keys = keysWithOwnIndex(table.keyConstraints.filter((k) => inEffectAt(k, site)), indexes).length;
  const indexCount = indexes.length + keys;
  if (indexCount > 0) {
    const measured = SECONDS_BY_INDEX_COUNT[Math.min(indexCount, SECONDS_BY_INDEX_COUNT.length - 1)];
    const clustering = indexes.filter((i) => i.cluster).length;
    items.push(
      `${indexCount > 1 ? `an entry in each of ${indexCount} indexes` : 'an entry in 1 index'} (${indexCount >= 4 ? '4 or more: ' : ''}${factor(measured)}, tests 31-35)` +
        (clustering > 0 ? `, one of them clustering (${factor(CLUSTERED_INDEX_SECONDS)} instead of ${factor(SECONDS_BY_INDEX_COUNT[1])} for a single index, test 38)` : ''),
    );
  }
  const fks = table.foreignKeys.filter((fk) => fk.enforced && inEffectAt(fk, site));
  if (fks.length > 0) {
    items.push(`${fks.length > 1 ? `a parent-key lookup for each of ${fks.length} enforced foreign keys` : 'a parent-key lookup for 1 enforced foreign key'} (${factor(FK_SECONDS[Math.min(fks.length, 2) - 1])}, tests 14-15)`);
  }
  const triggers = table.triggers.filter((t) => t.stmt.events.includes('insert') && inEffectAt(t, site));
  if (triggers.length > 0) {
    const updating = triggers.every((t) => !t.stmt.body.some((s: Statement) => s.kind === 'insert'));
    const seconds = (updating ? UPDATING_TRIGGER_SECONDS : INSERTING_TRIGGER_SECONDS)[Math.min(triggers.length, 2) - 1];
    items.push(`${triggers.length} INSERT trigger${triggers.length > 1 ? 's' : ''} (${triggers.map((t) => t.name).join(', ')}: ${factor(seconds)}, tests ${updating ? '20-21' : '18-19'})`);
  }
  const mqts = table.mqts.filter((m) => m.refresh === 'immediate');
  if (mqts.length > 0) {
    items.push(`upkeep of REFRESH IMMEDIATE MQT${mqts.length > 1 ? 's' : ''} ${mqts.map((m) => displayKey(m.key)).join(', ')} (not measured; Appendix B 22 advises against it)`);
  }
  // Those some insert into the table gives a value (SchemaModel.writtenColumns, the columns lob-column reports).
  const lobs = schema.writtenColumns(table, table.columns.filter((c) => (c.type.isLob || c.type.isLong) && !isFullyInlined(c)));
  if (lobs.length > 0) {
    items.push(`a direct disk write for ${lobs.length} LOB/LONG column${lobs.length > 1 ? 's' : ''} ${lobs.map((c) => c.name).join(', ')} (${factor(LOB_SECONDS)}, test 91)`);
  }
  if (table.identity && table.identity.cache < 1000) {
    const m = identityMeasurement(table.identity.cache);
    items.push(`a logged identity value every ${table.identity.cache === 0 ? 'row' : `${table.identity.cache} rows`} for ${table.identity.column.name} (${m.cache === 0 ? 'NO CACHE' : `CACHE ${m.cache}`}: ${factor(m.seconds)}, test ${m.test})`);
  }
  if (table.checks > 0) {
    items.push(`${table.checks} CHECK constraint${table.checks > 1 ? 's' : ''} (${factor(CHECK_SECONDS[Math.min(table.checks, 2) - 1])}, tests 12-13)`);
  }
  return items;
}

export default InsertTargetCostRule;
