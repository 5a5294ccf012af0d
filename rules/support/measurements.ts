// Elapsed times measured in seed 000 (Bill Wilkins, "Tips for improving INSERT performance in DB2
// Universal Database", 2004), Appendix A: 100,000 rows, CLI array inserts of 10 rows, a commit every
// 1000 rows, SMS table space, unless a test says otherwise. The figures live once, in
// server/src/schema/insert-costs.ts (shared with the checklist and hovers); this module shapes them for messages.
import { INSERT_COST_MEASUREMENTS, type InsertCostFeature } from '../../server/src/schema/insert-costs';

function seconds(feature: InsertCostFeature, filter: (m: (typeof INSERT_COST_MEASUREMENTS)[number]) => boolean = () => true): number[] {
  return INSERT_COST_MEASUREMENTS.filter((m) => m.feature === feature && filter(m))
    .sort((a, b) => a.amount - b.amount)
    .map((m) => m.seconds);
}

/** Test 11/31/41: the bare table (no index, constraint, trigger, identity). */
export const BASELINE_SECONDS = INSERT_COST_MEASUREMENTS[0].baselineSeconds;

/** Tests 31–35: elapsed seconds by number of indexes maintained during the inserts (index 0: none). */
export const SECONDS_BY_INDEX_COUNT = [BASELINE_SECONDS, ...seconds('indexes')];
/** Test 38: one clustering index (vs 53.73 s for one ordinary index, test 32). */
export const CLUSTERED_INDEX_SECONDS = seconds('clustering')[0];

/** Tests 14, 15: one and two enforced foreign keys. */
export const FK_SECONDS = seconds('foreignKeys');

/** Tests 18, 19: triggers that insert a row; 20, 21: triggers that update a row. */
export const INSERTING_TRIGGER_SECONDS = seconds('triggers', (m) => m.triggerAction === 'insert');
export const UPDATING_TRIGGER_SECONDS = seconds('triggers', (m) => m.triggerAction === 'update');

/** Tests 12, 13: one and two CHECK constraints. */
export const CHECK_SECONDS = seconds('checks');

/** Test 91: a CHAR(10) column turned into CLOB(10). */
export const LOB_SECONDS = seconds('lobColumns')[0];

/**
 * Tests 42–46 (identity) and 47–51 (sequence), cache size → test and elapsed seconds. The seed prints test 51 as
 * "50" a second time.
 */
export const IDENTITY_CACHE_SECONDS: readonly { cache: number; test: number; seconds: number; sequence: { test: number; seconds: number } }[] = INSERT_COST_MEASUREMENTS.filter(
  (m) => m.feature === 'identityCache',
)
  .sort((a, b) => a.amount - b.amount)
  .map((m) => ({ cache: m.amount, test: m.test, seconds: m.seconds, sequence: m.sequence! }));

/** The measured cache setting closest to (and not above) `cache`, for an identity or a sequence: its test and seconds. */
export function identityMeasurement(cache: number, isSequence = false): { cache: number; test: number; seconds: number } {
  let best = IDENTITY_CACHE_SECONDS[0];
  for (const m of IDENTITY_CACHE_SECONDS) if (m.cache <= cache) best = m;
  return isSequence ? { cache: best.cache, ...best.sequence } : best;
}

/** How many times the baseline, to one decimal: 896.61 → "28.5x". */
export function factor(seconds: number): string {
  return `${(seconds / BASELINE_SECONDS).toFixed(1)}x`;
}

/** Seconds to one decimal, as the messages quote them: 67.57 → "67.6 s". */
export function secsOf(seconds: number): string {
  // Half up, as the docs quote the seed's hundredths (39.55 → 39.6); toFixed gives 39.5 (39.55 is 39.549… in binary).
  const tenths = Math.round(Math.round(seconds * 100) / 10);
  return `${(tenths / 10).toFixed(1)} s`;
}

/**
 * Db2 INSERT tips: one row per INSERT took 7.6 s per 10,000 rows, prepared and committed every 1000 (test 68), and
 * one INSERT … SELECT filled 100,000 rows in 15.7 s (test 6): what a routine's row-by-row loop costs per 100,000
 * rows beyond the one statement that could replace it.
 */
export const ROW_AT_A_TIME_EXTRA_PER_100K = 7.6 * 10 - 15.7;
