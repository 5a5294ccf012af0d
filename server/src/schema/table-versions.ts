import type { Statement } from '../sql/ast';
import type { InsertSite, InsertTargetInfo, TableInfo } from './schema';
import { positionalValueCount, valueColumnCount } from './written-columns';

/**
 * The versions of tables defined more than once in one repository (upgrade steps, create and migration scripts):
 * each CREATE TABLE of a name already defined starts a new TableInfo, and the schema's `tables` map holds the
 * last. Flowable's upgrade steps create a table and copy rows into it under keys and indexes that its install
 * and uninstall scripts, folded later, replace or drop: without versions those rows met the wrong definition.
 *
 * For names defined once (nearly all) nothing here is filled, and every question is one empty-map check.
 */
export class TableVersions {
  /** The earlier versions of each name with versions, in the order they were made. */
  private readonly older = new Map<string, TableInfo[]>();
  /** The DDL statements that built each version, noted while folding (`at` is filled from it for names with versions). */
  private readonly ddlOf = new Map<TableInfo, Statement[]>();
  /** For names with versions: the version each of their DDL statements and inserts concerns. */
  private readonly at = new Map<Statement, TableInfo>();
  /** For names with versions: each version's own insert target (the inserts attributed to it). */
  private readonly targets = new Map<TableInfo, InsertTargetInfo>();
  /** Versions the file being folded created, by key: its later inserts fill those. */
  private own = new Map<string, TableInfo>();
  /** Versions whose own file inserts into them after creating them (InsertSite.version). */
  private readonly filledByCreator = new Set<TableInfo>();
  /** Copies changeable() made, with the file they were made for (its further DDL changes the same copy). */
  private readonly forkedBy = new WeakMap<TableInfo, string>();

  /** `tables`: the schema's map of the last version of each name, which newVersion() updates. */
  constructor(private readonly tables: Map<string, TableInfo>) {}

  /** The version of the table named by `key` that `stmt` concerns, when the name has versions and it is not the last. */
  versionAt(stmt: Statement, key: string): TableInfo | undefined {
    if (this.at.size === 0) return undefined;
    const version = this.at.get(stmt);
    return version && version.key === key ? version : undefined;
  }

  /** Whether the name `key` was defined more than once. */
  has(key: string): boolean {
    return this.older.has(key);
  }

  /** The inserts that fill this version (only for names with versions: see has()). */
  targetOf(table: TableInfo): InsertTargetInfo | undefined {
    return this.targets.get(table);
  }

  /** Notes that `stmt` built this version of `table`. */
  noteDdl(table: TableInfo, stmt: Statement): TableInfo {
    const ddl = this.ddlOf.get(table);
    if (ddl) ddl.push(stmt);
    else this.ddlOf.set(table, [stmt]);
    return table;
  }

  /** A new file is folded: the versions it creates are its own. */
  startFile(): void {
    this.own = new Map();
  }

  /** The file being folded created this version of `key`. */
  created(key: string, table: TableInfo): void {
    this.own.set(key, table);
  }

  /** The version of `key` the file being folded created, now filled by an insert of that file. */
  filledHere(key: string): TableInfo | undefined {
    const own = this.own.size > 0 ? this.own.get(key) : undefined;
    if (own) this.filledByCreator.add(own);
    return own;
  }

  /**
   * The version of `table` that DDL of `file` changes. Another file's DDL changes a copy when the table's own file
   * filled it (a migration step that creates a table and copies rows into it: an install script's keys, or an
   * uninstall script's drops, folded after it in no particular order, are not in force for those rows), or when it
   * drops something (an uninstall script); otherwise the table itself (a schema, then its indexes in another file).
   */
  changeable(file: string, table: TableInfo, drops = false): TableInfo {
    const creator = table.definition?.file;
    if (creator === undefined || creator === file || this.forkedBy.get(table) === file) return table;
    if (!drops && !this.filledByCreator.has(table)) return table;
    const fork = this.newVersion(table, true);
    this.forkedBy.set(fork, file);
    return fork;
  }

  /** A new version of `table` (created again, or changed by another file: see changeable); `tables` holds it from now. */
  newVersion(table: TableInfo, copy = false): TableInfo {
    const older = this.older.get(table.key);
    if (older) older.push(table);
    else this.older.set(table.key, [table]);
    const fresh: TableInfo = copy
      ? { ...table, indexes: [...table.indexes], keyConstraints: [...table.keyConstraints], foreignKeys: [...table.foreignKeys], triggers: [...table.triggers], mqts: [...table.mqts], columns: [...table.columns] }
      : { key: table.key, schema: table.schema, name: table.name, columns: [], indexes: [], keyConstraints: [], foreignKeys: [], checks: 0, triggers: [], mqts: [...table.mqts], append: false, notLoggedInitially: false };
    this.tables.set(table.key, fresh);
    return fresh;
  }

  /**
   * Which version of its table each insert of `target` fills; `latest` is the table's last version. The one its own
   * file created before it (a migration's CREATE TABLE, then its INSERT ... SELECT); else every version whose
   * columns it fits (application code fills the table whichever of a repository's definitions made it: a z/OS deck
   * and a plain DDL file of the same table). An INSERT naming a column a definition lacks fills another version of
   * the table (Spring Batch's 2.2 migration copies rows into 2.2 columns that its v5.2 script defines otherwise).
   * Returns the sites kept: one that fits no definition is dropped (Db2 would reject it, so it is no evidence).
   */
  attribute(target: InsertTargetInfo, latest: TableInfo): readonly InsertSite[] {
    const older = this.older.get(latest.key);
    if (!older) {
      const fits = (site: InsertSite): boolean => site.version !== undefined || fitsColumns(site.stmt, latest);
      // A name defined once, all of whose inserts fit (the common case): nothing to copy.
      return target.sites.every(fits) ? target.sites : target.sites.filter(fits);
    }
    const candidates = [latest, ...[...older].reverse()];
    return target.sites.filter((site) => {
      const versions = site.version ? [site.version] : byValueCount(site.stmt, candidates.filter((v) => fitsColumns(site.stmt, v)));
      if (versions.length === 0) return false;
      for (const version of versions) this.attributeTo(version, site);
      // Its table, for the rules that ask about the insert: its own version, else the last one it fits (or the
      // definition of the same columns that says where and how the table is stored: see storedVersion).
      const seen = site.version ? versions[0] : storedVersion(versions);
      if (seen !== latest) this.at.set(site.stmt, seen);
      return true;
    });
  }

  /**
   * For a version that states no storage, the other version of its name with the same columns that does (carddemo's
   * plain ddl/XTRNTYPE.ddl beside the z/OS deck DB2CREAT.ctl): one table, described twice. Undefined otherwise.
   */
  storedTwin(table: TableInfo): TableInfo | undefined {
    const older = this.older.get(table.key);
    if (!older || statesStorage(table)) return undefined;
    const latest = this.tables.get(table.key);
    const others = [...(latest ? [latest] : []), ...[...older].reverse()].filter((v) => v !== table);
    return others.find((v) => statesStorage(v) && sameColumns(v, table));
  }

  /** After attribute(): the DDL of a name with versions concerns the version it built (the last one is the schema's answer anyway). */
  noteDdlVersions(): void {
    for (const older of this.older.values()) for (const version of older) for (const stmt of this.ddlOf.get(version) ?? []) this.at.set(stmt, version);
  }

  /** Adds `site` to the insert target of `version` (a name with versions: see targetOf). */
  attributeTo(version: TableInfo, site: InsertSite): void {
    let target = this.targets.get(version);
    if (!target) this.targets.set(version, (target = sitesTarget(version.key, [])));
    target.sites.push(site);
    target.valuesRows += site.valuesRows;
    for (const reason of site.bulkReasons) if (!target.bulkReasons.includes(reason)) target.bulkReasons.push(reason);
  }

  /** The insert targets of the versions (names with versions only). */
  versionTargets(): Iterable<InsertTargetInfo> {
    return this.targets.values();
  }

  /** Every version of every table: the last of each name (`tables`) and the earlier ones. */
  *all(): Iterable<TableInfo> {
    yield* this.tables.values();
    for (const older of this.older.values()) yield* older;
  }

  /**
   * An edit replaced statements by others of the same shape (SchemaModel.withFileReplaced): an insert into an
   * earlier version of its table fills that version still. The map is shared with the model before the edit,
   * which never asks about the new statements.
   */
  carry(replaced: ReadonlyMap<Statement, Statement>): void {
    if (this.at.size === 0) return;
    for (const [o, n] of replaced) {
      const version = this.at.get(o);
      if (version) this.at.set(n, version);
    }
  }
}

/** An insert target made of `sites`: their bulk reasons and written rows gathered. */
export function sitesTarget(key: string, sites: InsertSite[]): InsertTargetInfo {
  return { key, sites, bulkReasons: [...new Set(sites.flatMap((s) => s.bulkReasons))], valuesRows: sites.reduce((sum, s) => sum + s.valuesRows, 0) };
}

/**
 * Of the versions an insert from elsewhere fits (latest first), the one whose storage the rules should see: the
 * latest, unless it states no physical attributes and an earlier one of the same columns does. A z/OS deck
 * (CREATE TABLESPACE ... LOCKSIZE TABLE, CREATE TABLE ... IN db.ts) beside a plain DDL file of the same table
 * (carddemo's DB2CREAT.ctl and TRNTYPE.ddl) describes one table: the plain file only leaves the storage out,
 * it does not say the table has the defaults (row locks, no APPEND).
 */
function storedVersion(versions: readonly TableInfo[]): TableInfo {
  const [latest] = versions;
  if (versions.length === 1 || statesStorage(latest)) return latest;
  return versions.find((v) => statesStorage(v) && sameColumns(v, latest)) ?? latest;
}

/** Whether a version says anything about how its table is stored: a table space, locking, APPEND, free space, organization. */
function statesStorage(table: TableInfo): boolean {
  const stmt = table.definition?.stmt;
  if (table.tablespace !== undefined || table.locksize !== undefined || table.append || table.pctfree !== undefined || table.notLoggedInitially) return true;
  if (!stmt) return false;
  const { index, long } = stmt.tablespace;
  return index !== undefined || long !== undefined || stmt.organizeBy !== undefined || stmt.distributeBy !== undefined || stmt.partitionBy !== undefined;
}

/** Whether two versions have columns of the same names (both known). */
function sameColumns(a: TableInfo, b: TableInfo): boolean {
  if (a.columns.length === 0 || a.columns.length !== b.columns.length) return false;
  const names = new Set(a.columns.map((c) => c.name));
  return b.columns.every((c) => names.has(c.name));
}

/**
 * Of the versions an INSERT without a column list may fill, those with as many columns as it gives values (the
 * others would reject it); all of them when none has, or when the count is not known: an ALTER TABLE … ADD COLUMN
 * after the insert, which the versions' columns include, must not lose the insert its table.
 */
function byValueCount(stmt: Statement, versions: TableInfo[]): TableInfo[] {
  if (versions.length < 2) return versions;
  const values = positionalValueCount(stmt);
  if (values === undefined) return versions;
  const fitting = versions.filter((v) => v.definition !== undefined && valueColumnCount(v) === values);
  return fitting.length > 0 ? fitting : versions;
}

/** Whether the columns an INSERT names are all columns of `table` (true when either is not known). */
function fitsColumns(stmt: Statement, table: TableInfo): boolean {
  if (stmt.kind !== 'insert' || stmt.columns.length === 0 || table.columns.length === 0) return true;
  let names = COLUMN_NAMES.get(table);
  if (!names) COLUMN_NAMES.set(table, (names = new Set(table.columns.map((c) => c.name))));
  return stmt.columns.every((c) => names!.has(c));
}

/** Column names of each table version, made when the schema is finished (its columns no longer change). */
const COLUMN_NAMES = new WeakMap<TableInfo, Set<string>>();
