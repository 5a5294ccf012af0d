// A db2exfmt Access Plan graph whose column geometry a paste destroyed (runs of spaces collapsed, indentation
// stripped): how the damage is told (detectDamage), and the reading without columns (parseDamaged): the tree rebuilt
// from the order of the boxes (exfmt-levels.ts) when every check agrees, else the operators listed unlinked.
import { newOperator, type ExplainMessage, type GraphResult, type PlanOperator } from './model';
import { isDb2Number, KNOWN_OPERATOR_TYPES, parseDb2Number, parseOperatorLabel } from './symbols';
import { GLUED_OBJECT, OBJECT_TYPE, type Token } from './exfmt-tokens';
import { isConnectorLine, rebuildByLevels } from './exfmt-levels';
import { readLegend } from './exfmt-legend';

/**
 * db2exfmt pads operator numbers to 4 columns ("(   1)"), so "( 1)" means runs of spaces were collapsed (only numbers
 * below 100 have a run to lose: "( 123)" reads the same either way); a graph whose lines almost all start in column 0
 * lost its indentation. Either way the column geometry is gone.
 */
export function detectDamage(lines: string[], ids: { token: Token; id: number }[]): GraphResult['damage'] {
  const short = ids.filter(({ id }) => id < 100);
  const collapsed = short.filter(({ token }) => token.text.length < 6).length;
  if (collapsed > 0 && collapsed >= short.length / 2) return 'spaces-collapsed';
  const nonBlank = lines.filter((l) => l.trim() !== '');
  const flush = nonBlank.filter((l) => !/^\s/.test(l)).length;
  if (nonBlank.length >= 4 && flush / nonBlank.length >= 0.8) return 'indentation-stripped';
  return undefined;
}

/** A line's tokens without the object labels on it: a "TYPE:" word with the schema after it, or one glued to it. */
function withoutObjectLabels(row: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < row.length; i++) {
    if (OBJECT_TYPE.test(row[i].text) && i + 1 < row.length) {
      i++;
      continue;
    }
    if (OBJECT_TYPE.test(row[i].text) || GLUED_OBJECT.test(row[i].text)) continue;
    out.push(row[i]);
  }
  return out;
}

export interface Damaged {
  lines: string[];
  tokens: Token[][];
  idTokens: { line: number; token: Token; id: number }[];
  damage: NonNullable<GraphResult['damage']>;
  firstLine: number;
  at: (i: number) => number;
  details: ReadonlyMap<number, PlanOperator> | undefined;
}

/**
 * Without geometry, the tree is rebuilt from the order of the boxes, row by row, when every check of
 * exfmt-levels.ts agrees. A plan without joins that lost its connector lines too (its rows cannot be told apart)
 * gets a `|` back under each operator box and is read the same way, as one chain from top to bottom. Otherwise the
 * operators are listed unlinked and the caller decides.
 */
export function parseDamaged({ lines, tokens, idTokens, damage, firstLine, at, details }: Damaged, errors: ExplainMessage[], warnings: ExplainMessage[]): GraphResult {
  const why =
    damage === 'spaces-collapsed'
      ? 'runs of spaces were collapsed (operator numbers read "( 1)" where db2exfmt prints "(   1)")'
      : 'the leading whitespace of its lines was stripped';
  const byLine = new Map<number, { token: Token; id: number }[]>();
  for (const t of idTokens) {
    const list = byLine.get(t.line);
    if (list) list.push(t);
    else byLine.set(t.line, [t]);
  }
  // db2exfmt draws every operator's inputs in the row of boxes below it, left to right: that order survives.
  const legend = readLegend(lines, tokens, idTokens[0], new Set());
  let levels = rebuildByLevels({ tokens, legend, details, at });
  let chained = false;
  const joins = lines.some((l) => /\/-*\+/.test(l) || /\/\s*\\/.test(l)) || [...byLine.values()].some((v) => v.length > 1) || new Set(idTokens.map((t) => t.id)).size !== idTokens.length;
  if (!('operators' in levels) && !joins && !tokens.some(isConnectorLine)) {
    const restored = withChainConnectors(tokens, [...byLine.keys()], legend.below.length);
    const chain = restored && rebuildByLevels({ tokens: restored.tokens, legend, details, at: (i) => at(restored.source[i]) });
    if (chain && 'operators' in chain) {
      levels = chain;
      chained = true;
    }
  }
  if ('operators' in levels) {
    const checked = details && [...details.values()].some((d) => d.inputs.length > 0) ? ", the operator numbers and Plan Details' input streams" : ' and the operator numbers';
    warnings.push(
      chained
        ? {
            code: 'damaged-graph-chain',
            message: `The Access Plan graph is damaged: ${why}, and its connector lines are lost. The plan has no joins, so its operators were linked as one chain from top to bottom; the boxes${checked} agree with that reading.`,
            line: firstLine,
          }
        : {
            code: 'damaged-graph-levels',
            message: `The Access Plan graph is damaged: ${why}. Its tree was rebuilt from the order of the boxes instead: db2exfmt draws each operator's inputs in the row below it, left to right, and the connectors, the boxes${checked} all agree with that reading. Rows, costs and I/O were read in the same left-to-right order on their lines.`,
            line: firstLine,
          },
    );
    return { operators: levels.operators, linked: true, damage, errors, warnings };
  }
  // Else the operators are listed from the lines of their numbers.
  const ops: PlanOperator[] = [];
  // Map order is line order: idTokens come line by line.
  for (const [line, ids] of byLine) {
    // Object labels ("TABLE: DB2INST1", "CO-TABLE:TPCDS") share the line with operator names: their words are not names.
    let names = withoutObjectLabels(tokens[line - 1] ?? []).filter((t) => parseOperatorLabel(t.text));
    // An object's name (T1, DB2INST1) can read as an operator name; Db2's own operator types then decide.
    if (names.length !== ids.length) {
      const known = names.filter((t) => KNOWN_OPERATOR_TYPES.has(parseOperatorLabel(t.text)!.type));
      if (known.length === ids.length) names = known;
    }
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
  errors.push({
    code: 'damaged-graph',
    message: `The Access Plan graph is damaged: ${why}, so the columns that tie each operator to its inputs are lost and the tree cannot be rebuilt from the drawing: read row by row, ${levels.reason}. Attach the db2exfmt output file unchanged (or include its Plan Details section with the "Input Streams" of each operator).`,
    line: firstLine,
  });
  return { operators: ops, linked: false, damage, errors, warnings };
}

/**
 * A drawing of one box per row whose connector lines were lost: a `|` is put back under each operator box, after
 * the `below` legend lines under its number, when something is drawn after it. `source` maps each line back.
 */
function withChainConnectors(tokens: Token[][], idLines: number[], below: number): { tokens: Token[][]; source: number[] } | undefined {
  const after = new Set(idLines.map((l) => l + below));
  const out: Token[][] = [];
  const source: number[] = [];
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].length === 0) last--;
  for (let l = 0; l < tokens.length; l++) {
    out.push(tokens[l]);
    source.push(l);
    if (after.has(l) && l < last) {
      out.push([{ text: '|', start: 0, end: 1, centre: 0 }]);
      source.push(l);
    }
  }
  return out.length > tokens.length ? { tokens: out, source } : undefined;
}
