// Rebuilds the tree of a damaged Access Plan graph (leading whitespace stripped, or runs of spaces collapsed)
// without its columns. db2exfmt draws a plan level by level: every input is drawn in the row of boxes directly
// below its operator, and the connector line between two rows holds, left to right, one connector per box that
// reads inputs (`|`: one; `/---+---\`: two; each further `+` one more). Both kinds of damage keep the
// left-to-right order of the tokens on a line, so the boxes of a row are handed out, in order, to the
// connectors above them. Nothing is guessed: the connectors must match the boxes that read inputs, their counts
// must add up to the next row, the numbers must come out in db2exfmt's order (depth first, left to right), and
// Plan Details' "Input Streams", where given, must agree. Any doubt is a reason to refuse, never a wrong tree.
import { newOperator, objectKey, type PlanObjectRef, type PlanOperator } from './model';
import { isDb2Number, KNOWN_OPERATOR_TYPES, parseDb2Number, parseOperatorLabel } from './symbols';
import { CONNECTOR, GLUED_OBJECT, ID_TOKEN, isValue, OBJECT_TYPE, objectKind, setField, type Field, type Token } from './exfmt-tokens';

export interface LevelInput {
  /** The graph's lines, tokenised. */
  tokens: Token[][];
  /** The box layout read from the RETURN box's legend: the fields above and below the operator's name. */
  legend: { above: Field[]; below: Field[] };
  /** Plan Details' operators, if any: one that lists Input Streams must have exactly those inputs. */
  details?: ReadonlyMap<number, PlanOperator>;
  /** The 1-based line of graph line `i`, for the reasons. */
  at: (i: number) => number;
}

export type LevelResult = { operators: PlanOperator[] } | { reason: string };

/** A box of a row: an operator or a data object. */
interface Node {
  op?: PlanOperator;
  object?: PlanObjectRef;
}

interface Row {
  nodes: Node[];
  /** The connector line under the row (undefined: the last row). */
  connectors?: number;
}

/** Operators that read nothing, so no connector is drawn under them. */
const NO_INPUTS = new Set(['GENROW']);
const CORRELATION = /^Q\d+$/;
/** Connectors of one row that may each take one box more than they show; beyond this many the row is refused. */
const MAX_UNCERTAIN = 32;

const FIELD_NAMES: Record<Field, string> = { rows: 'the rows', actualRows: 'the actual rows', totalCost: 'the cost', ioCost: 'the I/O', firstRowCost: 'the first row cost', cpuCost: 'the CPU cost', other: '' };

class Doubt extends Error {}
function doubt(reason: string): never {
  throw new Doubt(reason);
}

const nameOf = (op: PlanOperator) => `${op.label} (${op.id})`;

export function rebuildByLevels(input: LevelInput): LevelResult {
  try {
    // A legend that names a field twice (`Rows` over `Rows`, a word of `Rows Actual` lost) cannot say which line is which.
    const fields = [...input.legend.above, ...input.legend.below].filter((f) => f !== 'other');
    const twice = fields.find((f, i) => fields.indexOf(f) !== i);
    if (twice) doubt(`the legend of the RETURN box names ${FIELD_NAMES[twice]} on two lines, so the values on those lines cannot be told apart`);
    const rows = readRows(input);
    const root = rows[0].nodes[0]?.op;
    if (rows[0].nodes.length !== 1 || !root) doubt(`its first row holds ${rows[0].nodes.length} boxes, not one operator`);
    const byId = new Map<number, PlanOperator>();
    for (const row of rows) {
      for (const n of row.nodes) {
        if (!n.op) continue;
        // A shared TEMP is drawn under each of its readers and its inputs under one of them: which one, the order does not say.
        if (byId.has(n.op.id)) doubt(`${nameOf(n.op)} is drawn twice (a shared TEMP or subplan), and the order does not tell which drawing carries its inputs`);
        byId.set(n.op.id, n.op);
      }
    }
    rows.forEach((row, r) => link(row, rows[r + 1], input));
    checkNumbering(root, byId);
    if (input.details) checkDetails([...byId.values()], input.details);
    return { operators: [...byId.values()] };
  } catch (e) {
    if (e instanceof Doubt) return { reason: e.message };
    throw e;
  }
}

export const isConnectorLine = (row: Token[]) => row.length > 0 && row.every((t) => t.text === '|' || CONNECTOR.test(t.text));

/** The rows of boxes: the lines between two connector lines. */
function readRows(input: LevelInput): Row[] {
  const { tokens } = input;
  const rows: Row[] = [];
  let from = 0;
  for (let l = 0; l <= tokens.length; l++) {
    const connector = l < tokens.length && isConnectorLine(tokens[l]);
    if (l < tokens.length && !connector) continue;
    rows.push({ nodes: readRow(input, from, l, rows.length === 0), connectors: connector ? l : undefined });
    from = l + 1;
  }
  return rows;
}

/**
 * The boxes of lines [from, to), left to right, from the line of names: operator names and object labels
 * (`TABLE: SCHEMA`, `CO-TABLE:SCHEMA`). The line below it pairs each with its number or object name.
 */
function readRow({ tokens, legend, at }: LevelInput, from: number, to: number, first: boolean): Node[] {
  const where = from < to - 1 ? `lines ${at(from)}-${at(to - 1)}` : `line ${at(Math.min(from, tokens.length - 1))}`;
  let idLine = -1;
  let typeLine = -1;
  for (let l = from; l < to; l++) {
    for (const t of tokens[l]) {
      const isId = ID_TOKEN.test(t.text);
      if (!isId && !OBJECT_TYPE.test(t.text) && !GLUED_OBJECT.test(t.text)) continue;
      const seen = isId ? idLine : typeLine;
      if (seen >= 0 && seen !== l) doubt(`the row of boxes on ${where} has operator numbers or object labels on two lines`);
      if (isId) idLine = l;
      else typeLine = l;
    }
  }
  if (idLine < 0 && typeLine < 0) {
    const empty = tokens.slice(from, to).every((r) => r.length === 0);
    doubt(empty && from > 0 ? `nothing is drawn under the connectors on line ${at(from - 1)}: the drawing is cut off` : `${where} ${from < to - 1 ? 'hold' : 'holds'} no box`);
  }
  const nameLine = idLine >= 0 ? idLine - 1 : typeLine;
  if (nameLine < from || (typeLine >= 0 && typeLine !== nameLine)) doubt(`the operator names and object labels on ${where} are not on one line above the operator numbers`);
  const nodes: Node[] = [];
  const names = tokens[nameLine];
  for (let i = 0; i < names.length; i++) {
    const spaced = OBJECT_TYPE.exec(names[i].text);
    const glued = GLUED_OBJECT.exec(names[i].text);
    // An object label: its type and schema (the name is on the line below).
    const object = spaced && i + 1 < names.length ? [spaced[1], names[++i].text] : glued ? [glued[1], glued[2]] : undefined;
    if (object) {
      nodes.push({ object: { key: '', schema: object[1], name: '', kind: objectKind(object[0]) } });
      continue;
    }
    const label = parseOperatorLabel(names[i].text);
    if (!label) doubt(`"${names[i].text}" on line ${at(nameLine)} is neither an operator name nor an object label`);
    // An unknown name may be an object's name (T1) or a value (NA) that moved up from another line.
    if (!KNOWN_OPERATOR_TYPES.has(label.type)) doubt(`"${names[i].text}" on line ${at(nameLine)} is not one of Db2's operator names`);
    // RETURN hands the result to the application: it is the top box, never another operator's input.
    if (label.type === 'RETURN' && !first) doubt(`${names[i].text} on line ${at(nameLine)} is drawn below the top of the plan`);
    const op = newOperator(0, label.type);
    op.label = names[i].text;
    op.flags = label.flags;
    nodes.push({ op });
  }
  // Under each name its number; under each object label the object's name.
  const under = tokens[nameLine + 1] ?? [];
  const paired = nameLine + 1 < to && under.length === nodes.length && nodes.every((n, k) => ID_TOKEN.test(under[k].text) === (n.op !== undefined));
  if (!paired) doubt(`the ${nodes.length} boxes named on line ${at(nameLine)} do not pair up with the operator numbers and object names below them`);
  nodes.forEach((n, k) => {
    if (n.op) n.op.id = Number(ID_TOKEN.exec(under[k].text)![1]);
    else {
      // A number under an object label is a value that moved up (its name line lost or moved): never a name.
      if (isDb2Number(under[k].text)) doubt(`the object label "${n.object!.schema}" on line ${at(nameLine)} has the value ${under[k].text} below it, not an object name`);
      Object.assign(n.object!, { key: objectKey(n.object!.schema, under[k].text), name: under[k].text });
    }
  });
  // The root's box holds the legend (words, not values): its layout is the legend itself.
  if (first) return nodes;
  // Every other line of the row is one line of values of its boxes, in the legend's order: a line lost, doubled,
  // moved or joined would hand values (or names) to the wrong field, so the row must have exactly those lines.
  const filled = (l: number) => tokens[l].length > 0;
  const aboveLines: number[] = [];
  for (let l = from; l < nameLine; l++) if (filled(l)) aboveLines.push(l);
  const belowLines: number[] = [];
  for (let l = nameLine + 2; l < to; l++) if (filled(l)) belowLines.push(l);
  const contiguous = (ls: number[], start: number) => ls.every((l, i) => l === start + i);
  const ops = nodes.filter((n) => n.op).length;
  // An operator box prints every field of the legend; a row of objects only has at most their correlation names.
  const belowCount = ops > 0 ? legend.below.length : Math.min(belowLines.length, 1);
  if (aboveLines.length !== legend.above.length || !contiguous(aboveLines, nameLine - aboveLines.length)) {
    doubt(`the boxes named on line ${at(nameLine)} have ${aboveLines.length} line${aboveLines.length === 1 ? '' : 's'} of values above them where the legend of the plan has ${legend.above.length}`);
  }
  if (belowLines.length !== belowCount || !contiguous(belowLines, nameLine + 2)) {
    doubt(`the boxes named on line ${at(nameLine)} have ${belowLines.length} line${belowLines.length === 1 ? '' : 's'} below their numbers where the legend of the plan has ${ops > 0 ? legend.below.length : 'at most 1 (correlation names)'}`);
  }
  legend.above.forEach((field, i) => {
    if (!readAbove(nodes, tokens[aboveLines[i]], field)) doubt(`the values on line ${at(aboveLines[i])} do not pair up with the ${nodes.length} boxes named below them`);
  });
  if (ops > 0) {
    legend.below.forEach((field, i) => {
      if (!readBelow(nodes, tokens[belowLines[i]], field, i === 0)) doubt(`the values on line ${at(belowLines[i])} do not pair up with the ${ops} operator${ops === 1 ? '' : 's'} named above them`);
    });
  } else if (belowLines.length > 0 && !readCorrelations(nodes, tokens[belowLines[0]])) {
    doubt(`line ${at(belowLines[0])} under the objects named on line ${at(nameLine)} holds more than their correlation names`);
  }
  // With no correlation line, a name that reads as one (Q1) may be the correlation line moved up: a lost name line.
  if (belowLines.length === 0 && ops === 0) {
    const q = nodes.find((n) => CORRELATION.test(n.object!.name));
    if (q) doubt(`the object ${q.object!.key} on line ${at(nameLine + 1)} is named like a correlation name and has none below it: its name line may be lost`);
  }
  return nodes;
}

/** A line above the names (rows, actual rows): one value per box, objects included; false when it does not pair up. */
function readAbove(nodes: Node[], row: Token[], field: Field): boolean {
  if (row.length !== nodes.length || !row.every(isValue)) return false;
  nodes.forEach((n, k) => {
    if (n.op) setField(n.op, field, row[k].text);
    else if (field === 'rows') {
      const rows = parseDb2Number(row[k].text);
      if (rows !== undefined) n.object!.rows = rows;
    }
  });
  return true;
}

/**
 * A line below the numbers (cost, I/O): one value per operator. On the first one an object may show its
 * correlation name (`Q1`): the objects between two operators take the names between their values when each has one.
 */
function readBelow(nodes: Node[], row: Token[], field: Field, correlations: boolean): boolean {
  const values = row.filter(isValue);
  let k = 0;
  for (const n of nodes) if (n.op) k++;
  if (values.length !== k || row.some((t) => !isValue(t) && !(correlations && CORRELATION.test(t.text)))) return false;
  let t = 0;
  let i = 0;
  while (i <= nodes.length) {
    const objects: Node[] = [];
    while (i < nodes.length && !nodes[i].op) objects.push(nodes[i++]);
    const names: Token[] = [];
    while (t < row.length && !isValue(row[t])) names.push(row[t++]);
    if (names.length === objects.length) objects.forEach((o, j) => (o.object!.correlation = names[j].text));
    if (i < nodes.length) setField(nodes[i].op!, field, row[t].text);
    i++;
    t++;
  }
  return true;
}

/** The line under a row of objects only: their correlation names, when each has one; false when it holds anything else. */
function readCorrelations(nodes: Node[], row: Token[]): boolean {
  if (row.length > nodes.length || !row.every((t) => CORRELATION.test(t.text))) return false;
  if (row.length === nodes.length) nodes.forEach((n, k) => (n.object!.correlation = row[k].text));
  return true;
}

/** Hands the boxes of the row below out to the connectors under `row`, in order. */
function link(row: Row, below: Row | undefined, { tokens, at }: LevelInput): void {
  const parents = row.nodes.filter((n) => n.op && !NO_INPUTS.has(n.op.type)).map((n) => n.op!);
  if (row.connectors === undefined || !below) {
    if (parents.length > 0) doubt(`nothing is drawn under ${nameOf(parents[0])}: the drawing is cut off below it`);
    return;
  }
  const groups = tokens[row.connectors];
  if (groups.length !== parents.length) {
    doubt(`line ${at(row.connectors)} has ${groups.length} connector${groups.length === 1 ? '' : 's'} for the ${parents.length} operator${parents.length === 1 ? '' : 's'} above it that read inputs`);
  }
  const counts = shareOut(groups, row, parents, below.nodes, at(row.connectors));
  let next = 0;
  parents.forEach((op, j) => {
    for (let k = 0; k < counts[j]; k++) {
      const child = below.nodes[next++];
      if (child.op) {
        op.children.push(child.op.id);
        op.inputs.push({ kind: 'operator', id: child.op.id, rows: child.op.rows });
      } else {
        op.inputs.push({ kind: 'object', object: child.object! });
        // The object under an INSERT/UPDATE/DELETE is the table it writes (an O->D stream drawn as an input).
        if (['INSERT', 'UPDATE', 'DELETE'].includes(op.type)) op.objectsWritten.push(child.object!.key);
        else op.objectsRead.push(child.object!.key);
      }
    }
  });
}

/**
 * How many boxes each connector takes. `|` takes one; a connector with p `+` takes p + 1 boxes (one `+` is the
 * operator's own joint), or p + 2 when the joint sits over a middle input (`/----+----\` over three boxes).
 * The operator numbers say where an operator box belongs: db2exfmt numbers depth first, left to right, so a
 * box belongs to the last operator above it with a smaller number. Exactly one reading must fit both.
 */
function shareOut(groups: Token[], row: Row, parents: PlanOperator[], children: Node[], line: number): number[] {
  const m = parents.length;
  const min = groups.map((g) => (g.text === '|' ? 1 : Math.max(2, (g.text.match(/\+/g)?.length ?? 0) + 1)));
  const flexible = groups.map((g) => g.text !== '|' && g.text.includes('+'));
  // S[j], the boxes taken by connectors 0..j, must lie in [low[j], high[j]].
  const low = new Array<number>(m).fill(0);
  const high = new Array<number>(m).fill(Infinity);
  const index = new Map(parents.map((p, j) => [p, j]));
  const above = row.nodes.flatMap((n) => (n.op ? [n.op] : []));
  const inOrder = (ops: PlanOperator[]) => ops.every((op, k) => k === 0 || op.id > ops[k - 1].id);
  if (!inOrder(above)) doubt(`the operators named above line ${line} are not numbered left to right, as db2exfmt numbers them`);
  let a = -1;
  let lastId = -Infinity;
  children.forEach((c, i) => {
    if (!c.op) return;
    if (c.op.id <= lastId) doubt(`the operators named below line ${line} are not numbered left to right, as db2exfmt numbers them`);
    lastId = c.op.id;
    while (a + 1 < above.length && above[a + 1].id < c.op.id) a++;
    const j = a >= 0 ? index.get(above[a]) : undefined;
    if (j === undefined) doubt(`operator ${nameOf(c.op)} below line ${line} has no operator above it that db2exfmt's numbering would make its reader`);
    low[j] = Math.max(low[j], i + 1);
    if (j > 0) high[j - 1] = Math.min(high[j - 1], i);
  });
  const least = min.reduce((s, x) => s + x, 0);
  const uncertain = flexible.filter(Boolean).length;
  const extra = children.length - least;
  if (extra < 0 || extra > uncertain) {
    const most = least + uncertain;
    doubt(`the connectors on line ${line} lead to ${least === most ? least : `${least} to ${most}`} boxes, but ${children.length} are drawn below them`);
  }
  if (extra > MAX_UNCERTAIN) doubt(`the connectors on line ${line} can be read in too many ways`);
  // ways[j * w + d]: the readings of connectors 0..j that take (their minimum + d) boxes, counted up to 2.
  const w = extra + 1;
  const ways = new Uint8Array(m * w);
  let base = 0;
  for (let j = 0; j < m; j++) {
    base += min[j];
    for (let d = 0; d <= extra; d++) {
      if (base + d < low[j] || base + d > high[j]) continue;
      const same = j === 0 ? Number(d === 0) : ways[(j - 1) * w + d];
      const more = !flexible[j] || d === 0 ? 0 : j === 0 ? Number(d === 1) : ways[(j - 1) * w + d - 1];
      ways[j * w + d] = Math.min(2, same + more);
    }
  }
  const readings = ways[(m - 1) * w + extra];
  if (readings === 0) doubt(`no reading of the connectors on line ${line} agrees with the operator numbers below them`);
  if (readings > 1) doubt(`the connectors on line ${line} can be read in more than one way`);
  const counts = new Array<number>(m);
  for (let j = m - 1, d = extra; j >= 0; j--) {
    // One reading only: of the two ways to get here, exactly one is possible.
    const more = flexible[j] && d > 0 && (j === 0 ? d === 1 : ways[(j - 1) * w + d - 1] > 0);
    counts[j] = min[j] + (more ? 1 : 0);
    if (more) d--;
  }
  return counts;
}

/** db2exfmt numbers operators depth first, left to right: the rebuilt tree must visit them in increasing order. */
function checkNumbering(root: PlanOperator, byId: Map<number, PlanOperator>): void {
  const stack = [root];
  let last: PlanOperator | undefined;
  while (stack.length > 0) {
    const op = stack.pop()!;
    if (last && op.id <= last.id) doubt(`read row by row, the tree visits ${nameOf(op)} after ${nameOf(last)}, against db2exfmt's numbering (depth first, left to right)`);
    last = op;
    for (let i = op.children.length - 1; i >= 0; i--) stack.push(byId.get(op.children[i])!);
  }
}

function checkDetails(operators: PlanOperator[], details: ReadonlyMap<number, PlanOperator>): void {
  const key = (i: PlanOperator['inputs'][number]) => (i.kind === 'operator' ? `(${i.id})` : i.object.key);
  for (const op of operators) {
    const d = details.get(op.id);
    if (!d) continue;
    // Two name lines of the same shape swapped read as a tree of the right shape: Plan Details name each operator.
    if (d.type !== op.type) doubt(`Plan Details name operator ${op.id} ${d.label}, where the rows of the drawing give ${op.label}`);
    if (d.inputs.length === 0) continue;
    const drawn = op.inputs.map(key).sort();
    const listed = d.inputs.map(key).sort();
    if (drawn.join('\n') !== listed.join('\n')) {
      doubt(`Plan Details list the inputs ${listed.join(', ')} of ${nameOf(op)}, where the rows of the drawing give ${drawn.join(', ') || 'none'}`);
    }
  }
}
