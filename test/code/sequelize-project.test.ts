// The project evidence that a Sequelize application runs on Db2 (cli/project-evidence.ts sequelizeDb2Folders): its
// package.json, its Sequelize configuration (config/config.json, the config .sequelizerc points to, DB_DIALECT in .env).
// A file of such a project that uses its models (imported from its models module, sequelize.models.Order) is read as a
// file that imports a configured driverModules module is, without configuration.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintPaths } from '../../server/src/cli/lint-run';
import { sequelizeDb2Folders } from '../../server/src/cli/evidence-javascript';
import { NO_DB2_ACCESS, sequelizeDb2Evidence, usesSequelizeModels } from '../../server/src/code/access';
import { runCli } from '../ci/repo';
import { lintWorkspace } from '../helpers/rule-tester';
import { codeFrontEnd, lintCode, projectOnDisk } from './helpers';

const project = (files: Record<string, string>): string => projectOnDisk(files, 'insertlint-sequelize-');

/** A loader that names no driver, no dialect and not even Sequelize: it uses the application's models. */
const LOADER = `const { Order } = require('../models');
const db = require('../models');

async function importOrders(rows) {
  for (const row of rows) {
    await Order.create(row);
  }
  for (const row of rows) await db.Customer.create(row);
}
module.exports = { importOrders };
`;

const PG_CONFIG = JSON.stringify({ development: { dialect: 'postgres', host: 'localhost' }, production: { dialect: 'postgres' } });
const DB2_CONFIG = JSON.stringify({ development: { dialect: 'db2', host: 'localhost', port: 50000 }, test: { dialect: 'sqlite', storage: ':memory:' } });
const pkg = (deps: Record<string, string>) => JSON.stringify({ name: 'app', dependencies: deps });

async function readOf(files: Record<string, string>, file = 'src/services/import.js'): Promise<{ leftOut?: string; rules: string[] }> {
  const dir = project(files);
  const run = await lintPaths({ paths: ['.'], cwd: dir });
  const model = run.workspace.model(join(dir, file))!;
  return { leftOut: model.leftOut, rules: run.diagnostics.filter((d) => d.file === join(dir, file)).map((d) => d.rule) };
}

describe('code: Sequelize on Db2 shown by the project (package.json, configuration, .env)', () => {
  it('sequelizeDb2Evidence: package.json dependencies, dialect and URLs in configuration, DB_DIALECT in .env', () => {
    assert.equal(sequelizeDb2Evidence('package.json', pkg({ '@sequelize/core': '7', '@sequelize/db2': '7' }))?.kind, 'db2');
    assert.equal(sequelizeDb2Evidence('package.json', pkg({ sequelize: '6', ibm_db: '3' }))?.kind, 'driver');
    assert.equal(sequelizeDb2Evidence('package.json', pkg({ ibm_db: '3' })), undefined);
    assert.equal(sequelizeDb2Evidence('package.json', pkg({ sequelize: '6', pg: '8' })), undefined);
    assert.equal(sequelizeDb2Evidence('package.json', '{ not json'), undefined);
    assert.equal(sequelizeDb2Evidence('config.json', DB2_CONFIG)?.kind, 'db2');
    assert.equal(sequelizeDb2Evidence('config.json', PG_CONFIG)?.kind, 'other');
    assert.equal(sequelizeDb2Evidence('.env', 'DB_HOST=x\nDB_DIALECT=db2\n')?.kind, 'db2');
    assert.equal(sequelizeDb2Evidence('.env', 'DATABASE_URL="db2://u:p@h:50000/SAMPLE"\n')?.kind, 'db2');
    assert.equal(sequelizeDb2Evidence('.env', 'DB_DIALECT=postgres\n')?.kind, 'other');
    assert.equal(sequelizeDb2Evidence('.env', 'NODE_ENV=production\n'), undefined);
  });

  it('usesSequelizeModels: an import of a models module, sequelize.models.X; not other modules', () => {
    assert.ok(usesSequelizeModels("const { Order } = require('../models');"));
    assert.ok(usesSequelizeModels("import db from './models/index.js';"));
    assert.ok(usesSequelizeModels("import { Order } from '../../db/models';"));
    assert.ok(usesSequelizeModels('await db.sequelize.models.Order.create(r);'));
    assert.ok(usesSequelizeModels("const Order = require('../models/order.js');"));
    assert.ok(!usesSequelizeModels("const models = require('models-lib');\nconst x = require('./modelsHelper');"));
    assert.ok(!usesSequelizeModels("const { Order } = require('../orders');"));
  });

  it('sequelizeDb2Folders: the nearest package.json up is the top; a file with no package.json above has no project', () => {
    const dir = project({ 'package.json': pkg({ '@sequelize/db2': '7' }), 'src/services/import.js': LOADER, 'sub/package.json': pkg({ sequelize: '6', pg: '8' }), 'sub/import.js': LOADER.replace(/\.\.\/models/g, './models') });
    const found = sequelizeDb2Folders([
      { path: join(dir, 'src/services/import.js'), text: LOADER },
      { path: join(dir, 'sub/import.js'), text: LOADER.replace(/\.\.\/models/g, './models') },
      { path: join(dir, 'src/util.js'), text: 'module.exports = 1;\n' },
    ]);
    assert.deepEqual([...found.keys()], [dir]);
    assert.match(found.get(dir)!, /@sequelize\/db2 in package\.json/);
  });

  it('@sequelize/db2, ibm_db with sequelize, config/config.json, .env, .sequelizerc: the loader is read, one INSERT per row', async () => {
    const cases: Record<string, string>[] = [
      { 'package.json': pkg({ '@sequelize/core': '^7.0.0', '@sequelize/db2': '^7.0.0' }) },
      { 'package.json': pkg({ sequelize: '^6.37.0', ibm_db: '^3.2.0' }) },
      { 'package.json': pkg({ sequelize: '^6.37.0' }), 'config/config.json': DB2_CONFIG },
      { 'package.json': pkg({ sequelize: '^6.37.0' }), '.env': 'DB_USER=db2inst1\nDB_DIALECT=db2\n' },
      { 'package.json': pkg({ sequelize: '^6.37.0' }), '.sequelizerc': "const path = require('path');\nmodule.exports = { config: path.resolve('db', 'database.json'), 'models-path': path.resolve('src', 'models') };\n", 'db/database.json': DB2_CONFIG },
    ];
    for (const files of cases) {
      const got = await readOf({ ...files, 'src/services/import.js': LOADER });
      assert.equal(got.leftOut, undefined, JSON.stringify(files));
      assert.deepEqual(got.rules.filter((r) => r === 'single-row-insert'), ['single-row-insert', 'single-row-insert'], JSON.stringify(files));
    }
  });

  it('a models/index.js of the run that makes Sequelize for Db2 shows the project; sequelize.models.Order is a model', async () => {
    const index = "const { Sequelize } = require('sequelize');\nconst sequelize = new Sequelize(process.env.DB, { dialect: 'db2' });\nmodule.exports = { sequelize };\n";
    const service = "const { sequelize } = require('../db');\nasync function load(rows) {\n  for (const r of rows) await sequelize.models.Invoice.create(r);\n}\n";
    const got = await readOf({ 'package.json': pkg({ sequelize: '^6.37.0' }), 'src/db/index.js': index, 'src/services/import.js': service });
    assert.equal(got.leftOut, undefined);
    assert.deepEqual(got.rules.filter((r) => r === 'single-row-insert'), ['single-row-insert']);
  });

  it('another dialect (or no evidence): nothing changes, the loader is left out', async () => {
    assert.deepEqual(await readOf({ 'package.json': pkg({ sequelize: '^6.37.0', pg: '^8' }), 'config/config.json': PG_CONFIG, 'src/services/import.js': LOADER }), { leftOut: NO_DB2_ACCESS, rules: [] });
    // ibm_db beside sequelize, but the configuration names postgres: ibm_db is for something else.
    assert.deepEqual(await readOf({ 'package.json': pkg({ sequelize: '^6.37.0', ibm_db: '^3' }), 'config/config.json': PG_CONFIG, 'src/services/import.js': LOADER }), { leftOut: NO_DB2_ACCESS, rules: [] });
    assert.deepEqual(await readOf({ 'package.json': pkg({ sequelize: '^6.37.0' }), '.env': 'DB_DIALECT=mysql\n', 'src/services/import.js': LOADER }), { leftOut: NO_DB2_ACCESS, rules: [] });
    // No package.json above: no project.
    assert.deepEqual(await readOf({ 'config/config.json': DB2_CONFIG, 'src/services/import.js': LOADER }), { leftOut: NO_DB2_ACCESS, rules: [] });
    // In a Db2 project, a file set up for another dialect keeps its own.
    const pg = "const { Sequelize } = require('sequelize');\nconst { Order } = require('../models');\nconst s = new Sequelize('postgres://u:p@h/db');\nasync function f(rows) { for (const r of rows) await Order.create(r); }\n";
    const other = await readOf({ 'package.json': pkg({ '@sequelize/db2': '7' }), 'src/services/import.js': pg });
    assert.equal(other.leftOut, 'talks to another database (Sequelize dialect postgres), not Db2');
  });

  it('Workspace.setSequelizeDb2Folders (the language server on a changed package.json): the model users are read again, others not', async () => {
    const { workspace } = lintWorkspace({ '/app/src/services/import.js': LOADER, '/app/src/util.js': 'module.exports = () => 1;\n' }, { codeFrontEnd: await codeFrontEnd() });
    assert.equal(workspace.model('/app/src/services/import.js')!.leftOut, NO_DB2_ACCESS);
    assert.deepEqual(workspace.setSequelizeDb2Folders(new Set(['/app']), usesSequelizeModels), ['/app/src/services/import.js']);
    assert.equal(workspace.model('/app/src/services/import.js')!.leftOut, undefined);
    assert.deepEqual(workspace.diagnostics('/app/src/services/import.js').map((d) => d.rule).filter((r) => r === 'single-row-insert'), ['single-row-insert', 'single-row-insert']);
    assert.deepEqual(workspace.setSequelizeDb2Folders(new Set(['/app']), usesSequelizeModels), []);
    workspace.setSequelizeDb2Folders(new Set(), usesSequelizeModels);
    assert.equal(workspace.model('/app/src/services/import.js')!.leftOut, NO_DB2_ACCESS);
  });

  it('insertlint check on a sequelize-cli project (config/config.json says db2): the service that imports the models is reported', async () => {
    const dir = project({ 'package.json': pkg({ sequelize: '^6.37.0', 'sequelize-cli': '^6' }), 'config/config.json': DB2_CONFIG, 'src/services/import.js': LOADER });
    const result = await runCli(['check', '.', '--format', 'json'], dir);
    const report = JSON.parse(result.stdout) as { diagnostics: { rule: string; file: string; message: string }[] };
    assert.deepEqual(report.diagnostics.map((f) => `${f.rule} ${f.file.replace(/\\/g, '/')}`).sort(), ['single-row-insert src/services/import.js', 'single-row-insert src/services/import.js']);
    assert.match(report.diagnostics[0].message, /^One INSERT INTO <Order> call per row/);
    // The configuration on postgres: nothing.
    writeFileSync(join(dir, 'config/config.json'), PG_CONFIG);
    const without = await runCli(['check', '.', '--format', 'json'], dir);
    assert.deepEqual((JSON.parse(without.stdout) as { diagnostics: unknown[] }).diagnostics, []);
  });
});

/** sequelize-cli's model file: a function of the instance that defines the model (module.exports = Order). */
const ORDER_MODEL = `'use strict';
module.exports = (sequelize, DataTypes) => {
  const Order = sequelize.define('Order', { id: { type: DataTypes.INTEGER, primaryKey: true }, amount: DataTypes.DECIMAL }, { tableName: 'ORDERS', schema: 'APP' });
  return Order;
};
`;
/** A class model (Model.init), exported itself. */
const CUSTOMER_MODEL = `const { Model, DataTypes } = require('sequelize');
const sequelize = require('./connection');
class Customer extends Model {}
Customer.init({ name: DataTypes.STRING }, { sequelize, tableName: 'customers', schema: 'CRM' });
module.exports = Customer;
`;
/** sequelize-cli's models/index.js loader (trimmed): every model file of the folder, under its name. */
const MODELS_INDEX = `'use strict';
const fs = require('fs');
const path = require('path');
const Sequelize = require('sequelize');
const config = require(__dirname + '/../config/config.json')[process.env.NODE_ENV || 'development'];
const db = {};
const sequelize = new Sequelize(config.database, config.username, config.password, config);
fs.readdirSync(__dirname).filter((file) => file !== 'index.js').forEach((file) => {
  const model = require(path.join(__dirname, file))(sequelize, Sequelize.DataTypes);
  db[model.name] = model;
});
db.sequelize = sequelize;
module.exports = db;
`;

describe('code: Sequelize models defined in another file name the table (engine/orm-entities.ts)', () => {
  it('const { Order } = require("../models") and db.Customer.create: the tables models/order.js and models/customer.js (Model.init) define', async () => {
    const loader = `const { Op } = require('sequelize');\n${LOADER}`;
    const { findings, models } = await lintCode(
      { 'src/models/order.js': ORDER_MODEL, 'src/models/customer.js': CUSTOMER_MODEL, 'src/models/index.js': MODELS_INDEX, 'src/services/import.js': loader },
      { driverModules: ['./src/models'] },
    );
    assert.deepEqual(models.get('src/models/order.js')!.code?.entities, [{ name: 'Order', table: { name: 'ORDERS', schema: 'APP' } }]);
    assert.deepEqual(models.get('src/models/customer.js')!.code?.entities, [{ name: 'Customer', table: { name: '"customers"', schema: 'CRM' } }]);
    const messages = findings.filter((f) => f.rule === 'single-row-insert' && f.file === 'src/services/import.js').map((f) => f.message.split(' call')[0]);
    // (The message shows a delimited name without its quotes.)
    assert.deepEqual(messages, ['One INSERT INTO APP.ORDERS', 'One INSERT INTO CRM.customers']);
    assert.match(models.get('src/services/import.js')!.code!.executions[1].ormClass?.from?.[0] ?? '', /^src\/models\.Customer$|^models\.Customer$/);
  });

  it('db.Customer of the models folder; sequelize.models.Order; two models of one name that disagree: not settled', async () => {
    const loader = `const db = require('../models');
const { Op } = require('sequelize');
async function load(rows) {
  for (const r of rows) await db.Order.create(r);
  for (const r of rows) await db.sequelize.models.Order.create(r);
  for (const r of rows) await db.Invoice.create(r);
}
`;
    const invoiceA = "module.exports = (sequelize, DataTypes) => sequelize.define('Invoice', {}, { tableName: 'INVOICES' });\n";
    const invoiceB = "module.exports = (sequelize, DataTypes) => sequelize.define('Invoice', {}, { tableName: 'INVOICE_ARCHIVE' });\n";
    const { findings } = await lintCode(
      { 'src/models/order.js': ORDER_MODEL, 'src/models/invoice.js': invoiceA, 'src/models/invoice-archive.js': invoiceB, 'src/services/import.js': loader },
      { driverModules: ['./src/models'] },
    );
    const messages = findings.filter((f) => f.rule === 'single-row-insert' && f.file === 'src/services/import.js').map((f) => f.message.split(' call')[0]);
    // (db.sequelize.models.Order is read as a model only in a project shown to be on Db2: not here.)
    assert.deepEqual(messages, ['One INSERT INTO APP.ORDERS', 'One INSERT INTO <db.Invoice>']);
  });

  it('a Python insert of a class no import names is not settled by a JavaScript model of the same name', async () => {
    const py = 'import ibm_db_dbi\nfrom sqlalchemy.orm import Session\n\ndef load(session, rows):\n    for r in rows:\n        session.add(Order(id=r))\n        session.commit()\n';
    const { findings } = await lintCode({ 'app/load.py': py, 'src/models/order.js': ORDER_MODEL });
    const row = findings.find((f) => f.rule === 'single-row-insert' && f.file === 'app/load.py');
    assert.ok(row && !/APP\.ORDERS/.test(row.message), row?.message);
  });

  it('insertlint check on a sequelize-cli project on Db2: the loader names APP.ORDERS (from the models module, sequelize.models, the model file itself)', async () => {
    const dir = project({
      'package.json': pkg({ sequelize: '^6.37.0', ibm_db: '^3.2.0' }),
      'config/config.json': DB2_CONFIG,
      'models/index.js': MODELS_INDEX,
      'models/order.js': ORDER_MODEL,
      'models/customer.js': CUSTOMER_MODEL,
      'src/load.js': "const { Order, sequelize } = require('../models');\nconst Customer = require('../models/customer');\nasync function load(rows) {\n  for (const r of rows) await Order.create(r);\n  for (const r of rows) await sequelize.models.Order.create(r);\n  for (const r of rows) await Customer.create(r);\n}\n",
    });
    const result = await runCli(['check', '.', '--format', 'json'], dir);
    const report = JSON.parse(result.stdout) as { diagnostics: { rule: string; file: string; message: string }[] };
    const rows = report.diagnostics.filter((f) => f.rule === 'single-row-insert');
    assert.deepEqual(rows.map((f) => `${f.file.replace(/\\/g, '/')} ${f.message.split(' call')[0]}`), ['src/load.js One INSERT INTO APP.ORDERS', 'src/load.js One INSERT INTO APP.ORDERS', 'src/load.js One INSERT INTO CRM.customers']);
  });
});
