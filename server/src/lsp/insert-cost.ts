// What one insert into a table costs, as measured in seed 000 (Appendix A), for the table hover.
// The measurements are kept as the seed printed them (elapsed seconds per test) and the relative
// costs are computed from them, so every factor shown can be traced to the test it comes from.
import type { TableInfo, SchemaModel } from '../schema/schema';
import { displayKey } from '../schema/schema';

export interface Measurement {
  /** Test number in seed 000, Appendix A. */
  test: number;
  /** The baseline test it is compared with. */
  baseline: number;
  what: string;
  seconds: number;
  baselineSeconds: number;
}

// Seed 000, Appendix A. Baseline: tests 11/31/41, 100,000 rows by CLI array insert, commit per 1000 rows, 31.51 s.
const BASE = 31.51;

/** Every measurement the hover uses, in one place. */
export const MEASUREMENTS = {
  index1: { test: 32, baseline: 31, what: '1 index', seconds: 53.73, baselineSeconds: BASE },
  index2: { test: 33, baseline: 31, what: '2 indexes', seconds: 83.26, baselineSeconds: BASE },
  index3: { test: 34, baseline: 31, what: '3 indexes', seconds: 108.21, baselineSeconds: BASE },
  index4: { test: 35, baseline: 31, what: '4 indexes', seconds: 141.63, baselineSeconds: BASE },
  clusteredIndex: { test: 38, baseline: 31, what: '1 clustering index', seconds: 62.93, baselineSeconds: BASE },
  check1: { test: 12, baseline: 11, what: '1 check constraint', seconds: 33.65, baselineSeconds: BASE },
  check2: { test: 13, baseline: 11, what: '2 check constraints', seconds: 36.63, baselineSeconds: BASE },
  fk1: { test: 14, baseline: 11, what: '1 foreign key', seconds: 55.37, baselineSeconds: BASE },
  fk2: { test: 15, baseline: 11, what: '2 foreign keys', seconds: 72.71, baselineSeconds: BASE },
  insertTrigger1: { test: 18, baseline: 11, what: '1 trigger doing an INSERT', seconds: 67.57, baselineSeconds: BASE },
  insertTrigger2: { test: 19, baseline: 11, what: '2 triggers doing an INSERT', seconds: 175.95, baselineSeconds: BASE },
  updateTrigger1: { test: 20, baseline: 11, what: '1 trigger doing an UPDATE', seconds: 54.71, baselineSeconds: BASE },
  updateTrigger2: { test: 21, baseline: 11, what: '2 triggers doing an UPDATE', seconds: 150.18, baselineSeconds: BASE },
  clob: { test: 91, baseline: 11, what: 'a CHAR(10) column made CLOB(10)', seconds: 286.49, baselineSeconds: BASE },
  identityNoCache: { test: 42, baseline: 41, what: 'IDENTITY, NO CACHE', seconds: 896.61, baselineSeconds: BASE },
  identityCache5: { test: 43, baseline: 41, what: 'IDENTITY, CACHE 5', seconds: 212.52, baselineSeconds: BASE },
  identityCache20: { test: 44, baseline: 41, what: 'IDENTITY, CACHE 20 (default)', seconds: 99.06, baselineSeconds: BASE },
  identityCache100: { test: 45, baseline: 41, what: 'IDENTITY, CACHE 100', seconds: 61.62, baselineSeconds: BASE },
  identityCache1000: { test: 46, baseline: 41, what: 'IDENTITY, CACHE 1000', seconds: 37.51, baselineSeconds: BASE },
  locksizeTable: { test: 101, baseline: 11, what: 'LOCKSIZE TABLE', seconds: 30.58, baselineSeconds: BASE },
  append: { test: 23, baseline: 22, what: 'APPEND ON (1,000,000 rows)', seconds: 281.64, baselineSeconds: 282.02 },
} satisfies Record<string, Measurement>;

/** Relative cost (elapsed time over the baseline's), e.g. 1.7 for test 32. */
export function factor(m: Measurement): number {
  return m.seconds / m.baselineSeconds;
}

/** "1.7x (seed 000, test 32 vs 31)". */
export function cite(m: Measurement): string {
  const f = factor(m);
  const shown = f >= 10 ? f.toFixed(0) : f.toFixed(1);
  return `${shown}x (seed 000, test ${m.test} vs ${m.baseline})`;
}

const IDENTITY_STEPS: [number, Measurement][] = [
  [0, MEASUREMENTS.identityNoCache],
  [5, MEASUREMENTS.identityCache5],
  [20, MEASUREMENTS.identityCache20],
  [100, MEASUREMENTS.identityCache100],
  [1000, MEASUREMENTS.identityCache1000],
];

/** The measured cache size at or below `cache` (conservative: a cache of 50 is shown with CACHE 20's cost). */
export function identityMeasurement(cache: number): Measurement {
  let chosen = IDENTITY_STEPS[0][1];
  for (const [size, m] of IDENTITY_STEPS) if (cache >= size) chosen = m;
  return chosen;
}

export interface CostLine {
  /** What the table has, e.g. "2 indexes (1 clustering)". */
  feature: string;
  /** The measured relative cost with its source, or why there is none. */
  cost: string;
}

/** The insert cost summary of a table, one line per feature that adds work to every inserted row. */
export function insertCostLines(table: TableInfo): CostLine[] {
  const lines: CostLine[] = [];
  // Two files may define the same index or trigger (a script and its corrected copy): count a name once,
  // as its last definition.
  const tableIndexes = lastByName(table.indexes);
  const indexes = tableIndexes.length;
  const clustering = tableIndexes.filter((i) => i.cluster).length;
  if (indexes > 0) {
    const byCount = [MEASUREMENTS.index1, MEASUREMENTS.index2, MEASUREMENTS.index3, MEASUREMENTS.index4][Math.min(indexes, 4) - 1];
    const names = tableIndexes.map((i) => i.name + (i.cluster ? ' (CLUSTER)' : i.unique ? ' (UNIQUE)' : '')).join(', ');
    let cost = `${indexes > 4 ? 'more than ' : ''}${cite(byCount)} for ${byCount.what}`;
    if (clustering > 0) cost += `; a clustering index: ${cite(MEASUREMENTS.clusteredIndex)}`;
    lines.push({ feature: `${plural(indexes, 'index', 'indexes')}: ${names}`, cost });
  }
  if (table.uniqueConstraints > 0) {
    lines.push({
      feature: `${plural(table.uniqueConstraints, 'primary key / unique constraint', 'primary key / unique constraints')}`,
      cost: `each keeps an index up to date: like an index, ${cite(MEASUREMENTS.index1)}`,
    });
  }
  const enforced = table.foreignKeys.filter((fk) => fk.enforced);
  const informational = table.foreignKeys.length - enforced.length;
  if (enforced.length > 0) {
    const m = enforced.length === 1 ? MEASUREMENTS.fk1 : MEASUREMENTS.fk2;
    lines.push({
      feature: `${plural(enforced.length, 'enforced foreign key', 'enforced foreign keys')} → ${enforced.map((fk) => displayKey(fk.parentKey)).join(', ')}`,
      cost: `${enforced.length > 2 ? 'more than ' : ''}${cite(m)} for ${m.what}: a parent lookup per row`,
    });
  }
  if (informational > 0) {
    lines.push({ feature: `${plural(informational, 'NOT ENFORCED foreign key', 'NOT ENFORCED foreign keys')}`, cost: 'no per-row lookup' });
  }
  if (table.checks > 0) {
    const m = table.checks === 1 ? MEASUREMENTS.check1 : MEASUREMENTS.check2;
    lines.push({ feature: plural(table.checks, 'check constraint', 'check constraints'), cost: `${cite(m)}: cheap, no I/O` });
  }
  const insertTriggers = lastByName(table.triggers).filter((t) => t.stmt.events.includes('insert'));
  if (insertTriggers.length > 0) {
    const doesUpdateOnly = insertTriggers.every((t) => t.stmt.body.length > 0 && t.stmt.body.every((s) => s.kind !== 'insert' && s.kind !== 'merge'));
    const m = doesUpdateOnly
      ? insertTriggers.length === 1 ? MEASUREMENTS.updateTrigger1 : MEASUREMENTS.updateTrigger2
      : insertTriggers.length === 1 ? MEASUREMENTS.insertTrigger1 : MEASUREMENTS.insertTrigger2;
    lines.push({
      feature: `${plural(insertTriggers.length, 'insert trigger', 'insert triggers')}: ${insertTriggers.map((t) => `${t.name} (${t.stmt.timing.toUpperCase()}, FOR EACH ${t.stmt.granularity.toUpperCase()})`).join(', ')}`,
      cost: `${insertTriggers.length > 2 ? 'more than ' : ''}${cite(m)} for ${m.what}`,
    });
  }
  const immediate = table.mqts.filter((m) => m.refresh === 'immediate');
  if (immediate.length > 0) {
    lines.push({
      feature: `${plural(immediate.length, 'REFRESH IMMEDIATE MQT', 'REFRESH IMMEDIATE MQTs')}: ${immediate.map((m) => displayKey(m.key)).join(', ')}`,
      cost: 'every insert also maintains the MQT; not timed in Appendix A (seed 000, Appendix B, suggestion 22)',
    });
  }
  const deferred = table.mqts.length - immediate.length;
  if (deferred > 0) lines.push({ feature: plural(deferred, 'REFRESH DEFERRED MQT', 'REFRESH DEFERRED MQTs'), cost: 'no work at insert time' });
  const lobs = table.columns.filter((c) => c.type.isLob || c.type.isXml);
  if (lobs.length > 0) {
    lines.push({
      feature: `${plural(lobs.length, 'LOB/XML column', 'LOB/XML columns')}: ${lobs.map((c) => `${c.name} ${c.type.name}`).join(', ')}`,
      cost: `${cite(MEASUREMENTS.clob)} for ${MEASUREMENTS.clob.what}, whether logged or compact or not`,
    });
  }
  const longs = table.columns.filter((c) => c.type.isLong);
  if (longs.length > 0) {
    lines.push({
      feature: `${plural(longs.length, 'LONG column', 'LONG columns')}: ${longs.map((c) => c.name).join(', ')}`,
      cost: 'stored apart from the row like a LOB; not timed (seed 000, Appendix B, suggestion 6)',
    });
  }
  if (table.identity) {
    const cache = table.identity.cache;
    const m = identityMeasurement(cache);
    const written = cache === 0 ? 'NO CACHE' : `CACHE ${cache}${table.identity.explicit ? '' : ' (default)'}`;
    const exact = IDENTITY_STEPS.some(([size]) => size === cache);
    lines.push({
      feature: `IDENTITY ${table.identity.column.name}, ${written}`,
      cost: `${cite(m)}${exact ? '' : ` (measured with ${m.what.replace('IDENTITY, ', '')}, the nearest smaller cache)`}`,
    });
  }
  if (table.locksize === 'table') lines.push({ feature: 'LOCKSIZE TABLE', cost: `${cite(MEASUREMENTS.locksizeTable)}: slightly faster` });
  if (table.append) lines.push({ feature: 'APPEND ON', cost: `${cite(MEASUREMENTS.append)}` });
  return lines;
}

/** The hover text for a table (Markdown). */
export function tableHoverMarkdown(table: TableInfo, schema: SchemaModel, where?: (file: string, offset: number) => string): string {
  const out: string[] = [];
  const kind = table.mqt ? 'Materialized query table' : 'Table';
  out.push(`**${kind} ${displayKey(table.key)}** — what one insert costs`);
  if (table.definition && where) out.push(`\nDefined in ${where(table.definition.file, table.definition.stmt.origin.toFile(table.definition.stmt.span.start))}.`);
  else if (!table.definition) out.push('\nIts CREATE TABLE is not in the workspace; only what other DDL says about it is known.');
  const lines = insertCostLines(table);
  if (lines.length === 0) {
    out.push('\nNothing here adds work per inserted row: no indexes, constraints, triggers, MQTs, LOBs or identity (the seed\'s baseline, test 11: 100,000 rows in 31.5 s).');
  } else {
    out.push('\n| Adds work per row | Measured relative cost |\n|---|---|');
    for (const l of lines) out.push(`| ${escapeCell(l.feature)} | ${escapeCell(l.cost)} |`);
    out.push('\nEach factor was measured alone against the baseline (100,000 rows, CLI array insert, commit every 1,000 rows: 31.5 s); together they add up, they do not simply multiply.');
  }
  const target = schema.isInsertTarget(table) ? (schema.insertTarget({ name: table.name, schema: table.schema, span: { start: 0, end: 0 } })) : undefined;
  if (target) {
    out.push(`\nInserted into at ${plural(target.sites.length, 'place', 'places')} in the workspace${target.bulkReasons.length ? ` (bulk: ${target.bulkReasons.join('; ')})` : ''}.`);
  }
  return out.join('\n');
}

function lastByName<T extends { name: string }>(items: readonly T[]): T[] {
  const byName = new Map<string, T>();
  for (const item of items) {
    byName.delete(item.name);
    byName.set(item.name, item);
  }
  return [...byName.values()];
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
