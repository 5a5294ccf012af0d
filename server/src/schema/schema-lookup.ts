// SchemaLookup, the base of SchemaModel (schema.ts): what the folded files define and fill (tables, sequences,
// table spaces, insert targets, DB CFG settings) and how a name written in a statement finds them: the schema in
// force there (SET SCHEMA), a name written without a schema, the version of a table defined more than once, the
// database a script statement runs in. Folding (schema-ddl.ts, schema-inserts.ts) fills it.
import type { CreateTablespaceStatement, QualifiedName, Statement } from '../sql/ast';
import type { FileModel } from '../engine/types';
import { forEachStatement } from '../sql/walk';
import { TableVersions } from './table-versions';
import { nowMs } from '../engine/clock';
import { tickDeadline } from '../engine/deadline';
import type { Located, TableInfo, SequenceInfo, InsertTargetInfo, DbCfgSetting } from './schema-types';

export abstract class SchemaLookup {
  readonly tables = new Map<string, TableInfo>();
  readonly sequences = new Map<string, SequenceInfo>();
  readonly tablespaces = new Map<string, Located<CreateTablespaceStatement>>();
  readonly insertTargets = new Map<string, InsertTargetInfo>();
  readonly dbCfg = new Map<string, DbCfgSetting>();
  /** Keys of tables named by LOCK TABLE ... IN EXCLUSIVE MODE in the analysed files. */
  readonly exclusivelyLocked = new Set<string>();
  /**
   * The schema in effect at each statement (SET SCHEMA), for resolving unqualified names. Filled when first asked
   * (fillSchemaAt): a script that qualifies every name never needs it, and a set per statement was ~5 ms of a
   * 200,000-line script and work for every later garbage collection (a WeakMap of 30,000 statements).
   */
  protected readonly schemaAt = new WeakMap<Statement, string | undefined>();
  /** The files whose statements schemaAt is still to be filled for (emptied by fillSchemaAt). */
  protected schemaAtPending: FileModel[] = [];
  /** Time of deferred work for all files (SchemaOptions.work). */
  protected work: { ms: number } = { ms: 0 };
  /** The statement addFile is at: its schema is `currentSchema`, whether schemaAt is filled or not. */
  protected visiting: Statement | undefined;
  /** The schema of the last SET SCHEMA of the file addFile is folding (undefined: none). */
  protected currentSchema: string | undefined;
  protected readonly byName = new Map<string, string[]>();
  /** Tables whose CREATE, ALTER or CREATE INDEX is in each file: rules about DDL look only at those. */
  protected readonly ddlTables = new Map<string, Set<TableInfo>>();
  /** Insert targets by table name (without schema), for resolving names written without a schema. */
  protected readonly targetsByName = new Map<string, InsertTargetInfo[]>();
  /** Tables defined more than once: a version per definition (`tables` holds the last). */
  protected readonly versions = new TableVersions(this.tables);

  /** The key of a name as written in `stmt`. */
  keyOf(name: QualifiedName, stmt?: Statement): string {
    const schema = name.schema ?? (stmt ? this.schemaOf(stmt) : undefined) ?? '';
    // Rules and the schema ask for the key of every INSERT's target several times (~130,000 times for a
    // 200,000-line script): the same string each time, looked up by the parser's shared name strings,
    // instead of a new concatenation to flatten and hash for each Map lookup.
    let byName = this.keys.get(schema);
    if (!byName) this.keys.set(schema, (byName = new Map()));
    let key = byName.get(name.name);
    if (key === undefined) byName.set(name.name, (key = `${schema}.${name.name}`));
    return key;
  }

  /** The schema in effect at `stmt` (undefined: none set). */
  private schemaOf(stmt: Statement): string | undefined {
    if (stmt === this.visiting) return this.currentSchema;
    this.fillSchemaAt();
    return this.schemaAt.get(stmt);
  }

  /**
   * Notes the schema in effect at every statement of the files added so far, as addFile goes through them: a
   * script's statements and those of its routines and blocks get the schema of the last SET SCHEMA of the
   * script before them (one in a routine applies when it runs), a trigger's body the schema at its CREATE TRIGGER.
   */
  protected fillSchemaAt(): void {
    const files = this.schemaAtPending;
    if (files.length === 0) return;
    this.schemaAtPending = [];
    const started = nowMs();
    for (const file of files) {
      let schema: string | undefined;
      forEachStatement(
        file.statements,
        (stmt, parent) => {
          // Only where a SET SCHEMA is in force (get gives undefined for the rest): most scripts set none, and
          // an entry per statement of every file (15,600 for the SQL corpus) was weak-map work for every GC.
          if (schema !== undefined) this.schemaAt.set(stmt, schema);
          if (stmt.kind === 'setSchema' && !parent) schema = stmt.schema;
          else if (stmt.kind === 'createTrigger' && schema !== undefined) forEachStatement(stmt.body, (inner) => this.schemaAt.set(inner, schema));
        },
        { triggers: false },
      );
    }
    this.work.ms += nowMs() - started;
  }

  /** Keys made by keyOf, by schema ('' for none) and name. */
  private readonly keys = new Map<string, Map<string, string>>();

  /** The table a name in `stmt` refers to, also when one side does not know the schema. */
  table(name: QualifiedName, stmt?: Statement): TableInfo | undefined {
    // Rules ask per statement (a rule may loop long): the time budget of the file whose rules run is checked now and then.
    tickDeadline();
    const key = this.keyOf(name, stmt);
    // A statement about a table defined more than once concerns the version in force where it stands.
    return (stmt && this.versions.versionAt(stmt, key)) || this.tableByKey(key);
  }

  tableByKey(key: string): TableInfo | undefined {
    const exact = this.tables.get(key);
    if (exact) return exact;
    const dot = key.lastIndexOf('.');
    const name = key.slice(dot + 1);
    const candidates = this.byName.get(name) ?? [];
    const schema = key.slice(0, dot);
    // An unqualified name matches the only table of that name; a qualified one matches an unqualified table.
    const match = candidates.filter((k) => schema === '' || k.startsWith('.'));
    return match.length === 1 ? this.tables.get(match[0]) : undefined;
  }

  sequence(name: QualifiedName, stmt?: Statement): SequenceInfo | undefined {
    const key = this.keyOf(name, stmt);
    const exact = this.sequences.get(key);
    if (exact) return exact;
    // As for tables: a name matches a sequence of another schema only when that one is the only candidate.
    const candidates = [...this.sequences.values()].filter((s) => s.key.endsWith('.' + name.name) && (key.startsWith('.') || s.key.startsWith('.')));
    return candidates.length === 1 ? candidates[0] : undefined;
  }

  insertTarget(name: QualifiedName, stmt?: Statement): InsertTargetInfo | undefined {
    const table = this.table(name, stmt);
    return this.insertTargets.get(table?.key ?? this.keyOf(name, stmt)) ?? this.targetByName(name);
  }

  /** The inserts that fill this table (this version of it, for a name defined more than once). */
  targetOfTable(table: TableInfo): InsertTargetInfo | undefined {
    tickDeadline();
    if (this.versions.has(table.key)) return this.versions.targetOf(table);
    return this.insertTargets.get(table.key) ?? this.targetByName({ name: table.name, schema: table.schema, span: { start: 0, end: 0 } });
  }

  isInsertTarget(table: TableInfo): boolean {
    return this.targetOfTable(table) !== undefined;
  }

  isBulkTarget(table: TableInfo): boolean {
    const target = this.targetOfTable(table);
    return target !== undefined && target.bulkReasons.length > 0;
  }

  private targetByName(name: QualifiedName): InsertTargetInfo | undefined {
    // Through the by-name index: scanning every target here made rules that ask once per statement
    // quadratic (half the time of a corpus run; see bench/RESULTS.md).
    const matches = (this.targetsByName.get(name.name) ?? []).filter((t) => {
      const schema = splitKey(t.key)[0];
      // An unqualified insert into a table that is also defined unqualified is that table's, not S.NAME's; and
      // with S.NAME and R.NAME both defined it is neither's (the schema in force when it runs decides).
      if (schema === '' && name.schema) return !this.tables.get(t.key)?.definition && (this.byName.get(name.name) ?? []).filter((k) => !k.startsWith('.')).length <= 1;
      return !name.schema || schema === name.schema;
    });
    return matches.length === 1 ? matches[0] : undefined;
  }

  /** Tables that `file` creates, alters or indexes (empty for a file without such DDL). */
  tablesWithDdlIn(file: string): ReadonlySet<TableInfo> {
    return this.ddlTables.get(file) ?? NO_TABLES;
  }

  /** The version of the same table that states its storage, for one that states none (TableVersions.storedTwin). */
  storedTwin(table: TableInfo): TableInfo | undefined {
    return this.versions.storedTwin(table);
  }

  /** Every version of every table: the last of each name (`tables`) and the earlier ones. */
  allVersions(): Iterable<TableInfo> {
    return this.versions.all();
  }
}

const NO_TABLES: ReadonlySet<TableInfo> = new Set();

/** A key's schema ('' for none) and name. */
export function splitKey(key: string): [string, string] {
  const dot = key.lastIndexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}

/**
 * The database a script statement runs in (after CONNECT TO db in its file), filled as files are folded.
 * A fact of the statement's own file, so one map serves every model built from it.
 */
export const DATABASE_AT = new WeakMap<Statement, string>();
