// Code actions on findings: the rule's own fix, "Disable … for this line / file", the rule's documentation.
import { CodeActionKind, ResponseError, ErrorCodes, type CodeAction, type Range } from 'vscode-languageserver/node';
import { findRule } from '../engine/registry';
import { disableForFileEdit, disableForLineEdit } from './suppress-edits';
import { lspRange, toLspDiagnostic } from './lsp-convert';
import { CLIENT_COMMANDS, SERVER_COMMANDS } from './protocol';
import type { ServerState } from './server-state';
import type { Diagnostics } from './diagnostics';

export function codeActions(state: ServerState, diagnostics: Diagnostics, uri: string, range: Range): CodeAction[] {
  const cur = diagnostics.current(uri);
  if (!cur) return [];
  if (!range?.start || !range?.end) throw new ResponseError(ErrorCodes.InvalidParams, 'range is required');
  const from = range.start.line;
  const to = range.end.line;
  const actions: CodeAction[] = [];
  const offered = new Set<string>();
  const edit = (edits: { span: { start: number; end: number }; newText: string }[]) => ({
    changes: { [uri]: edits.map((e) => ({ range: lspRange(cur.lines, e.span), newText: e.newText })) },
  });
  for (const d of state.workspace.diagnostics(cur.path)) {
    if (d.suppressed) continue;
    const lsp = toLspDiagnostic(d, cur.lines, state.locate);
    if (lsp.range.end.line < from || lsp.range.start.line > to) continue;
    if (d.fix) {
      actions.push({ title: d.fix.title, kind: CodeActionKind.QuickFix, diagnostics: [lsp], isPreferred: true, edit: edit(d.fix.edits) });
    }
    if (offered.has(d.rule)) continue;
    offered.add(d.rule);
    const line = lsp.range.start.line;
    actions.push({
      title: `Disable ${d.rule} for this line`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [lsp],
      edit: edit([disableForLineEdit(cur.model, cur.lines, d.rule, line)]),
    });
    actions.push({
      title: `Disable ${d.rule} for this file`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [lsp],
      edit: edit([disableForFileEdit(cur.model, cur.lines, d.rule)]),
    });
    if (findRule(d.rule)) {
      const command = state.clientCommands.has(CLIENT_COMMANDS.showRuleDocumentation) ? CLIENT_COMMANDS.showRuleDocumentation : SERVER_COMMANDS.openRuleDocumentation;
      actions.push({
        title: `Show documentation for ${d.rule}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [lsp],
        command: { title: `Show documentation for ${d.rule}`, command, arguments: [d.rule] },
      });
    }
  }
  return actions;
}
