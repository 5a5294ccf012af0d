// Hover: the cost table of the table (or sequence) under the cursor, with where it is defined.
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { relative, sep } from 'node:path';
import { nameAt, fileSpan } from './model-queries';
import { sequenceHoverMarkdown, tableHoverMarkdown } from './insert-cost';
import { lspRange, offsetOf } from './lsp-convert';
import type { ServerState } from './server-state';
import type { Diagnostics } from './diagnostics';

export function hover(state: ServerState, diagnostics: Diagnostics, uri: string, position: { line: number; character: number }): Hover | null {
  if (!state.settings.enable) return null;
  const cur = diagnostics.current(uri);
  if (!cur) return null;
  const offset = offsetOf(cur.lines, position);
  const schema = state.workspace.schema;
  const ref = nameAt(cur.model, offset);
  const where = (file: string, at: number) => {
    const l = state.workspace.lines(file);
    const line = l ? l.position(at).line + 1 : 0;
    const shown = state.folders.length ? relative(state.folders[0], file).split(sep).join('/') : file;
    return `[${shown.startsWith('..') ? file : shown}:${line}](${state.uriOf(file)}#L${line})`;
  };
  if (ref?.role === 'sequence') {
    const seq = schema.sequence(ref.name, ref.stmt);
    if (!seq) return null;
    return {
      contents: { kind: MarkupKind.Markdown, value: sequenceHoverMarkdown(seq, where) },
      range: lspRange(cur.lines, fileSpan(ref.stmt, ref.name.span)),
    };
  }
  let table = ref ? schema.table(ref.name, ref.stmt) : undefined;
  let span = ref ? fileSpan(ref.stmt, ref.name.span) : undefined;
  if (!table) {
    // Statements the parser could not read still name tables: fall back to the word under the cursor.
    const word = wordAt(cur.model.source.text, offset);
    if (!word) return null;
    const candidate = schema.tableByKey(`.${word.text.toUpperCase()}`);
    if (!candidate?.definition) return null;
    table = candidate;
    span = word.span;
  }
  return {
    contents: { kind: MarkupKind.Markdown, value: tableHoverMarkdown(table, schema, where) },
    range: span ? lspRange(cur.lines, span) : undefined,
  };
}

function wordAt(text: string, offset: number): { text: string; span: { start: number; end: number } } | undefined {
  const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$#@]/.test(c);
  let start = offset;
  let end = offset;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (end < text.length && isWord(text[end])) end++;
  if (end <= start || start < offset - 128) return undefined;
  return { text: text.slice(start, end), span: { start, end } };
}
