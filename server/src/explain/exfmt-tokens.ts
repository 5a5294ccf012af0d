// The tokens of a db2exfmt Access Plan graph, shared by the reader of an undamaged drawing (exfmt-graph.ts,
// by columns) and the rebuild of a damaged one (exfmt-levels.ts, by left-to-right order), and the search for the
// tokens centred in a range of columns (lowerBound, inCentreRange, nearest).
import type { PlanOperator } from './model';
import { isDb2Number, parseDb2Number } from './symbols';
import { partitionPoint } from '../engine/sorted';

export interface Token {
  text: string;
  start: number;
  end: number;
  centre: number;
}

/** An operator number: `(   1)` as db2exfmt prints it, `( 1)` once spaces were collapsed. */
export const ID_TOKEN = /^\(\s*(\d{1,6})\)$/;
/** A connector to two or more inputs: `/---+---\`, `/--+--+--\`. */
export const CONNECTOR = /^\/[-+]*\\$/;
const TOKENS = /\(\s{0,8}\d{1,6}\)|\S+/g;
export const OBJECT_TYPE = /^([A-Z][A-Z0-9-]{1,15}):$/;
/** `CO-TABLE:TPCDS`: a wide type label printed without the blank before the schema. */
export const GLUED_OBJECT = /^([A-Z][A-Z0-9-]{1,15}):(\S{1,128})$/;
const NA = /^NA$/i;

export type Field = 'rows' | 'actualRows' | 'totalCost' | 'ioCost' | 'firstRowCost' | 'cpuCost' | 'other';

export function tokenize(line: string): Token[] {
  const out: Token[] = [];
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(line); m; m = TOKENS.exec(line)) {
    const start = m.index;
    const end = start + m[0].length;
    out.push({ text: m[0], start, end, centre: (start + end - 1) / 2 });
  }
  return out;
}

/** A number printed in a box (rows, cost, I/O), or `NA` (actual rows Db2 did not count). */
export const isValue = (t: Token) => isDb2Number(t.text) || NA.test(t.text);

export function setField(op: PlanOperator, field: Field, text: string): void {
  const n = parseDb2Number(text);
  if (n === undefined) return;
  if (field === 'rows') op.rows = n;
  else if (field === 'actualRows') op.actualRows = n;
  else if (field === 'totalCost') op.totalCost = n;
  else if (field === 'ioCost') op.ioCost = n;
  else if (field === 'firstRowCost') op.firstRowCost = n;
  else if (field === 'cpuCost') op.cpuCost = n;
}

export function objectKind(typeLabel: string): string {
  switch (typeLabel.toUpperCase()) {
    case 'TABLE':
    case 'CO-TABLE':
    case 'DP-TABLE':
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

/** Index of the first item whose centre is >= `value` (items sorted by centre). */
export function lowerBound(items: { centre: number }[], value: number): number {
  return partitionPoint(items, (item) => item.centre < value);
}

/** Items whose centre lies in [from, to]; binary search keeps wide plans (thousands of boxes per line) linear. */
export function inCentreRange<T extends { centre: number }>(items: T[] | undefined, from: number, to: number): T[] {
  if (!items || items.length === 0) return [];
  const out: T[] = [];
  for (let i = lowerBound(items, from); i < items.length && items[i].centre <= to; i++) out.push(items[i]);
  return out;
}

export function nearest<T extends { centre: number }>(items: T[] | undefined, centre: number, tolerance: number, accept: (t: T) => boolean = () => true): T | undefined {
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const t of inCentreRange(items, centre - tolerance, centre + tolerance)) {
    if (!accept(t)) continue;
    const d = Math.abs(t.centre - centre);
    if (d < bestDistance) {
      best = t;
      bestDistance = d;
    }
  }
  return best;
}
