// db2exfmt-shaped plans for the robustness tests: a small INSERT plan with a join (drawn by the explain
// tests' writer, test/explain/helpers/exfmt-writer.ts) as the seed of mutations, and a chain of any length
// drawn here line by line (the writer recurses once per level, so it cannot draw 10,000 levels).
import { writeExfmt, type WOperator } from '../explain/helpers/exfmt-writer';

/** RETURN ← INSERT ← NLJOIN(TBSCAN ORDERS_STAGE, FETCH ← IXSCAN on CUSTOMERS), writing APP.ORDERS. */
export function smallInsertPlan(): string {
  const ixscan: WOperator = { id: 6, label: 'IXSCAN', rows: 1, cost: 7.5, io: 1, inputs: [{ type: 'INDEX', schema: 'APP', name: 'CUST_PK', q: 'Q2', rows: 5000 }] };
  const fetch: WOperator = { id: 5, label: 'FETCH', rows: 1, cost: 15.1, io: 2, inputs: [ixscan, { type: 'TABLE', schema: 'APP', name: 'CUSTOMERS', q: 'Q2', rows: 5000 }] };
  const scan: WOperator = { id: 4, label: 'TBSCAN', rows: 1000, cost: 40.2, io: 12, inputs: [{ type: 'TABLE', schema: 'APP', name: 'ORDERS_STAGE', q: 'Q1', rows: 1000 }], predicates: [{ how: 'Sargable', text: '(Q1.AMOUNT > 100)', ff: 0.5 }] };
  const join: WOperator = { id: 3, label: 'NLJOIN', rows: 1000, cost: 15_140, io: 2012, inputs: [scan, fetch] };
  const insert: WOperator = { id: 2, label: 'INSERT', rows: 1000, cost: 22_000, io: 3100, inputs: [join], writes: { type: 'TABLE', schema: 'APP', name: 'ORDERS', rows: 1_000_000 } };
  const root: WOperator = { id: 1, label: 'RETURN', rows: 1000, cost: 22_000, io: 3100, inputs: [insert] };
  return writeExfmt([
    {
      queryNo: 1,
      original: 'INSERT INTO APP.ORDERS SELECT S.* FROM APP.ORDERS_STAGE S JOIN APP.CUSTOMERS C ON C.ID = S.CUSTOMER_ID WHERE S.AMOUNT > 100',
      optimized: 'INSERT INTO APP.ORDERS SELECT Q1.* FROM APP.ORDERS_STAGE AS Q1, APP.CUSTOMERS AS Q2',
      root,
      objects: [],
    },
  ]);
}

const HEADER = `DB2 Universal Database Version 11.5, 5622-044 (c) Copyright IBM Corp. 1991, 2019
Licensed Material - Program Property of IBM
IBM DATABASE 2 Explain Table Format Tool

******************** EXPLAIN INSTANCE ********************

DB2_VERSION:       11.05.8
SOURCE_NAME:       SQLC2P31
SOURCE_SCHEMA:     NULLID

---------------- STATEMENT 1  SECTION 201 ----------------
\tQUERYNO:       1
\tStatement Type:   Insert

Original Statement:
------------------
INSERT INTO APP.TARGET SELECT * FROM APP.SOURCE

Optimized Statement:
-------------------
INSERT INTO APP.TARGET SELECT * FROM APP.SOURCE AS Q1

Access Plan:
-----------
`;

const center = (token: string, column = 16) => ' '.repeat(Math.max(0, column - Math.floor(token.length / 2))) + token;

/**
 * RETURN ← INSERT ← FILTER ← … ← TBSCAN of APP.SOURCE: `count` operators in one chain, with the graph and
 * the Plan Details section, as db2exfmt lays out a one-input operator.
 */
export function chainPlan(count: number): string {
  const label = (id: number) => (id === 1 ? 'RETURN' : id === 2 ? 'INSERT' : id === count ? 'TBSCAN' : 'FILTER');
  const cost = (id: number) => count - id + 1;
  const lines: string[] = [HEADER + `\tTotal Cost: \t\t${cost(1)}\n\tQuery Degree:\t\t1\n`];
  lines.push(center('Rows'), center('RETURN'), center('(   1)'), center('Cost'), center('I/O'), center('|'));
  for (let id = 2; id <= count; id++) {
    lines.push(center('1000'), center(label(id)), center(`(${String(id).padStart(4)})`), center(String(cost(id))), center('1'), center('|'));
  }
  lines.push(center('1000'), center('TABLE: APP'), center('SOURCE'), center('Q1'), '', '', 'Plan Details:', '-------------', '');
  for (let id = 1; id <= count; id++) {
    lines.push(`\t${id}) ${label(id)}: (${label(id)})`, `\t\tCumulative Total Cost: \t\t${cost(id)}`, `\t\tCumulative I/O Cost: \t\t1`, '');
    lines.push('\t\tInput Streams:', '\t\t-------------', id === count ? `\t\t\t${id}) From Object APP.SOURCE` : `\t\t\t${id}) From Operator #${id + 1}`, '');
    lines.push('\t\t\t\tEstimated number of rows: \t1000', '', '');
  }
  return lines.join('\n') + '\n';
}
