// The RETURN box's legend in a db2exfmt Access Plan graph: the words (`Rows`, `Rows Actual`, `Cost`, `I/O`, …) that
// stand where every other box has its numbers, so they give the box layout of every operator, never a fixed height.
// Read by the reader of an undamaged drawing (exfmt-graph.ts) and of a damaged one (exfmt-damaged.ts).
import { parseOperatorLabel } from './symbols';
import { inCentreRange, isValue, type Field, type Token } from './exfmt-tokens';

/** Legend words of the RETURN box: `Rows`, `Rows Actual`, `Cost`, `I/O`, `1st Row Cost`, … */
const LEGEND_PHRASE = /^[A-Z1][A-Za-z/.-]{0,11}(?: [A-Z][A-Za-z/.-]{0,11}){0,2}$/;

function legendField(phrase: string): Field {
  const p = phrase.toLowerCase();
  if (p === 'rows actual' || p === 'actual rows') return 'actualRows';
  if (p === 'rows' || p === 'cardinality') return 'rows';
  if (/^(1st|first)\b/.test(p)) return 'firstRowCost';
  if (p === 'cost' || p === 'total cost') return 'totalCost';
  if (p === 'i/o' || p === 'io' || p === 'i/o cost') return 'ioCost';
  if (p.includes('cpu')) return 'cpuCost';
  return 'other';
}

export interface Legend {
  found: boolean;
  above: Field[];
  below: Field[];
  top: number;
  bottom: number;
}

/**
 * The RETURN box shows words instead of numbers; they give the box layout of every operator. A legend
 * line may have lost its indentation (the first line of a paste often does), so a whole line that is a
 * legend phrase counts wherever it starts.
 */
export function readLegend(lines: string[], tokens: Token[][], root: { line: number; token: Token }, claimed: Set<Token>): Legend {
  const phraseOf = (row: Token[]): string | undefined => {
    if (row.length === 0 || row.length > 3) return undefined;
    const phrase = row.map((t) => t.text).join(' ');
    return LEGEND_PHRASE.test(phrase) && !row.some(isValue) && parseOperatorLabel(phrase) === undefined ? phrase : undefined;
  };
  // The words centred on the root's column; else a whole line pasted flush-left.
  const phraseAt = (l: number): string | undefined => {
    const row = tokens[l] ?? [];
    const near = phraseOf(inCentreRange(row, root.token.centre - 12, root.token.centre + 12));
    if (near) return near;
    return row.length > 0 && row[0].start === 0 ? phraseOf(row) : undefined;
  };
  const claimPhrase = (l: number) => {
    for (const t of tokens[l]) if (!isValue(t) && LEGEND_PHRASE.test(t.text)) claimed.add(t);
  };
  const above: Field[] = [];
  let top = root.line - 1;
  for (let l = root.line - 2; l >= 0; l--) {
    const phrase = phraseAt(l);
    if (!phrase) break;
    above.unshift(legendField(phrase));
    claimPhrase(l);
    top = l;
  }
  const below: Field[] = [];
  let bottom = root.line;
  for (let l = root.line + 1; l < lines.length; l++) {
    const phrase = phraseAt(l);
    if (!phrase) break;
    below.push(legendField(phrase));
    claimPhrase(l);
    bottom = l;
  }
  if (above.length === 0 && below.length === 0) return { found: false, above: ['rows'], below: ['totalCost', 'ioCost'], top, bottom };
  return { found: true, above, below, top, bottom };
}
