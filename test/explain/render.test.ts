import * as assert from 'node:assert/strict';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { explainDocument } from '../../server/src/explain/report';
import { renderHtml, renderJson, renderMarkdown, renderText } from '../../server/src/explain/render';
import { factsExplainContext } from '../../server/src/explain/schema-context';
import { fixture } from './helpers/fixtures';
import fc from 'fast-check';
import { writeExfmt, type WOperator } from './helpers/exfmt-writer';
import { insertFkFetchPlan } from './helpers/make-fixtures';
import { shownShares } from '../../server/src/explain/describe';
import type { HiddenWorkReport } from '../../server/src/explain/classify';

const ctx = factsExplainContext({
  foreignKeys: [{ name: 'FK_LINE_ORDER', child: 'SHOP.ORDER_LINE', parent: 'SHOP.ORDERS' }],
  triggers: [{ name: 'SHOP.TRG_LINE_AUDIT', table: 'SHOP.ORDER_LINE', timing: 'after', writes: ['SHOP.ORDER_LINE_AUDIT'] }],
  mqts: [{ name: 'SHOP.SALES_BY_PRODUCT', baseTables: ['SHOP.ORDER_LINE'] }],
});

function report(name = 'insert-fk-trigger-mqt.exfmt.txt') {
  return explainDocument(parseExfmt(fixture(name)), ctx, name);
}

describe('explain: renderers', () => {
  it('json has exactly the documented shape per statement and operator', () => {
    const json = JSON.parse(renderJson(report()));
    assert.ok(Array.isArray(json.statements));
    const s = json.statements[0];
    assert.equal(s.text, 'INSERT INTO shop.order_line (order_id, line_no, product_id, qty) VALUES (?, ?, ?, ?)');
    assert.equal(s.totalCost, 32.6041);
    assert.equal(s.operators.length, 13);
    for (const op of s.operators) {
      for (const key of ['id', 'type', 'totalCost', 'ioCost', 'rows', 'children', 'objects', 'hidden']) assert.ok(key in op, `operator ${op.id} has ${key}`);
      assert.ok(Array.isArray(op.children) && op.children.every((c: unknown) => typeof c === 'number'));
      assert.ok(op.objects.every((o: string) => /^[^.]+\.[^.]+$/.test(o)));
      assert.ok(op.hidden === null || ['foreign-key-check', 'trigger', 'mqt-maintenance', 'ri-cascade', 'check-constraint'].includes(op.hidden));
    }
    const byId = Object.fromEntries(s.operators.map((o: { id: number }) => [o.id, o]));
    assert.deepEqual(byId[8], { ...byId[8], id: 8, type: 'IXSCAN', totalCost: 3.1234, ioCost: 0, rows: 4.5e-5, children: [], objects: ['SYSIBM.SQL250101120000100'], hidden: 'foreign-key-check' });
    assert.deepEqual(byId[6].objects, ['SHOP.ORDER_LINE']);
    assert.equal(byId[6].hidden, null);
    // RETURN shows the legend; it returns its input's rows.
    assert.equal(byId[1].rows, 1);
    assert.deepEqual(byId[5].children, [6, 8]);
    assert.deepEqual(
      s.hiddenWork.map((h: { kind: string }) => h.kind),
      ['mqt-maintenance', 'trigger', 'foreign-key-check'],
    );
  });

  it('text draws the tree, labels hidden work with shares, and colours only when asked', () => {
    const plain = renderText(report());
    assert.ok(!plain.includes('\u001b['), 'no ANSI without color');
    assert.match(plain, /^Statement 1 \(section 201\)$/m);
    assert.match(plain, /│  │  └─ \^NLJOIN \(5\)  rows 1  cost 15\.9702  own 0\.0012  io 1  ◀ foreign-key check 9\.6%$/m);
    assert.match(plain, /INSERT \(6\) .* ◀ the insert$/m);
    assert.match(plain, /UPDATE \(11\) .* ◀ MQT maintenance 27\.9%$/m);
    assert.match(plain, /└─ TABLE SHOP\.ORDER_LINE \(written\)  rows 25000$/m);
    assert.match(plain, /^27\.9% of the estimated cost is maintenance/m);
    const colored = renderText(report(), { color: true });
    assert.ok(colored.includes('\u001b[33m^NLJOIN (5)\u001b[0m'), 'FK check in yellow');
    assert.ok(colored.includes('\u001b[1;32mINSERT (6)\u001b[0m'), 'the insert in green');
  });

  it('markdown has the verdict, a hidden-work table and the tree in a details block', () => {
    const md = renderMarkdown(report());
    assert.match(md, /^### Explain$/m);
    assert.match(md, /^\*\*Verdict:\*\* 27\.9% of the estimated cost/m);
    // Names are escaped for Markdown: SALES_BY_PRODUCT renders as written, not in italics.
    assert.match(md, /^\| MQT maintenance \(SHOP\.SALES\\_BY\\_PRODUCT\) \| 2, 11, 12, 13 \| 9\.1008 \| 27\.9% \|$/m);
    assert.match(md, /^\| foreign-key check \(FK\\_LINE\\_ORDER\) \| 5, 8 \| 3\.1246 \| 9\.6% \|$/m);
    assert.match(md, /<details><summary>Access plan<\/summary>/);
    assert.match(md, /IXSCAN \(8\)  cost 3\.1234  io 0  <- foreign-key check/);
  });

  it('html is one self-contained page: inline svg, no external URLs, theme variables, nonce on inline tags', () => {
    const html = renderHtml(report(), { nonce: 'abc123' });
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.match(html, /<\/html>\n$/);
    assert.doesNotMatch(html, /https?:\/\//, 'no URLs at all');
    assert.doesNotMatch(html, /\b(src|href)=/i, 'no linked assets');
    assert.match(html, /<svg class="plan"[^>]*>/);
    assert.equal((html.match(/<g class="node op/g) ?? []).length, 13);
    assert.match(html, /<g class="node op hidden fk" data-i="\d+" data-statement="0" data-op="8"/);
    assert.match(html, /<g class="node op main" data-i="\d+" data-statement="0" data-op="6"/);
    // Words, not ids, for the hidden-work classes; the plan view's controls.
    assert.match(html, /<text class="l4" x="100" y="63">foreign-key check 9\.6%<\/text>/);
    assert.match(html, /<li class="trigger-or-mqt">trigger or MQT maintenance<\/li>/);
    for (const act of ['in', 'out', 'fit', 'root', 'expand', 'collapse']) assert.match(html, new RegExp(`<button type="button" data-act="${act}"`));
    assert.match(html, /<tr class="piece fk" data-statement="0" data-ops="5 8" tabindex="0"/);
    assert.match(html, /<aside class="details empty" id="details-0" aria-live="polite">/);
    assert.match(html, /var\(--vscode-editor-background, #ffffff\)/);
    assert.match(html, /@media \(prefers-color-scheme: dark\)/);
    assert.match(html, /<style nonce="abc123">/);
    assert.match(html, /<script nonce="abc123">/);
    assert.match(html, /script-src 'nonce-abc123'/);
    // Balanced tags (a cheap well-formedness check for the elements we emit).
    for (const tag of ['svg', 'g', 'section', 'script', 'style', 'table', 'ul', 'pre', 'p', 'div', 'aside', 'button', 'text']) {
      const open = (html.match(new RegExp(`<${tag}[\\s>]`, 'g')) ?? []).length;
      const close = (html.match(new RegExp(`</${tag}>`, 'g')) ?? []).length;
      assert.equal(open, close, `<${tag}> balanced`);
    }
    const data = /<script type="application\/json" id="insertlint-plan-data" nonce="abc123">(.*?)<\/script>/s.exec(html);
    assert.ok(data);
    const embedded = JSON.parse(data[1])[0];
    assert.equal(embedded.ops.length, 13);
    assert.equal(embedded.view.nodes.filter((n: { t: string }) => n.t === 'op').length, 13);
    const plain = renderHtml(report());
    assert.match(plain, /<style>/);
    assert.match(plain, /script-src 'unsafe-inline'/);
  });

  it('html escapes names and statement text, and keeps </script> out of the embedded data', () => {
    const doc = parseExfmt(fixture('seed-fk-insert-graph.txt'));
    doc.statements[0].originalText = 'INSERT INTO "a<b>" VALUES (\'</script><script>x()</script>\')';
    doc.statements[0].plan!.operators[6].predicates.push({ howApplied: 'Sargable', text: '</script><b>' });
    const html = renderHtml(explainDocument(doc));
    assert.doesNotMatch(html, /<script>x\(\)/);
    assert.doesNotMatch(html, /<\/script><b>/);
    assert.match(html, /INSERT INTO &quot;a&lt;b&gt;&quot;/);
  });

  it('shows shares that add up: 37.5% hidden and 62.5% the INSERT are 38% and 62%, not 38% and 63%', () => {
    // The corpus's h2 shape: an FK check (NLJOIN 2, FETCH 5, IXSCAN 6) of 15 timerons, the INSERT of 25, in 40.
    const plan = insertFkFetchPlan();
    const nljoin = plan.root.inputs[0] as WOperator;
    const [insert, fetch] = nljoin.inputs as WOperator[];
    plan.root.cost = nljoin.cost = 40;
    insert.cost = 25;
    fetch.cost = 15;
    (fetch.inputs[0] as WOperator).cost = 7.5;
    const r = explainDocument(parseExfmt(writeExfmt([plan])), undefined, 'h2');
    assert.equal(r.statements[0].report.pieces[0].share, 0.375);
    assert.equal(r.statements[0].report.mainShare, 0.625);
    const verdict = r.statements[0].report.verdict;
    assert.match(verdict, /^38% of the estimated cost is a foreign-key check .* In all, hidden work is 38% of the estimated 40 timerons; the INSERT itself \(operator 3 with its input\) accounts for 62%\.$/);
    assert.match(renderText(r), /FETCH \(5\) .* ◀ foreign-key check 38%$/m);
    assert.match(renderMarkdown(r), /^\| foreign-key check \| 2, 5, 6 \| 15 \| 38% \|$/m);
    assert.match(renderHtml(r), /<td>38%<\/td><\/tr>/);
    assert.equal(JSON.parse(renderJson(r)).statements[0].verdict, verdict);
  });

  it('rounds the shares together: the pieces add up to the hidden work, and with the statement\'s own to at most 100%', () => {
    const share = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.005, 0.095, 0.125, 0.375, 0.625, 0.9995));
    fc.assert(
      fc.property(fc.array(share, { maxLength: 6 }), share, (raw, mainRaw) => {
        // Shares of one plan cover at most its cost.
        const all = [...raw, mainRaw];
        const sum = all.reduce((a, b) => a + b, 0);
        const scaled = sum > 1 ? all.map((x) => x / sum) : all;
        const report = { pieces: scaled.slice(0, -1).map((x) => ({ share: x })), mainShare: scaled[scaled.length - 1] } as unknown as HiddenWorkReport;
        const shown = shownShares(report);
        const num = (t: string) => Number(t.replace('%', ''));
        const tenths = shown.pieces.concat(shown.main).some((t) => t.includes('.'));
        const unit = tenths ? 10 : 1;
        const total = (xs: string[]) => Math.round(xs.reduce((a, t) => a + num(t) * unit, 0));
        assert.equal(total(shown.pieces), Math.round(num(shown.hidden) * unit), JSON.stringify(shown));
        const shownAll = total([...shown.pieces, shown.main]);
        assert.ok(shownAll <= 100 * unit, JSON.stringify({ scaled, shown }));
        // Shares covering the whole cost are shown as 100%.
        if (Math.abs(scaled.reduce((a, b) => a + b, 0) - 1) < 1e-12) assert.equal(shownAll, 100 * unit, JSON.stringify({ scaled, shown }));
        // Each is its share rounded one way or the other.
        scaled.forEach((x, i) => assert.ok(Math.abs(num(i < shown.pieces.length ? shown.pieces[i] : shown.main) - x * 100) < 1 / unit + 1e-9, JSON.stringify({ x, shown })));
      }),
    );
  });

  it('renders errors for a damaged text instead of a tree', () => {
    const r = explainDocument(parseExfmt(fixture('damaged-flushed-shared-temp-graph.txt')));
    assert.match(renderText(r), /error: The Access Plan graph is damaged/);
    assert.match(renderMarkdown(r), /> \*\*Error:\*\* The Access Plan graph is damaged/);
    assert.match(renderHtml(r), /<p class="error">The Access Plan graph is damaged/);
  });
});
