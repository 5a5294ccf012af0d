// Reads db2exfmt's "Plan Details": one block per operator (its header `2) FETCH  : (Fetch)`, cumulative costs,
// Arguments, Predicates, Input and Output Streams) into operators keyed by their number. What the blocks are used
// for (the tree when the drawing cannot give it, full-precision values when it can) is exfmt-tree.ts's business.
// A paste wrapped by a mail client or a terminal may have cut lines (exfmt-wrap.ts): a value that cannot be put
// back for certain is left out, and a block holding a line that belongs nowhere is dropped, so that a cut header
// never hands one operator's lines to another. Each case gets a warning.
import { newOperator, objectKey, type ExplainMessage, type PlanOperator, type PlanPredicate } from './model';
import { LONG_NAMES, parseOperatorLabel } from './symbols';
import { ambiguousBreak, breakWhy, numberAt, type PasteCuts } from './exfmt-wrap';

// Db2 11.5.8 and 12.1 pad the operator name before the colon: "2) FETCH : (Fetch)", "5) TQ    : (Table Queue)".
export const DETAIL_HEADER = /^\s*(\d+)\)\s+([>x^ABCDLMXSpg]{0,3}[A-Z][A-Z0-9]{1,9}[<x^*]{0,3})\s*:\s*\((.*)\)\s*$/;
/** The start of an operator's Plan Details header whose end a wrap cut off: `7) TEMP  : (Temporary Table`. */
const DETAIL_HEADER_START = /^\s*(\d+)\)\s+([>x^ABCDLMXSpg]{0,3}[A-Z][A-Z0-9]{1,9}[<x^*]{0,3})\s*:\s*(\(.*)?$/;
/** An argument's header, `MAXPAGES: (Maximum pages for prefetch)`, and its start when a wrap cut its end off. */
const ARGUMENT_HEADER = /^([A-Z0-9_]{1,8})\s*:\s*\((.*)\)$/;
const ARGUMENT_HEADER_START = /^([A-Z0-9_]{1,8})\s*:\s*\([^)]*$/;
const STREAM = /^\d+\)\s+(From|To)\s+(Operator\s+#\s*(\d*)|Object(?:\s+(\S+))?)\s*$/;
/** A line of a `Key: value` list (costs, a stream's or a predicate's attributes, an object's properties). */
const KEY_VALUE = /^[A-Za-z][A-Za-z0-9 /()'.,-]*?:(\s|$)/;
const COST = /^(Cumulative [A-Za-z/ -]+?Cost|Estimated Bufferpool Buffers):\s*(.*)$/;

/** The parts of an operator's block; the costs come first, right under the header. */
type Part = 'costs' | 'arguments' | 'predicates' | 'input' | 'output';

/** The headings that start a part (a Map: a line such as "constructor" must find nothing). */
const PART_HEADINGS = new Map<string, Part>([
  ['Arguments:', 'arguments'],
  ['Predicates:', 'predicates'],
  ['Input Streams:', 'input'],
  ['Output Streams:', 'output'],
]);

interface Argument {
  name: string;
  description?: string;
  value: string;
}

/** A stream being read: it becomes an input or an object written when its block part ends. */
interface Stream {
  kind: 'input' | 'output';
  fromOp?: number;
  object?: string;
  rows?: number;
  line: number;
}

/**
 * The operators of the Plan Details between lines `from` and `to`, by number. Wrap damage warnings go to `warnings`;
 * the operators whose block a wrap left unreadable go to `refused`.
 */
export function parsePlanDetails(lines: string[], from: number, to: number, warnings: ExplainMessage[], cuts: PasteCuts, refused?: Set<number>): Map<number, PlanOperator> {
  const reader = new DetailsReader(lines, to, warnings, cuts);
  for (let i = from; i < to; i++) i = reader.read(i);
  reader.flushStream();
  for (const id of reader.refusedBlocks) refused?.add(id);
  return reader.ops;
}

/** `SCHEMA.NAME` (quotes dropped) as [schema, name]; a name without a schema gets ''. */
function splitObject(text: string): [string, string] {
  const clean = text.replace(/"/g, '');
  const dot = clean.indexOf('.');
  return dot < 0 ? ['', clean] : [clean.slice(0, dot), clean.slice(dot + 1)];
}

/**
 * Reads the lines one by one, keeping where it is: the operator whose block it is in, the part of that block, and
 * the argument, predicate or stream that the next line may go on. Each `read…` method takes the line's index and
 * returns the index of the last line it used (a value a wrap put on the next line uses that line too).
 */
class DetailsReader {
  readonly ops = new Map<number, PlanOperator>();
  /** Operators whose block a wrap left unreadable: their details are not used at all. */
  readonly refusedBlocks = new Set<number>();
  private op: PlanOperator | undefined;
  private part: Part = 'costs';
  private arg: Argument | undefined;
  private argLast = -1;
  private pred: PlanPredicate | undefined;
  private inPredicateText = false;
  private predLast = -1;
  private inColumnNames = false;
  private stream: Stream | undefined;

  constructor(
    private readonly lines: string[],
    private readonly to: number,
    private readonly warnings: ExplainMessage[],
    private readonly cuts: PasteCuts,
  ) {}

  read(i: number): number {
    const raw = this.lines[i];
    const l = raw.trim();
    const header = DETAIL_HEADER.exec(raw);
    const cutHeader = header ? undefined : DETAIL_HEADER_START.exec(raw);
    // A numbered line ending in "Predicate" or "Predicate," is a predicate's header, not an operator's.
    if ((header || cutHeader) && !/Predicate,?$/.test(l)) return this.readHeader(i, (header ?? cutHeader)!, header !== null);
    if (!this.op) return i;
    const heading = PART_HEADINGS.get(l);
    if (heading) {
      this.flushStream();
      this.part = heading;
      this.inColumnNames = false;
      return i;
    }
    if (/^-{3,}$/.test(l)) return i;
    // A numbered line that is none of a block's numbered lines is a header cut before its colon (the next operator's
    // lines would otherwise be read as this one's).
    if (/^\d+\)\s*[A-Z>^x]/.test(l) && this.part !== 'input' && this.part !== 'output' && this.part !== 'predicates') {
      this.refuseBlock(i, `"${l}" is neither an operator's header nor a line of its block`);
      return i;
    }
    switch (this.part) {
      case 'costs':
        return this.readCost(i, l);
      case 'arguments':
        return this.readArgument(i, l);
      case 'predicates':
        return this.readPredicate(i, l);
      case 'input':
      case 'output':
        return this.readStream(i, l, this.part);
    }
  }

  /** An operator's header starts its block; `whole` is false when a wrap cut its long name. */
  private readHeader(i: number, m: RegExpExecArray, whole: boolean): number {
    this.flushStream();
    const label = parseOperatorLabel(m[2]);
    const id = Number(m[1]);
    const op = newOperator(id, label?.type ?? m[2]);
    this.op = op;
    op.label = m[2];
    op.flags = label?.flags ?? [];
    if (whole) op.longName = m[3];
    else {
      // The long name ran past the wrap: its rest is on the next lines, up to the closing parenthesis. Words cut
      // in two cannot be told from two words, so the name db2exfmt uses for the type stands in.
      while (i + 1 < this.to && this.lines[i + 1].trim() !== '' && !KEY_VALUE.test(this.lines[i + 1].trim()) && !/\)\s*$/.test(this.lines[i].trim())) i++;
      op.longName = LONG_NAMES[op.type];
    }
    if (this.ops.has(id) || this.refusedBlocks.has(id)) this.warnings.push({ code: 'duplicate-details', message: `Plan Details list operator ${id} twice; the last block is used.`, line: i + 1 });
    this.refusedBlocks.delete(id);
    this.ops.set(id, op);
    this.part = 'costs';
    this.arg = undefined;
    this.pred = undefined;
    this.inPredicateText = false;
    this.inColumnNames = false;
    return i;
  }

  /** The cumulative costs. Other "Key: value" lines are not read; a line that is none (a key cut in two) holds nothing that is read. */
  private readCost(i: number, l: string): number {
    const m = l === '' ? null : COST.exec(l);
    if (!m) return i;
    const op = this.op!;
    const n = this.numberOf(i, m[2], m[1]);
    if (m[1] === 'Cumulative Total Cost') op.totalCost = n.value;
    else if (m[1] === 'Cumulative I/O Cost') op.ioCost = n.value;
    else if (m[1] === 'Cumulative CPU Cost') op.cpuCost = n.value;
    else if (m[1] === 'Cumulative First Row Cost') op.firstRowCost = n.value;
    return n.last;
  }

  /** An argument's header, or a line of its value (a long value goes on over several lines). */
  private readArgument(i: number, l: string): number {
    const op = this.op!;
    const m = ARGUMENT_HEADER.exec(l);
    const cut = m ? undefined : ARGUMENT_HEADER_START.exec(l);
    if (m || cut) {
      this.arg = { name: (m ?? cut)![1], description: m ? m[2] : undefined, value: '' };
      op.arguments.push(this.arg);
      this.argLast = i;
      // A description cut by the wrap goes on up to its closing parenthesis; it is not kept (see the long name).
      if (cut) while (i + 1 < this.to && this.lines[i + 1].trim() !== '' && !/\)\s*$/.test(this.lines[i].trim())) this.argLast = ++i;
      return i;
    }
    const arg = this.arg;
    if (!arg || l === '') return i;
    if (arg.value !== '' && ambiguousBreak(this.lines, this.argLast, i, this.cuts, l)) {
      this.refuseValue(i, `value of argument ${arg.name}`, `${breakWhy(this.argLast, i, this.cuts)} and may have been cut inside a word`);
      op.arguments = op.arguments.filter((a) => a !== arg);
      this.arg = undefined;
      return i;
    }
    arg.value = arg.value ? `${arg.value} ${l}` : l;
    this.argLast = i;
    return i;
  }

  /** A predicate's header (`3) Sargable Predicate,`), its text, or one of its attributes. */
  private readPredicate(i: number, l: string): number {
    const m = /^(\d+)\)\s/.exec(l);
    let how = m ? l.slice(m[0].length).trim() : '';
    if (how.endsWith(',')) how = how.slice(0, -1);
    if (m && how.endsWith(' Predicate')) {
      this.pred = { id: Number(m[1]), howApplied: how.slice(0, -' Predicate'.length).trim(), text: '' };
      this.op!.predicates.push(this.pred);
      this.inPredicateText = false;
      return i;
    }
    if (m) {
      this.refuseBlock(i, `"${l}" starts a predicate whose kind the wrap cut off`);
      return i;
    }
    const pred = this.pred;
    if (!pred) return i;
    if (/^Predicate Text:$/.test(l)) {
      this.inPredicateText = true;
      this.predLast = -1;
      return i;
    }
    if (this.inPredicateText) {
      this.readPredicateText(i, l, pred);
      return i;
    }
    if (l === '') return i;
    return this.readPredicateAttribute(i, l, pred);
  }

  /** A line of a predicate's text; a blank line ends it once it has begun. */
  private readPredicateText(i: number, l: string, pred: PlanPredicate): void {
    if (l === '') this.inPredicateText = pred.text === '';
    else if (this.predLast >= 0 && ambiguousBreak(this.lines, this.predLast, i, this.cuts, l)) {
      this.refuseValue(i, `text of predicate ${pred.id}`, `${breakWhy(this.predLast, i, this.cuts)} and may have been cut inside a word`);
      pred.text = '';
      this.inPredicateText = false;
      this.pred = undefined;
    } else {
      pred.text = pred.text ? `${pred.text} ${l}` : l;
      this.predLast = i;
    }
  }

  /** The filter factor and comparison operator are read; other `Key: value` lines are skipped, anything else drops the block. */
  private readPredicateAttribute(i: number, l: string, pred: PlanPredicate): number {
    const ff = /^Filter Factor:\s*(.*)$/.exec(l);
    if (ff) {
      const n = this.numberOf(i, ff[1], `filter factor of predicate ${pred.id}`);
      pred.filterFactor = n.value;
      return n.last;
    }
    const co = /^Comparison Operator:\s*(.*)$/.exec(l);
    if (co) {
      // Its value goes on on the next line only when a wrap cut it: that line has no "Key:" of its own.
      const next = i + 1 < this.to ? this.lines[i + 1].trim() : '';
      if (next !== '' && !KEY_VALUE.test(next) && !/^Predicate Text:$/.test(next)) {
        this.refuseValue(i, `comparison operator of predicate ${pred.id}`, `it goes on on the next line ("${next}"), cut where the paste was wrapped`);
        return i + 1;
      }
      if (co[1].trim() !== '') pred.comparison = co[1].trim();
      return i;
    }
    if (!KEY_VALUE.test(l)) this.refuseBlock(i, `"${l}" is no line of a predicate`);
    return i;
  }

  /** A line of the Input or Output Streams: a stream's header, its rows, its other attributes or its column names. */
  private readStream(i: number, l: string, part: 'input' | 'output'): number {
    if (l === '') {
      this.inColumnNames = false;
      return i;
    }
    const from = STREAM.exec(l);
    if (from) return this.readStreamHeader(i, l, from, part);
    if (/^Column Names:$/.test(l) || /^Partition Column Names:$/.test(l)) {
      this.inColumnNames = true;
      return i;
    }
    if (this.inColumnNames) return i;
    const rows = /^Estimated number of rows:\s*(.*)$/.exec(l);
    if (rows) {
      const n = this.numberOf(i, rows[1], 'estimated rows of a stream');
      if (this.stream) this.stream.rows = n.value;
      return n.last;
    }
    if (KEY_VALUE.test(l)) {
      // Another attribute of the stream; a wrap may have cut its value, which is not read.
      while (i + 1 < this.to && this.lines[i + 1].trim() !== '' && !KEY_VALUE.test(this.lines[i + 1].trim()) && !STREAM.test(this.lines[i + 1].trim()) && !/^\d+\)/.test(this.lines[i + 1].trim())) i++;
      return i;
    }
    this.refuseBlock(i, `"${l}" is no line of a stream`);
    return i;
  }

  /** `2) From Operator #3` or `1) To Object APP.T1`: starts a stream. */
  private readStreamHeader(i: number, l: string, from: RegExpExecArray, part: 'input' | 'output'): number {
    this.flushStream();
    const stream: Stream = { kind: part, line: i };
    this.stream = stream;
    let target = from[3] ?? from[4] ?? '';
    // An operator number or an object name holds no blank: a wrap that cut it left the rest alone on the next line.
    while (i + 1 < this.to && /^\S+$/.test(this.lines[i + 1].trim()) && !KEY_VALUE.test(this.lines[i + 1].trim())) target += this.lines[++i].trim();
    const fromOperator = from[3] !== undefined;
    if (target === '' || (fromOperator && !/^\d+$/.test(target))) {
      this.refuseBlock(stream.line, `the stream "${l}" names no ${fromOperator ? 'operator' : 'object'} that can be read`);
      return i;
    }
    if (fromOperator) {
      if (part === 'input') stream.fromOp = Number(target);
    } else stream.object = target;
    return i;
  }

  /** The stream read so far becomes an input of the operator (an operator or an object) or an object it writes. */
  flushStream(): void {
    const { op, stream } = this;
    if (!op || !stream) return;
    if (stream.kind === 'input') {
      if (stream.fromOp !== undefined) {
        op.children.push(stream.fromOp);
        op.inputs.push({ kind: 'operator', id: stream.fromOp, rows: stream.rows });
      } else if (stream.object) {
        const [schema, name] = splitObject(stream.object);
        op.inputs.push({ kind: 'object', object: { key: objectKey(schema, name), schema, name, kind: 'unknown', rows: stream.rows } });
        op.objectsRead.push(objectKey(schema, name));
      }
    } else if (stream.object) {
      const [schema, name] = splitObject(stream.object);
      op.objectsWritten.push(objectKey(schema, name));
      op.inputs.push({ kind: 'object', object: { key: objectKey(schema, name), schema, name, kind: 'unknown' } });
    }
    this.stream = undefined;
  }

  /** Drops the block of the current operator: a line in it was cut by a wrap and cannot be put back for certain. */
  private refuseBlock(i: number, why: string): void {
    const op = this.op;
    if (!op) return;
    this.warnings.push({
      code: 'wrapped-details',
      message: `Plan Details line ${i + 1}: ${why}; the lines look cut where the paste was wrapped, so the Plan Details of operator ${op.label} (${op.id}) are not used.`,
      line: i + 1,
    });
    this.ops.delete(op.id);
    this.refusedBlocks.add(op.id);
    this.op = undefined;
    this.stream = undefined;
  }

  /** One value of the current operator is left out (the rest of its block is used). */
  private refuseValue(i: number, what: string, why: string): void {
    this.warnings.push({ code: 'wrapped-value', message: `Plan Details line ${i + 1}: the ${what} of operator ${this.op?.label} (${this.op?.id}) is not used: ${why}.`, line: i + 1 });
  }

  /** A number that ends line i, joined with its continuation; refused (with a warning) when it cannot be. */
  private numberOf(i: number, text: string, what: string): { value?: number; last: number } {
    const n = numberAt(this.lines, i, text, this.to);
    if (n.refused) this.refuseValue(i, what, n.refused);
    return n;
  }
}
