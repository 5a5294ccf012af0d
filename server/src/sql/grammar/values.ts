// VALUES rows: read into a packed store (the bulk of an insert workload's model) and each value
// classified as literal, marker, host variable, NULL, DEFAULT or expression.
import type { InsertValue, Span, ValueKind, ValuesRow } from '../ast';
import { TK_STRING, TK_NUMBER, TK_MARKER, TK_HOST, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_WORD } from '../lexer';
import type { Parser } from '../parser';
import { isIsolationAt, TYPED_LITERAL_WORDS } from './clauses';

/**
 * VALUES rows are the bulk of an insert workload's model (a 1,000,000-line script holds ~820,000 of them).
 * As plain objects each row cost eleven allocations (row, span, values array, and an object plus a span per
 * value), ~460 bytes that stayed alive, and most of the parse's garbage-collector time (bench/RESULTS.md).
 * So the parser writes each row's offsets and value kinds into a shared Int32Array, the rows of one VALUES
 * list one after another, and keeps one object per list (PackedValues); its `rows`, and their `span` and
 * `values`, are built from those numbers when a rule asks for them (few rules look at every row, and what
 * they build is short-lived). The schema and the rules ask only "how many rows" and "any marker, host
 * variable or literal", which valuesRowCount and valuesKindBits answer from the numbers. (An object per row
 * was still 172,000 objects on 200,000 lines, each copied twice by the garbage collector.)
 *
 * Layout of a row at `at`: [rowStart, rowEnd, valueCount, then per value: kindCode, start, end].
 */
const VALUE_KINDS: readonly ValueKind[] = ['literal', 'marker', 'host', 'null', 'default', 'expression'];
// The parser classifies values as these codes (indexes into VALUE_KINDS): looking a code up by the kind's
// name was a keyed property load per value, a fifth of the time spent reading VALUES rows.
const VK_LITERAL = 0;
const VK_MARKER = 1;
const VK_HOST = 2;
const VK_NULL = 3;
const VK_DEFAULT = 4;
const VK_EXPRESSION = 5;

export class PackedValuesRow implements ValuesRow {
  constructor(
    readonly data: Int32Array,
    readonly at: number,
  ) {}

  /** A new object on every access (nothing is cached, so a rule's use of it stays short-lived). */
  get span(): Span {
    return { start: this.data[this.at], end: this.data[this.at + 1] };
  }

  /** Moves the row and its values by `delta` characters (a statement reused after an edit before it). */
  shiftBy(delta: number): void {
    const d = this.data;
    d[this.at] += delta;
    d[this.at + 1] += delta;
    const count = d[this.at + 2];
    for (let v = 0, j = this.at + 3; v < count; v++, j += 3) {
      d[j + 1] += delta;
      d[j + 2] += delta;
    }
  }

  /** The kinds of the values, without their spans (asked of every row by rules and the schema). */
  get kinds(): ValueKind[] {
    const d = this.data;
    const count = d[this.at + 2];
    const kinds = new Array<ValueKind>(count);
    for (let v = 0, j = this.at + 3; v < count; v++, j += 3) kinds[v] = VALUE_KINDS[d[j]];
    return kinds;
  }

  /** A new array on every access, like `span`. */
  get values(): InsertValue[] {
    const d = this.data;
    const count = d[this.at + 2];
    const values = new Array<InsertValue>(count);
    for (let v = 0, j = this.at + 3; v < count; v++, j += 3) values[v] = { kind: VALUE_KINDS[d[j]], span: { start: d[j + 1], end: d[j + 2] } };
    return values;
  }
}

/** Ints a packed row at `at` takes (its header and three per value). */
function rowInts(data: Int32Array, at: number): number {
  return 3 + 3 * data[at + 2];
}

/**
 * The source of an INSERT … VALUES as the parser reads it: `rowCount` rows packed one after another in `data`
 * from `at`. Has the shape of ast.ts's `{ kind: 'values'; rows; span }`; `rows` and `span` are new objects on
 * every access (the span is two numbers here: one object less per INSERT), so a rule's use of them stays
 * short-lived (hot paths use valuesRowCount and valuesKindBits instead).
 */
export class PackedValues {
  readonly kind = 'values' as const;

  constructor(
    readonly data: Int32Array,
    readonly at: number,
    readonly rowCount: number,
    private start: number,
    private end: number,
    /** valuesKindBits of the list, as the parser saw the values (-1: not known yet, worked out when first asked). */
    private bits = -1,
  ) {}

  get span(): Span {
    return { start: this.start, end: this.end };
  }

  /**
   * The kinds of all its values, as bits (valueKindBit). The parser collects them as it classifies the values: the
   * schema and four rules ask it of every INSERT, and reading the rows again for it was 17 ms on 200,000 lines.
   */
  get kindBits(): number {
    if (this.bits < 0) {
      const d = this.data;
      let bits = 0;
      for (let r = 0, at = this.at; r < this.rowCount; r++) {
        const count = d[at + 2];
        for (let v = 0, j = at + 3; v < count; v++, j += 3) bits |= 1 << d[j];
        at += 3 + 3 * count;
      }
      this.bits = bits;
    }
    return this.bits;
  }

  get rows(): ValuesRow[] {
    const rows = new Array<ValuesRow>(this.rowCount);
    for (let r = 0, at = this.at; r < this.rowCount; r++, at += rowInts(this.data, at)) rows[r] = new PackedValuesRow(this.data, at);
    return rows;
  }

  /** Moves the list, its rows and their values by `delta` characters (a statement reused after an edit before it). */
  shiftBy(delta: number): void {
    this.start += delta;
    this.end += delta;
    for (let r = 0, at = this.at; r < this.rowCount; r++, at += rowInts(this.data, at)) new PackedValuesRow(this.data, at).shiftBy(delta);
  }
}

type ValuesSource = { kind: 'values'; rows: ValuesRow[]; span: Span };

/** How many rows a VALUES list has, without building them. */
export function valuesRowCount(source: ValuesSource): number {
  return source instanceof PackedValues ? source.rowCount : source.rows.length;
}

/** The span of a VALUES list's first row, without building its rows. */
export function firstRowSpan(source: ValuesSource): Span {
  if (!(source instanceof PackedValues)) return source.rows[0].span;
  return { start: source.data[source.at], end: source.data[source.at + 1] };
}

/** The kinds the values of all of a VALUES list's rows have, as bits (valueKindBit), without building the rows. */
export function valuesKindBits(source: ValuesSource): number {
  return source instanceof PackedValues ? source.kindBits : source.rows.reduce((bits, row) => bits | valueKindBits(row), 0);
}

/** How many values every row of a VALUES list has; undefined when rows differ (or there is none), without building them. */
export function valuesWidth(source: ValuesSource): number | undefined {
  let width: number | undefined;
  if (!(source instanceof PackedValues)) {
    for (const row of source.rows) {
      if (width !== undefined && width !== row.values.length) return undefined;
      width = row.values.length;
    }
    return width;
  }
  const d = source.data;
  for (let r = 0, at = source.at; r < source.rowCount; r++) {
    const count = d[at + 2];
    if (width !== undefined && width !== count) return undefined;
    width = count;
    at += 3 + 3 * count;
  }
  return width;
}

/** The bit columnKindBits sets for a row with no value at the place asked (a malformed row). */
export const MISSING_VALUE_BIT = 1 << VALUE_KINDS.length;

/**
 * The kinds the `index`-th value (0-based) of every row of a VALUES list has, as bits (valueKindBit), without
 * building the rows; MISSING_VALUE_BIT when a row has fewer values. 0 for a list of no rows.
 */
export function columnKindBits(source: ValuesSource, index: number): number {
  if (!(source instanceof PackedValues)) {
    return source.rows.reduce((bits, row) => bits | (index < row.values.length ? valueKindBit(row.values[index].kind) : MISSING_VALUE_BIT), 0);
  }
  const d = source.data;
  let bits = 0;
  for (let r = 0, at = source.at; r < source.rowCount; r++) {
    const count = d[at + 2];
    bits |= index < count ? 1 << d[at + 3 + 3 * index] : MISSING_VALUE_BIT;
    at += 3 + 3 * count;
  }
  return bits;
}

/** The bit of a value kind in valueKindBits. */
export function valueKindBit(kind: ValueKind): number {
  return 1 << VALUE_KINDS.indexOf(kind);
}

/**
 * The kinds a row's values have, as bits (valueKindBit): "any marker? any literal?" without an array per row.
 * Rules and the schema ask it of every row of every INSERT, and the arrays of `valueKinds` were garbage at once.
 */
export function valueKindBits(row: ValuesRow): number {
  if (!(row instanceof PackedValuesRow)) return row.values.reduce((bits, v) => bits | valueKindBit(v.kind), 0);
  const d = row.data;
  const count = d[row.at + 2];
  let bits = 0;
  for (let v = 0, j = row.at + 3; v < count; v++, j += 3) bits |= 1 << d[j];
  return bits;
}

/** The kinds of a row's values: a packed row's codes, read without building each value's object. */
export function valueKinds(row: ValuesRow): readonly ValueKind[] {
  return row instanceof PackedValuesRow ? row.kinds : row.values.map((v) => v.kind);
}

/** A packed VALUES list's storage, place and span, to send it to another thread (cli/ship-model.ts); undefined for any other object. */
export function packedValuesParts(source: object): { data: Int32Array; at: number; rowCount: number; span: Span } | undefined {
  return source instanceof PackedValues ? { data: source.data, at: source.at, rowCount: source.rowCount, span: source.span } : undefined;
}

/** The list packedValuesParts took apart, on the receiving side. */
export function packedValues(parts: { data: Int32Array; at: number; rowCount: number; span: Span }): ValuesSource {
  return new PackedValues(parts.data, parts.at, parts.rowCount, parts.span.start, parts.span.end);
}

const NO_CHUNK = new Int32Array(0);

/**
 * Append-only storage for packed VALUES lists, in chunks: a list never straddles two (when a row does not fit,
 * the list's rows so far move to the new chunk), so a list is its chunk, where it starts and its row count.
 */
export class PackedRowStore {
  private chunk: Int32Array;
  private used = 0;
  /** Where the list being read starts in `chunk`. */
  private listAt = 0;
  private listRows = 0;
  /** The kinds of the values of the list's committed rows, as bits (PackedValues.kindBits). */
  private listBits = 0;

  constructor(private readonly chunkSize: number) {
    // The first chunk is made by the first row reserved: most scripts and SQL strings hold no VALUES row, and a
    // chunk is up to 256 kB, zeroed, outside the heap.
    this.chunk = NO_CHUNK;
  }

  /** Starts a VALUES list: the rows committed from now on are its rows. */
  startList(): void {
    this.listAt = this.used;
    this.listRows = 0;
    this.listBits = 0;
  }

  /**
   * Makes room for `ints` more numbers and returns where they go; they only count as stored once
   * `commit` is called (a row that fails to parse leaves nothing behind).
   */
  reserve(ints: number): number {
    if (this.used + ints > this.chunk.length) {
      const kept = this.used - this.listAt;
      const chunk = new Int32Array(Math.max(this.chunkSize, 2 * (kept + ints)));
      chunk.set(this.chunk.subarray(this.listAt, this.used));
      this.chunk = chunk;
      this.listAt = 0;
      this.used = kept;
    }
    return this.used;
  }

  get data(): Int32Array {
    return this.chunk;
  }

  /** The row reserved ends at `end`; `kindBits`: the kinds of its values, as bits. */
  commit(end: number, kindBits: number): void {
    this.used = end;
    this.listRows++;
    this.listBits |= kindBits;
  }

  /** The list started by startList, with the rows committed since; it spans [start, end) of the text. */
  endList(start: number, end: number): PackedValues {
    return new PackedValues(this.chunk, this.listAt, this.listRows, start, end, this.listBits);
  }
}

/** FOR n ROWS / FOR :n ROWS / FOR ? ROWS after a VALUES list. */
export function isForRowsAt(p: Parser, i: number): boolean {
  return p.kw(i, 'FOR') && p.kw(i + 2, 'ROWS');
}

/** Reads one row into the store's open list (PackedRowStore.startList). */
export function parseValuesRow(p: Parser, context: string): void {
  const startTok = p.pos;
  const store = p.rowStore;
  if (p.kind(p.pos) === TK_LPAREN) {
    const close = p.afterBalanced(p.pos) - 1;
    if (p.kind(close) !== TK_RPAREN) {
      p.pos = p.end;
      p.fail("missing ')' after the VALUES row", context);
    }
    let i = p.pos + 1;
    if (i === close) p.fail('expected a value', context, i);
    // A row has at most as many values as tokens between its parentheses.
    const at = store.reserve(3 + 3 * (close - i));
    const data = store.data;
    let w = at + 3;
    let bits = 0;
    while (i < close) {
      const vStart = i;
      let depth = 0;
      while (i < close) {
        const k = p.t.kind[i];
        if (k === TK_LPAREN) depth++;
        else if (k === TK_RPAREN) depth--;
        else if (k === TK_COMMA && depth === 0) break;
        i++;
      }
      if (i === vStart) p.fail('expected a value', context, i);
      const kind = classifyValueKind(p, vStart, i);
      bits |= 1 << kind;
      data[w] = kind;
      data[w + 1] = p.t.start[vStart];
      data[w + 2] = p.t.end[i - 1];
      w += 3;
      if (i < close) {
        i++; // comma
        if (i === close) p.fail('expected a value', context, i);
      }
    }
    p.pos = close + 1;
    data[at] = p.t.start[startTok];
    data[at + 1] = p.t.end[close];
    data[at + 2] = (w - at - 3) / 3;
    store.commit(w, bits);
    return;
  }
  // VALUES expr — one single-column row; the expression ends at ',' or at the end / WITH isolation
  const vStart = p.pos;
  let i = p.pos;
  while (i < p.end && p.t.kind[i] !== TK_COMMA && !isIsolationAt(p, i) && !isForRowsAt(p, i)) {
    if (p.t.kind[i] === TK_LPAREN) i = p.afterBalanced(i);
    else i++;
  }
  if (i === vStart) p.fail('expected a value', context, i);
  const kind = classifyValueKind(p, vStart, i);
  p.pos = i;
  const at = store.reserve(6);
  const data = store.data;
  const span = p.rangeSpan(vStart, i);
  data[at] = span.start;
  data[at + 1] = span.end;
  data[at + 2] = 1;
  data[at + 3] = kind;
  data[at + 4] = span.start;
  data[at + 5] = span.end;
  store.commit(at + 6, 1 << kind);
}

/** How the value in tokens [a, b) (not empty) is supplied: a MERGE's INSERT values, a select list's items. */
export function valueKindIn(p: Parser, a: number, b: number): ValueKind {
  return VALUE_KINDS[classifyValueKind(p, a, b)];
}

/** How the value in tokens [a, b) (not empty) is supplied, as a VK_ code. */
function classifyValueKind(p: Parser, a: number, b: number): number {
  // Strip parentheses around the whole value in one pass (deep nesting must stay linear): k leading
  // '(' and trailing ')' enclose the value, less those that close inside it, as in (1)+(2).
  let lead = 0;
  while (a + lead < b && p.t.kind[a + lead] === TK_LPAREN) lead++;
  let trail = 0;
  while (b - 1 - trail > a + lead && p.t.kind[b - 1 - trail] === TK_RPAREN) trail++;
  let k = Math.min(lead, trail);
  if (k > 0) {
    let depth = 0;
    let lowest = 0;
    for (let i = a + k; i < b - k; i++) {
      const kind = p.t.kind[i];
      if (kind === TK_LPAREN) depth++;
      else if (kind === TK_RPAREN && --depth < lowest) lowest = depth;
    }
    k = Math.max(0, k + lowest);
    a += k;
    b -= k;
  }
  return valueKind(p, a, b);
}

function valueKind(p: Parser, a: number, b: number): number {
  const n = b - a;
  const k0 = p.t.kind[a];
  if (n === 1) {
    if (k0 === TK_STRING || k0 === TK_NUMBER) return VK_LITERAL;
    if (k0 === TK_MARKER) return VK_MARKER;
    if (k0 === TK_HOST) return VK_HOST;
    if (p.kw(a, 'NULL')) return VK_NULL;
    if (p.kw(a, 'DEFAULT')) return VK_DEFAULT;
    return VK_EXPRESSION;
  }
  if (n === 2) {
    if ((p.isOp(a, '-') || p.isOp(a, '+')) && p.t.kind[a + 1] === TK_NUMBER) return VK_LITERAL;
    // The string test first: upper() allocates, and two-word values such as CURRENT TIMESTAMP are common.
    if (k0 === TK_WORD && p.t.kind[a + 1] === TK_STRING && TYPED_LITERAL_WORDS.has(p.upper(a))) return VK_LITERAL;
  }
  if (n === 3 && k0 === TK_HOST && p.kw(a + 1, 'INDICATOR') && p.t.kind[a + 2] === TK_HOST) return VK_HOST;
  // CAST(? AS type) / CAST(:h AS type) / CAST(NULL AS type) / CAST('x' AS type)
  if (p.kw(a, 'CAST') && p.t.kind[a + 1] === TK_LPAREN && p.afterBalanced(a + 1) === b && p.kw(a + 3, 'AS')) {
    const inner = valueKind(p, a + 2, a + 3);
    if (inner !== VK_EXPRESSION && inner !== VK_DEFAULT) return inner;
  }
  return VK_EXPRESSION;
}
