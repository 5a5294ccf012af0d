// A FileModel sent between threads. Structured cloning keeps object identity (the code model and the
// statement index share statements) but not functions or prototypes, so IDENTITY_ORIGIN (the SqlOrigin of a
// script's statements), the packed VALUES rows (a class over a shared Int32Array, sql/grammar/values.ts) and
// the source (its text is already on the receiving side) travel as markers and are put back on arrival. A model holding anything else that
// cloning would change (another origin, a class instance) is refused: the receiver reads that file itself.
import { IDENTITY_ORIGIN } from '../sql/ast';
import type { FileModel, SourceFile } from '../engine/types';
import { packedRow, packedRowParts } from '../sql/grammar/values';

const MARK = '\u0000insertlint';
type Marker = { [MARK]: 'origin' | 'source' } | { [MARK]: 'row'; data: Int32Array; at: number };

/** The model with its origins and source replaced by markers, in place; undefined when it cannot travel. */
export function packModel(model: FileModel): FileModel | undefined {
  const source = model.source;
  const seen = new Set<object>();
  const stack: object[] = [model];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node instanceof Map) {
      for (const [key, value] of node) {
        if (typeof key === 'object' && key !== null) return undefined;
        const packed = packValue(value, source);
        if (packed === CANNOT) return undefined;
        if (packed !== value) node.set(key, packed);
        else if (typeof value === 'object' && value !== null && !seen.has(value)) (seen.add(value), stack.push(value));
      }
      continue;
    }
    if (node instanceof Set) {
      for (const value of node) {
        // Set members are kept as they are (a marker would change the member), so they must be plain.
        if (typeof value === 'function' || value === IDENTITY_ORIGIN || value === source) return undefined;
        if (typeof value === 'object' && value !== null && !seen.has(value)) {
          if (!plain(value)) return undefined;
          seen.add(value);
          stack.push(value);
        }
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      const packed = packValue(value, source);
      if (packed === CANNOT) return undefined;
      if (packed !== value) record[key] = packed;
      else if (typeof value === 'object' && value !== null && !seen.has(value)) (seen.add(value), stack.push(value));
    }
  }
  return model;
}

/** What packValue returns for a value that cannot travel. */
const CANNOT = Symbol('cannot travel');

/** The marker for a value, the value itself when it travels as is, or CANNOT. */
function packValue(value: unknown, source: SourceFile): unknown {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return CANNOT;
  if (typeof value !== 'object' || value === null) return value;
  if (value === IDENTITY_ORIGIN) return { [MARK]: 'origin' } satisfies Marker;
  if (value === source) return { [MARK]: 'source' } satisfies Marker;
  if (plain(value)) return value;
  const row = packedRowParts(value);
  return row ? ({ [MARK]: 'row', ...row } satisfies Marker) : CANNOT;
}

/** Objects structured cloning copies faithfully: plain objects, arrays, Maps and Sets (no other prototypes). */
function plain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype || proto === Map.prototype || proto === Set.prototype || proto === null;
}

/** Puts the origins and the source back into a model packed by packModel, in place. */
export function unpackModel(model: FileModel, source: SourceFile): FileModel {
  const seen = new Set<object>();
  const stack: object[] = [model];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node instanceof Map) {
      for (const [key, value] of node) {
        const unpacked = unpackValue(value, source);
        if (unpacked !== value) node.set(key, unpacked);
        else if (typeof value === 'object' && value !== null && !seen.has(value)) (seen.add(value), stack.push(value));
      }
      continue;
    }
    if (node instanceof Set) {
      for (const value of node) if (typeof value === 'object' && value !== null && !seen.has(value)) (seen.add(value), stack.push(value));
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      const unpacked = unpackValue(value, source);
      if (unpacked !== value) record[key] = unpacked;
      else if (typeof value === 'object' && value !== null && !seen.has(value)) (seen.add(value), stack.push(value));
    }
  }
  return model;
}

function unpackValue(value: unknown, source: SourceFile): unknown {
  if (typeof value !== 'object' || value === null || !(MARK in value)) return value;
  const marker = value as Marker;
  if (marker[MARK] === 'row') return packedRow(marker.data, marker.at);
  return marker[MARK] === 'origin' ? IDENTITY_ORIGIN : source;
}
