// Regenerates the generated fixtures in test/fixtures/exfmt/ (run: see test/explain/README in the report).
// The plan shapes are invented but follow the seed 000 INSERT plan and HIDDEN_WORK.md: an FK check joined
// to the INSERT, an AFTER trigger's INSERT, and the UPDATE of a REFRESH IMMEDIATE MQT.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeExfmt, type WObject, type WOperator, type WStatement } from './exfmt-writer';

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

if (require.main === module) {
  const dir = process.argv[2] ?? join(process.cwd(), 'test/fixtures/exfmt');
  writeFileSync(join(dir, 'insert-fk-trigger-mqt.exfmt.txt'), writeExfmt([orderLinePlan()], { version: '11.5', formattedOnDb: 'SHOPDB' }));
  writeFileSync(join(dir, 'insert-fk-trigger-mqt.v97-crlf-exp3.exfmt.txt'), writeExfmt([orderLinePlan()], { version: '9.7', crlf: true, threeDigitExponent: true }));
  writeFileSync(join(dir, 'insert-fk-trigger-mqt.v121.exfmt.txt'), writeExfmt([orderLinePlan()], { version: '12.1', title: 'IBM Db2 Explain Table Format Tool', formattedOnDb: 'SHOPDB' }));
  writeFileSync(join(dir, 'large-500-operators.exfmt.txt'), writeExfmt([largePlan(500)], { version: '11.5', statementType: 'Select' }));
  writeFileSync(join(dir, 'insert-15-operators.exfmt.txt'), writeExfmt([fifteenOperatorPlan()], { version: '11.5', formattedOnDb: 'SHOPDB', paddedHeaders: true }));
  writeFileSync(join(dir, 'insert-500-operators.exfmt.txt'), writeExfmt([largeInsertPlan(500)], { version: '12.1', title: 'IBM Db2 Explain Table Format Tool', formattedOnDb: 'BIGDB', paddedHeaders: true }));
  console.log('fixtures written to', dir);
}
