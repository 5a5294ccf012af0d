// Findings about a run of statements (single-row INSERTs, literal INSERTs, COMMIT after each INSERT) sit on
// each statement of the run from the threshold-th on, not once on the first: a finding then depends only on
// the statements before it, so rows appended to a script are reported on the lines that were added, and
// --only-changed, the checklist and baselines agree on what is new. Not a rule (rules/support/ is not scanned).

/** 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd". */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}
