// Too many indexes maintained during bulk inserts: every row adds an entry to each of them.
import type { Rule, RuleContext } from '../server/src/engine/types';
import type { TableConstraint } from '../server/src/sql/ast';
import { keysWithOwnIndex, type IndexInfo, type InsertTargetInfo, type Located } from '../server/src/schema/schema';
import { SECONDS_BY_INDEX_COUNT, secsOf } from './support/measurements';
import { extraForCount, knownVolume } from './support/known-volume';
import type { MovedDdl } from '../server/src/engine/types';
import { bulkWhy, inEffectForInserts, laterLoad, listNames, moveAfterLoadReport, statementAt, statementsAt, tableName, type LaterLoad } from './support/targets';
import { countText } from '../server/src/engine/count-text';

const IndexCountRule: Rule = {
  meta: {
    id: 'index-count',
    description: 'More indexes than a threshold maintained during bulk inserts (primary key and unique constraints included)',
    defaultSeverity: 'warning',
    reads: { statements: ['createTable', 'alterTable', 'createIndex'] },
    evidence: ['Db2 INSERT tips, test 31', 'Db2 INSERT tips, test 32', 'Db2 INSERT tips, test 33', 'Db2 INSERT tips, test 34', 'Db2 INSERT tips, test 35', 'Db2 INSERT tips, test 36', 'Db2 INSERT tips, test 37'],
    defaultOptions: { maxIndexes: 3 },
    messages: {
      tooMany:
        'Bulk insert target {table} ({why}) has {count} indexes, more than {max}. They are in force during its inserts ({breakdown}): for every row Db2 walks each index tree to place a new entry, reading index pages into the buffer pool. Measured on 100,000 inserts (Db2 INSERT tips, tests 31-35): 31.5 s with no index, 53.7 s with 1, 83.3 s with 2, 108.2 s with 3, {four}; creating 4 indexes after the inserts took 73.8 s in all (test 36).{volume}{redundancy} {advice}',
      // Its part of one finding with enforced-foreign-key's, when both say to move DDL after the same load (MoveAfterLoad).
      tooManyPart:
        'Indexes: {count} in force during its inserts ({breakdown}), each given a new entry per row. 100,000 inserts took 141.6 s with 4 indexes in force and 31.5 s with none, 73.8 s in all with the 4 created after them (Db2 INSERT tips, tests 35, 31 and 36).{volume}{redundancy}',
    },
  },
  check(context) {
    const { file, schema, options, report } = context;
    const max = Math.max(0, Math.floor(Number(options.maxIndexes)));
    // The finding sits on an index or key of this file: only tables this file creates, alters or indexes.
    for (const table of schema.tablesWithDdlIn(file.source.path)) {
      const target = schema.targetOfTable(table);
      if (!target || target.bulkReasons.length === 0) continue;
      // Indexes and keys created after every insert of their file are built in one pass (tests 36, 37): not counted.
      const indexes = table.indexes.filter((index) => inEffectForInserts(index, target));
      // A key enforced by one of those unique indexes (same columns) is that index, not another one.
      const keys = keysWithOwnIndex(table.keyConstraints.filter((key) => inEffectForInserts(key, target)), indexes);
      const count = indexes.length + keys.length;
      if (count <= max) continue;
      // The finding sits on the index (or key) that takes the table over the limit; keys are declared with the table, so first.
      const ordered: Located[] = [...keys, ...indexes];
      const crossing = ordered[max];
      if (crossing.file !== file.source.path) continue;
      const volume = knownVolume(schema, target, ...extraSeconds(count));
      const advice = adviceFor(context, target, ordered.slice(max), indexes);
      const redundant = redundancy(indexes, keys);
      report({
        messageId: 'tooMany',
        data: {
          table: tableName(table),
          why: bulkWhy(target),
          count: countText(count),
          breakdown: [indexes.length > 0 ? `${countText(indexes.length)} CREATE INDEX` : '', keys.length > 0 ? `${countText(keys.length)} primary key/unique constraint${keys.length > 1 ? 's' : ''}` : '']
            .filter(Boolean)
            .join(' + '),
          max,
          four: `${secsOf(SECONDS_BY_INDEX_COUNT[4])} with 4`,
          advice: advice.text,
          redundancy: redundant,
          volume: volume.sentence,
        },
        stmt: crossing.stmt,
        span: crossing.stmt.kind === 'createIndex' ? crossing.stmt.index.span : (crossing as (typeof keys)[number]).constraint.span,
        maxSeverity: volume.maxSeverity,
        ...(advice.move
          ? {
              moveAfterLoad: moveAfterLoadReport(context, table, advice.move, {
                cost: `${countText(count)} indexes`,
                partMessageId: 'tooManyPart',
                kind: 'indexes',
                perRow: 'adds an entry to each index',
                figure: FIGURE,
                particular: volume.sentence !== '' || redundant !== '',
              }),
            }
          : {}),
      });
    }
  },
};

/** The measured figure of a finding about several tables (MoveAfterLoad.figure): four indexes, in force and created after. */
const FIGURE = `${secsOf(SECONDS_BY_INDEX_COUNT[4])} with 4 indexes in force, 73.8 s in all with the 4 created after them (tests 35 and 36)`;

/**
 * The seed's extra seconds per 100,000 rows for `count` indexes in force (tests 32-35 against none, test 31); more
 * than four, four's cost per index.
 */
function extraSeconds(count: number): [number, string] {
  const measured = SECONDS_BY_INDEX_COUNT.length - 1;
  const tests = count <= measured ? `tests ${31 + count} and 31` : `tests ${31 + measured} and 31, for ${countText(count)} indexes`;
  return [extraForCount(SECONDS_BY_INDEX_COUNT.slice(1), count), tests];
}

/**
 * Move the indexes after the load when it is in this file after them (an upgrade step): every CREATE INDEX of this
 * file in force for it, by line. Else create them after the load, wherever it is.
 */
function adviceFor(context: RuleContext, target: InsertTargetInfo, over: readonly Located[], indexes: readonly IndexInfo[]): { text: string; move?: { load: LaterLoad; moves: string[]; ddl: MovedDdl[] } } {
  const path = context.file.source.path;
  const mine = over.filter((l) => l.file === path && l.stmt.kind === 'createIndex').map((l) => l.stmt);
  const load = mine.length > 0 ? laterLoad(context, target, mine) : undefined;
  if (!load) return { text: 'Create the indexes you can after the load, or drop and recreate them around it.' };
  const before = indexes.filter((i) => i.file === path && i.stmt.origin.toFile(i.stmt.span.start) < load.offset).map((i) => i.stmt);
  const moves = statementsAt('CREATE INDEX', before, context.lineOf);
  const ddl = [{ words: 'CREATE INDEX', at: before.map((stmt) => statementAt(context, stmt)) }];
  return { text: `Create them after the load instead: move ${moves} after ${load.text}, or drop and recreate them around it.`, move: { load, moves: [moves], ddl } };
}

/**
 * " ORDER_ACCOUNTID (ACCOUNT_ACCOUNTID) is the leading part of CLOSED_ORDERS (...)": an ordinary index whose columns
 * begin another index or key serves no query that one cannot, and costs every row an entry for good (DayTrader's
 * ORDEREJB). Unique and clustering indexes do more than find rows, and are left alone.
 */
function redundancy(indexes: readonly IndexInfo[], keys: readonly { constraint: TableConstraint; name: string }[]): string {
  const wider = [
    ...indexes.map((i) => ({ name: i.name, columns: i.stmt.columns.map((c) => c.name) })),
    ...keys.flatMap((k) => (k.constraint.kind === 'primaryKey' || k.constraint.kind === 'unique' ? [{ name: k.name, columns: k.constraint.columns }] : [])),
  ];
  // Each proper leading part of every index or key, with the first two (by name) that have it: an index is covered by
  // the first of them not itself. A lookup per index, not a scan of all of them (40,000 indexes on a table took 12 s).
  const byPrefix = new Map<string, { name: string; columns: string[] }[]>();
  for (const w of wider) {
    let prefix = '';
    for (let k = 0; k < w.columns.length - 1; k++) {
      prefix += (k > 0 ? '\u0000' : '') + w.columns[k];
      const list = byPrefix.get(prefix);
      if (!list) byPrefix.set(prefix, [w]);
      else if (list.length < 2 && list[0].name !== w.name) list.push(w);
    }
  }
  const found: string[] = [];
  for (const index of indexes) {
    if (index.unique || index.cluster || index.stmt.include.length > 0) continue;
    const columns = index.stmt.columns.map((c) => c.name);
    const cover = byPrefix.get(columns.join('\u0000'))?.find((w) => w.name !== index.name);
    if (cover) found.push(`${index.name} (${columns.join(', ')}) is the leading part of ${cover.name} (${cover.columns.join(', ')})`);
  }
  if (found.length === 0) return '';
  return ` ${listNames(found, 2)}: a query that uses ${found.length > 1 ? 'those' : 'it'} can use the wider one, and dropping ${found.length > 1 ? 'them' : 'it'} saves an index entry per row for good.`;
}

export default IndexCountRule;
