// Operator names as db2exfmt draws them: symbols around the name carry join/TQ/aggregation arguments
// (FORMAT.md §2.4, from IBM's "symbols around operators" page).

export const KNOWN_OPERATOR_TYPES = new Set([
  'RETURN', 'INSERT', 'UPDATE', 'DELETE', 'NLJOIN', 'HSJOIN', 'MSJOIN', 'ZZJOIN', 'TBSCAN', 'IXSCAN', 'EISCAN', 'XISCAN',
  'FETCH', 'RIDSCN', 'IXAND', 'SORT', 'TEMP', 'GRPBY', 'UNIQUE', 'FILTER', 'UNION', 'GENROW', 'TQ', 'SHIP', 'RPD',
  'PIPE', 'CMPEXP', 'REBAL', 'XSCAN', 'XANDOR', 'TF', 'SPLIT', 'UNNEST',
]);

const TQ_LETTERS: Record<string, string> = {
  A: 'asynchrony',
  B: 'broadcast',
  C: 'column-row-transition',
  D: 'directed',
  L: 'local',
  M: 'merging',
  X: 'xml-aggregation',
  S: 'scatter',
};

export const LONG_NAMES: Record<string, string> = {
  RETURN: 'Return Result', INSERT: 'Insert', UPDATE: 'Update', DELETE: 'Delete', NLJOIN: 'Nested Loop Join',
  HSJOIN: 'Hash Join', MSJOIN: 'Merge Scan Join', ZZJOIN: 'Zigzag Join', TBSCAN: 'Table Scan', IXSCAN: 'Index Scan',
  EISCAN: 'Extended Index Scan', FETCH: 'Fetch', RIDSCN: 'Row Identifier Scan', IXAND: 'Dynamic Bitmap Index ANDing',
  SORT: 'Sort', TEMP: 'Temporary Table Construction', GRPBY: 'Group By', UNIQUE: 'Duplicate Elimination', FILTER: 'Filter',
  UNION: 'Union', GENROW: 'Generate Row', TQ: 'Table Queue', SHIP: 'Ship Query to Remote System',
};

export interface OperatorLabel {
  type: string;
  flags: string[];
}

const LABEL = /^([>x^pg]{0,3})([A-Z][A-Z0-9]{1,9})([<x^*]{0,3})$/;

/** Reads an operator token such as `^NLJOIN`, `>HSJOIN<`, `BTQ`, `LTQ*`; undefined when it is not one. */
export function parseOperatorLabel(token: string): OperatorLabel | undefined {
  const m = LABEL.exec(token);
  if (!m) return undefined;
  const [, prefix, core, suffix] = m;
  const flags: string[] = [];
  let type = core;
  // Every TQ variant is one operator type: the graph draws CTQ, BTQ, MDTQ… where Plan Details and the
  // EXPLAIN tables say TQ (the letters are its arguments).
  const tq = /^([ABCDLMXS]+)TQ$/.exec(core);
  if (tq) {
    type = 'TQ';
    for (const letter of tq[1]) flags.push(TQ_LETTERS[letter]);
  } else if (!KNOWN_OPERATOR_TYPES.has(core) && core.length < 2) {
    return undefined;
  }
  if (prefix.includes('>') && suffix.includes('<')) flags.push('full-outer-join');
  else if (prefix.includes('>')) flags.push('left-outer-join');
  else if (suffix.includes('<')) flags.push('right-outer-join');
  if (prefix.includes('x')) flags.push('left-anti-join');
  if (suffix.includes('x')) flags.push('right-anti-join');
  if (prefix.includes('^')) flags.push('early-out-left');
  if (suffix.includes('^')) flags.push('early-out-right');
  if (prefix.includes('p')) flags.push('partial-aggregation');
  if (prefix.includes('g')) flags.push('grouping-sets');
  if (suffix.includes('*')) flags.push('listener');
  return { type, flags };
}

/** The flags db2exfmt would draw for an operator, from its EXPLAIN_ARGUMENT rows. */
export function flagsFromArguments(args: { name: string; value: string }[]): string[] {
  const flags: string[] = [];
  for (const { name, value } of args) {
    const v = value.trim().toUpperCase();
    switch (name.trim().toUpperCase()) {
      case 'OUTERJN':
        if (v.startsWith('LEFT') && v.includes('ANTI')) flags.push('left-anti-join');
        else if (v.startsWith('RIGHT') && v.includes('ANTI')) flags.push('right-anti-join');
        else if (v.startsWith('LEFT')) flags.push('left-outer-join');
        else if (v.startsWith('RIGHT')) flags.push('right-outer-join');
        else if (v.startsWith('FULL')) flags.push('full-outer-join');
        break;
      case 'EARLYOUT':
        if (v === 'LEFT') flags.push('early-out-left');
        if (v === 'RIGHT') flags.push('early-out-right');
        break;
      case 'TQSEND':
        if (v === 'BROADCAST') flags.push('broadcast');
        if (v === 'DIRECTED') flags.push('directed');
        if (v === 'SCATTER') flags.push('scatter');
        break;
      case 'TQORIGIN':
        if (v.includes('ASYNC')) flags.push('asynchrony');
        else if (v.includes('COLUMN')) flags.push('column-row-transition');
        else if (v.includes('XML')) flags.push('xml-aggregation');
        break;
      case 'TQMERGE':
        if (v === 'TRUE') flags.push('merging');
        break;
      case 'TQTYPE':
        if (v === 'LOCAL') flags.push('local');
        break;
      case 'LISTENER':
        if (v === 'TRUE') flags.push('listener');
        break;
    }
  }
  return flags;
}

/** Redraws the symbols for a label from flags (for plans read from the EXPLAIN tables). */
export function labelFromFlags(type: string, flags: string[]): string {
  let prefix = '';
  let suffix = '';
  if (type === 'TQ') {
    // In the order db2exfmt prints them: LMTQ, MDTQ, MBTQ, …
    const letters: [string, string][] = [['local', 'L'], ['merging', 'M'], ['asynchrony', 'A'], ['column-row-transition', 'C'], ['xml-aggregation', 'X'], ['scatter', 'S'], ['broadcast', 'B'], ['directed', 'D']];
    for (const [flag, letter] of letters) if (flags.includes(flag)) prefix += letter;
  }
  if (flags.includes('full-outer-join')) { prefix = '>' + prefix; suffix += '<'; }
  if (flags.includes('left-outer-join')) prefix = '>' + prefix;
  if (flags.includes('right-outer-join')) suffix += '<';
  if (flags.includes('left-anti-join')) prefix = 'x' + prefix;
  if (flags.includes('right-anti-join')) suffix += 'x';
  if (flags.includes('early-out-left')) prefix = '^' + prefix;
  if (flags.includes('early-out-right')) suffix += '^';
  if (flags.includes('listener')) suffix += '*';
  return prefix + type + suffix;
}

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,3})?$/;

/** C `%g` numbers as db2exfmt prints them, including Windows' 3-digit exponents (1.2e+003). */
export function parseDb2Number(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (!NUMBER.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

export function isDb2Number(text: string): boolean {
  return NUMBER.test(text.trim());
}
