// `insertlint schema pull`: the live catalog (SYSCAT views) of chosen schemas read into a CatalogSnapshot,
// over the same Db2Driver as live Explain (the optional ibm_db). Read-only: only SELECTs are sent, and
// this module refuses to send anything else. catalog-ddl.ts writes the snapshot as DDL the model reads back.
//
// Rows are read as ibm_db returns them: upper-case column names as selected, INTEGER/SMALLINT as numbers,
// BIGINT as a string, DECIMAL as a double (so DECIMAL(31,0) values are cast to VARCHAR in the SQL), CHAR(n)
// padded with blanks, CLOBs as strings, NULL as null; older ibm_db versions differ, so numbers are accepted
// as numbers or strings. Names are trimmed at the end (trailing blanks are never significant in Db2 names).
import { Db2Error, describeDb2Error, type Db2Driver, type Row, type ServerInfo } from '../explain/driver';

export interface CatalogColumn {
  name: string;
  /** SYSIBM types by name (VARCHAR, DECIMAL…); user-defined types as "SCHEMA"."TYPE". */
  typeSchema: string;
  typeName: string;
  length: number;
  scale: number;
  nullable: boolean;
  /** SYSCAT.COLUMNS.DEFAULT: the default's SQL text, when there is one. */
  defaultText?: string;
  /** CODEPAGE 0 on a character type: FOR BIT DATA. */
  forBitData: boolean;
  lobLogged?: boolean;
  lobCompact?: boolean;
  inlineLength?: number;
  /** GENERATED: 'A' always, 'D' by default. */
  generated?: 'always' | 'by default';
  /** Generation expression text (SYSCAT.COLUMNS.TEXT), e.g. "AS (PRICE * QTY)". */
  generationText?: string;
  identity?: CatalogIdentity;
}

export interface CatalogIdentity {
  start?: string;
  increment?: string;
  /** 0: NO CACHE. */
  cache: number;
  cycle: boolean;
  order: boolean;
}

export interface CatalogPartition {
  name: string;
  seq: number;
  low: string;
  lowInclusive: boolean;
  high: string;
  highInclusive: boolean;
  tablespace?: string;
}

export interface CatalogKey {
  name: string;
  kind: 'primaryKey' | 'unique';
  columns: string[];
}

export interface CatalogForeignKey {
  name: string;
  columns: string[];
  parentSchema: string;
  parentTable: string;
  parentColumns: string[];
  onDelete: 'NO ACTION' | 'RESTRICT' | 'CASCADE' | 'SET NULL';
  onUpdate: 'NO ACTION' | 'RESTRICT';
  enforced: boolean;
  queryOptimization: boolean;
}

export interface CatalogCheck {
  name: string;
  text: string;
  enforced: boolean;
}

export interface CatalogIndex {
  schema: string;
  name: string;
  columns: { name: string; descending: boolean }[];
  include: string[];
  unique: boolean;
  cluster: boolean;
  pctfree?: number;
}

export interface CatalogTrigger {
  schema: string;
  name: string;
  /** Default schema when the trigger was created (unqualified names in its text resolve against it). */
  qualifier: string;
  /** The CREATE TRIGGER statement as it was typed. */
  text: string;
  valid: boolean;
}

export interface CatalogTable {
  schema: string;
  name: string;
  /** 'T' table, 'S' materialized query table. */
  type: 'T' | 'S';
  tablespace?: string;
  indexTablespace?: string;
  longTablespace?: string;
  append: boolean;
  locksize?: 'table' | 'blockinsert';
  pctfree?: number;
  columns: CatalogColumn[];
  keys: CatalogKey[];
  foreignKeys: CatalogForeignKey[];
  checks: CatalogCheck[];
  indexes: CatalogIndex[];
  triggers: CatalogTrigger[];
  partitionExpressions: string[];
  partitions: CatalogPartition[];
  /** MQTs: refresh mode (SYSCAT.TABLES.REFRESH), definition as typed (SYSCAT.VIEWS.TEXT), base tables (SYSCAT.TABDEP). */
  mqt?: { refresh: 'immediate' | 'deferred'; qualifier: string; text: string; baseTables: string[] };
}

export interface CatalogSequence {
  schema: string;
  name: string;
  start?: string;
  increment?: string;
  cache: number;
  cycle: boolean;
  order: boolean;
}

export interface CatalogTablespace {
  name: string;
  id: number;
  managedBy: 'system' | 'database' | 'automatic storage';
  dataType: 'regular' | 'large' | 'system temporary' | 'user temporary';
  pageSize: number;
  extentSize: number;
  /** -1: AUTOMATIC. */
  prefetchSize: number;
}

export interface CatalogSnapshot {
  database?: string;
  schemas: string[];
  tables: CatalogTable[];
  sequences: CatalogSequence[];
  tablespaces: CatalogTablespace[];
}

/** The SELECTs sent to SYSCAT, by what they read; `?` list filled with the schemas. Exported for tests and docs. */
export const CATALOG_QUERIES = {
  tables: (n: number) =>
    `SELECT TABSCHEMA, TABNAME, TYPE, TBSPACE, INDEX_TBSPACE, LONG_TBSPACE, APPEND_MODE, LOCKSIZE, PCTFREE, REFRESH FROM SYSCAT.TABLES WHERE TABSCHEMA IN (${marks(n)}) AND TYPE IN ('T', 'S') ORDER BY TABSCHEMA, TABNAME`,
  columns: (n: number) =>
    `SELECT TABSCHEMA, TABNAME, COLNAME, COLNO, TYPESCHEMA, TYPENAME, LENGTH, SCALE, "DEFAULT" AS DEFAULT_TEXT, NULLS, CODEPAGE, LOGGED, COMPACT, INLINE_LENGTH, IDENTITY, GENERATED, TEXT FROM SYSCAT.COLUMNS WHERE TABSCHEMA IN (${marks(n)}) ORDER BY TABSCHEMA, TABNAME, COLNO`,
  identities: (n: number) =>
    `SELECT TABSCHEMA, TABNAME, COLNAME, CAST(START AS VARCHAR(40)) AS START, CAST(INCREMENT AS VARCHAR(40)) AS INCREMENT, CACHE, "CYCLE" AS IS_CYCLE, "ORDER" AS IS_ORDER FROM SYSCAT.COLIDENTATTRIBUTES WHERE TABSCHEMA IN (${marks(n)})`,
  keys: (n: number) =>
    `SELECT C.TABSCHEMA, C.TABNAME, C.CONSTNAME, C.TYPE, C.ENFORCED, C.ENABLEQUERYOPT, K.COLNAME, K.COLSEQ FROM SYSCAT.TABCONST C JOIN SYSCAT.KEYCOLUSE K ON K.CONSTNAME = C.CONSTNAME AND K.TABSCHEMA = C.TABSCHEMA AND K.TABNAME = C.TABNAME WHERE C.TABSCHEMA IN (${marks(n)}) AND C.TYPE IN ('P', 'U', 'F') ORDER BY C.TABSCHEMA, C.TABNAME, C.CONSTNAME, K.COLSEQ`,
  references: (n: number) =>
    `SELECT R.TABSCHEMA, R.TABNAME, R.CONSTNAME, R.REFKEYNAME, R.REFTABSCHEMA, R.REFTABNAME, R.DELETERULE, R.UPDATERULE, K.COLNAME AS REFCOLNAME, K.COLSEQ FROM SYSCAT.REFERENCES R JOIN SYSCAT.KEYCOLUSE K ON K.CONSTNAME = R.REFKEYNAME AND K.TABSCHEMA = R.REFTABSCHEMA AND K.TABNAME = R.REFTABNAME WHERE R.TABSCHEMA IN (${marks(n)}) ORDER BY R.TABSCHEMA, R.TABNAME, R.CONSTNAME, K.COLSEQ`,
  checks: (n: number) =>
    `SELECT K.TABSCHEMA, K.TABNAME, K.CONSTNAME, K.TEXT, C.ENFORCED FROM SYSCAT.CHECKS K JOIN SYSCAT.TABCONST C ON C.CONSTNAME = K.CONSTNAME AND C.TABSCHEMA = K.TABSCHEMA AND C.TABNAME = K.TABNAME WHERE K.TABSCHEMA IN (${marks(n)}) AND K.TYPE = 'C' ORDER BY K.TABSCHEMA, K.TABNAME, K.CONSTNAME`,
  indexes: (n: number) =>
    `SELECT I.INDSCHEMA, I.INDNAME, I.TABSCHEMA, I.TABNAME, I.UNIQUERULE, I.INDEXTYPE, I.PCTFREE, U.COLNAME, U.COLSEQ, U.COLORDER FROM SYSCAT.INDEXES I JOIN SYSCAT.INDEXCOLUSE U ON U.INDSCHEMA = I.INDSCHEMA AND U.INDNAME = I.INDNAME WHERE I.TABSCHEMA IN (${marks(n)}) AND I.INDSCHEMA <> 'SYSIBM' AND I.INDEXTYPE IN ('REG', 'CLUS') ORDER BY I.INDSCHEMA, I.INDNAME, U.COLSEQ`,
  triggers: (n: number) =>
    `SELECT TRIGSCHEMA, TRIGNAME, TABSCHEMA, TABNAME, QUALIFIER, VALID, TEXT FROM SYSCAT.TRIGGERS WHERE TABSCHEMA IN (${marks(n)}) ORDER BY TRIGSCHEMA, TRIGNAME`,
  sequences: (n: number) =>
    `SELECT SEQSCHEMA, SEQNAME, CAST(START AS VARCHAR(40)) AS START, CAST(INCREMENT AS VARCHAR(40)) AS INCREMENT, CACHE, "CYCLE" AS IS_CYCLE, "ORDER" AS IS_ORDER FROM SYSCAT.SEQUENCES WHERE SEQSCHEMA IN (${marks(n)}) AND SEQTYPE = 'S' ORDER BY SEQSCHEMA, SEQNAME`,
  mqts: (n: number) =>
    `SELECT VIEWSCHEMA, VIEWNAME, QUALIFIER, TEXT FROM SYSCAT.VIEWS V JOIN SYSCAT.TABLES T ON T.TABSCHEMA = V.VIEWSCHEMA AND T.TABNAME = V.VIEWNAME WHERE V.VIEWSCHEMA IN (${marks(n)}) AND T.TYPE = 'S'`,
  mqtBases: (n: number) =>
    `SELECT TABSCHEMA, TABNAME, BSCHEMA, BNAME FROM SYSCAT.TABDEP WHERE TABSCHEMA IN (${marks(n)}) AND DTYPE = 'S' AND BTYPE IN ('T', 'S') ORDER BY TABSCHEMA, TABNAME, BSCHEMA, BNAME`,
  partitionExpressions: (n: number) =>
    `SELECT TABSCHEMA, TABNAME, DATAPARTITIONKEYSEQ, DATAPARTITIONEXPRESSION FROM SYSCAT.DATAPARTITIONEXPRESSION WHERE TABSCHEMA IN (${marks(n)}) ORDER BY TABSCHEMA, TABNAME, DATAPARTITIONKEYSEQ`,
  partitions: (n: number) =>
    `SELECT TABSCHEMA, TABNAME, DATAPARTITIONNAME, SEQNO, LOWINCLUSIVE, LOWVALUE, HIGHINCLUSIVE, HIGHVALUE, TBSPACEID, STATUS FROM SYSCAT.DATAPARTITIONS WHERE TABSCHEMA IN (${marks(n)}) ORDER BY TABSCHEMA, TABNAME, SEQNO`,
  tablespaces: () => 'SELECT TBSPACE, TBSPACEID, TBSPACETYPE, DATATYPE, PAGESIZE, EXTENTSIZE, PREFETCHSIZE, SGNAME FROM SYSCAT.TABLESPACES ORDER BY TBSPACE',
};

function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** "APP, sales, \"Mixed\"" → ['APP', 'SALES', 'Mixed']: ordinary names fold to upper case, as in SQL. */
export function parseSchemaList(list: string): string[] {
  const out: string[] = [];
  for (const raw of list.split(',')) {
    const name = raw.trim();
    if (!name) continue;
    const value = /^".*"$/.test(name) ? name.slice(1, -1).replace(/""/g, '"') : name.toUpperCase();
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

const name = (v: unknown) => text(v).trimEnd();
const flag = (v: unknown) => text(v).trim().toUpperCase() === 'Y';
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}
function int(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') return Number(v);
  const t = text(v).trim();
  if (!/^[+-]?\d+(\.0*)?$/.test(t)) return undefined;
  return Number.parseInt(t, 10);
}
/** A DECIMAL(31,0) as Db2 may print it ('1', '+1', '0001.', '1.0') or ibm_db may hand it (a number): digits only. */
function integerText(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? String(v) : undefined;
  if (typeof v === 'bigint') return v.toString();
  const m = /^([+-]?)(\d+)(?:\.0*)?$/.exec(text(v).trim());
  return m ? `${m[1] === '-' ? '-' : ''}${m[2].replace(/^0+(?=\d)/, '')}` : undefined;
}
const keyOf = (schema: string, table: string) => `${schema}.${table}`;

/** The columns of a query's ORDER BY, without table prefixes. */
function orderOf(sql: string): string[] {
  const clause = /\bORDER BY (.*)$/.exec(sql)?.[1] ?? '';
  return clause.split(',').map((c) => c.trim().replace(/^\w+\./, '')).filter(Boolean);
}

/** Rows sorted by the given columns: numbers as numbers, the rest as trimmed text. */
function ordered(rows: Row[], columns: string[]): Row[] {
  const compare = (a: unknown, b: unknown) => {
    const x = int(a);
    const y = int(b);
    if (x !== undefined && y !== undefined) return x - y;
    const s = text(a).trimEnd();
    const t = text(b).trimEnd();
    return s < t ? -1 : s > t ? 1 : 0;
  };
  return [...rows].sort((a, b) => {
    for (const c of columns) {
      const d = compare(a[c], b[c]);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** Only SELECTs reach the driver: the snapshot never writes to the database. */
async function select(driver: Db2Driver, sql: string, params: unknown[] = []): Promise<Row[]> {
  if (!/^\s*SELECT\b/i.test(sql)) throw new Db2Error('sql', `InsertLint is refusing to send a statement that is not a SELECT: ${sql.slice(0, 40)}`);
  return driver.query(sql, params);
}

export interface PullOptions {
  driver: Db2Driver;
  connectionString: string;
  schemas: string[];
  server?: ServerInfo;
}

/** Connects, reads the catalog of `schemas`, closes. Errors are Db2Errors with one clear sentence. */
export async function readCatalog(options: PullOptions): Promise<CatalogSnapshot> {
  const { driver, schemas } = options;
  if (schemas.length === 0) throw new Db2Error('sql', 'Name at least one schema to read (--schemas APP,SALES).');
  try {
    await driver.open(options.connectionString);
  } catch (err) {
    throw describeDb2Error(err, options.server);
  }
  try {
    return await readOpenCatalog(driver, schemas, options.server);
  } catch (err) {
    const e = describeDb2Error(err, options.server);
    if (e.kind === 'privileges') {
      throw new Db2Error('privileges', 'The user may not read the SYSCAT catalog views (SELECT on SYSCAT.* is granted to PUBLIC unless the database was created RESTRICTIVE); ask for SELECT on the SYSCAT views.', e.details, e.sqlcode, e.sqlstate);
    }
    throw e;
  } finally {
    await driver.close().catch(() => undefined);
  }
}

async function readOpenCatalog(driver: Db2Driver, schemas: string[], server?: ServerInfo): Promise<CatalogSnapshot> {
  const n = schemas.length;
  // Rows are put in the ORDER BY order again here, so that the snapshot does not depend on the server's order.
  const q = async (build: (n: number) => string) => ordered(await select(driver, build(n), schemas), orderOf(build(n)));
  // One SELECT per catalog view; the rows of each add to the tables SYSCAT.TABLES names.
  const tables = readTables(await q(CATALOG_QUERIES.tables));
  const identities = readIdentities(await q(CATALOG_QUERIES.identities));
  addColumns(tables, await q(CATALOG_QUERIES.columns), identities);
  const foreignColumns = addKeys(tables, await q(CATALOG_QUERIES.keys));
  addForeignKeys(tables, await q(CATALOG_QUERIES.references), foreignColumns);
  for (const r of await q(CATALOG_QUERIES.checks)) {
    tableOf(tables, r)?.checks.push({ name: name(r.CONSTNAME), text: text(r.TEXT).trim(), enforced: text(r.ENFORCED).trim() !== 'N' });
  }
  addIndexes(tables, await q(CATALOG_QUERIES.indexes));
  for (const r of await q(CATALOG_QUERIES.triggers)) {
    tableOf(tables, r)?.triggers.push({ schema: name(r.TRIGSCHEMA), name: name(r.TRIGNAME), qualifier: name(r.QUALIFIER), text: text(r.TEXT).trim(), valid: text(r.VALID).trim() !== 'X' });
  }
  addMqtDefinitions(tables, await q(CATALOG_QUERIES.mqts));
  addMqtBaseTables(tables, await q(CATALOG_QUERIES.mqtBases));
  for (const r of await q(CATALOG_QUERIES.partitionExpressions)) tableOf(tables, r)?.partitionExpressions.push(text(r.DATAPARTITIONEXPRESSION).trim());

  const partitionRows = await q(CATALOG_QUERIES.partitions);
  const tablespacesById = readTablespaces(await select(driver, CATALOG_QUERIES.tablespaces()));
  addPartitions(tables, partitionRows, tablespacesById);
  const sequences = (await q(CATALOG_QUERIES.sequences)).map(sequenceOf);
  const used = usedTablespaces(tables);
  return {
    database: server?.database,
    schemas,
    tables: [...tables.values()],
    sequences,
    tablespaces: [...tablespacesById.values()].filter((ts) => used.has(ts.name)),
  };
}

/** Catalog tables by "SCHEMA.TABLE". */
type Tables = Map<string, CatalogTable>;

/** The table a row of another view belongs to (named by its TABSCHEMA and TABNAME, or the given columns). */
function tableOf(tables: Tables, r: Row, schemaCol = 'TABSCHEMA', nameCol = 'TABNAME'): CatalogTable | undefined {
  return tables.get(keyOf(name(r[schemaCol]), name(r[nameCol])));
}

/** SYSCAT.TABLES: the tables and MQTs, their other parts empty until the other views are read. */
function readTables(rows: Row[]): Tables {
  const tables: Tables = new Map();
  for (const r of rows) {
    const refresh = text(r.REFRESH).trim();
    const locksize = text(r.LOCKSIZE).trim();
    const pctfree = int(r.PCTFREE);
    const table: CatalogTable = {
      schema: name(r.TABSCHEMA),
      name: name(r.TABNAME),
      type: text(r.TYPE).trim() === 'S' ? 'S' : 'T',
      tablespace: name(r.TBSPACE) || undefined,
      indexTablespace: name(r.INDEX_TBSPACE) || undefined,
      longTablespace: name(r.LONG_TBSPACE) || undefined,
      append: flag(r.APPEND_MODE),
      locksize: locksize === 'T' ? 'table' : locksize === 'I' ? 'blockinsert' : undefined,
      pctfree: pctfree !== undefined && pctfree >= 0 ? pctfree : undefined,
      columns: [],
      keys: [],
      foreignKeys: [],
      checks: [],
      indexes: [],
      triggers: [],
      partitionExpressions: [],
      partitions: [],
    };
    if (table.type === 'S') table.mqt = { refresh: refresh === 'I' ? 'immediate' : 'deferred', qualifier: table.schema, text: '', baseTables: [] };
    tables.set(keyOf(table.schema, table.name), table);
  }
  return tables;
}

/** SYSCAT.COLIDENTATTRIBUTES: identity attributes by "SCHEMA.TABLE.COLUMN". */
function readIdentities(rows: Row[]): Map<string, CatalogIdentity> {
  const identities = new Map<string, CatalogIdentity>();
  for (const r of rows) {
    identities.set(`${keyOf(name(r.TABSCHEMA), name(r.TABNAME))}.${name(r.COLNAME)}`, {
      start: integerText(r.START),
      increment: integerText(r.INCREMENT),
      cache: int(r.CACHE) ?? 20,
      cycle: flag(r.IS_CYCLE),
      order: flag(r.IS_ORDER),
    });
  }
  return identities;
}

/** SYSCAT.COLUMNS, in COLNO order, with the identity attributes of identity columns. */
function addColumns(tables: Tables, rows: Row[], identities: Map<string, CatalogIdentity>): void {
  for (const r of rows) {
    const table = tableOf(tables, r);
    if (!table) continue;
    const generated = text(r.GENERATED).trim();
    const column: CatalogColumn = {
      name: name(r.COLNAME),
      typeSchema: name(r.TYPESCHEMA),
      typeName: name(r.TYPENAME),
      length: int(r.LENGTH) ?? 0,
      scale: int(r.SCALE) ?? 0,
      nullable: text(r.NULLS).trim() !== 'N',
      defaultText: r.DEFAULT_TEXT === null || r.DEFAULT_TEXT === undefined ? undefined : text(r.DEFAULT_TEXT).trim() || undefined,
      forBitData: int(r.CODEPAGE) === 0,
      lobLogged: text(r.LOGGED).trim() ? flag(r.LOGGED) : undefined,
      lobCompact: text(r.COMPACT).trim() ? flag(r.COMPACT) : undefined,
      inlineLength: int(r.INLINE_LENGTH) || undefined,
      generated: generated === 'A' ? 'always' : generated === 'D' ? 'by default' : undefined,
      generationText: text(r.TEXT).trim() || undefined,
    };
    if (flag(r.IDENTITY)) column.identity = identities.get(`${keyOf(table.schema, table.name)}.${column.name}`) ?? { cache: 20, cycle: false, order: false };
    table.columns.push(column);
  }
}

/** A foreign key's own columns and state, read with the keys, until SYSCAT.REFERENCES names its parent. */
interface ForeignColumns {
  columns: string[];
  enforced: boolean;
  queryOptimization: boolean;
}

/**
 * SYSCAT.TABCONST with KEYCOLUSE: primary and unique keys, in COLSEQ order, added to their tables; foreign keys'
 * own columns returned by "SCHEMA.TABLE.CONSTRAINT" for addForeignKeys.
 */
function addKeys(tables: Tables, rows: Row[]): Map<string, ForeignColumns> {
  const foreignColumns = new Map<string, ForeignColumns>();
  for (const r of rows) {
    const table = tableOf(tables, r);
    if (!table) continue;
    const constraint = name(r.CONSTNAME);
    const type = text(r.TYPE).trim();
    if (type === 'F') {
      const id = `${keyOf(table.schema, table.name)}.${constraint}`;
      const fk = foreignColumns.get(id) ?? { columns: [], enforced: text(r.ENFORCED).trim() !== 'N', queryOptimization: text(r.ENABLEQUERYOPT).trim() !== 'N' };
      fk.columns.push(name(r.COLNAME));
      foreignColumns.set(id, fk);
      continue;
    }
    let key = table.keys.find((k) => k.name === constraint);
    if (!key) table.keys.push((key = { name: constraint, kind: type === 'P' ? 'primaryKey' : 'unique', columns: [] }));
    key.columns.push(name(r.COLNAME));
  }
  return foreignColumns;
}

const DELETE_RULES: Record<string, CatalogForeignKey['onDelete']> = { A: 'NO ACTION', R: 'RESTRICT', C: 'CASCADE', N: 'SET NULL' };

/** SYSCAT.REFERENCES with the parent key's KEYCOLUSE: each foreign key, its own columns from addKeys. */
function addForeignKeys(tables: Tables, rows: Row[], foreignColumns: Map<string, ForeignColumns>): void {
  for (const r of rows) {
    const table = tableOf(tables, r);
    if (!table) continue;
    const constraint = name(r.CONSTNAME);
    let fk = table.foreignKeys.find((f) => f.name === constraint);
    if (!fk) {
      const own = foreignColumns.get(`${keyOf(table.schema, table.name)}.${constraint}`);
      fk = {
        name: constraint,
        columns: own?.columns ?? [],
        parentSchema: name(r.REFTABSCHEMA),
        parentTable: name(r.REFTABNAME),
        parentColumns: [],
        onDelete: DELETE_RULES[text(r.DELETERULE).trim()] ?? 'NO ACTION',
        onUpdate: text(r.UPDATERULE).trim() === 'R' ? 'RESTRICT' : 'NO ACTION',
        enforced: own?.enforced ?? true,
        queryOptimization: own?.queryOptimization ?? true,
      };
      table.foreignKeys.push(fk);
    }
    fk.parentColumns.push(name(r.REFCOLNAME));
  }
}

/** SYSCAT.INDEXES with INDEXCOLUSE: one row per index column, key columns and INCLUDE columns apart. */
function addIndexes(tables: Tables, rows: Row[]): void {
  for (const r of rows) {
    const table = tableOf(tables, r);
    if (!table) continue;
    const schema = name(r.INDSCHEMA);
    const index = name(r.INDNAME);
    let info = table.indexes.find((i) => i.schema === schema && i.name === index);
    if (!info) {
      const pctfree = int(r.PCTFREE);
      table.indexes.push(
        (info = {
          schema,
          name: index,
          columns: [],
          include: [],
          unique: text(r.UNIQUERULE).trim() !== 'D',
          cluster: text(r.INDEXTYPE).trim() === 'CLUS',
          pctfree: pctfree !== undefined && pctfree >= 0 ? pctfree : undefined,
        }),
      );
    }
    const order = text(r.COLORDER).trim();
    if (order === 'I') info.include.push(name(r.COLNAME));
    else info.columns.push({ name: name(r.COLNAME), descending: order === 'D' });
  }
}

/** SYSCAT.VIEWS of the MQTs: each one's definition as typed, and the default schema it was typed under. */
function addMqtDefinitions(tables: Tables, rows: Row[]): void {
  for (const r of rows) {
    const table = tableOf(tables, r, 'VIEWSCHEMA', 'VIEWNAME');
    if (table?.mqt) Object.assign(table.mqt, { qualifier: name(r.QUALIFIER) || table.schema, text: text(r.TEXT).trim() });
  }
}

/** SYSCAT.TABDEP: the tables each MQT reads. */
function addMqtBaseTables(tables: Tables, rows: Row[]): void {
  for (const r of rows) {
    tableOf(tables, r)?.mqt?.baseTables.push(keyOf(name(r.BSCHEMA), name(r.BNAME)));
  }
}

/** SYSCAT.TABLESPACES by TBSPACEID. */
function readTablespaces(rows: Row[]): Map<number, CatalogTablespace> {
  const tablespacesById = new Map<number, CatalogTablespace>();
  for (const r of rows) {
    const type = text(r.TBSPACETYPE).trim();
    const dataType = text(r.DATATYPE).trim();
    const ts: CatalogTablespace = {
      name: name(r.TBSPACE),
      id: int(r.TBSPACEID) ?? -1,
      managedBy: type === 'S' ? 'system' : name(r.SGNAME) ? 'automatic storage' : 'database',
      dataType: dataType === 'L' ? 'large' : dataType === 'T' ? 'system temporary' : dataType === 'U' ? 'user temporary' : 'regular',
      pageSize: int(r.PAGESIZE) ?? 4096,
      extentSize: int(r.EXTENTSIZE) ?? 32,
      prefetchSize: int(r.PREFETCHSIZE) ?? -1,
    };
    tablespacesById.set(ts.id, ts);
  }
  return tablespacesById;
}

/** SYSCAT.DATAPARTITIONS: the data partitions that still receive rows, with their table spaces' names. */
function addPartitions(tables: Tables, rows: Row[], tablespacesById: Map<number, CatalogTablespace>): void {
  for (const r of rows) {
    // Detached partitions (STATUS I, L, D) no longer receive rows. STATUS is compared here, not in SQL: with
    // varchar2 compatibility on, '' is NULL there.
    if (['I', 'L', 'D'].includes(text(r.STATUS).trim().charAt(0))) continue;
    tableOf(tables, r)?.partitions.push({
      name: name(r.DATAPARTITIONNAME),
      seq: int(r.SEQNO) ?? 0,
      low: text(r.LOWVALUE).trim(),
      lowInclusive: text(r.LOWINCLUSIVE).trim() !== 'N',
      high: text(r.HIGHVALUE).trim(),
      highInclusive: text(r.HIGHINCLUSIVE).trim() !== 'N',
      tablespace: tablespacesById.get(int(r.TBSPACEID) ?? -2)?.name,
    });
  }
}

/** A row of SYSCAT.SEQUENCES. */
function sequenceOf(r: Row): CatalogSequence {
  return {
    schema: name(r.SEQSCHEMA),
    name: name(r.SEQNAME),
    start: integerText(r.START),
    increment: integerText(r.INCREMENT),
    cache: int(r.CACHE) ?? 20,
    cycle: flag(r.IS_CYCLE),
    order: flag(r.IS_ORDER),
  };
}

/** The table spaces the tables use: the others say nothing about these inserts. */
function usedTablespaces(tables: Tables): Set<string> {
  const used = new Set<string>();
  for (const t of tables.values()) for (const ts of [t.tablespace, t.indexTablespace, t.longTablespace, ...t.partitions.map((p) => p.tablespace)]) if (ts) used.add(ts);
  return used;
}
