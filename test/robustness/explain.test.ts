// Robustness of Explain: the db2exfmt parser, the hidden-work classifier and the renderers never throw on
// random or damaged plans, survive a 10,000-operator plan, and parse time grows linearly with plan size.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { classifyHiddenWork } from '../../server/src/explain/classify';
import { explainDocument } from '../../server/src/explain/report';
import { render, EXPLAIN_FORMATS } from '../../server/src/explain/render';
import { writeExfmt, type WOperator } from '../explain/helpers/exfmt-writer';
import { anyText, growthRatio, mutated } from './support';
import { chainPlan, smallInsertPlan } from './plans';

/** Everything a user's plan goes through in `insertlint explain`: must not throw. */
function explainAll(text: string): void {
  const doc = parseExfmt(text);
  for (const stmt of doc.statements) {
    const plan = stmt.plan;
    if (!plan) continue;
    const ids = new Set(plan.operators.map((o) => o.id));
    assert.equal(ids.size, plan.operators.length, 'operator ids are unique');
    for (const op of plan.operators) for (const c of op.children) assert.ok(ids.has(c), `operator ${op.id} names input ${c}, which does not exist`);
    classifyHiddenWork(stmt);
  }
  const report = explainDocument(doc);
  for (const format of EXPLAIN_FORMATS) assert.equal(typeof render(report, format), 'string');
}

/** A balanced tree of joins over scans under an INSERT, `count` operators (wide, not deep). */
function widePlan(count: number): string {
  let next = 3;
  const tree = (budget: number): WOperator => {
    const id = next++;
    if (budget <= 1) return { id, label: 'TBSCAN', rows: 10, cost: 5, io: 1, inputs: [{ type: 'TABLE', schema: 'S', name: `T${id}`, q: `Q${id}`, rows: 10 }] };
    const half = Math.floor((budget - 1) / 2);
    const left = tree(half);
    const right = tree(budget - 1 - half);
    return { id, label: 'HSJOIN', rows: 10, cost: left.cost + right.cost + 1, io: 2, inputs: [left, right] };
  };
  const select = tree(count - 2);
  const insert: WOperator = { id: 2, label: 'INSERT', rows: 10, cost: select.cost + 1, io: 3, inputs: [select], writes: { type: 'TABLE', schema: 'APP', name: 'T', rows: 100 } };
  return writeExfmt([{ queryNo: 1, original: 'INSERT INTO APP.T SELECT …', optimized: 'INSERT …', root: { id: 1, label: 'RETURN', rows: 10, cost: insert.cost, io: 3, inputs: [insert] }, objects: [] }]);
}

describe('robustness: explain (db2exfmt parser, classifier, renderers)', function () {
  this.timeout(60_000);
  const seed = smallInsertPlan();

  it('reads the seed plan: 6 operators, no warnings', () => {
    const s = parseExfmt(seed).statements[0];
    assert.equal(s.plan!.operators.length, 6);
    assert.deepEqual(s.warnings, []);
    explainAll(seed);
  });

  it('never throws on any string', () => {
    fc.assert(fc.property(anyText, (text) => explainAll(text)), { numRuns: 500 });
  });

  it('never throws on damaged copies of a plan (lines cut, duplicated, moved, characters inserted)', () => {
    fc.assert(fc.property(mutated(seed), (text) => explainAll(text)), { numRuns: 400 });
  });

  it('never throws on plans with lines shuffled, re-indented or stripped of indentation', () => {
    const lines = seed.split('\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(lines.length - 1), fc.constantFrom('drop', 'flush', 'indent', 'swap', 'crlf')), { minLength: 1, maxLength: 30 }), (edits) => {
        const copy = [...lines];
        for (const [at, kind] of edits) {
          const i = at % copy.length;
          if (kind === 'drop') copy.splice(i, 1);
          else if (kind === 'flush') copy[i] = copy[i].trimStart();
          else if (kind === 'indent') copy[i] = '    ' + copy[i];
          else if (kind === 'crlf') copy[i] += '\r';
          else [copy[i], copy[(i + 7) % copy.length]] = [copy[(i + 7) % copy.length], copy[i]];
          if (copy.length === 0) break;
        }
        explainAll(copy.join('\n'));
      }),
      { numRuns: 300 },
    );
  });

  it('parses, classifies and renders a 10,000-operator plan (a chain 10,000 deep)', () => {
    const doc = parseExfmt(chainPlan(10_000));
    assert.equal(doc.statements[0].plan!.operators.length, 10_000);
    explainAll(chainPlan(10_000));
  });

  it('parses a chain plan in time linear in its length', () => {
    const { ratio, smallMs, largeMs } = growthRatio((n) => chainPlan(n), (text) => parseExfmt(text), 150);
    assert.ok(ratio < 24, `8× the operators took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('parses a wide plan (balanced joins) in time linear in its size', () => {
    // The graph of a balanced tree gets wider with every level (lines of thousands of characters) and the
    // text grows a little faster than the operators, so the time is compared per byte of text.
    const sizeRatio = widePlan(1920).length / widePlan(120).length;
    const { ratio, smallMs, largeMs } = growthRatio((n) => widePlan(n), (text) => parseExfmt(text), 120, 16, 2 * sizeRatio);
    const perByte = ratio / sizeRatio;
    assert.ok(perByte < 2, `16× the operators (${sizeRatio.toFixed(1)}× the text) took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): ${perByte.toFixed(1)}× the time per byte, super-linear`);
  });

  it('rebuilds a wide plan pasted with its spaces collapsed (row by row) in time linear in its size', () => {
    // No Plan Details: the tree must come from the order of the boxes (server/src/explain/exfmt-levels.ts).
    const whole = new Map([120, 1920].map((n) => [n, widePlan(n)]));
    const damaged = (n: number) => {
      const text = whole.get(n)!;
      return text.slice(0, text.indexOf('Plan Details:')).replace(/ {2,}/g, ' ');
    };
    // Its numbers run past 99, where "( 123)" reads the same collapsed or not: the shorter ones tell.
    const st = parseExfmt(damaged(1920)).statements[0];
    assert.deepEqual(st.warnings.map((w) => w.code), ['damaged-graph-levels']);
    assert.deepEqual(st.plan!.operators.map((o) => o.children), parseExfmt(whole.get(1920)!).statements[0].plan!.operators.map((o) => o.children));
    const sizeRatio = damaged(1920).length / damaged(120).length;
    const { ratio, smallMs, largeMs } = growthRatio(damaged, (text) => parseExfmt(text), 120, 16, 2 * sizeRatio);
    const perByte = ratio / sizeRatio;
    assert.ok(perByte < 2, `16× the operators (${sizeRatio.toFixed(1)}× the text) took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): ${perByte.toFixed(1)}× the time per byte, super-linear`);
  });

  it('reads header, banner and statement lines padded with thousands of blanks in linear time', () => {
    // A 211 KB db2exfmt header line took 40 s: `KEY: value` lines were split by lazy regexes that rescan the blanks.
    const lines = seed.split('\n');
    const header = lines.findIndex((l) => /^[A-Z_]+:/.test(l));
    const queryNo = lines.findIndex((l) => /QUERYNO:/.test(l));
    assert.ok(header >= 0 && queryNo >= 0, 'the seed plan has a header field and a QUERYNO line');
    const padded = (n: number) => {
      const out = [...lines];
      const blanks = ' '.repeat(n);
      out[header] = `${out[header]}${blanks}x${blanks}\u0001`;
      out[queryNo] = `\tQUERYNO:${blanks}1${blanks}\u0001`;
      out.unshift(`DB2 Version ${'1'.repeat(n)} banner`);
      return out.join('\n');
    };
    const { ratio, smallMs, largeMs } = growthRatio(padded, (text) => parseExfmt(text), 1000);
    assert.ok(ratio < 24, `8× the padding took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('reads a predicate line padded with thousands of blanks in linear time', () => {
    // Damaged pastes pad lines; "n) … Predicate" lines are matched by a regex in server/src/explain/exfmt.ts.
    assert.ok(seed.includes('2) Sargable Predicate,'));
    const padded = (n: number) => seed.replace('2) Sargable Predicate,', `2)${' '.repeat(n)}x`);
    const { ratio, smallMs, largeMs } = growthRatio(padded, (text) => parseExfmt(text), 100);
    assert.ok(ratio < 24, `8× the padding took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });
});
