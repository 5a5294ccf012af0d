// What a rule's Report becomes: the Diagnostic the outputs show (its message filled in, its spans and quick fix in
// file offsets, "lines 2-20" for a run), and what the workspace does to a file's findings as a whole: their order
// (compareRuleIds, inFileOrder) and the note on findings in test code.
import { fileSpanOf, IDENTITY_ORIGIN, type Span, type Statement } from '../sql/ast';
import type { LineIndex } from './lines';
import { countText } from './count-text';
import { SEVERITY_RANK, type Diagnostic, type Fix, type Report, type ReportFix } from './types';

export function toDiagnostic(file: string, rule: string, severity: Diagnostic['severity'], messages: Record<string, string>, report: Report, linesOf: () => LineIndex, withFix: boolean): Diagnostic {
  const template = messages[report.messageId];
  if (template === undefined) throw new Error(`rule ${rule} reported unknown messageId '${report.messageId}'`);
  const capped = report.maxSeverity && SEVERITY_RANK[report.maxSeverity] < SEVERITY_RANK[severity] ? report.maxSeverity : severity;
  const span = mapSpan(report.stmt, report.span);
  let data = report.data;
  let extent: Span | undefined;
  if (report.extent) {
    const first = mapSpan(report.extent.first.stmt, report.extent.first.span);
    const last = mapSpan(report.extent.last.stmt, report.extent.last.span);
    extent = { start: Math.min(first.start, span.start), end: Math.max(last.end, span.end) };
    data = { ...data, runLines: linesText(linesOf(), extent) };
  }
  const diagnostic: Diagnostic = { file, span, rule, severity: capped, message: formatMessage(template, data) };
  const fix = withFix ? reportedFix(report) : undefined;
  const mapped = fix && mappedFix(fix, report.stmt);
  if (mapped) diagnostic.fix = mapped;
  if (extent) diagnostic.extent = extent;
  if (report.moveAfterLoad) {
    const { partMessageId, loadAt, ...rest } = report.moveAfterLoad;
    const part = messages[partMessageId];
    if (part === undefined) throw new Error(`rule ${rule} reported unknown messageId '${partMessageId}'`);
    diagnostic.moveAfterLoad = { ...rest, part: formatMessage(part, data), loadSpan: mapSpan(loadAt.stmt, loadAt.span) };
  }
  if (report.partOf) diagnostic.partOf = mapSpan(report.partOf.stmt, report.partOf.span);
  return diagnostic;
}

/** A reported span in file offsets, well formed (fileSpanOf). */
function mapSpan(stmt: Statement | undefined, span: { start: number; end: number }) {
  if (!stmt) return span;
  return fileSpanOf(stmt.origin, span);
}

/** Message templates split once at their `{name}` placeholders: literal text at even indexes, names at odd. */
const templateParts = new Map<string, string[]>();

export function formatMessage(template: string, data: Record<string, string | number> = {}): string {
  // Templates are the rules' fixed messages, so the cache stays small; the bound is only a safeguard.
  let parts = templateParts.get(template);
  if (!parts) {
    if (templateParts.size >= 1000) templateParts.clear();
    parts = template.split(/\{(\w+)\}/);
    templateParts.set(template, parts);
  }
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) out += (parts[i] in data ? String(data[parts[i]]) : `{${parts[i]}}`) + parts[i + 1];
  return out;
}

/** The quick fix of a report, worked out when the rule gave a function for it. */
export function reportedFix(report: Report): ReportFix | undefined {
  return typeof report.fix === 'function' ? report.fix() : report.fix;
}

/** "lines 2–20,001" (1-based, as editors number them), or "line 7" for a span on one line. */
function linesText(lines: LineIndex, span: Span): string {
  const first = lines.line(span.start) + 1;
  const last = lines.line(Math.max(span.start, span.end - 1)) + 1;
  return first === last ? `line ${countText(first)}` : `lines ${countText(first)}\u2013${countText(last)}`;
}

/**
 * A fix in file offsets (a rule's edits are in the offsets of the statement's text); undefined when an edit's ends
 * map out of order (SQL text pieced together from strings in several places of host code: no edit of the file
 * replaces such a span).
 */
function mappedFix(fix: ReportFix, stmt: Statement | undefined): Fix | undefined {
  // A script's statements are in the file's offsets: their edits are kept as the rule made them (a fix of a run
  // of single-row INSERTs holds an edit per INSERT, and the copies lived as long as the findings).
  const inFileOffsets = !stmt || stmt.origin === IDENTITY_ORIGIN;
  // The edits' own characters, not fileSpanOf's well-formed span: a fix must change what its edit names.
  const edits = inFileOffsets ? fix.edits : fix.edits.map((e) => ({ span: { start: stmt.origin.toFile(e.span.start), end: stmt.origin.toFile(e.span.end) }, newText: e.newText }));
  if (edits.some((e) => e.span.end < e.span.start)) return undefined;
  const mapped: Fix = { title: fix.title, edits };
  if (fix.changesMeaning) mapped.changesMeaning = true;
  return mapped;
}

/**
 * The order of two rule ids (findings at one offset). Rule ids are lower-case words and digits joined by '-',
 * for which code-unit order is the order `localeCompare` gives (test/engine/without-icu.test.ts checks every
 * pair of rule ids); localeCompare loads ICU's collator on first use, ~8 ms of a CLI run.
 */
export function compareRuleIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether findings are in the order of their start offsets. */
export function inFileOrder(diagnostics: readonly Diagnostic[]): boolean {
  for (let i = 1; i < diagnostics.length; i++) if (diagnostics[i].span.start < diagnostics[i - 1].span.start) return false;
  return true;
}

/** Says why a finding in test code is at most information ("testFiles"). */
export const TEST_CODE_NOTE = ' This file is test code ("testFiles" in the configuration): information only.';

/**
 * A finding located in test code, capped at information. A copy: findings kept per piece (segments.ts) are
 * reused by the next analysis and must not gather a second note.
 */
export function asTestCodeFinding(d: Diagnostic): Diagnostic {
  if (SEVERITY_RANK[d.severity] <= SEVERITY_RANK.information) return d;
  return { ...d, severity: 'information', message: d.message + TEST_CODE_NOTE };
}
