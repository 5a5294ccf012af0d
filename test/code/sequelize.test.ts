import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';

const SETUP = `const { Sequelize, DataTypes, Model } = require('sequelize');
const sequelize = new Sequelize('SAMPLE', 'db2inst1', process.env.PW, { dialect: 'db2', host: 'localhost', port: 50000 });
const Order = sequelize.define('Order', { id: DataTypes.INTEGER, amount: DataTypes.DECIMAL }, { tableName: 'ORDERS', schema: 'APP' });
`;

describe('code: Sequelize on Db2 (model inserts without SQL text)', () => {
  it('Model.create in a for-of loop: one INSERT per row into the table define() names, bulkCreate advice', async () => {
    const js = `${SETUP}
async function importOrders(rows) {
  for (const row of rows) {
    await Order.create({ id: row.id, amount: row.amount });
  }
}
`;
    const { findings, models } = await lintCode({ 'orders.js': js });
    const [exec] = models.get('orders.js')!.code!.executions;
    assert.equal(exec.api, 'sequelize');
    assert.equal(exec.construct, 'orm');
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(js, 'Order.create')}`]);
    const f = findings.find((x) => x.rule === 'single-row-insert')!;
    assert.match(f.message, /^One INSERT INTO APP\.ORDERS call per row in the for-of loop at line 6\./);
    assert.match(f.message, /Instead, gather the rows into an array and insert them with one Model\.bulkCreate\(rows\)/);
  });

  it('bulkCreate of the rows is one multi-row INSERT: silent', async () => {
    const js = `${SETUP}
async function importOrders(batches) {
  for (const batch of batches) {
    await Order.bulkCreate(batch);
  }
}
`;
    const { findings, models } = await lintCode({ 'bulk.js': js });
    const [exec] = models.get('bulk.js')!.code!.executions;
    assert.equal(exec.batched, true);
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('forEach(async) and map callbacks, while with build().save(), new Model().save(); init() and a db2:// URI; no table: the model named', async () => {
    const ts = `import { Sequelize, DataTypes, Model } from 'sequelize';
const sequelize = new Sequelize('db2://db2inst1:pw@db2host:50000/SAMPLE');
class Customer extends Model {}
Customer.init({ name: DataTypes.STRING }, { sequelize, tableName: 'CUSTOMER', schema: 'CRM' });
const Item = sequelize.define('Item', { sku: DataTypes.STRING });

export async function load(customers: any[], items: any[]) {
  customers.forEach(async (c) => {
    await Customer.create(c);
  });
  await Promise.all(items.map((it) => Item.create(it)));
  let i = 0;
  while (i < items.length) {
    await Item.build(items[i]).save();
    const c = new Customer(customers[i]);
    await c.save();
    i++;
  }
}
`;
    const { findings } = await lintCode({ 'load.ts': ts });
    assert.deepEqual(brief(findings, ['single-row-insert']), [
      `single-row-insert@${posOf(ts, 'Customer.create')}`,
      `single-row-insert@${posOf(ts, 'Item.create')}`,
      `single-row-insert@${posOf(ts, 'Item.build')}`,
    ]);
    const messages = findings.filter((f) => f.rule === 'single-row-insert').map((f) => f.message.split(' per row')[0]);
    assert.deepEqual(messages, ['One INSERT INTO CRM.CUSTOMER call', 'One INSERT INTO <Item> call', 'One INSERT call into each of <Item> and CRM.CUSTOMER']);
  });

  it('a transaction opened and committed per pass, managed or not: commit-per-row with Sequelize advice', async () => {
    const js = `${SETUP}
async function perRow(rows) {
  for (const row of rows) {
    const t = await sequelize.transaction();
    await Order.create(row, { transaction: t });
    await t.commit();
  }
  for (const row of rows) {
    await sequelize.transaction(async (t) => {
      await Order.create(row, { transaction: t });
    });
  }
}

async function once(rows) {
  await sequelize.transaction(async (t) => {
    for (const row of rows) await Order.create(row, { transaction: t });
  });
}
`;
    const { findings } = await lintCode({ 'tx.js': js });
    assert.deepEqual(brief(findings, ['commit-per-row']), [
      `commit-per-row@${posOf(js, 't.commit')}`,
      `commit-per-row@${posOf(js, 'sequelize.transaction(async')}`,
    ]);
    assert.match(findings.find((f) => f.rule === 'commit-per-row')!.message, /Open one transaction before the loop \(const t = await sequelize\.transaction\(\)\), pass \{ transaction: t \}/);
    // The managed transaction around the loop commits once: single-row-insert only.
    assert.deepEqual(brief(findings, ['single-row-insert']).length, 3);
  });

  it('sequelize-typescript: @Table({ tableName, schema }) on an exported class, freezeTableName; a commit every 1000 rows is no commit per row', async () => {
    const ts = `import { Sequelize, Table, Column, Model } from 'sequelize-typescript';

@Table({ tableName: 'ORDERS', schema: 'APP' })
export class Order extends Model {
  @Column amount!: number;
}

@Table({ freezeTableName: true })
class Customer extends Model {}

const sequelize = new Sequelize({ dialect: 'db2', database: 'SAMPLE', models: [Order, Customer] });

export async function load(rows: any[]) {
  let n = 0;
  let t = await sequelize.transaction();
  for (const r of rows) {
    await Customer.create(r, { transaction: t });
    if (++n % 1000 === 0) { await t.commit(); t = await sequelize.transaction(); }
  }
  await t.commit();
  for (const r of rows) await Order.create(r);
}
`;
    const { findings, models } = await lintCode({ 'load.ts': ts });
    assert.equal(models.get('load.ts')!.code!.commits.length, 2);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(ts, 'Customer.create')}`, `single-row-insert@${posOf(ts, 'Order.create')}`]);
    assert.deepEqual(findings.map((f) => f.message.split(' call')[0]), ['One INSERT INTO Customer', 'One INSERT INTO APP.ORDERS']);
  });

  it('a raw sequelize.query INSERT per row: replacements are values Sequelize escapes into the text, bind parameters are markers', async () => {
    const js = `${SETUP}
async function log(rows) {
  for (const r of rows) {
    await sequelize.query('INSERT INTO APP.LOG (ID, MSG) VALUES (?, ?)', { replacements: [r.id, r.msg] });
  }
  for (const r of rows) {
    await sequelize.query("INSERT INTO APP.NOTE (ID, MSG, AT) VALUES (:id, :msg, '12:00')", { replacements: { id: r.id, msg } });
  }
  for (const r of rows) {
    await sequelize.query('INSERT INTO APP.LOG (ID, MSG) VALUES ($1, $2)', { bind: [r.id, r.msg] });
  }
}
`;
    const { findings, models } = await lintCode({ 'raw.js': js });
    const [first, second] = models.get('raw.js')!.code!.executions;
    assert.deepEqual(first.splices?.map((x) => [x.text, x.escaped]), [['r.id', true], ['r.msg', true]]);
    assert.deepEqual(second.splices?.map((x) => x.text), ['r.id', 'msg']);
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prefer-parameter-markers@${posOf(js, 'sequelize.query')}`,
      `single-row-insert@${posOf(js, 'sequelize.query')}`,
      `prefer-parameter-markers@${posOf(js, 'sequelize.query', 2)}`,
      `single-row-insert@${posOf(js, 'sequelize.query', 2)}`,
      `single-row-insert@${posOf(js, 'sequelize.query', 3)}`,
    ]);
    assert.match(findings[0].message, /^Values spliced into INSERT INTO APP\.LOG through Sequelize's replacements: r\.id, r\.msg\..*escaped by the code.*Pass the values with the bind option instead of replacements/);
    assert.match(findings[4].message, /^One INSERT INTO APP\.LOG call per row.*Instead, insert the rows with one call: sequelize\.getQueryInterface\(\)\.bulkInsert\(table, rows\)/);
  });

  it('Sequelize on Postgres is another database: silent, also its raw INSERTs; a models-only file is not read without configuration', async () => {
    const pg = `const { Sequelize, DataTypes } = require('sequelize');
const sequelize = new Sequelize('app', 'u', 'pw', { dialect: 'postgres' });
const Order = sequelize.define('Order', { id: DataTypes.INTEGER }, { tableName: 'orders' });
async function load(rows) {
  for (const row of rows) {
    await Order.create(row);
    await sequelize.query('INSERT INTO audit (id) VALUES (?)', { replacements: [row.id] });
  }
}
`;
    const service = `const { Order } = require('../models');
const { Op } = require('sequelize');
async function load(rows) {
  for (const row of rows) await Order.create(row);
}
`;
    const { findings, models } = await lintCode({ 'pg.js': pg, 'src/services/orders.js': service });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    assert.equal(models.get('pg.js')!.leftOut, 'talks to another database (Sequelize dialect postgres), not Db2');
    assert.ok(models.get('src/services/orders.js')!.leftOut);
  });

  it('models imported from a configured driverModules module are models; other names and files without Sequelize are not', async () => {
    const service = `const { Order } = require('../models');
const db = require('../models');
const { Op } = require('sequelize');
async function load(rows) {
  for (const row of rows) await Order.create(row);
  for (const row of rows) await db.Customer.create(row);
  for (const row of rows) await Report.create(row);
}
`;
    const wrapper = `const { Helper } = require('../models');
async function load(rows) {
  for (const row of rows) await Helper.create(row);
}
`;
    const esm = `import type { Transaction } from 'sequelize';
import models, { Order as Ord } from '../models';
export async function load(rows) {
  for (const row of rows) await Ord.create(row);
  for (const row of rows) await models.Invoice.create(row);
}
`;
    const { findings } = await lintCode({ 'src/services/orders.js': service, 'src/services/other.js': wrapper, 'src/services/esm.ts': esm }, { driverModules: ['./src/models'] });
    assert.deepEqual(brief(findings.filter((f) => f.file.endsWith('orders.js')), ['single-row-insert']), [
      `single-row-insert@${posOf(service, 'Order.create')}`,
      `single-row-insert@${posOf(service, 'db.Customer.create')}`,
    ]);
    assert.deepEqual(brief(findings.filter((f) => f.file.endsWith('esm.ts')), ['single-row-insert']), [
      `single-row-insert@${posOf(esm, 'Ord.create')}`,
      `single-row-insert@${posOf(esm, 'models.Invoice.create')}`,
    ]);
    assert.deepEqual(findings.filter((f) => f.file.endsWith('other.js')), []);
  });

  it('unrelated .create calls in a Sequelize Db2 file are no inserts (Object.create, fs.createWriteStream, document.createElement, a class of the file that is no model, a loaded instance saved); Model.create beside them is', async () => {
    const js = `${SETUP}
const fs = require('fs');
class OrderService {
  static async create(r) { return r; }
}
async function other(rows) {
  for (const r of rows) {
    await OrderService.create(r);
    const o = Object.create(r);
    fs.createWriteStream(r.path);
    document.createElement('div');
    Promise.resolve(r);
    const found = await Order.findByPk(r.id);
    found.amount = r.amount;
    await found.save();
    await sequelize.transaction();
    await Order.create(r);
  }
}
`;
    const { findings, models } = await lintCode({ 'other.js': js });
    // Order.create alone is an INSERT.
    assert.deepEqual(models.get('other.js')!.code!.executions.map((e) => e.callSpan.start), [js.indexOf('Order.create')]);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(js, 'Order.create')}`]);
  });
});
