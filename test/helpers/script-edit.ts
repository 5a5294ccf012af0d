// A random edit of a script (property tests of incremental analysis), applied as an editor would: where it
// lands in the text, what it removed, and the change the language server would tell the engine.
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
