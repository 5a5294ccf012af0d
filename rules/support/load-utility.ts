// What keeps the LOAD utility from filling a table, for the rules that advise LOAD FROM a cursor. Db2 LUW's
// load utility does not load typed tables or tables with structured type columns ("Loading data",
// restrictions, Db2 11.5); the spatial types (ST_POINT, ST_MULTIPOLYGON …, in DB2GSE or SYSIBM) are such
// structured types. Distinct types are loaded as their source type, and other user-defined types are not
// known to be structured, so only the spatial family is named. Not a rule (see known-volume.ts).
import type { ColumnDef } from '../../server/src/sql/ast';
import type { TableInfo } from '../../server/src/schema/schema';

/** The spatial types of Db2 Spatial Extender / Spatial Analytics: ST_GEOMETRY, ST_POINT, ST_MULTIPOLYGON, … */
const SPATIAL_TYPE = /^ST_[A-Z0-9_]+$/;

/** The first column of `table` whose type LOAD cannot fill, or undefined when LOAD can fill the table. */
export function columnLoadRefuses(table: TableInfo | undefined): ColumnDef | undefined {
  return table?.columns.find((column) => SPATIAL_TYPE.test(column.type.name.toUpperCase()));
}

/** "column SHAPE is of the spatial type ST_POINT, a structured type, which LOAD does not fill". */
export function loadRefusalText(column: ColumnDef): string {
  return `column ${column.name} is of the spatial type ${column.type.name.toUpperCase()}, a structured type, and the load utility does not fill tables with structured type columns`;
}
