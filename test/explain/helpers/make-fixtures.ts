// Regenerates the generated fixtures in test/fixtures/exfmt/ (run: see test/explain/README in the report).
// The plan shapes are invented but follow the seed 000 INSERT plan and HIDDEN_WORK.md: an FK check joined
// to the INSERT, an AFTER trigger's INSERT, and the UPDATE of a REFRESH IMMEDIATE MQT.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drawGraph, writeExfmt, type WObject, type WOperator, type WriteOptions, type WStatement } from './exfmt-writer';

const genrow = (): WObject => ({ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 1 });

export function orderLinePlan(): WStatement {
  const insert: WOperator = {
    id: 6, label: 'INSERT', rows: 1, cost: 12.8456, io: 1,
    inputs: [{ id: 7, label: 'TBSCAN', rows: 1, cost: 0.0052, io: 0, inputs: [genrow()] }],
    writes: { type: 'TABLE', schema: 'SHOP', name: 'ORDER_LINE', rows: 25000 },
  };
  const fkScan: WOperator = {
    id: 8, label: 'IXSCAN', rows: 4.5e-5, cost: 3.1234, io: 0,
    inputs: [{ type: 'INDEX', schema: 'SYSIBM', name: 'SQL250101120000100', rows: 5000 }],
    args: [['SCANDIR', 'Scan Direction', 'FORWARD']],
    predicates: [{ how: 'Start Key', text: '(Q4.ORDER_ID = Q3.ORDER_ID)', ff: 0.0002 }],
  };
  const fkJoin: WOperator = { id: 5, label: '^NLJOIN', rows: 1, cost: 15.9702, io: 1, inputs: [insert, fkScan], args: [['EARLYOUT', 'Early Out flag', 'LEFT']] };
  const filter: WOperator = { id: 4, label: 'FILTER', rows: 1, cost: 16.0001, io: 1, inputs: [fkJoin] };
  const audit: WOperator = {
    id: 9, label: 'INSERT', rows: 1, cost: 7.5021, io: 1,
    inputs: [{ id: 10, label: 'TBSCAN', rows: 1, cost: 0.0052, io: 0, inputs: [genrow()] }],
    writes: { type: 'TABLE', schema: 'SHOP', name: 'ORDER_LINE_AUDIT', rows: 90000 },
  };
  const trigJoin: WOperator = { id: 3, label: 'NLJOIN', rows: 1, cost: 23.5033, io: 2, inputs: [filter, audit] };
  // A large cardinality so the graph itself shows an exponent (e+07 / e+007 on Windows).
  (audit.writes as WObject).rows = 1.25e7;
  const mqt: WOperator = {
    id: 11, label: 'UPDATE', rows: 1, cost: 9.1, io: 2,
    inputs: [
      {
        id: 12, label: 'FETCH', rows: 1, cost: 5.8, io: 1,
        inputs: [
          { id: 13, label: 'IXSCAN', rows: 1, cost: 2.9, io: 0, inputs: [{ type: 'INDEX', schema: 'SHOP', name: 'SALES_BY_PRODUCT_IX', rows: 800 }] },
          { type: 'TABLE', schema: 'SHOP', name: 'SALES_BY_PRODUCT', rows: 800 },
        ],
      },
    ],
    writes: { type: 'TABLE', schema: 'SHOP', name: 'SALES_BY_PRODUCT', rows: 800 },
  };
  const top: WOperator = { id: 2, label: 'NLJOIN', rows: 1, cost: 32.6041, io: 4, inputs: [trigJoin, mqt] };
  const root: WOperator = { id: 1, label: 'RETURN', rows: 1, cost: 32.6041, io: 4, inputs: [top] };
  return {
    queryNo: 1,
    original: 'INSERT INTO shop.order_line (order_id, line_no, product_id, qty)\n        VALUES (?, ?, ?, ?)',
    optimized: 'INSERT INTO SHOP.ORDER_LINE AS Q3\nSELECT Q1.$C0, Q1.$C1, Q1.$C2, Q1.$C3\nFROM (VALUES (:?, :?, :?, :?)) AS Q1',
    root,
    objects: [
      { schema: 'SHOP', name: 'ORDER_LINE', type: 'Table', extra: [['Number of rows', '25000']] },
      { schema: 'SYSIBM', name: 'SQL250101120000100', type: 'Index', extra: [['Base Table Schema', 'SHOP'], ['Base Table Name', 'ORDERS']] },
      { schema: 'SHOP', name: 'ORDER_LINE_AUDIT', type: 'Table' },
      { schema: 'SHOP', name: 'SALES_BY_PRODUCT', type: 'Table' },
      { schema: 'SHOP', name: 'SALES_BY_PRODUCT_IX', type: 'Index', extra: [['Base Table Schema', 'SHOP'], ['Base Table Name', 'SALES_BY_PRODUCT']] },
    ],
  };
}

/** A balanced plan of `count` operators: joins over scans, for the performance smoke test. */
export function largePlan(count: number, firstId = 2): WStatement {
  let next = firstId;
  const build = (budget: number): WOperator => {
    const id = next++;
    if (budget <= 1) {
      return { id, label: 'TBSCAN', rows: 100, cost: 10, io: 1, inputs: [{ type: 'TABLE', schema: 'BIG', name: `T${id}`, q: `Q${id}`, rows: 1000 }] };
    }
    if (budget === 2) {
      const child = build(1);
      return { id, label: 'SORT', rows: 100, cost: child.cost + 1, io: child.io, inputs: [child] };
    }
    const left = build(Math.floor((budget - 1) / 2));
    const right = build(budget - 1 - Math.floor((budget - 1) / 2));
    return { id, label: 'HSJOIN', rows: 100, cost: left.cost + right.cost + 1, io: left.io + right.io, inputs: [left, right] };
  };
  const child = build(count - 1);
  const root: WOperator = { id: 1, label: 'RETURN', rows: 100, cost: child.cost, io: child.io, inputs: [child] };
  return { queryNo: 9, original: 'SELECT * FROM big', optimized: 'SELECT *', root, objects: [] };
}

/**
 * 15 operators: an INSERT … SELECT whose input reads a staged TEMP twice (drawn under both scans), a
 * foreign-key check (IXSCAN on the parent's key beside the INSERT) and an aggregated UPDATE of a summary
 * table (MQT maintenance as the plan shows it: GRPBY of the new rows joined to the MQT's key).
 */
export function fifteenOperatorPlan(): WStatement {
  const stage: WOperator = { id: 8, label: 'TBSCAN', rows: 2000, cost: 310.4, io: 42, inputs: [{ type: 'TABLE', schema: 'APP', name: 'ORDERS_STAGE', q: 'Q1', rows: 2000 }] };
  const temp: WOperator = { id: 7, label: 'TEMP', rows: 2000, cost: 352.9, io: 55, inputs: [stage] };
  const scanA: WOperator = { id: 6, label: 'TBSCAN', rows: 2000, cost: 371.2, io: 55, inputs: [temp] };
  const scanB: WOperator = { id: 9, label: 'TBSCAN', rows: 2000, cost: 389.8, io: 55, inputs: [temp] };
  const join: WOperator = { id: 5, label: 'HSJOIN', rows: 1850, cost: 803.5, io: 110, inputs: [scanA, scanB] };
  const insert: WOperator = { id: 4, label: 'INSERT', rows: 1850, cost: 2914.7, io: 498, inputs: [join], writes: { type: 'TABLE', schema: 'APP', name: 'ORDERS', rows: 1200000 } };
  const parentKey: WOperator = { id: 10, label: 'IXSCAN', rows: 1, cost: 7.6, io: 1, inputs: [{ type: 'INDEX', schema: 'APP', name: 'CUSTOMERS_PK', q: 'Q4', rows: 50000 }] };
  const fk: WOperator = { id: 3, label: '^NLJOIN', rows: 1850, cost: 3366.2, io: 530, inputs: [insert, parentKey], args: [['EARLYOUT', 'Early Out flag', 'LEFT']] };
  const delta: WOperator = { id: 14, label: 'TBSCAN', rows: 1850, cost: 21.3, io: 0, inputs: [{ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 1850 }] };
  const group: WOperator = { id: 13, label: 'GRPBY', rows: 31, cost: 25.9, io: 0, inputs: [delta] };
  const mqtKey: WOperator = { id: 15, label: 'IXSCAN', rows: 1, cost: 7.6, io: 1, inputs: [{ type: 'INDEX', schema: 'APP', name: 'SALES_BY_DAY_PK', q: 'Q6', rows: 3650 }] };
  const mqtJoin: WOperator = { id: 12, label: '>NLJOIN', rows: 31, cost: 262.4, io: 31, inputs: [group, mqtKey] };
  const update: WOperator = { id: 11, label: 'UPDATE', rows: 31, cost: 498.1, io: 62, inputs: [mqtJoin], writes: { type: 'TABLE', schema: 'APP', name: 'SALES_BY_DAY', rows: 3650 } };
  const top: WOperator = { id: 2, label: 'NLJOIN', rows: 1850, cost: 3864.5, io: 592, inputs: [fk, update] };
  return {
    queryNo: 15,
    original: 'INSERT INTO APP.ORDERS SELECT A.* FROM STAGED A JOIN STAGED B ON B.ID = A.REF_ID',
    optimized: 'INSERT INTO APP.ORDERS SELECT Q2.* FROM APP.ORDERS_STAGE AS Q2',
    root: { id: 1, label: 'RETURN', rows: 1850, cost: 3864.5, io: 592, inputs: [top] },
    objects: [],
  };
}

/** About `count` operators: an INSERT … SELECT over a wide join tree, with an FK check and a trigger's INSERT above it. */
export function largeInsertPlan(count: number): WStatement {
  const select = largePlan(count - 6, 6).root.inputs[0] as WOperator;
  const insert: WOperator = { id: 4, label: 'INSERT', rows: 100, cost: select.cost + 40, io: select.io + 12, inputs: [select], writes: { type: 'TABLE', schema: 'BIG', name: 'FACTS', rows: 9000000 } };
  const parentKey: WOperator = { id: 5, label: 'IXSCAN', rows: 1, cost: 7.6, io: 1, inputs: [{ type: 'INDEX', schema: 'BIG', name: 'DIM_PK', q: 'Q0', rows: 40000 }] };
  const fk: WOperator = { id: 3, label: '^NLJOIN', rows: 100, cost: insert.cost + 760, io: insert.io + 100, inputs: [insert, parentKey] };
  const audit: WOperator = { id: count, label: 'INSERT', rows: 100, cost: 300, io: 30, inputs: [{ id: count + 1, label: 'TBSCAN', rows: 100, cost: 2, io: 0, inputs: [{ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 100 }] }], writes: { type: 'TABLE', schema: 'BIG', name: 'FACTS_AUDIT', rows: 1e7 } };
  const top: WOperator = { id: 2, label: 'NLJOIN', rows: 100, cost: fk.cost + audit.cost + 5, io: fk.io + audit.io, inputs: [fk, audit] };
  return { queryNo: 500, original: 'INSERT INTO BIG.FACTS SELECT … FROM BIG.T6 JOIN …', optimized: 'INSERT INTO BIG.FACTS SELECT …', root: { id: 1, label: 'RETURN', rows: 100, cost: top.cost, io: top.io, inputs: [top] }, objects: [] };
}

const table = (schema: string, name: string, rows: number, q?: string): WObject => ({ type: 'TABLE', schema, name, q, rows });
const index = (schema: string, name: string, rows: number, q?: string): WObject => ({ type: 'INDEX', schema, name, q, rows });
const scan = (id: number, label: string, rows: number, cost: number, io: number, inputs: WOperator['inputs']): WOperator => ({ id, label, rows, cost, io, inputs });

/** A 12.1 query over a column-organized table: CTQ in the graph (TQ in Plan Details), CO-TABLE:SCHEMA glued, padded headers. */
export function columnOrganizedPlan(): WStatement {
  const sales = scan(6, 'TBSCAN', 90000, 812.4, 40, [{ type: 'CO-TABLE', schema: 'APP', name: 'SALES', q: 'Q2', rows: 4.2e6 }]);
  const fetch = scan(7, 'FETCH', 40, 32.1, 4, [scan(8, 'IXSCAN', 40, 15.3, 2, [index('APP', 'STORES_PK', 40, 'Q1')]), table('APP', 'STORES', 40, 'Q1')]);
  const join = scan(5, 'HSJOIN', 90000, 901.8, 44, [sales, fetch]);
  const group = scan(4, 'GRPBY', 40, 920.2, 44, [join]);
  const sort = scan(3, 'SORT', 40, 921.0, 44, [group]);
  const ctq = { ...scan(2, 'CTQ', 40, 922.5, 44, [sort]), args: [['TQORIGIN', 'Table queue origin type', 'COLUMN-ORGANIZED DATA'] as [string, string, string]] };
  return { queryNo: 7, original: 'SELECT S.STORE_ID, SUM(S.AMOUNT) FROM APP.SALES S JOIN APP.STORES T ON T.ID = S.STORE_ID GROUP BY S.STORE_ID ORDER BY 1', optimized: 'SELECT Q3.$C0, Q3.$C1 FROM (…) AS Q3', root: scan(1, 'RETURN', 40, 922.5, 44, [ctq]), objects: [] };
}

/** An INSERT whose foreign-key check fetches the parent row (FETCH over the parent key's IXSCAN) beside the INSERT. */
export function insertFkFetchPlan(): WStatement {
  const insert: WOperator = { ...scan(3, 'INSERT', 1, 25.2, 2, [scan(4, 'TBSCAN', 1, 0.005, 0, [{ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 1 }])]), writes: table('APP', 'ORDER_ITEM', 200000) };
  const parent = scan(5, 'FETCH', 1, 15.1, 1, [scan(6, 'IXSCAN', 1, 7.6, 0, [index('APP', 'PRODUCT_PK', 800, 'Q2')]), table('APP', 'PRODUCT', 800, 'Q2')]);
  return {
    queryNo: 1,
    original: 'INSERT INTO APP.ORDER_ITEM (ORDER_ID, LINE, PRODUCT_ID) VALUES (?, ?, ?)',
    optimized: 'INSERT INTO APP.ORDER_ITEM AS Q1 SELECT … FROM (VALUES …)',
    root: scan(1, 'RETURN', 1, 40.3, 3, [scan(2, 'NLJOIN', 1, 40.3, 3, [insert, parent])]),
    objects: [{ schema: 'APP', name: 'PRODUCT_PK', type: 'Index', extra: [['Base Table Schema', 'APP'], ['Base Table Name', 'PRODUCT']] }],
  };
}

/** A DELETE from a parent table whose dependent has ON DELETE RESTRICT: Db2 reads the dependent's key index. */
export function deleteRestrictPlan(): WStatement {
  const del: WOperator = { ...scan(3, 'DELETE', 1, 22.4, 2, [scan(4, 'IXSCAN', 1, 7.6, 1, [index('APP', 'CUSTOMER_PK', 5000, 'Q1')])]), writes: table('APP', 'CUSTOMER', 5000) };
  const check = scan(5, 'IXSCAN', 0, 7.6, 1, [index('APP', 'ORDERS_CUST_IX', 90000, 'Q2')]);
  return { queryNo: 3, original: 'DELETE FROM APP.CUSTOMER WHERE ID = ?', optimized: 'DELETE FROM APP.CUSTOMER AS Q1 WHERE (Q1.ID = :?)', root: scan(1, 'RETURN', 1, 30.1, 3, [scan(2, '^NLJOIN', 1, 30.1, 3, [del, check])]), objects: [] };
}

/** A DELETE from a parent whose dependents have ON DELETE CASCADE (a DELETE of ORDERS) and SET NULL (an UPDATE of TICKETS). */
export function deleteCascadePlan(): WStatement {
  const del: WOperator = { ...scan(4, 'DELETE', 1, 22.4, 2, [scan(5, 'IXSCAN', 1, 7.6, 1, [index('APP', 'CUSTOMER_PK', 5000, 'Q1')])]), writes: table('APP', 'CUSTOMER', 5000) };
  const cascade: WOperator = { ...scan(6, 'DELETE', 18, 61.9, 7, [scan(7, 'IXSCAN', 18, 9.2, 1, [index('APP', 'ORDERS_CUST_IX', 90000, 'Q2')])]), writes: table('APP', 'ORDERS', 90000) };
  const setNull: WOperator = {
    ...scan(8, 'UPDATE', 3, 30.7, 4, [scan(9, 'FETCH', 3, 16.2, 2, [scan(10, 'IXSCAN', 3, 7.7, 1, [index('APP', 'TICKETS_CUST_IX', 7000, 'Q3')]), table('APP', 'TICKETS', 7000, 'Q3')])]),
    writes: table('APP', 'TICKETS', 7000),
  };
  const first = scan(3, 'NLJOIN', 1, 84.5, 9, [del, cascade]);
  return { queryNo: 4, original: 'DELETE FROM APP.CUSTOMER WHERE ID = ?', optimized: 'DELETE FROM APP.CUSTOMER AS Q1 WHERE (Q1.ID = :?)', root: scan(1, 'RETURN', 1, 115.4, 13, [scan(2, 'NLJOIN', 1, 115.4, 13, [first, setNull])]), objects: [] };
}

export function updatePlan(): WStatement {
  const fetch = scan(3, 'FETCH', 1, 15.1, 1, [scan(4, 'IXSCAN', 1, 7.6, 0, [index('APP', 'ACCOUNT_PK', 20000, 'Q1')]), table('APP', 'ACCOUNT', 20000, 'Q1')]);
  const update: WOperator = { ...scan(2, 'UPDATE', 1, 22.3, 2, [fetch]), writes: table('APP', 'ACCOUNT', 20000) };
  return { queryNo: 5, original: 'UPDATE APP.ACCOUNT SET BALANCE = BALANCE - ? WHERE ID = ?', optimized: 'UPDATE APP.ACCOUNT AS Q1 SET …', root: scan(1, 'RETURN', 1, 22.3, 2, [update]), objects: [] };
}

/** A MERGE: the UPDATE of matched rows and the INSERT of the others both write the target. */
export function mergePlan(): WStatement {
  const source = scan(6, 'TBSCAN', 1, 0.005, 0, [{ type: 'TABFNC', schema: 'SYSIBM', name: 'GENROW', rows: 1 }]);
  const match = scan(7, 'FETCH', 1, 15.1, 1, [scan(8, 'IXSCAN', 1, 7.6, 0, [index('APP', 'STOCK_PK', 3000, 'Q2')]), table('APP', 'STOCK', 3000, 'Q2')]);
  const join = scan(5, '>NLJOIN', 1, 15.2, 1, [source, match]);
  const update: WOperator = { ...scan(4, 'UPDATE', 1, 22.9, 2, [join]), writes: table('APP', 'STOCK', 3000) };
  const filter = scan(3, 'FILTER', 1, 22.95, 2, [update]);
  const insert: WOperator = { ...scan(2, 'INSERT', 1, 31.4, 3, [filter]), writes: table('APP', 'STOCK', 3000) };
  return {
    queryNo: 6,
    original: 'MERGE INTO APP.STOCK S USING (VALUES (?, ?)) AS N (ID, QTY) ON S.ID = N.ID WHEN MATCHED THEN UPDATE SET QTY = S.QTY + N.QTY WHEN NOT MATCHED THEN INSERT VALUES (N.ID, N.QTY)',
    optimized: 'MERGE INTO APP.STOCK AS Q1 …',
    root: scan(1, 'RETURN', 1, 31.4, 3, [insert]),
    objects: [],
  };
}

/** A graph-only paste of `plan` as a forum post or mail would carry it: prose around, the drawing damaged as `opts` says. */
export function pastedGraph(plan: WStatement, opts: WriteOptions): string {
  return ['The access plan of our nightly INSERT:', '', ...drawGraph(plan.root, opts, 4), '', 'Any idea why it is slow?'].flatMap((l) => (opts.doubleSpaced ? [l, ''] : [l])).join('\n') + '\n';
}

if (require.main === module) {
  const dir = process.argv[2] ?? join(process.cwd(), 'test/fixtures/exfmt');
  writeFileSync(join(dir, 'insert-fk-trigger-mqt.exfmt.txt'), writeExfmt([orderLinePlan()], { version: '11.5', formattedOnDb: 'SHOPDB' }));
  writeFileSync(join(dir, 'insert-fk-trigger-mqt.v97-crlf-exp3.exfmt.txt'), writeExfmt([orderLinePlan()], { version: '9.7', crlf: true, threeDigitExponent: true }));
  writeFileSync(join(dir, 'insert-fk-trigger-mqt.v121.exfmt.txt'), writeExfmt([orderLinePlan()], { version: '12.1', title: 'IBM Db2 Explain Table Format Tool', formattedOnDb: 'SHOPDB' }));
  writeFileSync(join(dir, 'large-500-operators.exfmt.txt'), writeExfmt([largePlan(500)], { version: '11.5', statementType: 'Select' }));
  writeFileSync(join(dir, 'insert-15-operators.exfmt.txt'), writeExfmt([fifteenOperatorPlan()], { version: '11.5', formattedOnDb: 'SHOPDB', paddedHeaders: true }));
  writeFileSync(join(dir, 'insert-500-operators.exfmt.txt'), writeExfmt([largeInsertPlan(500)], { version: '12.1', title: 'IBM Db2 Explain Table Format Tool', formattedOnDb: 'BIGDB', paddedHeaders: true }));
  writeFileSync(join(dir, 'column-organized-ctq.v121.exfmt.txt'), writeExfmt([columnOrganizedPlan()], { version: '12.1', title: 'IBM Db2 Explain Table Format Tool', formattedOnDb: 'SALESDB', paddedHeaders: true, statementType: 'Select' }));
  writeFileSync(join(dir, 'insert-fk-fetch.exfmt.txt'), writeExfmt([insertFkFetchPlan()], { version: '11.5', formattedOnDb: 'SHOPDB', paddedHeaders: true }));
  writeFileSync(join(dir, 'delete-parent-restrict.exfmt.txt'), writeExfmt([deleteRestrictPlan()], { version: '11.5', paddedHeaders: true, statementType: 'Delete' }));
  writeFileSync(join(dir, 'delete-parent-cascade.exfmt.txt'), writeExfmt([deleteCascadePlan()], { version: '11.5', paddedHeaders: true, statementType: 'Delete' }));
  writeFileSync(join(dir, 'update.exfmt.txt'), writeExfmt([updatePlan()], { version: '12.1', title: 'IBM Db2 Explain Table Format Tool', paddedHeaders: true, statementType: 'Update' }));
  writeFileSync(join(dir, 'merge.exfmt.txt'), writeExfmt([mergePlan()], { version: '11.5', paddedHeaders: true, statementType: 'Merge' }));
  writeFileSync(join(dir, 'tabs4-double-spaced-graph.txt'), pastedGraph(fifteenOperatorPlan(), { tabWidth: 4, doubleSpaced: true }));
  // Folded at a width no line fills exactly: such a line cannot be told from a folded one (the parser joins it).
  const lengths = drawGraph(fifteenOperatorPlan().root, {}, 4).map((l) => l.length);
  const fold = [72, 71, 70, 69, 68, 67, 66, 65].find((w) => lengths.every((n) => n % w !== 0))!;
  writeFileSync(join(dir, 'folded-graph.txt'), pastedGraph(fifteenOperatorPlan(), { wrapAt: fold }));
  console.log('fixtures written to', dir);
}
