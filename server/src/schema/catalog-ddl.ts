// A CatalogSnapshot written as Db2 DDL: what `insertlint schema pull` saves for the schema model to read.
// Deterministic (objects sorted by name, no timestamp) so that a committed snapshot diffs cleanly when the
// database changes. It describes the objects for InsertLint; it does not recreate a database (containers,
// storage groups, grants, statistics and views are left out). Trigger and MQT texts are kept as typed
// (SYSCAT.TRIGGERS.TEXT, SYSCAT.VIEWS.TEXT) and checked with the parser before they are written.
import { parseSql } from '../sql/parser';
import type { Statement } from '../sql/ast';
import type { CatalogColumn, CatalogIndex, CatalogSnapshot, CatalogTable, CatalogTablespace } from './catalog';

export interface SnapshotDdl {
  ddl: string;
  /** What could not be written faithfully (a trigger text the parser cannot read, an inoperative trigger…). */
  warnings: string[];
  counts: { tables: number; mqts: number; indexes: number; foreignKeys: number; triggers: number; sequences: number; tablespaces: number };
}

/** "NAME" with inner quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const q = quoteIdentifier;
const qualified = (schema: string, name: string) => `${q(schema)}.${q(name)}`;
const byName = <T extends { schema?: string; name: string }>(a: T, b: T) => compareText(`${a.schema ?? ''}.${a.name}`, `${b.schema ?? ''}.${b.name}`);

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Writes the snapshot. `header` lines (database, schemas, how it was made) go first as comments. */
export function writeSnapshotDdl(snapshot: CatalogSnapshot): SnapshotDdl {
  const out: string[] = [];
  const warnings: string[] = [];
  const tables = [...snapshot.tables].sort(byName);
  const plain = tables.filter((t) => t.type === 'T');
  const mqts = tables.filter((t) => t.type === 'S');
  const counts = { tables: plain.length, mqts: mqts.length, indexes: 0, foreignKeys: 0, triggers: 0, sequences: snapshot.sequences.length, tablespaces: snapshot.tablespaces.length };

  out.push(
    `-- Db2 catalog snapshot of ${snapshot.database ? `database ${snapshot.database}, ` : ''}schema${snapshot.schemas.length > 1 ? 's' : ''} ${snapshot.schemas.join(', ')}.`,
    '-- Written by `insertlint schema pull` from the SYSCAT views (read-only). Regenerate it rather than edit it, and',
    '-- name it under "schema" in .insertlintrc.json: InsertLint reads it for the schema rules without linting it.',
    '-- It describes the objects InsertLint needs; it does not recreate the database (no containers, grants, views).',
    '',
  );

  section(out, 'Table spaces');
  for (const ts of [...snapshot.tablespaces].sort(byName)) out.push(tablespaceDdl(ts));

  section(out, 'Sequences');
  for (const s of [...snapshot.sequences].sort(byName)) {
    out.push(`CREATE SEQUENCE ${qualified(s.schema, s.name)}${numberOptions(s.start, s.increment, s.cache, s.cycle, s.order)};`);
  }

  for (const table of plain) {
    section(out, `Table ${table.schema}.${table.name}`);
    out.push(createTableDdl(table));
    const target = qualified(table.schema, table.name);
    if (table.append) out.push(`ALTER TABLE ${target} APPEND ON;`);
    if (table.locksize) out.push(`ALTER TABLE ${target} LOCKSIZE ${table.locksize === 'table' ? 'TABLE' : 'BLOCKINSERT'};`);
    if (table.pctfree !== undefined) out.push(`ALTER TABLE ${target} PCTFREE ${table.pctfree};`);
    for (const key of [...table.keys].sort(byName)) {
      out.push(`ALTER TABLE ${target} ADD CONSTRAINT ${q(key.name)} ${key.kind === 'primaryKey' ? 'PRIMARY KEY' : 'UNIQUE'} (${key.columns.map(q).join(', ')});`);
    }
    for (const index of [...table.indexes].sort(byName)) {
      out.push(indexDdl(table, index));
      counts.indexes++;
    }
  }

  section(out, 'Foreign keys and check constraints');
  for (const table of plain) {
    const target = qualified(table.schema, table.name);
    for (const fk of [...table.foreignKeys].sort(byName)) {
      out.push(
        `ALTER TABLE ${target} ADD CONSTRAINT ${q(fk.name)} FOREIGN KEY (${fk.columns.map(q).join(', ')}) REFERENCES ${qualified(fk.parentSchema, fk.parentTable)} (${fk.parentColumns.map(q).join(', ')}) ON DELETE ${fk.onDelete} ON UPDATE ${fk.onUpdate} ${fk.enforced ? 'ENFORCED' : 'NOT ENFORCED'} ${fk.queryOptimization ? 'ENABLE' : 'DISABLE'} QUERY OPTIMIZATION;`,
      );
      counts.foreignKeys++;
    }
    for (const check of [...table.checks].sort(byName)) {
      out.push(`ALTER TABLE ${target} ADD CONSTRAINT ${q(check.name)} CHECK (${check.text}) ${check.enforced ? 'ENFORCED' : 'NOT ENFORCED'};`);
    }
  }

  section(out, 'Materialized query tables');
  for (const mqt of mqts) out.push(...mqtDdl(mqt, warnings));

  // Trigger bodies hold `;`: this part of the file ends statements with @ (the CLP reads the directive too).
  const triggers = plain.flatMap((t) => t.triggers).sort(byName);
  if (triggers.length > 0) {
    section(out, 'Triggers');
    out.push('--#SET TERMINATOR @');
    for (const trigger of triggers) {
      const id = `${trigger.schema}.${trigger.name}`;
      if (!trigger.valid) {
        out.push(`-- Trigger ${id} is inoperative (SYSCAT.TRIGGERS.VALID = 'X'): it fires for no row and is left out.`);
        continue;
      }
      const chunk = [`SET CURRENT SCHEMA = ${q(trigger.qualifier)}@`, `${withoutTerminator(trigger.text)}@`];
      const problem = readBack(`--#SET TERMINATOR @\n${chunk.join('\n')}`, 'createTrigger');
      if (problem) warnings.push(`trigger ${id}: its text could not be read back (${problem}); the schema rules will not see it`);
      out.push(...chunk);
      counts.triggers++;
    }
    out.push('--#SET TERMINATOR ;');
  }
  return { ddl: out.join('\n') + '\n', warnings, counts };
}

function section(out: string[], title: string): void {
  out.push('', `-- ${title}`, '');
}

/** START WITH … INCREMENT BY … CACHE n | NO CACHE, [NO] CYCLE, [NO] ORDER. */
function numberOptions(start: string | undefined, increment: string | undefined, cache: number, cycle: boolean, order: boolean): string {
  return [
    start !== undefined ? ` START WITH ${start}` : '',
    increment !== undefined ? ` INCREMENT BY ${increment}` : '',
    cache > 1 ? ` CACHE ${cache}` : ' NO CACHE',
    cycle ? ' CYCLE' : ' NO CYCLE',
    order ? ' ORDER' : ' NO ORDER',
  ].join('');
}

function tablespaceDdl(ts: CatalogTablespace): string {
  const kind = { regular: 'REGULAR', large: 'LARGE', 'system temporary': 'SYSTEM TEMPORARY', 'user temporary': 'USER TEMPORARY' }[ts.dataType];
  const managed = { system: 'SYSTEM', database: 'DATABASE', 'automatic storage': 'AUTOMATIC STORAGE' }[ts.managedBy];
  return `CREATE ${kind} TABLESPACE ${q(ts.name)} PAGESIZE ${ts.pageSize} MANAGED BY ${managed} EXTENTSIZE ${ts.extentSize} PREFETCHSIZE ${ts.prefetchSize < 0 ? 'AUTOMATIC' : ts.prefetchSize};`;
}

/** The column's data type as written in DDL. */
export function columnType(c: CatalogColumn): string {
  if (c.typeSchema && c.typeSchema !== 'SYSIBM') return qualified(c.typeSchema, c.typeName);
  const bit = c.forBitData ? ' FOR BIT DATA' : '';
  switch (c.typeName) {
    case 'CHARACTER':
    case 'CHAR':
      return `CHAR(${c.length})${bit}`;
    case 'VARCHAR':
      return `VARCHAR(${c.length})${bit}`;
    case 'GRAPHIC':
    case 'VARGRAPHIC':
    case 'BINARY':
    case 'VARBINARY':
      return `${c.typeName}(${c.length})`;
    case 'CLOB':
    case 'BLOB':
    case 'DBCLOB': {
      const options = [c.lobLogged === false ? ' NOT LOGGED' : c.lobLogged ? ' LOGGED' : '', c.lobCompact === false ? ' NOT COMPACT' : c.lobCompact ? ' COMPACT' : '', c.inlineLength ? ` INLINE LENGTH ${c.inlineLength}` : ''];
      return `${c.typeName}(${c.length})${options.join('')}`;
    }
    case 'DECIMAL':
      return `DECIMAL(${c.length}, ${c.scale})`;
    case 'DECFLOAT':
      return `DECFLOAT(${c.length === 8 ? 16 : 34})`;
    case 'TIMESTAMP':
      return c.scale === 6 || c.scale === 0 && c.length === 0 ? 'TIMESTAMP' : `TIMESTAMP(${c.scale})`;
    default:
      return c.typeName;
  }
}

function columnDdl(c: CatalogColumn): string {
  let out = `${q(c.name)} ${columnType(c)}${c.nullable ? '' : ' NOT NULL'}`;
  if (c.identity) {
    const i = c.identity;
    out += ` GENERATED ${c.generated === 'by default' ? 'BY DEFAULT' : 'ALWAYS'} AS IDENTITY (${numberOptions(i.start, i.increment, i.cache, i.cycle, i.order).trim()})`;
  } else if (c.generationText) {
    out += ` GENERATED ${c.generated === 'by default' ? 'BY DEFAULT' : 'ALWAYS'} ${c.generationText}`;
  } else if (c.defaultText !== undefined) {
    out += ` WITH DEFAULT ${c.defaultText}`;
  }
  return out;
}

function createTableDdl(t: CatalogTable): string {
  const lines = [`CREATE TABLE ${qualified(t.schema, t.name)} (`, t.columns.map((c) => `  ${columnDdl(c)}`).join(',\n'), ')'];
  const partitioned = t.partitions.length > 0 && t.partitionExpressions.length > 0;
  const clauses: string[] = [];
  if (t.tablespace && !partitioned) clauses.push(`IN ${q(t.tablespace)}`);
  if (t.indexTablespace && !partitioned) clauses.push(`INDEX IN ${q(t.indexTablespace)}`);
  if (t.longTablespace && !partitioned) clauses.push(`LONG IN ${q(t.longTablespace)}`);
  if (clauses.length) lines[2] += ` ${clauses.join(' ')}`;
  if (partitioned) {
    const parts = [...t.partitions]
      .sort((a, b) => a.seq - b.seq)
      .map((p) => `  PART ${q(p.name)} STARTING (${p.low})${p.lowInclusive ? '' : ' EXCLUSIVE'} ENDING (${p.high})${p.highInclusive ? '' : ' EXCLUSIVE'}${p.tablespace ? ` IN ${q(p.tablespace)}` : ''}`);
    lines.push(`PARTITION BY RANGE (${t.partitionExpressions.join(', ')}) (`, parts.join(',\n'), ')');
  }
  return lines.join('\n') + ';';
}

function indexDdl(t: CatalogTable, i: CatalogIndex): string {
  const columns = i.columns.map((c) => `${q(c.name)} ${c.descending ? 'DESC' : 'ASC'}`).join(', ');
  const include = i.include.length ? ` INCLUDE (${i.include.map(q).join(', ')})` : '';
  return `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${qualified(i.schema, i.name)} ON ${qualified(t.schema, t.name)} (${columns})${include}${i.cluster ? ' CLUSTER' : ''}${i.pctfree !== undefined && i.pctfree !== 10 ? ` PCTFREE ${i.pctfree}` : ''};`;
}

/**
 * The MQT as typed when the parser reads it back as this MQT (its REFRESH clause set to the catalog's mode,
 * which ALTER TABLE may have changed since); otherwise a definition over its base tables that says so.
 */
function mqtDdl(t: CatalogTable, warnings: string[]): string[] {
  const mqt = t.mqt!;
  const refresh = mqt.refresh === 'immediate' ? 'REFRESH IMMEDIATE' : 'REFRESH DEFERRED';
  const prefix = `SET CURRENT SCHEMA = ${q(mqt.qualifier)};\n`;
  const parsed = parseSql(prefix + mqt.text).statements.find((s) => s.kind === 'createTable');
  if (parsed?.kind === 'createTable' && parsed.mqt && !parsed.parseError && parsed.mqt.refreshSpan) {
    const span = parsed.mqt.refreshSpan;
    const text = mqt.text.slice(0, span.start - prefix.length) + refresh + mqt.text.slice(span.end - prefix.length);
    return [prefix.trimEnd(), `${withoutTerminator(text)};`];
  }
  warnings.push(`MQT ${t.schema}.${t.name}: its definition could not be read back; written over its base tables only`);
  const from = mqt.baseTables.map((b) => qualified(b.slice(0, b.indexOf('.')), b.slice(b.indexOf('.') + 1))).join(', ');
  return [
    `-- MQT ${t.schema}.${t.name}: the definition text in SYSCAT.VIEWS could not be read back; written over its base tables only.`,
    `CREATE TABLE ${qualified(t.schema, t.name)} AS (SELECT * FROM ${from || 'SYSIBM.SYSDUMMY1'}) DATA INITIALLY DEFERRED ${refresh};`,
  ];
}

/** The text without the terminators and blanks it may end with (SYSCAT texts sometimes keep a `;`). */
function withoutTerminator(text: string): string {
  let end = text.length;
  while (end > 0 && /[\s;@]/.test(text[end - 1])) end--;
  return text.slice(0, end);
}

/** Why `text` does not parse as one statement of `kind` (after any SET SCHEMA), or undefined when it does. */
function readBack(text: string, kind: Statement['kind']): string | undefined {
  const statements = parseSql(text).statements.filter((s) => s.kind !== 'setSchema' && !(s.kind === 'other' && !s.parseError && s.span.end - s.span.start === 0));
  const stmt = statements[0];
  if (!stmt) return 'no statement';
  if (stmt.parseError) return stmt.parseError.message;
  if (stmt.kind !== kind) return `read as ${stmt.kind}`;
  return undefined;
}
