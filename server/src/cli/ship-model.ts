// A FileModel sent between threads. Structured cloning keeps object identity (the code model and the
// statement index share statements) but not functions or prototypes, so IDENTITY_ORIGIN (the SqlOrigin of a
// script's statements), the packed VALUES lists (a class over a shared Int32Array, sql/grammar/values.ts) and
// the source (its text is already on the receiving side) travel as markers and are put back on arrival. A model holding anything else that
// cloning would change (another origin, a class instance) is refused: the receiver reads that file itself.
import { IDENTITY_ORIGIN } from '../sql/ast';
import type { FileModel, SourceFile } from '../engine/types';
import type { Span } from '../sql/ast';
import { packedValues, packedValuesParts } from '../sql/grammar/values';

const MARK = '\u0000insertlint';
type Marker = { [MARK]: 'origin' | 'source' } | { [MARK]: 'values'; data: Int32Array; at: number; rowCount: number; span: Span };

/** The model with its origins and source replaced by markers, in place; undefined when it cannot travel. */
export function packModel(model: FileModel): FileModel | undefined {
  const source = model.source;
  // Set members are kept as they are (a marker would change the member), so they must be plain.
  const member = (value: unknown) =>
    typeof value !== 'function' && value !== IDENTITY_ORIGIN && value !== source && (typeof value !== 'object' || value === null || plain(value));
  return rewriteInPlace(model, (value) => packValue(value, source), member) ? model : undefined;
}

/** Puts the origins and the source back into a model packed by packModel, in place. */
export function unpackModel(model: FileModel, source: SourceFile): FileModel {
  rewriteInPlace(model, (value) => unpackValue(value, source), () => true);
  return model;
}

/**
 * Walks the object graph from `root` once (shared objects once), replacing Map values and object properties
 * by `replace(value)` in place and walking into the values it keeps; Set members are only checked by
 * `member`. False as soon as either finds a value that CANNOT travel.
 */
function rewriteInPlace(root: object, replace: (value: unknown) => unknown, member: (value: unknown) => boolean): boolean {
  const seen = new Set<object>();
  const stack: object[] = [root];
  const walkInto = (value: unknown) => {
    if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      stack.push(value);
    }
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node instanceof Set) {
      for (const value of node) {
        if (!member(value)) return false;
        walkInto(value);
      }
    } else if (node instanceof Map) {
      for (const [key, value] of node) {
        if (typeof key === 'object' && key !== null) return false;
        const replaced = replace(value);
        if (replaced === CANNOT) return false;
        if (replaced !== value) node.set(key, replaced);
        else walkInto(value);
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key in record) {
        const value = record[key];
        const replaced = replace(value);
        if (replaced === CANNOT) return false;
        if (replaced !== value) record[key] = replaced;
        else walkInto(value);
      }
    }
  }
  return true;
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
  const values = packedValuesParts(value);
  return values ? ({ [MARK]: 'values', ...values } satisfies Marker) : CANNOT;
}

/** Objects structured cloning copies faithfully: plain objects, arrays, Maps and Sets (no other prototypes). */
function plain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype || proto === Map.prototype || proto === Set.prototype || proto === null;
}

function unpackValue(value: unknown, source: SourceFile): unknown {
  if (typeof value !== 'object' || value === null || !(MARK in value)) return value;
  const marker = value as Marker;
  if (marker[MARK] === 'values') return packedValues(marker);
  return marker[MARK] === 'origin' ? IDENTITY_ORIGIN : source;
}
