// Rebuilds the operator tree from db2exfmt's ASCII "Access Plan" graph. Every token of a box is centred
// on the operator's column, so nodes are found by centre, and connector lines (`|`, `/---+---\`) link a
// box to the node tops on the line below them (FORMAT.md §2).
import { newOperator, objectKey, type PlanObjectRef, type PlanOperator, type ExplainMessage } from './model';
import { isDb2Number, parseDb2Number, parseOperatorLabel } from './symbols';

interface Token {
  text: string;
  start: number;
  end: number;
  centre: number;
}

interface ObjectLabel extends Token {
  typeLabel: string;
  schema: string;
}

interface GraphNode {
  kind: 'op' | 'object';
  centre: number;
  top: number;
  bottom: number;
  op?: PlanOperator;
  object?: PlanObjectRef;
  parent?: GraphNode;
}

export interface GraphResult {
  operators: PlanOperator[];
  /** The tree could be rebuilt (false: operators are listed but not linked). */
  linked: boolean;
  damage?: 'indentation-stripped' | 'spaces-collapsed';
  errors: ExplainMessage[];
  warnings: ExplainMessage[];
}

const ID_TOKEN = /^\(\s*(\d{1,6})\)$/;
const CONNECTOR = /^\/[-+]*\\$/;
const TOKENS = /\(\s{0,8}\d{1,6}\)|\S+/g;
const OBJECT_TYPE = /^([A-Z][A-Z-]{1,15}):$/;

type Field = 'rows' | 'totalCost' | 'ioCost' | 'firstRowCost' | 'cpuCost' | 'other';

function tokenize(line: string): Token[] {
  const out: Token[] = [];
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(line); m; m = TOKENS.exec(line)) {
    const start = m.index;
    const end = start + m[0].length;
    out.push({ text: m[0], start, end, centre: (start + end - 1) / 2 });
  }
  return out;
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') out += ' '.repeat(8 - (out.length % 8));
    else out += ch;
  }
  return out;
}

/** Removes a comment prefix shared by the graph's lines (Javadoc ` * `, `// `, `-- `, `# `). */
export function stripCommonPrefix(lines: string[]): string[] {
  const nonBlank = lines.filter((l) => l.trim() !== '');
  if (nonBlank.length === 0) return lines;
  const m = /^(\s*(?:\*|\/\/|--|#)\s?)/.exec(nonBlank[0]);
  if (!m) return lines;
  const prefix = m[1];
  const bare = prefix.trimEnd();
  const all = nonBlank.every((l) => l.startsWith(prefix) || l.trimEnd() === bare);
  if (!all) return lines;
  return lines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l.trimEnd() === bare ? '' : l));
}

/** Index of the first item whose centre is >= `value` (items sorted by centre). */
function lowerBound(items: { centre: number }[], value: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].centre < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Items whose centre lies in [from, to]; binary search keeps wide plans (thousands of boxes per line) linear. */
function inCentreRange<T extends { centre: number }>(items: T[] | undefined, from: number, to: number): T[] {
  if (!items || items.length === 0) return [];
  const out: T[] = [];
  for (let i = lowerBound(items, from); i < items.length && items[i].centre <= to; i++) out.push(items[i]);
  return out;
}

function nearest<T extends Token>(tokens: T[] | undefined, centre: number, tolerance: number, accept: (t: T) => boolean = () => true): T | undefined {
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const t of inCentreRange(tokens, centre - tolerance, centre + tolerance)) {
    if (!accept(t)) continue;
    const d = Math.abs(t.centre - centre);
    if (d < bestDistance) {
      best = t;
      bestDistance = d;
    }
  }
  return best;
}

function fieldOfLegend(word: string): Field {
  const w = word.toLowerCase();
  if (w === 'rows' || w === 'cardinality') return 'rows';
  if (w === 'cost' || w === 'total') return 'totalCost';
  if (w === 'i/o' || w === 'io') return 'ioCost';
  if (w.startsWith('1st') || w.startsWith('first')) return 'firstRowCost';
  if (w === 'cpu') return 'cpuCost';
  return 'other';
}

/** Parses graph lines (already cut out of the document). `firstLine` is the 1-based line of lines[0]. */
export function parseGraph(rawLines: string[], firstLine = 1): GraphResult {
  const errors: ExplainMessage[] = [];
  const warnings: ExplainMessage[] = [];
  const lines = stripCommonPrefix(rawLines).map((l) => expandTabs(l).trimEnd());
  const tokens = lines.map(tokenize);

  const idTokens: { line: number; token: Token; id: number }[] = [];
  tokens.forEach((row, line) => {
    for (const t of row) {
      const m = ID_TOKEN.exec(t.text);
      if (m) idTokens.push({ line, token: t, id: Number(m[1]) });
    }
  });
  if (idTokens.length === 0) {
    errors.push({ code: 'no-operators', message: 'The Access Plan graph has no operator boxes (no "(   n)" operator numbers).', line: firstLine });
    return { operators: [], linked: false, errors, warnings };
  }

  const damage = detectDamage(lines, idTokens);
  if (damage) return parseDamaged(lines, tokens, idTokens, damage, firstLine, errors, warnings);

  // Legend: the root box shows words (Rows / Cost / I/O) instead of numbers; it gives the box layout.
  let above: Field[] = ['rows'];
  let below: Field[] = ['totalCost', 'ioCost'];
  const root = idTokens[0];
  {
    const up: Field[] = [];
    for (let l = root.line - 2; l >= 0; l--) {
      const t = nearest(tokens[l], root.token.centre, 4);
      if (!t || isDb2Number(t.text) || !/^[A-Za-z1/][A-Za-z/ .-]*$/.test(t.text)) break;
      up.unshift(fieldOfLegend(t.text));
    }
    const down: Field[] = [];
    for (let l = root.line + 1; l < lines.length; l++) {
      const t = nearest(tokens[l], root.token.centre, 4);
      if (!t || isDb2Number(t.text) || t.text === '|' || CONNECTOR.test(t.text) || !/^[A-Za-z1/][A-Za-z/ .-]*$/.test(t.text)) break;
      down.push(fieldOfLegend(t.text));
    }
    if (up.length > 0 || down.length > 0) {
      above = up;
      below = down;
    }
  }

  const nodes: GraphNode[] = [];
  const claimed = new Set<Token>();
  const seenIds = new Set<number>();
  for (const { line, token, id } of idTokens) {
    const nameTok = nearest(tokens[line - 1], token.centre, Math.max(4, (token.end - token.start) / 2 + 2), (t) => parseOperatorLabel(t.text) !== undefined);
    if (!nameTok) {
      warnings.push({ code: 'box-without-name', message: `Operator (${id}) has no operator name above its number.`, line: firstLine + line });
      continue;
    }
    if (seenIds.has(id)) {
      warnings.push({ code: 'duplicate-operator', message: `Operator number ${id} appears twice in the graph; the second box is ignored.`, line: firstLine + line });
      continue;
    }
    seenIds.add(id);
    const label = parseOperatorLabel(nameTok.text)!;
    const op = newOperator(id, label.type);
    op.label = nameTok.text;
    op.flags = label.flags;
    claimed.add(nameTok);
    claimed.add(token);
    let top = line - 1;
    above.forEach((field, i) => {
      const l = line - 1 - above.length + i;
      const t = nearest(tokens[l], token.centre, 5, (x) => isDb2Number(x.text) || x.text.toLowerCase() === 'rows');
      if (t) {
        top = Math.min(top, l);
        claimed.add(t);
        setField(op, field, t.text);
      }
    });
    let bottom = line;
    below.forEach((field, i) => {
      const l = line + 1 + i;
      const t = nearest(tokens[l], token.centre, 5, (x) => isDb2Number(x.text) || /^[A-Za-z/]+$/.test(x.text));
      if (t) {
        bottom = l;
        claimed.add(t);
        setField(op, field, t.text);
      }
    });
    nodes.push({ kind: 'op', centre: token.centre, top, bottom, op });
  }

  // Object leaves: "TYPE: SCHEMA" with the name below it, an optional correlation name, the cardinality above.
  tokens.forEach((row, line) => {
    for (let i = 0; i + 1 < row.length; i++) {
      const typeTok = row[i];
      const m = OBJECT_TYPE.exec(typeTok.text);
      if (!m || claimed.has(typeTok)) continue;
      const schemaTok = row[i + 1];
      if (schemaTok.start - typeTok.end > 3) continue;
      const label: ObjectLabel = {
        text: `${typeTok.text} ${schemaTok.text}`,
        start: typeTok.start,
        end: schemaTok.end,
        centre: (typeTok.start + schemaTok.end - 1) / 2,
        typeLabel: m[1],
        schema: schemaTok.text,
      };
      const half = (label.end - label.start) / 2 + 2;
      const nameTok = nearest(tokens[line + 1], label.centre, half, (t) => !claimed.has(t) && !ID_TOKEN.test(t.text) && !isDb2Number(t.text));
      if (!nameTok) {
        warnings.push({ code: 'object-without-name', message: `Object label "${label.text}" has no object name below it.`, line: firstLine + line });
        continue;
      }
      claimed.add(typeTok).add(schemaTok).add(nameTok);
      const object: PlanObjectRef = { key: objectKey(label.schema, nameTok.text), schema: label.schema, name: nameTok.text, kind: objectKind(label.typeLabel) };
      let bottom = line + 1;
      const corr = nearest(tokens[line + 2], nameTok.centre, Math.max(3, (nameTok.end - nameTok.start) / 2), (t) => /^Q\d+$/.test(t.text) && !claimed.has(t));
      if (corr) {
        object.correlation = corr.text;
        claimed.add(corr);
        bottom = line + 2;
      }
      let top = line;
      const rows = nearest(tokens[line - 1], label.centre, half, (t) => isDb2Number(t.text) && !claimed.has(t));
      if (rows) {
        object.rows = parseDb2Number(rows.text);
        claimed.add(rows);
        top = line - 1;
      }
      nodes.push({ kind: 'object', centre: label.centre, top, bottom, object });
      i++;
    }
  });

  // Connectors.
  const byTop = new Map<number, GraphNode[]>();
  for (const n of nodes) {
    const list = byTop.get(n.top);
    if (list) list.push(n);
    else byTop.set(n.top, [n]);
  }
  for (const list of byTop.values()) list.sort((a, b) => a.centre - b.centre);
  let unresolved = 0;
  for (const parent of nodes) {
    if (parent.kind !== 'op') continue;
    let connector: Token | undefined;
    let connLine = -1;
    for (let l = parent.bottom + 1; l <= parent.bottom + 2 && l < lines.length && !connector; l++) {
      const row = tokens[l] ?? [];
      // Tokens do not overlap, so the one covering the parent's column is at or just before its position.
      const k = lowerBound(row, parent.centre);
      for (const i of [k - 1, k, k + 1, k - 2]) {
        const t = row[i];
        if (!t) continue;
        if ((t.text === '|' && Math.abs(t.centre - parent.centre) <= 3) || (CONNECTOR.test(t.text) && t.start - 2 <= parent.centre && parent.centre <= t.end + 1)) {
          connector = t;
          break;
        }
      }
      if (connector) connLine = l;
    }
    if (!connector) continue;
    const below = byTop.get(connLine + 1);
    let children: GraphNode[];
    if (connector.text === '|') {
      const child = nearestNode(inCentreRange(below, connector.centre - 5, connector.centre + 5).filter((n) => n !== parent && !n.parent), connector.centre, 5);
      children = child ? [child] : [];
    } else {
      children = inCentreRange(below, connector.start - 4, connector.end + 3).filter((n) => n !== parent && !n.parent);
      const expected = 2 + Math.max(0, (connector.text.match(/\+/g)?.length ?? 1) - 1);
      if (children.length < 2 || children.length > expected + 1) {
        if (children.length < 2) unresolved++;
        warnings.push({
          code: 'connector-mismatch',
          message: `The connector under operator (${parent.op!.id}) leads to ${children.length} input(s); expected ${expected}.`,
          line: firstLine + connLine,
        });
      }
    }
    if (children.length === 0) {
      unresolved++;
      warnings.push({ code: 'dangling-connector', message: `The connector under operator (${parent.op!.id}) leads to nothing the parser recognises.`, line: firstLine + connLine });
    }
    for (const child of children) {
      child.parent = parent;
      const op = parent.op!;
      if (child.kind === 'op') {
        op.children.push(child.op!.id);
        op.inputs.push({ kind: 'operator', id: child.op!.id, rows: child.op!.rows });
      } else {
        op.inputs.push({ kind: 'object', object: child.object! });
        // The object under an INSERT/UPDATE/DELETE is the table it writes (an O->D stream drawn as an input).
        if (['INSERT', 'UPDATE', 'DELETE'].includes(op.type)) op.objectsWritten.push(child.object!.key);
        else op.objectsRead.push(child.object!.key);
      }
    }
  }
  const ops = nodes.filter((n) => n.kind === 'op').map((n) => n.op!);
  const orphans = nodes.filter((n) => n.kind === 'op' && !n.parent).map((n) => n.op!.id);
  if (orphans.length > 1) {
    warnings.push({ code: 'several-roots', message: `Operators ${orphans.slice(1).map((i) => `(${i})`).join(', ')} could not be attached to the tree under (${orphans[0]}).` });
  }
  const strayObjects = nodes.filter((n) => n.kind === 'object' && !n.parent);
  for (const s of strayObjects) warnings.push({ code: 'stray-object', message: `Object ${s.object!.key} is not connected to any operator.`, line: firstLine + s.top });
  return { operators: ops, linked: unresolved === 0 && orphans.length <= 1, errors, warnings };
}

function nearestNode(nodes: GraphNode[], centre: number, tolerance: number): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const n of nodes) {
    const d = Math.abs(n.centre - centre);
    if (d <= tolerance && (!best || d < Math.abs(best.centre - centre))) best = n;
  }
  return best;
}

function setField(op: PlanOperator, field: Field, text: string): void {
  const n = parseDb2Number(text);
  if (n === undefined) return;
  if (field === 'rows') op.rows = n;
  else if (field === 'totalCost') op.totalCost = n;
  else if (field === 'ioCost') op.ioCost = n;
  else if (field === 'firstRowCost') op.firstRowCost = n;
  else if (field === 'cpuCost') op.cpuCost = n;
}

export function objectKind(typeLabel: string): string {
  switch (typeLabel.toUpperCase()) {
    case 'TABLE':
    case 'CO-TABLE':
      return 'table';
    case 'INDEX':
    case 'DP-INDEX':
      return 'index';
    case 'TABFNC':
      return 'table-function';
    case 'NICKNM':
      return 'nickname';
    default:
      return typeLabel.toLowerCase();
  }
}

/**
 * db2exfmt pads operator numbers to 4 columns ("(   1)"), so "( 1)" means runs of spaces were collapsed; a graph whose
 * lines almost all start in column 0 lost its indentation. Either way the column geometry is gone.
 */
function detectDamage(lines: string[], ids: { token: Token; id: number }[]): GraphResult['damage'] {
  const collapsed = ids.filter(({ token, id }) => String(id).length < 4 && token.text.length < 6).length;
  if (collapsed > 0 && collapsed >= ids.length / 2) return 'spaces-collapsed';
  const nonBlank = lines.filter((l) => l.trim() !== '');
  const flush = nonBlank.filter((l) => !/^\s/.test(l)).length;
  if (nonBlank.length >= 4 && flush / nonBlank.length >= 0.8) return 'indentation-stripped';
  return undefined;
}

/**
 * Without geometry only a plan without joins (one input per operator) can be rebuilt safely: the boxes then
 * form one chain from top to bottom. Otherwise the operators are listed unlinked and the caller decides.
 */
function parseDamaged(
  lines: string[],
  tokens: Token[][],
  idTokens: { line: number; token: Token; id: number }[],
  damage: NonNullable<GraphResult['damage']>,
  firstLine: number,
  errors: ExplainMessage[],
  warnings: ExplainMessage[],
): GraphResult {
  const ops: PlanOperator[] = [];
  const byLine = new Map<number, { token: Token; id: number }[]>();
  for (const t of idTokens) byLine.set(t.line, [...(byLine.get(t.line) ?? []), t]);
  for (const [line, ids] of [...byLine.entries()].sort((a, b) => a[0] - b[0])) {
    const names = (tokens[line - 1] ?? []).filter((t) => parseOperatorLabel(t.text));
    const costs = (tokens[line + 1] ?? []).filter((t) => isDb2Number(t.text));
    const ios = (tokens[line + 2] ?? []).filter((t) => isDb2Number(t.text));
    const rows = (tokens[line - 2] ?? []).filter((t) => isDb2Number(t.text));
    ids.forEach(({ id }, i) => {
      const name = names.length === ids.length ? names[i] : undefined;
      const label = name ? parseOperatorLabel(name.text)! : undefined;
      const op = newOperator(id, label?.type ?? '?');
      if (name && label) {
        op.label = name.text;
        op.flags = label.flags;
      }
      if (costs.length === ids.length) op.totalCost = parseDb2Number(costs[i].text);
      if (ios.length === ids.length) op.ioCost = parseDb2Number(ios[i].text);
      if (rows.length === ids.length) op.rows = parseDb2Number(rows[i].text);
      ops.push(op);
    });
  }
  const why =
    damage === 'spaces-collapsed'
      ? 'runs of spaces were collapsed (operator numbers read "( 1)" where db2exfmt prints "(   1)")'
      : 'the leading whitespace of its lines was stripped';
  const joins = lines.some((l) => /\/-*\+/.test(l) || /\/\s*\\/.test(l)) || [...byLine.values()].some((v) => v.length > 1);
  if (!joins) {
    for (let i = 0; i + 1 < ops.length; i++) {
      ops[i].children.push(ops[i + 1].id);
      ops[i].inputs.push({ kind: 'operator', id: ops[i + 1].id, rows: ops[i + 1].rows });
    }
    // Leaves: every object label belongs to the last operator of the chain.
    const last = ops[ops.length - 1];
    tokens.forEach((row, line) => {
      for (let i = 0; i + 1 < row.length; i++) {
        const m = OBJECT_TYPE.exec(row[i].text);
        const nameTok = tokens[line + 1]?.[0];
        if (m && last && nameTok) {
          const object: PlanObjectRef = { key: objectKey(row[i + 1].text, nameTok.text), schema: row[i + 1].text, name: nameTok.text, kind: objectKind(m[1]) };
          last.inputs.push({ kind: 'object', object });
          if (['INSERT', 'UPDATE', 'DELETE'].includes(last.type)) last.objectsWritten.push(object.key);
          else last.objectsRead.push(object.key);
          i++;
        }
      }
    });
    warnings.push({
      code: 'damaged-graph-chain',
      message: `The Access Plan graph is damaged: ${why}. The plan has no joins, so its operators were linked as one chain from top to bottom.`,
      line: firstLine,
    });
    return { operators: ops, linked: true, damage, errors, warnings };
  }
  errors.push({
    code: 'damaged-graph',
    message: `The Access Plan graph is damaged: ${why}, so the columns that tie each operator to its inputs are lost and the tree cannot be rebuilt from the drawing. Attach the db2exfmt output file unchanged (or include its Plan Details section with the "Input Streams" of each operator).`,
    line: firstLine,
  });
  return { operators: ops, linked: false, damage, errors, warnings };
}
