// InsertFolding, the layer of SchemaModel (schema.ts) that walks each file's statements in order (addFile,
// addStatement: SET SCHEMA, CONNECT, the DDL folded by schema-ddl.ts, sequences, DB CFG) and records what is
// inserted where: the insert sites and targets with their bulk reasons and written rows, the sequences that feed
// inserts, and which version of a table each insert fills. SchemaModel.finish settles them once all are folded.
import type { QualifiedName, Statement, ZosLoadOptions } from '../sql/ast';
import type { FileModel } from '../engine/types';
import { forEachStatement, isSplicedName } from '../sql/walk';
import { writtenRows } from './edit-shape';
import { sitesTarget } from './table-versions';
import { statementsInBulkLoops } from '../code-model/bulk-loops';
import type { LoopInfo } from '../code-model/types';
import { SAMPLE_DATABASE, sampleTableRows } from './sample-database';
import { DATABASE_AT, splitKey } from './schema-lookup';
import { DdlFolding, hasKey, replaceNamed } from './schema-ddl';
import { DB2_DEFAULT_CACHE, IN_LOOP, INSERT_SELECT, NO_REASONS } from './schema-types';
import type { InsertSite, TableInfo } from './schema-types';

export abstract class InsertFolding extends DdlFolding {
  /** Sequence name -> schemas ('' when unqualified and no SET SCHEMA) of NEXT VALUE FOR uses in inserts. */
  protected readonly sequenceUses = new Map<string, Set<string>>();
  /** The same, for the uses that feed bulk inserts (isSequenceUsedByBulkInserts). */
  protected readonly bulkSequenceUses = new Map<string, Set<string>>();
  /** Statements of the current file whose text has values spliced in (not literals written by hand). */
  private splicedStatements = new Set<Statement>();
  /** INSERTs in a routine's FOR loop over one table (LoopInfo.rowsOf), for settle.ts's settleLoopsOverKnownRows; emptied by finish. */
  protected tableLoopOf = new Map<Statement, LoopInfo>();
  /** Names (without schema) of the tables a LOAD fills: rows no INSERT spells out. */
  protected readonly loadedNames = new Set<string>();
  /** The current file is a script (see addFile). */
  private scriptFile = true;
  /** The statement being added is in a routine, block or trigger body (InsertSite.nested). */
  protected nested = false;

  protected addFile(file: FileModel): void {
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

  protected addInsertSite(key: string, file: string, stmt: Statement, repeated: boolean, reasons: readonly string[], valuesRows = 0, literalRows?: number, version?: TableInfo): InsertSite {
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

  protected recordSequenceUses(stmt: Statement, into = this.sequenceUses): void {
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
  protected attributeInserts(): void {
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
  protected stockSampleRows(name: QualifiedName, stmt: Statement, file: string): number | undefined {
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
}

/** Whether `uses` (sequence name -> schemas) holds the sequence `key`: either side may not know the schema (unqualified, no SET SCHEMA), then the name decides. */
function usesName(uses: ReadonlyMap<string, ReadonlySet<string>>, key: string): boolean {
  const [schema, name] = splitKey(key);
  const schemas = uses.get(name);
  return schemas !== undefined && (schema === '' || schemas.has(schema) || schemas.has(''));
}

/** Whether a routine or block holds an INSERT. */
function insertsIn(stmt: Statement): boolean {
  let found = false;
  forEachStatement([stmt], (inner) => {
    if (inner.kind === 'insert') found = true;
  });
  return found;
}

/** Why a z/OS LOAD makes a bulk target: `LOAD RESUME YES SHRLEVEL CHANGE LOG NO`. */
function zosLoadReason(load: ZosLoadOptions): string {
  const words = ['LOAD', load.replace ? 'REPLACE' : `RESUME ${load.resume ? 'YES' : 'NO'}`, `SHRLEVEL ${load.shrlevel.toUpperCase()}`];
  if (!load.log) words.push('LOG NO');
  return `${words.join(' ')} (utility)`;
}

/** Why an INSERT makes its table a bulk target: from a query, or run in a loop. */
function insertReasons(fromQuery: boolean, inLoop: boolean): string[] {
  const reasons: string[] = [];
  if (fromQuery) reasons.push(INSERT_SELECT);
  if (inLoop) reasons.push(IN_LOOP);
  return reasons;
}
