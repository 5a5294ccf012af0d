// `schema pull` up to the wire: the SELECTs sent to SYSCAT (and nothing else), catalog rows as ibm_db returns
// them, the DDL written (deterministic), read back by the real parser into the schema model, errors surfaced.
import * as assert from 'node:assert/strict';
import { parseSql } from '../../server/src/sql/parser';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { CATALOG_QUERIES, parseSchemaList, readCatalog } from '../../server/src/schema/catalog';
import { columnType, writeSnapshotDdl } from '../../server/src/schema/catalog-ddl';
import { Db2Error } from '../../server/src/explain/driver';
import { db2Error, FakeDriver } from '../explain/helpers/fake-driver';
import { CATALOG_ROWS, catalogDriver, catalogViewOf } from './catalog-rows';

const CONNECTION = 'DATABASE=SALESDB;HOSTNAME=db2;PORT=50000;UID=me;PROTOCOL=TCPIP;PWD=secret;';

async function pull(driver = catalogDriver()) {
  const snapshot = await readCatalog({ driver, connectionString: CONNECTION, schemas: ['APP', 'SALES'], server: { database: 'SALESDB' } });
  return { driver, snapshot, ...writeSnapshotDdl(snapshot) };
}

function modelOf(ddl: string): SchemaModel {
  return SchemaModel.build([buildFileModel({ path: 'db/schema.sql', text: ddl, language: 'sql' })]);
}

describe('schema pull: the catalog reader', () => {
  it('sends only SELECTs on SYSCAT, with the schemas as parameters, between open and close', async () => {
    const { driver } = await pull();
    assert.equal(driver.calls[0].method, 'open');
    assert.equal(driver.calls[0].sql, CONNECTION);
    assert.equal(driver.calls[driver.calls.length - 1].method, 'close');
    const middle = driver.calls.slice(1, -1);
    assert.ok(middle.every((c) => c.method === 'query'), `only queries: ${driver.methods().join(',')}`);
    assert.ok(middle.every((c) => /^SELECT /.test(c.sql!) && /\bSYSCAT\.\w+/.test(c.sql!)));
    const views = middle.map((c) => catalogViewOf(c.sql!));
    for (const view of ['SYSCAT.TABLES', 'SYSCAT.COLUMNS', 'SYSCAT.COLIDENTATTRIBUTES', 'SYSCAT.INDEXES', 'SYSCAT.REFERENCES', 'SYSCAT.TABCONST', 'SYSCAT.TRIGGERS', 'SYSCAT.SEQUENCES', 'SYSCAT.DATAPARTITIONS', 'SYSCAT.TABLESPACES', 'SYSCAT.VIEWS', 'SYSCAT.TABDEP', 'SYSCAT.CHECKS']) {
      assert.ok(views.includes(view), `reads ${view}`);
    }
    for (const call of middle) if (!/SYSCAT\.TABLESPACES/.test(call.sql!)) assert.deepEqual(call.params, ['APP', 'SALES']);
    // The refresh mode of MQTs, index clustering and uniqueness, FK enforcement and identity caches are selected.
    assert.match(CATALOG_QUERIES.tables(1), /\bREFRESH\b/);
    assert.match(CATALOG_QUERIES.indexes(1), /\bINDEXTYPE\b.*\bUNIQUERULE\b|\bUNIQUERULE\b.*\bINDEXTYPE\b/);
    assert.match(CATALOG_QUERIES.keys(1), /\bENFORCED\b/);
    assert.match(CATALOG_QUERIES.identities(1), /\bCACHE\b/);
  });

  it('reads ibm_db row shapes: CHAR flags, padded names, numbers or strings, DECIMAL texts like "1."', async () => {
    const { snapshot } = await pull();
    const orders = snapshot.tables.find((t) => t.name === 'ORDERS')!;
    assert.deepEqual(orders.columns.find((c) => c.name === 'ORDER_ID')!.identity, { start: '1', increment: '1', cache: 0, cycle: false, order: false });
    assert.equal(snapshot.tables.find((t) => t.name === 'ORDER_LINE')!.columns[0].identity!.start, '1000');
    assert.equal(orders.columns[0].typeSchema, 'SYSIBM', 'CHAR(8) padding trimmed');
    assert.deepEqual(orders.indexes.find((i) => i.name === 'IX_ORDERS_STATUS')!.columns, [
      { name: 'STATUS', descending: false },
      { name: 'ORDER_DATE', descending: true },
    ]);
    assert.deepEqual(snapshot.tables.find((t) => t.name === 'ORDER_LINE')!.keys[0].columns, ['LINE_ID', 'SHIP_DATE'], 'in COLSEQ order');
    assert.deepEqual(snapshot.tablespaces.map((t) => t.name).sort(), ['TS_AUDIT', 'TS_ORDERS', 'USERSPACE1'], 'only the table spaces the tables use');
    assert.equal(snapshot.tables.find((t) => t.name === 'ORDER_LINE')!.partitions.length, 2, 'detached partitions left out');
  });

  it('writes deterministic DDL: the same catalog in another row order gives the same text', async () => {
    const first = await pull();
    const second = await pull(catalogDriver(CATALOG_ROWS, true));
    assert.equal(second.ddl, first.ddl);
    assert.ok(!/\d{4}-\d\d-\d\d[ T]\d\d:/.test(first.ddl), 'no timestamp');
    assert.match(first.ddl, /^-- Db2 catalog snapshot of database SALESDB, schemas APP, SALES\./);
  });

  it('writes DDL the parser reads back without errors, into the model the schema rules need', async () => {
    const { ddl, warnings, counts } = await pull();
    assert.deepEqual(parseSql(ddl).statements.filter((s) => s.parseError).map((s) => `${s.parseError!.message}: ${ddl.slice(s.span.start, s.span.start + 80)}`), []);
    const model = modelOf(ddl);
    const orders = model.tableByKey('SALES.ORDERS')!;
    assert.equal(orders.identity?.cache, 0, 'NO CACHE identity');
    assert.deepEqual(orders.indexes.map((i) => `${i.name}${i.cluster ? ' CLUSTER' : ''}${i.unique ? ' UNIQUE' : ''}`), ['IX_ORDERS_CUST', 'IX_ORDERS_DATE CLUSTER', 'IX_ORDERS_STATUS', 'UX_ORDERS_CUST_DATE UNIQUE']);
    assert.deepEqual(orders.keyConstraints.map((k) => k.name), ['PK_ORDERS']);
    assert.deepEqual(orders.columns.filter((c) => c.type.isLob).map((c) => c.name), ['NOTE']);
    assert.equal(orders.checks, 1);
    assert.deepEqual(orders.foreignKeys.map((f) => `${f.name} ${f.enforced} ${f.parentKey}`), ['FK_ORDERS_CUSTOMER true APP.CUSTOMER']);
    assert.deepEqual(model.tableByKey('SALES.ORDER_LINE')!.foreignKeys.map((f) => `${f.name} ${f.enforced}`), ['FK_LINE_ORDER false']);
    assert.deepEqual(orders.triggers.map((t) => t.name), ['ORDERS_AUDIT_INS'], 'the inoperative trigger is left out');
    assert.deepEqual(orders.triggers[0].stmt.body.map((s) => s.kind), ['insert']);
    assert.deepEqual(orders.mqts.map((m) => `${m.key} ${m.refresh}`), ['SALES.DAILY_TOTALS immediate']);
    assert.deepEqual(model.tableByKey('SALES.ORDER_LINE')!.mqts.map((m) => `${m.key} ${m.refresh}`), ['SALES.OLD_TOTALS deferred'], 'fallback definition over the base table');
    assert.equal(model.tableByKey('SALES.ORDER_LINE')!.identity?.cache, 20);
    assert.equal(model.tableByKey('SALES.ORDER_LINE')!.append, true);
    assert.equal(model.tableByKey('SALES.ORDER_AUDIT')!.locksize, 'table');
    assert.equal(model.tableByKey('SALES.ORDER_AUDIT')!.pctfree, 5);
    assert.equal(model.tablespaces.get('TS_AUDIT')?.stmt.managedBy, 'system');
    assert.equal(model.tablespaces.get('TS_AUDIT')?.stmt.extentSize, 2);
    assert.equal(model.tablespaces.get('TS_ORDERS')?.stmt.managedBy, 'automatic storage');
    assert.equal(model.sequences.get('SALES.INVOICE_SEQ')?.cache, 0);
    assert.ok(model.isSequenceUsedByInserts('SALES.INVOICE_SEQ') === false, 'no linted insert yet');
    assert.deepEqual(counts, { tables: 4, mqts: 2, indexes: 4, foreignKeys: 2, triggers: 1, sequences: 1, tablespaces: 3 });
    assert.deepEqual(warnings, ['MQT SALES.OLD_TOTALS: its definition could not be read back; written over its base tables only']);
  });

  it('keeps the MQT text as typed but takes the refresh mode from SYSCAT.TABLES', async () => {
    const rows = { ...CATALOG_ROWS, 'SYSCAT.TABLES': CATALOG_ROWS['SYSCAT.TABLES'].map((r) => (r.TABNAME === 'DAILY_TOTALS' ? { ...r, REFRESH: 'D' } : r)) };
    const { ddl } = await pull(catalogDriver(rows));
    assert.match(ddl, /CREATE TABLE DAILY_TOTALS AS \(SELECT ORDER_DATE, COUNT\(\*\) AS ORDERS FROM ORDERS GROUP BY ORDER_DATE\)\n {2}DATA INITIALLY DEFERRED REFRESH DEFERRED ENABLE QUERY/);
    assert.equal(modelOf(ddl).tableByKey('SALES.ORDERS')!.mqts[0].refresh, 'deferred');
  });

  it('writes column types as DDL', () => {
    const base = { typeSchema: 'SYSIBM', length: 0, scale: 0, nullable: true, forBitData: false };
    assert.equal(columnType({ ...base, name: 'A', typeName: 'VARCHAR', length: 16, forBitData: true }), 'VARCHAR(16) FOR BIT DATA');
    assert.equal(columnType({ ...base, name: 'A', typeName: 'DECIMAL', length: 11, scale: 2 }), 'DECIMAL(11, 2)');
    assert.equal(columnType({ ...base, name: 'A', typeName: 'BLOB', length: 1048576, lobLogged: false, lobCompact: true, inlineLength: 200 }), 'BLOB(1048576) NOT LOGGED COMPACT INLINE LENGTH 200');
    assert.equal(columnType({ ...base, name: 'A', typeName: 'TIMESTAMP', length: 13, scale: 12 }), 'TIMESTAMP(12)');
    assert.equal(columnType({ ...base, name: 'A', typeName: 'DECFLOAT', length: 8 }), 'DECFLOAT(16)');
    assert.equal(columnType({ ...base, name: 'A', typeSchema: 'APP', typeName: 'MONEY' }), '"APP"."MONEY"');
  });

  it('folds schema names like SQL: ordinary ones to upper case, quoted ones as written', () => {
    assert.deepEqual(parseSchemaList(' app, Sales ,"Mixed",APP,'), ['APP', 'SALES', 'Mixed']);
  });

  it('surfaces connection and privilege errors as one sentence, and always closes', async () => {
    const unreachable = new FakeDriver(() => []);
    unreachable.openError = db2Error('[IBM][CLI Driver] SQL30081N  A communication error has been detected. SQLSTATE=08001', -30081, '08001');
    await assert.rejects(readCatalog({ driver: unreachable, connectionString: CONNECTION, schemas: ['APP'], server: { host: 'db2', port: '50000' } }), (e: Db2Error) => e.kind === 'unreachable' && /Cannot reach the Db2 server at db2:50000/.test(e.message));
    const denied = new FakeDriver((sql) => (/SYSCAT\.COLUMNS/.test(sql) ? db2Error('SQL0551N  "ME" does not have the required authorization or privilege. SQLSTATE=42501', -551, '42501') : []));
    await assert.rejects(readCatalog({ driver: denied, connectionString: CONNECTION, schemas: ['APP'] }), (e: Db2Error) => e.kind === 'privileges' && /SYSCAT/.test(e.message) && /SQLCODE=-551/.test(e.details ?? ''));
    assert.equal(denied.methods().at(-1), 'close');
    await assert.rejects(readCatalog({ driver: catalogDriver(), connectionString: CONNECTION, schemas: [] }), /Name at least one schema/);
  });

  it('refuses to send anything but a SELECT', async () => {
    const { CATALOG_QUERIES: queries } = await import('../../server/src/schema/catalog');
    const original = queries.tables;
    (queries as { tables: (n: number) => string }).tables = () => 'DELETE FROM SYSCAT.TABLES';
    try {
      const driver = catalogDriver();
      await assert.rejects(readCatalog({ driver, connectionString: CONNECTION, schemas: ['APP'] }), /refusing to send a statement that is not a SELECT/);
      assert.ok(!driver.sqlSent().some((s) => /DELETE/.test(s)));
    } finally {
      (queries as { tables: (n: number) => string }).tables = original;
    }
  });
});
