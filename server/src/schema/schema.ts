// The workspace schema model: all DDL of the analysed files folded in file order, ALTERs applied,
// SET SCHEMA resolved, plus what is inserted where. Rules ask it questions; it never reads text.
import type {
  ColumnDef,
  CreateTableStatement,
  CreateTablespaceStatement,
  QualifiedName,
  Statement,
  TableConstraint,
  ZosLoadOptions,
} from '../sql/ast';
import type { FileModel } from '../engine/types';
import { forEachStatement, isSplicedName } from '../sql/walk';
import { reparsedRange } from '../sql/incremental';
import { schemaStatements, shapeOf, writtenRows } from './edit-shape';
import { sitesTarget, TableVersions } from './table-versions';
import { statementsInBulkLoops } from '../code-model/bulk-loops';
import type { LoopInfo } from '../code-model/types';
import { SAMPLE_DATABASE, sampleTableRows } from './sample-database';
import { columnPlaces, mayWriteColumn } from './written-columns';
import { settleCopiesOfReferenceData, settleLoopsOverKnownRows, type SettleContext } from './settle';
import { nowMs } from '../engine/clock';
import { tickDeadline } from '../engine/deadline';
import { BULK_ROW_THRESHOLD, DB2_DEFAULT_CACHE, IN_LOOP, INSERT_SELECT, NO_REASONS, valuesRowsReason } from './schema-types';
import type { Located, IndexInfo, TableInfo, SequenceInfo, InsertSite, InsertTargetInfo, SchemaOptions, DbCfgSetting, ForeignKeyInfo } from './schema-types';

// The model's shapes live in schema-types.ts; rules and the engine import them from here, with SchemaModel.
export * from './schema-types';

/**
 * ALTER TABLE … DROP COLUMN: the column goes, and with it (CASCADE, Db2 LUW's default) the indexes, primary and
 * unique keys and foreign keys that include it, and the identity when it was that column. With RESTRICT, Db2
 * refuses the statement while any of those depends on the column, or a foreign key (of another table, or of this
 * one) references a key that includes it (`referencing`, SchemaModel.keysReferencing): nothing changes. Returns
 * whether the column went. (Check constraints are only counted here, not read, so they stay.)
 */
function dropColumn(table: TableInfo, name: string, restrict: boolean, referencing: number): boolean {
  const at = table.columns.findIndex((c) => c.name === name);
  if (at < 0) return false;
  const indexes = table.indexes.filter((ix) => !ix.stmt.columns.some((c) => c.name === name) && !ix.stmt.include.includes(name));
  const keyConstraints = table.keyConstraints.filter((k) => !keyColumns(k.constraint).includes(name));
  const foreignKeys = table.foreignKeys.filter((fk) => !fk.constraint.columns.includes(name));
  const dependents = table.indexes.length - indexes.length + (table.keyConstraints.length - keyConstraints.length) + (table.foreignKeys.length - foreignKeys.length) + referencing;
  if (restrict && dependents > 0) return false;
  table.columns = table.columns.filter((_, i) => i !== at);
  table.indexes = indexes;
  table.keyConstraints = keyConstraints;
  table.foreignKeys = foreignKeys;
  if (table.identity?.column.name === name) delete table.identity;
  return true;
}

/**
 * Whether the foreign key `fk`, one on `parent` (SchemaModel.isParentOf), references a key that includes the column
 * `name`: its parent columns name it, or it names none (it references the primary key) and the primary key of `parent` includes it.
 * Db2 takes a foreign key's parent columns only when they are a primary or unique key of the parent (SQL0573N),
 * so a key including the column is dropped with it, and with that key every foreign key referencing it.
 */
function referencesColumn(fk: ForeignKeyInfo, parent: TableInfo, name: string): boolean {
  const columns = fk.constraint.parentColumns;
  if (columns.length > 0) return columns.includes(name);
  return parent.keyConstraints.some((k) => k.constraint.kind === 'primaryKey' && k.constraint.columns.includes(name));
}

/** The columns of a primary key or unique constraint (none for other kinds). */
function keyColumns(constraint: TableConstraint): readonly string[] {
  return constraint.kind === 'primaryKey' || constraint.kind === 'unique' ? constraint.columns : [];
}

export class SchemaModel {
  readonly tables = new Map<string, TableInfo>();
  readonly sequences = new Map<string, SequenceInfo>();
  readonly tablespaces = new Map<string, Located<CreateTablespaceStatement>>();
  readonly insertTargets = new Map<string, InsertTargetInfo>();
  readonly dbCfg = new Map<string, DbCfgSetting>();
  /** Sequence name -> schemas ('' when unqualified and no SET SCHEMA) of NEXT VALUE FOR uses in inserts. */
  private readonly sequenceUses = new Map<string, Set<string>>();
  /** The same, for the uses that feed bulk inserts (isSequenceUsedByBulkInserts). */
  private readonly bulkSequenceUses = new Map<string, Set<string>>();
  /** Keys of tables named by LOCK TABLE ... IN EXCLUSIVE MODE in the analysed files. */
  readonly exclusivelyLocked = new Set<string>();
  /**
   * The schema in effect at each statement (SET SCHEMA), for resolving unqualified names. Filled when first asked
   * (fillSchemaAt): a script that qualifies every name never needs it, and a set per statement was ~5 ms of a
   * 200,000-line script and work for every later garbage collection (a WeakMap of 30,000 statements).
   */
  private readonly schemaAt = new WeakMap<Statement, string | undefined>();
  /** The files whose statements schemaAt is still to be filled for (emptied by fillSchemaAt). */
  private schemaAtPending: FileModel[] = [];
  /** Time of deferred work for all files (SchemaOptions.work). */
  private work: { ms: number } = { ms: 0 };
  /** The statement addFile is at: its schema is `currentSchema`, whether schemaAt is filled or not. */
  private visiting: Statement | undefined;
  private readonly byName = new Map<string, string[]>();
  /** Tables whose CREATE, ALTER or CREATE INDEX is in each file: rules about DDL look only at those. */
  private readonly ddlTables = new Map<string, Set<TableInfo>>();
  /** Insert targets by table name (without schema), for resolving names written without a schema. */
  private readonly targetsByName = new Map<string, InsertTargetInfo[]>();
  /** Tables defined more than once: a version per definition (`tables` holds the last). */
  private readonly versions = new TableVersions(this.tables);

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
  private fillSchemaAt(): void {
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

  private noteDdl(file: string, table: TableInfo, stmt: Statement): TableInfo {
    let tables = this.ddlTables.get(file);
    if (!tables) this.ddlTables.set(file, (tables = new Set()));
    tables.add(table);
    return this.versions.noteDdl(table, stmt);
  }

  // --- building -------------------------------------------------------------------------------

  static build(files: readonly FileModel[], options: SchemaOptions = {}): SchemaModel {
    const model = new SchemaModel();
    model.work = options.work ?? { ms: 0 };
    for (const file of files) model.addFile(file);
    model.finish(options.bulkRowThreshold ?? BULK_ROW_THRESHOLD);
    return model;
  }

  /**
   * This model with file `before` replaced by `after` (the same path, edited), without folding every file again:
   * possible when the edit changed no DDL, SET SCHEMA or CONNECT and no INSERT's shape (its target, row count,
   * literal rows, sequences, and for MERGE, IMPORT, INGEST, LOCK TABLE what they name), which is what typing
   * inside a VALUES list does. Then the statements the schema refers to are either the same objects (kept by
   * sql/incremental.ts, moved in place) or inserts of the same shape, and only those references change.
   * Undefined when the schema must be built again. Returns a new object: caches keyed by the model are stale.
   */
  withFileReplaced(before: FileModel, after: FileModel): SchemaModel | undefined {
    if (before.source.path !== after.source.path || before.source.language !== after.source.language) return undefined;
    const old = schemaStatements(before);
    const next = schemaStatements(after);
    if (!old || !next || old.length !== next.length) return undefined;
    const replaced = new Map<Statement, Statement>();
    for (let i = 0; i < old.length; i++) {
      const o = old[i];
      const n = next[i];
      if (o === n) continue;
      // Another object: only an insert-like statement of the same shape (DDL must be the very statement, kept).
      const shape = shapeOf(o);
      if (shape === undefined || shape !== shapeOf(n)) return undefined;
      replaced.set(o, n);
    }
    // The statements kept are looked up in schemaAt below and by the new model: noted now, once for both models.
    this.fillSchemaAt();
    const model: SchemaModel = Object.assign(Object.create(SchemaModel.prototype) as SchemaModel, this);
    model.keyFacts = [new Map(), new Map()];
    // What addFile notes for every statement (the schema and database in force), for the statements that are
    // new objects: those an edit re-parsed, between the ones kept at the start and at the end. A kept statement
    // follows the same SET SCHEMA and CONNECT objects as before (checked above) and keeps what was noted for it.
    // (Noting all 50,000 statements of a script cost a keystroke ~10 ms and its garbage.)
    const news = after.statements;
    const { from, newEnd: to } = reparsedRange(before.statements, news);
    let schema: string | undefined;
    let database: string | undefined;
    if (from > 0) {
      const last = news[from - 1];
      schema = last.kind === 'setSchema' ? last.schema : model.schemaAt.get(last);
      database = DATABASE_AT.get(last);
    }
    for (let i = from; i < to; i++) {
      const stmt = news[i];
      if (stmt.kind === 'connect') database = stmt.reset ? undefined : stmt.database?.toUpperCase();
      model.schemaAt.set(stmt, schema);
      if (database !== undefined) DATABASE_AT.set(stmt, database);
      if (stmt.kind === 'setSchema') schema = stmt.schema;
    }
    this.versions.carry(replaced);
    if (replaced.size > 0 && !model.replaceSitesByKey(replaced)) {
      for (const target of model.insertTargets.values()) {
        for (const site of target.sites) {
          const n = replaced.get(site.stmt);
          if (n) site.stmt = n;
        }
      }
    }
    return model;
  }

  /**
   * Points the insert sites of the replaced statements at their replacements, looking each up under the one
   * key addStatement filed it under (not through all the workspace's sites: ~100,000 in a 2,000-file workspace,
   * on every keystroke). False when a statement's site is not found so: the caller then looks through them all.
   */
  private replaceSitesByKey(replaced: ReadonlyMap<Statement, Statement>): boolean {
    for (const [o, n] of replaced) {
      const name = o.kind === 'insert' || o.kind === 'merge' ? o.target : o.kind === 'import' || o.kind === 'ingest' ? o.table : undefined;
      const site = name && this.insertTargets.get(this.keyOf(name, o))?.sites.find((s) => s.stmt === o);
      if (!site) return false;
      site.stmt = n;
    }
    return true;
  }

  /**
   * True when every row the table receives is written out as literals, or copied from such rows or from catalog
   * rows (InsertSite.copiesReferenceData), and they stay under the bulk threshold: reference data (codes, statuses,
   * seed rows, replication settings), whose per-row costs nobody will notice.
   */
  isReferenceData(target: InsertTargetInfo): boolean {
    return target.bulkReasons.length === 0 && target.sites.every((s) => s.literalRows !== undefined || s.copiesReferenceData);
  }

  /**
   * The rows the target receives, when the analysed scripts spell every one of them out: each insert is literal
   * rows (InsertSite.literalRows) and none gives a reason of its own (a query, IMPORT, LOAD, INGEST, a loop, a
   * trigger, code). Undefined when anything else fills it: then the volume is not known.
   */
  knownRows(target: InsertTargetInfo): number | undefined {
    let rows = 0;
    for (const site of target.sites) {
      const known = site.literalRows ?? site.loopRows;
      if (known === undefined || site.bulkReasons.length > 0) return undefined;
      rows += known;
    }
    // The target's own reasons are its sites' and the sum of written rows (finish): anything else is not known rows.
    if (target.bulkReasons.some((r) => r !== valuesRowsReason(target.valuesRows))) return undefined;
    return target.sites.length > 0 ? rows : undefined;
  }

  /**
   * The inserts of `target` (the inserts into `table`) that may give one of `columns` a value (written-columns.ts: a
   * column list that names it with more than NULL or DEFAULT, a value at its place when there is no column list, a
   * value default, IMPORT, INGEST, LOAD): `target` itself when every insert may; else a target of those alone, with
   * their bulk reasons and written rows (and the written-rows reason when they reach bulkRowThreshold), for
   * knownRows, isReferenceData and the severity; undefined when none may. A column given by name is one whose
   * definition is not known (mayWriteColumn). `every`: an insert counts only when it may give all of `columns` a
   * value (a foreign key's columns: Db2 checks the parent only for a key with no NULL in it).
   */
  insertsWriting(target: InsertTargetInfo, columns: readonly (ColumnDef | string)[], table: TableInfo, every = false): InsertTargetInfo | undefined {
    // Each column's place for the inserts that name no columns (the table's column order), found once.
    const places = columnPlaces(table, columns.map((column) => (typeof column === 'string' ? column : column.name)));
    const writesColumn = (site: InsertSite) => (column: ColumnDef | string, k: number) => mayWriteColumn(site.stmt, column, places[k]);
    const writes = (site: InsertSite) => (every ? columns.every(writesColumn(site)) : columns.some(writesColumn(site)));
    const first = target.sites.findIndex((site) => !writes(site));
    if (first < 0) return target;
    const sites = target.sites.slice(0, first);
    for (let i = first + 1; i < target.sites.length; i++) if (writes(target.sites[i])) sites.push(target.sites[i]);
    if (sites.length === 0) return undefined;
    const writers = sitesTarget(target.key, sites);
    if (writers.valuesRows >= this.bulkRowThreshold) writers.bulkReasons.push(valuesRowsReason(writers.valuesRows));
    return writers;
  }

  /**
   * Of `columns` (columns of `table`), those some insert into the table may give a value (insertsWriting), in their
   * order: the LOB columns lob-column reports and the cost summaries (hover, checklist, insert-target-cost) charge.
   * All of them when the analysed files insert into the table nowhere: then they are what an insert would cost.
   */
  writtenColumns<C extends ColumnDef>(table: TableInfo, columns: readonly C[], target: InsertTargetInfo | undefined = this.targetOfTable(table)): C[] {
    if (!target || columns.length === 0) return [...columns];
    // One pass over the inserts, a column left out of the search once one of them writes it (insertsWriting for each
    // column went through every insert again: columns × inserts × the length of their column lists).
    const places = columnPlaces(table, columns.map((column) => column.name));
    const written = new Array<boolean>(columns.length).fill(false);
    let open = columns.map((_, k) => k);
    for (const site of target.sites) {
      open = open.filter((k) => {
        written[k] = mayWriteColumn(site.stmt, columns[k], places[k]);
        return !written[k];
      });
      if (open.length === 0) break;
    }
    return columns.filter((_, k) => written[k]);
  }

  /** Whether knownRows is a bound (up to so many rows): some of them are a loop's over another table (InsertSite.loopRows). */
  knownRowsAreBound(target: InsertTargetInfo): boolean {
    return target.sites.some((s) => s.literalRows === undefined && s.loopRows !== undefined);
  }

  /**
   * Whether an insert into `name` (written in `stmt`) fills a table that receives only reference data
   * (isReferenceData of its insertTarget). Four rules ask it of every INSERT of a script: the answer is kept
   * per key, for qualified and unqualified names apart (an unqualified one may find its target by name alone).
   */
  insertsReferenceData(name: QualifiedName, stmt: Statement): boolean {
    const facts = this.factsOf(name, stmt);
    return (facts.referenceData ??= facts.target !== undefined && this.isReferenceData(facts.target));
  }

  /**
   * Whether literal rows written into the table `name` names (in `stmt`) are seed rows: the literal rows of all
   * the analysed scripts into it (InsertSite.literalRows) stay under the bulk threshold. What else fills the table
   * does not matter, not even a load in the same script: an IMPORT or an application's inserts make a script's
   * ten rows no more costly. Kept per key, as insertsReferenceData's answers.
   */
  writesSeedRows(name: QualifiedName, stmt: Statement): boolean {
    const facts = this.factsOf(name, stmt);
    if (facts.seedRows === undefined) {
      let rows = 0;
      for (const site of facts.target?.sites ?? []) rows += site.literalRows ?? 0;
      facts.seedRows = rows < this.bulkRowThreshold;
    }
    return facts.seedRows;
  }

  /** The insert target of a name as written in `stmt`, and answers about it, made once per key. */
  private factsOf(name: QualifiedName, stmt: Statement): KeyFacts {
    const key = this.keyOf(name, stmt);
    // Qualified and unqualified names apart: an unqualified one may find its target by name alone.
    const known = this.keyFacts[name.schema === undefined ? 1 : 0];
    let facts = known.get(key);
    if (!facts) known.set(key, (facts = { target: this.insertTarget(name, stmt) }));
    return facts;
  }

  /** factsOf's answers, for qualified and unqualified names (a model copied for an edit starts afresh: see withFileReplaced). */
  private keyFacts: [Map<string, KeyFacts>, Map<string, KeyFacts>] = [new Map(), new Map()];
  /** SchemaOptions.bulkRowThreshold. */
  private bulkRowThreshold = BULK_ROW_THRESHOLD;

  /** Whether a table receives rows beyond reference data (inserts with run-time values, or bulk). */
  receivesRows(table: TableInfo): boolean {
    const target = this.targetOfTable(table);
    return target !== undefined && !this.isReferenceData(target);
  }

  /** Whether any table of the analysed files receives rows beyond reference data (the DB CFG rules' question). */
  hasInsertWorkload(): boolean {
    for (const target of this.insertTargets.values()) if (!this.isReferenceData(target)) return true;
    return false;
  }

  private currentSchema: string | undefined;
  /** Statements of the current file whose text has values spliced in (not literals written by hand). */
  private splicedStatements = new Set<Statement>();
  /** INSERTs in a routine's FOR loop over one table (LoopInfo.rowsOf), for settle.ts's settleLoopsOverKnownRows; emptied by finish. */
  private tableLoopOf = new Map<Statement, LoopInfo>();
  /** Names (without schema) of the tables a LOAD fills: rows no INSERT spells out. */
  private readonly loadedNames = new Set<string>();
  /** The current file is a script (see addFile). */
  private scriptFile = true;
  /** The statement being added is in a routine, block or trigger body (InsertSite.nested). */
  private nested = false;

  private addFile(file: FileModel): void {
    // The schema in effect at each statement is noted when first asked (fillSchemaAt).
    this.schemaAtPending.push(file);
    this.currentSchema = undefined;
    this.versions.startFile();
    const seenInserts = new Map<string, number>();
    const path = file.source.path;
    // Not a loop over chunks (a table, a month at a time: one row per chunk), a few passes or an array handed in.
    const inLoop = statementsInBulkLoops(file);
    const spliced = new Set<Statement>();
    for (const execution of file.code?.executions ?? []) {
      if (execution.splicedValues.length > 0) for (const s of execution.statements) spliced.add(s);
    }
    this.splicedStatements = spliced;
    for (const e of file.code?.executions ?? []) {
      const loop = e.loop;
      // The routine's own loop (not one a caller lends it: the routine may run from elsewhere too).
      if (loop?.rowsOf && !loop.via && !loop.file) for (const s of e.statements) if (s.kind === 'insert') this.tableLoopOf.set(s, loop);
    }
    // Literal rows are reference data only in scripts (SQL files, db2 here-documents in shell scripts): an
    // INSERT that application code runs may run once per call of its function, however often that is.
    this.scriptFile = file.source.language === 'sql' || file.source.language === 'shell';
    // The script's statements, and those its routines and blocks run (not triggered actions: see finish()).
    let database: string | undefined;
    // The routine or block being walked, and whether it inserts (asked only when it draws from a sequence).
    let routine: Statement | undefined;
    let routineInserts: boolean | undefined;
    forEachStatement(
      file.statements,
      (stmt, parent) => {
        this.visiting = stmt;
        if (!parent) {
          routine = stmt;
          routineInserts = undefined;
        }
        if (stmt.kind === 'connect' && !parent) database = stmt.reset ? undefined : stmt.database?.toUpperCase();
        if (database !== undefined) DATABASE_AT.set(stmt, database);
        this.nested = parent !== undefined;
        this.addStatement(path, stmt, inLoop.has(stmt), parent ? undefined : seenInserts, parent);
        // SET v = NEXT VALUE FOR s in a routine that inserts: the key it makes goes into a row (modules.db2).
        if (parent && stmt.kind === 'setVariable' && stmt.sequences) {
          routineInserts ??= insertsIn(routine!);
          if (routineInserts) this.recordSequenceUses(stmt, inLoop.has(stmt) ? this.bulkSequenceUses : this.sequenceUses);
        }
      },
      { triggers: false },
    );
    this.visiting = undefined;
  }

  /**
   * `seenInserts` counts the script's INSERTs per table (InsertSite.repeated); it is
   * undefined for statements inside a routine or block (`parent`), where a loop is what makes rows many.
   */
  private addStatement(file: string, stmt: Statement, inLoop: boolean, seenInserts: Map<string, number> | undefined, parent?: Statement): void {
    switch (stmt.kind) {
      case 'setSchema':
        // In a routine it applies when the routine runs, not to the script's later statements.
        if (!parent) this.currentSchema = stmt.schema;
        break;
      case 'createTable':
        this.addTable(file, stmt);
        break;
      case 'alterTable':
        this.alterTable(file, stmt);
        break;
      case 'createIndex': {
        const table = this.noteDdl(file, this.versions.changeable(file, this.ensureTable(stmt.table, stmt)), stmt);
        table.indexes = replaceNamed(table.indexes, { file, stmt, name: stmt.index.name, unique: stmt.unique, cluster: stmt.cluster });
        break;
      }
      case 'createSequence':
      case 'alterSequence': {
        const key = this.keyOf(stmt.sequence, stmt);
        const existing = this.sequences.get(key);
        if (stmt.kind === 'alterSequence' && existing) {
          if (stmt.cache !== undefined) this.sequences.set(key, { ...existing, file, stmt, cache: stmt.cache, explicit: true });
        } else {
          this.sequences.set(key, { file, stmt, key, cache: stmt.cache ?? DB2_DEFAULT_CACHE, explicit: stmt.cache !== undefined });
        }
        break;
      }
      case 'createTrigger': {
        const table = this.versions.noteDdl(this.versions.changeable(file, this.ensureTable(stmt.table, stmt)), stmt);
        table.triggers = replaceNamed(table.triggers, { file, stmt, name: stmt.trigger.name });
        break;
      }
      case 'createTablespace':
        this.tablespaces.set(stmt.tablespace, { file, stmt });
        break;
      case 'insert': {
        // 'INSERT INTO ' || tab || …: the placeholder standing for the spliced name is no table.
        if (isSplicedName(stmt.target, stmt, parent)) break;
        const key = this.keyOf(stmt.target, stmt);
        const count = seenInserts ? (seenInserts.get(key) ?? 0) + 1 : 1;
        seenInserts?.set(key, count);
        // Rows the INSERT spells out (VALUES, or a SELECT of constants from SYSIBM.SYSDUMMY1) count towards
        // bulkRowThreshold (finish()); alone they are no evidence of volume. Rows from a query are.
        const written = writtenRows(stmt.source);
        // (Most INSERTs give no reason: no array made for them.)
        const reasons = !written || inLoop ? insertReasons(!written, inLoop) : NO_REASONS;
        const rows = written && !inLoop ? written.count : 0;
        const literal = rows > 0 && !parent && this.scriptFile && !this.splicedStatements.has(stmt) && written!.literal;
        this.addInsertSite(key, file, stmt, inLoop || count > 1, reasons, rows, literal ? rows : undefined, this.versions.filledHere(key));
        this.recordSequenceUses(stmt);
        break;
      }
      case 'merge':
        if (stmt.hasInsert && !isSplicedName(stmt.target, stmt, parent)) {
          // MERGE … USING (VALUES …) upserts the rows it writes (one per call, usually); from a query it moves many.
          const bulk = !stmt.sourceValues || inLoop;
          this.addInsertSite(this.keyOf(stmt.target, stmt), file, stmt, inLoop, bulk ? [inLoop ? 'inserted inside a loop' : 'MERGE … WHEN NOT MATCHED THEN INSERT from a query'] : [], bulk ? 0 : 1);
        }
        break;
      case 'ingest':
        if (stmt.operation !== 'update' && stmt.operation !== 'delete') {
          this.addInsertSite(this.keyOf(stmt.table, stmt), file, stmt, false, [`INGEST … ${stmt.operation.toUpperCase()} (rows arrive in bulk)`]);
        }
        break;
      case 'import':
        this.addInsertSite(this.keyOf(stmt.table, stmt), file, stmt, false, ['IMPORT (inserts row by row)']);
        break;
      case 'load':
        // The z/OS LOAD utility fills tables in bulk (the LUW LOAD command builds pages outside the insert path).
        if (stmt.utility) for (const table of stmt.utility.tables) this.addInsertSite(this.keyOf(table, stmt), file, stmt, true, [zosLoadReason(stmt.utility)]);
        // Either way the table holds rows no INSERT spells out: a loop over it makes as many passes as they are.
        this.loadedNames.add(stmt.table.name);
        for (const table of stmt.utility?.tables ?? []) this.loadedNames.add(table.name);
        break;
      case 'declareTable': {
        // DCLGEN's declaration: the columns, when no CREATE TABLE gives them.
        const table = this.ensureTable(stmt.table, stmt);
        if (!table.definition && table.columns.length === 0) table.columns = [...stmt.columns];
        break;
      }
      case 'lockTable':
        if (stmt.mode === 'exclusive') this.exclusivelyLocked.add(this.keyOf(stmt.table, stmt));
        break;
      case 'updateDbCfg':
        for (const p of stmt.parameters) {
          this.dbCfg.set(p.name, { file, stmt, name: p.name, value: p.value, numericValue: p.numericValue });
        }
        break;
      default:
        break;
    }
  }

  private addInsertSite(key: string, file: string, stmt: Statement, repeated: boolean, reasons: readonly string[], valuesRows = 0, literalRows?: number, version?: TableInfo): InsertSite {
    // One literal per site, all fields in one order (a spread here was ~1 µs a site: 200,000 INSERTs, 230 ms).
    const site: InsertSite = { file, stmt, repeated, literalRows, bulkReasons: reasons, valuesRows, version, nested: this.nested };
    let target = this.insertTargets.get(key);
    if (!target) {
      target = { key, sites: [], bulkReasons: [], valuesRows: 0 };
      this.insertTargets.set(key, target);
      const name = splitKey(key)[1];
      const sameName = this.targetsByName.get(name);
      if (sameName) sameName.push(target);
      else this.targetsByName.set(name, [target]);
    }
    target.sites.push(site);
    target.valuesRows += valuesRows;
    for (let i = 0; i < reasons.length; i++) if (!target.bulkReasons.includes(reasons[i])) target.bulkReasons.push(reasons[i]);
    return site;
  }

  private newTable(key: string): TableInfo {
    const [schema, name] = splitKey(key);
    const table: TableInfo = {
      key,
      schema: schema || undefined,
      name,
      columns: [],
      indexes: [],
      keyConstraints: [],
      foreignKeys: [],
      checks: 0,
      triggers: [],
      mqts: [],
      append: false,
      notLoggedInitially: false,
    };
    this.tables.set(key, table);
    const list = this.byName.get(name) ?? [];
    list.push(key);
    this.byName.set(name, list);
    return table;
  }

  /** The table a statement refers to; created bare when its DDL is not in the analysed paths. */
  private ensureTable(name: QualifiedName, stmt: Statement): TableInfo {
    return this.table(name, stmt) ?? this.newTable(this.keyOf(name, stmt));
  }

  private addTable(file: string, stmt: CreateTableStatement): void {
    const key = this.keyOf(stmt.table, stmt);
    const known = this.tables.get(key);
    // Created again (variant or upgrade scripts drop and re-create): a new version, and the old one stays for the
    // statements and inserts of its own time. (A table only indexed or altered so far gets its definition.)
    const table = this.noteDdl(file, known?.definition ? this.versions.newVersion(known) : (known ?? this.newTable(key)), stmt);
    this.versions.created(key, table);
    Object.assign(table, {
      definition: { file, stmt },
      columns: [...stmt.columns],
      tablespace: stmt.tablespace.data,
      append: stmt.append ?? false,
      locksize: stmt.locksize,
      pctfree: stmt.pctfree,
      notLoggedInitially: stmt.notLoggedInitially,
      mqt: stmt.mqt,
    });
    // The columns are the statement's own (no duplicates to look for): only identities need noting.
    for (const column of stmt.columns) this.noteIdentity(table, file, stmt, column);
    for (const constraint of stmt.constraints) this.addConstraint(table, file, stmt, constraint);
    if (stmt.mqt) {
      for (const base of stmt.mqt.baseTables) {
        this.ensureTable(base, stmt).mqts.push({ file, stmt, key, refresh: stmt.mqt.refresh });
      }
    }
  }

  private addColumn(table: TableInfo, file: string, stmt: Statement, column: ColumnDef): void {
    if (!table.columns.includes(column)) table.columns.push(column);
    this.noteIdentity(table, file, stmt, column);
  }

  private noteIdentity(table: TableInfo, file: string, stmt: Statement, column: ColumnDef): void {
    if (column.identity) {
      const cache = column.identity.cache;
      table.identity = { file, stmt, column, cache: cache ?? DB2_DEFAULT_CACHE, explicit: cache !== undefined };
    }
  }

  private addConstraint(table: TableInfo, file: string, stmt: Statement, constraint: TableConstraint): void {
    switch (constraint.kind) {
      case 'foreignKey': {
        const parentKey = this.keyOf(constraint.parent, stmt);
        table.foreignKeys = replaceNamed(table.foreignKeys, { file, stmt, constraint, enforced: constraint.enforced, parentKey, name: constraint.name ?? `(${constraint.columns.join(',')})->${parentKey}` });
        break;
      }
      case 'primaryKey':
      case 'unique':
        table.keyConstraints = replaceNamed(table.keyConstraints, { file, stmt, constraint, name: constraint.name ?? `${constraint.kind}(${constraint.columns.join(',')})` });
        break;
      case 'check':
        if (constraint.enforced) table.checks++;
        break;
    }
  }

  private alterTable(file: string, stmt: Extract<Statement, { kind: 'alterTable' }>): void {
    const table = this.versions.changeable(file, this.ensureTable(stmt.table, stmt), stmt.actions.some((a) => a.kind === 'dropConstraint' || a.kind === 'dropColumn'));
    this.noteDdl(file, table, stmt);
    for (const action of stmt.actions) {
      switch (action.kind) {
        case 'addColumn':
          this.addColumn(table, file, stmt, action.column);
          break;
        case 'addConstraint':
          this.addConstraint(table, file, stmt, action.constraint);
          break;
        case 'dropConstraint': {
          const name = action.name;
          const before = table.foreignKeys.length;
          table.foreignKeys = table.foreignKeys.filter((fk) => fk.constraint.name !== name);
          if (before === table.foreignKeys.length && action.constraintKind !== 'foreignKey' && action.constraintKind !== 'check') {
            // DROP PRIMARY KEY names no constraint: it drops the primary key, whatever it was called.
            const going = table.keyConstraints.filter((k) => (action.constraintKind === 'primaryKey' ? k.constraint.kind === 'primaryKey' : k.constraint.name === name));
            for (const key of going) this.dropReferencesTo(file, table, key.constraint);
            table.keyConstraints = table.keyConstraints.filter((k) => !going.includes(k));
          }
          break;
        }
        case 'dropColumn':
          this.dropColumn(file, table, action.column, action.restrict);
          break;
        case 'alterConstraintEnforcement':
          table.foreignKeys = table.foreignKeys.map((fk) => (fk.constraint.name === action.name ? { ...fk, enforced: action.enforced, file, stmt } : fk));
          break;
        case 'alterColumnIdentity':
          if (table.identity && table.identity.column.name === action.column && action.cache !== undefined) {
            table.identity = { ...table.identity, file, stmt, cache: action.cache, explicit: true };
          }
          break;
        case 'append':
          table.append = action.on;
          break;
        case 'locksize':
          table.locksize = action.locksize;
          break;
        case 'pctfree':
          table.pctfree = action.value;
          break;
        case 'activateNotLoggedInitially':
          table.notLoggedInitially = true;
          break;
        case 'refresh':
          break;
        case 'other':
          break;
      }
    }
  }

  /**
   * ALTER TABLE ... DROP COLUMN (dropColumn) and the foreign keys it takes from other tables: a primary or unique key
   * that includes the column goes (CASCADE, Db2 LUW's default), and with it every referential constraint whose
   * parent key it is, in any table. Those tables lose the foreign keys: a table of another file's definition in a
   * copy, as for any DDL of this file that drops something (TableVersions.changeable). With RESTRICT, such a
   * constraint is one more dependent: Db2 refuses the statement (SQLSTATE 42893), nothing changes anywhere.
   */
  private dropColumn(file: string, table: TableInfo, name: string, restrict: boolean): void {
    // The foreign keys on a key that goes, by table (this one among them when it references itself), read before
    // dropColumn takes the primary key away; those whose own columns include it are this table's own dependents.
    const going = new Map<TableInfo, ForeignKeyInfo[]>();
    let referencing = 0;
    for (const child of this.tables.values()) {
      const keys = child.foreignKeys.filter((fk) => this.isParentOf(table, fk) && referencesColumn(fk, table, name));
      if (keys.length === 0) continue;
      going.set(child, keys);
      referencing += child === table ? keys.filter((fk) => !fk.constraint.columns.includes(name)).length : keys.length;
    }
    if (!dropColumn(table, name, restrict, referencing)) return;
    for (const [child, keys] of going) {
      const version = child === table ? table : this.versions.changeable(file, child, true);
      version.foreignKeys = version.foreignKeys.filter((fk) => !keys.includes(fk));
    }
  }

  /**
   * DROP PRIMARY KEY, DROP UNIQUE c and DROP CONSTRAINT c of a primary or unique key: Db2 drops with the key every
   * referential constraint whose parent key it is, in any table (a table of another file's definition in a copy,
   * as in dropColumn). Called before the key leaves `parent`: a foreign key naming no parent columns takes the
   * primary key.
   */
  private dropReferencesTo(file: string, parent: TableInfo, key: TableConstraint): void {
    const columns = keyColumns(key);
    const sameColumns = (named: readonly string[]) => named.length === columns.length && named.every((c) => columns.includes(c));
    const references = (fk: ForeignKeyInfo) => this.isParentOf(parent, fk) && (fk.constraint.parentColumns.length > 0 ? sameColumns(fk.constraint.parentColumns) : key.kind === 'primaryKey');
    for (const child of [...this.tables.values()]) {
      if (!child.foreignKeys.some(references)) continue;
      const version = child === parent ? parent : this.versions.changeable(file, child, true);
      version.foreignKeys = version.foreignKeys.filter((fk) => !references(fk));
    }
  }

  /**
   * Whether `fk` references `parent`: by its key, or by a name that resolves to it (an unqualified REFERENCES P
   * of a script without SET SCHEMA and the one table P, created or altered as S.P), as the rules look parents up.
   */
  private isParentOf(parent: TableInfo, fk: ForeignKeyInfo): boolean {
    return fk.parentKey === parent.key || this.tableByKey(fk.parentKey) === parent;
  }

  /** Whether a sequence feeds inserts: NEXT VALUE FOR it in an INSERT, or in the body of an insert trigger on an insert target. */
  isSequenceUsedByInserts(key: string): boolean {
    return usesName(this.sequenceUses, key) || usesName(this.bulkSequenceUses, key);
  }

  /**
   * Whether a sequence feeds bulk inserts: NEXT VALUE FOR it in an INSERT into a bulk target, in the body of an
   * insert trigger on one, or drawn into a variable in a routine's loop that inserts.
   */
  isSequenceUsedByBulkInserts(key: string): boolean {
    return usesName(this.bulkSequenceUses, key);
  }

  private recordSequenceUses(stmt: Statement, into = this.sequenceUses): void {
    const sequences = stmt.kind === 'insert' ? stmt.sequences : stmt.kind === 'setVariable' ? stmt.sequences : undefined;
    if (!sequences) return;
    // (Nearly every INSERT has none: an index loop makes no iterator for them.)
    for (let i = 0; i < sequences.length; i++) {
      const [schema, name] = splitKey(this.keyOf(sequences[i], stmt));
      let schemas = into.get(name);
      if (!schemas) into.set(name, (schemas = new Set()));
      schemas.add(schema);
    }
  }

  /** Which version of its table each insert fills (TableVersions.attribute); inserts that fit no definition are dropped. */
  private attributeInserts(): void {
    for (const [key, target] of this.insertTargets) {
      const latest = this.tableByKey(key);
      if (!latest?.definition) continue;
      const kept = this.versions.attribute(target, latest);
      if (kept.length === target.sites.length) continue;
      Object.assign(target, sitesTarget(key, [...kept]));
      if (kept.length > 0) continue;
      this.insertTargets.delete(key);
      const name = splitKey(key)[1];
      const sameName = this.targetsByName.get(name)!.filter((t) => t !== target);
      if (sameName.length > 0) this.targetsByName.set(name, sameName);
      else this.targetsByName.delete(name);
    }
    this.versions.noteDdlVersions();
  }

  /**
   * The rows of a SAMPLE database table as db2sampl creates it, read by `stmt` of `file`, a script connected to
   * SAMPLE: when no analysed file creates that table or inserts into it where it may be SAMPLE's table
   * (shadowsSampleTable; then its rows are not db2sampl's).
   */
  private stockSampleRows(name: QualifiedName, stmt: Statement, file: string): number | undefined {
    const rows = sampleTableRows(name.name);
    if (rows === undefined || DATABASE_AT.get(stmt) !== SAMPLE_DATABASE) return undefined;
    return this.shadowsSampleTable(name.name, file) ? undefined : rows;
  }

  /**
   * Whether the files create or fill a table named `name` that may be the SAMPLE table `reader` (a file connected
   * to SAMPLE) reads. Not one in a script connected to another database (XmlIntegrate_setup.db2's EMPLOYEE would
   * be, had it connected elsewhere): that database's table is another. Nor a definition that cannot be the
   * parent of a foreign key `reader` declares to that name, whose parent columns are no primary or unique key
   * of it (Db2 rejects such a key, SQL0573N): the reader's script runs against another table of that name
   * (cgtt.db2's PAYROLL references EMPLOYEE (EMPNO), which XmlIntegrate_setup.db2's keyless EMPLOYEE is not).
   * Statements of a script that names no database, or of application code, may run in SAMPLE.
   */
  private shadowsSampleTable(name: string, reader: string): boolean {
    const mayBeSample = (stmt: Statement) => {
      const database = DATABASE_AT.get(stmt);
      return database === undefined || database === SAMPLE_DATABASE;
    };
    for (const target of this.targetsByName.get(name) ?? []) if (target.sites.some((s) => mayBeSample(s.stmt))) return true;
    // (Asked only for the few SAMPLE tables read in SAMPLE scripts: a walk over the versions is cheap.)
    const keysFromReader: string[][] = [];
    for (const table of this.allVersions()) {
      for (const fk of table.foreignKeys) if (fk.file === reader && splitKey(fk.parentKey)[1] === name) keysFromReader.push(fk.constraint.parentColumns);
    }
    for (const table of this.allVersions()) {
      if (table.name !== name || !table.definition || !mayBeSample(table.definition.stmt)) continue;
      if (keysFromReader.some((columns) => !hasKey(table, columns))) continue;
      return true;
    }
    return false;
  }

  /** The version of the same table that states its storage, for one that states none (TableVersions.storedTwin). */
  storedTwin(table: TableInfo): TableInfo | undefined {
    return this.versions.storedTwin(table);
  }

  /** Every version of every table: the last of each name (`tables`) and the earlier ones. */
  allVersions(): Iterable<TableInfo> {
    return this.versions.all();
  }

  private finish(bulkRowThreshold: number): void {
    this.bulkRowThreshold = bulkRowThreshold;
    this.attributeInserts();
    // Every insert target, of the tables' last versions and of earlier ones: the passes below add none.
    const targets = [...this.insertTargets.values(), ...this.versions.versionTargets()];
    const settling: SettleContext = {
      targets,
      table: (name, stmt) => this.table(name, stmt),
      targetOfTable: (table) => this.targetOfTable(table),
      knownRows: (target) => this.knownRows(target),
      stockSampleRows: (name, stmt, file) => this.stockSampleRows(name, stmt, file),
      tableLoopOf: this.tableLoopOf,
      loadedNames: this.loadedNames,
    };
    settleCopiesOfReferenceData(settling, bulkRowThreshold);
    settleLoopsOverKnownRows(settling);
    this.tableLoopOf = new Map();
    for (const target of targets) {
      if (target.valuesRows >= bulkRowThreshold) target.bulkReasons.push(valuesRowsReason(target.valuesRows));
    }
    for (const table of this.allVersions()) {
      const target = this.targetOfTable(table);
      if (!target) continue;
      const uses = target.bulkReasons.length > 0 ? this.bulkSequenceUses : this.sequenceUses;
      for (const trigger of table.triggers) {
        if (trigger.stmt.events.includes('insert')) forEachStatement(trigger.stmt.body, (inner) => this.recordSequenceUses(inner, uses));
      }
    }
    // The INSERTs that draw from a sequence into a bulk target (their own loop, or the target's other inserts).
    for (const target of targets) {
      if (target.bulkReasons.length > 0) for (const site of target.sites) this.recordSequenceUses(site.stmt, this.bulkSequenceUses);
    }
    // An INSERT trigger on a bulk target makes the tables its body inserts into bulk targets too
    // (an UPDATE or DELETE trigger does not fire for the inserted rows).
    this.nested = true;
    for (const table of [...this.allVersions()]) {
      if (!this.isBulkTarget(table)) continue;
      for (const trigger of table.triggers) {
        if (!trigger.stmt.events.includes('insert')) continue;
        forEachStatement(trigger.stmt.body, (inner) => {
          if (inner.kind !== 'insert') return;
          const key = this.keyOf(inner.target, inner);
          const site = this.addInsertSite(key, trigger.file, inner, true, [`fed by trigger ${trigger.name} on ${table.key}`]);
          // A name with versions: the rows go to the last one (the version a trigger's INSERT meets is not known).
          const fed = this.tableByKey(key);
          if (fed && this.versions.has(fed.key)) this.versions.attributeTo(fed, site);
        });
      }
    }
  }
}

/** Whether `uses` (sequence name -> schemas) holds the sequence `key`: either side may not know the schema (unqualified, no SET SCHEMA), then the name decides. */
function usesName(uses: ReadonlyMap<string, ReadonlySet<string>>, key: string): boolean {
  const [schema, name] = splitKey(key);
  const schemas = uses.get(name);
  return schemas !== undefined && (schema === '' || schemas.has(schema) || schemas.has(''));
}

/** What SchemaModel.factsOf keeps per key. */
interface KeyFacts {
  target: InsertTargetInfo | undefined;
  referenceData?: boolean;
  /** writesSeedRows: whether the literal rows into the table are few. */
  seedRows?: boolean;
}

/** Whether a routine or block holds an INSERT. */
function insertsIn(stmt: Statement): boolean {
  let found = false;
  forEachStatement([stmt], (inner) => {
    if (inner.kind === 'insert') found = true;
  });
  return found;
}

/**
 * The same index, trigger or constraint defined again (variant or upgrade scripts, CREATE OR REPLACE) is one
 * object: the later definition replaces the earlier one instead of being counted twice.
 */
function replaceNamed<T extends { name: string }>(items: readonly T[], item: T): T[] {
  // Names already in each list, so that adding the n-th index to one table is not a scan of the n-1 before.
  let names = namesIn.get(items);
  if (!names) namesIn.set(items, (names = new Set(items.map((i) => i.name))));
  const out = names.has(item.name) ? items.filter((i) => i.name !== item.name) : (items as T[]);
  if (out !== items) namesIn.set(out, (names = new Set(out.map((i) => i.name))));
  out.push(item);
  names.add(item.name);
  return out;
}
const namesIn = new WeakMap<readonly { name: string }[], Set<string>>();
const NO_TABLES: ReadonlySet<TableInfo> = new Set();

function splitKey(key: string): [string, string] {
  const dot = key.lastIndexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}

/** Why a z/OS LOAD makes a bulk target: `LOAD RESUME YES SHRLEVEL CHANGE LOG NO`. */
function zosLoadReason(load: ZosLoadOptions): string {
  const words = ['LOAD', load.replace ? 'REPLACE' : `RESUME ${load.resume ? 'YES' : 'NO'}`, `SHRLEVEL ${load.shrlevel.toUpperCase()}`];
  if (!load.log) words.push('LOG NO');
  return `${words.join(' ')} (utility)`;
}

/**
 * The database a script statement runs in (after CONNECT TO db in its file), filled as files are folded.
 * A fact of the statement's own file, so one map serves every model built from it.
 */
const DATABASE_AT = new WeakMap<Statement, string>();

/**
 * False when both statements run in known databases and these differ (scripts that CONNECT TO different
 * databases): the DDL of one does not apply to the inserts of the other. True otherwise (unknown: assume one).
 */
export function sameDatabase(a: Statement, b: Statement): boolean {
  const x = DATABASE_AT.get(a);
  const y = DATABASE_AT.get(b);
  return x === undefined || y === undefined || x === y;
}

export type KeyConstraintInfo = TableInfo['keyConstraints'][number];

/**
 * The primary key and unique constraints among `keys` that add an index of their own beside `indexes`: a key whose
 * columns (in any order) are those of a unique index is enforced by that index, one entry per row, not two. Db2 for
 * z/OS requires that index (CREATE UNIQUE INDEX before the key is complete), and Db2 LUW uses a matching unique
 * index that exists (SQL0598W) instead of creating another.
 */
export function keysWithOwnIndex<K extends KeyConstraintInfo>(keys: readonly K[], indexes: readonly IndexInfo[]): K[] {
  const unique = indexes.filter((i) => i.unique).map((i) => columnSet(i.stmt.columns.map((c) => c.name)));
  if (unique.length === 0) return [...keys];
  return keys.filter((k) => {
    const columns = k.constraint.kind === 'primaryKey' || k.constraint.kind === 'unique' ? columnSet(k.constraint.columns) : undefined;
    return columns === undefined || !unique.includes(columns);
  });
}

/**
 * Whether `columns` (a foreign key's parent columns; none: the primary key) are a primary or unique key of
 * `table`, or the columns of a unique index on it: what a foreign key to it must reference.
 */
function hasKey(table: TableInfo, columns: readonly string[]): boolean {
  if (columns.length === 0) return table.keyConstraints.some((k) => k.constraint.kind === 'primaryKey');
  const wanted = columnSet(columns);
  return (
    table.keyConstraints.some((k) => (k.constraint.kind === 'primaryKey' || k.constraint.kind === 'unique') && columnSet(k.constraint.columns) === wanted) ||
    table.indexes.some((i) => i.unique && columnSet(i.stmt.columns.map((c) => c.name)) === wanted)
  );
}

/** A set of column names as one comparable string (order does not matter). */
function columnSet(columns: readonly string[]): string {
  return [...columns].map((c) => c.toUpperCase()).sort().join('\0');
}

/** Display form of a table key: SCHEMA.NAME or NAME. */
export function displayKey(key: string): string {
  return key.startsWith('.') ? key.slice(1) : key;
}

/** Why an INSERT makes its table a bulk target: from a query, or run in a loop. */
function insertReasons(fromQuery: boolean, inLoop: boolean): string[] {
  const reasons: string[] = [];
  if (fromQuery) reasons.push(INSERT_SELECT);
  if (inLoop) reasons.push(IN_LOOP);
  return reasons;
}
