// The HTML rendering of an ExplainReport: one self-contained page (inline SVG, CSS on VS Code's theme
// variables, optional CSP nonce) that the VS Code webview shows as it is. The plan view zooms, fits, pans,
// collapses subtrees and shows an operator's details beside the tree; without scripts it is a static SVG.
import { formatCost, hiddenKindLabel, pct } from './describe';
import { displayKey } from '../schema/schema';
import { HIDDEN_WORK_KINDS, type HiddenWorkKind, type PlanOperator } from './model';
import { statementWord } from './statement';
import { statementTextOf, type ExplainReport, type ExplainedStatement } from './report';
import { kindLabel, mainTag, pieceShare, shareOf } from './render-common';
import { originLine, reportOrigin, statementOrigin } from './render-origin';
import { planViewKit, type ViewData, type ViewNode } from './plan-view';
import { planViewScript } from './plan-view-script';

export interface HtmlOptions {
  /** CSP nonce put on the inline <style> and <script> tags (the VS Code webview passes one). */
  nonce?: string;
  title?: string;
}

const kit = planViewKit();
const { esc, fmt } = kit;

export const KIND_CLASS: Record<HiddenWorkKind, string> = {
  'foreign-key-check': 'fk',
  trigger: 'trigger',
  'mqt-maintenance': 'mqt',
  'trigger-or-mqt': 'trigger-or-mqt',
  'ri-cascade': 'cascade',
  'check-constraint': 'check',
};

/** What the page's script shows beside the tree when an operator is selected. */
interface OperatorDetails {
  id: number;
  label: string;
  longName: string | null;
  /** "the insert", "foreign-key check (FK_X)", … in words. */
  role: string | null;
  cls: string;
  rows: number | null;
  actualRows: number | null;
  totalCost: number | null;
  ownCost: number | null;
  ownShare: number | null;
  ioCost: number | null;
  cpuCost: number | null;
  firstRowCost: number | null;
  inputs: { id: number; label: string }[];
  objects: { key: string; written: boolean }[];
  flags: string[];
  arguments: { name: string; value: string }[];
  predicates: { howApplied: string; text: string }[];
}

function middleEllipsis(s: string, n: number): string {
  if (s.length <= n) return s;
  const head = Math.ceil((n - 1) / 2);
  return s.slice(0, head) + '…' + s.slice(s.length - (n - 1 - head));
}

function roleOf(es: ExplainedStatement, op: PlanOperator): string | null {
  const own = mainTag(es, op);
  if (own) return own;
  if (!op.hidden) return null;
  const piece = es.report.pieces.find((p) => p.operators.includes(op.id));
  return `${hiddenKindLabel(op.hidden)}${piece?.name ? ` (${piece.name})` : ''}`;
}

function classOf(es: ExplainedStatement, op: PlanOperator): string {
  if (mainTag(es, op)) return 'main';
  return op.hidden ? `hidden ${KIND_CLASS[op.hidden]}` : '';
}

/** The plan as the view's boxes: operators in drawing order, their objects, and a reference box for a shared operator's second parent. */
export function planView(es: ExplainedStatement): { view: ViewData; ops: OperatorDetails[] } {
  const plan = es.statement.plan!;
  const byId = new Map(plan.operators.map((op) => [op.id, op]));
  const total = plan.totalCost;
  const maxOwn = Math.max(0, ...plan.operators.map((op) => op.ownCost ?? 0));
  const nodes: ViewNode[] = [];
  const roots: number[] = [];
  const drawn = new Set<number>();
  let maxRows = 0;
  const opNode = (op: PlanOperator, rows: number | undefined): ViewNode => {
    const role = roleOf(es, op);
    const ownShare = op.ownCost !== undefined && total ? op.ownCost / total : undefined;
    const rowsLine = `rows ${fmt(op.rows)}${op.actualRows !== undefined ? ` · actual ${fmt(op.actualRows)}` : ''}`;
    const costLine = `cost ${fmt(op.totalCost)}${ownShare !== undefined && op.children.length > 0 ? ` · own ${ownShare > 0 && ownShare < 0.001 ? '<0.1%' : pct(ownShare)}` : ''}`;
    const tag = mainTag(es, op) ?? (op.hidden ? `${hiddenKindLabel(op.hidden)} ${shareOf(es, op) ?? ''}`.trim() : '');
    return {
      t: 'op',
      op: op.id,
      name: `${op.label} (${op.id})`,
      lines: [rowsLine, costLine, tag],
      cls: classOf(es, op),
      shade: maxOwn > 0 ? (op.ownCost ?? 0) / maxOwn : 0,
      rows,
      kids: [],
      title: `${op.label} operator ${op.id}${role ? `, ${role}` : ''}: rows ${fmt(op.rows)}, cumulative cost ${fmt(op.totalCost)} timerons${op.ownCost !== undefined ? `, own cost ${fmt(op.ownCost)}` : ''}`,
    };
  };
  type Item = { op: number; parent?: number; rows?: number } | { object: ViewNode; parent: number };
  const build = (rootId: number) => {
    const stack: Item[] = [{ op: rootId }];
    while (stack.length) {
      const item = stack.pop()!;
      const index = nodes.length;
      if ('object' in item) {
        nodes[item.parent].kids.push(index);
        nodes.push(item.object);
        continue;
      }
      const { op: id, parent, rows } = item;
      const op = byId.get(id);
      if (!op) continue;
      if (rows !== undefined) maxRows = Math.max(maxRows, rows);
      const repeat = drawn.has(id);
      drawn.add(id);
      nodes.push(
        repeat
          ? { t: 'ref', op: id, name: `${op.label} (${op.id})`, lines: ['shared: drawn once, above'], cls: `${classOf(es, op)} ref`.trim(), shade: 0, rows, kids: [], title: `${op.label} operator ${op.id} again: its result is read here too; select to go to it` }
          : opNode(op, rows),
      );
      if (parent === undefined) roots.push(index);
      else nodes[parent].kids.push(index);
      if (repeat) continue;
      const inputs = op.inputs.length > 0 ? op.inputs : op.children.map((c) => ({ kind: 'operator' as const, id: c, rows: byId.get(c)?.rows }));
      const items: Item[] = inputs.map((input) => {
        if (input.kind === 'operator') return { op: input.id, parent: index, rows: input.rows ?? byId.get(input.id)?.rows };
        const o = input.object;
        const written = op.objectsWritten.includes(o.key);
        // A table's edge carries the rows read from it (its cardinality); a written table's, the rows written.
        const edgeRows = written ? op.rows : o.rows;
        if (edgeRows !== undefined) maxRows = Math.max(maxRows, edgeRows);
        return {
          parent: index,
          object: {
            t: 'obj',
            name: `${kindLabel(o.kind)}${written ? ' (written)' : ''}`,
            lines: [middleEllipsis(displayKey(o.key), 24)],
            cls: written ? 'written' : '',
            shade: 0,
            rows: edgeRows,
            kids: [],
            title: `${kindLabel(o.kind)} ${displayKey(o.key)}${written ? ', written by this operator' : ''}${o.rows !== undefined ? `, ${fmt(o.rows)} rows` : ''}`,
          },
        };
      });
      for (let k = items.length - 1; k >= 0; k--) stack.push(items[k]);
    }
  };
  for (const r of plan.roots) build(r);
  for (const op of plan.operators) if (!drawn.has(op.id)) build(op.id);

  const ops: OperatorDetails[] = plan.operators.map((op) => ({
    id: op.id,
    label: op.label,
    longName: op.longName ?? null,
    role: roleOf(es, op),
    cls: classOf(es, op),
    rows: op.rows ?? null,
    actualRows: op.actualRows ?? null,
    totalCost: op.totalCost ?? null,
    ownCost: op.ownCost ?? null,
    ownShare: op.ownCost !== undefined && total ? op.ownCost / total : null,
    ioCost: op.ioCost ?? null,
    cpuCost: op.cpuCost ?? null,
    firstRowCost: op.firstRowCost ?? null,
    inputs: op.children.map((c) => ({ id: c, label: byId.get(c)?.label ?? '?' })),
    objects: [...new Set([...op.objectsRead, ...op.objectsWritten])].map((key) => ({ key: displayKey(key), written: op.objectsWritten.includes(key) })),
    flags: op.flags,
    arguments: op.arguments.map((a) => ({ name: a.name, value: a.value })),
    predicates: op.predicates.map((p) => ({ howApplied: p.howApplied, text: p.text })),
  }));
  return { view: { nodes, roots, maxRows }, ops };
}

const CSS = `
:root {
  --il-bg: var(--vscode-editor-background, #ffffff);
  --il-fg: var(--vscode-editor-foreground, #1f2328);
  --il-muted: var(--vscode-descriptionForeground, #59636e);
  --il-border: var(--vscode-panel-border, #d0d7de);
  --il-node: var(--vscode-editorWidget-background, #f6f8fa);
  --il-focus: var(--vscode-focusBorder, #0969da);
  --il-button: var(--vscode-button-secondaryBackground, #e7ebef);
  --il-button-fg: var(--vscode-button-secondaryForeground, #1f2328);
  --il-main: #1a7f37;
  --il-fk: #bc4c00;
  --il-trigger: #8250df;
  --il-mqt: #1b7c83;
  --il-trigger-or-mqt: #bf3989;
  --il-cascade: #cf222e;
  --il-check: #9a6700;
  /* The selection is drawn in the text colour with a halo: never one of the hidden-work colours. */
  --il-select: var(--il-fg);
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
    --il-button: var(--vscode-button-secondaryBackground, #2a313c);
    --il-button-fg: var(--vscode-button-secondaryForeground, #e6edf3);
  }
}
body.vscode-dark, body.vscode-high-contrast:not(.vscode-high-contrast-light) {
  --il-main: #3fb950; --il-fk: #f0883e; --il-trigger: #bc8cff; --il-mqt: #39c5cf; --il-trigger-or-mqt: #ff80c8; --il-cascade: #f85149; --il-check: #d29922;
}
@media (prefers-color-scheme: dark) {
  body:not(.vscode-light) { --il-main: #3fb950; --il-fk: #f0883e; --il-trigger: #bc8cff; --il-mqt: #39c5cf; --il-trigger-or-mqt: #ff80c8; --il-cascade: #f85149; --il-check: #d29922; }
}
body { background: var(--il-bg); color: var(--il-fg); font-family: var(--il-font); margin: 16px; line-height: 1.45; }
h1 { font-size: 1.3em; margin: 0 0 8px; } h2 { font-size: 1.1em; margin: 24px 0 8px; }
pre, code { font-family: var(--il-mono); }
pre.sql { background: var(--il-node); border: 1px solid var(--il-border); padding: 8px; overflow-x: auto; white-space: pre-wrap; max-height: 30vh; }
.verdict { border-left: 4px solid var(--il-fk); padding: 6px 10px; background: var(--il-node); }
.muted, .notes { color: var(--il-muted); }
.error { color: var(--il-cascade); } .warning { color: var(--il-check); }
.legend { display: flex; flex-wrap: wrap; gap: 12px; padding: 0; list-style: none; font-size: 0.9em; }
.legend li::before, .swatch { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 5px; border-radius: 2px; background: var(--swatch); }
.main { --swatch: var(--il-main); } .fk { --swatch: var(--il-fk); } .trigger { --swatch: var(--il-trigger); } .mqt { --swatch: var(--il-mqt); }
.trigger-or-mqt { --swatch: var(--il-trigger-or-mqt); } .cascade { --swatch: var(--il-cascade); } .check { --swatch: var(--il-check); }
.legend .selected::before { background: none; outline: 3px solid var(--il-select); outline-offset: -3px; }
table.pieces { border-collapse: collapse; margin: 8px 0; } table.pieces td, table.pieces th { border-bottom: 1px solid var(--il-border); padding: 4px 10px 4px 0; text-align: left; }
table.pieces tr.piece { cursor: pointer; } table.pieces tr.piece:hover, table.pieces tr.piece:focus, table.pieces tr.piece.pinned { background: var(--il-node); outline: none; }
table.pieces tr.piece.pinned td:first-child { font-weight: 600; }
.planview { border: 1px solid var(--il-border); border-radius: 6px; margin-top: 8px; container-type: inline-size; }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px 8px; border-bottom: 1px solid var(--il-border); font-size: 0.9em; }
.toolbar button { background: var(--il-button); color: var(--il-button-fg); border: 1px solid var(--il-border); border-radius: 4px; padding: 2px 9px; font: inherit; cursor: pointer; min-width: 28px; }
.toolbar button:focus-visible { outline: 2px solid var(--il-focus); outline-offset: 1px; }
.toolbar .zoom { min-width: 3.5em; text-align: right; font-variant-numeric: tabular-nums; } .toolbar .hint { color: var(--il-muted); margin-left: auto; }
.stage { display: flex; position: relative; }
.viewport { flex: 1 1 480px; min-width: 0; overflow: auto; height: 70vh; min-height: 320px; position: relative; outline: none; }
.viewport:focus-visible { box-shadow: inset 0 0 0 2px var(--il-focus); }
.viewport.live { overflow: hidden; cursor: grab; touch-action: none; } .viewport.live.dragging { cursor: grabbing; }
.viewport.live svg.plan { width: 100%; height: 100%; }
.details { flex: 0 0 300px; max-height: 70vh; overflow: auto; border-left: 1px solid var(--il-border); padding: 8px 12px; font-size: 0.92em; }
.details .close { float: right; background: none; border: none; color: var(--il-muted); font-size: 1.2em; cursor: pointer; padding: 0 2px; }
/* A narrow editor: the details float over the right side of the drawing, still beside the tree. */
@container (max-width: 760px) {
  .details { position: absolute; top: 8px; right: 8px; width: min(280px, 62%); max-height: calc(100% - 16px); background: var(--il-bg); border: 1px solid var(--il-border); border-radius: 6px; box-shadow: 0 2px 10px rgba(0, 0, 0, 0.3); }
  .details.empty { display: none; }
}
.details h3 { margin: 0 0 6px; font-size: 1.05em; font-family: var(--il-mono); }
.details .role { margin: 0 0 6px; } .details table { border-collapse: collapse; } .details td, .details th { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
.details th { color: var(--il-muted); font-weight: normal; white-space: nowrap; } .details td { word-break: break-word; }
.details button.link { background: none; border: none; color: var(--vscode-textLink-foreground, #0969da); padding: 0; font: inherit; cursor: pointer; text-decoration: underline; }
svg.plan { display: block; font-size: 11px; user-select: none; }
svg.plan .edge { fill: none; stroke: var(--il-muted); stroke-opacity: 0.65; }
svg.plan .node .box { fill: var(--il-node); stroke: var(--il-border); stroke-width: 1.2; }
svg.plan .node .heat { fill: var(--il-fg); pointer-events: none; }
svg.plan .node text { fill: var(--il-fg); text-anchor: middle; pointer-events: none; }
svg.plan .node .l2, svg.plan .node .l3 { fill: var(--il-muted); font-variant-numeric: tabular-nums; }
svg.plan .node .l4 { font-weight: 600; font-size: 10px; }
svg.plan .node .name { font-weight: 600; font-family: var(--il-mono); }
svg.plan .obj .box { stroke-dasharray: 4 3; } svg.plan .obj.written .box { stroke: var(--il-fg); stroke-dasharray: none; }
svg.plan .ref .box { stroke-dasharray: 2 3; fill: none; }
svg.plan .op, svg.plan .ref, svg.plan .toggle { cursor: pointer; }
svg.plan .toggle circle { fill: var(--il-bg); stroke: var(--il-muted); } svg.plan .toggle text { fill: var(--il-fg); text-anchor: middle; font-size: 11px; font-weight: 600; pointer-events: none; }
svg.plan .toggle.folded circle { fill: var(--il-node); stroke: var(--il-fg); }
svg.plan .main .box { stroke: var(--il-main); stroke-width: 3; } svg.plan .main .l4 { fill: var(--il-main); }
svg.plan .fk .box { stroke: var(--il-fk); stroke-width: 3; } svg.plan .fk .l4 { fill: var(--il-fk); }
svg.plan .trigger .box { stroke: var(--il-trigger); stroke-width: 3; } svg.plan .trigger .l4 { fill: var(--il-trigger); }
svg.plan .mqt .box { stroke: var(--il-mqt); stroke-width: 3; } svg.plan .mqt .l4 { fill: var(--il-mqt); }
svg.plan .trigger-or-mqt .box { stroke: var(--il-trigger-or-mqt); stroke-width: 3; stroke-dasharray: 7 3; } svg.plan .trigger-or-mqt .l4 { fill: var(--il-trigger-or-mqt); }
svg.plan .cascade .box { stroke: var(--il-cascade); stroke-width: 3; } svg.plan .cascade .l4 { fill: var(--il-cascade); }
svg.plan .check .box { stroke: var(--il-check); stroke-width: 3; } svg.plan .check .l4 { fill: var(--il-check); }
svg.plan .node.selected .box { stroke: var(--il-select); stroke-width: 4; stroke-dasharray: none; filter: drop-shadow(0 0 3px var(--il-bg)) drop-shadow(0 0 2px var(--il-select)); }
svg.plan .node:focus { outline: none; } svg.plan .node:focus-visible .box, svg.plan .toggle:focus-visible circle { stroke: var(--il-focus); stroke-width: 3; }
svg.plan.lighting .node:not(.lit), svg.plan.lighting .edge { opacity: 0.3; }
svg.plan .node.lit .box { stroke-width: 5; }
`;

const LEGEND_KINDS: HiddenWorkKind[] = [...HIDDEN_WORK_KINDS];

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
  const origin = reportOrigin(report);
  if (origin) body.push(`<p class="origin muted">${esc(originLine(origin))}</p>`);
  const kinds = new Set(report.statements.map((s) => s.report.statementKind));
  const own = kinds.size === 1 ? `the ${statementWord([...kinds][0]).toLowerCase()}` : 'the statement itself';
  body.push(
    `<ul class="legend" aria-label="Legend"><li class="main">${esc(own)}</li>${LEGEND_KINDS.map((k) => `<li class="${KIND_CLASS[k]}">${esc(hiddenKindLabel(k))}</li>`).join('')}<li class="selected">selected operator</li><li>edge width: rows · box shade: own cost</li></ul>`,
  );
  const data: unknown[] = [];
  report.statements.forEach((es, index) => {
    const s = es.statement;
    const what = s.plan && es.report.mainOperator !== undefined ? ` — ${statementWord(es.report.statementKind)}${es.report.target ? ` ${es.report.statementKind === 'insert' || es.report.statementKind === 'merge' ? 'into' : es.report.statementKind === 'delete' ? 'from' : 'of'} ${displayKey(es.report.target)}` : ''}` : '';
    body.push(`<section class="statement"><h2>Statement ${s.statementNumber ?? index + 1}${esc(what)}</h2>`);
    const explained = statementOrigin(report, index);
    if (explained) body.push(`<p class="origin muted">${esc(originLine(explained))}</p>`);
    const text = statementTextOf(s);
    if (text) body.push(`<pre class="sql">${esc(text)}</pre>`);
    for (const e of s.errors) body.push(`<p class="error">${esc(e.message)}</p>`);
    for (const w of s.warnings) body.push(`<p class="warning">${esc(w.message)}</p>`);
    if (!s.plan) {
      data.push(null);
      body.push('</section>');
      return;
    }
    const { view, ops } = planView(es);
    data.push({ view, ops });
    body.push(`<p class="verdict">${esc(es.report.verdict)}</p>`);
    if (es.report.pieces.length) {
      body.push('<table class="pieces"><thead><tr><th>Hidden work</th><th>Operators</th><th>Own cost (timerons)</th><th>Share</th></tr></thead><tbody>');
      for (const [i, p] of es.report.pieces.entries()) {
        body.push(
          `<tr class="piece ${KIND_CLASS[p.kind]}" data-statement="${index}" data-ops="${p.operators.join(' ')}" tabindex="0" title="${esc(p.description)}">` +
            `<td><span class="swatch"></span>${esc(hiddenKindLabel(p.kind))}${p.name ? ` (${esc(p.name)})` : ''}</td><td>${p.operators.join(', ')}</td><td title="${esc(formatCost(p.cost))}">${esc(fmt(p.cost))}</td><td>${esc(pieceShare(es, i))}</td></tr>`,
        );
      }
      body.push('</tbody></table>');
    }
    if (es.report.notes.length) body.push(`<ul class="notes">${es.report.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
    const { markup, layout } = kit.svg(view, {}, index);
    body.push(
      `<div class="planview" data-statement="${index}">` +
        `<div class="toolbar" role="toolbar" aria-label="Plan view of statement ${index + 1}">` +
        `<button type="button" data-act="out" aria-label="Zoom out" title="Zoom out (−)">−</button><button type="button" data-act="in" aria-label="Zoom in" title="Zoom in (+)">+</button>` +
        `<button type="button" data-act="fit" title="Fit the plan to the window (0)">Fit</button><button type="button" data-act="root" title="Centre on the root at 100% (Home)">Root</button>` +
        `<button type="button" data-act="expand" title="Expand every subtree">Expand all</button><button type="button" data-act="collapse" title="Show only the top levels">Collapse all</button>` +
        `<span class="zoom" aria-live="polite">100%</span><span class="hint">${view.nodes.filter((n) => n.t === 'op').length} operators · drag or arrow keys: pan · wheel, + and −: zoom · 0: fit · Home: root · x: collapse</span></div>` +
        `<div class="stage"><div class="viewport" tabindex="0" role="region" aria-label="Access plan of statement ${index + 1}">` +
        `<svg class="plan" data-statement="${index}" viewBox="0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}" width="${Math.ceil(layout.width)}" height="${Math.ceil(layout.height)}" role="group" aria-label="Operators of statement ${index + 1}"><g class="camera">${markup}</g></svg></div>` +
        `<aside class="details empty" id="details-${index}" aria-live="polite"><span class="muted">Select an operator to see its details here.</span></aside></div></div>`,
    );
    body.push('</section>');
  });
  // "</" inside the JSON would end the script element early.
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
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
<script${nonceAttr}>(${planViewScript.toString()})((${planViewKit.toString()})());</script>
</body>
</html>
`;
}
