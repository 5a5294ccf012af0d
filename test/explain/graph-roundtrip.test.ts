import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { drawGraph, writeExfmt, type WObject, type WOperator } from './helpers/exfmt-writer';
import { orderLinePlan, largePlan } from './helpers/make-fixtures';

const LABELS = ['TBSCAN', 'IXSCAN', 'FETCH', 'SORT', 'NLJOIN', '^NLJOIN', '>HSJOIN', 'MSJOIN', 'UNION', 'TEMP', 'FILTER', 'GRPBY', 'BTQ', 'LTQ*', 'INSERT', 'UPDATE'];

interface Spec {
  label: number;
  rows: number;
  cost: number;
  kids: Spec[];
  object?: { type: number; name: string };
}

const spec: fc.Memo<Spec> = fc.memo((depth) =>
  fc.record({
    label: fc.integer({ min: 0, max: LABELS.length - 1 }),
    rows: fc.oneof(fc.double({ min: 1e-12, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 5000000 })),
    cost: fc.double({ min: 0, max: 1e10, noNaN: true }),
    kids: depth <= 1 ? fc.constant([]) : fc.array(spec(depth - 1), { maxLength: 3 }),
    object: fc.option(fc.record({ type: fc.integer({ min: 0, max: 2 }), name: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,17}$/) }), { nil: undefined }),
  }),
);

function toTree(s: Spec, next: { id: number }): WOperator {
  const id = next.id++;
  const inputs: (WOperator | WObject)[] = s.kids.map((k) => toTree(k, next));
  if (s.object || inputs.length === 0) {
    const type = (['TABLE', 'INDEX', 'TABFNC'] as const)[s.object?.type ?? 0];
    inputs.push({ type, schema: type === 'TABFNC' ? 'SYSIBM' : 'APP', name: s.object?.name ?? `T${id}`, q: type === 'TABFNC' ? undefined : `Q${id}`, rows: 1000 + id });
  }
  return { id, label: LABELS[s.label], rows: s.rows, cost: s.cost, io: Math.round(s.cost / 10), inputs };
}

function expectedShape(root: WOperator): Record<number, string> {
  const out: Record<number, string> = {};
  const walk = (op: WOperator) => {
    const kids = op.inputs.filter((i): i is WOperator => 'label' in i);
    out[op.id] = kids.map((k) => k.id).join(',');
    kids.forEach(walk);
  };
  walk(root);
  return out;
}

describe('explain: graph geometry round trip', () => {
  it('rebuilds any drawn tree exactly (ids, children order, objects, numbers)', () => {
    fc.assert(
      fc.property(spec(5), fc.integer({ min: 0, max: 12 }), (s, indent) => {
        const child = toTree(s, { id: 2 });
        const root: WOperator = { id: 1, label: 'RETURN', rows: child.rows, cost: child.cost, io: child.io, inputs: [child] };
        const text = ['Access Plan:', '-----------', '', ...drawGraph(root, {}, indent)].join('\n');
        const st = parseExfmt(text).statements[0];
        assert.deepEqual(st.errors, [], text);
        assert.deepEqual(st.warnings, [], text);
        const got = Object.fromEntries(st.plan!.operators.map((o) => [o.id, o.children.join(',')]));
        assert.deepEqual(got, expectedShape(root), text);
        const walk = (op: WOperator) => {
          const parsed = st.plan!.operators.find((o) => o.id === op.id)!;
          assert.equal(parsed.label, op.label, text);
          if (op.id !== 1) {
            assert.ok(Math.abs(parsed.totalCost! - op.cost) <= Math.abs(op.cost) * 1e-5 + 1e-9, `cost of ${op.id}\n${text}`);
            assert.ok(Math.abs(parsed.rows! - op.rows) <= Math.abs(op.rows) * 1e-5 + 1e-9, `rows of ${op.id}\n${text}`);
          }
          const objects = op.inputs.filter((i): i is WObject => !('label' in i)).map((o) => `${o.schema}.${o.name}`);
          assert.deepEqual([...parsed.objectsRead, ...parsed.objectsWritten], objects, `objects of ${op.id}\n${text}`);
          op.inputs.forEach((i) => 'label' in i && walk(i));
        };
        walk(root);
      }),
      { numRuns: 150 },
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
