// Rebuilds the operator tree from db2exfmt's ASCII "Access Plan" graph. Every token of a box is centred
// on the operator's column, so nodes are found by centre, and connector lines (`|`, `/---+---\`) link a
// box to the node tops on the line below them (FORMAT.md §2). The box layout comes from the RETURN box's
// legend (`Rows`, `Rows Actual`, `Cost`, `I/O`, …), never from a fixed height. A paste that lost its columns
// (indentation stripped, spaces collapsed) is detected and read by the order of its boxes instead (exfmt-damaged.ts,
// exfmt-levels.ts). The legend is read by exfmt-legend.ts; what a paste did to the lines is undone by exfmt-paste.ts.
import { newOperator, objectKey, type GraphResult, type PlanObjectRef, type PlanOperator, type ExplainMessage } from './model';
import { isDb2Number, parseDb2Number, parseOperatorLabel } from './symbols';
import { CONNECTOR, GLUED_OBJECT, ID_TOKEN, inCentreRange, isValue, lowerBound, nearest, OBJECT_TYPE, objectKind, setField, tokenize, type Token } from './exfmt-tokens';
import { readLegend } from './exfmt-legend';
import { detectDamage, parseDamaged } from './exfmt-damaged';
import { stripCommonPrefix, undoubleSpacing } from './exfmt-paste';

/** A graph line after preparation; `line` is its 0-based index in the lines given to parseGraph. */
interface SourceLine {
  text: string;
  line: number;
}

interface GraphNode {
  kind: 'op' | 'object';
  centre: number;
  top: number;
  bottom: number;
  op?: PlanOperator;
  object?: PlanObjectRef;
  hasParent: boolean;
  /** What this drawing links to below it (a shared TEMP is drawn twice; one drawing carries its inputs). */
  drawn: PlanOperator['inputs'];
}

function expandTabs(line: string, width: number): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') out += ' '.repeat(width - (out.length % width));
    else out += ch;
  }
  return out;
}

/**
 * Parses graph lines (already cut out of the document). `firstLine` is the 1-based line of rawLines[0].
 * Pastes come with tabs of any width and with wide lines wrapped: when the drawing does not read cleanly,
 * those readings are tried too and the first clean one wins.
 */
export function parseGraph(rawLines: string[], firstLine = 1, details?: ReadonlyMap<number, PlanOperator>): GraphResult {
  const prepared = undoubleSpacing(
    stripCommonPrefix(rawLines).map((text, line): SourceLine => ({ text, line })),
    (l) => l.text,
  );
  const rejoined = rejoinWrappedLines(prepared);
  const widths = prepared.some((l) => l.text.includes('\t')) ? [8, 4, 2, 3, 6, 1] : [8];
  const expand = (lines: SourceLine[], width: number) => lines.map((l) => ({ text: expandTabs(l.text, width).trimEnd(), line: l.line }));
  let first: GraphResult | undefined;
  for (const width of widths) {
    const r = readGraph(expand(prepared, width), firstLine, details);
    if (!first) first = r;
    if (isClean(r) || r.damage) return r;
    if (!rejoined) continue;
    const w = readGraph(expand(rejoined.lines, width), firstLine, details);
    if (isClean(w)) {
      w.warnings.push({
        code: 'rejoined-wrapped-lines',
        message: `The Access Plan graph's lines were wrapped at ${rejoined.width} columns when it was copied; they were joined again.`,
        line: firstLine,
      });
      return w;
    }
  }
  return first!;
}

function isClean(r: GraphResult): boolean {
  return r.linked && r.errors.length === 0 && r.warnings.length === 0;
}

/** Lines cut at a fixed width (a terminal or mail client folding the paste): join each full line with the next. */
function rejoinWrappedLines(lines: SourceLine[]): { lines: SourceLine[]; width: number } | undefined {
  let width = 0;
  for (const l of lines) width = Math.max(width, l.text.length);
  // A folded piece may be all blanks, but never empty.
  if (width < 40 || !lines.some((l, i) => l.text.length === width && i + 1 < lines.length && lines[i + 1].text !== '')) return undefined;
  const out: SourceLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    let text = lines[i].text;
    const line = lines[i].line;
    while (text.length % width === 0 && i + 1 < lines.length && lines[i + 1].text !== '') text += lines[++i].text;
    out.push({ text, line });
  }
  return { lines: out, width };
}

function readGraph(lines: SourceLine[], firstLine: number, details: ReadonlyMap<number, PlanOperator> | undefined): GraphResult {
  const errors: ExplainMessage[] = [];
  const warnings: ExplainMessage[] = [];
  const at = (i: number) => firstLine + (lines[i]?.line ?? lines[lines.length - 1]?.line ?? 0);
  const texts = lines.map((l) => l.text);
  const tokens = texts.map(tokenize);

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

  const damage = detectDamage(texts, idTokens);
  if (damage) return parseDamaged({ lines: texts, tokens, idTokens, damage, firstLine, at, details }, errors, warnings);

  const claimed = new Set<Token>();
  const legend = readLegend(texts, tokens, idTokens[0], claimed);
  const rowFields = legend.above.filter((f) => f === 'rows' || f === 'actualRows').length;

  const nodes: GraphNode[] = [];
  const ops = new Map<number, PlanOperator>();
  for (const { line, token, id } of idTokens) {
    const nameTok = nearest(tokens[line - 1], token.centre, Math.max(4, (token.end - token.start) / 2 + 2), (t) => parseOperatorLabel(t.text) !== undefined);
    if (!nameTok) {
      warnings.push({ code: 'box-without-name', message: `Operator (${id}) has no operator name above its number.`, line: at(line) });
      continue;
    }
    claimed.add(nameTok).add(token);
    const label = parseOperatorLabel(nameTok.text)!;
    let op = ops.get(id);
    if (op && op.label !== nameTok.text) {
      warnings.push({ code: 'duplicate-operator', message: `Operator number ${id} is drawn as ${op.label} and as ${nameTok.text}.`, line: at(line) });
      continue;
    }
    const repeat = op !== undefined;
    if (!op) {
      op = newOperator(id, label.type);
      op.label = nameTok.text;
      op.flags = label.flags;
      ops.set(id, op);
    }
    const isLegendBox = line === idTokens[0].line && token === idTokens[0].token && legend.found;
    let top = line - 1;
    let bottom = line;
    if (isLegendBox) {
      top = legend.top;
      bottom = legend.bottom;
    } else {
      legend.above.forEach((field, i) => {
        const l = line - 1 - legend.above.length + i;
        const t = nearest(tokens[l], token.centre, 5, (x) => isValue(x) && !claimed.has(x));
        if (!t) return;
        top = Math.min(top, l);
        claimed.add(t);
        if (!repeat) setField(op!, field, t.text);
      });
      legend.below.forEach((field, i) => {
        const l = line + 1 + i;
        const t = nearest(tokens[l], token.centre, 5, (x) => isValue(x) && !claimed.has(x));
        if (!t) return;
        bottom = l;
        claimed.add(t);
        if (!repeat) setField(op!, field, t.text);
      });
    }
    nodes.push({ kind: 'op', centre: token.centre, top, bottom, op, hasParent: false, drawn: [] });
  }

  readObjects(tokens, claimed, Math.max(1, rowFields), nodes, warnings, at);
  const unresolved = linkConnectors(tokens, nodes, warnings, at, claimed);
  strayTokens(tokens, nodes, claimed, warnings, at);

  // One operator, several drawings (a shared TEMP or subplan): its inputs are drawn under one of them.
  const drawings = new Map<PlanOperator, GraphNode[]>();
  for (const n of nodes) if (n.op) drawings.set(n.op, [...(drawings.get(n.op) ?? []), n]);
  for (const [op, list] of drawings) {
    const withInputs = list.filter((n) => n.drawn.length > 0);
    const chosen = withInputs[0];
    if (chosen) {
      op.inputs = chosen.drawn;
      op.children = chosen.drawn.flatMap((i) => (i.kind === 'operator' ? [i.id] : []));
      for (const i of chosen.drawn) {
        if (i.kind !== 'object') continue;
        // The object under an INSERT/UPDATE/DELETE is the table it writes (an O->D stream drawn as an input).
        if (['INSERT', 'UPDATE', 'DELETE'].includes(op.type)) op.objectsWritten.push(i.object.key);
        else op.objectsRead.push(i.object.key);
      }
    }
    const describe = (n: GraphNode) => n.drawn.map((i) => (i.kind === 'operator' ? `(${i.id})` : i.object.key)).join(', ');
    for (const other of withInputs.slice(1)) {
      if (describe(other) !== describe(chosen)) {
        warnings.push({ code: 'duplicate-operator', message: `Operator ${op.label} (${op.id}) is drawn twice with different inputs: ${describe(chosen)} and ${describe(other)}.` });
      }
    }
  }
  const operators = [...ops.values()];
  // Every drawing but the topmost hangs under a connector, a repeated one too.
  const orphans = nodes.filter((n, i) => n.kind === 'op' && !n.hasParent && i > 0).map((n) => n.op!.id);
  if (orphans.length > 0) {
    warnings.push({ code: 'several-roots', message: `Operators ${orphans.map((i) => `(${i})`).join(', ')} could not be attached to the tree under (${nodes[0]?.op?.id}).` });
  }
  for (const s of nodes) if (s.kind === 'object' && !s.hasParent) warnings.push({ code: 'stray-object', message: `Object ${s.object!.key} is not connected to any operator.`, line: at(s.top) });
  return { operators, linked: unresolved === 0 && orphans.length === 0, errors, warnings };
}

/** Object leaves: "TYPE: SCHEMA" with the name below it, an optional correlation name, the cardinality (and actual rows) above. */
function readObjects(tokens: Token[][], claimed: Set<Token>, rowLines: number, nodes: GraphNode[], warnings: ExplainMessage[], at: (i: number) => number): void {
  tokens.forEach((row, line) => {
    for (let i = 0; i < row.length; i++) {
      const typeTok = row[i];
      if (claimed.has(typeTok)) continue;
      let typeLabel: string;
      let schema: string;
      let end: number;
      const glued = GLUED_OBJECT.exec(typeTok.text);
      const spaced = OBJECT_TYPE.exec(typeTok.text);
      if (spaced && i + 1 < row.length && row[i + 1].start - typeTok.end <= 3 && !claimed.has(row[i + 1])) {
        typeLabel = spaced[1];
        schema = row[i + 1].text;
        end = row[i + 1].end;
        claimed.add(row[i + 1]);
        i++;
      } else if (glued) {
        typeLabel = glued[1];
        schema = glued[2];
        end = typeTok.end;
      } else continue;
      claimed.add(typeTok);
      const start = typeTok.start;
      const centre = (start + end - 1) / 2;
      const half = (end - start) / 2 + 2;
      const nameTok = nearest(tokens[line + 1], centre, half, (t) => !claimed.has(t) && !ID_TOKEN.test(t.text) && !isDb2Number(t.text));
      if (!nameTok) {
        warnings.push({ code: 'object-without-name', message: `Object label "${typeLabel}: ${schema}" has no object name below it.`, line: at(line) });
        continue;
      }
      claimed.add(nameTok);
      const object: PlanObjectRef = { key: objectKey(schema, nameTok.text), schema, name: nameTok.text, kind: objectKind(typeLabel) };
      let bottom = line + 1;
      const corr = nearest(tokens[line + 2], nameTok.centre, Math.max(3, (nameTok.end - nameTok.start) / 2), (t) => /^[A-Z]\d+$/.test(t.text) && !claimed.has(t));
      if (corr) {
        object.correlation = corr.text;
        claimed.add(corr);
        bottom = line + 2;
      }
      let top = line;
      const values: string[] = [];
      for (let l = line - rowLines; l < line; l++) {
        const t = nearest(tokens[l], centre, half, (x) => isValue(x) && !claimed.has(x));
        if (!t) continue;
        claimed.add(t);
        values.push(t.text);
        top = Math.min(top, l);
      }
      // Estimated rows first; a second line (section actuals) prints NA for objects.
      if (values.length > 0) object.rows = parseDb2Number(values[0]);
      nodes.push({ kind: 'object', centre, top, bottom, object, hasParent: false, drawn: [] });
    }
  });
}

/**
 * Every word of the drawing belongs to a box, an object, a connector or the legend. A word left over between the
 * first box and the last one is a piece the reading did not place (a value moved to a line of its own when the
 * paste was wrapped, a name cut in two): taking the boxes around it at face value could pair a value with the
 * wrong box, so the drawing does not read cleanly.
 */
function strayTokens(tokens: Token[][], nodes: GraphNode[], claimed: Set<Token>, warnings: ExplainMessage[], at: (i: number) => number): void {
  if (nodes.length === 0) return;
  let top = Infinity;
  let bottom = -1;
  for (const n of nodes) {
    top = Math.min(top, n.top);
    bottom = Math.max(bottom, n.bottom);
  }
  // Below the last box, up to the next empty line: the rest of a name or number a wrap cut off the drawing's last line
  // (prose or a comment's end there, `</pre>`, is not a name).
  let end = bottom;
  while (end + 1 < tokens.length && tokens[end + 1].length > 0) end++;
  for (let l = top; l <= end; l++) {
    // Only words and numbers: punctuation left of a drawing (a comment's `*`) cannot be read as a value or a name.
    const stray = tokens[l].find((t) => !claimed.has(t) && (l <= bottom ? /[A-Za-z0-9]/.test(t.text) : isValue(t) || /^[A-Z0-9_$#@]+$/.test(t.text)));
    if (stray) {
      warnings.push({ code: 'stray-token', message: `"${stray.text}" belongs to no operator box, object or connector of the drawing (the line may have been cut when the text was wrapped).`, line: at(l) });
      return;
    }
  }
}

/** Links each operator drawing to the node tops under its connector; returns how many connectors lead nowhere. */
function linkConnectors(tokens: Token[][], nodes: GraphNode[], warnings: ExplainMessage[], at: (i: number) => number, claimed: Set<Token>): number {
  const byTop = new Map<number, GraphNode[]>();
  for (const n of nodes) byTop.set(n.top, [...(byTop.get(n.top) ?? []), n]);
  for (const list of byTop.values()) list.sort((a, b) => a.centre - b.centre);
  let unresolved = 0;
  for (const parent of nodes) {
    if (parent.kind !== 'op') continue;
    let connector: Token | undefined;
    let connLine = -1;
    for (let l = parent.bottom + 1; l <= parent.bottom + 2 && l < tokens.length && !connector; l++) {
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
      // Only a blank line may separate a box from its connector.
      if (!connector && (tokens[l] ?? []).some((t) => Math.abs(t.centre - parent.centre) <= 3)) break;
    }
    if (!connector) continue;
    claimed.add(connector);
    const below = byTop.get(connLine + 1);
    let children: GraphNode[];
    const op = parent.op!;
    if (connector.text === '|') {
      const child = nearest(inCentreRange(below, connector.centre - 5, connector.centre + 5).filter((n) => n !== parent && !n.hasParent), connector.centre, 5);
      children = child ? [child] : [];
    } else {
      children = inCentreRange(below, connector.start - 4, connector.end + 3).filter((n) => n !== parent && !n.hasParent);
      const expected = 2 + Math.max(0, (connector.text.match(/\+/g)?.length ?? 1) - 1);
      if (children.length < 2 || children.length > expected + 1) {
        if (children.length < 2) unresolved++;
        warnings.push({
          code: 'connector-mismatch',
          message: `The connector under operator ${op.label} (${op.id}) leads to ${children.length} input(s); expected ${expected}.`,
          line: at(connLine),
        });
      }
    }
    if (children.length === 0) {
      unresolved++;
      warnings.push({ code: 'dangling-connector', message: `The connector under operator ${op.label} (${op.id}) leads to no box or object drawn below it.`, line: at(connLine) });
    }
    for (const child of children) {
      child.hasParent = true;
      if (child.kind === 'op') parent.drawn.push({ kind: 'operator', id: child.op!.id, rows: child.op!.rows });
      else parent.drawn.push({ kind: 'object', object: child.object! });
    }
  }
  return unresolved;
}
