// A fake `ibm_db` module and a fake `db2exfmt` program, written to a folder at run time, so that live Explain
// runs end to end through the real loader and the real child-process runner, in the CLI and in the
// language server. The fake driver answers from the rows of test/explain/helpers/fake-driver.ts and, on a
// wrong password, fails the way a careless driver might: with the whole connection string in its message.
// The fake db2exfmt records its environment and arguments, then writes the fixture plan for the QUERYNO the
// EXPLAIN used.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_ROW, SEED_ROWS } from '../explain/helpers/fake-driver';
import { repoRoot } from './support';

export interface FakeDb2 {
  /** Folder of the fake ibm_db (INSERTLINT_IBM_DB_PATH / insertlint.explain.ibmDbPath). */
  ibmDb: string;
  /** Folder holding the fake db2exfmt (put it first on PATH). */
  bin: string;
  /** What db2exfmt saw: its environment and arguments (JSON), once it ran. */
  db2exfmtRecord: string;
}

const DRIVER = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const data = JSON.parse(fs.readFileSync(path.join(__dirname, 'answers.json'), 'utf8'));
function answer(sql) {
  if (sql.startsWith('SELECT TABSCHEMA FROM SYSCAT.TABLES')) return [{ TABSCHEMA: 'SYSTOOLS' }];
  if (sql.startsWith('EXPLAIN PLAN')) {
    fs.writeFileSync(data.queryNoFile, /SET QUERYNO = (\d+)/.exec(sql)[1]);
    return [];
  }
  if (sql.includes('EXPLAIN_STATEMENT') && sql.includes("EXPLAIN_LEVEL = 'P'")) {
    return [{ ...data.key, QUERYNO: Number(fs.readFileSync(data.queryNoFile, 'utf8')), STATEMENT_TYPE: 'I ', TOTAL_COST: 28.2956, STATEMENT_TEXT: 'INSERT INTO WILKINS.TEST1 SELECT 1' }];
  }
  if (sql.includes("EXPLAIN_LEVEL = 'O'")) return [{ STATEMENT_TEXT: 'INSERT INTO WILKINS.TEST1 VALUES (?)' }];
  for (const [table, rows] of Object.entries(data.rows)) if (sql.includes('.EXPLAIN_' + table.toUpperCase())) return rows;
  return [];
}
const connection = {
  query: (sql, params, cb) => setImmediate(() => cb(null, answer(sql))),
  beginTransaction: (cb) => setImmediate(() => cb(null)),
  commitTransaction: (cb) => setImmediate(() => cb(null)),
  rollbackTransaction: (cb) => setImmediate(() => cb(null)),
  close: (cb) => setImmediate(() => cb(null)),
};
exports.open = (connectionString, cb) => {
  if (!connectionString.includes(data.expectedPwd)) {
    const error = Object.assign(new Error('[IBM][CLI Driver] SQL30082N  Security processing failed with reason "24" ("USERNAME AND/OR PASSWORD INVALID") for ' + connectionString + '  SQLSTATE=08001'), { sqlcode: -30082, sqlstate: '08001' });
    return setImmediate(() => cb(error));
  }
  setImmediate(() => cb(null, connection));
};
`;

const DB2EXFMT = String.raw`#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
const data = JSON.parse(fs.readFileSync(__dirname + '/db2exfmt.json', 'utf8'));
fs.writeFileSync(data.record, JSON.stringify({ env: process.env, args }));
const queryNo = fs.readFileSync(data.queryNoFile, 'utf8');
fs.writeFileSync(args[args.indexOf('-o') + 1], fs.readFileSync(data.plan, 'utf8').replace(/QUERYNO:( +)1\b/, 'QUERYNO:$1' + queryNo));
`;

/** Writes the fakes into `dir`; the driver accepts only `password`. */
export function makeFakeDb2(dir: string, password: string): FakeDb2 {
  const ibmDb = join(dir, 'ibm_db');
  const bin = join(dir, 'bin');
  mkdirSync(ibmDb, { recursive: true });
  mkdirSync(bin, { recursive: true });
  const queryNoFile = join(dir, 'queryno');
  const db2exfmtRecord = join(dir, 'db2exfmt-record.json');
  // The driver is handed the password quoted the way buildConnection quotes it.
  const quoted = /[;{}]/.test(password) ? `{${password.replace(/}/g, '}}')}}` : password;
  writeFileSync(join(ibmDb, 'package.json'), JSON.stringify({ name: 'ibm_db', main: 'index.js' }));
  writeFileSync(join(ibmDb, 'index.js'), DRIVER);
  writeFileSync(
    join(ibmDb, 'answers.json'),
    JSON.stringify({ expectedPwd: `PWD=${quoted};`, queryNoFile, key: KEY_ROW, rows: { operator: SEED_ROWS.operators, stream: SEED_ROWS.streams, object: SEED_ROWS.objects, argument: SEED_ROWS.arguments, predicate: SEED_ROWS.predicates } }),
  );
  const plan = join(repoRoot(), 'test', 'fixtures', 'exfmt', 'insert-fk-trigger-mqt.exfmt.txt');
  // The fixture's explain time is the fake driver's: the plan matches this run's explain instance.
  if (!readFileSync(plan, 'utf8').includes(KEY_ROW.EXPLAIN_TIME)) throw new Error('the plan fixture no longer has the fake explain time');
  writeFileSync(join(bin, 'db2exfmt.json'), JSON.stringify({ record: db2exfmtRecord, queryNoFile, plan }));
  writeFileSync(join(bin, 'db2exfmt'), DB2EXFMT);
  chmodSync(join(bin, 'db2exfmt'), 0o755);
  return { ibmDb, bin, db2exfmtRecord };
}

/** The ways a password could show up in text: as typed, quoted for a connection string, JSON-escaped, and its tail. */
export function passwordForms(password: string): string[] {
  const quoted = `{${password.replace(/}/g, '}}')}}`;
  return [...new Set([password, quoted, JSON.stringify(password).slice(1, -1), password.slice(-8)])];
}
