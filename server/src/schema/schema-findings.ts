// Schema files (DDL named by "schema" in .insertlintrc.json, --schema, insertlint.schema: db2look output, a
// DBA's folder, `insertlint schema pull`) feed the schema model but are not linted. A rule's finding on their
// DDL is shown where someone reading the workspace can act on it: on the inserts into the tables the DDL
// concerns, with related information pointing back at the DDL line.
import type { QualifiedName, Statement, StatementKind } from '../sql/ast';
import type { Diagnostic, FileModel } from '../engine/types';
import type { InsertSite, SchemaModel } from './schema';

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

export const SCHEMA_FINDING_NOTE = 'the DDL behind this finding (schema file, not linted)';

/**
 * Copies of `finding` (reported by a rule on `stmt` in schema file `finding.file`) placed on each insert, in
 * a linted file, into a table the statement concerns. A finding that concerns no linted insert is dropped:
 * the workspace does nothing it would slow down.
 */
export function placeSchemaFinding(schema: SchemaModel, finding: Diagnostic, stmt: Statement | undefined, isLinted: (file: string) => boolean): Diagnostic[] {
  if (!stmt) return [];
  const out: Diagnostic[] = [];
  const seen = new Set<Statement>();
  for (const site of sitesConcerned(schema, stmt)) {
    if (seen.has(site.stmt) || !isLinted(site.file)) continue;
    const name = targetName(site.stmt);
    if (!name) continue;
    seen.add(site.stmt);
    out.push({
      file: site.file,
      span: { start: site.stmt.origin.toFile(name.span.start), end: site.stmt.origin.toFile(name.span.end) },
      rule: finding.rule,
      severity: finding.severity,
      message: finding.message,
      // The fix edits the DDL (or the database), not this file: no quick fix here.
      related: [{ file: finding.file, span: finding.span, message: SCHEMA_FINDING_NOTE }],
    });
  }
  return out;
}

function targetName(stmt: Statement): QualifiedName | undefined {
  if (stmt.kind === 'insert' || stmt.kind === 'merge') return stmt.target;
  if (stmt.kind === 'import') return stmt.table;
  return undefined;
}

function sitesOf(schema: SchemaModel, name: QualifiedName, stmt: Statement): readonly InsertSite[] {
  return schema.insertTarget(name, stmt)?.sites ?? [];
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
    case 'alterSequence':
      return sequenceSites(schema, schema.sequence(stmt.sequence, stmt)?.key);
    case 'createTablespace': {
      const out: InsertSite[] = [];
      for (const table of schema.tables.values()) {
        const clause = table.definition?.stmt.tablespace;
        if ([table.tablespace, clause?.index, clause?.long].includes(stmt.tablespace)) out.push(...(schema.insertTargets.get(table.key)?.sites ?? []));
      }
      return out;
    }
    case 'updateDbCfg': {
      // A database setting slows every insert: shown once, on the first insert of the workspace.
      for (const target of schema.insertTargets.values()) if (target.sites.length > 0) return [target.sites[0]];
      return [];
    }
    default:
      return [];
  }
}

/** Inserts that take values from the sequence, directly or through an insert trigger of their table. */
function sequenceSites(schema: SchemaModel, key: string | undefined): InsertSite[] {
  if (!key) return [];
  const uses = (stmt: Statement) => stmt.kind === 'insert' && stmt.sequences.some((name) => schema.sequence(name, stmt)?.key === key);
  const out: InsertSite[] = [];
  for (const target of schema.insertTargets.values()) {
    const table = schema.tableByKey(target.key);
    const viaTrigger = table?.triggers.some((t) => t.stmt.events.includes('insert') && t.stmt.body.some(uses)) ?? false;
    for (const site of target.sites) if (viaTrigger || uses(site.stmt)) out.push(site);
  }
  return out;
}
