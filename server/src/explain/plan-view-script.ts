// The plan view's behaviour in the page (browser or VS Code webview): zoom, fit, pan with mouse and keys,
// collapse/expand subtrees (drawn again with planViewKit), operator details beside the tree, and the
// hidden-work rows lighting up their operators. The page embeds this function's source text, so it is
// self-contained and uses plain DOM calls only. It opens centred on the root at 100% at any width.
import type { PlanViewKit, ViewData, ViewLayout } from './plan-view';

// The page's globals; the engine itself has no DOM types.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const acquireVsCodeApi: undefined | (() => { getState(): any; setState(state: any): void });

export function planViewScript(kit: PlanViewKit): void {
  const AUTO_FOLD_ABOVE = 60;
  // In a VS Code webview the view's state (zoom, position, folds, selection) survives the panel being hidden.
  const host = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
  const saved: Record<string, any> = (host && host.getState()) || {};
  const dataElement = document.getElementById('insertlint-plan-data');
  const all: ({ view: ViewData; ops: any[] } | null)[] = JSON.parse(dataElement ? dataElement.textContent : '[]');
  document.querySelectorAll('.planview').forEach((root: any) => {
    const si = Number(root.getAttribute('data-statement'));
    if (all[si]) setup(root, si, all[si]!.view, all[si]!.ops);
  });

  function setup(root: any, si: number, view: ViewData, ops: any[]): void {
    const viewport = root.querySelector('.viewport');
    const svg = root.querySelector('svg.plan');
    const camera = svg.querySelector('.camera');
    const details = root.querySelector('.details');
    const zoomLabel = root.querySelector('.zoom');
    const rows = document.querySelectorAll(`tr.piece[data-statement="${si}"]`);
    const collapsed: Record<number, boolean> = {};
    const cam = { s: 1, x: 0, y: 0 };
    let lay: ViewLayout = kit.layout(view, collapsed);
    let moved = false;
    let selected = -1;
    let lit: number[] = [];
    let pinned: any = null;
    const parentOf: number[] = new Array(view.nodes.length).fill(-1);
    view.nodes.forEach((n, i) => n.kids.forEach((k) => (parentOf[k] = i)));
    const nodeOfOp: Record<number, number> = {};
    view.nodes.forEach((n, i) => {
      if (n.t === 'op' && n.op !== undefined) nodeOfOp[n.op] = i;
    });
    const opDetails: Record<number, any> = {};
    ops.forEach((o) => (opDetails[o.id] = o));
    const rootIndex = view.roots[0];

    viewport.classList.add('live');
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.removeAttribute('viewBox');

    function size(): { w: number; h: number } {
      return { w: viewport.clientWidth || 800, h: viewport.clientHeight || 500 };
    }
    const stateKey = `${si}:${view.nodes.length}:${view.nodes[rootIndex]?.name}`;
    function apply(): void {
      camera.setAttribute('transform', `translate(${cam.x.toFixed(1)},${cam.y.toFixed(1)}) scale(${cam.s.toFixed(4)})`);
      zoomLabel.textContent = `${Math.round(cam.s * 100)}%`;
      if (host) {
        saved[stateKey] = { cam, collapsed: Object.keys(collapsed).map(Number), selected, moved };
        host.setState(saved);
      }
    }
    function draw(): void {
      const r = kit.svg(view, collapsed, si);
      camera.innerHTML = r.markup;
      lay = r.layout;
      restyle();
      apply();
    }
    function restyle(): void {
      svg.classList.toggle('lighting', lit.length > 0);
      camera.querySelectorAll('.node').forEach((el: any) => {
        const i = Number(el.getAttribute('data-i'));
        const op = el.hasAttribute('data-op') ? Number(el.getAttribute('data-op')) : NaN;
        el.classList.toggle('selected', i === selected);
        el.classList.toggle('lit', lit.indexOf(op) >= 0);
        if (el.getAttribute('tabindex') !== null) el.setAttribute('tabindex', i === (selected >= 0 ? selected : rootIndex) ? '0' : '-1');
      });
    }
    function zoomAt(factor: number, px?: number, py?: number): void {
      const { w, h } = size();
      const x = px === undefined ? w / 2 : px;
      const y = py === undefined ? h / 2 : py;
      const s = Math.min(4, Math.max(0.05, cam.s * factor));
      cam.x = x - ((x - cam.x) * s) / cam.s;
      cam.y = y - ((y - cam.y) * s) / cam.s;
      cam.s = s;
      moved = true;
      apply();
    }
    function centreRoot(): void {
      cam.s = 1;
      cam.x = size().w / 2 - lay.x[rootIndex];
      cam.y = 12 - lay.y[rootIndex];
      apply();
    }
    /** Fits the given nodes (all visible nodes by default) into the window, never above 100%. */
    function fit(indices?: number[]): void {
      const list = (indices ?? view.nodes.map((_, i) => i)).filter((i) => lay.visible[i]);
      if (list.length === 0) return;
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (const i of list) {
        const [w, h] = kit.size(view.nodes[i]);
        x0 = Math.min(x0, lay.x[i] - w / 2);
        x1 = Math.max(x1, lay.x[i] + w / 2);
        y0 = Math.min(y0, lay.y[i]);
        y1 = Math.max(y1, lay.y[i] + h + 24);
      }
      const { w, h } = size();
      cam.s = Math.max(0.05, Math.min(1, (w - 32) / (x1 - x0), (h - 32) / (y1 - y0)));
      cam.x = w / 2 - ((x0 + x1) / 2) * cam.s;
      cam.y = h / 2 - ((y0 + y1) / 2) * cam.s;
      moved = true;
      apply();
    }
    /** Pans just enough to bring node i into the window. */
    function reveal(i: number): void {
      if (!lay.visible[i]) return;
      const [nw, nh] = kit.size(view.nodes[i]);
      const { h } = size();
      // Details floating over the drawing (a narrow editor) hide its right side.
      const floating = window.getComputedStyle(details).position === 'absolute' && !details.classList.contains('empty');
      const w = size().w - (floating ? details.offsetWidth + 16 : 0);
      const left = (lay.x[i] - nw / 2) * cam.s + cam.x;
      const right = (lay.x[i] + nw / 2) * cam.s + cam.x;
      const top = lay.y[i] * cam.s + cam.y;
      const bottom = (lay.y[i] + nh) * cam.s + cam.y;
      if (left < 16) cam.x += 16 - left;
      else if (right > w - 16) cam.x -= right - (w - 16);
      if (top < 16) cam.y += 16 - top;
      else if (bottom > h - 16) cam.y -= bottom - (h - 16);
      apply();
    }
    /** Expands every collapsed ancestor of node i. */
    function unfoldTo(i: number): boolean {
      let changed = false;
      for (let a = parentOf[i]; a >= 0; a = parentOf[a]) {
        if (collapsed[a]) {
          delete collapsed[a];
          changed = true;
        }
      }
      return changed;
    }
    /** Draws again after a fold changed, keeping node i where it was on screen. */
    function redrawAround(i: number): void {
      const sx = lay.x[i] * cam.s + cam.x;
      const sy = lay.y[i] * cam.s + cam.y;
      draw();
      if (!lay.visible[i]) return;
      cam.x = sx - lay.x[i] * cam.s;
      cam.y = sy - lay.y[i] * cam.s;
      apply();
    }
    function toggle(i: number): void {
      if (collapsed[i]) delete collapsed[i];
      else collapsed[i] = true;
      if (selected >= 0 && !isShown(selected)) selected = i;
      redrawAround(i);
      focusNode(i, false);
    }
    function foldable(i: number): boolean {
      return view.nodes[i].t === 'op' && view.nodes[i].kids.some((k) => view.nodes[k].t !== 'obj');
    }
    function isShown(i: number): boolean {
      for (let a = parentOf[i]; a >= 0; a = parentOf[a]) if (collapsed[a]) return false;
      return true;
    }
    function element(i: number): any {
      return camera.querySelector(`.node[data-i="${i}"]`);
    }
    function focusNode(i: number, pan: boolean): void {
      const el = element(i);
      if (!el) return;
      restyle();
      el.setAttribute('tabindex', '0');
      el.focus({ preventScroll: true });
      if (pan) reveal(i);
    }
    function select(i: number, pan = true): void {
      const node = view.nodes[i];
      if (!node || node.t === 'obj') return;
      if (node.t === 'ref' && node.op !== undefined) i = nodeOfOp[node.op];
      if (unfoldTo(i)) {
        let a = parentOf[i];
        while (a >= 0 && !lay.visible[a]) a = parentOf[a];
        redrawAround(a >= 0 ? a : rootIndex);
      }
      selected = i;
      restyle();
      showDetails(view.nodes[i].op!);
      // A click leaves the view where it is, unless the details now float over the clicked box.
      focusNode(i, pan || window.getComputedStyle(details).position === 'absolute');
    }
    function cell(tr: any, tag: string, text: string, title?: string): any {
      const el = document.createElement(tag);
      el.textContent = text;
      if (title) el.title = title;
      tr.appendChild(el);
      return el;
    }
    function showDetails(id: number): void {
      const op = opDetails[id];
      if (!op) return;
      details.textContent = '';
      details.classList.remove('empty');
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'close';
      close.textContent = '×';
      close.setAttribute('aria-label', 'Close the details');
      close.addEventListener('click', unselect);
      details.appendChild(close);
      const h = document.createElement('h3');
      h.textContent = `${op.label} (${op.id})`;
      details.appendChild(h);
      const role = document.createElement('p');
      role.className = `role ${op.cls}`;
      role.textContent = `${op.longName ? op.longName + ' · ' : ''}${op.role ?? 'no hidden work'}`;
      details.appendChild(role);
      const table = document.createElement('table');
      const row = (name: string, value: string, title?: string) => {
        const tr = document.createElement('tr');
        cell(tr, 'th', name);
        cell(tr, 'td', value, title);
        table.appendChild(tr);
        return tr;
      };
      const num = (name: string, v: number | null, unit = '') => {
        if (v !== null && v !== undefined) row(name, kit.fmt(v) + unit, String(v));
      };
      num('Rows (estimated)', op.rows);
      num('Rows (actual)', op.actualRows);
      num('Cumulative cost', op.totalCost, ' timerons');
      const percent = (x: number) => (x > 0 && x < 0.001 ? '<0.1%' : `${kit.fmt(x * 100)}%`);
      if (op.ownCost !== null) row('Own cost', `${kit.fmt(op.ownCost)} timerons${op.ownShare !== null ? ` (${percent(op.ownShare)} of the plan)` : ''}`, String(op.ownCost));
      num('I/O cost', op.ioCost, ' pages');
      num('CPU cost', op.cpuCost, ' instructions');
      num('First-row cost', op.firstRowCost, ' timerons');
      if (op.inputs.length) {
        const tr = row('Inputs', '');
        const td = tr.lastChild;
        op.inputs.forEach((input: { id: number; label: string }, k: number) => {
          if (k) td.appendChild(document.createTextNode(', '));
          const b = document.createElement('button');
          b.type = 'button';
          b.className = 'link';
          b.textContent = `${input.label} (${input.id})`;
          b.addEventListener('click', () => select(nodeOfOp[input.id]));
          td.appendChild(b);
        });
      }
      if (op.objects.length) row('Objects', op.objects.map((o: { key: string; written: boolean }) => o.key + (o.written ? ' (written)' : '')).join(', '));
      if (op.flags.length) row('Symbols', op.flags.join(', '));
      op.arguments.forEach((a: { name: string; value: string }) => row(a.name, a.value));
      op.predicates.forEach((p: { howApplied: string; text: string }) => row(`${p.howApplied} predicate`, p.text));
      details.appendChild(table);
    }
    function unselect(): void {
      selected = -1;
      details.classList.add('empty');
      details.textContent = 'Select an operator to see its details here.';
      restyle();
      viewport.focus({ preventScroll: true });
    }
    function light(list: number[]): void {
      lit = list;
      restyle();
    }
    function pieceOps(tr: any): number[] {
      return String(tr.getAttribute('data-ops') || '')
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    }

    // Pieces of hidden work: hover or focus lights their operators; a click pins them and brings them into view.
    rows.forEach((tr: any) => {
      const on = () => light(pieceOps(tr));
      const off = () => light(pinned ? pieceOps(pinned) : []);
      tr.addEventListener('mouseenter', on);
      tr.addEventListener('focus', on);
      tr.addEventListener('mouseleave', off);
      tr.addEventListener('blur', off);
      const pin = () => {
        rows.forEach((r: any) => r !== tr && r.classList.remove('pinned'));
        pinned = pinned === tr ? null : tr;
        tr.classList.toggle('pinned', pinned === tr);
        const list = pieceOps(tr);
        light(pinned ? list : []);
        if (pinned) {
          let changed = false;
          for (const id of list) if (nodeOfOp[id] !== undefined && unfoldTo(nodeOfOp[id])) changed = true;
          if (changed) draw();
          fit(list.map((id) => nodeOfOp[id]).filter((i) => i !== undefined));
        }
      };
      tr.addEventListener('click', pin);
      tr.addEventListener('keydown', (e: any) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          pin();
        }
      });
    });

    root.querySelector('.toolbar').addEventListener('click', (e: any) => {
      const b = e.target.closest('button[data-act]');
      if (!b) return;
      const act = b.getAttribute('data-act');
      if (act === 'in') zoomAt(1.25);
      else if (act === 'out') zoomAt(0.8);
      else if (act === 'fit') fit();
      else if (act === 'root') {
        centreRoot();
        moved = false;
      } else if (act === 'expand') {
        for (const k of Object.keys(collapsed)) delete collapsed[Number(k)];
        redrawAround(selected >= 0 ? selected : rootIndex);
      } else if (act === 'collapse') {
        view.nodes.forEach((_, i) => {
          if (foldable(i) && i !== rootIndex && parentOf[i] !== rootIndex) collapsed[i] = true;
        });
        draw();
        centreRoot();
      }
    });

    svg.addEventListener('click', (e: any) => {
      if (dragged) return;
      const t = e.target.closest('.toggle');
      if (t) return toggle(Number(t.getAttribute('data-toggle')));
      const n = e.target.closest('.node');
      if (n) select(Number(n.getAttribute('data-i')), false);
    });

    // Keys: on a node, arrows walk the tree, Enter selects, x collapses; elsewhere in the view they pan and zoom.
    viewport.addEventListener('keydown', (e: any) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target.closest ? e.target.closest('.node, .toggle') : null;
      const i = t && t.classList.contains('node') ? Number(t.getAttribute('data-i')) : -1;
      const key = e.key;
      let handled = true;
      if (t && t.classList.contains('toggle') && (key === 'Enter' || key === ' ')) toggle(Number(t.getAttribute('data-toggle')));
      else if (i >= 0 && (key === 'Enter' || key === ' ')) select(i);
      else if (i >= 0 && (key === 'x' || key === 'X') && foldable(i)) toggle(i);
      else if (i >= 0 && key === 'ArrowUp' && parentOf[i] >= 0) focusNode(parentOf[i], true);
      else if (i >= 0 && key === 'ArrowDown' && !collapsed[i] && view.nodes[i].kids.some((k) => view.nodes[k].t !== 'obj')) {
        focusNode(view.nodes[i].kids.find((k) => view.nodes[k].t !== 'obj')!, true);
      } else if (i >= 0 && (key === 'ArrowLeft' || key === 'ArrowRight') && parentOf[i] >= 0) {
        const sibs = view.nodes[parentOf[i]].kids.filter((k) => view.nodes[k].t !== 'obj');
        const next = sibs[sibs.indexOf(i) + (key === 'ArrowLeft' ? -1 : 1)];
        if (next !== undefined) focusNode(next, true);
      } else if (key === 'ArrowLeft') pan(60, 0);
      else if (key === 'ArrowRight') pan(-60, 0);
      else if (key === 'ArrowUp') pan(0, 60);
      else if (key === 'ArrowDown') pan(0, -60);
      else if (key === '+' || key === '=') zoomAt(1.25);
      else if (key === '-' || key === '_') zoomAt(0.8);
      else if (key === '0') fit();
      else if (key === 'Home') {
        centreRoot();
        moved = false;
      } else if (key === 'Escape') {
        light([]);
        unselect();
      } else handled = false;
      if (handled) e.preventDefault();
    });
    function pan(dx: number, dy: number): void {
      cam.x += dx;
      cam.y += dy;
      moved = true;
      apply();
    }

    // Mouse: drag to pan, wheel to zoom around the pointer.
    let drag: { x: number; y: number; id: number } | null = null;
    let dragged = false;
    viewport.addEventListener('pointerdown', (e: any) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, id: e.pointerId };
      dragged = false;
    });
    viewport.addEventListener('pointermove', (e: any) => {
      if (!drag || e.pointerId !== drag.id) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (!dragged && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!dragged) {
        dragged = true;
        viewport.classList.add('dragging');
        viewport.setPointerCapture(e.pointerId);
      }
      drag.x = e.clientX;
      drag.y = e.clientY;
      pan(dx, dy);
    });
    const endDrag = () => {
      drag = null;
      viewport.classList.remove('dragging');
      // The click that ends a drag must not select what is under the pointer.
      window.setTimeout(() => (dragged = false), 0);
    };
    viewport.addEventListener('pointerup', endDrag);
    viewport.addEventListener('pointercancel', endDrag);
    viewport.addEventListener(
      'wheel',
      (e: any) => {
        e.preventDefault();
        const r = viewport.getBoundingClientRect();
        const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
        zoomAt(Math.exp(-e.deltaY * unit * 0.0015), e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );
    // Until the user moves the view, keep the root centred whatever the panel's width.
    if (window.ResizeObserver) new window.ResizeObserver(() => !moved && centreRoot()).observe(viewport);

    // A large plan opens with the subtrees below level 3 folded, except where the statement's own DML and its
    // hidden work are: the top of the plan fits on screen and every fold says how many operators it holds.
    const opCount = view.nodes.filter((n) => n.t === 'op').length;
    if (opCount > AUTO_FOLD_ABOVE) {
      const depth: number[] = new Array(view.nodes.length).fill(0);
      const keep: boolean[] = new Array(view.nodes.length).fill(false);
      const order: number[] = [...view.roots];
      for (let k = 0; k < order.length; k++) for (const c of view.nodes[order[k]].kids) (depth[c] = depth[order[k]] + 1), order.push(c);
      view.nodes.forEach((n, i) => {
        if (/\b(main|hidden)\b/.test(n.cls)) for (let a = i; a >= 0 && !keep[a]; a = parentOf[a]) keep[a] = true;
      });
      for (const i of order) if (foldable(i) && depth[i] >= 3 && !keep[i] && isShown(i)) collapsed[i] = true;
      root.querySelector('.hint').textContent = `${opCount} operators, levels below 3 folded (Expand all shows them) · drag or arrow keys: pan · wheel, + and −: zoom · 0: fit · Home: root · x: fold`;
    }

    const previous = saved[stateKey];
    if (previous) {
      for (const k of Object.keys(collapsed)) delete collapsed[Number(k)];
      for (const i of previous.collapsed) collapsed[i] = true;
    }
    draw();
    centreRoot();
    if (previous) {
      Object.assign(cam, previous.cam);
      moved = previous.moved;
      if (previous.selected >= 0 && lay.visible[previous.selected]) {
        selected = previous.selected;
        showDetails(view.nodes[selected].op!);
        restyle();
      }
      apply();
    }
  }
}
