// "Did you mean …?": the name nearest to a mistyped one (a command, an option, a rule id, a configuration key).

/**
 * The candidate nearest to `word` within 2 edits (a letter added, dropped, changed, or two neighbours swapped:
 * `chek`, `cehck`, `Check`), for "did you mean …?"; undefined when none is that close or `word` is that short.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  if (w.length < 2 || w.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(w, candidate.toLowerCase());
    // A distance as long as the word itself is a different word (`ab` is not `lsp` misspelt).
    if (d < bestDistance && d < w.length) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0][j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
    }
  }
  return rows[a.length][b.length];
}

/** ` (did you mean "x"?)` for `word` among `candidates`, or nothing. */
export function didYouMean(word: string, candidates: readonly string[], quote = '"'): string {
  const near = nearest(word, candidates);
  return near ? ` (did you mean ${quote}${near}${quote}?)` : '';
}
