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
 * So the parser writes each row's offsets and value kinds into a shared Int32Array and keeps one small
 * object per row; `span` and `values` are built from those numbers when a rule asks for them (few rules
 * look at the values of every row, and what they build is short-lived).
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

/** A packed row's storage and place, to send it to another thread (cli/ship-model.ts); undefined for any other object. */
export function packedRowParts(row: object): { data: Int32Array; at: number } | undefined {
  return row instanceof PackedValuesRow ? { data: row.data, at: row.at } : undefined;
}

/** The row packedRowParts took apart, on the receiving side. */
export function packedRow(data: Int32Array, at: number): ValuesRow {
  return new PackedValuesRow(data, at);
}

/** Append-only storage for packed rows, in chunks (a row never straddles two). */
export class PackedRowStore {
  private chunk: Int32Array;
  private used = 0;

  constructor(private readonly chunkSize: number) {
    this.chunk = new Int32Array(chunkSize);
  }

  /**
   * Makes room for `ints` more numbers and returns where they go; they only count as stored once
   * `commit` is called (a row that fails to parse leaves nothing behind).
   */
  reserve(ints: number): number {
    if (this.used + ints > this.chunk.length) {
      this.chunk = new Int32Array(Math.max(this.chunkSize, ints));
      this.used = 0;
    }
    return this.used;
  }

  get data(): Int32Array {
    return this.chunk;
  }

  commit(end: number): PackedValuesRow {
    const row = new PackedValuesRow(this.chunk, this.used);
    this.used = end;
    return row;
  }
}

/** FOR n ROWS / FOR :n ROWS / FOR ? ROWS after a VALUES list. */
export function isForRowsAt(p: Parser, i: number): boolean {
  return p.kw(i, 'FOR') && p.kw(i + 2, 'ROWS');
}

export function parseValuesRow(p: Parser, context: string): ValuesRow {
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
      data[w] = classifyValueKind(p, vStart, i);
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
    return store.commit(w);
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
  return store.commit(at + 6);
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
