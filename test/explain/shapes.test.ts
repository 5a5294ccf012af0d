// What Db2 11.5.8 and 12.1 print and what pastes do to it, read back into the right tree; and what the
// classifier may say about UPDATE, DELETE and MERGE plans, with and without the DDL.
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { classifyHiddenWork } from '../../server/src/explain/classify';
import { explainDocument } from '../../server/src/explain/report';
import { renderHtml, renderMarkdown, renderText, toJson } from '../../server/src/explain/render';
import { factsExplainContext, schemaExplainContext } from '../../server/src/explain/schema-context';
import type { AccessPlan, ExplainStatement } from '../../server/src/explain/model';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { SchemaModel } from '../../server/src/schema/schema';
import { fixture, repoRoot } from './helpers/fixtures';
import { drawGraph, writeExfmt, type WOperator } from './helpers/exfmt-writer';
import { columnOrganizedPlan, deleteCascadePlan, fifteenOperatorPlan, insertFkFetchPlan, largeInsertPlan, mergePlan, updatePlan } from './helpers/make-fixtures';
import { runExplainCommand } from '../../server/src/cli/explain-command';

function shape(plan: AccessPlan | undefined): Record<number, string> {
  return Object.fromEntries((plan?.operators ?? []).map((o) => [o.id, `${o.label}:${o.children.join(',')}`]));
}

function only(name: string): ExplainStatement {
  const doc = parseExfmt(fixture(name));
  assert.equal(doc.statements.length, 1, name);
  const s = doc.statements[0];
  assert.deepEqual(s.errors, [], name);
  assert.ok(s.plan, name);
  return s;
}

const op = (s: ExplainStatement, id: number) => s.plan!.operators.find((o) => o.id === id)!;

function schema(name: string) {
  return schemaExplainContext(SchemaModel.build([buildFileModel({ path: name, text: fixture(name), language: 'sql' })]));
}

const FIFTEEN = {
  1: 'RETURN:2', 2: 'NLJOIN:3,11', 3: '^NLJOIN:4,10', 4: 'INSERT:5', 5: 'HSJOIN:6,9', 6: 'TBSCAN:7', 7: 'TEMP:8', 8: 'TBSCAN:', 9: 'TBSCAN:7',
  10: 'IXSCAN:', 11: 'UPDATE:12', 12: '>NLJOIN:13,15', 13: 'GRPBY:14', 14: 'TBSCAN:', 15: 'IXSCAN:',
};

/** Every children entry of the JSON names an operator of the same statement. */
function assertChildrenExist(json: unknown, what: string): void {
  for (const s of (json as { statements: { operators: { id: number; children: number[] }[] }[] }).statements) {
    const ids = new Set(s.operators.map((o) => o.id));
    for (const o of s.operators) for (const c of o.children) assert.ok(ids.has(c), `${what}: operator ${o.id} names input ${c}, which does not exist`);
  }
}

describe('explain: what 11.5.8 and 12.1 print', () => {
  it('keeps estimated and actual rows from a "Rows Actual" graph; NA stays unknown', () => {
    const s = only('section-actuals.exfmt.txt');
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'DTQ:3', 3: 'HSJOIN:4,5', 4: 'TBSCAN:', 5: 'TBSCAN:' });
    assert.deepEqual(s.plan!.operators.map((o) => [o.id, o.rows, o.actualRows]), [[1, 4.21948, undefined], [2, 4.21948, 288], [3, 4.21948, 144], [4, 702, 251], [5, 260, 144]]);
    assert.equal(op(s, 3).totalCost, 81.8163);
    assert.equal(op(s, 3).ioCost, undefined === op(s, 3).ioCost ? undefined : 6);
    const orders = op(s, 4).inputs[0];
    assert.deepEqual(orders, { kind: 'object', object: { key: 'SALES.ORDERS', schema: 'SALES', name: 'ORDERS', kind: 'table', rows: 351, correlation: 'Q2' } });
    // DTQ in the graph, TQ in Plan Details: one operator, no mismatch.
    assert.deepEqual([op(s, 2).type, op(s, 2).label, op(s, 2).flags], ['TQ', 'DTQ', ['directed']]);
    assert.equal(op(s, 2).cpuCost, 1.10281e6);
    const json = toJson(explainDocument(parseExfmt(fixture('section-actuals.exfmt.txt')))) as { statements: { operators: { id: number; actualRows: number | null }[] }[] };
    assert.equal(json.statements[0].operators.find((o) => o.id === 4)!.actualRows, 251);
  });

  it('reads Plan Details headers padded before the colon (FETCH :, TQ    :, SORT  :, GRPBY :) without moving any input', () => {
    const padded = only('column-organized-ctq.v121.exfmt.txt');
    assert.deepEqual(padded.warnings, []);
    const expected = { 1: 'RETURN:2', 2: 'CTQ:3', 3: 'SORT:4', 4: 'GRPBY:5', 5: 'HSJOIN:6,7', 6: 'TBSCAN:', 7: 'FETCH:8', 8: 'IXSCAN:' };
    assert.deepEqual(shape(padded.plan), expected);
    assert.deepEqual([op(padded, 2).type, op(padded, 2).longName, op(padded, 2).flags], ['TQ', 'Table Queue', ['column-row-transition']]);
    assert.deepEqual(op(padded, 2).arguments, [{ name: 'TQORIGIN', description: 'Table queue origin type', value: 'COLUMN-ORGANIZED DATA' }]);
    assert.equal(op(padded, 7).longName, 'Fetch');
    // CO-TABLE:APP printed without a blank before the schema.
    assert.deepEqual(op(padded, 6).inputs, [{ kind: 'object', object: { key: 'APP.SALES', schema: 'APP', name: 'SALES', kind: 'table', rows: 4.2e6, correlation: 'Q2' } }]);
    // The same plan without padding reads the same; so do Plan Details alone (the graph removed).
    const plain = parseExfmt(writeExfmt([columnOrganizedPlan()], { statementType: 'Select' })).statements[0];
    assert.deepEqual(shape(plain.plan), expected);
    const text = fixture('column-organized-ctq.v121.exfmt.txt');
    const noGraph = text.slice(0, text.indexOf('Access Plan:')) + text.slice(text.indexOf('Plan Details:'));
    const details = parseExfmt(noGraph).statements[0];
    assert.equal(details.plan!.source, 'plan-details');
    assert.deepEqual(shape(details.plan), expected, 'Plan Details name CTQ from TQORIGIN too');
  });

  it('keeps a TEMP drawn twice under both parents, with own costs counted once', () => {
    const s = only('shared-temp-graph.txt');
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'HSJOIN:3,6', 3: 'TBSCAN:4', 4: 'TEMP:5', 5: 'TBSCAN:', 6: 'TBSCAN:4' });
    assert.ok(Math.abs(op(s, 6).ownCost! - (196.3 - 163.2)) < 1e-9);
    assert.ok(Math.abs(op(s, 3).ownCost! - (181.6 - 163.2)) < 1e-9);
    assert.ok(Math.abs(op(s, 4).ownCost! - (163.2 - 121.9)) < 1e-9);
    assert.deepEqual(s.plan!.roots, [1]);
    const text = renderText(explainDocument(parseExfmt(fixture('shared-temp-graph.txt'))));
    assert.match(text, /TBSCAN \(6\).*\n.*TEMP \(4\)  \(shared: its inputs are listed above\)/);
    // The writer's shared subplans (also with Plan Details) read the same way; the shares say why they do not add up.
    const fifteen = only('insert-15-operators.exfmt.txt');
    assert.deepEqual(shape(fifteen.plan), FIFTEEN);
    assert.deepEqual(fifteen.warnings, []);
    assert.match(classifyHiddenWork(fifteen).notes.join(' '), /TEMP 7 feeds more than one operator \(a shared result read again\): its cost is counted once here/);
  });

  it('reads a paste whose first line lost its indentation', () => {
    const s = only('first-line-flush-graph.txt');
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'INSERT:3', 3: 'TBSCAN:' });
    assert.deepEqual([op(s, 2).rows, op(s, 2).totalCost, op(s, 2).ioCost], [1, 18.275, 2]);
    assert.deepEqual(op(s, 2).objectsWritten, ['ETL.EVENTS']);
  });

  it('reads pastes with tabs of 4 columns, double spacing, and lines folded at a fixed width', () => {
    const tabs = only('tabs4-double-spaced-graph.txt');
    assert.ok(fixture('tabs4-double-spaced-graph.txt').includes('\t'));
    assert.deepEqual(tabs.warnings, []);
    assert.deepEqual(shape(tabs.plan), FIFTEEN);
    const folded = only('folded-graph.txt');
    assert.deepEqual(folded.warnings.map((w) => w.code), ['rejoined-wrapped-lines']);
    assert.deepEqual(shape(folded.plan), FIFTEEN);
    for (const width of [2, 3, 8]) {
      const text = ['Access Plan:', '-----------', '', ...drawGraph(fifteenOperatorPlan().root, { tabWidth: width }, 6)].join('\n');
      assert.deepEqual(shape(parseExfmt(text).statements[0].plan), FIFTEEN, `tabs of ${width}`);
    }
  });

  it('trusts the undamaged graph when Plan Details disagree, and says so without calling it damaged', () => {
    const text = fixture('insert-fk-fetch.exfmt.txt');
    const at = text.indexOf('5) FETCH : (Fetch)');
    assert.ok(at > 0, 'padded FETCH header in the fixture');
    const altered = text.slice(0, at) + text.slice(at).replace('From Operator #6', 'From Operator #4');
    const s = parseExfmt(altered).statements[0];
    assert.deepEqual(shape(s.plan), { 1: 'RETURN:2', 2: 'NLJOIN:3,5', 3: 'INSERT:4', 4: 'TBSCAN:', 5: 'FETCH:6', 6: 'IXSCAN:' });
    assert.equal(s.plan!.source, 'graph');
    assert.deepEqual(s.warnings.map((w) => w.code), ['details-mismatch']);
    assert.match(s.warnings[0].message, /draws operator FETCH \(5\) with the inputs \[6\] but Plan Details list \[4\]; the graph was used/);
  });

  it('never calls a clean plan damaged, and every JSON "children" names an operator that exists', () => {
    const dir = join(repoRoot(), 'test', 'fixtures', 'exfmt');
    const damaged = /^damaged-/;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.txt')).sort()) {
      const doc = parseExfmt(fixture(name));
      const messages = [...doc.errors, ...doc.warnings, ...doc.statements.flatMap((s) => [...s.errors, ...s.warnings])].map((m) => m.message);
      if (!damaged.test(name) && name !== 'folded-graph.txt') assert.ok(!messages.some((m) => /damaged/i.test(m)), `${name}: ${messages.join(' | ')}`);
      assertChildrenExist(toJson(explainDocument(doc)), name);
    }
    for (const plan of [fifteenOperatorPlan(), largeInsertPlan(120), insertFkFetchPlan(), deleteCascadePlan(), updatePlan(), mergePlan()]) {
      assertChildrenExist(toJson(explainDocument(parseExfmt(writeExfmt([plan], { paddedHeaders: true, actuals: true })))), `generated plan ${plan.queryNo}`);
    }
  });

  it('keeps JSON children pointing at real operators whatever is done to the text', () => {
    const base = fixture('insert-15-operators.exfmt.txt');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: base.length }), fc.integer({ min: 0, max: 400 }), fc.constantFrom('', '\n', '#99', '(  77)', 'From Operator #42\n'), (at, cut, insert) => {
        const text = base.slice(0, at) + insert + base.slice(Math.min(base.length, at + cut));
        assertChildrenExist(toJson(explainDocument(parseExfmt(text))), 'mutated plan');
      }),
      { numRuns: 150 },
    );
  });
});

describe('explain: saying only what the plan and the schema show', () => {
  it('names UPDATE, DELETE and MERGE plans as such, never "the insert"', () => {
    const update = explainDocument(parseExfmt(fixture('update.exfmt.txt')));
    assert.equal(update.statements[0].report.statementKind, 'update');
    assert.match(renderText(update), /UPDATE \(2\) .* ◀ the update$/m);
    assert.match(update.statements[0].report.verdict, /^No hidden work in this plan: of the estimated cost of 22\.3 timerons, the UPDATE itself \(operator 2 with its input\) accounts for 100%\.$/);
    const merge = explainDocument(parseExfmt(fixture('merge.exfmt.txt')));
    const r = merge.statements[0].report;
    assert.deepEqual([r.statementKind, r.mainOperators, r.pieces], ['merge', [2, 4], []]);
    assert.match(r.verdict, /the MERGE itself \(operators 2, 4 with their inputs\) accounts for 100%/);
    const text = renderText(merge);
    assert.match(text, /INSERT \(2\) .* ◀ the merge$/m);
    assert.match(text, /UPDATE \(4\) .* ◀ the merge$/m);
    for (const name of ['update.exfmt.txt', 'merge.exfmt.txt', 'delete-parent-restrict.exfmt.txt', 'delete-parent-cascade.exfmt.txt']) {
      const doc = explainDocument(parseExfmt(fixture(name)));
      for (const out of [renderText(doc), renderMarkdown(doc), renderHtml(doc)]) assert.doesNotMatch(out, /the insert/i, name);
    }
  });

  it('on a DELETE from a parent, a RESTRICT check reads the dependent table: without DDL and with it', () => {
    const plain = classifyHiddenWork(only('delete-parent-restrict.exfmt.txt'));
    assert.deepEqual(plain.pieces.map((p) => [p.kind, p.operators]), [['foreign-key-check', [2, 5]]]);
    assert.equal(
      plain.pieces[0].description,
      'a check that no row of a table depending on APP.CUSTOMER still references the deleted rows via APP.ORDERS_CUST_IX: what a foreign key with ON DELETE RESTRICT or NO ACTION makes Db2 check (^NLJOIN 2, IXSCAN 5)',
    );
    assert.doesNotMatch(plain.verdict, /parent/);
    const ddl = classifyHiddenWork(only('delete-parent-restrict.exfmt.txt'), schema('customer-restrict.schema.sql'));
    assert.equal(ddl.pieces[0].name, 'FK_ORDERS_CUSTOMER');
    assert.equal(
      ddl.pieces[0].description,
      'a check that no row of the dependent table APP.ORDERS still references the deleted rows via APP.ORDERS_CUST_IX (foreign key FK_ORDERS_CUSTOMER, ON DELETE RESTRICT) (^NLJOIN 2, IXSCAN 5)',
    );
    // A schema that says CASCADE for a plan that only reads: said, not papered over.
    const mismatch = classifyHiddenWork(only('delete-parent-restrict.exfmt.txt'), schema('customer-cascade.schema.sql'));
    assert.match(mismatch.pieces[0].description, /^a read of the dependent table APP\.ORDERS via APP\.ORDERS_CUST_IX: the schema you gave makes foreign key FK_ORDERS_CUSTOMER ON DELETE CASCADE, yet the plan only reads the table \(plan and schema may not match\)/);
    // The UNIQUE constraint is served by the unique index on the same column: two indexes, not three.
    assert.match(ddl.notes[0], /every deleted row also removes its key from each of the 2 indexes on APP\.CUSTOMER \(APP\.CUSTOMER_EMAIL_UX, unique; primary key \(ID\), unique\)/);
  });

  it('on a DELETE from a parent, CASCADE deletes and SET NULL updates the dependent table: without DDL and with it', () => {
    const plain = classifyHiddenWork(only('delete-parent-cascade.exfmt.txt'));
    assert.deepEqual(plain.pieces.map((p) => [p.kind, p.operators]), [['ri-cascade', [3, 6, 7]], ['ri-cascade', [2, 8, 9, 10]]]);
    assert.match(plain.pieces[0].description, /^a DELETE of APP\.ORDERS, a table depending on APP\.CUSTOMER: what an ON DELETE CASCADE foreign key does \(a trigger could do the same; the schema would tell\)/);
    assert.match(plain.pieces[1].description, /^an UPDATE of APP\.TICKETS, a table depending on APP\.CUSTOMER: what an ON DELETE SET NULL foreign key does/);
    assert.equal(plain.mainOperator, 4);
    const ddl = classifyHiddenWork(only('delete-parent-cascade.exfmt.txt'), schema('customer-cascade.schema.sql'));
    assert.deepEqual(ddl.pieces.map((p) => [p.kind, p.name]), [['ri-cascade', 'FK_ORDERS_CUSTOMER'], ['ri-cascade', 'FK_TICKETS_CUSTOMER']]);
    assert.match(ddl.pieces[0].description, /^the ON DELETE CASCADE of foreign key FK_ORDERS_CUSTOMER: deletes the dependent rows of APP\.ORDERS/);
    assert.match(ddl.pieces[1].description, /^the ON DELETE SET NULL of foreign key FK_TICKETS_CUSTOMER: sets the foreign key of the dependent rows of APP\.TICKETS to NULL/);
    assert.match(ddl.notes[0], /removes its key from the index on APP\.CUSTOMER \(primary key \(ID\), unique\)/);
  });

  it('an INSERT checks its parent, named from the DDL, and counts the primary key\'s index', () => {
    const plain = classifyHiddenWork(only('insert-fk-fetch.exfmt.txt'));
    assert.deepEqual(plain.pieces.map((p) => [p.kind, p.operators]), [['foreign-key-check', [2, 5, 6]]]);
    assert.match(plain.pieces[0].description, /^a foreign-key check on APP\.ORDER_ITEM's parent APP\.PRODUCT via APP\.PRODUCT, APP\.PRODUCT_PK/);
    const ddl = classifyHiddenWork(only('insert-fk-fetch.exfmt.txt'), schema('order-item.schema.sql'));
    assert.equal(ddl.pieces[0].name, 'FK_ITEM_PRODUCT');
    assert.match(ddl.notes[0], /adds a key to each of the 2 indexes on APP\.ORDER_ITEM \(APP\.ORDER_ITEM_PRODUCT_IX; primary key \(ORDER_ID, LINE\), unique\)/);
  });

  it('without DDL, tells MQT maintenance (aggregated rows applied) from a write it cannot attribute', () => {
    const r = classifyHiddenWork(only('insert-15-operators.exfmt.txt'));
    assert.deepEqual(r.pieces.map((p) => [p.kind, p.operators]), [['mqt-maintenance', [2, 11, 12, 13, 14, 15]], ['foreign-key-check', [3, 10]]]);
    assert.match(r.pieces[0].description, /^maintenance of APP\.SALES_BY_DAY, which the plan updates with the changed rows aggregated \(GRPBY\)/);
    const audit = classifyHiddenWork(only('insert-fk-trigger-mqt.exfmt.txt'));
    assert.deepEqual(audit.pieces.map((p) => p.kind), ['trigger-or-mqt', 'trigger-or-mqt', 'foreign-key-check']);
    // A DELETE done by an INSERT is no MQT maintenance: only a trigger deletes there.
    const del: WOperator = { id: 9, label: 'DELETE', rows: 1, cost: 9, io: 1, inputs: [{ id: 10, label: 'IXSCAN', rows: 1, cost: 3, io: 0, inputs: [{ type: 'INDEX', schema: 'APP', name: 'QUEUE_PK', rows: 9 }] }], writes: { type: 'TABLE', schema: 'APP', name: 'QUEUE', rows: 9 } };
    const insert: WOperator = { id: 3, label: 'INSERT', rows: 1, cost: 5, io: 1, inputs: [{ id: 4, label: 'TBSCAN', rows: 1, cost: 0.01, io: 0, inputs: [{ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 1 }] }], writes: { type: 'TABLE', schema: 'APP', name: 'EVENTS', rows: 10 } };
    const root: WOperator = { id: 1, label: 'RETURN', rows: 1, cost: 15, io: 2, inputs: [{ id: 2, label: 'NLJOIN', rows: 1, cost: 15, io: 2, inputs: [insert, del] }] };
    const s = parseExfmt(writeExfmt([{ queryNo: 1, original: 'INSERT INTO APP.EVENTS VALUES (?)', optimized: 'INSERT …', root, objects: [] }])).statements[0];
    assert.deepEqual(classifyHiddenWork(s).pieces.map((p) => p.kind), ['trigger']);
  });

  it('never says a table has no index when the schema given does not describe it', () => {
    const unrelated = schemaExplainContext(SchemaModel.build([buildFileModel({ path: 'other.sql', text: 'CREATE TABLE APP.OTHER (ID INT NOT NULL PRIMARY KEY);', language: 'sql' })]));
    const r = classifyHiddenWork(only('insert-fk-trigger-mqt.exfmt.txt'), unrelated);
    assert.equal(r.notes[0], 'SHOP.ORDER_LINE is not in the schema you gave, so its indexes are not known; Explain does not show index maintenance either (it is inside the INSERT operator\'s own cost).');
    const all = [r.verdict, ...r.notes, ...r.pieces.map((p) => p.description)].join(' ');
    assert.doesNotMatch(all, /declares no index|does not explain|no trigger on/);
    // Facts without index facts: the indexes are unknown, not absent.
    const facts = classifyHiddenWork(only('insert-fk-trigger-mqt.exfmt.txt'), factsExplainContext({ foreignKeys: [{ child: 'SHOP.ORDER_LINE', parent: 'SHOP.ORDERS' }] }));
    assert.match(facts.notes[0], /the schema given does not list those indexes/);
    // A table the schema knows and a write nothing in it explains.
    const known = schemaExplainContext(SchemaModel.build([buildFileModel({ path: 's.sql', text: 'CREATE TABLE SHOP.ORDER_LINE (ID INT NOT NULL PRIMARY KEY); CREATE TABLE SHOP.ORDER_LINE_AUDIT (ID INT);', language: 'sql' })]));
    const k = classifyHiddenWork(only('insert-fk-trigger-mqt.exfmt.txt'), known);
    assert.match(k.pieces.find((p) => p.operators.includes(9))!.description, /^a write to SHOP\.ORDER_LINE_AUDIT that the schema you gave does not explain/);
    assert.match(k.notes[0], /adds a key to the index on SHOP\.ORDER_LINE \(primary key \(ID\), unique\)/);
  });

  it('escapes plan object names in Markdown and HTML', () => {
    const evil = 'T<img_src=x_onerror=alert(1)>*|`';
    const root: WOperator = {
      id: 1, label: 'RETURN', rows: 1, cost: 20, io: 2,
      inputs: [{ id: 2, label: 'NLJOIN', rows: 1, cost: 20, io: 2, inputs: [
        { id: 3, label: 'INSERT', rows: 1, cost: 10, io: 1, inputs: [{ id: 4, label: 'TBSCAN', rows: 1, cost: 0.01, io: 0, inputs: [{ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 1 }] }], writes: { type: 'TABLE', schema: 'APP', name: evil, rows: 5 } },
        { id: 5, label: 'IXSCAN', rows: 1, cost: 9, io: 1, inputs: [{ type: 'INDEX', schema: 'APP', name: `${evil}_PK`, rows: 5 }] },
      ] }],
    };
    const doc = parseExfmt(['Access Plan:', '-----------', '', ...drawGraph(root, {}, 2)].join('\n'));
    assert.deepEqual(doc.statements[0].errors, []);
    const report = explainDocument(doc);
    assert.match(report.statements[0].report.verdict, /T<img_src/);
    const md = renderMarkdown(report);
    const outsideCode = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
    assert.doesNotMatch(outsideCode, /<img|\*\||[^\\]`/);
    assert.match(outsideCode, /APP\.T&lt;img\\_src=x\\_onerror=alert\(1\)&gt;\\\*\\\|\\`/);
    const html = renderHtml(report);
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /APP\.T&lt;img_src=x_onerror=alert\(1\)&gt;\*\|`/);
  });
});

describe('explain: damaged pastes are refused', () => {
  async function explain(text: string) {
    let stdout = '';
    let stderr = '';
    const code = await runExplainCommand(['-'], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: async () => text, isTTY: false }, { env: {} });
    return { code, stdout, stderr };
  }

  it('exits 2 with the reason: stripped indentation, collapsed spaces, a drawing that does not connect', async () => {
    const flushed = await explain(fixture('damaged-flushed-shared-temp-graph.txt'));
    assert.equal(flushed.code, 2);
    assert.match(flushed.stderr, /cannot be read as an access plan[\s\S]*leading whitespace of its lines was stripped/);
    const collapsed = await explain(['Rows', 'RETURN', '( 1)', 'Cost', 'I/O', '|', '1', '^NLJOIN', '( 2)', '0.0118', '0', '/-----+------\\', '1 1', 'IXSCAN IXSCAN', '( 3) ( 4)', '0.006 0.005', '0 0'].join('\n'));
    assert.equal(collapsed.code, 2);
    assert.match(collapsed.stderr, /runs of spaces were collapsed/);
    // A box cut out of the middle: the connector above it leads nowhere.
    const lines = drawGraph(fifteenOperatorPlan().root, {}, 4);
    const at = lines.findIndex((l) => l.includes('(  11)'));
    const cut = [...lines.slice(0, at - 3), ...lines.slice(at + 3)];
    const broken = await explain(['Access Plan:', '-----------', '', ...cut].join('\n'));
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /could not be read completely, so no tree is shown rather than a wrong one/);
    assert.equal(broken.stdout, '');
  });
});
