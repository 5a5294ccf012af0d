// Findings about a run of statements (single-row INSERTs, literal INSERTs, COMMIT after each INSERT) are ONE
// finding per run, on the threshold-th statement (where the run first becomes one worth reporting), with the
// run's size in the message and the whole run as the report's `extent` (the engine words it as `{runLines}`: "lines 2–20,001").
// The span stays on one statement, so the squiggle, the merge of same-line findings (engine/merge.ts) and the
// fingerprint do not move as rows are appended: a baselined run stays known. What a change touches is read
// from the extent (--only-changed, the PR checklist): a row appended to the run, or edited in its middle,
// touches the run's finding. A finding per statement made a 20,000-row script 20,000 findings (16 MB of text,
// 2.5 MB of JSON per keystroke in the editor). Not a rule (rules/support/ is not scanned).
import type { Report, ReportPlace } from '../../server/src/engine/types';

/** 20000 → "20,000": counts in messages read as a DBA writes them. */
export { countText } from '../../server/src/engine/count-text';

/** The report fields of a run of `places` (at least `threshold` of them): flagged at the threshold-th, extending over all. */
export function runReport(places: readonly ReportPlace[], threshold: number): Pick<Report, 'span' | 'stmt' | 'extent'> {
  const flagged = places[Math.max(0, Math.min(threshold, places.length) - 1)];
  return { span: flagged.span, stmt: flagged.stmt, extent: { first: places[0], last: places[places.length - 1] } };
}

/**
 * runReport of a run given as its items: only the three places it reads are made (a 50,000-line script's runs
 * hold 45,000 INSERTs, and a place object for each of them on every keystroke was garbage).
 */
export function runReportOf<T>(items: readonly T[], threshold: number, place: (item: T) => ReportPlace): Pick<Report, 'span' | 'stmt' | 'extent'> {
  const flagged = place(items[Math.max(0, Math.min(threshold, items.length) - 1)]);
  return { span: flagged.span, stmt: flagged.stmt, extent: { first: place(items[0]), last: place(items[items.length - 1]) } };
}
