// Schema files (DDL named by "schema" in .insertlintrc.json, --schema, insertlint.schema: db2look output, a
// DBA's folder, `insertlint schema pull`) feed the schema model but are not linted. A rule's finding on their
// DDL is shown where someone reading the workspace can act on it: on the inserts into the tables the DDL
// concerns, with related information pointing back at the DDL line.
import { fileSpanOf, type QualifiedName, type Statement, type StatementKind } from '../sql/ast';
import { forEachStatement } from '../sql/walk';
import type { Diagnostic, FileModel } from '../engine/types';
import type { InsertSite, SchemaModel } from './schema';
import { statementsInBulkLoops } from '../code-model/bulk-loops';
import { valuesRowCount } from '../sql/grammar/values';
import { countText } from '../engine/count-text';
import { fillShape } from './written-columns';

/**
 * DDL and the settings that shape it: what a schema file contributes. INSERTs, IMPORTs or LOCK TABLEs in a
 * schema file (seed data, a DBA's test script) would make tables look like bulk targets of the application.
 */
export const DDL_KINDS: ReadonlySet<StatementKind> = new Set<StatementKind>([
  'setSchema',
  'createTable',
  'alterTable',
  'createIndex',
  'createSequence',
  'alterSequence',
  'createTrigger',
  'createTablespace',
  'updateDbCfg',
]);

/** The model of a schema file as the engine uses it: its DDL only, no host-language facts. */
export function schemaFileView(model: FileModel): FileModel {
  return { source: model.source, statements: model.statements.filter((s) => DDL_KINDS.has(s.kind)), comments: model.comments };
}

/**
 * What a linted file adds to the findings of schema files, as text: its DDL and the shape of its inserts
 * (target, columns, rows, loop, sequences, the columns given only NULL or DEFAULT: fillShape), its LOCK TABLEs. Two equal contributions give schema files the same
 * findings, so an edit that changes none (typing in a VALUES list, in Java around the SQL) reuses them.
 */
export function schemaContribution(model: FileModel): string {
  const inLoop = statementsInBulkLoops(model);
  const text = model.source.text;
  let out = '';
  // Statements inside routines too: their INSERTs make insert targets as the script's do.
  forEachStatement(
    model.statements,
    (s) => {
      if (DDL_KINDS.has(s.kind)) out += text.slice(s.origin.toFile(s.span.start), s.origin.toFile(s.span.end));
      else if (s.kind === 'insert') out += `insert ${nameText(s.target)} (${s.columns.join(',')}) ${s.source.kind === 'values' ? valuesRowCount(s.source) : 'select'} ${inLoop.has(s)} ${s.sequences.map(nameText).join(',')}${fillShape(s)}`;
      else if (s.kind === 'merge') out += `merge ${nameText(s.target)} ${s.hasInsert}${fillShape(s)}`;
      else if (s.kind === 'import' || s.kind === 'lockTable') out += `${s.kind} ${nameText(s.table)} ${s.kind === 'lockTable' ? s.mode : ''}${fillShape(s)}`;
      else if (s.kind === 'ingest') out += `ingest ${nameText(s.table)} ${s.operation}`;
      else return;
      out += '\u0000';
    },
    { triggers: false },
  );
  return out;
}

function nameText(name: QualifiedName): string {
  return `${name.schema ?? ''}.${name.name}`;
}

export const SCHEMA_FINDING_NOTE = 'the DDL behind this finding (schema file, not linted)';

/**
 * `finding` (reported by a rule on `stmt` in schema file `finding.file`) placed once in each linted file that
 * inserts into a table the statement concerns: on its first insert that makes the table a bulk target (else its
 * first insert), its extent over all of them. A copy per insert flooded a script of 150 literal INSERTs with 150
 * copies of each schema finding. A finding that concerns no linted insert is dropped: the workspace does nothing
 * it would slow down.
 */
export function placeSchemaFinding(schema: SchemaModel, finding: Diagnostic, stmt: Statement | undefined, isLinted: (file: string) => boolean): Diagnostic[] {
  if (!stmt) return [];
  const byFile = new Map<string, { site: InsertSite; start: number; end: number; name: QualifiedName }[]>();
  const seen = new Set<Statement>();
  for (const site of sitesConcerned(schema, stmt)) {
    if (seen.has(site.stmt) || !isLinted(site.file)) continue;
    const name = targetName(site.stmt);
    if (!name) continue;
    seen.add(site.stmt);
    const at = { site, start: site.stmt.origin.toFile(name.span.start), end: site.stmt.origin.toFile(name.span.end), name };
    const list = byFile.get(site.file);
    if (list) list.push(at);
    else byFile.set(site.file, [at]);
  }
  const out: Diagnostic[] = [];
  for (const [file, sites] of byFile) {
    sites.sort((a, b) => a.start - b.start);
    const shown = sites.find((s) => s.site.bulkReasons.length > 0) ?? sites[0];
    const first = sites[0].site.stmt;
    const last = sites[sites.length - 1].site.stmt;
    out.push({
      file,
      span: { start: shown.start, end: shown.end },
      rule: finding.rule,
      severity: finding.severity,
      message: sites.length === 1 ? finding.message : `${finding.message} ${onceFor(sites.length, sites.map((s) => (s.name.schema ? `${s.name.schema}.${s.name.name}` : s.name.name)))}`,
      // A change to any of the inserts touches it (--only-changed, the review checklist).
      ...(sites.length > 1 ? { extent: { start: fileSpanOf(first.origin, first.span).start, end: fileSpanOf(last.origin, last.span).end } } : {}),
      // The fix edits the DDL (or the database), not this file: no quick fix here.
      related: [{ file: finding.file, span: finding.span, message: SCHEMA_FINDING_NOTE }],
    });
  }
  return out;
}

/** "Shown once for the 150 statements of this file that insert into INV.ITEM." */
function onceFor(count: number, names: readonly string[]): string {
  const tables = [...new Set(names)];
  const into = tables.length <= 3 ? tables.join(', ') : `${tables.slice(0, 3).join(', ')} and ${countText(tables.length - 3)} more tables`;
  return `Shown once for the ${countText(count)} statements of this file that insert into ${into}.`;
}

function targetName(stmt: Statement): QualifiedName | undefined {
  if (stmt.kind === 'insert' || stmt.kind === 'merge') return stmt.target;
  if (stmt.kind === 'import') return stmt.table;
  return undefined;
}

function sitesOf(schema: SchemaModel, name: QualifiedName, stmt: Statement): readonly InsertSite[] {
  const table = schema.table(name, stmt);
  return (table ? schema.targetOfTable(table) : schema.insertTarget(name, stmt))?.sites ?? [];
}

/** The insert sites whose rows pay for what `stmt` defines. */
function sitesConcerned(schema: SchemaModel, stmt: Statement): readonly InsertSite[] {
  switch (stmt.kind) {
    case 'createTable':
      // An MQT's findings concern the inserts into its base tables.
      return [stmt.table, ...(stmt.mqt?.baseTables ?? [])].flatMap((name) => sitesOf(schema, name, stmt));
    case 'alterTable':
    case 'createIndex':
    case 'createTrigger':
      return sitesOf(schema, stmt.table, stmt);
    case 'createSequence':
    case 'alterSequence': {
      const key = schema.sequence(stmt.sequence, stmt)?.key;
      return (key && siteIndex(schema).bySequence.get(key)) || [];
    }
    case 'createTablespace':
      return siteIndex(schema).byTablespace.get(stmt.tablespace) ?? [];
    case 'updateDbCfg': {
      // A database setting slows every insert: shown once, on the first insert of the workspace.
      for (const target of schema.insertTargets.values()) if (target.sites.length > 0) return [target.sites[0]];
      return [];
    }
    default:
      return [];
  }
}

interface SiteIndex {
  /** Inserts that take values from a sequence, directly or through an insert trigger of their table. */
  bySequence: Map<string, InsertSite[]>;
  /** Inserts into tables whose data, indexes or long data live in a table space. */
  byTablespace: Map<string, InsertSite[]>;
}

/** Built once per schema model: looking sites up per finding would make many sequences quadratic. */
const siteIndexes = new WeakMap<SchemaModel, SiteIndex>();

function siteIndex(schema: SchemaModel): SiteIndex {
  let index = siteIndexes.get(schema);
  if (index) return index;
  index = { bySequence: new Map(), byTablespace: new Map() };
  siteIndexes.set(schema, index);
  const add = (map: Map<string, InsertSite[]>, key: string, sites: readonly InsertSite[]) => {
    const list = map.get(key);
    if (list) list.push(...sites);
    else map.set(key, [...sites]);
  };
  const sequencesOf = (stmt: Statement) => (stmt.kind === 'insert' ? stmt.sequences.flatMap((name) => schema.sequence(name, stmt)?.key ?? []) : []);
  for (const target of schema.insertTargets.values()) {
    const table = schema.tableByKey(target.key);
    const viaTriggers = new Set(table?.triggers.filter((t) => t.stmt.events.includes('insert')).flatMap((t) => t.stmt.body.flatMap(sequencesOf)));
    for (const key of viaTriggers) add(index.bySequence, key, target.sites);
    for (const site of target.sites) for (const key of new Set(sequencesOf(site.stmt))) if (!viaTriggers.has(key)) add(index.bySequence, key, [site]);
    const clause = table?.definition?.stmt.tablespace;
    for (const space of new Set([table?.tablespace, clause?.index, clause?.long])) if (space) add(index.byTablespace, space, target.sites);
  }
  return index;
}
