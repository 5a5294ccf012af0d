// Writes db2exfmt-shaped text from a small tree description: used to generate fixtures (large plans,
// CRLF / 3-digit-exponent variants) and the property tests, with the geometry db2exfmt uses: every token
// of a box centred on the operator's column, `|` for one input, `/---+---\` for several, object leaves of
// 3-4 lines. It also writes what Db2 11.5.8/12.1 print and what pastes do to the text: "Rows Actual" lines,
// padded Plan Details headers, a shared subplan drawn under each parent (its inputs under the first),
// tabs of any width, a flush-left first line, double spacing and lines folded at a fixed width.

export interface WObject {
  /** CO-TABLE is printed glued to its schema ("CO-TABLE:TPCDS"), as wide type labels are. */
  type: 'TABLE' | 'INDEX' | 'TABFNC' | 'NICKNM' | 'CO-TABLE';
  schema: string;
  name: string;
  q?: string;
  rows: number;
}

export interface WOperator {
  id: number;
  label: string;
  rows: number;
  /** Rows counted at run time, printed under the estimate when WriteOptions.actuals is set (undefined: NA). */
  actualRows?: number;
  cost: number;
  io: number;
  cpu?: number;
  /** The same WOperator object may be the input of several operators: a shared TEMP or subplan. */
  inputs: (WOperator | WObject)[];
  /** Objects written (INSERT/UPDATE/DELETE target), drawn as the last input. */
  writes?: WObject;
  args?: [string, string, string][];
  predicates?: { how: string; text: string; ff?: number }[];
}

export interface WriteOptions {
  threeDigitExponent?: boolean;
  crlf?: boolean;
  title?: string;
  version?: string;
  formattedOnDb?: string;
  /** Boxes get a second "Rows Actual" line (plans explained from a section); objects print NA there. */
  actuals?: boolean;
  /** Plan Details headers padded before the colon, as 11.5.8 and 12.1 print them: "2) FETCH : (Fetch)". */
  paddedHeaders?: boolean;
  /** The graph's indentation turned into tabs of this width (an editor's "indent using tabs"). */
  tabWidth?: number;
  /** The first graph line pasted without its indentation. */
  flushFirstLine?: boolean;
  /** Every line followed by a blank one. */
  doubleSpaced?: boolean;
  /** Graph lines folded at this many columns (a terminal or mail client wrapping the paste). */
  wrapAt?: number;
  /** "Statement Type:" of the statement header (default Insert). */
  statementType?: string;
}

export function g(n: number, threeDigit = false): string {
  if (n === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  let s: string;
  if (exp < -4 || exp >= 6) {
    const [mant, e] = n.toExponential(5).split('e');
    const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[-+]/, '').padStart(threeDigit ? 3 : 2, '0');
    s = `${m}e${sign}${digits}`;
  } else {
    s = Number(n.toPrecision(6)).toString();
    if (/e/.test(s)) s = n.toFixed(Math.max(0, 5 - exp));
  }
  return s;
}

function isObject(x: WOperator | WObject): x is WObject {
  return (x as WObject).type !== undefined && (x as WOperator).label === undefined;
}

interface Laid {
  width: number;
  centre: number;
  lines: string[];
}

function place(line: string, text: string, centre: number): string {
  const start = Math.max(0, Math.round(centre - (text.length - 1) / 2));
  const padded = line.padEnd(start + text.length, ' ');
  return padded.slice(0, start) + text + padded.slice(start + text.length);
}

function boxTokens(n: WOperator | WObject, opts: WriteOptions, root: boolean): string[] {
  const gg = (x: number) => g(x, opts.threeDigitExponent);
  if (isObject(n)) {
    const label = n.type === 'CO-TABLE' ? `${n.type}:${n.schema}` : `${n.type}: ${n.schema}`;
    const t = [gg(n.rows), ...(opts.actuals ? ['NA'] : []), label, n.name];
    if (n.q) t.push(n.q);
    return t;
  }
  const id = `(${String(n.id).padStart(4, ' ')})`;
  if (root) return ['Rows', ...(opts.actuals ? ['Rows Actual'] : []), n.label, id, 'Cost', 'I/O'];
  const actual = opts.actuals ? [n.actualRows === undefined ? 'NA' : gg(n.actualRows)] : [];
  return [gg(n.rows), ...actual, n.label, id, gg(n.cost), gg(n.io)];
}

function layout(n: WOperator | WObject, opts: WriteOptions, drawn: Set<WOperator>, root = false): Laid {
  const tokens = boxTokens(n, opts, root);
  const boxWidth = Math.max(...tokens.map((t) => t.length)) + 2;
  // A shared subplan is drawn in full under its first parent and as a bare box under the others.
  const repeat = !isObject(n) && drawn.has(n);
  if (!isObject(n)) drawn.add(n);
  const inputs = isObject(n) || repeat ? [] : [...n.inputs, ...(n.writes ? [n.writes] : [])];
  if (inputs.length === 0) {
    const centre = (boxWidth - 1) / 2;
    return { width: boxWidth, centre, lines: tokens.map((t) => place('', t, centre)) };
  }
  const kids = inputs.map((k) => layout(k, opts, drawn));
  const gap = 2;
  let x = 0;
  const offsets: number[] = [];
  for (const k of kids) {
    offsets.push(x);
    x += k.width + gap;
  }
  let width = x - gap;
  let centre = kids.length === 1 ? kids[0].centre : (offsets[0] + kids[0].centre + offsets[kids.length - 1] + kids[kids.length - 1].centre) / 2;
  centre = Math.round(centre);
  let shift = 0;
  if (centre < (boxWidth - 1) / 2) shift = Math.ceil((boxWidth - 1) / 2 - centre);
  centre += shift;
  width = Math.max(width + shift, centre + boxWidth / 2 + 1);
  const lines = tokens.map((t) => place('', t, centre));
  const childCentres = kids.map((k, i) => Math.round(offsets[i] + shift + k.centre));
  if (kids.length === 1) lines.push(place('', '|', centre));
  else {
    const first = childCentres[0];
    const last = childCentres[childCentres.length - 1];
    const chars = Array.from({ length: last - first + 1 }, () => '-');
    chars[0] = '/';
    chars[chars.length - 1] = '\\';
    const plusAt = centre - first;
    if (plusAt > 0 && plusAt < chars.length - 1) chars[plusAt] = '+';
    for (const c of childCentres.slice(1, -1)) chars[c - first] = '+';
    lines.push(place('', chars.join(''), (first + last) / 2));
  }
  const depth = Math.max(...kids.map((k) => k.lines.length));
  for (let row = 0; row < depth; row++) {
    let line = '';
    kids.forEach((k, i) => {
      const text = k.lines[row];
      if (text && text.trim()) {
        const pad = offsets[i] + shift;
        line = line.padEnd(pad, ' ');
        const merged = line.slice(0, pad) + text;
        line = merged.length >= line.length ? merged : merged + line.slice(merged.length);
      }
    });
    lines.push(line);
  }
  return { width, centre, lines };
}

export function drawGraph(root: WOperator, opts: WriteOptions = {}, indent = 0): string[] {
  let lines = layout(root, opts, new Set(), true).lines.map((l) => (' '.repeat(indent) + l).replace(/\s+$/, ''));
  if (opts.tabWidth) {
    const w = opts.tabWidth;
    lines = lines.map((l) => {
      const lead = l.length - l.trimStart().length;
      return '\t'.repeat(Math.floor(lead / w)) + ' '.repeat(lead % w) + l.trimStart();
    });
  }
  if (opts.flushFirstLine && lines.length) lines[0] = lines[0].trimStart();
  if (opts.wrapAt) {
    const w = opts.wrapAt;
    lines = lines.flatMap((l) => {
      const parts: string[] = [];
      for (let i = 0; i < l.length; i += w) parts.push(l.slice(i, i + w));
      return parts.length ? parts : [''];
    });
  }
  return lines;
}

/** Every operator once (a shared one is listed once), sorted by id. */
export function allOperators(root: WOperator): WOperator[] {
  const seen = new Set<WOperator>();
  const walk = (n: WOperator) => {
    if (seen.has(n)) return;
    seen.add(n);
    for (const c of n.inputs) if (!isObject(c)) walk(c);
  };
  walk(root);
  return [...seen].sort((a, b) => a.id - b.id);
}

/** The operator type Plan Details and the EXPLAIN tables use: no graph symbols, every TQ variant is TQ. */
export function operatorType(label: string): string {
  const core = label.replace(/^[>x^pg]+/, '').replace(/[<x^*]+$/, '');
  return /^[ABCDLMXS]+TQ$/.test(core) ? 'TQ' : core;
}

export interface WStatement {
  queryNo: number;
  original: string;
  optimized: string;
  root: WOperator;
  objects: { schema: string; name: string; type: string; extra?: [string, string][] }[];
}

export function writeExfmt(statements: WStatement[], opts: WriteOptions = {}): string {
  const out: string[] = [];
  const gg = (n: number) => g(n, opts.threeDigitExponent);
  out.push(`DB2 Universal Database Version ${opts.version ?? '11.5'}, 5622-044 (c) Copyright IBM Corp. 1991, 2019`);
  out.push('Licensed Material - Program Property of IBM');
  out.push(opts.title ?? 'IBM DATABASE 2 Explain Table Format Tool', '', '', '');
  out.push('******************** EXPLAIN INSTANCE ********************', '');
  out.push(`DB2_VERSION:       ${(opts.version ?? '11.5').split('.').map((p) => p.padStart(2, '0')).join('.')}.8`);
  if (opts.formattedOnDb) out.push(`FORMATTED ON DB:   ${opts.formattedOnDb}`);
  out.push('SOURCE_NAME:       SQLC2P31', 'SOURCE_SCHEMA:     NULLID  ', 'SOURCE_VERSION:      ', 'EXPLAIN_TIME:      2026-11-20-10.15.42.123456', 'EXPLAIN_REQUESTER: DB2INST1', '');
  out.push('Database Context:', '----------------', '\tParallelism:          None', `\tCPU Speed:            ${gg(3.83e-7)}`, '\tComm Speed:           100', '\tBuffer Pool size:     6250', '');
  out.push('Package Context:', '---------------', '\tSQL Type:           Dynamic', '\tOptimization Level: 5', '\tBlocking:           Block All Cursors', '\tIsolation Level:    Cursor Stability', '', '', '');
  statements.forEach((st, i) => {
    out.push(`---------------- STATEMENT ${i + 1}  SECTION ${201 + i} ----------------`);
    out.push(`\tQUERYNO:       ${st.queryNo}`, '\tQUERYTAG:      CLP', `\tStatement Type:   ${opts.statementType ?? 'Insert'}`, '\tUpdatable:        No', '\tDeletable:        No', '\tQuery Degree:     1', '');
    out.push('Original Statement:', '------------------', st.original, '', '');
    out.push('Optimized Statement:', '-------------------', st.optimized, '');
    out.push('Access Plan:', '-----------', `\tTotal Cost: \t\t${gg(st.root.cost)}`, '\tQuery Degree:\t\t1', '');
    out.push(...drawGraph(st.root, opts, 8), '', '');
    out.push('Plan Details:', '-------------', '');
    let stream = 1;
    for (const op of allOperators(st.root)) {
      const type = operatorType(op.label);
      out.push(`\t${op.id}) ${opts.paddedHeaders ? type.padEnd(6, ' ') : type}: (${longName(type)})`);
      out.push(`\t\tCumulative Total Cost: \t\t${gg(op.cost)}`, `\t\tCumulative CPU Cost: \t\t${gg(op.cpu ?? op.cost * 7000)}`, `\t\tCumulative I/O Cost: \t\t${gg(op.io)}`);
      out.push(`\t\tCumulative Re-Total Cost: \t${gg(op.cost / 10)}`, `\t\tCumulative First Row Cost: \t${gg(op.cost / 2)}`, `\t\tEstimated Bufferpool Buffers: \t${gg(op.io + 1)}`, '');
      if (op.args?.length) {
        out.push('\t\tArguments:', '\t\t---------');
        for (const [k, d, v] of op.args) out.push(`\t\t${k.padEnd(8, ' ')}: (${d})`, `\t\t\t${v}`);
        out.push('');
      }
      if (op.predicates?.length) {
        out.push('\t\tPredicates:', '\t\t----------');
        op.predicates.forEach((p, j) => {
          out.push(`\t\t${j + 2}) ${p.how} Predicate, `, '\t\t\tComparison Operator: \t\tEqual (=)', '\t\t\tSubquery Input Required: \tNo', `\t\t\tFilter Factor: \t\t\t${gg(p.ff ?? 1)}`, '', '\t\t\tPredicate Text:', '\t\t\t--------------', `\t\t\t${p.text}`, '', '');
        });
      }
      out.push('\t\tInput Streams:', '\t\t-------------');
      for (const input of op.inputs) {
        if (isObject(input)) out.push(`\t\t\t${stream++}) From Object ${input.schema}.${input.name}`, '', `\t\t\t\tEstimated number of rows: \t${gg(input.rows)}`, '');
        else out.push(`\t\t\t${stream++}) From Operator #${input.id}`, '', `\t\t\t\tEstimated number of rows: \t${gg(input.rows)}`, '');
      }
      if (op.writes) {
        out.push('', '\t\tOutput Streams:', '\t\t--------------', `\t\t\t${stream++}) To Object ${op.writes.schema}.${op.writes.name}`, '', `\t\t\t\tEstimated number of rows: \t${gg(op.rows)}`, '');
      }
      out.push('');
    }
    out.push('Objects Used in Access Plan:', '---------------------------', '');
    for (const o of st.objects) {
      out.push(`\tSchema: ${o.schema}`, `\tName: \t${o.name}`, `\tType: \t${o.type}`);
      for (const [k, v] of o.extra ?? []) out.push(`\t\t\t${k}: \t\t${v}`);
      out.push('');
    }
  });
  const lines = opts.doubleSpaced ? out.flatMap((l) => [l, '']) : out;
  const text = lines.join('\n') + '\n';
  return opts.crlf ? text.replace(/\n/g, '\r\n') : text;
}

function longName(label: string): string {
  const names: Record<string, string> = {
    RETURN: 'Return Result', INSERT: 'Insert', UPDATE: 'Update', DELETE: 'Delete', NLJOIN: 'Nested Loop Join', HSJOIN: 'Hash Join',
    TBSCAN: 'Table Scan', IXSCAN: 'Index Scan', FETCH: 'Fetch', FILTER: 'Filter', TEMP: 'Temporary Table Construction', GRPBY: 'Group By',
    SORT: 'Sort', UNION: 'Union', TQ: 'Table Queue',
  };
  return names[label] ?? label;
}
