// Which columns of its table an insert-like statement may give a value: the column lists of INSERT, MERGE (its
// INSERTs', and the columns its UPDATEs set) and IMPORT, the values in them that are only NULL (or DEFAULT), and
// for an INSERT or a MERGE's INSERT without a column list, the value at each column's place. Read from the parsed statement when a rule asks
// (SchemaModel.insertsWriting), never stored: an edit that keeps the schema swaps the statement of a site.
import type { ColumnDef, Statement } from '../sql/ast';
import type { TableInfo } from './schema';
import { columnKindBits, MISSING_VALUE_BIT, valueKindBit, valuesKindBits, valuesWidth } from '../sql/grammar/values';
import { partitionPoint } from '../engine/sorted';

/**
 * How a statement fills a column of its table: `value`, a value that may be one (a marker, an expression, a
 * column of a query, a row of a file); `default`, the column's default (left out of the column list, or DEFAULT
 * given); `null`, NULL written out (in every row).
 */
export type ColumnFill = 'value' | 'default' | 'null';

/**
 * Where a column stands for an insert that names no columns. Db2 gives the values to the table's columns in their
 * order (CREATE TABLE's, then those ALTER TABLE … ADD COLUMN appends), leaving IMPLICITLY HIDDEN columns out (they
 * get their default): `at` (0-based) among the `width` columns that take values, or `hidden`.
 */
export type ColumnPlace = { at: number; width: number } | 'hidden';

/**
 * The places of the columns `names` of `table` (ColumnPlace), in one pass over its columns; undefined for a name
 * none has, and for all when the table's columns are not known in order (no CREATE TABLE in the files: a table only
 * altered or declared; LIKE; AS (query)). A name two columns have: 'hidden' if either is, else the last one's place.
 */
export function columnPlaces(table: Pick<TableInfo, 'definition' | 'columns'> | undefined, names: readonly string[]): (ColumnPlace | undefined)[] {
  if (!table?.definition) return names.map(() => undefined);
  const at = new Map<string, number>();
  let width = 0;
  for (const column of table.columns) {
    if (column.implicitlyHidden) at.set(column.name, -1);
    else if (at.get(column.name) !== -1) at.set(column.name, width);
    if (!column.implicitlyHidden) width++;
  }
  return names.map((name) => {
    const place = at.get(name);
    return place === undefined ? undefined : place < 0 ? 'hidden' : { at: place, width };
  });
}

/** Column lists at least this long are indexed once: indexOf on a list of 1,000 names for each of them was a million steps. */
const INDEXED_LIST = 16;
const listIndexes = new WeakMap<readonly string[], Map<string, number>>();

/**
 * The place of `name` in a statement's column list (its first, as indexOf), or -1. A long list is indexed the first
 * time it is asked (the parser shares one array between statements with the same list, and never changes it).
 */
function placeInList(list: readonly string[], name: string): number {
  if (list.length < INDEXED_LIST) return list.indexOf(name);
  let index = listIndexes.get(list);
  if (!index) {
    index = new Map();
    for (let i = list.length - 1; i >= 0; i--) index.set(list[i], i);
    listIndexes.set(list, index);
  }
  return index.get(name) ?? -1;
}

/** How many columns of `table` take the values of an INSERT without a column list: all but the implicitly hidden. */
export function valueColumnCount(table: Pick<TableInfo, 'columns'>): number {
  let count = 0;
  for (const column of table.columns) if (!column.implicitlyHidden) count++;
  return count;
}

/**
 * How many values an INSERT without a column list gives each row (every row of its VALUES alike, or every branch of
 * its select list, no `*`); undefined when not known. Db2 takes it only when it is the table's number of columns
 * that take values (ColumnPlace.width).
 */
export function positionalValueCount(stmt: Statement): number | undefined {
  if (stmt.kind !== 'insert' || stmt.columns.length > 0 || stmt.parseError) return undefined;
  return stmt.source.kind === 'select' ? stmt.source.itemCount : valuesWidth(stmt.source);
}

const NULL_BIT = valueKindBit('null');
const DEFAULT_BIT = valueKindBit('default');

/**
 * How `stmt` fills the column `name` of its target (a MERGE: its INSERTs, and its UPDATEs that set the column).
 * Without a column list an INSERT (or a MERGE's INSERT) fills it
 * with the value at its `place` (columnPlaces): NULL or DEFAULT there in every row, or NULL at that place of the
 * select list in every branch, is no value; an IMPLICITLY HIDDEN column gets its default. When the place is not
 * known, or the statement gives another number of values than the table has columns (an SQL error, or a version
 * of the table the files do not show), any value may go there: `value`. A query without NULL at the column's
 * place, IMPORT without an insert-column list, INGEST and LOAD (whose fields are not read): `value`.
 */
export function columnFill(stmt: Statement, name: string, place?: ColumnPlace): ColumnFill {
  switch (stmt.kind) {
    case 'insert': {
      if (stmt.columns.length === 0) {
        if (place === 'hidden') return 'default';
        // Rows not read to the end, or another number of values than the table takes: any value may go there.
        if (place === undefined || positionalValueCount(stmt) !== place.width) return 'value';
        const source = stmt.source;
        if (source.kind === 'select') return isNullItem(source.nullItems, place.at) ? 'null' : 'value';
        return valuesFill(source, place.at);
      }
      const at = placeInList(stmt.columns, name);
      if (at < 0) return 'default';
      // Rows not read to the end: any of them may hold a value there.
      if (stmt.parseError) return 'value';
      const source = stmt.source;
      if (source.kind === 'select') return isNullItem(source.nullItems, at) ? 'null' : 'value';
      return valuesFill(source, at);
    }
    case 'merge': {
      if (!stmt.inserts || stmt.inserts.length === 0) return 'value';
      // Each WHEN NOT MATCHED THEN INSERT may run: a value in any of them is a value. So is one that a WHEN MATCHED
      // THEN UPDATE SET gives it: the rows the MERGE matches get it written, as those it inserts do (an UPDATE that
      // leaves the column out changes nothing there).
      let fill: ColumnFill = 'null';
      for (const update of stmt.updates ?? []) {
        const at = placeInList(update.columns, name);
        if (at < 0) continue;
        const one = fillOf(valueKindBit(update.values[at]));
        if (one === 'value') return 'value';
        if (one === 'default') fill = 'default';
      }
      for (const insert of stmt.inserts) {
        let one: ColumnFill;
        if (insert.columns.length === 0) {
          // No column list: the values in the table's column order (as for an INSERT); not read, any value.
          if (place === 'hidden') one = 'default';
          else one = place !== undefined && insert.values.length === place.width ? fillOf(valueKindBit(insert.values[place.at])) : 'value';
        } else {
          const at = placeInList(insert.columns, name);
          one = at < 0 ? 'default' : at < insert.values.length ? fillOf(valueKindBit(insert.values[at])) : 'value';
        }
        if (one === 'value') return 'value';
        if (one === 'default') fill = 'default';
      }
      return fill;
    }
    case 'import':
      return !stmt.columns || placeInList(stmt.columns, name) >= 0 ? 'value' : 'default';
    default:
      return 'value';
  }
}

/** Whether `at` is among a select's NULL items (InsertStatement source.nullItems, in increasing order): found by halving. */
function isNullItem(items: readonly number[] | undefined, at: number): boolean {
  if (!items) return false;
  return items[partitionPoint(items, (item) => item < at)] === at;
}

/**
 * How a VALUES list fills the column at `at` of its rows. A list with no NULL or DEFAULT anywhere fills every
 * column with a value (fillOf of any column's bits): known from the list's kinds without reading its rows, which
 * took most of keyNeverInserted's time (every foreign key column, every insert into the table).
 */
function valuesFill(source: Parameters<typeof columnKindBits>[0], at: number): ColumnFill {
  if ((valuesKindBits(source) & (NULL_BIT | DEFAULT_BIT)) === 0) return 'value';
  return fillOf(columnKindBits(source, at));
}

/** The fill of kind bits (columnKindBits) of a column's values: only NULL and DEFAULT are no value. */
function fillOf(bits: number): ColumnFill {
  // No row (a VALUES list not read), a row without a value there, or any other kind: a value.
  if (bits === 0 || (bits & MISSING_VALUE_BIT) !== 0 || (bits & ~(NULL_BIT | DEFAULT_BIT)) !== 0) return 'value';
  return (bits & DEFAULT_BIT) !== 0 ? 'default' : 'null';
}

/**
 * Whether a row that takes the column's default gets a value: a DEFAULT clause other than DEFAULT NULL (WITH
 * DEFAULT alone is the type's default: an empty string, zero, the current date). No DEFAULT clause: NULL (and a
 * NOT NULL column without one makes the insert fail).
 */
export function hasValueDefault(column: ColumnDef): boolean {
  return column.defaultValue !== undefined && !column.defaultNull;
}

/**
 * Whether `stmt` may give the column a value (columnFill, `place` its place for an insert without a column list):
 * for `default`, when its default is one, or Db2 generates the value (an identity, GENERATED … AS). A name alone
 * stands for a column whose definition is unknown.
 */
export function mayWriteColumn(stmt: Statement, column: ColumnDef | string, place?: ColumnPlace): boolean {
  // A column known by name alone (its definition not in the files): its default is not known, taken as none.
  if (typeof column === 'string') return columnFill(stmt, column, place) === 'value';
  const fill = columnFill(stmt, column.name, place);
  return fill === 'value' || (fill === 'default' && (hasValueDefault(column) || column.identity !== undefined || column.generatedExpression !== undefined));
}

/**
 * What columnFill reads of a statement beyond its target and column list, as text: the fills of an INSERT's
 * columns (or, without a column list, of each place of its rows, and how many values they hold) when a VALUES list
 * holds NULL or DEFAULT, a SELECT's NULL items and its number of items, a MERGE's INSERTs and UPDATEs, an IMPORT's
 * insert-column list. Part of what a linted file gives schema files' findings (schemaContribution): typing `NULL`
 * in place of a marker can take a LOB column's finding away.
 */
export function fillShape(stmt: Statement): string {
  switch (stmt.kind) {
    case 'insert': {
      const source = stmt.source;
      if (source.kind === 'select') return source.nullItems ? ` null ${source.nullItems.join(',')} of ${source.itemCount ?? '*'}` : '';
      // (Most VALUES lists hold neither: nothing to add, nothing read per column.)
      if ((valuesKindBits(source) & (NULL_BIT | DEFAULT_BIT)) === 0) return '';
      let out = ' fills ';
      if (stmt.columns.length > 0) {
        for (const column of stmt.columns) out += columnFill(stmt, column)[0];
        return out;
      }
      // No column list: the fill at each place, for the table's columns in order (columnPlaces).
      const width = valuesWidth(source);
      if (width === undefined) return ' fills ragged';
      for (let at = 0; at < width; at++) out += columnFill(stmt, '', { at, width })[0];
      return out;
    }
    case 'merge':
      return (stmt.inserts ?? []).map((i) => ` (${i.columns.join(',')}) ${i.values.join(',')}`).join(';') + (stmt.updates ?? []).map((u) => ` set (${u.columns.join(',')}) ${u.values.join(',')}`).join(';');
    case 'import':
      return stmt.columns ? ` (${stmt.columns.join(',')})` : '';
    default:
      return '';
  }
}
