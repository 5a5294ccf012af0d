// The Markdown rendering of an ExplainReport, for pull requests: the verdict, a hidden-work table, notes
// and the plan tree in a collapsed block. Plan object names are user data (a quoted Db2 name may hold any
// character): every text outside code blocks is escaped, and code fences are longer than any run of
// backticks inside them.
import { formatCost, hiddenKindLabel } from './describe';
import { displayKey } from '../schema/schema';
import { statementTextOf, type ExplainReport } from './report';
import { kindLabel, mainTag, pieceShare, treeLines, withOneNewline } from './render-common';
import { originLine, reportOrigin, statementOrigin } from './render-origin';

/** Text for a Markdown paragraph or table cell: no markup, no HTML, one line. */
export function mdText(s: string): string {
  return s
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_{}[\]|~]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A fenced code block whose fence no line of `body` can close. */
export function codeBlock(body: string, info = ''): string[] {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence + info, body, fence];
}

export function renderMarkdown(report: ExplainReport): string {
  const out: string[] = [];
  for (const e of report.errors) out.push(`> **Error:** ${mdText(e.message)}`, '');
  const origin = reportOrigin(report);
  if (origin) out.push(mdText(originLine(origin)), '');
  report.statements.forEach((es, index) => {
    const s = es.statement;
    out.push(`### Explain${report.statements.length > 1 ? ` — statement ${s.statementNumber ?? index + 1}` : ''}`, '');
    const own = statementOrigin(report, index);
    if (own) out.push(mdText(originLine(own)), '');
    const text = statementTextOf(s);
    if (text) out.push(...codeBlock(text, 'sql'), '');
    for (const e of s.errors) out.push(`> **Error:** ${mdText(e.message)}`, '');
    for (const w of s.warnings) out.push(`> **Warning:** ${mdText(w.message)}`, '');
    if (!s.plan) return;
    out.push(`**Verdict:** ${mdText(es.report.verdict)}`, '');
    if (es.report.pieces.length > 0) {
      out.push('| Hidden work | Operators | Own cost (timerons) | Share |', '|---|---|---:|---:|');
      for (const [i, p] of es.report.pieces.entries()) {
        out.push(`| ${mdText(hiddenKindLabel(p.kind))}${p.name ? ` (${mdText(p.name)})` : ''} | ${p.operators.join(', ')} | ${formatCost(p.cost)} | ${pieceShare(es, i)} |`);
      }
      out.push('');
    }
    for (const n of es.report.notes) out.push(`- ${mdText(n)}`);
    if (es.report.notes.length) out.push('');
    const tree: string[] = [];
    for (const line of treeLines(s.plan)) {
      if (line.object) tree.push(`${line.depth}${kindLabel(line.object.kind)} ${displayKey(line.object.key)}${line.object.written ? ' (written)' : ''}`);
      else {
        const op = line.op!;
        if (line.repeat) {
          tree.push(`${line.depth}${op.label} (${op.id})  (shared: its inputs are listed above)`);
          continue;
        }
        const own = mainTag(es, op);
        const tag = own ? `  <- ${own}` : op.hidden ? `  <- ${hiddenKindLabel(op.hidden)}` : '';
        tree.push(`${line.depth}${op.label} (${op.id})  cost ${formatCost(op.totalCost)}  io ${formatCost(op.ioCost)}${tag}`);
      }
    }
    out.push('<details><summary>Access plan</summary>', '', ...codeBlock(tree.join('\n'), 'text'), '', '</details>', '');
  });
  return withOneNewline(out.join('\n'));
}
