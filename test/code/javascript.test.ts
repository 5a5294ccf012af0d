import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';

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
});
