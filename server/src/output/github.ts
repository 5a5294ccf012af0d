// GitHub Actions workflow commands: one `::warning file=…,line=…::message` line per finding, which the
// runner turns into an annotation on the pull request's diff.
import type { Severity } from '../engine/types';
import { findRule, ruleDocUrl } from '../engine/registry';
import { positionText, type PositionedDiagnostic } from './text';

/** Message text: the runner decodes %25, %0D and %0A. */
export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values additionally cannot hold the `:` and `,` that delimit properties. */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function annotationLevel(severity: Severity): 'error' | 'warning' | 'notice' {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'notice';
}

export function formatAnnotation(d: PositionedDiagnostic, docsBaseUrl?: string): string {
  const props: [string, string | number][] = [
    ['file', d.displayPath],
    ['line', d.line],
  ];
  // Columns only mean something to the runner on a one-line range.
  if (d.endLine === d.line) {
    props.push(['col', d.column], ['endLine', d.endLine], ['endColumn', Math.max(d.endColumn, d.column)]);
  } else {
    props.push(['endLine', d.endLine]);
  }
  props.push(['title', `InsertLint ${d.rule}`]);
  const doc = findRule(d.rule) ? `\n\nRule documentation: ${ruleDocUrl(d.rule, docsBaseUrl)}` : '';
  const related = (d.relatedPositions ?? []).map((r) => `\n\n${r.message}: ${positionText(r)}`).join('');
  return `::${annotationLevel(d.severity)} ${props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',')}::${escapeData(d.message + related + doc)}`;
}

export function formatGithub(diagnostics: readonly PositionedDiagnostic[], docsBaseUrl?: string): string {
  return diagnostics.map((d) => formatAnnotation(d, docsBaseUrl) + '\n').join('');
}
