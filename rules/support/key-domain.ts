// The most rows a table can hold at one time when a primary key or unique constraint is over columns with few
// possible values: CardDemo's TRANSACTION_TYPE is keyed by a CHAR(2) code, so it never holds more than 65,536
// rows, a few hundred pages that stay in any buffer pool. Not a rule: the build only registers rules/<id>.ts.
import type { ColumnDef } from '../../server/src/sql/ast';
import type { TableInfo } from '../../server/src/schema/schema';

/** Past this many possible key values, the bound says nothing a rule can use. */
export const SMALL_KEY_DOMAIN = 65_536;

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

/**
 * The most rows `table` can hold at once, from its primary key or a unique constraint or index over columns of few
 * possible values (the smallest such bound), or undefined when no key bounds it to SMALL_KEY_DOMAIN rows or fewer.
 * A nullable column adds the NULL value.
 */
export function keyBoundRows(table: TableInfo): { rows: number; key: string[] } | undefined {
  const keys = [
    ...table.keyConstraints.flatMap((k) => (k.constraint.kind === 'primaryKey' || k.constraint.kind === 'unique' ? [k.constraint.columns] : [])),
    ...table.indexes.filter((ix) => ix.unique).map((ix) => ix.stmt.columns.map((c) => c.name)),
  ];
  let best: { rows: number; key: string[] } | undefined;
  for (const names of keys) {
    let rows = 1;
    for (const name of names) {
      const column = table.columns.find((c) => c.name === name);
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
