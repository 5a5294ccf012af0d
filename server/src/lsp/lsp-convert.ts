// Engine values → LSP values: offsets to positions, findings to diagnostics.
import { DiagnosticSeverity, ResponseError, ErrorCodes, type Diagnostic as LspDiagnostic, type Range } from 'vscode-languageserver/node';
import { findRule, ruleDocUrl } from '../engine/registry';
import type { LineIndex } from '../engine/lines';
import type { Diagnostic, Severity } from '../engine/types';

const LSP_SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** URI and lines of a file a finding's related information points into. */
export type RelatedLocator = (file: string) => { uri: string; lines: LineIndex } | undefined;

/** How findings read in this editor: `firstSentence` shortens messages; `docLink` is where a rule's id links to. */
export interface DiagnosticStyle {
  messageStyle?: 'full' | 'firstSentence';
  docLink?: (ruleId: string) => string;
}

export function toLspDiagnostic(d: Diagnostic, lines: LineIndex, locate?: RelatedLocator, style: DiagnosticStyle = {}): LspDiagnostic {
  const lsp: LspDiagnostic = {
    range: lspRange(lines, d.span),
    severity: LSP_SEVERITY[d.severity],
    code: d.rule,
    source: 'insertlint',
    message: style.messageStyle === 'firstSentence' ? firstSentence(d.message) : d.message,
  };
  if (findRule(d.rule)) lsp.codeDescription = { href: (style.docLink ?? ruleDocUrl)(d.rule) };
  const related = (d.related ?? []).flatMap((r) => {
    const where = locate?.(r.file);
    return where ? [{ location: { uri: where.uri, range: lspRange(where.lines, r.span) }, message: r.message }] : [];
  });
  // A finding about a run of statements sits on its threshold-th statement; the run's last is one click away
  // (unless a related place already ends the extent: the load of a merged MoveAfterLoad finding).
  const self = d.extent ? locate?.(d.file) : undefined;
  if (d.extent && self && !d.related?.some((r) => r.file === d.file && r.span.end >= d.extent!.end)) {
    const last = lines.position(Math.max(d.extent.start, d.extent.end - 1)).line;
    const range = lspRange(lines, { start: Math.max(d.extent.start, lines.lineStart(last)), end: d.extent.end });
    if (last > lines.position(d.span.end).line) related.push({ location: { uri: self.uri, range }, message: 'last of the run' });
  }
  if (related?.length) lsp.relatedInformation = related;
  return lsp;
}

/**
 * The diagnostics of an edited document, converted once: a finding the next analysis gives again on the same
 * lines (every one but those of the piece typed in, issue 15) is the same LSP object as before, so that its
 * JSON is not made again (lsp-json.ts keeps it per object) and 3,452 findings are not new garbage per keystroke.
 * A finding with related places (a merged or a schema file's finding) is converted each time.
 */
export class LspDiagnosticCache {
  /**
   * By message (a kept finding's message is the same string, whose hash V8 keeps: no key of 300 characters
   * made per finding), then by the rest of the key: one entry, or a map once a message is given twice (a
   * list walked per finding was quadratic in findings of one message, which code files have by thousands).
   */
  private byMessage = new Map<string, CachedLsp>();
  private basis = '';

  convert(ds: readonly Diagnostic[], lines: LineIndex, locate: RelatedLocator | undefined, style: DiagnosticStyle = {}): LspDiagnostic[] {
    // What every key leaves out: how messages and rule links read, and the document's own URI.
    const self = ds.length > 0 ? locate?.(ds[0].file)?.uri : undefined;
    const basis = `${style.messageStyle}\u0000${style.docLink?.('') ?? ''}\u0000${self}`;
    const before = basis === this.basis ? this.byMessage : undefined;
    const next = new Map<string, CachedLsp>();
    const out = ds.map((d) => {
      if (d.related) return toLspDiagnostic(d, lines, locate, style);
      const key = lspKey(d, lines);
      const kept = before?.get(d.message);
      const lsp = (kept instanceof Map ? kept.get(key) : kept?.key === key ? kept.lsp : undefined) ?? toLspDiagnostic(d, lines, locate, style);
      const had = next.get(d.message);
      if (had === undefined) next.set(d.message, { key, lsp });
      else if (had instanceof Map) had.set(key, lsp);
      else next.set(d.message, new Map([[had.key, had.lsp], [key, lsp]]));
      return lsp;
    });
    this.byMessage = next;
    this.basis = basis;
    return out;
  }
}

/** The converted findings of one message: one, or by key. */
type CachedLsp = { key: string; lsp: LspDiagnostic } | Map<string, LspDiagnostic>;

/** What toLspDiagnostic makes of a finding without related places besides its message, given the style and the file's URI. */
function lspKey(d: Diagnostic, lines: LineIndex): string {
  const start = lines.line(d.span.start);
  const end = lines.line(Math.max(d.span.start, d.span.end));
  let key = `${d.rule}\u0000${d.severity}\u0000${start}:${d.span.start - lines.lineStart(start)}-${end}:${Math.max(d.span.start, d.span.end) - lines.lineStart(end)}`;
  if (d.extent) {
    // The range of "last of the run" (toLspDiagnostic).
    const last = lines.line(Math.max(d.extent.start, d.extent.end - 1));
    const to = lines.line(d.extent.end);
    key += `\u0000${last}:${Math.max(d.extent.start, lines.lineStart(last)) - lines.lineStart(last)}-${to}:${d.extent.end - lines.lineStart(to)}`;
  }
  return key;
}

export function lspRange(lines: LineIndex, span: { start: number; end: number }): Range {
  const s = lines.position(span.start);
  const e = lines.position(Math.max(span.start, span.end));
  return { start: { line: s.line, character: s.column }, end: { line: e.line, character: e.column } };
}

/** The offset of an LSP position; a malformed position is the client's error, not ours. */
export function offsetOf(lines: LineIndex, position: { line: number; character: number }): number {
  if (!position || typeof position.line !== 'number' || typeof position.character !== 'number') {
    throw new ResponseError(ErrorCodes.InvalidParams, 'position must have a numeric line and character');
  }
  return lines.offset(position.line, position.character);
}

/**
 * The message up to its first full stop followed by a capital or the end ("SALES.ORDERS" and "e.g. x" do
 * not end a sentence); messages state the problem first, the evidence and the remedy after.
 */
export function firstSentence(message: string): string {
  const end = /[.!?](?=\s+[A-Z(]|\s*$)/.exec(message);
  return end ? message.slice(0, end.index + 1) : message;
}

/** A command: URI that runs `command` with `args` (VS Code opens these from diagnostic code links). */
export function commandUri(command: string, args: unknown[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}
