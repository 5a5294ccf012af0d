import * as assert from 'node:assert/strict';
import { brief, codeFrontEnd, INSERT_RULES, lintCode, posOf } from './helpers';
import { lint } from '../helpers/rule-tester';

describe('code: JavaScript/TypeScript (node ibm_db)', () => {
  it('async/await: template literal per row in for-of, autocommit on', async () => {
    const ts = `import ibmdb from 'ibm_db';

export async function importOrders(cn: string, orders: Order[]): Promise<void> {
  const conn = await ibmdb.open(cn);
  for (const o of orders) {
    await conn.query(\`INSERT INTO SALES.ORDERS (CUST_ID, AMOUNT)
                      VALUES (\${o.customerId}, \${o.amount})\`);
  }
  await conn.close();
}
`;
    const { findings, models } = await lintCode({ 'import.ts': ts });
    const [exec] = models.get('import.ts')!.code!.executions;
    assert.equal(exec.textKind, 'template');
    assert.equal(exec.loop?.kind, 'for-of');
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `no-autocommit@${posOf(ts, 'conn.query')}`,
      `prefer-parameter-markers@${posOf(ts, 'conn.query')}`,
      `single-row-insert@${posOf(ts, 'conn.query')}`,
    ]);
    const m = findings.find((f) => f.rule === 'prefer-parameter-markers')!;
    assert.deepEqual([m.line, m.endLine], [6, 7]);
    assert.match(m.message, /^Values spliced into INSERT INTO SALES\.ORDERS through an interpolated string: o\.customerId, o\.amount\. .*for-of loop at line 5/);
  });

  it('callback style: prepare inside forEach, execute in the callback, commitTransaction per row', async () => {
    const js = `const ibmdb = require('ibm_db');

function load(conn, rows, done) {
  conn.beginTransaction(function () {
    rows.forEach(function (row) {
      conn.prepare('INSERT INTO EVENTS (ID, KIND) VALUES (?, ?)', function (err, stmt) {
        stmt.executeNonQuery([row.id, row.kind], function () {
          conn.commitTransaction(function () {});
        });
      });
    });
  });
}
`;
    const { findings } = await lintCode({ 'load.js': js });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(js, 'conn.prepare')}`,
      `single-row-insert@${posOf(js, 'stmt.executeNonQuery')}`,
      `commit-per-row@${posOf(js, 'conn.commitTransaction')}`,
    ]);
  });

  it('prepareSync once and executeSync per row with string concatenation and a += built text', async () => {
    const js = `const ibmdb = require('ibm_db');
const conn = ibmdb.openSync(process.env.DB2_CN);
let sql = 'INSERT INTO AUDIT (MSG, AT) ';
sql += "VALUES ('" + msg + "', CURRENT TIMESTAMP)";
conn.querySync(sql);
const stmt = conn.prepareSync('INSERT INTO T (A) VALUES (?)');
for (let i = 0; i < 100; i++) {
  stmt.executeSync([i]);
}
`;
    const { findings } = await lintCode({ 'audit.js': js });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prefer-parameter-markers@${posOf(js, 'conn.querySync')}`,
      `no-autocommit@${posOf(js, 'stmt.executeSync')}`,
      `single-row-insert@${posOf(js, 'stmt.executeSync')}`,
    ]);
  });

  it('array insert with ArraySize is batched; a file on another database driver is left out, with the reason', async () => {
    const js = `const ibmdb = require('ibm_db');
async function bulk(conn, rows) {
  await conn.beginTransaction();
  for (const chunk of chunks(rows, 1000)) {
    await conn.query({ sql: 'INSERT INTO T (A, B) VALUES (?, ?)', params: chunk, ArraySize: chunk.length });
    await conn.commitTransaction();
  }
}
`;
    const pg = "const { Client } = require('pg');\nfor (const r of rows) { await client.query('INSERT INTO t VALUES (' + r + ')'); }\n";
    const { findings, models } = await lintCode({ 'bulk.js': js, 'pg.js': pg });
    assert.deepEqual(brief(findings), []);
    assert.equal(models.get('pg.js')!.leftOut, 'talks to another database (pg), not Db2');
    assert.equal(models.get('bulk.js')!.leftOut, undefined);
  });

  it('promise style: prepare(...).then(stmt => ...) in a while loop, and a do-while with querySync', async () => {
    const js = `const ibmdb = require('ibm_db');
function pump(conn, queue) {
  while (queue.length > 0) {
    const item = queue.shift();
    conn.prepare('INSERT INTO Q (ID, BODY) VALUES (?, ?)')
      .then((stmt) => stmt.execute([item.id, item.body]))
      .catch(console.error);
  }
  let i = 0;
  do {
    conn.querySync('INSERT INTO TICKS (N) VALUES (?)', [i]);
    conn.commitTransactionSync();
  } while (++i < 10);
}
`;
    const { findings } = await lintCode({ 'pump.js': js });
    // conn is a parameter: whether it autocommits is not in this file, so no-autocommit says nothing.
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(js, 'conn.prepare')}`,
      `single-row-insert@${posOf(js, 'stmt.execute')}`,
      `single-row-insert@${posOf(js, 'conn.querySync')}`,
      `commit-per-row@${posOf(js, 'conn.commitTransactionSync')}`,
    ]);
  });

  it('ibmdb.open(cn, { autoCommit: false }) opens without autocommit', async () => {
    const js = `const ibmdb = require('ibm_db');
async function load(cn, rows) {
  const conn = await ibmdb.open(cn, { autoCommit: false });
  const stmt = await conn.prepare('INSERT INTO T (A) VALUES (?)');
  for (const r of rows) await stmt.execute([r]);
  await conn.commitTransaction();
}
`;
    const { findings } = await lintCode({ 'load.js': js });
    assert.deepEqual(brief(findings, ['no-autocommit']), []);
    assert.deepEqual(brief(findings, ['single-row-insert']), [`single-row-insert@${posOf(js, 'stmt.execute')}`]);
  });

  it('options a variable holds, and an autoCommit that defaults (cfg.autoCommit ?? true), are read', async () => {
    const js = (options: string) => `const ibmdb = require('ibm_db');
async function load(cn, cfg, rows) {
  const options = ${options};
  const conn = await ibmdb.open(cn, options);
  const stmt = await conn.prepare('INSERT INTO T (A) VALUES (?)');
  for (const r of rows) await stmt.execute([r]);
}
`;
    const autocommits = async (options: string) => brief((await lintCode({ 'load.js': js(options) })).findings, ['no-autocommit']).length;
    assert.equal(await autocommits('{ autoCommit: false }'), 0);
    assert.equal(await autocommits('{ fetchMode: 3, autoCommit: cfg.autoCommit ?? false }'), 0);
    assert.equal(await autocommits('{ autoCommit: cfg.autoCommit ?? true }'), 1);
    assert.equal(await autocommits('{ autoCommit: true }'), 1);
    // Nothing said about autoCommit: the driver's default (on).
    assert.equal(await autocommits('{ fetchMode: 3 }'), 1);
  });

  // nestjsdb2's client.ts: a class field typed with ibm_db's Connection, a batchInsert that executes row by row.
  const CLIENT = `import { Pool, Connection } from 'ibm_db';
export class Db2Client {
  protected connection?: Connection;
  public async batchInsert(tableName: string, columns: string[], valuesArray: any[][]): Promise<void> {
    const sql = \`INSERT INTO \${tableName} (\${columns.join(', ')}) VALUES (?, ?)\`;
    const stmt = this.connection.prepareSync(sql);
    for (const values of valuesArray) {
      stmt.executeSync(values);
    }
    stmt.closeSync();
  }
}
`;

  it("a field declared with the driver's Connection type that the file never switches autocommits (nestjsdb2's batchInsert)", async () => {
    const { findings } = await lintCode({ 'client.ts': CLIENT });
    assert.deepEqual(brief(findings, ['no-autocommit', 'single-row-insert']), [`no-autocommit@${posOf(CLIENT, 'stmt.executeSync')}`, `single-row-insert@${posOf(CLIENT, 'stmt.executeSync')}`]);
    const autocommit = findings.find((f) => f.rule === 'no-autocommit')!;
    assert.match(autocommit.message, /^Autocommit is on for 'connection' \(the driver default for an ibm_db Connection field that this file never switches\) while the for-of loop at line 7 inserts into <tableName> one row per call\. .*92\.1 s committing each row vs 7\.6 s committing every 1000 \(tests 2, 68\)\./);
    // Merged (the engine's default), the per-row commit and its figures lead, the single-row call is related.
    const merged = lint({ 'client.ts': CLIENT }, { codeFrontEnd: await codeFrontEnd() }).filter((f) => f.line === 8);
    assert.deepEqual(merged.map((f) => f.rule), ['no-autocommit']);
  });

  it('not when the file switches that field, nor for a Connection of another module, a parameter or a local', async () => {
    const switched = CLIENT.replace('    stmt.closeSync();\n  }', '    stmt.closeSync();\n  }\n  begin() {\n    this.connection.beginTransactionSync();\n  }');
    assert.notEqual(switched, CLIENT);
    const other = CLIENT.replace("from 'ibm_db'", "from 'typeorm'");
    const param = CLIENT.replace('public async batchInsert(tableName', 'public async batchInsert(connection: Connection, tableName').replace('this.connection.prepareSync', 'connection.prepareSync');
    for (const [name, text] of Object.entries({ switched, other, param })) {
      const { findings } = await lintCode({ 'client.ts': text });
      assert.deepEqual(brief(findings, ['no-autocommit']), [], name);
      assert.equal(brief(findings, ['single-row-insert']).length, 1, name);
    }
    // A namespace import and a union with null: still the driver's connection.
    const ns = CLIENT.replace("import { Pool, Connection } from 'ibm_db';", "import * as ibmdb from 'ibm_db';").replace('connection?: Connection;', 'connection: ibmdb.Database | null = null;');
    const found = (await lintCode({ 'client.ts': ns })).findings.filter((f) => f.rule === 'no-autocommit');
    assert.match(found[0]?.message ?? '', /the driver default for an ibm_db Database field/);
  });

  it('TypeScript casts around the SQL text (as, !, satisfies) are looked through', async () => {
    const ts = `import * as ibmdb from 'ibm_db';
const SQL = 'INSERT INTO T (A) VALUES (' as string;
export function f(conn: ibmdb.Database, rows: number[]) {
  for (const r of rows) conn.querySync((SQL + r + ')') as string);
}
`;
    const { findings } = await lintCode({ 'f.ts': ts });
    assert.deepEqual(brief(findings, ['prefer-parameter-markers']), [`prefer-parameter-markers@${posOf(ts, 'conn.querySync')}`]);
  });

  it('parameters bound as arrays (ParamType ARRAY) make a prepared execute an array insert', async () => {
    const js = `const ibmdb = require('ibm_db');
function load(conn, chunks) {
  conn.beginTransactionSync();
  const stmt = conn.prepareSync('INSERT INTO T (A, B) VALUES (?, ?)');
  for (const chunk of chunks) {
    stmt.bindSync([
      { ParamType: 'ARRAY', DataType: 'INTEGER', Data: chunk.map((r) => r.a) },
      { ParamType: 'ARRAY', DataType: 'VARCHAR', Data: chunk.map((r) => r.b), Length: 30 },
    ]);
    stmt.executeSync();
    conn.commitTransactionSync();
  }
}
`;
    const { findings, models } = await lintCode({ 'arr.js': js });
    assert.equal(models.get('arr.js')!.code!.executions.find((e) => e.action === 'executePrepared')?.batched, true);
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('lodash templates filled with data are format templates: each <%= x %> / <%- x %> slot holds the data property x', async () => {
    const js = `const ibmdb = require('ibm_db');
const template = require('lodash/template');
const _ = require('lodash');
function one(conn, row) {
  const sql = template('INSERT INTO APP.T (A, B, C) VALUES (<%= a %>, <%- b %>, <%= c %>)', {})({ a: row.a, b: conn.escape(row.b), c: _.escape(row.c) });
  return conn.querySync(sql);
}
function two(conn, row) {
  const compiled = _.template("INSERT INTO <%= table %> (A) VALUES ('<%= a %>')");
  conn.querySync(compiled({ table: 'APP.T', a: row.a }));
}
function three(conn, row, data) {
  conn.querySync(template('INSERT INTO APP.T (A) VALUES (<%= a %>)')(data));
}
function four(conn, row) {
  conn.querySync(template('INSERT INTO APP.T (A) VALUES (<% if (row.a) { %>1<% } else { %>2<% } %>)')({ row }));
}
`;
    const { models } = await lintCode({ 'tpl.js': js });
    const executions = models.get('tpl.js')!.code!.executions;
    // Code blocks (<% if … %>) make any text: four's is not known, and a query of an unknown text is no execution.
    assert.equal(executions.length, 3);
    const [one, two, three] = executions;
    assert.deepEqual([one.textKind, two.textKind, three.textKind], ['format', 'format', 'format']);
    const texts = (e: typeof one) => (e.splices ?? []).map((x) => x.text);
    const target = (e: typeof one) => (e.statements[0] as { target?: { name: string; schema?: string } }).target;
    assert.deepEqual(texts(one), ['row.a', 'conn.escape(row.b)', '_.escape(row.c)']);
    // A value passed to an escape function is escaped; lodash's _.escape is for HTML.
    assert.deepEqual(one.splices?.map((x) => x.escaped ?? false), [false, true, false]);
    // The table slot takes the data's text; the value slot inside quotes is a spliced value.
    assert.deepEqual([target(two)?.schema, target(two)?.name, texts(two)], ['APP', 'T', ['row.a']]);
    // Data the code does not spell out: the slot itself is the spliced value.
    assert.deepEqual(texts(three), ['<%= a %>']);
    assert.equal(three.splicedValues.length, 1);
  });

  it('an array filled by push and joined is its elements, also under an if; pushed in a loop it is not known', async () => {
    const js = `const ibmdb = require('ibm_db');
function three(conn, extra) {
  const parts = ['INSERT INTO APP.T'];
  parts.push('(A, B)');
  if (extra) parts.push("VALUES (1, 'x')");
  conn.querySync(parts.join(' '));
}
function four(conn, rows) {
  const parts = ['INSERT INTO APP.T (A) VALUES'];
  rows.forEach((r) => parts.push(\`(\${r.a})\`));
  conn.querySync(parts.join(' '));
}
`;
    const { models } = await lintCode({ 'push.js': js });
    // four's text is not known (a row pushed per pass): its query is no execution.
    const executions = models.get('push.js')!.code!.executions;
    assert.equal(executions.length, 1);
    const [three] = executions;
    assert.equal(three.statements.length, 1);
    const insert = three.statements[0] as { kind: string; columns: string[]; source: { kind: string; rows: unknown[] } };
    assert.deepEqual([insert.kind, insert.columns, insert.source.kind, insert.source.rows.length], ['insert', ['A', 'B'], 'values', 1]);
  });
});
