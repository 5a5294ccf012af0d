import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { drawGraph, g, writeExfmt, type WObject, type WOperator, type WriteOptions } from './helpers/exfmt-writer';
import { orderLinePlan, largePlan } from './helpers/make-fixtures';

const LABELS = ['TBSCAN', 'IXSCAN', 'FETCH', 'SORT', 'NLJOIN', '^NLJOIN', '>HSJOIN', 'MSJOIN', 'UNION', 'TEMP', 'FILTER', 'GRPBY', 'BTQ', 'CTQ', 'LTQ*', 'INSERT', 'UPDATE'];
const OBJECT_TYPES = ['TABLE', 'INDEX', 'TABFNC', 'CO-TABLE'] as const;

interface Spec {
  label: number;
  rows: number;
  actual?: number;
  cost: number;
  kids: Spec[];
  object?: { type: number; name: string };
}

const spec: fc.Memo<Spec> = fc.memo((depth) =>
  fc.record({
    label: fc.integer({ min: 0, max: LABELS.length - 1 }),
    rows: fc.oneof(fc.double({ min: 1e-12, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 5000000 })),
    actual: fc.option(fc.integer({ min: 0, max: 90000000 }), { nil: undefined }),
    cost: fc.double({ min: 0, max: 1e10, noNaN: true }),
    kids: depth <= 1 ? fc.constant([]) : fc.array(spec(depth - 1), { maxLength: 3 }),
    object: fc.option(fc.record({ type: fc.integer({ min: 0, max: OBJECT_TYPES.length - 1 }), name: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,17}$/) }), { nil: undefined }),
  }),
);

function toTree(s: Spec, next: { id: number }): WOperator {
  const id = next.id++;
  const inputs: (WOperator | WObject)[] = s.kids.map((k) => toTree(k, next));
  if (s.object || inputs.length === 0) {
    const type = OBJECT_TYPES[s.object?.type ?? 0];
    inputs.push({ type, schema: type === 'TABFNC' ? 'SYSIBM' : 'APP', name: s.object?.name ?? `T${id}`, q: type === 'TABFNC' ? undefined : `Q${id}`, rows: 1000 + id });
  }
  // A join reads two inputs (the parser takes a join drawn with fewer for a graph cut off below it).
  if (LABELS[s.label].includes('JOIN') && inputs.length < 2) inputs.push({ type: 'TABLE', schema: 'APP', name: `U${id}`, q: `R${id}`, rows: 2000 + id });
  return { id, label: LABELS[s.label], rows: s.rows, actualRows: s.actual, cost: s.cost, io: Math.round(s.cost / 10), inputs };
}

function operatorsOf(root: WOperator): WOperator[] {
  const out: WOperator[] = [];
  const seen = new Set<WOperator>();
  const walk = (op: WOperator) => {
    if (seen.has(op)) return;
    seen.add(op);
    out.push(op);
    op.inputs.forEach((i) => 'label' in i && walk(i));
  };
  walk(root);
  return out;
}

function expectedShape(root: WOperator): Record<number, string> {
  return Object.fromEntries(operatorsOf(root).map((op) => [op.id, op.inputs.flatMap((i) => ('label' in i ? [i.id] : [])).join(',')]));
}

/** Makes operator `shared` (a TEMP) also an input of `consumer`, as a common subexpression is in Db2 plans. */
function share(root: WOperator, pickShared: number, pickConsumer: number): void {
  const ops = operatorsOf(root).filter((o) => o.id !== 1);
  if (ops.length < 3) return;
  const shared = ops[pickShared % ops.length];
  const inside = new Set(operatorsOf(shared));
  const ancestors = new Set<WOperator>();
  const findPath = (op: WOperator, path: WOperator[]): boolean => {
    if (op === shared) {
      path.forEach((p) => ancestors.add(p));
      return true;
    }
    return op.inputs.some((i) => 'label' in i && findPath(i, [...path, op]));
  };
  findPath(root, []);
  const consumers = ops.filter((o) => !inside.has(o) && !ancestors.has(o));
  if (consumers.length === 0) return;
  shared.label = 'TEMP';
  consumers[pickConsumer % consumers.length].inputs.push(shared);
}

const pasteOptions = fc.record({
  actuals: fc.boolean(),
  paddedHeaders: fc.boolean(),
  tabWidth: fc.constantFrom(undefined, 8, 4, 2),
  flushFirstLine: fc.boolean(),
  doubleSpaced: fc.boolean(),
  wrap: fc.option(fc.integer({ min: 40, max: 200 }), { nil: undefined }),
  whole: fc.boolean(),
  shared: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }),
  indent: fc.integer({ min: 0, max: 12 }),
});

describe('explain: graph geometry round trip', () => {
  it('rebuilds any drawn tree exactly, also with actual rows, padded headers, shared temps, tabs, a flush first line, double spacing and folded lines', () => {
    fc.assert(
      fc.property(spec(5), pasteOptions, (s, o) => {
        const child = toTree(s, { id: 2 });
        const root: WOperator = { id: 1, label: 'RETURN', rows: child.rows, cost: child.cost, io: child.io, inputs: [child] };
        if (o.shared) share(root, o.shared[0], o.shared[1]);
        const opts: WriteOptions = { actuals: o.actuals, paddedHeaders: o.paddedHeaders, tabWidth: o.tabWidth, flushFirstLine: o.flushFirstLine };
        if (o.wrap !== undefined) {
          // Fold only lines longer than the width, and never at a width that a line fills exactly (which no reader can tell apart).
          const lengths = drawGraph(root, opts, o.whole ? 8 : o.indent).map((l) => l.length);
          const longest = Math.max(...lengths);
          const width = 40 + (o.wrap % Math.max(1, longest - 40));
          fc.pre(longest > 40 && lengths.every((n) => n % width !== 0));
          opts.wrapAt = width;
        }
        const text = o.whole
          ? writeExfmt([{ queryNo: 1, original: 'INSERT INTO APP.T SELECT * FROM APP.S', optimized: 'INSERT INTO APP.T SELECT Q1.* FROM APP.S AS Q1', root, objects: [] }], { ...opts, doubleSpaced: o.doubleSpaced })
          : (o.doubleSpaced ? (l: string[]) => l.flatMap((x) => [x, '']) : (l: string[]) => l)(['Access Plan:', '-----------', '', ...drawGraph(root, opts, o.indent)]).join('\n');
        const st = parseExfmt(text).statements[0];
        assert.deepEqual(st.errors, [], text);
        assert.deepEqual(
          st.warnings.filter((w) => w.code !== 'rejoined-wrapped-lines'),
          [],
          text,
        );
        assert.equal(st.plan!.source, 'graph', text);
        const got = Object.fromEntries(st.plan!.operators.map((op) => [op.id, op.children.join(',')]));
        assert.deepEqual(got, expectedShape(root), text);
        for (const op of operatorsOf(root)) {
          const parsed = st.plan!.operators.find((x) => x.id === op.id)!;
          assert.equal(parsed.label, op.label, text);
          if (op.id !== 1) {
            assert.ok(Math.abs(parsed.totalCost! - op.cost) <= Math.abs(op.cost) * 1e-5 + 1e-9, `cost of ${op.id}\n${text}`);
            assert.ok(Math.abs(parsed.rows! - op.rows) <= Math.abs(op.rows) * 1e-5 + 1e-9, `rows of ${op.id}\n${text}`);
            assert.equal(parsed.actualRows, o.actuals && op.actualRows !== undefined ? Number(g(op.actualRows)) : undefined, `actual rows of ${op.id}\n${text}`);
          }
          const objects = op.inputs.filter((i): i is WObject => !('label' in i)).map((x) => `${x.schema}.${x.name}`);
          assert.deepEqual([...parsed.objectsRead, ...parsed.objectsWritten], objects, `objects of ${op.id}\n${text}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads every statement of a multi-statement file', () => {
    const doc = parseExfmt(writeExfmt([orderLinePlan(), { ...largePlan(9), queryNo: 2 }]));
    assert.equal(doc.statements.length, 2);
    assert.deepEqual(doc.statements.map((s) => [s.statementNumber, s.sectionNumber, s.queryNo, s.plan?.operators.length]), [
      [1, 201, 1, 13],
      [2, 202, 2, 9],
    ]);
  });

  it('takes the box layout from the legend (a graph drawn with cost only)', () => {
    const text = ['        Rows', '       RETURN', '       (   1)', '        Cost', '         |', '        5.5', '       TBSCAN', '       (   2)', '        12.5', '         |', '        100', '    TABLE: APP', '       ORDERS', '         Q1'].join('\n');
    const s = parseExfmt(text).statements[0];
    assert.deepEqual(s.warnings, []);
    const scan = s.plan!.operators.find((o) => o.id === 2)!;
    assert.equal(scan.totalCost, 12.5);
    assert.equal(scan.ioCost, undefined);
    assert.deepEqual(scan.objectsRead, ['APP.ORDERS']);
  });
});
