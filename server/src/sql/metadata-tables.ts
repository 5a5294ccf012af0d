// Tables whose rows describe the database rather than hold its data: the Db2 catalog (SYSCAT.TABLES,
// SYSIBM.SYSINDEXES...) and the configuration tables of SQL and Q Replication (ASN.IBMSNAP_REGISTER,
// IBMQREP_SUBS...). A row per table, index, grant or subscription: copying them (replication's migration scripts
// back up their control rows before an upgrade) moves a few hundred rows, not a load.
import type { QualifiedName } from './ast';

/** Schemas of the Db2 catalog, its statistics views, administrative views and the routines Db2 supplies. */
export const CATALOG_SCHEMAS = /^SYS(CAT|IBM|IBMADM|STAT|TOOLS|PROC|FUN)$/;

/** Schemas of the catalog's tables and views (QSYS2: Db2 for i's); the routine schemas hold no tables. */
const CATALOG_TABLE_SCHEMAS = /^(SYS(CAT|IBM|IBMADM|STAT)|QSYS2)$/;

/**
 * Replication's control tables are IBMSNAP_* (SQL Replication) and IBMQREP_* (Q Replication), in the capture or
 * apply schema the user chose (ASN by default). These ones grow with the work replicated (a row per captured unit
 * of work, per monitor interval, per trace message, per exception): they are data, not configuration.
 */
const GROWING_CONTROL_TABLES = /^IBM(SNAP|QREP)_\w*(UOW|MON|TRACE|TRAIL|ALERT|EXCEPTION|ADMINMSG|SPILL|DONEMSG|DELTOMB)/;

/** Whether `name` is a catalog table or view, or a replication configuration table (see above). */
export function isMetadataTable(name: QualifiedName): boolean {
  if (name.schema !== undefined && CATALOG_TABLE_SCHEMAS.test(name.schema)) return true;
  return /^IBM(SNAP|QREP)_/.test(name.name) && !GROWING_CONTROL_TABLES.test(name.name);
}

/** Whether every table `tables` names is the catalog's (a query over the catalog goes a table or index at a time). */
export function allCatalogTables(tables: readonly QualifiedName[]): boolean {
  return tables.length > 0 && tables.every((t) => t.schema !== undefined && CATALOG_SCHEMAS.test(t.schema));
}
