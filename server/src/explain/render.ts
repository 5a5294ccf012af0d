// Renderers for an ExplainReport: terminal text, JSON, Markdown (pull requests) and a self-contained HTML page
// that the VS Code webview reuses as is (inline SVG, inline CSS on CSS variables, optional CSP nonce).
import { formatCost, hiddenKindLabel, pct } from './classify';
import { displayKey } from '../schema/schema';
import type { HiddenWorkKind, PlanOperator, AccessPlan } from './model';
import { statementTextOf, type ExplainReport, type ExplainedStatement } from './report';

export type ExplainFormat = 'text' | 'json' | 'markdown' | 'html';
export const EXPLAIN_FORMATS: readonly ExplainFormat[] = ['text', 'json', 'markdown', 'html'];

// --- shared helpers -----------------------------------------------------------------------------------

/** TABLE, INDEX, TABLE-FUNCTION…; OBJECT when the source did not say (Plan Details without Objects Used). */
function kindLabel(kind: string): string {
  return kind === 'unknown' ? 'OBJECT' : kind.toUpperCase();
}

function share(x: number | undefined): string {
  return pct(x, '?');
}

function shareOf(es: ExplainedStatement, op: PlanOperator): string | undefined {
  const piece = es.report.pieces.find((p) => p.operators.includes(op.id));
  return piece ? share(piece.share) : undefined;
}

interface TreeLine {
  depth: string;
  op?: PlanOperator;
  object?: { key: string; kind: string; written: boolean; rows?: number };
}

/** Past this many levels the tree stops indenting (a 10,000-deep chain would otherwise print ~150 MB). */
const MAX_INDENT_LEVELS = 40;

/** The plan as indented lines (roots first, inputs in drawing order); iterative, with cycle protection. */
function treeLines(plan: AccessPlan): TreeLine[] {
  const byId = new Map(plan.operators.map((op) => [op.id, op]));
  const out: TreeLine[] = [];
  const seen = new Set<number>();
  type Frame = { id: number; prefix: string; connector: string; level: number } | { line: TreeLine };
  const run = (rootId: number) => {
    const stack: Frame[] = [{ id: rootId, prefix: '', connector: '', level: 0 }];
    while (stack.length) {
      const frame = stack.pop()!;
      if ('line' in frame) {
        out.push(frame.line);
        continue;
      }
      const op = byId.get(frame.id);
      if (!op) continue;
      const deep = frame.level > MAX_INDENT_LEVELS ? `[level ${frame.level}] ` : '';
      if (seen.has(op.id)) {
        out.push({ depth: frame.prefix + frame.connector + deep, op: { ...op, children: [], inputs: [] } });
        continue;
      }
      seen.add(op.id);
      out.push({ depth: frame.prefix + frame.connector + deep, op });
      const childPrefix =
        frame.level >= MAX_INDENT_LEVELS ? frame.prefix : frame.prefix + (frame.connector === '' ? '' : frame.connector.startsWith('└') ? '   ' : '│  ');
      const inputs = op.inputs.length > 0 ? op.inputs : op.children.map((c) => ({ kind: 'operator' as const, id: c }));
      const frames: Frame[] = inputs.map((input, i) => {
        const conn = i === inputs.length - 1 ? '└─ ' : '├─ ';
        if (input.kind === 'operator') return { id: input.id, prefix: childPrefix, connector: conn, level: frame.level + 1 };
        return {
          line: {
            depth: childPrefix + conn,
            object: { key: input.object.key, kind: input.object.kind, written: op.objectsWritten.includes(input.object.key), rows: input.object.rows },
          },
        };
      });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]);
    }
  };
  for (const r of plan.roots) run(r);
  for (const op of plan.operators) if (!seen.has(op.id)) run(op.id);
  return out;
}

function withOneNewline(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return text.slice(0, end) + '\n';
}

// --- text -----------------------------------------------------------------------------------------------

const ANSI: Record<HiddenWorkKind | 'main' | 'dim' | 'bold', string> = {
  'foreign-key-check': '\u001b[33m',
  trigger: '\u001b[35m',
  'mqt-maintenance': '\u001b[36m',
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
  report.statements.forEach((es, index) => {
    const s = es.statement;
    if (report.statements.length > 1 || s.statementNumber !== undefined) out.push(paint('bold', `Statement ${s.statementNumber ?? index + 1}${s.sectionNumber !== undefined ? ` (section ${s.sectionNumber})` : ''}`));
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
      let tag = '';
      let styled = name;
      if (op.id === es.report.mainOperator) {
        tag = '  ◀ the insert';
        styled = paint('main', name);
        tag = paint('main', tag);
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

// --- json -----------------------------------------------------------------------------------------------

export function toJson(report: ExplainReport): unknown {
  return {
    kind: report.kind,
    errors: report.errors,
    warnings: report.warnings,
    statements: report.statements.map((es) => {
      const s = es.statement;
      const plan = s.plan;
      return {
        text: statementTextOf(s),
        totalCost: plan?.totalCost ?? null,
        statementNumber: s.statementNumber ?? null,
        optimizedText: s.optimizedText ?? null,
        source: plan?.source ?? null,
        target: es.report.target ? displayKey(es.report.target) : null,
        insertOperator: es.report.mainOperator ?? null,
        operators: (plan?.operators ?? []).map((op) => ({
          id: op.id,
          type: op.type,
          totalCost: op.totalCost ?? null,
          ioCost: op.ioCost ?? null,
          rows: op.rows ?? null,
          children: op.children,
          objects: [...new Set([...op.objectsRead, ...op.objectsWritten])],
          hidden: op.hidden ?? null,
          label: op.label,
          flags: op.flags,
          ownCost: op.ownCost ?? null,
          cpuCost: op.cpuCost ?? null,
          objectsWritten: op.objectsWritten,
          arguments: op.arguments,
          predicates: op.predicates,
        })),
        hiddenWork: es.report.pieces.map((p) => ({ kind: p.kind, operators: p.operators, cost: p.cost, share: p.share ?? null, name: p.name ?? null, objects: p.objects, description: p.description })),
        insertShare: es.report.insertShare ?? null,
        verdict: es.report.verdict,
        notes: es.report.notes,
        errors: s.errors,
        warnings: s.warnings,
      };
    }),
  };
}

export function renderJson(report: ExplainReport): string {
  return JSON.stringify(toJson(report), null, 2) + '\n';
}

// --- markdown -------------------------------------------------------------------------------------------

function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function renderMarkdown(report: ExplainReport): string {
  const out: string[] = [];
  for (const e of report.errors) out.push(`> **Error:** ${mdCell(e.message)}`, '');
  report.statements.forEach((es, index) => {
    const s = es.statement;
    out.push(`### Explain${report.statements.length > 1 ? ` — statement ${s.statementNumber ?? index + 1}` : ''}`, '');
    const text = statementTextOf(s);
    if (text) out.push('```sql', text.replace(/```/g, '` ` `'), '```', '');
    for (const e of s.errors) out.push(`> **Error:** ${mdCell(e.message)}`, '');
    for (const w of s.warnings) out.push(`> **Warning:** ${mdCell(w.message)}`, '');
    if (!s.plan) return;
    out.push(`**Verdict:** ${mdCell(es.report.verdict)}`, '');
    if (es.report.pieces.length > 0) {
      out.push('| Hidden work | Operators | Own cost (timerons) | Share |', '|---|---|---:|---:|');
      for (const p of es.report.pieces) {
        out.push(`| ${mdCell(hiddenKindLabel(p.kind))}${p.name ? ` (${mdCell(p.name)})` : ''} | ${p.operators.join(', ')} | ${formatCost(p.cost)} | ${share(p.share)} |`);
      }
      out.push('');
    }
    for (const n of es.report.notes) out.push(`- ${mdCell(n)}`);
    if (es.report.notes.length) out.push('');
    out.push('<details><summary>Access plan</summary>', '', '```text');
    for (const line of treeLines(s.plan)) {
      if (line.object) out.push(`${line.depth}${kindLabel(line.object.kind)} ${displayKey(line.object.key)}${line.object.written ? ' (written)' : ''}`);
      else {
        const op = line.op!;
        const tag = op.id === es.report.mainOperator ? '  <- the insert' : op.hidden ? `  <- ${hiddenKindLabel(op.hidden)}` : '';
        out.push(`${line.depth}${op.label} (${op.id})  cost ${formatCost(op.totalCost)}  io ${formatCost(op.ioCost)}${tag}`);
      }
    }
    out.push('```', '', '</details>', '');
  });
  return withOneNewline(out.join('\n'));
}

// --- html -----------------------------------------------------------------------------------------------

export interface HtmlOptions {
  /** CSP nonce put on the inline <style> and <script> tags (the VS Code webview passes one). */
  nonce?: string;
  title?: string;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const KIND_CLASS: Record<HiddenWorkKind, string> = {
  'foreign-key-check': 'fk',
  trigger: 'trigger',
  'mqt-maintenance': 'mqt',
  'ri-cascade': 'cascade',
  'check-constraint': 'check',
};

interface Laid {
  id: string;
  x: number;
  y: number;
  op?: PlanOperator;
  object?: { key: string; kind: string; written: boolean };
  children: Laid[];
}

const NODE_W = 150;
const NODE_H = 58;
const GAP_X = 18;
const GAP_Y = 34;

function layoutPlan(plan: AccessPlan): { roots: Laid[]; width: number; height: number } {
  const byId = new Map(plan.operators.map((op) => [op.id, op]));
  const seen = new Set<number>();
  let nextX = 0;
  let maxDepth = 0;
  // Iterative post-order: leaves take the next free column, a parent sits over the middle of its inputs.
  const build = (rootOp: PlanOperator): Laid => {
    const rootNode: Laid = { id: `op${rootOp.id}`, x: 0, y: 0, op: rootOp, children: [] };
    seen.add(rootOp.id);
    const inputsOf = (op: PlanOperator) => (op.inputs.length > 0 ? op.inputs : op.children.map((c) => ({ kind: 'operator' as const, id: c })));
    const stack: { op: PlanOperator; node: Laid; depth: number; next: number; inputs: ReturnType<typeof inputsOf> }[] = [
      { op: rootOp, node: rootNode, depth: 0, next: 0, inputs: inputsOf(rootOp) },
    ];
    while (stack.length) {
      const top = stack[stack.length - 1];
      maxDepth = Math.max(maxDepth, top.depth);
      if (top.next < top.inputs.length) {
        const i = top.next++;
        const input = top.inputs[i];
        if (input.kind === 'operator') {
          const child = byId.get(input.id);
          if (child && !seen.has(child.id)) {
            seen.add(child.id);
            const node: Laid = { id: `op${child.id}`, x: 0, y: (top.depth + 1) * (NODE_H + GAP_Y), op: child, children: [] };
            top.node.children.push(node);
            stack.push({ op: child, node, depth: top.depth + 1, next: 0, inputs: inputsOf(child) });
          }
        } else {
          maxDepth = Math.max(maxDepth, top.depth + 1);
          top.node.children.push({
            id: `op${top.op.id}o${i}`,
            x: nextX,
            y: (top.depth + 1) * (NODE_H + GAP_Y),
            object: { key: input.object.key, kind: input.object.kind, written: top.op.objectsWritten.includes(input.object.key) },
            children: [],
          });
          nextX += NODE_W + GAP_X;
        }
        continue;
      }
      stack.pop();
      const node = top.node;
      if (node.children.length === 0) {
        node.x = nextX;
        nextX += NODE_W + GAP_X;
      } else {
        node.x = (node.children[0].x + node.children[node.children.length - 1].x) / 2;
      }
    }
    return rootNode;
  };
  const roots: Laid[] = [];
  for (const r of plan.roots) {
    const op = byId.get(r);
    if (op && !seen.has(r)) roots.push(build(op));
  }
  for (const op of plan.operators) if (!seen.has(op.id)) roots.push(build(op));
  return { roots, width: Math.max(nextX - GAP_X, NODE_W) + 20, height: (maxDepth + 1) * (NODE_H + GAP_Y) - GAP_Y + 20 };
}

function svgFor(es: ExplainedStatement, index: number): string {
  const plan = es.statement.plan!;
  const { roots, width, height } = layoutPlan(plan);
  const parts: string[] = [];
  const edges: string[] = [];
  const draw = (n: Laid) => {
    for (const c of n.children) {
      const x1 = n.x + NODE_W / 2 + 10;
      const y1 = n.y + NODE_H + 10;
      const x2 = c.x + NODE_W / 2 + 10;
      const y2 = c.y + 10;
      const my = (y1 + y2) / 2;
      edges.push(`<path class="edge" d="M${x1} ${y1} C${x1} ${my} ${x2} ${my} ${x2} ${y2}"/>`);
    }
    const x = n.x + 10;
    const y = n.y + 10;
    if (n.object) {
      const o = n.object;
      parts.push(
        `<g class="node obj${o.written ? ' written' : ''}"><rect x="${x}" y="${y}" width="${NODE_W}" height="${NODE_H}" rx="10"/>` +
          `<text x="${x + NODE_W / 2}" y="${y + 22}" class="kind">${esc(kindLabel(o.kind))}${o.written ? ' (written)' : ''}</text>` +
          `<text x="${x + NODE_W / 2}" y="${y + 40}" class="name">${esc(truncate(displayKey(o.key), 22))}</text><title>${esc(displayKey(o.key))}</title></g>`,
      );
      return;
    }
    const op = n.op!;
    const cls = op.id === es.report.mainOperator ? ' main' : op.hidden ? ` hidden ${KIND_CLASS[op.hidden]}` : '';
    const tag = op.id === es.report.mainOperator ? 'the insert' : op.hidden ? `${hiddenKindLabel(op.hidden)} ${shareOf(es, op) ?? ''}` : '';
    parts.push(
      `<g class="node op${cls}" data-statement="${index}" data-op="${op.id}" tabindex="0" role="button" aria-label="${esc(`${op.label} operator ${op.id}${tag ? ', ' + tag : ''}`)}">` +
        `<rect x="${x}" y="${y}" width="${NODE_W}" height="${NODE_H}" rx="4"/>` +
        `<text x="${x + NODE_W / 2}" y="${y + 18}" class="name">${esc(op.label)} (${op.id})</text>` +
        `<text x="${x + NODE_W / 2}" y="${y + 34}" class="num">cost ${esc(formatCost(op.totalCost))} · io ${esc(formatCost(op.ioCost))}</text>` +
        `<text x="${x + NODE_W / 2}" y="${y + 50}" class="tag">${esc(tag.trim() || `rows ${formatCost(op.rows)}`)}</text></g>`,
    );
  };
  const pending = [...roots];
  while (pending.length) {
    const n = pending.pop()!;
    draw(n);
    pending.push(...n.children);
  }
  return `<svg class="plan" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="group" aria-label="Access plan of statement ${index + 1}">${edges.join('')}${parts.join('')}</svg>`;
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

const CSS = `
:root {
  --il-bg: var(--vscode-editor-background, #ffffff);
  --il-fg: var(--vscode-editor-foreground, #1f2328);
  --il-muted: var(--vscode-descriptionForeground, #59636e);
  --il-border: var(--vscode-panel-border, #d0d7de);
  --il-node: var(--vscode-editorWidget-background, #f6f8fa);
  --il-focus: var(--vscode-focusBorder, #0969da);
  --il-main: var(--vscode-charts-green, #1a7f37);
  --il-fk: var(--vscode-charts-orange, #bc4c00);
  --il-trigger: var(--vscode-charts-purple, #8250df);
  --il-mqt: var(--vscode-charts-blue, #0969da);
  --il-cascade: var(--vscode-charts-red, #cf222e);
  --il-check: var(--vscode-charts-yellow, #9a6700);
  --il-font: var(--vscode-font-family, system-ui, sans-serif);
  --il-mono: var(--vscode-editor-font-family, ui-monospace, monospace);
}
@media (prefers-color-scheme: dark) {
  :root {
    --il-bg: var(--vscode-editor-background, #0d1117);
    --il-fg: var(--vscode-editor-foreground, #e6edf3);
    --il-muted: var(--vscode-descriptionForeground, #9198a1);
    --il-border: var(--vscode-panel-border, #3d444d);
    --il-node: var(--vscode-editorWidget-background, #151b23);
    --il-main: var(--vscode-charts-green, #3fb950);
    --il-fk: var(--vscode-charts-orange, #f0883e);
    --il-trigger: var(--vscode-charts-purple, #bc8cff);
    --il-mqt: var(--vscode-charts-blue, #58a6ff);
    --il-cascade: var(--vscode-charts-red, #f85149);
    --il-check: var(--vscode-charts-yellow, #d29922);
  }
}
body { background: var(--il-bg); color: var(--il-fg); font-family: var(--il-font); margin: 16px; line-height: 1.45; }
h1 { font-size: 1.3em; margin: 0 0 8px; } h2 { font-size: 1.1em; margin: 24px 0 8px; }
pre, code { font-family: var(--il-mono); }
pre.sql { background: var(--il-node); border: 1px solid var(--il-border); padding: 8px; overflow-x: auto; white-space: pre-wrap; }
.verdict { border-left: 4px solid var(--il-fk); padding: 6px 10px; background: var(--il-node); }
.muted, .notes { color: var(--il-muted); }
.error { color: var(--il-cascade); } .warning { color: var(--il-check); }
.legend { display: flex; flex-wrap: wrap; gap: 12px; padding: 0; list-style: none; font-size: 0.9em; }
.legend li::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 5px; border-radius: 2px; background: var(--swatch); }
.legend .main { --swatch: var(--il-main); } .legend .fk { --swatch: var(--il-fk); } .legend .trigger { --swatch: var(--il-trigger); }
.legend .mqt { --swatch: var(--il-mqt); } .legend .cascade { --swatch: var(--il-cascade); } .legend .check { --swatch: var(--il-check); }
.scroll { overflow: auto; border: 1px solid var(--il-border); border-radius: 6px; max-height: 75vh; }
svg.plan { display: block; font-size: 11px; }
svg.plan .edge { fill: none; stroke: var(--il-muted); stroke-width: 1.2; }
svg.plan .node rect { fill: var(--il-node); stroke: var(--il-border); stroke-width: 1.2; }
svg.plan .node text { fill: var(--il-fg); text-anchor: middle; }
svg.plan .node .num, svg.plan .node .kind { fill: var(--il-muted); }
svg.plan .node .name { font-weight: 600; font-family: var(--il-mono); }
svg.plan .obj rect { stroke-dasharray: 4 3; }
svg.plan .op { cursor: pointer; }
svg.plan .op:focus { outline: none; } svg.plan .op:focus rect, svg.plan .op.selected rect { stroke: var(--il-focus); stroke-width: 2.5; }
svg.plan .main rect { stroke: var(--il-main); stroke-width: 2.5; } svg.plan .main .tag { fill: var(--il-main); }
svg.plan .fk rect { stroke: var(--il-fk); stroke-width: 2.5; } svg.plan .fk .tag { fill: var(--il-fk); }
svg.plan .trigger rect { stroke: var(--il-trigger); stroke-width: 2.5; } svg.plan .trigger .tag { fill: var(--il-trigger); }
svg.plan .mqt rect { stroke: var(--il-mqt); stroke-width: 2.5; } svg.plan .mqt .tag { fill: var(--il-mqt); }
svg.plan .cascade rect { stroke: var(--il-cascade); stroke-width: 2.5; } svg.plan .cascade .tag { fill: var(--il-cascade); }
svg.plan .check rect { stroke: var(--il-check); stroke-width: 2.5; } svg.plan .check .tag { fill: var(--il-check); }
.details { margin-top: 12px; border: 1px solid var(--il-border); border-radius: 6px; padding: 8px 12px; background: var(--il-node); }
.details table { border-collapse: collapse; } .details td, .details th { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
table.pieces { border-collapse: collapse; } table.pieces td, table.pieces th { border-bottom: 1px solid var(--il-border); padding: 4px 10px 4px 0; text-align: left; }
`;

const SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('insertlint-plan-data').textContent);
  function text(tag, s) { var e = document.createElement(tag); e.textContent = s; return e; }
  function fmt(n) { return n === null || n === undefined ? '?' : String(n); }
  function show(statement, id, node) {
    var op = (data[statement] || []).find(function (o) { return o.id === id; });
    var box = document.getElementById('details-' + statement);
    if (!op || !box) return;
    document.querySelectorAll('.op.selected').forEach(function (n) { n.classList.remove('selected'); });
    node.classList.add('selected');
    box.textContent = '';
    box.appendChild(text('h3', op.label + ' (' + op.id + ')' + (op.hidden ? ' \\u2014 ' + op.hidden : '')));
    var table = document.createElement('table');
    [['Rows', fmt(op.rows)], ['Cumulative cost', fmt(op.totalCost)], ['Own cost', fmt(op.ownCost)], ['I/O cost', fmt(op.ioCost)],
     ['CPU cost', fmt(op.cpuCost)], ['Inputs', op.children.join(', ') || '\\u2014'], ['Objects', op.objects.join(', ') || '\\u2014'],
     ['Flags', op.flags.join(', ') || '\\u2014']].forEach(function (r) {
      var tr = document.createElement('tr'); tr.appendChild(text('th', r[0])); tr.appendChild(text('td', r[1])); table.appendChild(tr);
    });
    op.arguments.forEach(function (a) { var tr = document.createElement('tr'); tr.appendChild(text('th', a.name)); tr.appendChild(text('td', a.value)); table.appendChild(tr); });
    op.predicates.forEach(function (p) { var tr = document.createElement('tr'); tr.appendChild(text('th', p.howApplied + ' predicate')); tr.appendChild(text('td', p.text)); table.appendChild(tr); });
    box.appendChild(table);
  }
  document.querySelectorAll('.op[data-op]').forEach(function (node) {
    var handler = function () { show(Number(node.getAttribute('data-statement')), Number(node.getAttribute('data-op')), node); };
    node.addEventListener('click', handler);
    node.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); handler(); } });
  });
})();
`;

export function renderHtml(report: ExplainReport, options: HtmlOptions = {}): string {
  const nonceAttr = options.nonce ? ` nonce="${esc(options.nonce)}"` : '';
  const csp = options.nonce
    ? `default-src 'none'; style-src 'nonce-${esc(options.nonce)}'; script-src 'nonce-${esc(options.nonce)}'; img-src data:`
    : `default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:`;
  const title = options.title ?? `InsertLint explain${report.sourceName ? `: ${report.sourceName}` : ''}`;
  const body: string[] = [];
  body.push(`<h1>${esc(title)}</h1>`);
  for (const e of report.errors) body.push(`<p class="error">${esc(e.message)}</p>`);
  for (const w of report.warnings) body.push(`<p class="warning">${esc(w.message)}</p>`);
  body.push(
    '<ul class="legend" aria-label="Legend"><li class="main">the insert</li><li class="fk">foreign-key check</li><li class="trigger">trigger</li><li class="mqt">MQT maintenance</li><li class="cascade">RI cascade</li><li class="check">check constraint</li></ul>',
  );
  const data: unknown[] = [];
  report.statements.forEach((es, index) => {
    const s = es.statement;
    body.push(`<section class="statement"><h2>Statement ${s.statementNumber ?? index + 1}</h2>`);
    const text = statementTextOf(s);
    if (text) body.push(`<pre class="sql">${esc(text)}</pre>`);
    for (const e of s.errors) body.push(`<p class="error">${esc(e.message)}</p>`);
    for (const w of s.warnings) body.push(`<p class="warning">${esc(w.message)}</p>`);
    data.push(
      (s.plan?.operators ?? []).map((op) => ({
        id: op.id,
        label: op.label,
        hidden: op.hidden ?? null,
        rows: op.rows ?? null,
        totalCost: op.totalCost ?? null,
        ownCost: op.ownCost ?? null,
        ioCost: op.ioCost ?? null,
        cpuCost: op.cpuCost ?? null,
        children: op.children,
        objects: [...new Set([...op.objectsRead, ...op.objectsWritten])],
        flags: op.flags,
        arguments: op.arguments.map((a) => ({ name: a.name, value: a.value })),
        predicates: op.predicates.map((p) => ({ howApplied: p.howApplied, text: p.text })),
      })),
    );
    if (s.plan) {
      body.push(`<p class="verdict">${esc(es.report.verdict)}</p>`);
      if (es.report.pieces.length) {
        body.push('<table class="pieces"><thead><tr><th>Hidden work</th><th>Operators</th><th>Own cost</th><th>Share</th></tr></thead><tbody>');
        for (const p of es.report.pieces) {
          body.push(`<tr><td>${esc(hiddenKindLabel(p.kind))}${p.name ? ` (${esc(p.name)})` : ''}</td><td>${p.operators.join(', ')}</td><td>${esc(formatCost(p.cost))}</td><td>${esc(share(p.share))}</td></tr>`);
        }
        body.push('</tbody></table>');
      }
      if (es.report.notes.length) body.push(`<ul class="notes">${es.report.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
      body.push(`<div class="scroll">${svgFor(es, index)}</div>`);
      body.push(`<div class="details" id="details-${index}" aria-live="polite"><span class="muted">Select an operator to see its details.</span></div>`);
    }
    body.push('</section>');
  });
  // "</" inside the JSON would end the script element early.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title>
<style${nonceAttr}>${CSS}</style>
</head>
<body>
${body.join('\n')}
<script type="application/json" id="insertlint-plan-data"${nonceAttr}>${json}</script>
<script${nonceAttr}>${SCRIPT}</script>
</body>
</html>
`;
}

export function render(report: ExplainReport, format: ExplainFormat, options: TextOptions & HtmlOptions = {}): string {
  switch (format) {
    case 'json':
      return renderJson(report);
    case 'markdown':
      return renderMarkdown(report);
    case 'html':
      return renderHtml(report, options);
    default:
      return renderText(report, options);
  }
}
