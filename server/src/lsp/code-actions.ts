// Code actions on findings: the rule's own fix, "Disable … for this line / file / in this workspace", the
// rule's documentation, and "Fix all" (source.fixAll.insertlint) with every fix that keeps the SQL's meaning.
import { CodeActionKind, ResponseError, ErrorCodes, type CodeAction, type CodeActionContext, type Range } from 'vscode-languageserver/node';
import { findRule } from '../engine/registry';
import { andList } from '../engine/merge';
import type { Diagnostic, TextEdit } from '../engine/types';
import { severityShown } from './settings';
import { disableForFileEdit, disableForLineEdit } from './suppress-edits';
import { lspRange, toLspDiagnostic } from './lsp-convert';
import { CLIENT_COMMANDS, FIX_ALL_KIND, SERVER_COMMANDS } from './protocol';
import type { ServerState } from './server-state';
import type { Diagnostics } from './diagnostics';

export function codeActions(state: ServerState, diagnostics: Diagnostics, uri: string, range: Range, context?: CodeActionContext): CodeAction[] {
  if (!range?.start || !range?.end) throw new ResponseError(ErrorCodes.InvalidParams, 'range is required');
  if (!state.settings.enable) return [];
  const cur = diagnostics.current(uri);
  // With insertlint.run onSave, unsaved edits are not analysed: edits computed on older text would land wrong.
  if (!cur || !diagnostics.isCurrent(uri) || !state.shows(cur.path)) return [];
  const only = context?.only;
  const wants = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
  const minimum = state.settings.minimumSeverity;
  const shown = state.workspace.diagnostics(cur.path).filter((d) => !d.suppressed && severityShown(d.severity, minimum));
  const toTextEdits = (edits: TextEdit[]) => ({
    changes: { [uri]: edits.map((e) => ({ range: lspRange(cur.lines, e.span), newText: e.newText })) },
  });
  const actions: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) {
    const style = state.diagnosticStyle();
    const offered = new Set<string>();
    const silenced = new Set<string>();
    const here = shown.flatMap((d) => {
      const lsp = toLspDiagnostic(d, cur.lines, state.locate, style);
      return lsp.range.end.line < range.start.line || lsp.range.start.line > range.end.line ? [] : [{ d, lsp }];
    });
    // The fixes first, then per rule the ways to silence it and its documentation (as ESLint lists them).
    for (const { d, lsp } of here) {
      // A fix that changes meaning is offered, not preferred: the user judges it (see Fix.changesMeaning).
      if (d.fix) actions.push({ title: d.fix.title, kind: CodeActionKind.QuickFix, diagnostics: [lsp], isPreferred: !d.fix.changesMeaning, edit: toTextEdits(d.fix.edits) });
    }
    for (const { d, lsp } of here) {
      // A merged finding is silenced whole: one directive names every rule shown in it.
      const rules = [d.rule, ...(d.mergedRules ?? [])];
      const named = andList(rules);
      if (silenced.has(named)) continue;
      silenced.add(named);
      const line = lsp.range.start.line;
      const quick = (title: string, rest: Partial<CodeAction>): CodeAction => ({ title, kind: CodeActionKind.QuickFix, diagnostics: [lsp], ...rest });
      // A directive for this line silences the rules whose findings start on it: a merged part on another line
      // (a foreign key to move after the same load as this index) would make it an unused suppression there.
      const onLine = d.mergedElsewhere ? rules.filter((r) => !d.mergedElsewhere!.includes(r)) : rules;
      actions.push(quick(`Disable ${andList(onLine)} for this line`, { edit: toTextEdits([disableForLineEdit(cur.model, cur.lines, onLine, line)]) }));
      // Parts on several lines (tables given the same advice, a key beside an index): "for this line" leaves the
      // others, shown again as a finding of their own, so the finding is also offered silenced on all its lines.
      const partLines = d.mergedParts ? rulesByLine(d.mergedParts, (offset) => cur.lines.line(offset)) : [];
      if (partLines.length > 1) {
        const edits = partLines.map(([at, ids]) => disableForLineEdit(cur.model, cur.lines, ids, at));
        actions.push(quick(`Disable ${named} on every line of this finding (${linesText(partLines.map(([at]) => at + 1))})`, { edit: toTextEdits(edits) }));
      }
      actions.push(quick(`Disable ${named} for this file`, { edit: toTextEdits([disableForFileEdit(cur.model, cur.lines, rules)]) }));
      // Turning rules off for the whole workspace is one rule at a time, each rule of a merged finding offered
      // apart: the user chooses which advice to give up, and the finding stays while another rule still holds.
      for (const rule of rules) {
        if (offered.has(rule) || !findRule(rule)) continue;
        offered.add(rule);
        if (state.folders.length > 0) {
          const title = `Disable ${rule} in this workspace`;
          actions.push(quick(title, { command: { title, command: SERVER_COMMANDS.disableRuleInWorkspace, arguments: [rule] } }));
        }
        const command = state.clientCommands.has(CLIENT_COMMANDS.showRuleDocumentation) ? CLIENT_COMMANDS.showRuleDocumentation : SERVER_COMMANDS.openRuleDocumentation;
        actions.push(quick(`Show documentation for ${rule}`, { command: { title: `Show documentation for ${rule}`, command, arguments: [rule] } }));
      }
    }
  }
  if (wants(FIX_ALL_KIND)) {
    const edits = fixAllEdits(shown);
    if (edits.length > 0) actions.push({ title: 'Fix all InsertLint findings that have a safe fix', kind: FIX_ALL_KIND, edit: toTextEdits(edits) });
  }
  return actions;
}

/** The edits of every fix that keeps the SQL's meaning, in file order; a fix overlapping an earlier one waits for the next run. */
export function fixAllEdits(findings: readonly Diagnostic[]): TextEdit[] {
  const fixes = findings.flatMap((d) => (d.fix && !d.fix.changesMeaning ? [d.fix] : []));
  fixes.sort((a, b) => Math.min(...a.edits.map((e) => e.span.start)) - Math.min(...b.edits.map((e) => e.span.start)));
  const taken: TextEdit[] = [];
  const overlaps = (e: TextEdit) => taken.some((t) => e.span.start < t.span.end && t.span.start < e.span.end || (e.span.start === e.span.end && e.span.start === t.span.start));
  for (const fix of fixes) {
    if (fix.edits.some(overlaps)) continue;
    taken.push(...fix.edits);
  }
  return taken;
}

/** The lines (0-based, ascending) the parts of a merged finding start on, each with the rules shown there. */
function rulesByLine(parts: NonNullable<Diagnostic['mergedParts']>, lineOf: (offset: number) => number): [number, string[]][] {
  const byLine = new Map<number, Set<string>>();
  for (const part of parts) {
    const at = lineOf(part.start);
    let rules = byLine.get(at);
    if (!rules) byLine.set(at, (rules = new Set()));
    for (const rule of part.rules) rules.add(rule);
  }
  return [...byLine].sort((a, b) => a[0] - b[0]).map(([at, rules]) => [at, [...rules]]);
}

/** "lines 5 and 10", "lines 5, 10 and 15"; past six, "9 lines". */
function linesText(lines: readonly number[]): string {
  return lines.length > 6 ? `${lines.length} lines` : `lines ${andList(lines.map(String))}`;
}
