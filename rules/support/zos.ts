// Questions the Db2 for z/OS rules ask: where a table is stored (its CREATE TABLESPACE … IN db), and whether
// its rows arrive through the insert path (an INSERT, or LOAD … SHRLEVEL CHANGE, which inserts row by row) or
// through the LOAD utility's own path, which neither keeps cluster order nor uses free space as inserts do.
import type { CreateTablespaceStatement, ZosTablespaceOptions } from '../../server/src/sql/ast';
import type { InsertTargetInfo, Located, SchemaModel, TableInfo } from '../../server/src/schema/schema';
import { tablesBySpace } from './targets';

/** The z/OS table space a table is created in, when its CREATE TABLESPACE is among the analysed files. */
export function zosTablespaceOf(schema: SchemaModel, table: TableInfo): (Located<CreateTablespaceStatement> & { zos: ZosTablespaceOptions }) | undefined {
  if (!table.tablespace) return undefined;
  const found = schema.tablespaces.get(table.tablespace);
  const database = table.definition?.stmt.tablespace.database;
  if (!found?.stmt.zos) return undefined;
  if (database && found.stmt.zos.database && database !== found.stmt.zos.database) return undefined;
  return { ...found, zos: found.stmt.zos };
}

/**
 * The bulk reasons of a target that make it a batch insert target: rows through the insert path, many of them
 * (a loop, INSERT … SELECT, LOAD … SHRLEVEL CHANGE). A LOAD that is not SHRLEVEL CHANGE does not use the insert
 * path; a few literal INSERTs in a script (sample rows of an install job) are no batch.
 */
export function insertPathReasons(target: InsertTargetInfo): string[] {
  return target.bulkReasons.filter((r) => (!/^LOAD\b/.test(r) || /SHRLEVEL CHANGE/.test(r)) && !/^several INSERT statements|^multi-row VALUES/.test(r));
}

/** The clustering index of a z/OS table: the one with CLUSTER, else the first one created (by name: DDL may repeat it). */
export function isClusteringIndex(table: TableInfo, index: { cluster: boolean; index: { name: string } }): boolean {
  if (index.cluster) return true;
  return !table.indexes.some((i) => i.cluster) && table.indexes[0]?.name === index.index.name;
}

/**
 * Tables created in table space `name` (of database `database` when known), each name once: of a table defined
 * more than once, the version that receives inserts (a migration step's own copy), else the last.
 */
export function tablesIn(schema: SchemaModel, name: string, database?: string): TableInfo[] {
  const out = new Map<string, TableInfo>();
  for (const t of tablesBySpace(schema, 'data').get(name) ?? []) {
    if (database && t.definition?.stmt.tablespace.database && t.definition.stmt.tablespace.database !== database) continue;
    const known = out.get(t.key);
    if (!known || (!schema.isInsertTarget(known) && schema.isInsertTarget(t))) out.set(t.key, t);
  }
  return [...out.values()];
}
