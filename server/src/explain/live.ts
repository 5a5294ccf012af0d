// Live Explain of one INSERT: EXPLAIN PLAN … FOR <insert> (the INSERT itself never runs), then either
// db2exfmt (full Db2 client/server) or the EXPLAIN_* tables (thin IBM CLI driver). Rows written to the
// Explain tables are rolled back (tables path) or deleted (db2exfmt path, which needs them committed).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { childEnvironment, Db2Error, describeDb2Error, type ConnectionInfo, type Db2Driver, type Row } from './driver';
import { buildPlanFromExplainTables, num, str } from './explain-tables';
import { parseExfmt } from './exfmt';
import type { ExfmtDocument, ExplainMessage, ExplainStatement } from './model';
import { factsExplainContext, type ContextFacts } from './schema-context';
import { insertTargetOf, splitQualifiedName, type ExplainContext, type TriggerFact } from './classify';

export const QUERY_TAG = 'INSERTLINT';

export type ProcessRunner = (file: string, args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

export interface LiveExplainOptions {
  sql: string;
  connection: ConnectionInfo;
  driver: Db2Driver;
  createExplainTables?: boolean;
  /** Path of db2exfmt; undefined = use the Explain tables. */
  db2exfmt?: string;
  runProcess?: ProcessRunner;
  /** Fixed QUERYNO (tests); default derived from the clock. */
  queryNo?: number;
  /** Read foreign keys, triggers, MQTs and indexes of the target from SYSCAT (default true). */
  readCatalog?: boolean;
}

export interface LiveExplainResult {
  document: ExfmtDocument;
  via: 'db2exfmt' | 'explain-tables';
  /** Built from SYSCAT when readCatalog is on and the reads succeeded. */
  context?: ExplainContext;
  warnings: ExplainMessage[];
}

/**
 * Checks the statement is one INSERT (or MERGE) and turns host variables (:name) into parameter markers,
 * which dynamic EXPLAIN accepts; `?` markers stay as they are.
 */
export function prepareExplainable(sql: string): string {
  let text = sql.trim();
  // Statement terminators at the end (; or @ as scripts use) are not part of the statement.
  let end = text.length;
  while (end > 0 && (text[end - 1] === ';' || text[end - 1] === '@' || /\s/.test(text[end - 1]))) end--;
  text = text.slice(0, end);
  let out = '';
  let i = 0;
  let sawTerminator = false;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      const end = text.indexOf(ch, i + 1);
      const stop = end < 0 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop;
      // Doubled quotes inside a literal continue it.
      continue;
    }
    if (ch === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      out += ' ';
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
      continue;
    }
    if (ch === ';') {
      sawTerminator = true;
      break;
    }
    if (ch === ':' && /[A-Za-z_]/.test(text[i + 1] ?? '') && text[i - 1] !== ':') {
      let j = i + 1;
      while (j < text.length && /[\w$#@.]/.test(text[j])) j++;
      // An indicator variable (:hv :ind or :hv INDICATOR :ind) belongs to the same marker.
      const rest = /^(\s*(INDICATOR\s*)?:[A-Za-z_][\w$#@]*)/i.exec(text.slice(j));
      if (rest) j += rest[1].length;
      out += '?';
      i = j;
      continue;
    }
    out += ch;
    i++;
  }
  if (sawTerminator) throw new Db2Error('not-explainable', 'Explain one statement at a time: the text holds more than one statement.');
  const first = /^\s*(\w+)/.exec(out)?.[1]?.toUpperCase();
  if (first !== 'INSERT' && first !== 'MERGE') throw new Db2Error('not-explainable', `Only INSERT (or MERGE) statements are explained here; this one starts with ${first ?? 'nothing'}.`);
  return out.trim();
}

const KEY_COLUMNS = ['EXPLAIN_REQUESTER', 'EXPLAIN_TIME', 'SOURCE_NAME', 'SOURCE_SCHEMA', 'SOURCE_VERSION', 'EXPLAIN_LEVEL', 'STMTNO', 'SECTNO'] as const;
const INSTANCE_COLUMNS = KEY_COLUMNS.slice(0, 5);

function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The schema holding the Explain tables: the session user's first, else SYSTOOLS (Db2's own lookup order). */
export async function findExplainSchema(driver: Db2Driver): Promise<string | undefined> {
  const rows = await driver.query(
    "SELECT TABSCHEMA FROM SYSCAT.TABLES WHERE TABNAME = 'EXPLAIN_INSTANCE' AND TABSCHEMA IN (SESSION_USER, 'SYSTOOLS') ORDER BY CASE WHEN TABSCHEMA = 'SYSTOOLS' THEN 1 ELSE 0 END",
  );
  const schema = rows.length ? str(rows[0].TABSCHEMA).trim() : '';
  return schema || undefined;
}

export const CREATE_EXPLAIN_TABLES_SQL = "CALL SYSPROC.SYSINSTALLOBJECTS('EXPLAIN', 'C', CAST(NULL AS VARCHAR(128)), CAST(NULL AS VARCHAR(128)))";

function missingTables(): Db2Error {
  return new Db2Error(
    'explain-tables-missing',
    `The Explain tables do not exist for this user or in SYSTOOLS; create them with CALL SYSPROC.SYSINSTALLOBJECTS('EXPLAIN','C',NULL,NULL) (or rerun with --create-explain-tables).`,
    'SYSCAT.TABLES has no EXPLAIN_INSTANCE table in the session user\'s schema or in SYSTOOLS (SQL0219N / SQLSTATE 42704 would follow).',
  );
}

export async function explainLive(options: LiveExplainOptions): Promise<LiveExplainResult> {
  const statement = prepareExplainable(options.sql);
  const { driver, connection } = options;
  const warnings: ExplainMessage[] = [];
  const queryNo = options.queryNo ?? (Math.floor(Date.now() / 1000) % 2_000_000_000) + 1;
  try {
    await driver.open(connection.connectionString);
  } catch (err) {
    throw describeDb2Error(err, connection);
  }
  try {
    let schema = await findExplainSchema(driver).catch((err) => {
      throw describeDb2Error(err, connection);
    });
    if (!schema) {
      if (!options.createExplainTables) throw missingTables();
      try {
        await driver.exec(CREATE_EXPLAIN_TABLES_SQL);
      } catch (err) {
        throw describeDb2Error(err, connection);
      }
      schema = 'SYSTOOLS';
      warnings.push({ code: 'explain-tables-created', message: 'Created the Explain tables in SYSTOOLS (SYSPROC.SYSINSTALLOBJECTS).' });
    }
    const explainSql = `EXPLAIN PLAN SET QUERYNO = ${queryNo} SET QUERYTAG = '${QUERY_TAG}' FOR ${statement}`;
    let context: ExplainContext | undefined;
    if (options.db2exfmt) {
      const doc = await viaDb2exfmt(options, schema, explainSql, queryNo, warnings);
      if (options.readCatalog !== false) context = await catalogContext(driver, statement, warnings);
      if (doc) return { document: doc, via: 'db2exfmt', context, warnings };
    }
    await driver.beginTransaction();
    try {
      await run(driver, connection, explainSql);
      const statementRow = await latestStatement(driver, connection, schema, queryNo);
      const document = await readPlan(driver, connection, schema, statementRow, queryNo);
      if (options.readCatalog !== false && !context) context = await catalogContext(driver, statement, warnings);
      return { document, via: 'explain-tables', context, warnings };
    } finally {
      // Nothing the EXPLAIN wrote survives: the rows were never committed.
      await driver.rollback().catch(() => undefined);
    }
  } finally {
    await driver.close().catch(() => undefined);
  }
}

async function run(driver: Db2Driver, connection: ConnectionInfo, sql: string, params?: unknown[]): Promise<Row[]> {
  try {
    return await driver.query(sql, params);
  } catch (err) {
    throw describeDb2Error(err, connection);
  }
}

async function latestStatement(driver: Db2Driver, connection: ConnectionInfo, schema: string, queryNo: number): Promise<Row> {
  const rows = await run(
    driver,
    connection,
    `SELECT ${KEY_COLUMNS.join(', ')}, QUERYNO, STATEMENT_TYPE, TOTAL_COST, CAST(STATEMENT_TEXT AS VARCHAR(32000)) AS STATEMENT_TEXT FROM ${ident(schema)}.EXPLAIN_STATEMENT WHERE QUERYNO = ? AND QUERYTAG = ? AND EXPLAIN_REQUESTER = SESSION_USER AND EXPLAIN_LEVEL = 'P' ORDER BY EXPLAIN_TIME DESC FETCH FIRST 1 ROW ONLY`,
    [queryNo, QUERY_TAG],
  );
  if (rows.length === 0) throw new Db2Error('sql', 'Db2 accepted the EXPLAIN but wrote no plan row for it.', `no EXPLAIN_STATEMENT row with QUERYNO=${queryNo} QUERYTAG=${QUERY_TAG}`);
  return rows[0];
}

function keyParams(row: Row): unknown[] {
  return KEY_COLUMNS.map((c) => row[c]);
}

const KEY_WHERE = KEY_COLUMNS.map((c) => `${c} = ?`).join(' AND ');

async function readPlan(driver: Db2Driver, connection: ConnectionInfo, schema: string, p: Row, queryNo: number): Promise<ExfmtDocument> {
  const s = ident(schema);
  const key = keyParams(p);
  const original = await run(
    driver,
    connection,
    `SELECT CAST(STATEMENT_TEXT AS VARCHAR(32000)) AS STATEMENT_TEXT FROM ${s}.EXPLAIN_STATEMENT WHERE ${INSTANCE_COLUMNS.map((c) => `${c} = ?`).join(' AND ')} AND EXPLAIN_LEVEL = 'O' AND STMTNO = ? AND SECTNO = ?`,
    [...key.slice(0, 5), p.STMTNO, p.SECTNO],
  );
  const operators = await run(driver, connection, `SELECT OPERATOR_ID, OPERATOR_TYPE, TOTAL_COST, IO_COST, CPU_COST, FIRST_ROW_COST FROM ${s}.EXPLAIN_OPERATOR WHERE ${KEY_WHERE} ORDER BY OPERATOR_ID`, key);
  const streams = await run(
    driver,
    connection,
    `SELECT STREAM_ID, SOURCE_TYPE, SOURCE_ID, TARGET_TYPE, TARGET_ID, OBJECT_SCHEMA, OBJECT_NAME, STREAM_COUNT FROM ${s}.EXPLAIN_STREAM WHERE ${KEY_WHERE} ORDER BY STREAM_ID`,
    key,
  );
  const objects = await run(driver, connection, `SELECT OBJECT_SCHEMA, OBJECT_NAME, OBJECT_TYPE, ROW_COUNT FROM ${s}.EXPLAIN_OBJECT WHERE ${KEY_WHERE}`, key);
  const args = await run(
    driver,
    connection,
    `SELECT OPERATOR_ID, ARGUMENT_TYPE, ARGUMENT_VALUE, CAST(LONG_ARGUMENT_VALUE AS VARCHAR(8000)) AS LONG_ARGUMENT_VALUE FROM ${s}.EXPLAIN_ARGUMENT WHERE ${KEY_WHERE} ORDER BY OPERATOR_ID`,
    key,
  );
  const predicates = await run(
    driver,
    connection,
    `SELECT OPERATOR_ID, PREDICATE_ID, HOW_APPLIED, FILTER_FACTOR, CAST(PREDICATE_TEXT AS VARCHAR(8000)) AS PREDICATE_TEXT FROM ${s}.EXPLAIN_PREDICATE WHERE ${KEY_WHERE} ORDER BY OPERATOR_ID, PREDICATE_ID`,
    key,
  );
  const plan = buildPlanFromExplainTables({ operators, streams, objects, arguments: args, predicates }, num(p.TOTAL_COST));
  const stmt: ExplainStatement = {
    statementNumber: num(p.STMTNO),
    sectionNumber: num(p.SECTNO),
    queryNo,
    queryTag: QUERY_TAG,
    statementType: str(p.STATEMENT_TYPE).trim() || undefined,
    originalText: original.length ? str(original[0].STATEMENT_TEXT).trim() : undefined,
    optimizedText: str(p.STATEMENT_TEXT).trim() || undefined,
    plan: plan.operators.length ? plan : undefined,
    diagnostics: [],
    errors: plan.operators.length ? [] : [{ code: 'no-operators', message: 'The Explain tables hold no operators for this statement.' }],
    warnings: [],
  };
  return { kind: 'db2exfmt', header: { fields: headFields(p) }, statements: [stmt], errors: [], warnings: [] };
}

/**
 * What EXPLAIN_STATEMENT's key row says of where the plan came from, as db2exfmt's head names it (EXPLAIN_TIME in
 * its form): the explain time and the package, read already; the Db2 version and the settings would need a query of
 * EXPLAIN_INSTANCE, not made.
 */
function headFields(p: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  const time = explainTimeText(p.EXPLAIN_TIME);
  if (time) fields.EXPLAIN_TIME = time;
  for (const key of ['SOURCE_NAME', 'SOURCE_SCHEMA', 'SOURCE_VERSION', 'EXPLAIN_REQUESTER'] as const) {
    const value = str(p[key]).trim();
    if (value) fields[key] = value;
  }
  return fields;
}

async function viaDb2exfmt(options: LiveExplainOptions, schema: string, explainSql: string, queryNo: number, warnings: ExplainMessage[]): Promise<ExfmtDocument | undefined> {
  const { driver, connection } = options;
  const runner = options.runProcess ?? defaultRunner;
  // db2exfmt reads the tables over its own connection, so the EXPLAIN rows must be committed first.
  await driver.beginTransaction();
  let p: Row;
  try {
    await run(driver, connection, explainSql);
    p = await latestStatement(driver, connection, schema, queryNo);
    await driver.commit();
  } catch (err) {
    await driver.rollback().catch(() => undefined);
    throw err;
  }
  const dir = mkdtempSync(join(tmpdir(), 'insertlint-exfmt-'));
  const out = join(dir, 'plan.txt');
  try {
    // -1 takes the defaults for everything else; -e and -w narrow it to this run's explain instance.
    const args = ['-d', connection.database ?? '', '-1', '-o', out, '-e', schema];
    const time = explainTimeText(p.EXPLAIN_TIME);
    if (time) args.push('-w', time);
    const result = await runner(options.db2exfmt!, args);
    let text = '';
    try {
      text = readFileSync(out, 'utf8');
    } catch {
      text = '';
    }
    if (result.code !== 0 || text.trim() === '') {
      warnings.push({
        code: 'db2exfmt-failed',
        message: `db2exfmt did not produce a plan (exit code ${result.code}); the plan was read from the Explain tables instead.`,
      });
      return await readPlan(driver, connection, schema, p, queryNo);
    }
    const ours = ownPlan(text, p.EXPLAIN_TIME, queryNo);
    if ('mismatch' in ours) {
      warnings.push({ code: 'db2exfmt-mismatch', message: `${ours.mismatch} The plan was read from the Explain tables instead.` });
      return await readPlan(driver, connection, schema, p, queryNo);
    }
    return ours.document;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    try {
      await driver.beginTransaction();
      await driver.exec(`DELETE FROM ${ident(schema)}.EXPLAIN_INSTANCE WHERE ${INSTANCE_COLUMNS.map((c) => `${c} = ?`).join(' AND ')}`, keyParams(p).slice(0, 5));
      await driver.commit();
    } catch (err) {
      await driver.rollback().catch(() => undefined);
      warnings.push({ code: 'cleanup-failed', message: `Could not delete this run's rows from ${schema}.EXPLAIN_INSTANCE.`, line: undefined });
      void err;
    }
  }
}

const INSTANCE_BANNER = /^\s*\*{10,}\s*EXPLAIN INSTANCE\s*\*{10,}\s*$/;

/** An explain time as digits only (YYYYMMDDhhmmssnnnnnn), whatever the driver or db2exfmt printed. */
function explainTimeKey(value: unknown): string | undefined {
  const digits = String(value ?? '').replace(/\D/g, '');
  return digits.length >= 14 ? digits.slice(0, 20).padEnd(20, '0') : undefined;
}

/** The explain time as db2exfmt's -w takes it: yyyy-mm-dd-hh.mm.ss.nnnnnn. */
function explainTimeText(value: unknown): string | undefined {
  const k = explainTimeKey(value);
  return k && `${k.slice(0, 4)}-${k.slice(4, 6)}-${k.slice(6, 8)}-${k.slice(8, 10)}.${k.slice(10, 12)}.${k.slice(12, 14)}.${k.slice(14)}`;
}

/**
 * This run's plan in db2exfmt's output: the EXPLAIN INSTANCE with our explain time, its statement with our
 * QUERYNO. Shared Explain tables can hold someone else's newer explain, and db2exfmt may format that one.
 */
export function ownPlan(text: string, explainTime: unknown, queryNo: number): { document: ExfmtDocument } | { mismatch: string } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const starts = lines.flatMap((l, i) => (INSTANCE_BANNER.test(l) ? [i] : []));
  const preamble = lines.slice(0, starts[0] ?? 0);
  const instances = starts.map((start, i) => {
    const block = lines.slice(start, starts[i + 1] ?? lines.length);
    const time = block.map((l) => /^\s*EXPLAIN_TIME:\s*(\S+)/.exec(l)?.[1]).find(Boolean);
    return { block, time };
  });
  const wanted = explainTimeKey(explainTime);
  const expected = `this statement was explained at ${explainTimeText(explainTime) ?? String(explainTime)} as QUERYNO ${queryNo}`;
  const sameTime = instances.filter((x) => wanted !== undefined && explainTimeKey(x.time) === wanted);
  if (sameTime.length === 0) {
    const shown = instances.map((x) => x.time ?? 'no explain time').join(', ') || 'no EXPLAIN INSTANCE';
    return { mismatch: `db2exfmt formatted another explain than this one (it shows ${shown}; ${expected}), perhaps another session's on shared Explain tables.` };
  }
  const document = parseExfmt([...preamble, ...sameTime.flatMap((x) => x.block)].join('\n'), { fromDb2exfmt: true });
  const ours = document.statements.filter((s) => s.queryNo === queryNo);
  if (ours.length === 0) {
    const numbers = document.statements.map((s) => (s.queryNo === undefined ? 'no QUERYNO' : `QUERYNO ${s.queryNo}`)).join(', ') || 'no statement';
    return { mismatch: `db2exfmt's output for this explain time holds ${numbers}, not ours (${expected}).` };
  }
  document.statements = ours;
  return { document };
}

function defaultRunner(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: childEnvironment() }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** db2exfmt on PATH (a full Db2 client or server has it; the thin CLI driver does not). */
export function findDb2exfmt(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = process.platform === 'win32' ? ['db2exfmt.exe', 'db2exfmt.bat', 'db2exfmt'] : ['db2exfmt'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      const p = join(dir, n);
      if (existsSync(p)) return p;
    }
  }
  return undefined;
}

// --- catalog context ------------------------------------------------------------------------------------

function splitTarget(target: string, currentSchema: string): [string, string] {
  const dot = target.indexOf('.');
  const schema = dot <= 0 ? currentSchema : target.slice(0, dot);
  return [schema, target.slice(dot + 1)];
}

/** Reads the target's foreign keys, triggers, MQTs, indexes and checks from SYSCAT; failures only warn. */
export async function catalogContext(driver: Db2Driver, statement: string, warnings: ExplainMessage[]): Promise<ExplainContext | undefined> {
  const target = insertTargetOf(statement);
  if (!target) return undefined;
  try {
    let current = '';
    if (target.startsWith('.')) {
      const rows = await driver.query('VALUES CURRENT SCHEMA');
      current = str(Object.values(rows[0] ?? {})[0]).trim();
    }
    const [schema, name] = splitTarget(target, current);
    const table = `${schema}.${name}`;
    const facts: ContextFacts = { foreignKeys: [], triggers: [], mqts: [], indexes: [], checks: {} };
    const fks = await driver.query(
      'SELECT R.CONSTNAME, R.REFTABSCHEMA, R.REFTABNAME, R.DELETERULE, C.ENFORCED FROM SYSCAT.REFERENCES R LEFT JOIN SYSCAT.TABCONST C ON C.CONSTNAME = R.CONSTNAME AND C.TABSCHEMA = R.TABSCHEMA AND C.TABNAME = R.TABNAME WHERE R.TABSCHEMA = ? AND R.TABNAME = ?',
      [schema, name],
    );
    const rule: Record<string, 'cascade' | 'set null' | 'restrict' | 'no action'> = { C: 'cascade', N: 'set null', R: 'restrict', A: 'no action' };
    for (const r of fks) {
      facts.foreignKeys!.push({
        name: str(r.CONSTNAME).trim(),
        child: table,
        parent: `${str(r.REFTABSCHEMA).trim()}.${str(r.REFTABNAME).trim()}`,
        deleteRule: rule[str(r.DELETERULE).trim()] ?? 'no action',
        enforced: str(r.ENFORCED).trim() !== 'N',
      });
    }
    const triggers = await driver.query(
      'SELECT TRIGSCHEMA, TRIGNAME, TRIGTIME, TRIGEVENT, CAST(TEXT AS VARCHAR(32000)) AS TEXT FROM SYSCAT.TRIGGERS WHERE TABSCHEMA = ? AND TABNAME = ?',
      [schema, name],
    );
    const timing: Record<string, TriggerFact['timing']> = { B: 'before', A: 'after', I: 'instead of' };
    const event: Record<string, 'insert' | 'update' | 'delete'> = { I: 'insert', U: 'update', D: 'delete' };
    for (const r of triggers) {
      const text = str(r.TEXT);
      const writes = [...text.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO)\s+((?:"[^"]+"|[A-Za-z_][\w$#@]*)(?:\s*\.\s*(?:"[^"]+"|[A-Za-z_][\w$#@]*))?)/gi)].map((m) => {
        const parts = splitQualifiedName(m[1]);
        return parts.length === 2 ? `${parts[0]}.${parts[1]}` : `${str(r.TRIGSCHEMA).trim()}.${parts[0]}`;
      });
      facts.triggers!.push({
        name: `${str(r.TRIGSCHEMA).trim()}.${str(r.TRIGNAME).trim()}`,
        table,
        timing: timing[str(r.TRIGTIME).trim()],
        events: [event[str(r.TRIGEVENT).trim()]].filter(Boolean),
        writes,
      });
    }
    const mqts = await driver.query(
      "SELECT D.TABSCHEMA, D.TABNAME, T.REFRESH FROM SYSCAT.TABDEP D JOIN SYSCAT.TABLES T ON T.TABSCHEMA = D.TABSCHEMA AND T.TABNAME = D.TABNAME WHERE D.BSCHEMA = ? AND D.BNAME = ? AND T.TYPE = 'S'",
      [schema, name],
    );
    for (const r of mqts) {
      facts.mqts!.push({ name: `${str(r.TABSCHEMA).trim()}.${str(r.TABNAME).trim()}`, baseTables: [table], refresh: str(r.REFRESH).trim() === 'I' ? 'immediate' : 'deferred' });
    }
    const tables = [table, ...facts.foreignKeys!.map((f) => f.parent)];
    for (const t of tables) {
      const [ts, tn] = splitTarget(t, current);
      const idx = await driver.query('SELECT INDSCHEMA, INDNAME, UNIQUERULE FROM SYSCAT.INDEXES WHERE TABSCHEMA = ? AND TABNAME = ?', [ts, tn]);
      for (const r of idx) facts.indexes!.push({ name: `${str(r.INDSCHEMA).trim()}.${str(r.INDNAME).trim()}`, table: t, unique: ['P', 'U'].includes(str(r.UNIQUERULE).trim()) });
    }
    const checks = await driver.query("SELECT COUNT(*) AS N FROM SYSCAT.CHECKS WHERE TABSCHEMA = ? AND TABNAME = ? AND TYPE = 'C'", [schema, name]);
    facts.checks![table] = num(checks[0]?.N) ?? 0;
    return factsExplainContext(facts);
  } catch (err) {
    const e = describeDb2Error(err);
    warnings.push({ code: 'catalog-unavailable', message: `Could not read the catalog to name constraints, triggers and MQTs (${e.message}); the plan is classified from its shape only.` });
    return undefined;
  }
}
