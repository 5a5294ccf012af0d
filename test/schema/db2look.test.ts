// db2look output read as it comes: `db2look -d DB -e -l -x` writes CONNECT TO, table spaces, schemas padded to
// eight characters ("SALES   "), sequences, tables, keys, indexes with INCLUDE NULL KEYS, foreign keys with
// ENFORCED, SET CURRENT SCHEMA/PATH before MQTs, views and triggers, `;--` inside trigger bodies, GRANTs,
// COMMIT WORK / CONNECT RESET / TERMINATE. The fixture follows the public shape of that output.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSql } from '../../server/src/sql/parser';
import { forEachStatement } from '../../server/src/sql/walk';
import { SchemaModel } from '../../server/src/schema/schema';
import { schemaFileView } from '../../server/src/schema/schema-findings';
import { buildFileModel } from '../../server/src/engine/workspace-files';

import { DB2LOOK } from './helpers';

function db2lookModel(): SchemaModel {
  const file = buildFileModel({ path: DB2LOOK, text: readFileSync(DB2LOOK, 'utf8'), language: 'sql' });
  return SchemaModel.build([schemaFileView(file)]);
}

describe('db2look output as a schema file', () => {
  it('parses every statement, the CLP commands and authorizations included', () => {
    const parsed = parseSql(readFileSync(DB2LOOK, 'utf8'));
    assert.deepEqual(
      parsed.statements.filter((s) => s.parseError).map((s) => s.parseError!.message),
      [],
    );
    const keywords = parsed.statements.filter((s) => s.kind === 'other').map((s) => (s.kind === 'other' ? s.keyword : ''));
    // SQL PL bodies are read into the model, statement by statement (`;--` inside them included).
    const routine = parsed.statements.find((s) => s.kind === 'createRoutine');
    assert.ok(routine && routine.kind === 'createRoutine' && routine.body?.kind === 'compound' && routine.body.body.length > 0, 'CREATE PROCEDURE read with its body');
    const inner: string[] = [];
    forEachStatement(parsed.statements, (s) => {
      if (s.parseError) inner.push(s.parseError.message);
    });
    assert.deepEqual(inner, []);
    for (const expected of ['CREATE BUFFERPOOL', 'ALTER TABLESPACE', 'CREATE SCHEMA', 'CREATE VIEW', 'CREATE ALIAS', 'GRANT', 'TERMINATE']) {
      assert.ok(keywords.includes(expected), `${expected} among ${[...new Set(keywords)].join(', ')}`);
    }
    assert.ok(parsed.statements.some((s) => s.kind === 'connect'), 'CONNECT TO / CONNECT RESET');
  });

  it('keys tables by their schema without db2look\'s padding', () => {
    const model = db2lookModel();
    assert.deepEqual([...model.tables.keys()].sort(), ['APP.CUSTOMER', 'SALES.DAILY_TOTALS', 'SALES.ORDERS', 'SALES.ORDER_AUDIT', 'SALES.ORDER_LINE']);
    assert.deepEqual([...model.sequences.keys()], ['SALES.INVOICE_SEQ']);
  });

  it('reads what the schema rules need: identities, clustering, LOBs, MQTs, triggers, foreign keys, table spaces', () => {
    const model = db2lookModel();
    const orders = model.tableByKey('SALES.ORDERS')!;
    assert.equal(orders.identity?.cache, 0, 'NO CACHE');
    assert.equal(model.tableByKey('SALES.ORDER_LINE')!.identity?.cache, 20);
    assert.deepEqual(orders.indexes.map((i) => `${i.name}${i.cluster ? ' CLUSTER' : ''}${i.unique ? ' UNIQUE' : ''}`), [
      'IX_ORDERS_DATE CLUSTER',
      'IX_ORDERS_CUST',
      'IX_ORDERS_STATUS',
      'UX_ORDERS_CUST_DATE UNIQUE',
    ]);
    assert.deepEqual(orders.keyConstraints.map((k) => k.name), ['PK_ORDERS']);
    assert.deepEqual(orders.columns.filter((c) => c.type.isLob).map((c) => c.name), ['NOTE']);
    assert.equal(orders.checks, 1);
    assert.deepEqual(orders.mqts.map((m) => `${m.key} ${m.refresh}`), ['SALES.DAILY_TOTALS immediate']);
    assert.deepEqual(orders.triggers.map((t) => `${t.name} ${t.stmt.events.join(',')}`), ['ORDERS_AUDIT_INS insert', 'ORDERS_STATUS_UPD update']);
    assert.deepEqual(orders.foreignKeys.map((f) => `${f.name} ${f.enforced} ${f.parentKey}`), ['FK_ORDERS_CUSTOMER true APP.CUSTOMER']);
    assert.deepEqual(model.tableByKey('SALES.ORDER_LINE')!.foreignKeys.map((f) => `${f.name} ${f.enforced}`), ['FK_LINE_ORDER false']);
    assert.equal(orders.tablespace, 'TS_ORDERS');
    assert.equal(model.tablespaces.get('TS_AUDIT')?.stmt.managedBy, 'system');
    assert.equal(model.tablespaces.get('TS_AUDIT')?.stmt.extentSize, 2);
    assert.equal(model.tablespaces.get('TS_ORDERS')?.stmt.fileSystemCaching, false);
    assert.equal(model.sequences.get('SALES.INVOICE_SEQ')?.cache, 0);
  });

  it('reads the trigger body up to END despite the `;--` db2look writes inside it', () => {
    const trigger = db2lookModel().tableByKey('SALES.ORDERS')!.triggers.find((t) => t.name === 'ORDERS_AUDIT_INS')!;
    assert.deepEqual(trigger.stmt.body.map((s) => s.kind), ['insert']);
    const insert = trigger.stmt.body[0];
    assert.ok(insert.kind === 'insert' && insert.sequences.some((s) => s.name === 'INVOICE_SEQ'));
  });
});
