// The plan view's drawing: a tidy tree layout and its SVG, shared by the server (the page as first shown,
// readable without scripts) and the page's script (which draws again after a subtree is collapsed or
// expanded). planViewKit is therefore self-contained: it references nothing outside its own body, and the
// HTML page embeds its source text. Keep it that way (no imports, no module-level helpers inside it).

/** One box of the view: an operator, an object it reads or writes, or a second reference to a shared operator. */
export interface ViewNode {
  /** 'op': an operator; 'obj': a table/index/function; 'ref': a shared operator already drawn elsewhere. */
  t: 'op' | 'obj' | 'ref';
  /** Operator id (op and ref). */
  op?: number;
  name: string;
  /** The lines under the name: rows, costs and the hidden-work class for an operator; the name for an object. */
  lines: string[];
  /** Extra CSS classes: main, hidden and the hidden-work class, written, … */
  cls: string;
  /** Own cost relative to the costliest operator, 0..1 (box shading). */
  shade: number;
  /** Rows on the edge from this node to its parent. */
  rows?: number;
  /** Indices of the inputs in ViewData.nodes, in drawing order. */
  kids: number[];
  title: string;
}

export interface ViewData {
  nodes: ViewNode[];
  roots: number[];
  /** Largest edge row count, for edge widths. */
  maxRows: number;
}

export interface ViewLayout {
  /** Centre x and top y of every node (NaN when hidden under a collapsed parent). */
  x: number[];
  y: number[];
  visible: boolean[];
  width: number;
  height: number;
}

export interface PlanViewKit {
  fmt(n: number | null | undefined): string;
  esc(s: string): string;
  layout(data: ViewData, collapsed: Record<number, boolean>): ViewLayout;
  svg(data: ViewData, collapsed: Record<number, boolean>, statement: number): { markup: string; layout: ViewLayout };
  size(node: ViewNode): [number, number];
}

export function planViewKit(): PlanViewKit {
  const OP_W = 200;
  const OP_H = 78;
  const OBJ_W = 152;
  const OBJ_H = 44;
  const GAP_X = 18;
  const ROW = OP_H + 50;
  const MARGIN = 24;

  /** Three significant digits with thousands separators; exponents below 0.001 and from a trillion. */
  function fmt(n: number | null | undefined): string {
    if (n === null || n === undefined || !isFinite(n)) return '?';
    if (n === 0) return '0';
    const a = Math.abs(n);
    if (a < 0.001 || a >= 1e12) return n.toExponential(2).replace('e+', 'e');
    return Number(n.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 6 });
  }

  function esc(s: string): string {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  }

  function size(node: ViewNode): [number, number] {
    return node.t === 'op' ? [OP_W, OP_H] : [OBJ_W, OBJ_H];
  }

  /**
   * Tidy tree: every subtree keeps the outline (leftmost and rightmost x per level) of what it draws, and
   * siblings are pushed apart just enough that their outlines do not touch. Outlines are stored deepest
   * level first with a lazy offset, and the shorter one is merged into the longer one, so a plan thousands
   * of levels deep or wide is laid out in about n·log(n) steps. Iterative: no recursion on the plan's depth.
   */
  function layout(data: ViewData, collapsed: Record<number, boolean>): ViewLayout {
    const n = data.nodes.length;
    const rel = new Array<number>(n).fill(0);
    const depth = new Array<number>(n).fill(0);
    const visible = new Array<boolean>(n).fill(false);
    type Outline = { L: number[]; R: number[]; off: number };
    const outline = new Array<Outline | undefined>(n);
    const kidsOf = (i: number) => (collapsed[i] ? [] : data.nodes[i].kids);
    // A virtual root (index n) holds the plan's roots side by side.
    const order: number[] = [];
    const stack: number[] = [...data.roots].reverse();
    for (const r of data.roots) depth[r] = 0;
    while (stack.length) {
      const i = stack.pop()!;
      if (visible[i]) continue;
      visible[i] = true;
      order.push(i);
      const kids = kidsOf(i);
      for (let k = kids.length - 1; k >= 0; k--) {
        depth[kids[k]] = depth[i] + 1;
        stack.push(kids[k]);
      }
    }
    const place = (kids: number[], width: number): Outline => {
      let merged: Outline | undefined;
      const offsets: number[] = [];
      for (const c of kids) {
        const o = outline[c]!;
        outline[c] = undefined;
        if (!merged) {
          merged = o;
          offsets.push(0);
          continue;
        }
        const lm = merged.L.length;
        const lc = o.L.length;
        const common = Math.min(lm, lc);
        let shift = -Infinity;
        for (let j = 0; j < common; j++) shift = Math.max(shift, merged.R[lm - 1 - j] + merged.off - (o.L[lc - 1 - j] + o.off) + GAP_X);
        offsets.push(shift);
        if (lc > lm) {
          o.off += shift;
          for (let j = 0; j < lm; j++) o.L[lc - 1 - j] = merged.L[lm - 1 - j] + merged.off - o.off;
          merged = o;
        } else {
          for (let j = 0; j < lc; j++) merged.R[lm - 1 - j] = o.R[lc - 1 - j] + o.off + shift - merged.off;
        }
      }
      const centre = merged ? (offsets[0] + offsets[offsets.length - 1]) / 2 : 0;
      kids.forEach((c, k) => (rel[c] = offsets[k] - centre));
      const result: Outline = merged ?? { L: [], R: [], off: 0 };
      result.off -= centre;
      result.L.push(-width / 2 - result.off);
      result.R.push(width / 2 - result.off);
      return result;
    };
    for (let k = order.length - 1; k >= 0; k--) {
      const i = order[k];
      outline[i] = place(kidsOf(i).filter((c) => visible[c]), size(data.nodes[i])[0]);
    }
    // The roots side by side, as the inputs of a virtual node of width 0 (sets their offsets).
    place(data.roots.filter((r) => visible[r]), 0);
    const x = new Array<number>(n).fill(NaN);
    const y = new Array<number>(n).fill(NaN);
    let min = Infinity;
    let max = -Infinity;
    let deepest = 0;
    for (const i of order) {
      if (depth[i] === 0) x[i] = rel[i];
      for (const c of kidsOf(i)) if (visible[c]) x[c] = x[i] + rel[c];
      y[i] = depth[i] * ROW;
      const w = size(data.nodes[i])[0];
      min = Math.min(min, x[i] - w / 2);
      max = Math.max(max, x[i] + w / 2);
      deepest = Math.max(deepest, depth[i]);
    }
    for (const i of order) {
      x[i] += MARGIN - min;
      y[i] += MARGIN;
    }
    return { x, y, visible, width: order.length ? max - min + 2 * MARGIN : 2 * MARGIN, height: deepest * ROW + OP_H + 2 * MARGIN + 20 };
  }

  function svg(data: ViewData, collapsed: Record<number, boolean>, statement: number): { markup: string; layout: ViewLayout } {
    const lay = layout(data, collapsed);
    const edges: string[] = [];
    const boxes: string[] = [];
    const maxLog = Math.log10(1 + Math.max(1, data.maxRows));
    const hiddenCount = (i: number): number => {
      let count = 0;
      const stack = [...data.nodes[i].kids];
      const seen: Record<number, boolean> = {};
      while (stack.length) {
        const j = stack.pop()!;
        if (seen[j]) continue;
        seen[j] = true;
        if (data.nodes[j].t === 'op') count++;
        stack.push(...data.nodes[j].kids);
      }
      return count;
    };
    for (let i = 0; i < data.nodes.length; i++) {
      if (!lay.visible[i]) continue;
      const node = data.nodes[i];
      const [w, h] = size(node);
      const x = lay.x[i];
      const yTop = lay.y[i];
      for (const c of collapsed[i] ? [] : node.kids) {
        if (!lay.visible[c]) continue;
        const rows = data.nodes[c].rows;
        const width = rows === undefined ? 1 : 1 + (6 * Math.log10(1 + Math.max(0, rows))) / maxLog;
        const x2 = lay.x[c];
        const y1 = yTop + h;
        const y2 = lay.y[c];
        const my = (y1 + y2) / 2;
        const label = rows === undefined ? '' : `<title>${esc(fmt(rows))} rows</title>`;
        edges.push(`<path class="edge" data-from="${i}" data-to="${c}" d="M${x.toFixed(1)} ${y1} C${x.toFixed(1)} ${my} ${x2.toFixed(1)} ${my} ${x2.toFixed(1)} ${y2}" stroke-width="${width.toFixed(2)}">${label}</path>`);
      }
      const left = (x - w / 2).toFixed(1);
      const op = node.op !== undefined ? ` data-op="${node.op}"` : '';
      const role = node.t === 'obj' ? 'img' : 'button';
      boxes.push(
        `<g class="node ${node.t}${node.cls ? ' ' + esc(node.cls) : ''}" data-i="${i}" data-statement="${statement}"${op} transform="translate(${left},${yTop})"` +
          `${node.t === 'obj' ? '' : ' tabindex="-1"'} role="${role}" aria-label="${esc(node.title)}">` +
          `<rect class="box" width="${w}" height="${h}" rx="${node.t === 'op' ? 4 : 10}"/>` +
          (node.t === 'op' ? `<rect class="heat" width="${w}" height="${h}" rx="4" opacity="${(0.03 + 0.3 * Math.max(0, Math.min(1, node.shade))).toFixed(3)}"/>` : '') +
          `<text class="name" x="${w / 2}" y="17">${esc(node.name)}</text>` +
          node.lines.map((l, k) => `<text class="l${k + 2}" x="${w / 2}" y="${33 + 15 * k}">${esc(l)}</text>`).join('') +
          `<title>${esc(node.title)}</title></g>`,
      );
      // Only operators with operator inputs fold; a box's own table or index stays with it.
      if (node.t === 'op' && node.kids.some((k) => data.nodes[k].t !== 'obj')) {
        const folded = !!collapsed[i];
        const count = folded ? hiddenCount(i) : 0;
        const label = folded ? `+${count}` : '−';
        const r = folded ? Math.max(11, label.length * 3.6 + 2) : 8;
        boxes.push(
          `<g class="toggle${folded ? ' folded' : ''}" data-toggle="${i}" data-statement="${statement}" transform="translate(${x.toFixed(1)},${yTop + h + 2 + r})" tabindex="-1" role="button" aria-expanded="${!folded}" aria-label="${folded ? `Expand ${count} hidden operator${count === 1 ? '' : 's'} under ${esc(node.name)}` : `Collapse the inputs of ${esc(node.name)}`}">` +
            `<circle r="${r}"/><text y="4">${label}</text></g>`,
        );
      }
    }
    return { markup: `<g class="edges">${edges.join('')}</g><g class="nodes">${boxes.join('')}</g>`, layout: lay };
  }

  return { fmt, esc, layout, svg, size };
}
