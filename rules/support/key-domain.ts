// The most rows a table can hold at one time when a primary key or unique constraint is over columns with few
// possible values: CardDemo's TRANSACTION_TYPE is keyed by a CHAR(2) code, so it never holds more than 65,536
// rows of at most 52 bytes, about 3.3 MB, which stay in any buffer pool. Not a rule: the build only registers
// rules/<id>.ts.
import type { ColumnDef } from '../../server/src/sql/ast';
import type { TableInfo } from '../../server/src/schema/schema';

/** Past this many possible key values, the bound says nothing a rule can use. */
const SMALL_KEY_DOMAIN = 65_536;

/** How many values a key column of this type can take, or undefined when that is more than SMALL_KEY_DOMAIN. */
function columnDomain(column: ColumnDef): number | undefined {
  const { name, length } = column.type;
  // A byte per character at most 256 values each (a fixed CHAR(n) is padded: n characters; VARCHAR adds the shorter).
  if ((name === 'CHAR' || name === 'CHARACTER') && length !== undefined && length <= 2) return 256 ** length;
  if (name === 'VARCHAR' && length !== undefined && length <= 2) return length === 1 ? 257 : 65_793;
  if (name === 'SMALLINT') return 65_536;
  if (name === 'BOOLEAN') return 2;
  return undefined;
}

/** Bytes a value of this type takes at most in a row, or undefined when unbounded or unknown (LOB, XML, a UDT). */
function columnBytes(column: ColumnDef): number | undefined {
  const { name, length, isLob, isLong, isXml } = column.type;
  if (isLob || isLong || isXml) return undefined;
  const fixed = FIXED_BYTES[name];
  if (fixed !== undefined) return fixed;
  if (length === undefined) return undefined;
  if (name === 'DECIMAL' || name === 'DEC' || name === 'NUMERIC') return Math.floor(length / 2) + 1;
  if (name.includes('GRAPHIC')) return 2 * length;
  return name.includes('CHAR') || name.includes('BINARY') ? length : undefined;
}

const FIXED_BYTES: Record<string, number> = { SMALLINT: 2, INTEGER: 4, INT: 4, BIGINT: 8, REAL: 4, DOUBLE: 8, FLOAT: 8, DATE: 4, TIME: 3, TIMESTAMP: 10, BOOLEAN: 1 };

/** Above this much data a table may outgrow a buffer pool (4,096 pages of 4 KB). */
const SMALL_TABLE_BYTES = 16 * 2 ** 20;

/**
 * The rows and bytes `table` can hold at most, when its key bounds it (keyBoundRows) and every column's width is
 * known, and that is at most SMALL_TABLE_BYTES: a table whose pages a buffer pool keeps. Undefined otherwise.
 */
export function smallByKey(table: TableInfo): { rows: number; key: string[]; bytes: number } | undefined {
  const bound = keyBoundRows(table);
  if (!bound) return undefined;
  let width = 0;
  for (const column of table.columns) {
    const bytes = columnBytes(column);
    if (bytes === undefined) return undefined;
    width += bytes;
  }
  const bytes = bound.rows * width;
  return bytes <= SMALL_TABLE_BYTES ? { ...bound, bytes } : undefined;
}

/**
 * The most rows `table` can hold at once, from its primary key or a unique constraint or index over columns of few
 * possible values (the smallest such bound), or undefined when no key bounds it to SMALL_KEY_DOMAIN rows or fewer.
 * A nullable column adds the NULL value.
 */
function keyBoundRows(table: TableInfo): { rows: number; key: string[] } | undefined {
  const keys = [
    ...table.keyConstraints.flatMap((k) => (k.constraint.kind === 'primaryKey' || k.constraint.kind === 'unique' ? [k.constraint.columns] : [])),
    ...table.indexes.filter((ix) => ix.unique).map((ix) => ix.stmt.columns.map((c) => c.name)),
  ];
  if (keys.length === 0) return undefined;
  // By name, once: a key's columns looked up in the column list made a wide table's many keys quadratic.
  const columns = new Map<string, ColumnDef>();
  for (const c of table.columns) if (!columns.has(c.name)) columns.set(c.name, c);
  let best: { rows: number; key: string[] } | undefined;
  for (const names of keys) {
    let rows = 1;
    for (const name of names) {
      const column = columns.get(name);
      const domain = column && columnDomain(column);
      if (domain === undefined) {
        rows = Infinity;
        break;
      }
      rows *= domain + (column!.notNull ? 0 : 1);
    }
    if (names.length > 0 && rows <= SMALL_KEY_DOMAIN && (best === undefined || rows < best.rows)) best = { rows, key: names };
  }
  return best;
}

/** "about 3.4 MB", "about 0.1 MB": a table's size at most, as a message says it. */
export function megabytes(bytes: number): string {
  return `about ${Math.max(0.1, bytes / 2 ** 20).toFixed(1)} MB`;
}
