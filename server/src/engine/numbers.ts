// Numbers in messages, without Intl: the first toLocaleString('en-US') of a process loads ICU's number
// formatting (6-35 ms, measured), which landed in the time of whichever file first had a run to report.

/** 20000 → "20,000", as toLocaleString('en-US') writes it (which it falls back to for non-integers). */
export function groupThousands(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += ',' + digits.slice(i, i + 3);
  return n < 0 ? '-' + out : out;
}
