// Passes SchemaModel.finish runs once every file is folded: inserts that looked like loads are settled as the few
// rows they really write (a copy of reference data, a routine's loop over a table of known rows). Each pass
// rewrites the sites it settles and rebuilds the targets that hold them (sitesTarget).
import type { QualifiedName, Statement } from '../sql/ast';
import type { LoopInfo } from '../code-model/types';
import { isMetadataTable } from '../sql/metadata-tables';
import { writtenRows } from './edit-shape';
import { sitesTarget } from './table-versions';
import { IN_LOOP, INSERT_SELECT, NO_REASONS, type InsertSite, type InsertTargetInfo, type TableInfo } from './schema-types';

/** What the passes ask of the schema being finished. */
export interface SettleContext {
  /** Every insert target: those of the tables' last versions and those of earlier versions. */
  targets: readonly InsertTargetInfo[];
  table(name: QualifiedName, stmt: Statement): TableInfo | undefined;
  targetOfTable(table: TableInfo): InsertTargetInfo | undefined;
  knownRows(target: InsertTargetInfo): number | undefined;
  /** The rows of a SAMPLE database table that `stmt` of `file` reads as db2sampl made it (undefined: not such a table). */
  stockSampleRows(name: QualifiedName, stmt: Statement, file: string): number | undefined;
  /** INSERTs in a routine's FOR loop over one table (LoopInfo.rowsOf). */
  tableLoopOf: ReadonlyMap<Statement, LoopInfo>;
  /** Names (without schema) of the tables a LOAD fills: rows no INSERT spells out. */
  loadedNames: ReadonlySet<string>;
}

/**
 * An INSERT ... SELECT whose sources all hold reference data defined in the files (a few literal rows each, no
 * other inserts) copies those few rows, not a load: IBM's setupscript.db2 copies two rows from tables it seeds
 * with two or three, and cgtt.db2 copies the SAMPLE database's 42 employees (sample-database.ts). Its rows
 * count as written rows (towards the bulk threshold) instead, and it is reference data itself
 * (InsertSite.copiesReferenceData). One level: a source filled by a copy itself is not looked through. A copy of
 * catalog or replication configuration rows (sql/metadata-tables.ts: mig8zos.sql backs up the control rows of the
 * tables it replicates) is no load either; its rows are not counted.
 */
export function settleCopiesOfReferenceData(schema: SettleContext, threshold: number): void {
  const fewRows = (name: QualifiedName, stmt: Statement, file: string): number | undefined => {
    if (isMetadataTable(name)) return 0;
    const stock = schema.stockSampleRows(name, stmt, file);
    if (stock !== undefined) return stock;
    const table = schema.table(name, stmt);
    if (!table?.definition) return undefined;
    const target = schema.targetOfTable(table);
    if (!target || target.valuesRows >= threshold || !target.sites.every((s) => s.literalRows !== undefined)) return undefined;
    return target.valuesRows;
  };
  const settled = new Set<InsertSite>();
  for (const target of schema.targets) {
    for (const site of target.sites) {
      const stmt = site.stmt;
      if (stmt.kind !== 'insert' || stmt.source.kind !== 'select' || stmt.source.tables.length === 0) continue;
      if (site.bulkReasons.length !== 1 || site.bulkReasons[0] !== INSERT_SELECT) continue;
      let rows = 0;
      for (const source of stmt.source.tables) {
        const few = fewRows(source, stmt, site.file);
        if (few === undefined) {
          rows = threshold;
          break;
        }
        rows += few;
      }
      if (rows >= threshold) continue;
      site.bulkReasons = NO_REASONS;
      site.valuesRows = rows;
      site.copiesReferenceData = true;
      settled.add(site);
    }
  }
  if (settled.size === 0) return;
  // A site is in its table's target and in the target of the version it writes (a table defined in two
  // files): both are made again from their sites, whichever of them the loop met the site in first.
  for (const target of schema.targets) if (target.sites.some((s) => settled.has(s))) Object.assign(target, sitesTarget(target.key, target.sites));
}

/**
 * An INSERT of written rows on each pass of a routine's FOR loop over one table (LoopInfo.rowsOf) whose rows the
 * scripts spell out (knownRows) writes at most that many rows per run of the loop: all runs together when the
 * query deletes the rows it passes over (tbselcreate.db2's buy_company moves COMPANY_A's three rows into
 * COMPANY_B, however often it is called), else per run, counted by the script's CALLs. Those rows then count
 * as written rows (towards the bulk threshold) and as known rows (InsertSite.loopRows). Not when the table is
 * loaded, copied from a query (CREATE TABLE ... AS, an MQT) or not created by the files (rows of its own), or when
 * its rows are a loop's themselves (one level, as for copies).
 */
export function settleLoopsOverKnownRows(schema: SettleContext): void {
  if (schema.tableLoopOf.size === 0) return;
  // Each source table's known rows once: knownRows goes through all of its inserts, and 16,000 routines looping over
  // a table of 16,000 seed rows asked it for every routine's INSERT (0.7 s of the fold, quadratic).
  const known = new Map<InsertTargetInfo, number | undefined>();
  const knownRows = (target: InsertTargetInfo) => {
    if (!known.has(target)) known.set(target, schema.knownRows(target));
    return known.get(target);
  };
  const sourceRows = (loop: LoopInfo): number | undefined => {
    const from = loop.rowsOf!;
    const table = schema.table(from.table, from.at);
    const definition = table?.definition?.stmt;
    if (!table || !definition || definition.asQuery || table.mqt || schema.loadedNames.has(table.name)) return undefined;
    const target = schema.targetOfTable(table);
    const rows = target && knownRows(target);
    if (rows === undefined) return undefined;
    if (from.deletes) return rows;
    return from.runs === undefined ? undefined : rows * from.runs;
  };
  const settled: { target: InsertTargetInfo; site: InsertSite; rows: number }[] = [];
  for (const target of schema.targets) {
    for (const site of target.sites) {
      const loop = schema.tableLoopOf.get(site.stmt);
      // In a bulk loop, or one over sets (LoopInfo.chunked: a multi-row VALUES on each pass is no bulk reason).
      if (!loop || site.stmt.kind !== 'insert' || site.literalRows !== undefined) continue;
      if (site.bulkReasons.length > 1 || (site.bulkReasons.length === 1 && site.bulkReasons[0] !== IN_LOOP)) continue;
      const written = writtenRows(site.stmt.source);
      const passes = written ? sourceRows(loop) : undefined;
      if (written && passes !== undefined) settled.push({ target, site, rows: passes * written.count });
    }
  }
  // (Noted first, applied after: a table filled by such a loop is no known source for another.)
  for (const { site, rows } of settled) {
    site.bulkReasons = NO_REASONS;
    site.valuesRows = rows;
    site.loopRows = rows;
  }
  for (const target of new Set(settled.map((s) => s.target))) Object.assign(target, sitesTarget(target.key, target.sites));
}
