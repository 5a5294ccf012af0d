// A FileModel sent between threads. Structured cloning keeps object identity (the code model and the
// statement index share statements) but not functions or prototypes, so the few function-holding objects
// a script's model has (IDENTITY_ORIGIN, the SqlOrigin of statements) and the source (its text is already on
// the receiving side) travel as markers and are put back on arrival. A model holding anything else that
// cloning would change (another origin, a class instance) is refused: the receiver reads that file itself.
import { IDENTITY_ORIGIN } from '../sql/ast';
import type { FileModel, SourceFile } from '../engine/types';

const MARK = '\u0000insertlint';
type Marker = { [MARK]: 'origin' | 'source' };

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
        if (packed === false) return undefined;
        if (packed !== value) node.set(key, packed);
        else if (typeof value === 'object' && value !== null && !seen.has(value)) (seen.add(value), stack.push(value));
      }
      continue;
    }
    if (node instanceof Set) {
      for (const value of node) {
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
      if (packed === false) return undefined;
      if (packed !== value) record[key] = packed;
      else if (typeof value === 'object' && value !== null && !seen.has(value)) (seen.add(value), stack.push(value));
    }
  }
  return model;
}

/** The marker for a value, the value itself when it travels as is, or false when it cannot travel. */
function packValue(value: unknown, source: SourceFile): unknown {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return false;
  if (typeof value !== 'object' || value === null) return value;
  if (value === IDENTITY_ORIGIN) return { [MARK]: 'origin' } satisfies Marker;
  if (value === source) return { [MARK]: 'source' } satisfies Marker;
  return plain(value) ? value : false;
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
  return (value as Marker)[MARK] === 'origin' ? IDENTITY_ORIGIN : source;
}
