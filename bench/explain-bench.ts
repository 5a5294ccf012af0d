// Explain throughput: db2exfmt text of a generated INSERT … SELECT plan (drawn by the explain tests' writer) → parseExfmt → classifyHiddenWork → render (text, JSON, Markdown, HTML).
// Prints JSON for bench/run.mjs. Usage: node bench/.work/explain-bench.cjs [ITERATIONS] [OPERATORS…]
import { parseExfmt } from '../server/src/explain/exfmt';
import { classifyHiddenWork } from '../server/src/explain/classify';
import { explainDocument } from '../server/src/explain/report';
import { render } from '../server/src/explain/render';
import { writeExfmt, type WOperator, type WStatement } from '../test/explain/helpers/exfmt-writer';

/**
 * An INSERT … SELECT plan of `count` operators: INSERT over a balanced tree of hash joins, nested-loop
 * joins with index fetches and sorts over table scans (the writer draws it with db2exfmt's geometry).
 */
function insertSelectPlan(count: number): WStatement {
  let next = 3;
  const tree = (budget: number): WOperator => {
    const id = next++;
    if (budget <= 1) return { id, label: 'TBSCAN', rows: 1000, cost: 25, io: 3, inputs: [{ type: 'TABLE', schema: 'SRC', name: `T${id}`, q: `Q${id}`, rows: 1000 }] };
    if (budget === 2) {
      const child = tree(1);
      return { id, label: 'SORT', rows: 1000, cost: child.cost + 2, io: child.io, inputs: [child] };
    }
    const leftBudget = Math.floor((budget - 1) / 2);
    const left = tree(leftBudget);
    const right = tree(budget - 1 - leftBudget);
    const label = id % 3 === 0 ? 'NLJOIN' : 'HSJOIN';
    return { id, label, rows: 1000, cost: left.cost + right.cost + 5, io: left.io + right.io, inputs: [left, right] };
  };
  const select = tree(count - 2);
  const target = { type: 'TABLE' as const, schema: 'APP', name: 'ORDERS', rows: 1_000_000 };
  const insert: WOperator = { id: 2, label: 'INSERT', rows: select.rows, cost: select.cost + 100, io: select.io + 50, inputs: [select], writes: target };
  const root: WOperator = { id: 1, label: 'RETURN', rows: select.rows, cost: insert.cost, io: insert.io, inputs: [insert] };
  return { queryNo: 1, original: 'INSERT INTO APP.ORDERS SELECT … FROM SRC.T3 JOIN …', optimized: 'INSERT INTO APP.ORDERS SELECT …', root, objects: [] };
}

function ms(fn: () => unknown): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const iterations = Number(process.argv[2] ?? 20);
const sizes = process.argv.slice(3).map(Number);
const results = [];
for (const operators of sizes.length ? sizes : [500]) {
  const text = writeExfmt([insertSelectPlan(operators)], { version: '11.5' });
  const steps: Record<string, number[]> = { parseExfmt: [], classifyHiddenWork: [], 'explainDocument (parse already done)': [], 'render text': [], 'render json': [], 'render markdown': [], 'render html': [], 'all of it': [] };
  let parsedOperators = 0;
  for (let i = 0; i <= iterations; i++) {
    const record = (step: string, value: number) => void (i > 0 && steps[step].push(value)); // i = 0 warms up
    let doc!: ReturnType<typeof parseExfmt>;
    record('parseExfmt', ms(() => (doc = parseExfmt(text))));
    parsedOperators = doc.statements[0]?.plan?.operators.length ?? 0;
    record('classifyHiddenWork', ms(() => classifyHiddenWork(doc.statements[0])));
    let report!: ReturnType<typeof explainDocument>;
    record('explainDocument (parse already done)', ms(() => (report = explainDocument(doc))));
    for (const format of ['text', 'json', 'markdown', 'html'] as const) record(`render ${format}`, ms(() => render(report, format)));
    record('all of it', ms(() => {
      const d = parseExfmt(text);
      const r = explainDocument(d);
      for (const format of ['text', 'json', 'markdown', 'html'] as const) render(r, format);
    }));
  }
  results.push({ operators, parsedOperators, bytes: text.length, iterations, medianMs: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, median(v)])) });
}
process.stdout.write(JSON.stringify(results.length === 1 ? results[0] : results) + '\n');
