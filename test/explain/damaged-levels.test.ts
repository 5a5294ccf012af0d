// Damaged pastes of the Access Plan graph (leading whitespace stripped, runs of spaces collapsed) are rebuilt
// from the order of the boxes, row by row (server/src/explain/exfmt-levels.ts): the tree and every value must be
// those of the undamaged drawing, and a drawing the checks cannot vouch for is refused, never misread.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseExfmt } from '../../server/src/explain/exfmt';
import type { AccessPlan, ExplainStatement, PlanOperator } from '../../server/src/explain/model';
import { fixture } from './helpers/fixtures';
import { drawGraph, writeExfmt, type WObject, type WOperator } from './helpers/exfmt-writer';
import { insertFkFetchPlan, orderLinePlan } from './helpers/make-fixtures';

type Damage = 'strip' | 'collapse' | 'collapse-strip';

/** What a forum, a mail client or a crawler does to the lines. */
function damage(lines: string[], how: Damage): string[] {
  const collapse = (l: string) => l.replace(/ {2,}/g, ' ');
  return lines.map((l) => (how === 'strip' ? l.trimStart() : how === 'collapse' ? collapse(l) : collapse(l).trimStart()));
}

const graphText = (lines: string[]) => ['Access Plan:', '-----------', '', ...lines].join('\n');

function statement(text: string): ExplainStatement {
  const doc = parseExfmt(text);
  assert.equal(doc.statements.length, 1, text);
  return doc.statements[0];
}

const sorted = (plan: AccessPlan | undefined): PlanOperator[] => [...(plan?.operators ?? [])].sort((a, b) => a.id - b.id);

function shape(plan: AccessPlan | undefined): Record<number, string> {
  return Object.fromEntries(sorted(plan).map((o) => [o.id, `${o.label}:${o.inputs.map((i) => (i.kind === 'operator' ? i.id : i.object.key)).join(',')}`]));
}

function op(plan: AccessPlan | undefined, id: number): PlanOperator {
  const found = plan?.operators.find((o) => o.id === id);
  assert.ok(found, `operator ${id}`);
  return found;
}

function refusal(st: ExplainStatement): string {
  assert.equal(st.plan, undefined);
  assert.equal(st.errors[0]?.code, 'damaged-graph', JSON.stringify(st.errors));
  return st.errors[0].message;
}

// --- generated plans -------------------------------------------------------------------------------

const LABELS = ['TBSCAN', 'IXSCAN', 'FETCH', 'SORT', 'NLJOIN', '^NLJOIN', '>HSJOIN<', 'MSJOIN', 'ZZJOIN', 'IXAND', 'UNION', 'TEMP', 'FILTER', 'GRPBY', 'BTQ', 'LTQ*', 'INSERT', 'UPDATE', 'GENROW'];
const OBJECT_TYPES = ['TABLE', 'INDEX', 'TABFNC', 'NICKNM', 'CO-TABLE'] as const;

interface Spec {
  label: number;
  rows: number;
  actual?: number;
  cost: number;
  kids: Spec[];
  /** Objects among the inputs, at any position. */
  objects: { at: number; type: number; name: string }[];
}

const spec: fc.Memo<Spec> = fc.memo((depth) =>
  fc.record({
    label: fc.nat(LABELS.length - 1),
    rows: fc.oneof(fc.double({ min: 1e-12, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 5_000_000 })),
    actual: fc.option(fc.integer({ min: 0, max: 90_000_000 }), { nil: undefined }),
    cost: fc.double({ min: 0, max: 1e10, noNaN: true }),
    kids: depth <= 1 ? fc.constant([]) : fc.array(spec(depth - 1), { maxLength: 3 }),
    objects: fc.array(fc.record({ at: fc.nat(3), type: fc.nat(OBJECT_TYPES.length - 1), name: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,11}$/) }), { maxLength: 2 }),
  }),
);

/** Numbers depth first, left to right, as db2exfmt does. `q`: objects show correlation names (Db2 9.7 and later). */
function toTree(s: Spec, next: { id: number }, q: boolean): WOperator {
  const id = next.id++;
  const label = LABELS[s.label];
  const op: WOperator = { id, label, rows: s.rows, actualRows: s.actual, cost: s.cost, io: Math.round(s.cost / 10), inputs: [] };
  if (label === 'GENROW') return op; // reads nothing: no connector under it
  const inputs: (WOperator | WObject)[] = s.kids.map((k) => toTree(k, next, q));
  s.objects.forEach((o, k) => {
    const type = OBJECT_TYPES[o.type];
    inputs.splice(Math.min(o.at, inputs.length), 0, { type, schema: type === 'TABFNC' ? 'SYSIBM' : 'APP', name: o.name, q: q ? `Q${id}${k}` : undefined, rows: 1000 + id });
  });
  // Joins and IXAND read two inputs, the others at least one (fewer reads as a graph cut off below them).
  const needed = /JOIN|IXAND/.test(label) ? 2 : 1;
  while (inputs.length < needed) inputs.push({ type: 'TABLE', schema: 'APP', name: `T${id}_${inputs.length}`, q: q ? `Q${id}9${inputs.length}` : undefined, rows: 2000 + id });
  op.inputs = inputs;
  return op;
}

function planOf(s: Spec, q: boolean): WOperator {
  const child = toTree(s, { id: 2 }, q);
  return { id: 1, label: 'RETURN', rows: child.rows, cost: child.cost, io: child.io, inputs: [child] };
}

function operatorsOf(root: WOperator): WOperator[] {
  const out: WOperator[] = [];
  const walk = (o: WOperator) => {
    if (out.includes(o)) return;
    out.push(o);
    for (const i of o.inputs) if ('label' in i) walk(i);
  };
  walk(root);
  return out;
}

const damages = fc.constantFrom<Damage>('strip', 'collapse', 'collapse-strip');

describe('explain: damaged graphs rebuilt row by row', () => {
  it('rebuilds every generated plan shape, stripped or collapsed, into the tree and values of the undamaged drawing', () => {
    let rebuilt = 0;
    fc.assert(
      fc.property(spec(5), damages, fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 12 }), (s, how, actuals, q, indent) => {
        const root = planOf(s, q);
        const lines = drawGraph(root, { actuals }, indent);
        const clean = statement(graphText(lines));
        assert.deepEqual([clean.errors, clean.warnings], [[], []], graphText(lines));
        const text = graphText(damage(lines, how));
        const st = statement(text);
        if (!st.plan) {
          // A row of objects without correlation names, one of them named like one (Q1): its name line may be lost.
          if (!q && /is named like a correlation name and has none below it/.test(refusal(st))) return;
          // A connector over three or more inputs may hide its middle one under the operator's joint
          // (`/----+----\`): when the row can then be read two ways, it is refused.
          assert.ok(operatorsOf(root).some((o) => o.inputs.length >= 3), `refused:\n${text}\n${refusal(st)}`);
          assert.match(refusal(st), /can be read in more than one way/, text);
          return;
        }
        rebuilt++;
        assert.deepEqual(st.errors, [], text);
        assert.deepEqual(st.warnings.map((w) => w.code), ['damaged-graph-levels'], text);
        assert.deepEqual(sorted(st.plan), sorted(clean.plan), text);
        assert.deepEqual(st.plan.roots, clean.plan!.roots, text);
      }),
      { numRuns: 400 },
    );
    assert.ok(rebuilt > 300, `only ${rebuilt} of 400 rebuilt`);
  });

  it('refuses a damaged plan with a shared TEMP (drawn twice; the order does not say which drawing has its inputs)', () => {
    fc.assert(
      fc.property(spec(4), damages, fc.nat(), fc.nat(), (s, how, pickShared, pickReader) => {
        const root = planOf(s, true);
        const ops = operatorsOf(root).filter((o) => o.id !== 1 && o.label !== 'GENROW');
        const shared = ops[pickShared % Math.max(1, ops.length)];
        fc.pre(shared !== undefined);
        const inside = new Set(operatorsOf(shared));
        const above = new Set(operatorsOf(root).filter((o) => operatorsOf(o).includes(shared)));
        const readers = ops.filter((o) => !inside.has(o) && !above.has(o));
        fc.pre(readers.length > 0);
        shared.label = 'TEMP';
        readers[pickReader % readers.length].inputs.push(shared);
        const lines = drawGraph(root, {}, 4);
        assert.ok(statement(graphText(lines)).plan, 'the undamaged drawing reads');
        assert.match(refusal(statement(graphText(damage(lines, how)))), /is drawn twice \(a shared TEMP or subplan\)/);
      }),
      { numRuns: 150 },
    );
  });

  it('reads the two corpus shapes: a flush-left HSJOIN/FETCH plan and a collapsed ^NLJOIN plan', () => {
    const flushed = statement(fixture('damaged-flushed-hsjoin-fetch.txt'));
    assert.deepEqual(flushed.errors, []);
    assert.deepEqual(flushed.warnings.map((w) => w.code), ['damaged-graph-levels']);
    assert.match(flushed.warnings[0].message, /leading whitespace of its lines was stripped\. Its tree was rebuilt from the order of the boxes/);
    assert.deepEqual(shape(flushed.plan), {
      1: 'RETURN:2',
      2: 'HSJOIN:3,7',
      3: 'NLJOIN:4,5',
      4: 'TBSCAN:DB2INST1.TTT',
      5: 'FETCH:6,DB2INST1.T1',
      6: 'IXSCAN:DB2INST1.T1_IDX4',
      7: 'TBSCAN:DB2INST1.T2',
    });
    // Values in the order of their lines: "581853  3.17593e-12  11710" above "TBSCAN  FETCH  TABLE: DB2INST1".
    assert.deepEqual(
      sorted(flushed.plan).map((o) => [o.id, o.rows, o.totalCost, o.ioCost]),
      [
        [1, 3.71901e-8, 2.10252e10, undefined],
        [2, 3.71901e-8, 2.10252e10, 2.99093e9],
        [3, 1.84792e-6, 2.10252e10, 2.99092e9],
        [4, 581853, 225522, 194085],
        [5, 3.17593e-12, 63689.5, 9062.03],
        [6, 15300, 98.2496, 38],
        [7, 11710, 4489.54, 3863],
      ],
    );
    const t1 = op(flushed.plan, 5).inputs[1];
    assert.deepEqual(t1, { kind: 'object', object: { key: 'DB2INST1.T1', schema: 'DB2INST1', name: 'T1', kind: 'table', correlation: 'Q2', rows: 15301 } });
    // The one Plan Details block (no Input Streams) adds what the drawing has not: arguments and predicates.
    assert.equal(op(flushed.plan, 6).cpuCost, 4.56412e7);
    assert.deepEqual(op(flushed.plan, 6).predicates.map((p) => p.howApplied), ['Sargable', 'Stop Key']);

    const collapsed = statement(fixture('damaged-collapsed-nljoin.txt'));
    assert.deepEqual(collapsed.errors, []);
    assert.deepEqual(collapsed.warnings.map((w) => w.code), ['damaged-graph-levels']);
    assert.match(collapsed.warnings[0].message, /runs of spaces were collapsed/);
    assert.deepEqual(shape(collapsed.plan), { 1: 'RETURN:2', 2: '^NLJOIN:3,4', 3: 'IXSCAN:TEST.UI_070702', 4: 'IXSCAN:TEST.UI_070701' });
    assert.deepEqual(op(collapsed.plan, 2).flags, ['early-out-left']);
    assert.deepEqual(op(collapsed.plan, 4).inputs, [{ kind: 'object', object: { key: 'TEST.UI_070701', schema: 'TEST', name: 'UI_070701', kind: 'index', correlation: 'Q2', rows: 2 } }]);
    assert.deepEqual([op(collapsed.plan, 3).totalCost, op(collapsed.plan, 4).totalCost], [0.00600723, 0.00582641]);
  });

  it('rebuilds the seed\'s flushed INSERT graph into the same plan as the undamaged paste', () => {
    const flushed = statement(fixture('damaged-flushed-no-details.txt'));
    const clean = statement(fixture('seed-fk-insert-graph.txt'));
    assert.deepEqual(flushed.warnings.map((w) => w.code), ['damaged-graph-levels']);
    // Only the root's I/O differs: the flushed paste has a "Total Cost:" line, so it is not taken from its input.
    assert.deepEqual(sorted(flushed.plan).slice(1), sorted(clean.plan).slice(1));
    assert.deepEqual(shape(flushed.plan), shape(clean.plan));
  });

  it('checks the reading against Plan Details\' input streams, and refuses it when they disagree', () => {
    // Plan Details without operator 8's block cannot replace the drawing; the other blocks still list inputs.
    const text = writeExfmt([orderLinePlan()]);
    const [head, details] = [text.slice(0, text.indexOf('Plan Details:')), text.slice(text.indexOf('Plan Details:'))];
    const partial = details.replace(/\t8\) IXSCAN[\s\S]*?(?=\t9\) INSERT)/, '');
    assert.notEqual(partial, details);
    const flushed = damage(head.split('\n'), 'strip').join('\n');
    const agreed = statement(flushed + partial);
    assert.deepEqual(agreed.errors, []);
    assert.deepEqual(agreed.warnings.map((w) => w.code), ['damaged-graph-levels']);
    assert.match(agreed.warnings[0].message, /the connectors, the boxes, the operator numbers and Plan Details' input streams all agree/);
    assert.deepEqual(shape(agreed.plan), shape(statement(text).plan));
    // Operator 12 (a FETCH) said to read operator 8 instead of 13: the drawing cannot be trusted over that.
    const wrong = partial.replace(/(\t12\) FETCH[\s\S]*?From Operator #)13/, '$18');
    assert.notEqual(wrong, partial);
    assert.match(refusal(statement(flushed + wrong)), /read row by row, Plan Details list the inputs \(8\), SHOP\.SALES_BY_PRODUCT of FETCH \(12\), where the rows of the drawing give \(13\), SHOP\.SALES_BY_PRODUCT\./);
  });

  it('takes a connector over three inputs with one `+` when the counts or the numbers leave one reading, and refuses two', () => {
    const union = ['Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '30', 'UNION', '( 2)', '30', '3', '/----+----\\', '10 10 10', 'TBSCAN TBSCAN TBSCAN', '( 3) ( 4) ( 5)', '10 10 10', '1 1 1', '| | |', '100 100 100', 'TABLE: APP TABLE: APP TABLE: APP', 'A B C', 'Q1 Q2 Q3'];
    const s = statement(graphText(union));
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'UNION:3,4,5', 3: 'TBSCAN:APP.A', 4: 'TBSCAN:APP.B', 5: 'TBSCAN:APP.C' });
    // FETCH (IXSCAN, T1) and UNION (T2, TBSCAN, TBSCAN) over one row of five boxes: T2 could be either's.
    const twoWays = [
      'Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '1', 'NLJOIN', '( 2)', '50', '5', '/-----+-----\\', '1 3', 'FETCH UNION', '( 3) ( 5)', '20 30', '2 3',
      '/---+---\\ /---+---\\', '1 100 100 1 1', 'IXSCAN TABLE: APP TABLE: APP TBSCAN TBSCAN', '( 4) T1 T2 ( 6) ( 7)', '10 Q1 Q2 10 10', '1 1 1', '| | |',
      '100 100 100', 'INDEX: APP TABLE: APP TABLE: APP', 'IX1 T3 T4', 'Q1 Q3 Q4',
    ];
    assert.match(refusal(statement(graphText(twoWays))), /the connectors on line 21 can be read in more than one way/);
    // With UNION's first input an operator, the numbers settle it.
    const settled = twoWays.map((l) => l.replace('IXSCAN TABLE: APP TABLE: APP TBSCAN TBSCAN', 'IXSCAN TABLE: APP TBSCAN TBSCAN TBSCAN').replace('( 4) T1 T2 ( 6) ( 7)', '( 4) T1 ( 6) ( 7) ( 8)').replace('10 Q1 Q2 10 10', '10 Q1 10 10 10').replace(/^1 1 1$/, '1 1 1 1').replace(/^\| \| \|$/, '| | | |').replace(/^100 100 100$/, '100 100 100 100').replace('INDEX: APP TABLE: APP TABLE: APP', 'INDEX: APP TABLE: APP TABLE: APP TABLE: APP').replace('IX1 T3 T4', 'IX1 T3 T4 T5').replace('Q1 Q3 Q4', 'Q1 Q3 Q4 Q5'));
    const r = statement(graphText(settled));
    assert.deepEqual(r.errors, []);
    assert.deepEqual(shape(r.plan)[3], 'FETCH:4,APP.T1');
    assert.deepEqual(shape(r.plan)[5], 'UNION:6,7,8');
  });

  it('refuses, with the reason, a row whose connectors do not match its boxes, numbers out of db2exfmt\'s order and a cut-off drawing', () => {
    const lines = damage(drawGraph(insertFkFetchPlan().root, {}, 4), 'collapse-strip');
    const st = statement(graphText(lines));
    assert.ok(st.plan, 'the damaged drawing itself reads');
    const connectors = lines.findIndex((l) => l.split(' ').length === 2 && l.split(' ').every((t) => t === '|' || /^\/[-+]*\\$/.test(t)));
    assert.ok(connectors > 0, lines.join('\n'));
    const lost = lines.map((l, i) => (i === connectors ? l.split(' ')[0] : l));
    assert.match(refusal(statement(graphText(lost))), /line \d+ has 1 connector for the 2 operators above it that read inputs/);
    // Operators 4 and 5 swapped: the tree would visit them against db2exfmt's numbering.
    const swapped = lines.map((l) => l.replace('( 4)', '( X)').replace('( 5)', '( 4)').replace('( X)', '( 5)'));
    assert.notDeepEqual(swapped, lines);
    assert.match(refusal(statement(graphText(swapped))), /no reading of the connectors on line \d+ agrees with the operator numbers below them/);
    // Every row in order, but TBSCAN (6) under TBSCAN (3)'s subtree comes before TBSCAN (5) depth first.
    const crossed = ['Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '1', 'HSJOIN', '( 2)', '9', '1', '/---+---\\', '1 1', 'TBSCAN TBSCAN', '( 3) ( 5)', '4 4', '1 1', '| |',
      '1 1', 'SORT SORT', '( 4) ( 7)', '3 3', '1 1', '| |', '1 1', 'TBSCAN TBSCAN', '( 6) ( 8)', '2 2', '1 1', '| |', '10 10', 'TABLE: APP TABLE: APP', 'A B', 'Q1 Q2'];
    assert.match(refusal(statement(graphText(crossed))), /the tree visits TBSCAN \(5\) after TBSCAN \(6\), against db2exfmt's numbering \(depth first, left to right\)/);
    const cut = lines.slice(0, lines.findIndex((l) => l.includes('( 6)')) + 3);
    assert.match(cut[cut.length - 3], /IXSCAN|\( 6\)/);
    assert.match(refusal(statement(graphText(cut))), /nothing is drawn under TBSCAN \(4\): the drawing is cut off below it/);
  });

  it('reads a legend with cost only, and links a join-free drawing that lost its connector lines as a chain', () => {
    const costOnly = ['Rows', 'RETURN', '( 1)', 'Cost', '|', '5.5', 'TBSCAN', '( 2)', '12.5', '|', '100', 'TABLE: APP', 'ORDERS', 'Q1'];
    const s = statement(graphText(costOnly));
    assert.deepEqual(s.warnings.map((w) => w.code), ['damaged-graph-levels']);
    assert.deepEqual([op(s.plan, 2).rows, op(s.plan, 2).totalCost, op(s.plan, 2).ioCost], [5.5, 12.5, undefined]);
    assert.deepEqual(op(s.plan, 2).inputs, [{ kind: 'object', object: { key: 'APP.ORDERS', schema: 'APP', name: 'ORDERS', kind: 'table', correlation: 'Q1', rows: 100 } }]);
    const noConnectors = statement(graphText(costOnly.filter((l) => l !== '|')));
    assert.deepEqual(noConnectors.warnings.map((w) => w.code), ['damaged-graph-chain']);
    assert.deepEqual(shape(noConnectors.plan), { 1: 'RETURN:2', 2: 'TBSCAN:APP.ORDERS' });
  });

  it('refuses, never misreads, a damaged drawing that also lost, doubled or joined a line, or lost a token', () => {
    // Line edits a paste suffers on top of the damage. A reading that survives must be the undamaged one; only a
    // correlation name on the last line may be lost with it (the line is optional). Two lines of the same shape
    // swapped cannot be told from the drawing alone, so swaps are not generated here.
    const edits = fc.constantFrom('delete', 'duplicate', 'join', 'truncate', 'drop-token');
    const view = (plan: AccessPlan | undefined, correlations: boolean) =>
      sorted(plan).map((o) => [o.id, o.label, o.rows, o.actualRows, o.totalCost, o.ioCost, o.inputs.map((i) => (i.kind === 'operator' ? i.id : `${i.object.key}/${i.object.rows}/${correlations ? i.object.correlation : ''}`))]);
    let read = 0;
    fc.assert(
      fc.property(spec(5), damages, fc.boolean(), fc.boolean(), edits, fc.nat(), (s, how, actuals, q, edit, at) => {
        const lines = damage(drawGraph(planOf(s, q), { actuals }, 4), how);
        const clean = statement(graphText(lines)).plan;
        const i = at % lines.length;
        const c = [...lines];
        if (edit === 'delete') c.splice(i, 1);
        else if (edit === 'duplicate') c.splice(i, 0, c[i]);
        else if (edit === 'join') c.splice(i, 2, `${c[i]} ${c[i + 1] ?? ''}`);
        else if (edit === 'truncate') c.length = i;
        else c[i] = c[i].replace(/ ?\S+$/, '');
        const text = graphText(c);
        const doc = parseExfmt(text);
        const st = doc.statements[0];
        if (!st?.plan) return;
        read++;
        if (JSON.stringify(view(st.plan, true)) === JSON.stringify(view(clean, true))) return;
        assert.deepEqual(view(st.plan, false), view(clean, false), `${edit} at line ${i}:\n${text}`);
      }),
      { numRuns: 500 },
    );
    assert.ok(read > 0, 'some edits leave a drawing that still reads');
  });

  it('refuses a row whose lines do not match the legend: a name line lost or moved, a value line lost or doubled', () => {
    const ixand = ['Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '1', 'IXAND', '( 2)', '14', '2', '/---+---\\', '1 1', 'IXSCAN IXSCAN', '( 3) ( 4)', '7 6', '1 1', '| |', '15301 15301', 'INDEX: APP INDEX: APP', 'IX1 IX2', 'Q1 Q2'];
    assert.deepEqual(shape(statement(graphText(ixand)).plan), { 1: 'RETURN:2', 2: 'IXAND:3,4', 3: 'IXSCAN:APP.IX1', 4: 'IXSCAN:APP.IX2' });
    const edited = (edit: (l: string[]) => string[]) => refusal(statement(graphText(edit([...ixand]))));
    // The index names lost: the correlation names below them are not index names (read as APP.Q1, APP.Q2).
    assert.match(edited((l) => l.filter((x) => x !== 'IX1 IX2')), /the object APP\.Q1 on line 24 is named like a correlation name and has none below it/);
    // Labels and names swapped: the names would be read as values' neighbours, the correlation names as names.
    assert.match(edited((l) => [...l.slice(0, 19), 'IX1 IX2', 'INDEX: APP INDEX: APP', 'Q1 Q2']), /have 2 lines of values above them where the legend of the plan has 1/);
    // A cost line doubled would make it the I/O; lost, the I/O would be read as the cost.
    assert.match(edited((l) => [...l.slice(0, 15), '7 6', ...l.slice(15)]), /the boxes named on line 17 have 3 lines below their numbers where the legend of the plan has 2/);
    assert.match(edited((l) => l.filter((x) => x !== '7 6')), /the boxes named on line 17 have 1 line below their numbers where the legend of the plan has 2/);
    // A value lost from a line: the others would be handed to the wrong boxes.
    assert.match(edited((l) => l.map((x) => (x === '15301 15301' ? '15301' : x))), /the values on line 22 do not pair up with the 2 boxes named below them/);
  });

  it('refuses names that moved to another box: RETURN below the top, an object name or a value read as an operator, a legend naming a field twice', () => {
    const scan = ['Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '42', 'TBSCAN', '( 2)', '10.5', '3', '|', '1000', 'TABLE: APP', 'T1', 'Q1'];
    assert.deepEqual(shape(statement(graphText(scan)).plan), { 1: 'RETURN:2', 2: 'TBSCAN:APP.T1' });
    const swap = (a: string, b: string) => scan.map((l) => (l === a ? b : l === b ? a : l));
    assert.match(refusal(statement(graphText(swap('RETURN', 'TBSCAN')))), /RETURN on line 11 is drawn below the top of the plan/);
    assert.match(refusal(statement(graphText(swap('TBSCAN', 'T1')))), /"T1" on line 11 is not one of Db2's operator names/);
    assert.match(refusal(statement(graphText(scan.map((l) => (l === 'TBSCAN' ? 'NA' : l))))), /"NA" on line 11 is not one of Db2's operator names/);
    // "Rows Actual" that lost a word: the actual rows would be read as the rows.
    const actuals = ['Rows', 'Rows Actual', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '42', '40', 'TBSCAN', '( 2)', '10.5', 'NA', '|', '1000', 'NA', 'TABLE: APP', 'T1', 'Q1'];
    const read = statement(graphText(actuals));
    assert.deepEqual([op(read.plan, 2).rows, op(read.plan, 2).actualRows], [42, 40]);
    assert.match(refusal(statement(graphText(actuals.map((l) => (l === 'Rows Actual' ? 'Rows' : l))))), /the legend of the RETURN box names the rows on two lines/);
  });

  it('refuses a reading whose operator names disagree with Plan Details', () => {
    // Complete Plan Details replace a damaged drawing anyway; these lack operator 8's block, so the drawing is read.
    const text = writeExfmt([orderLinePlan()]);
    const [head, details] = [text.slice(0, text.indexOf('Plan Details:')), text.slice(text.indexOf('Plan Details:'))];
    const partial = details.replace(/\t8\) IXSCAN[\s\S]*?(?=\t9\) INSERT)/, '');
    const flushed = damage(head.split('\n'), 'strip').join('\n');
    const agreed = statement(flushed + partial);
    assert.deepEqual(agreed.warnings.map((w) => w.code), ['damaged-graph-levels']);
    assert.equal(op(agreed.plan, 4).label, 'FILTER');
    // The drawing says SORT where Plan Details say FILTER (two name lines of one shape swapped read like this).
    const renamed = flushed.replace(/^FILTER( .*)$/m, 'SORT$1');
    assert.notEqual(renamed, flushed);
    assert.match(refusal(statement(renamed + partial)), /read row by row, Plan Details name operator 4 FILTER, where the rows of the drawing give SORT\./);
  });

  it('links a join-free drawing without connector lines only when its boxes read as one per row, and never as a fallback', () => {
    // Without connector lines, a `|` is put back under each operator box and the rows are checked as usual.
    const actuals = ['Rows', 'Rows Actual', 'RETURN', '( 1)', 'Cost', 'I/O', '42', '40', 'TBSCAN', '( 2)', '10.5', 'NA', '1000', 'NA', 'TABLE: APP', 'T1', 'Q1'];
    const chain = statement(graphText(actuals));
    assert.deepEqual(chain.warnings.map((w) => w.code), ['damaged-graph-chain']);
    assert.deepEqual(shape(chain.plan), { 1: 'RETURN:2', 2: 'TBSCAN:APP.T1' });
    assert.deepEqual([op(chain.plan, 2).rows, op(chain.plan, 2).actualRows, op(chain.plan, 2).totalCost], [42, 40, 10.5]);
    assert.deepEqual(op(chain.plan, 2).inputs, [{ kind: 'object', object: { key: 'APP.T1', schema: 'APP', name: 'T1', kind: 'table', correlation: 'Q1', rows: 1000 } }]);
    // A join-free drawing the row-by-row reading refused (here cut off under its object label) stays refused.
    const costOnly = ['Rows', 'RETURN', '( 1)', 'Cost', '|', '5.5', 'SHIP', '( 2)', '12.5', '|', '100', 'NICKNM: ORA'];
    assert.match(refusal(statement(graphText(costOnly))), /do not pair up with the operator numbers and object names below them/);
    // Numbered lines do not read as boxes: refused, not linked with a line number as a name. Quoted ("> ") lines
    // are a mail reply's: unquoted, they read as the drawing itself.
    const full = [...costOnly, 'LINEITEM', 'Q1'];
    assert.ok(statement(graphText(full)).plan);
    assert.deepEqual(statement(graphText(full.map((l) => `> ${l}`))).plan, statement(graphText(full)).plan);
    assert.equal(statement(graphText(full.map((l, i) => `${i + 1} ${l}`))).plan, undefined);
  });
});
