// A per-row cost scaled to the rows a table is known to receive. When the scripts spell out every row of a bulk
// target (SchemaModel.knownRows), the seed's extra seconds per 100,000 rows say what the feature costs those rows:
// 189 demo rows behind two foreign keys cost a twelfth of a second, not worth a warning. Not a rule: the build
// only registers rules/<id>.ts files at the top level of rules/.
import type { InsertTargetInfo, SchemaModel } from '../../server/src/schema/schema';
import type { Severity } from '../../server/src/engine/types';
import { countText } from '../../server/src/engine/count-text';
import { BASELINE_SECONDS } from './measurements';

/** The rows of every seed 000 measurement (Appendix A). */
const MEASURED_ROWS = 100_000;

/**
 * Below this estimate the finding is a hint: nobody waits for it, and it is nothing to act on (the editor's
 * Problems panel leaves hints out; the CLI lists and counts them apart).
 */
const NOTICEABLE_SECONDS = 1;

/**
 * Below this estimate the finding is information: a few seconds over every row the scripts write (a demo's
 * 3,000 rows at 1.8 s) is worth knowing, but no DBA rewrites a script for it.
 */
const WARNING_SECONDS = 10;

export interface KnownVolumeCost {
  rows: number;
  /** Estimated extra seconds for those rows at the seed's rates. */
  seconds: number;
  /** The severity the estimate allows: a hint under a second, information under ten, else none (as the rule says). */
  cap?: Severity;
}

/**
 * The extra seconds `rows` rows cost a feature that the seed measured at `extraPer100k` seconds more per 100,000
 * rows (the feature's time minus the bare table's), and the severity that estimate allows.
 */
export function scaledCost(rows: number, extraPer100k: number): KnownVolumeCost {
  const seconds = (Math.max(0, extraPer100k) * rows) / MEASURED_ROWS;
  const cap = seconds < NOTICEABLE_SECONDS ? 'hint' : seconds < WARNING_SECONDS ? 'information' : undefined;
  return cap ? { rows, seconds, cap } : { rows, seconds };
}

/**
 * The seed's extra seconds per 100,000 rows for `count` of a feature (foreign keys, indexes, triggers) measured
 * with 1, 2, ... of them: `seconds[i]` is the time with i + 1 of them; past the last measured, that one's cost per
 * unit, `count` times. Less the bare table's 31.5 s (test 11).
 */
export function extraForCount(seconds: readonly number[], count: number): number {
  const n = seconds.length;
  return count <= n ? seconds[Math.max(1, count) - 1] - BASELINE_SECONDS : ((seconds[n - 1] - BASELINE_SECONDS) / n) * count;
}

/** "about 0.08 s", "about 1.6 s", "about 12 s": as precise as an estimate from another machine's rates deserves. */
export function estimateText(seconds: number): string {
  if (seconds < 0.01) return 'less than 0.01 s';
  if (seconds < 1) return `about ${seconds.toFixed(2)} s`;
  if (seconds < 10) return `about ${seconds.toFixed(1)} s`;
  return `about ${Math.round(seconds)} s`;
}

/**
 * For a finding on a bulk target whose rows the scripts spell out: the sentence that scales the seed's figure to
 * them (with a leading space, for the end of a message) and the severity cap (scaledCost's).
 * Nothing when the volume is not known: the message and severity stay as they are.
 */
export function knownVolume(
  schema: SchemaModel,
  target: InsertTargetInfo,
  extraPer100k: number,
  tests: string,
  /** What the rows go into, as the message can say it ("it" when the message is about the table). */
  into = 'it',
): { sentence: string; maxSeverity?: Severity } {
  const rows = schema.knownRows(target);
  if (rows === undefined) return { sentence: '' };
  const cost = scaledCost(rows, extraPer100k);
  // Up to: some rows are a loop's over a table of known rows, which may pass over fewer (SchemaModel.knownRowsAreBound).
  const upTo = schema.knownRowsAreBound(target) ? 'up to ' : '';
  const sentence = ` The scripts insert ${upTo}${countText(rows)} row${rows === 1 ? '' : 's'} into ${into}: ${estimateText(cost.seconds)} more in all at the measured rates (${tests}).`;
  return { sentence, maxSeverity: cost.cap };
}
