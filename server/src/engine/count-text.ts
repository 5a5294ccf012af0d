// Counts and line numbers in messages, grouped as a DBA writes them: 20000 → "20,000".
// Written out rather than `n.toLocaleString('en-US')`: the first toLocaleString (or Intl.NumberFormat) of a
// process loads ICU's locale data, ~20 ms, a sixth of the CLI's start-up, for the first finding of a run.

/** `n.toLocaleString('en-US')` for the safe integers messages count with; other numbers go to ICU. */
export function countText(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += ',' + digits.slice(i, i + 3);
  return n < 0 ? '-' + out : out;
}
