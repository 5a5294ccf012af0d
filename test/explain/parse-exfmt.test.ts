import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { parseOperatorLabel, parseDb2Number } from '../../server/src/explain/symbols';
import type { AccessPlan, PlanOperator } from '../../server/src/explain/model';
import { fixture } from './helpers/fixtures';
import { drawGraph, g, type WOperator } from './helpers/exfmt-writer';
import { insertFkFetchPlan } from './helpers/make-fixtures';

function op(plan: AccessPlan | undefined, id: number): PlanOperator {
  const found = plan?.operators.find((o) => o.id === id);
  assert.ok(found, `operator ${id}`);
  return found;
}

function shape(plan: AccessPlan | undefined): Record<number, string> {
  const out: Record<number, string> = {};
  for (const o of plan?.operators ?? []) out[o.id] = `${o.type}:${o.children.join(',')}`;
  return out;
}

const ORDER_LINE_SHAPE = {
  1: 'RETURN:2',
  2: 'NLJOIN:3,11',
  3: 'NLJOIN:4,9',
  4: 'FILTER:5',
  5: 'NLJOIN:6,8',
  6: 'INSERT:7',
  7: 'TBSCAN:',
  8: 'IXSCAN:',
  9: 'INSERT:10',
  10: 'TBSCAN:',
  11: 'UPDATE:12',
  12: 'FETCH:13',
  13: 'IXSCAN:',
};

describe('explain: parseExfmt', () => {
  it('reads the seed\'s pasted INSERT graph (prose around it) into the tree of seed 000', () => {
    const doc = parseExfmt(fixture('seed-fk-insert-graph.txt'));
    assert.equal(doc.kind, 'graph');
    assert.equal(doc.statements.length, 1);
    const s = doc.statements[0];
    assert.deepEqual(s.errors, []);
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'TBSCAN:3', 3: 'FILTER:4', 4: 'NLJOIN:5,7', 5: 'INSERT:6', 6: 'TBSCAN:', 7: 'IXSCAN:' });
    assert.deepEqual(s.plan!.roots, [1]);
    assert.equal(op(s.plan, 7).totalCost, 2.60196);
    assert.equal(op(s.plan, 5).totalCost, 25.5248);
    assert.equal(op(s.plan, 3).rows, 0.04);
    assert.equal(op(s.plan, 2).ioCost, 1);
    // RETURN shows the legend; its cost is its input's.
    assert.equal(op(s.plan, 1).totalCost, 28.2956);
    assert.equal(s.plan!.totalCost, 28.2956);
    assert.deepEqual(op(s.plan, 5).objectsWritten, ['WILKINS.TEST1']);
    assert.deepEqual(op(s.plan, 7).objectsRead, ['SYSIBM.SQL0401290925513']);
    assert.deepEqual(op(s.plan, 2).objectsRead, ['SYSIBM.GENROW']);
    assert.deepEqual(op(s.plan, 6).objectsRead, ['SYSIBM.GENROW']);
    const written = op(s.plan, 5).inputs.find((i) => i.kind === 'object');
    assert.deepEqual(written, { kind: 'object', object: { key: 'WILKINS.TEST1', schema: 'WILKINS', name: 'TEST1', kind: 'table', rows: 116 } });
    // own cost = cumulative minus inputs
    assert.ok(Math.abs(op(s.plan, 4).ownCost! - (28.1268 - 25.5248 - 2.60196)) < 1e-9);
  });

  it('strips a comment prefix shared by all graph lines (Javadoc " * ")', () => {
    const s = parseExfmt(fixture('javadoc-prefixed-graph.txt')).statements[0];
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'TBSCAN:3', 3: 'FILTER:4', 4: 'NLJOIN:5,7', 5: 'INSERT:6', 6: 'TBSCAN:', 7: 'IXSCAN:' });
  });

  it("reads a plan quoted in a mail reply ('> ' before every line, once per level) as the plan itself", () => {
    const plain = fixture('insert-fk-trigger-mqt.exfmt.txt');
    const lines = plain.split('\n');
    const quoted = (prefix: string) => lines.map((l) => (l === '' ? l : prefix + l)).join('\n');
    for (const prefix of ['> ', '>', '> > ', '>> ']) assert.deepEqual(parseExfmt(quoted(prefix)), parseExfmt(plain), JSON.stringify(prefix));
    // Only the graph quoted (a reply that quotes the drawing under its own words): the graph is read as drawn.
    const graph = fixture('seed-fk-insert-graph.txt');
    const own = 'The plan of my insert:\n' + graph.split('\n').map((l) => (l.trim() === '' ? l : '> ' + l)).join('\n');
    assert.deepEqual(shape(parseExfmt(own).statements[0].plan), shape(parseExfmt(graph).statements[0].plan));
  });

  it('reads a whole db2exfmt file: header, statement texts, graph, Plan Details, Objects Used', () => {
    const doc = parseExfmt(fixture('insert-fk-trigger-mqt.exfmt.txt'));
    assert.equal(doc.kind, 'db2exfmt');
    assert.equal(doc.header.db2Version, '11.05.8');
    assert.equal(doc.header.fields['FORMATTED ON DB'], 'SHOPDB');
    assert.equal(doc.header.tool, 'IBM DATABASE 2 Explain Table Format Tool');
    const s = doc.statements[0];
    assert.equal(s.statementNumber, 1);
    assert.equal(s.sectionNumber, 201);
    assert.equal(s.queryNo, 1);
    assert.equal(s.statementType, 'Insert');
    assert.equal(s.originalText, 'INSERT INTO shop.order_line (order_id, line_no, product_id, qty) VALUES (?, ?, ?, ?)');
    assert.match(s.optimizedText ?? '', /^INSERT INTO SHOP\.ORDER_LINE AS Q3\nSELECT/);
    assert.deepEqual(s.errors, []);
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(shape(s.plan), ORDER_LINE_SHAPE);
    assert.equal(s.plan!.totalCost, 32.6041);
    assert.equal(s.plan!.source, 'graph');
    const fkJoin = op(s.plan, 5);
    assert.equal(fkJoin.label, '^NLJOIN');
    assert.deepEqual(fkJoin.flags, ['early-out-left']);
    assert.deepEqual(fkJoin.arguments, [{ name: 'EARLYOUT', description: 'Early Out flag', value: 'LEFT' }]);
    assert.equal(fkJoin.longName, 'Nested Loop Join');
    const scan = op(s.plan, 8);
    assert.equal(scan.cpuCost, Number(g(3.1234 * 7000)));
    assert.deepEqual(scan.predicates, [{ id: 2, howApplied: 'Start Key', text: '(Q4.ORDER_ID = Q3.ORDER_ID)', filterFactor: 0.0002, comparison: 'Equal (=)' }]);
    assert.deepEqual(op(s.plan, 11).objectsWritten, ['SHOP.SALES_BY_PRODUCT']);
    assert.deepEqual(op(s.plan, 12).objectsRead, ['SHOP.SALES_BY_PRODUCT']);
    const index = s.plan!.objects.find((o) => o.key === 'SYSIBM.SQL250101120000100');
    assert.equal(index?.type, 'Index');
    assert.equal(index?.baseTable, 'SHOP.ORDERS');
    assert.ok(Math.abs(op(s.plan, 2).ownCost! - 0.0008) < 1e-9);
  });

  it('reads Windows line ends, 3-digit exponents and the 9.7 / 12.1 headers the same way', () => {
    const crlf = fixture('insert-fk-trigger-mqt.v97-crlf-exp3.exfmt.txt');
    assert.ok(crlf.includes('\r\n') && /e-00\d/.test(crlf), 'fixture has CRLF and 3-digit exponents');
    for (const name of ['insert-fk-trigger-mqt.v97-crlf-exp3.exfmt.txt', 'insert-fk-trigger-mqt.v121.exfmt.txt']) {
      const doc = parseExfmt(fixture(name));
      assert.equal(doc.kind, 'db2exfmt', name);
      const s = doc.statements[0];
      assert.deepEqual(s.errors, [], name);
      assert.deepEqual(shape(s.plan), ORDER_LINE_SHAPE, name);
      assert.equal(op(s.plan, 8).totalCost, 3.1234, name);
      assert.equal(op(s.plan, 8).cpuCost, 21863.8, name);
      assert.equal(op(s.plan, 8).rows, 4.5e-5, name);
      const audit = op(s.plan, 9).inputs.find((i) => i.kind === 'object');
      assert.equal(audit?.kind === 'object' ? audit.object.rows : undefined, 1.25e7, name);
    }
    assert.equal(parseExfmt(fixture('insert-fk-trigger-mqt.v97-crlf-exp3.exfmt.txt')).header.db2Version, '09.07.8');
    assert.equal(parseExfmt(fixture('insert-fk-trigger-mqt.v121.exfmt.txt')).header.tool, 'IBM Db2 Explain Table Format Tool');
    assert.equal(parseDb2Number('3.83e-007'), 3.83e-7);
    assert.equal(parseDb2Number('1.2e+003'), 1200);
    assert.equal(parseDb2Number('12e'), undefined);
  });

  it('reads operator symbols: early-out, outer joins, TQ variants, listener', () => {
    assert.deepEqual(parseOperatorLabel('^NLJOIN'), { type: 'NLJOIN', flags: ['early-out-left'] });
    assert.deepEqual(parseOperatorLabel('>HSJOIN'), { type: 'HSJOIN', flags: ['left-outer-join'] });
    assert.deepEqual(parseOperatorLabel('>MSJOIN<'), { type: 'MSJOIN', flags: ['full-outer-join'] });
    assert.deepEqual(parseOperatorLabel('NLJOIN^'), { type: 'NLJOIN', flags: ['early-out-right'] });
    assert.deepEqual(parseOperatorLabel('xHSJOIN'), { type: 'HSJOIN', flags: ['left-anti-join'] });
    assert.deepEqual(parseOperatorLabel('BTQ'), { type: 'TQ', flags: ['broadcast'] });
    assert.deepEqual(parseOperatorLabel('MDTQ'), { type: 'TQ', flags: ['merging', 'directed'] });
    assert.deepEqual(parseOperatorLabel('LTQ*'), { type: 'TQ', flags: ['local', 'listener'] });
    assert.deepEqual(parseOperatorLabel('pGRPBY'), { type: 'GRPBY', flags: ['partial-aggregation'] });
    assert.deepEqual(parseOperatorLabel('CTQ'), { type: 'TQ', flags: ['column-row-transition'] });
    assert.equal(parseOperatorLabel('TABLE:'), undefined);
    assert.equal(parseOperatorLabel('Rows'), undefined);
  });

  it('links three or more inputs under one connector', () => {
    const leaf = (id: number, name: string): WOperator => ({ id, label: 'TBSCAN', rows: 10, cost: 5, io: 1, inputs: [{ type: 'TABLE', schema: 'S', name, q: `Q${id}`, rows: 100 }] });
    const root: WOperator = { id: 1, label: 'RETURN', rows: 30, cost: 16, io: 3, inputs: [{ id: 2, label: 'UNION', rows: 30, cost: 16, io: 3, inputs: [leaf(3, 'A'), leaf(4, 'B'), leaf(5, 'C')] }] };
    const text = ['Access Plan:', '-----------', '\tTotal Cost: \t\t16', '', ...drawGraph(root, {}, 4)].join('\n');
    const s = parseExfmt(text).statements[0];
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'UNION:3,4,5', 3: 'TBSCAN:', 4: 'TBSCAN:', 5: 'TBSCAN:' });
    assert.deepEqual(op(s.plan, 4).inputs, [{ kind: 'object', object: { key: 'S.B', schema: 'S', name: 'B', kind: 'table', rows: 100, correlation: 'Q4' } }]);
  });

  it('detects a graph whose indentation was stripped and says why the tree cannot be rebuilt when the order of its boxes does not settle it', () => {
    const doc = parseExfmt(fixture('damaged-flushed-shared-temp-graph.txt'));
    const s = doc.statements[0];
    assert.equal(s.plan, undefined);
    assert.equal(s.errors.length, 1);
    assert.equal(s.errors[0].code, 'damaged-graph');
    assert.match(s.errors[0].message, /leading whitespace of its lines was stripped/);
    assert.match(s.errors[0].message, /cannot be rebuilt from the drawing: read row by row, TEMP \(4\) is drawn twice \(a shared TEMP or subplan\)/);
    assert.match(s.errors[0].message, /Operators seen: RETURN \(1\), HSJOIN \(2\), TBSCAN \(3\), TEMP \(4\)/);
  });

  it('names the operators of a flushed join graph whose name lines hold object labels too ("TBSCAN  TABLE: APP  IXSCAN")', () => {
    const flushed = drawGraph(insertFkFetchPlan().root).map((l) => l.trimStart());
    assert.ok(flushed.includes('TBSCAN       TABLE: APP       IXSCAN     TABLE: APP'));
    // Without its connector lines the order of the boxes cannot be read row by row either.
    const unlinked = flushed.filter((l) => !/^[|/]/.test(l));
    const s = parseExfmt(['Access Plan:', '-----------', ...unlinked].join('\n')).statements[0];
    assert.equal(s.plan, undefined);
    assert.equal(s.errors[0].code, 'damaged-graph');
    assert.match(s.errors[0].message, /Operators seen: RETURN \(1\), NLJOIN \(2\), INSERT \(3\), TBSCAN \(4\), FETCH \(5\), IXSCAN \(6\)\.$/);
    // A name the paste lost entirely comes from Plan Details when they have it (there without Input Streams).
    const lost = flushed.map((l) => (l === 'INSERT                       FETCH' ? 'INSERT' : l));
    assert.notDeepEqual(lost, flushed);
    const details = ['', 'Plan Details:', '-------------', '', '\t5) FETCH  : (Fetch)', '\t\tCumulative Total Cost: \t\t15.1', ''];
    const d = parseExfmt(['Access Plan:', '-----------', ...lost, ...details].join('\n')).statements[0];
    assert.match(d.errors[0].message, /Operators seen: RETURN \(1\), NLJOIN \(2\), operator \(3\), TBSCAN \(4\), FETCH \(5\), IXSCAN \(6\)\. Plan Details cannot replace it/);
  });

  it('rebuilds a damaged graph from Plan Details\' input streams when they are there', () => {
    const s = parseExfmt(fixture('damaged-flushed-with-details.exfmt.txt')).statements[0];
    assert.deepEqual(s.errors, []);
    assert.deepEqual(
      s.warnings.map((w) => w.code),
      ['rebuilt-from-details'],
    );
    assert.match(s.warnings[0].message, /indentation was stripped/);
    assert.equal(s.plan!.source, 'plan-details');
    assert.deepEqual(shape(s.plan), ORDER_LINE_SHAPE);
    assert.deepEqual(op(s.plan, 6).objectsWritten, ['SHOP.ORDER_LINE']);
    assert.deepEqual(op(s.plan, 8).objectsRead, ['SYSIBM.SQL250101120000100']);
    const input = op(s.plan, 8).inputs[0];
    assert.equal(input.kind === 'object' ? input.object.kind : input.kind, 'index');
    assert.deepEqual(op(s.plan, 5).flags, ['early-out-left']);
    assert.equal(op(s.plan, 5).label, '^NLJOIN');
    assert.equal(op(s.plan, 11).rows, 1);
  });

  it('detects collapsed spaces; a join-free plan is still rebuilt, with a warning, and a join cut off below its inputs is refused', () => {
    const chain = ['Access Plan:', '-----------', 'Total Cost: 8.22466e+06', 'Query Degree:1', 'Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '6', 'SHIP', '( 2)', '8.22466e+06', '2.08104e+06', '|', '5.99861e+07', 'NICKNM: ORA', 'LINEITEM'].join('\n');
    const s = parseExfmt(chain).statements[0];
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'SHIP:' });
    assert.deepEqual(op(s.plan, 2).objectsRead, ['ORA.LINEITEM']);
    assert.deepEqual(op(s.plan, 2).inputs, [{ kind: 'object', object: { key: 'ORA.LINEITEM', schema: 'ORA', name: 'LINEITEM', kind: 'nickname', rows: 5.99861e7 } }]);
    assert.deepEqual(s.warnings.map((w) => w.code), ['damaged-graph-levels']);
    const joined = ['Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '1', '^NLJOIN', '( 2)', '0.0118336', '0', '/-----+------\\', '1 1', 'IXSCAN IXSCAN', '( 3) ( 4)', '0.006 0.005', '0 0'].join('\n');
    const d = parseExfmt(joined).statements[0];
    assert.equal(d.plan, undefined);
    assert.match(d.errors[0].message, /runs of spaces were collapsed/);
    assert.match(d.errors[0].message, /nothing is drawn under IXSCAN \(3\): the drawing is cut off below it/);
  });

  it('recognises db2expln output and names it', () => {
    const doc = parseExfmt(fixture('db2expln-insert.txt'));
    assert.equal(doc.kind, 'db2expln');
    assert.equal(doc.statements.length, 0);
    assert.match(doc.errors[0].message, /db2expln output/);
    assert.match(doc.errors[0].message, /db2exfmt/);
  });

  it('reports text without a plan, binary input and non-strings without throwing', () => {
    assert.equal(parseExfmt('hello world\nthis is not a plan').errors[0].code, 'no-plan');
    assert.equal(parseExfmt('').errors[0].code, 'no-plan');
    assert.equal(parseExfmt('\u0000\u0001binary').errors[0].code, 'binary');
    assert.equal(parseExfmt(undefined).errors[0].code, 'not-text');
    assert.equal(parseExfmt(42 as unknown as string).errors[0].code, 'not-text');
  });

  it('never throws on arbitrary text or on mangled plans', () => {
    const base = fixture('insert-fk-trigger-mqt.exfmt.txt');
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        parseExfmt(s);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: base.length }), fc.integer({ min: 0, max: 200 }), fc.string({ maxLength: 20 }), (at, cut, insert) => {
        const doc = parseExfmt(base.slice(0, at) + insert + base.slice(Math.min(base.length, at + cut)));
        assert.ok(Array.isArray(doc.statements));
      }),
      { numRuns: 200 },
    );
  });

  it('parses a generated 500-operator plan quickly', () => {
    const text = fixture('large-500-operators.exfmt.txt');
    const started = Date.now();
    const doc = parseExfmt(text);
    const elapsed = Date.now() - started;
    const s = doc.statements[0];
    assert.equal(s.plan!.operators.length, 500);
    assert.deepEqual(s.plan!.roots, [1]);
    assert.deepEqual(s.warnings, []);
    const edges = s.plan!.operators.reduce((n, o) => n + o.children.length, 0);
    assert.equal(edges, 499);
    assert.ok(elapsed < 3000, `took ${elapsed} ms`);
  });

  it('does not backtrack catastrophically on long pathological lines', () => {
    const started = Date.now();
    parseExfmt('Access Plan:\n' + '('.repeat(20000) + ' '.repeat(20000) + '\n' + '/' + '-'.repeat(50000) + '\n' + 'A'.repeat(60000) + ':');
    parseExfmt('---------------- STATEMENT 1 ' + ' '.repeat(50000) + 'x');
    assert.ok(Date.now() - started < 2000);
  });
});

describe('explain: parseExfmt on a graph cut off part way', () => {
  it('never draws the top of a cut-off INSERT plan as a whole tree: it is refused, or it still holds the INSERT', () => {
    // A new user's audit: cut after NLJOIN (2), the graph read as RETURN over a join with no inputs and "no INSERT".
    const text = fixture('seed-fk-insert-graph.txt');
    const graphStart = text.indexOf('RETURN');
    let refused = 0;
    for (let cut = graphStart; cut < text.length; cut += 23) {
      const [s] = parseExfmt(text.slice(0, cut)).statements;
      if (!s?.plan) {
        refused++;
        continue;
      }
      const types = s.plan.operators.map((o) => o.type);
      assert.ok(types.includes('INSERT'), `cut at ${cut}: a plan without its INSERT (${types.join(', ')})`);
    }
    assert.ok(refused > 0);
    const [cut] = parseExfmt(text.slice(0, graphStart + 400)).statements;
    assert.match(cut.errors.map((e) => e.message).join(' '), /has 0 of the [12] inputs? it reads: the graph is cut off or damaged below it/);
  });
});

describe('explain: parseExfmt on compact real layouts', () => {
  it('reads the HSJOIN/IXAND sample (inputs packed side by side, FETCH with RIDSCN and table)', () => {
    const s = parseExfmt(fixture('compact-hsjoin-ixand-graph.txt')).statements[0];
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'HSJOIN:3,4', 3: 'TBSCAN:', 4: 'FETCH:5', 5: 'RIDSCN:6', 6: 'SORT:7', 7: 'IXAND:8,9', 8: 'IXSCAN:', 9: 'IXSCAN:' });
    assert.equal(s.plan!.totalCost, 225690);
    assert.deepEqual(op(s.plan, 4).objectsRead, ['DB2INST1.T1']);
    assert.deepEqual(op(s.plan, 9).objectsRead, ['DB2INST1.T1_IDX4']);
    assert.equal(op(s.plan, 2).rows, 1.20779e-10);
    assert.equal(op(s.plan, 4).ioCost, 2.00007);
  });

  it('reads the system-index sample (leaf names wider than their boxes)', () => {
    const s = parseExfmt(fixture('compact-nljoin-sysibm-index-graph.txt')).statements[0];
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'NLJOIN:3,5', 3: 'FETCH:4', 4: 'IXSCAN:', 5: 'TBSCAN:' });
    assert.deepEqual(op(s.plan, 4).objectsRead, ['SYSIBM.SQL191112223538190']);
    assert.deepEqual(op(s.plan, 3).objectsRead, ['DB2INST1.TTT']);
    const leaf = op(s.plan, 4).inputs[0];
    assert.deepEqual(leaf, { kind: 'object', object: { key: 'SYSIBM.SQL191112223538190', schema: 'SYSIBM', name: 'SQL191112223538190', kind: 'index', rows: 581853, correlation: 'Q1' } });
  });
});
