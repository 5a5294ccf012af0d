// The terminal rendering of an ExplainReport: the plan as an indented tree with hidden work tagged (and
// coloured on a terminal), then the verdict and the notes.
import { formatCost, hiddenKindLabel } from './describe';
import { displayKey } from '../schema/schema';
import type { HiddenWorkKind } from './model';
import { statementTextOf, type ExplainReport } from './report';
import { kindLabel, mainTag, shareOf, treeLines, withOneNewline } from './render-common';
import { originLine, reportOrigin, SETTINGS_LABEL, statementOrigin, type OriginParts } from './render-origin';

/**
 * The origin on one line, or its two parts on lines of their own when that does not fit the width (the settings
 * then named as such: a line starting "dynamic SQL, ..." read as a sentence cut off).
 */
function originLines(parts: OriginParts, width: number, indent = ''): string {
  const line = originLine(parts);
  if (line.length + indent.length <= width) return indent + line;
  const settings = parts.settings === undefined || parts.settings.startsWith(SETTINGS_LABEL) ? parts.settings : SETTINGS_LABEL + parts.settings;
  return [parts.origin, settings].filter((p): p is string => p !== undefined).map((p) => wrap(p, width, indent)).join('\n');
}

const ANSI: Record<HiddenWorkKind | 'main' | 'dim' | 'bold', string> = {
  'foreign-key-check': '\u001b[33m',
  trigger: '\u001b[35m',
  'mqt-maintenance': '\u001b[36m',
  'trigger-or-mqt': '\u001b[95m',
  'ri-cascade': '\u001b[31m',
  'check-constraint': '\u001b[34m',
  main: '\u001b[1;32m',
  dim: '\u001b[2m',
  bold: '\u001b[1m',
};
const RESET = '\u001b[0m';

export interface TextOptions {
  color?: boolean;
  width?: number;
}

function wrap(text: string, width: number, indent = ''): string {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > width - indent.length) {
      lines.push(indent + line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

export function renderText(report: ExplainReport, options: TextOptions = {}): string {
  const color = options.color ?? false;
  const width = options.width ?? 100;
  const paint = (style: keyof typeof ANSI, s: string) => (color ? `${ANSI[style]}${s}${RESET}` : s);
  const out: string[] = [];
  for (const e of report.errors) out.push(`error: ${e.message}`);
  for (const w of report.warnings) out.push(`warning: ${w.message}`);
  const origin = reportOrigin(report);
  if (origin) out.push(paint('dim', originLines(origin, width)), '');
  report.statements.forEach((es, index) => {
    const s = es.statement;
    if (report.statements.length > 1 || s.statementNumber !== undefined) out.push(paint('bold', `Statement ${s.statementNumber ?? index + 1}${s.sectionNumber !== undefined ? ` (section ${s.sectionNumber})` : ''}`));
    const own = statementOrigin(report, index);
    if (own) out.push(paint('dim', originLines(own, width, '  ')));
    const text = statementTextOf(s);
    if (text) out.push(wrap(text.replace(/\s+/g, ' '), width, '  '));
    for (const e of s.errors) out.push(`error: ${e.message}`);
    for (const w of s.warnings) out.push(`warning: ${w.message}`);
    if (!s.plan) {
      out.push('');
      return;
    }
    if (out.length > 0) out.push('');
    for (const line of treeLines(s.plan)) {
      if (line.object) {
        const o = line.object;
        out.push(paint('dim', `${line.depth}${kindLabel(o.kind)} ${displayKey(o.key)}${o.written ? ' (written)' : ''}${o.rows !== undefined ? `  rows ${formatCost(o.rows)}` : ''}`));
        continue;
      }
      const op = line.op!;
      const numbers = [
        op.rows !== undefined ? `rows ${formatCost(op.rows)}` : '',
        op.totalCost !== undefined ? `cost ${formatCost(op.totalCost)}` : '',
        op.ownCost !== undefined && op.children.length > 0 ? `own ${formatCost(op.ownCost)}` : '',
        op.ioCost !== undefined ? `io ${formatCost(op.ioCost)}` : '',
      ]
        .filter(Boolean)
        .join('  ');
      const name = `${op.label} (${op.id})`;
      if (line.repeat) {
        out.push(`${line.depth}${name}  ${paint('dim', '(shared: its inputs are listed above)')}`);
        continue;
      }
      let tag = '';
      let styled = name;
      const own = mainTag(es, op);
      if (own) {
        styled = paint('main', name);
        tag = paint('main', `  ◀ ${own}`);
      } else if (op.hidden) {
        tag = paint(op.hidden, `  ◀ ${hiddenKindLabel(op.hidden)} ${shareOf(es, op) ?? ''}`.trimEnd());
        styled = paint(op.hidden, name);
      }
      out.push(`${line.depth}${styled}  ${paint('dim', numbers)}${tag}`);
    }
    out.push('');
    out.push(wrap(es.report.verdict, width));
    for (const note of es.report.notes) out.push(wrap(`Note: ${note}`, width));
    out.push('');
  });
  return withOneNewline(out.join('\n'));
}
