// The workspace schema model: all DDL of the analysed files folded in file order, ALTERs applied,
// SET SCHEMA resolved, plus what is inserted where. Rules ask it questions; it never reads text.
// SchemaModel is built in layers, one module each: schema-lookup.ts (what is defined, and name resolution),
// schema-ddl.ts (folding DDL), schema-inserts.ts (walking the files, folding inserts); this module builds it,
// finishes it, carries it over an edit and answers the rules' questions about inserts.
import type { ColumnDef, QualifiedName, Statement } from '../sql/ast';
import type { FileModel } from '../engine/types';
import { forEachStatement } from '../sql/walk';
import { reparsedRange } from '../sql/incremental';
import { schemaStatements, shapeOf } from './edit-shape';
import { sitesTarget } from './table-versions';
import { columnPlaces, mayWriteColumn } from './written-columns';
import { settleCopiesOfReferenceData, settleLoopsOverKnownRows, type SettleContext } from './settle';
import { DATABASE_AT } from './schema-lookup';
import { columnSet } from './schema-ddl';
import { InsertFolding } from './schema-inserts';
import { BULK_ROW_THRESHOLD, valuesRowsReason } from './schema-types';
import type { IndexInfo, TableInfo, InsertSite, InsertTargetInfo, SchemaOptions } from './schema-types';

// The model's shapes live in schema-types.ts; rules and the engine import them from here, with SchemaModel.
export * from './schema-types';

export class SchemaModel extends InsertFolding {
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
    // A loop, not every/some over a closure made per site: keyNeverInserted asks this of every insert into a table.
    const writes = (site: InsertSite): boolean => {
      for (let k = 0; k < columns.length; k++) {
        if (mayWriteColumn(site.stmt, columns[k], places[k]) !== every) return !every;
      }
      return every;
    };
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
    // The columns not yet found written are kept at the front of `open` (compacted in place: a new array per insert
    // was most of what lob-column allocated on a script of 30,000 INSERTs).
    const written = new Array<boolean>(columns.length).fill(false);
    const open = columns.map((_, k) => k);
    let openCount = open.length;
    const sites = target.sites;
    for (let s = 0; s < sites.length && openCount > 0; s++) {
      let kept = 0;
      for (let o = 0; o < openCount; o++) {
        const k = open[o];
        if (mayWriteColumn(sites[s].stmt, columns[k], places[k])) written[k] = true;
        else open[kept++] = k;
      }
      openCount = kept;
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

/** What SchemaModel.factsOf keeps per key. */
interface KeyFacts {
  target: InsertTargetInfo | undefined;
  referenceData?: boolean;
  /** writesSeedRows: whether the literal rows into the table are few. */
  seedRows?: boolean;
}

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

/** Display form of a table key: SCHEMA.NAME or NAME. */
export function displayKey(key: string): string {
  return key.startsWith('.') ? key.slice(1) : key;
}
