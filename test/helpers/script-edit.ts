// A random edit of a script (property tests of incremental analysis), applied as an editor would: where it
// lands in the text, what it removed, and the change the language server would tell the engine.
import fc from 'fast-check';
import type { TextChange } from '../../server/src/sql/incremental';

export interface ScriptEdit {
  /** Any natural number: taken modulo the text's length + 1. */
  at: number;
  remove: number;
  insert: string;
}

export function applyEdit(text: string, e: ScriptEdit): { text: string; removed: string; change: TextChange } {
  const at = e.at % (text.length + 1);
  const end = Math.min(text.length, at + e.remove);
  return { text: text.slice(0, at) + e.insert + text.slice(end), removed: text.slice(at, end), change: { start: at, oldEnd: end, newEnd: at + e.insert.length } };
}

/**
 * 1 to `maxEdits` random edits: each removes up to `maxRemove` characters and inserts one of `inserts` (or
 * nothing); `told` says whether the engine is told where (as the language server does) or compares texts.
 */
export function scriptEdits(inserts: readonly string[], maxRemove: number, maxEdits: number): fc.Arbitrary<(ScriptEdit & { told: boolean })[]> {
  return fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: maxRemove }), insert: fc.constantFrom(...inserts, ''), told: fc.boolean() }), { minLength: 1, maxLength: maxEdits });
}
