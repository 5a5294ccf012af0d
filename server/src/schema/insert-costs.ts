// What each inserted row costs a table beyond writing the row itself, with the seed's measured factors.
// One data table (INSERT_COST_MEASUREMENTS) feeds both the PR checklist and the editor hovers, so the
// numbers are written down once. Every factor is measured/baseline from seed 000, Appendix A:
// 100,000 rows inserted by CLI array inserts, commit every 1000 rows; baseline 31.51 s (tests 11/31/41).
import type { ColumnDef } from '../sql/ast';
import { keysWithOwnIndex, type SchemaModel, type TableInfo } from './schema';

export type InsertCostFeature = 'indexes' | 'clustering' | 'foreignKeys' | 'checks' | 'triggers' | 'mqts' | 'lobColumns' | 'identityCache';

export interface InsertCostMeasurement {
  feature: InsertCostFeature;
  /** The measured setup, e.g. "2 indexes", "identity CACHE 20". */
  setup: string;
  /** How many of the feature (indexes, FKs, triggers…) or the identity cache size. */
  amount: number;
  /** Seed 000 Appendix A test number of the measurement and of the baseline it is compared with. */
  test: number;
  baselineTest: number;
  seconds: number;
  baselineSeconds: number;
  /** For triggers: what the trigger body does. */
  triggerAction?: 'insert' | 'update';
  /** For the identity cache: the same cache on a sequence (tests 47–51; the seed prints 51 as a second "50"). */
  sequence?: { test: number; seconds: number };
}

const BASE = 31.51;

/** Seed 000, Appendix A, Tables 3, 4, 5 and 8 (elapsed seconds for 100,000 inserted rows). */
export const INSERT_COST_MEASUREMENTS: readonly InsertCostMeasurement[] = [
  { feature: 'indexes', setup: '1 index', amount: 1, test: 32, baselineTest: 31, seconds: 53.73, baselineSeconds: BASE },
  { feature: 'indexes', setup: '2 indexes', amount: 2, test: 33, baselineTest: 31, seconds: 83.26, baselineSeconds: BASE },
  { feature: 'indexes', setup: '3 indexes', amount: 3, test: 34, baselineTest: 31, seconds: 108.21, baselineSeconds: BASE },
  { feature: 'indexes', setup: '4 indexes', amount: 4, test: 35, baselineTest: 31, seconds: 141.63, baselineSeconds: BASE },
  { feature: 'clustering', setup: '1 clustered index', amount: 1, test: 38, baselineTest: 31, seconds: 62.93, baselineSeconds: BASE },
  { feature: 'foreignKeys', setup: '1 enforced foreign key', amount: 1, test: 14, baselineTest: 11, seconds: 55.37, baselineSeconds: BASE },
  { feature: 'foreignKeys', setup: '2 enforced foreign keys', amount: 2, test: 15, baselineTest: 11, seconds: 72.71, baselineSeconds: BASE },
  { feature: 'checks', setup: '1 check constraint', amount: 1, test: 12, baselineTest: 11, seconds: 33.65, baselineSeconds: BASE },
  { feature: 'checks', setup: '2 check constraints', amount: 2, test: 13, baselineTest: 11, seconds: 36.63, baselineSeconds: BASE },
  { feature: 'triggers', setup: '1 trigger doing an INSERT', amount: 1, test: 18, baselineTest: 11, seconds: 67.57, baselineSeconds: BASE, triggerAction: 'insert' },
  { feature: 'triggers', setup: '2 triggers doing an INSERT', amount: 2, test: 19, baselineTest: 11, seconds: 175.95, baselineSeconds: BASE, triggerAction: 'insert' },
  { feature: 'triggers', setup: '1 trigger doing an UPDATE', amount: 1, test: 20, baselineTest: 11, seconds: 54.71, baselineSeconds: BASE, triggerAction: 'update' },
  { feature: 'triggers', setup: '2 triggers doing an UPDATE', amount: 2, test: 21, baselineTest: 11, seconds: 150.18, baselineSeconds: BASE, triggerAction: 'update' },
  { feature: 'lobColumns', setup: 'a CHAR(10) column made CLOB(10)', amount: 1, test: 91, baselineTest: 11, seconds: 286.49, baselineSeconds: BASE },
  { feature: 'identityCache', setup: 'identity NO CACHE', amount: 0, test: 42, baselineTest: 41, seconds: 896.61, baselineSeconds: BASE, sequence: { test: 47, seconds: 896.92 } },
  { feature: 'identityCache', setup: 'identity CACHE 5', amount: 5, test: 43, baselineTest: 41, seconds: 212.52, baselineSeconds: BASE, sequence: { test: 48, seconds: 212.58 } },
  { feature: 'identityCache', setup: 'identity CACHE 20 (the default)', amount: 20, test: 44, baselineTest: 41, seconds: 99.06, baselineSeconds: BASE, sequence: { test: 49, seconds: 101.87 } },
  { feature: 'identityCache', setup: 'identity CACHE 100', amount: 100, test: 45, baselineTest: 41, seconds: 61.62, baselineSeconds: BASE, sequence: { test: 50, seconds: 66.55 } },
  { feature: 'identityCache', setup: 'identity CACHE 1000', amount: 1000, test: 46, baselineTest: 41, seconds: 37.51, baselineSeconds: BASE, sequence: { test: 51, seconds: 39.55 } },
];

/** How many times longer the measured inserts took than the baseline. */
export function costFactor(m: InsertCostMeasurement): number {
  return m.seconds / m.baselineSeconds;
}

/** "1.7x", "28x": one decimal below 10, whole numbers above. */
export function formatFactor(factor: number): string {
  return factor >= 10 ? `${Math.round(factor)}x` : `${factor.toFixed(1)}x`;
}

export interface InsertCostLine {
  feature: InsertCostFeature;
  /** Short name of the kind of work: "Indexes", "Identity cache"… */
  label: string;
  /** False when the table does not have it (the line then says "none"). */
  present: boolean;
  /** What the table has, e.g. "3 (IX_A, IX_B, primary key/unique constraint)", "NO CACHE". */
  detail: string;
  /** The seed's factor for the nearest measured setup, when there is one. */
  factor?: number;
  /** When the table's setup lies between two measurements or beyond the last one: "≥4.5x", "2.0x–3.1x". */
  factorText: string;
  /** Where the figure comes from, e.g. "seed 000 test 33 vs 31: 2 indexes"; or why there is none. */
  source: string;
}

function measurements(feature: InsertCostFeature, triggerAction?: 'insert' | 'update'): InsertCostMeasurement[] {
  return INSERT_COST_MEASUREMENTS.filter((m) => m.feature === feature && (triggerAction === undefined || m.triggerAction === triggerAction));
}

function sourceOf(m: InsertCostMeasurement): string {
  return `Db2 INSERT tips, test ${m.test} vs ${m.baselineTest}: ${m.setup}`;
}

/** The measurement for a count: exact, or the largest measured count with "≥" when the table has more. */
function byCount(feature: InsertCostFeature, count: number, triggerAction?: 'insert' | 'update'): { factor: number; text: string; source: string } | undefined {
  const list = measurements(feature, triggerAction).sort((a, b) => a.amount - b.amount);
  if (count <= 0 || list.length === 0) return undefined;
  const exact = list.find((m) => m.amount === count);
  if (exact) return { factor: costFactor(exact), text: formatFactor(costFactor(exact)), source: sourceOf(exact) };
  const last = list[list.length - 1];
  return { factor: costFactor(last), text: `≥${formatFactor(costFactor(last))}`, source: `${sourceOf(last)}; more were not measured` };
}

/**
 * The measured cost of an identity (or sequence: tests 47-51 match 42-46) with this cache. Sizes between two
 * measured ones cost between their factors (a bigger cache costs less).
 */
export function identityCacheCost(cache: number): { factor: number; text: string; source: string } {
  const list = measurements('identityCache').sort((a, b) => a.amount - b.amount);
  const exact = list.find((m) => m.amount === cache);
  if (exact) return { factor: costFactor(exact), text: formatFactor(costFactor(exact)), source: sourceOf(exact) };
  const below = [...list].reverse().find((m) => m.amount < cache)!;
  const above = list.find((m) => m.amount > cache);
  if (!above) return { factor: costFactor(below), text: `≤${formatFactor(costFactor(below))}`, source: `${sourceOf(below)}; larger caches cost less` };
  return {
    factor: costFactor(below),
    text: `${formatFactor(costFactor(above))}–${formatFactor(costFactor(below))}`,
    source: `Db2 INSERT tips, tests ${above.test} and ${below.test} vs ${below.baselineTest}: CACHE ${above.amount} and ${below.amount}`,
  };
}

function names(list: string[], max = 4): string {
  return list.length <= max ? list.join(', ') : `${list.slice(0, max).join(', ')}, …`;
}

function none(feature: InsertCostFeature, label: string): InsertCostLine {
  return { feature, label, present: false, detail: 'none', factorText: '—', source: '' };
}

/** A LOB column whose INLINE LENGTH holds its longest value: every value is stored in the row, none written directly. */
export function isFullyInlined(column: ColumnDef): boolean {
  return column.type.isLob && column.inlineLength !== undefined && column.type.length !== undefined && column.inlineLength >= column.type.length;
}

/**
 * The per-insert work a table carries, one line per kind of work in a fixed order (absent kinds say "none"),
 * each with the seed's factor for the closest measured setup. Factors are not multiplied together: the seed
 * measured each kind of work alone. LOB, LONG and XML columns count when some insert into the table may give them
 * a value (SchemaModel.writtenColumns, as lob-column asks it): one that no insert writes is named, not charged.
 */
export function insertCostSummary(table: TableInfo, schema: SchemaModel): InsertCostLine[] {
  const lines: InsertCostLine[] = [];

  // Every index, and every primary key or unique constraint (Db2 backs each with an index), gets an entry per row.
  const keys = keysWithOwnIndex(table.keyConstraints, table.indexes).length;
  const indexCount = table.indexes.length + keys;
  if (indexCount > 0) {
    const m = byCount('indexes', indexCount)!;
    const parts = table.indexes.map((i) => i.name);
    if (keys) parts.push(`${keys} primary key/unique constraint${keys > 1 ? 's' : ''}`);
    lines.push({ feature: 'indexes', label: 'Indexes', present: true, detail: `${indexCount} (${names(parts)})`, factor: m.factor, factorText: m.text, source: m.source });
  } else lines.push(none('indexes', 'Indexes'));

  const clustered = table.indexes.filter((i) => i.cluster);
  if (clustered.length > 0) {
    const m = measurements('clustering')[0];
    lines.push({
      feature: 'clustering',
      label: 'Clustering index',
      present: true,
      detail: names(clustered.map((i) => i.name)),
      factor: costFactor(m),
      factorText: formatFactor(costFactor(m)),
      source: `${sourceOf(m)}, index included; unclustered: test 32, 1.7x`,
    });
  } else lines.push(none('clustering', 'Clustering index'));

  const enforced = table.foreignKeys.filter((fk) => fk.enforced);
  const informational = table.foreignKeys.length - enforced.length;
  if (enforced.length > 0) {
    const m = byCount('foreignKeys', enforced.length)!;
    const parents = enforced.map((fk) => fk.parentKey.replace(/^\./, ''));
    lines.push({
      feature: 'foreignKeys',
      label: 'Enforced foreign keys',
      present: true,
      detail: `${enforced.length} (parent ${names(parents)})${informational ? `; ${informational} NOT ENFORCED, no per-row check` : ''}`,
      factor: m.factor,
      factorText: m.text,
      source: m.source,
    });
  } else {
    lines.push({ ...none('foreignKeys', 'Enforced foreign keys'), detail: informational ? `none (${informational} NOT ENFORCED: no per-row check)` : 'none' });
  }

  if (table.checks > 0) {
    const m = byCount('checks', table.checks)!;
    lines.push({ feature: 'checks', label: 'Check constraints', present: true, detail: String(table.checks), factor: m.factor, factorText: m.text, source: m.source });
  } else lines.push(none('checks', 'Check constraints'));

  // Only triggers fired by INSERT run per inserted row; the seed measured bodies that insert or update.
  const insertTriggers = table.triggers.filter((t) => t.stmt.events.includes('insert'));
  if (insertTriggers.length > 0) {
    const inserting = insertTriggers.some((t) => t.stmt.body.some((s) => s.kind === 'insert' || s.kind === 'merge'));
    const m = byCount('triggers', insertTriggers.length, inserting ? 'insert' : 'update')!;
    lines.push({
      feature: 'triggers',
      label: 'INSERT triggers',
      present: true,
      detail: `${insertTriggers.length} (${names(insertTriggers.map((t) => t.name))})`,
      factor: m.factor,
      factorText: m.text,
      source: m.source,
    });
  } else lines.push(none('triggers', 'INSERT triggers'));

  const immediate = table.mqts.filter((q) => q.refresh === 'immediate');
  if (immediate.length > 0) {
    lines.push({
      feature: 'mqts',
      label: 'REFRESH IMMEDIATE MQTs',
      present: true,
      detail: `${immediate.length} (${names(immediate.map((q) => q.key.replace(/^\./, '')))})`,
      factorText: 'not measured',
      source: 'each insert also updates the MQT in the same transaction; Db2 INSERT tips did not measure it',
    });
  } else {
    const deferred = table.mqts.length;
    lines.push({ ...none('mqts', 'REFRESH IMMEDIATE MQTs'), detail: deferred ? `none (${deferred} REFRESH DEFERRED: no per-row work)` : 'none' });
  }

  // Written by some insert: a LOB/LONG/XML column no insert gives a value stores nothing outside the row, nor does
  // a LOB whose every value fits its INLINE LENGTH (lob-column and insert-target-cost leave both out too).
  const inline = table.columns.filter(isFullyInlined);
  const outside = table.columns.filter((c) => (c.type.isLob || c.type.isLong || c.type.isXml) && !isFullyInlined(c));
  const written = schema.writtenColumns(table, outside);
  const unwritten = outside.filter((c) => !written.includes(c));
  const typed = (columns: readonly ColumnDef[]) => names(columns.map((c) => `${c.name} ${c.type.name}`));
  // "; NOTE CLOB written by no insert": named beside the columns charged, or instead of them.
  const notWritten = [
    ...(unwritten.length > 0 ? [`${typed(unwritten)} written by no insert`] : []),
    ...(inline.length > 0 ? [`${typed(inline)} stored in the row (INLINE LENGTH as long as the type)`] : []),
  ].join('; ');
  const lobs = written.filter((c) => c.type.isLob);
  const lobLike = written.filter((c) => !c.type.isLob);
  if (lobs.length > 0) {
    const m = measurements('lobColumns')[0];
    lines.push({
      feature: 'lobColumns',
      label: 'LOB columns',
      present: true,
      detail: `${lobs.length} (${typed(lobs)})${notWritten ? `; ${notWritten}` : ''}`,
      factor: costFactor(m),
      factorText: formatFactor(costFactor(m)),
      source: `${sourceOf(m)}; logging and COMPACT made no difference`,
    });
  } else if (lobLike.length > 0) {
    lines.push({
      feature: 'lobColumns',
      label: 'LOB columns',
      present: true,
      detail: `${lobLike.length} LONG/XML (${typed(lobLike)})${notWritten ? `; ${notWritten}` : ''}`,
      factorText: 'not measured',
      source: 'stored outside the row like LOBs; Db2 INSERT tips measured only CLOB',
    });
  } else if (notWritten) {
    lines.push({ ...none('lobColumns', 'LOB columns'), detail: `none (${notWritten}: no direct writes)` });
  } else lines.push(none('lobColumns', 'LOB columns'));

  if (table.identity) {
    const cache = table.identity.cache;
    const m = identityCacheCost(cache);
    lines.push({
      feature: 'identityCache',
      label: 'Identity cache',
      present: true,
      detail: `${table.identity.column.name}: ${cache === 0 ? 'NO CACHE' : `CACHE ${cache}`}${table.identity.explicit ? '' : ' (default)'}`,
      factor: m.factor,
      factorText: m.text,
      source: m.source,
    });
  } else lines.push(none('identityCache', 'Identity cache'));

  return lines;
}
