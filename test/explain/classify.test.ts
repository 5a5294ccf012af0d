import * as assert from 'node:assert/strict';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { classifyHiddenWork, insertTargetOf, type HiddenWorkReport } from '../../server/src/explain/classify';
import { factsExplainContext, schemaExplainContext } from '../../server/src/explain/schema-context';
import type { ExplainStatement } from '../../server/src/explain/model';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { SchemaModel } from '../../server/src/schema/schema';
import { fixture } from './helpers/fixtures';

function statement(name: string): ExplainStatement {
  const s = parseExfmt(fixture(name)).statements[0];
  assert.ok(s.plan, name);
  return s;
}

function close(actual: number | undefined, expected: number, what: string): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-6, `${what}: ${actual} != ${expected}`);
}

const SHOP_DDL = `
CREATE TABLE SHOP.ORDERS (ORDER_ID INTEGER NOT NULL PRIMARY KEY);
CREATE TABLE SHOP.ORDER_LINE (
  ORDER_ID INTEGER NOT NULL, LINE_NO INTEGER NOT NULL, PRODUCT_ID INTEGER, QTY INTEGER,
  PRIMARY KEY (ORDER_ID, LINE_NO),
  CONSTRAINT FK_LINE_ORDER FOREIGN KEY (ORDER_ID) REFERENCES SHOP.ORDERS (ORDER_ID) ON DELETE CASCADE
);
CREATE INDEX SHOP.ORDER_LINE_PROD ON SHOP.ORDER_LINE (PRODUCT_ID);
CREATE TABLE SHOP.ORDER_LINE_AUDIT (ORDER_ID INTEGER, LINE_NO INTEGER, AT TIMESTAMP);
CREATE TRIGGER SHOP.TRG_LINE_AUDIT AFTER INSERT ON SHOP.ORDER_LINE
  REFERENCING NEW AS N FOR EACH ROW
  INSERT INTO SHOP.ORDER_LINE_AUDIT VALUES (N.ORDER_ID, N.LINE_NO, CURRENT TIMESTAMP);
CREATE TABLE SHOP.SALES_BY_PRODUCT AS
  (SELECT PRODUCT_ID, SUM(QTY) AS QTY, COUNT(*) AS N FROM SHOP.ORDER_LINE GROUP BY PRODUCT_ID)
  DATA INITIALLY DEFERRED REFRESH IMMEDIATE;
`;

function expectOrderLineWithSchema(r: HiddenWorkReport): void {
  assert.deepEqual(r.labels, {
    1: null,
    2: 'mqt-maintenance',
    3: 'trigger',
    4: null,
    5: 'foreign-key-check',
    6: null,
    7: null,
    8: 'foreign-key-check',
    9: 'trigger',
    10: 'trigger',
    11: 'mqt-maintenance',
    12: 'mqt-maintenance',
    13: 'mqt-maintenance',
  });
  assert.deepEqual(
    r.pieces.map((p) => [p.kind, p.operators, p.name]),
    [
      ['mqt-maintenance', [2, 11, 12, 13], 'SHOP.SALES_BY_PRODUCT'],
      ['trigger', [3, 9, 10], 'SHOP.TRG_LINE_AUDIT'],
      ['foreign-key-check', [5, 8], 'FK_LINE_ORDER'],
    ],
  );
  // own costs: NLJOIN 2 32.6041-23.5033-9.1, UPDATE 11 9.1-5.8, FETCH 12 5.8-2.9, IXSCAN 13 2.9
  close(r.pieces[0].cost, 9.1008, 'MQT cost');
  close(r.pieces[0].share, 9.1008 / 32.6041, 'MQT share');
  close(r.pieces[1].cost, 0.0011 + (7.5021 - 0.0052) + 0.0052, 'trigger cost');
  close(r.pieces[2].cost, 0.0012 + 3.1234, 'FK cost');
  close(r.pieces[2].share, 3.1246 / 32.6041, 'FK share');
  close(r.mainShare, 12.8456 / 32.6041, 'insert share');
  assert.equal(r.mainOperator, 6);
  assert.equal(r.target, 'SHOP.ORDER_LINE');
}

describe('explain: classifyHiddenWork', () => {
  it('finds the seed\'s foreign-key check: IXSCAN (7) under NLJOIN (4), 9.2% of the cost', () => {
    const r = classifyHiddenWork(statement('seed-fk-insert-graph.txt'));
    assert.deepEqual(r.labels, { 1: null, 2: null, 3: null, 4: 'foreign-key-check', 5: null, 6: null, 7: 'foreign-key-check' });
    assert.equal(r.mainOperator, 5);
    assert.equal(r.target, 'WILKINS.TEST1');
    assert.equal(r.pieces.length, 1);
    const fk = r.pieces[0];
    assert.deepEqual(fk.operators, [4, 7]);
    close(fk.cost, 28.1268 - 25.5248, 'FK cost (NLJOIN own + IXSCAN)');
    close(fk.share, (28.1268 - 25.5248) / 28.2956, 'FK share');
    assert.equal(
      r.verdict,
      "9.2% of the estimated cost is a foreign-key check on WILKINS.TEST1's parent via SYSIBM.SQL0401290925513 (NLJOIN 4, IXSCAN 7). In all, hidden work is 9.2% of the estimated 28.2956 timerons; the INSERT itself (operator 5 with its input) accounts for 90.2%.",
    );
    assert.match(r.notes[0], /Explain does not show index maintenance/);
    // The plan's operators carry the labels too.
    assert.equal(statement('seed-fk-insert-graph.txt').plan!.operators.find((o) => o.id === 7)!.hidden, undefined);
  });

  it('without DDL, labels the FK check and says "trigger or MQT maintenance" for writes the plan alone cannot attribute', () => {
    const r = classifyHiddenWork(statement('insert-fk-trigger-mqt.exfmt.txt'));
    const either = 'trigger-or-mqt';
    assert.deepEqual(r.labels, { 1: null, 2: either, 3: either, 4: null, 5: 'foreign-key-check', 6: null, 7: null, 8: 'foreign-key-check', 9: either, 10: either, 11: either, 12: either, 13: either });
    assert.deepEqual(r.pieces.map((p) => p.operators), [[2, 11, 12, 13], [3, 9, 10], [5, 8]]);
    assert.match(r.pieces[0].description, /^an UPDATE of SHOP\.SALES_BY_PRODUCT done for the INSERT: a trigger or the maintenance of a materialized query table; the plan alone cannot tell which/);
    assert.match(r.pieces[1].description, /^an INSERT of SHOP\.ORDER_LINE_AUDIT done for the INSERT/);
    // The index's base table (Objects Used) names the parent even without a schema.
    assert.match(r.pieces[2].description, /SHOP\.ORDER_LINE's parent SHOP\.ORDERS via SYSIBM\.SQL250101120000100/);
  });

  it('names the constraint, trigger and MQT with a facts context, and notes index maintenance', () => {
    const ctx = factsExplainContext({
      foreignKeys: [{ name: 'FK_LINE_ORDER', child: 'SHOP.ORDER_LINE', parent: 'SHOP.ORDERS', deleteRule: 'cascade', enforced: true }],
      triggers: [{ name: 'SHOP.TRG_LINE_AUDIT', table: 'SHOP.ORDER_LINE', timing: 'after', events: ['insert'], writes: ['SHOP.ORDER_LINE_AUDIT'] }],
      mqts: [{ name: 'SHOP.SALES_BY_PRODUCT', baseTables: ['SHOP.ORDER_LINE'], refresh: 'immediate' }],
      indexes: [
        { name: 'SHOP.ORDER_LINE_PK', table: 'SHOP.ORDER_LINE', unique: true },
        { name: 'SHOP.ORDER_LINE_PROD', table: 'SHOP.ORDER_LINE' },
      ],
    });
    const s = statement('insert-fk-trigger-mqt.exfmt.txt');
    const r = classifyHiddenWork(s, ctx);
    expectOrderLineWithSchema(r);
    assert.equal(s.plan!.operators.find((o) => o.id === 8)!.hidden, 'foreign-key-check');
    assert.equal(s.plan!.operators.find((o) => o.id === 6)!.hidden, null);
    assert.match(r.verdict, /^27\.9% of the estimated cost is maintenance of the REFRESH IMMEDIATE materialized query table SHOP\.SALES_BY_PRODUCT/);
    assert.match(r.verdict, /23\.0% is trigger SHOP\.TRG_LINE_AUDIT writing SHOP\.ORDER_LINE_AUDIT/);
    assert.match(r.verdict, /9\.6% is a foreign-key check on SHOP\.ORDER_LINE's parent SHOP\.ORDERS via SYSIBM\.SQL250101120000100 \(constraint FK_LINE_ORDER\)/);
    assert.match(r.verdict, /hidden work is 60\.5% of the estimated 32\.6041 timerons; the INSERT itself \(operator 6 with its input\) accounts for 39\.4%\.$/);
    assert.equal(
      r.notes[0],
      'Explain does not show index maintenance: every inserted row also adds a key to each of the 2 indexes on SHOP.ORDER_LINE (SHOP.ORDER_LINE_PK, unique; SHOP.ORDER_LINE_PROD). That work is inside the INSERT operator\'s own cost, not a separate operator.',
    );
  });

  it('gives the same answer when backed by the SchemaModel built from DDL', () => {
    const model = SchemaModel.build([buildFileModel({ path: 'shop.sql', text: SHOP_DDL, language: 'sql' })]);
    const ctx = schemaExplainContext(model);
    assert.deepEqual(
      ctx.foreignKeysOf('SHOP.ORDER_LINE').map((f) => [f.name, f.parent, f.deleteRule, f.enforced]),
      [['FK_LINE_ORDER', 'SHOP.ORDERS', 'cascade', true]],
    );
    assert.deepEqual(ctx.triggersOn('SHOP.ORDER_LINE').map((t) => [t.name, t.timing, t.writes]), [['SHOP.TRG_LINE_AUDIT', 'after', ['SHOP.ORDER_LINE_AUDIT']]]);
    assert.equal(ctx.isMqt('SHOP.SALES_BY_PRODUCT'), true);
    assert.equal(ctx.isMqt('SHOP.ORDER_LINE'), false);
    assert.deepEqual(ctx.mqtsOver('SHOP.ORDER_LINE'), [{ name: 'SHOP.SALES_BY_PRODUCT', refresh: 'immediate' }]);
    // The primary key's index counts: every INSERT maintains it.
    assert.deepEqual(ctx.indexesOf!('SHOP.ORDER_LINE'), [
      { name: 'SHOP.ORDER_LINE_PROD', table: 'SHOP.ORDER_LINE', unique: false },
      { name: 'primary key (ORDER_ID, LINE_NO)', table: 'SHOP.ORDER_LINE', unique: true, constraint: true },
    ]);
    assert.equal(ctx.tableOfIndex!('SHOP.ORDER_LINE_PROD'), 'SHOP.ORDER_LINE');
    const r = classifyHiddenWork(statement('insert-fk-trigger-mqt.exfmt.txt'), ctx);
    expectOrderLineWithSchema(r);
    assert.match(r.notes[0], /2 indexes on SHOP\.ORDER_LINE \(SHOP\.ORDER_LINE_PROD; primary key \(ORDER_ID, LINE_NO\), unique\)/);
  });

  it('finds RI cascades and check-constraint filters', () => {
    // A DELETE fired by a trigger on a parent, and a DELETE on its child table through an ON DELETE CASCADE key.
    const plan = parseExfmt(
      [
        'Access Plan:',
        '-----------',
        '\tTotal Cost: \t\t40',
        '',
        ...require('./helpers/exfmt-writer').drawGraph(
          {
            id: 1, label: 'RETURN', rows: 1, cost: 40, io: 4,
            inputs: [
              {
                id: 2, label: 'NLJOIN', rows: 1, cost: 40, io: 4,
                inputs: [
                  { id: 3, label: 'FILTER', rows: 1, cost: 10, io: 1, inputs: [{ id: 4, label: 'INSERT', rows: 1, cost: 9, io: 1, inputs: [{ id: 5, label: 'TBSCAN', rows: 1, cost: 0.01, io: 0, inputs: [{ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 1 }] }], writes: { type: 'TABLE', schema: 'APP', name: 'EVENTS', rows: 10 } }] },
                  {
                    id: 6, label: 'NLJOIN', rows: 1, cost: 30, io: 3,
                    inputs: [
                      { id: 7, label: 'DELETE', rows: 1, cost: 12, io: 1, inputs: [{ id: 8, label: 'IXSCAN', rows: 1, cost: 3, io: 0, inputs: [{ type: 'INDEX', schema: 'APP', name: 'SESSIONS_PK', rows: 9 }] }], writes: { type: 'TABLE', schema: 'APP', name: 'SESSIONS', rows: 9 } },
                      { id: 9, label: 'DELETE', rows: 1, cost: 17, io: 2, inputs: [{ id: 10, label: 'TBSCAN', rows: 1, cost: 8, io: 1, inputs: [{ type: 'TABLE', schema: 'APP', name: 'SESSION_ITEMS', rows: 90 }] }], writes: { type: 'TABLE', schema: 'APP', name: 'SESSION_ITEMS', rows: 90 } },
                    ],
                  },
                ],
              },
            ],
          },
          {},
          4,
        ),
      ].join('\n'),
    ).statements[0];
    plan.plan!.operators.find((o) => o.id === 3)!.predicates.push({ howApplied: 'Residual', text: "RAISE_ERROR('23513', 'check CK_EVENTS_TYPE')" });
    const ctx = factsExplainContext({
      foreignKeys: [{ name: 'FK_ITEM_SESSION', child: 'APP.SESSION_ITEMS', parent: 'APP.SESSIONS', deleteRule: 'cascade' }],
      triggers: [{ name: 'APP.TRG_EVENTS_CLOSE', table: 'APP.EVENTS', timing: 'after', events: ['insert'], writes: ['APP.SESSIONS'] }],
    });
    const r = classifyHiddenWork(plan, ctx);
    assert.deepEqual(r.labels, { 1: null, 2: 'trigger', 3: 'check-constraint', 4: null, 5: null, 6: 'trigger', 7: 'trigger', 8: 'trigger', 9: 'ri-cascade', 10: 'ri-cascade' });
    assert.deepEqual(
      r.pieces.map((p) => [p.kind, p.operators, p.name ?? null]),
      [
        ['ri-cascade', [9, 10], 'FK_ITEM_SESSION'],
        ['trigger', [2, 6, 7, 8], 'APP.TRG_EVENTS_CLOSE'],
        ['check-constraint', [3], null],
      ],
    );
    close(r.pieces[0].share, 17 / 40, 'cascade share');
  });

  it('says so when there is no hidden work, or no DML at all', () => {
    const only = parseExfmt(
      ['Access Plan:', '-----------', '\tTotal Cost: \t\t5', '', '        Rows', '       RETURN', '       (   1)', '        Cost', '         I/O', '         |', '         1', '       INSERT', '       (   2)', '         5', '         1', '     /---+---\\', '    1         10', ' TBSCAN  TABLE: APP', ' (   3)      LOG', '  0.01', '    0', '   |', '    1', 'TABFNC: SYSIBM', '   GENROW'].join('\n'),
    ).statements[0];
    const r = classifyHiddenWork(only);
    assert.deepEqual(r.pieces, []);
    assert.equal(r.verdict, 'No hidden work in this plan: of the estimated cost of 5 timerons, the INSERT itself (operator 2 with its input) accounts for 100%.');
    const select = classifyHiddenWork(parseExfmt(fixture('large-500-operators.exfmt.txt')).statements[0]);
    assert.match(select.verdict, /no INSERT, UPDATE or DELETE operator/);
  });

  it('reads the target of INSERT INTO from statement text', () => {
    assert.equal(insertTargetOf('insert into shop.order_line values (1)'), 'SHOP.ORDER_LINE');
    assert.equal(insertTargetOf('INSERT INTO "Mixed"."Case T" (A) VALUES (1)'), 'Mixed.Case T');
    assert.equal(insertTargetOf('INSERT INTO t1 VALUES (1)'), '.T1');
    assert.equal(insertTargetOf('SELECT 1 FROM x'), undefined);
  });
});
