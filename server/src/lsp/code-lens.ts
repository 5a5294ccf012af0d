// Code lens: "Explain this INSERT" above each INSERT (the client command asks for a plan).
import type { CodeLens } from 'vscode-languageserver/node';
import { insertStatements, fileSpan } from './model-queries';
import { lspRange } from './lsp-convert';
import { CLIENT_COMMANDS } from './protocol';
import type { Diagnostics } from './diagnostics';
import type { ServerState } from './server-state';

export function codeLenses(state: ServerState, diagnostics: Diagnostics, uri: string): CodeLens[] {
  if (!state.settings.enable || !state.settings.codeLens) return [];
  const cur = diagnostics.current(uri);
  if (!cur || !state.shows(cur.path)) return [];
  const lenses: CodeLens[] = [];
  for (const stmt of insertStatements(cur.model)) {
    const range = lspRange(cur.lines, fileSpan(stmt, stmt.span));
    lenses.push({
      range: { start: range.start, end: range.start },
      command: { title: 'Explain this INSERT', command: CLIENT_COMMANDS.explainInsert, arguments: [uri, range] },
    });
  }
  return lenses;
}
