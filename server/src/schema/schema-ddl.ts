// DdlFolding, the layer of SchemaModel (schema.ts) that folds DDL into the tables of SchemaLookup: CREATE TABLE
// (a new version when the name is created again), ALTER TABLE with what DROP COLUMN and dropped keys take along,
// columns, identities, keys and foreign keys; and the helpers on keys the schema shares (hasKey, columnSet).
// schema-inserts.ts walks the statements and calls it for each DDL statement.
import type { ColumnDef, CreateTableStatement, QualifiedName, Statement, TableConstraint } from '../sql/ast';
import { SchemaLookup, splitKey } from './schema-lookup';
import { DB2_DEFAULT_CACHE } from './schema-types';
import type { TableInfo, ForeignKeyInfo } from './schema-types';

/**
 * ALTER TABLE … DROP COLUMN: the column goes, and with it (CASCADE, Db2 LUW's default) the indexes, primary and
 * unique keys and foreign keys that include it, and the identity when it was that column. With RESTRICT, Db2
 * refuses the statement while any of those depends on the column, or a foreign key (of another table, or of this
 * one) references a key that includes it (`referencing`, SchemaModel.keysReferencing): nothing changes. Returns
 * whether the column went. (Check constraints are only counted here, not read, so they stay.)
 */
function dropColumn(table: TableInfo, name: string, restrict: boolean, referencing: number): boolean {
  const at = table.columns.findIndex((c) => c.name === name);
  if (at < 0) return false;
  const indexes = table.indexes.filter((ix) => !ix.stmt.columns.some((c) => c.name === name) && !ix.stmt.include.includes(name));
  const keyConstraints = table.keyConstraints.filter((k) => !keyColumns(k.constraint).includes(name));
  const foreignKeys = table.foreignKeys.filter((fk) => !fk.constraint.columns.includes(name));
  const dependents = table.indexes.length - indexes.length + (table.keyConstraints.length - keyConstraints.length) + (table.foreignKeys.length - foreignKeys.length) + referencing;
  if (restrict && dependents > 0) return false;
  table.columns = table.columns.filter((_, i) => i !== at);
  table.indexes = indexes;
  table.keyConstraints = keyConstraints;
  table.foreignKeys = foreignKeys;
  if (table.identity?.column.name === name) delete table.identity;
  return true;
}

/**
 * Whether the foreign key `fk`, one on `parent` (SchemaModel.isParentOf), references a key that includes the column
 * `name`: its parent columns name it, or it names none (it references the primary key) and the primary key of `parent` includes it.
 * Db2 takes a foreign key's parent columns only when they are a primary or unique key of the parent (SQL0573N),
 * so a key including the column is dropped with it, and with that key every foreign key referencing it.
 */
function referencesColumn(fk: ForeignKeyInfo, parent: TableInfo, name: string): boolean {
  const columns = fk.constraint.parentColumns;
  if (columns.length > 0) return columns.includes(name);
  return parent.keyConstraints.some((k) => k.constraint.kind === 'primaryKey' && k.constraint.columns.includes(name));
}

/** The columns of a primary key or unique constraint (none for other kinds). */
function keyColumns(constraint: TableConstraint): readonly string[] {
  return constraint.kind === 'primaryKey' || constraint.kind === 'unique' ? constraint.columns : [];
}

export abstract class DdlFolding extends SchemaLookup {
  protected noteDdl(file: string, table: TableInfo, stmt: Statement): TableInfo {
    let tables = this.ddlTables.get(file);
    if (!tables) this.ddlTables.set(file, (tables = new Set()));
    tables.add(table);
    return this.versions.noteDdl(table, stmt);
  }

  private newTable(key: string): TableInfo {
    const [schema, name] = splitKey(key);
    const table: TableInfo = {
      key,
      schema: schema || undefined,
      name,
      columns: [],
      indexes: [],
      keyConstraints: [],
      foreignKeys: [],
      checks: 0,
      triggers: [],
      mqts: [],
      append: false,
      notLoggedInitially: false,
    };
    this.tables.set(key, table);
    const list = this.byName.get(name) ?? [];
    list.push(key);
    this.byName.set(name, list);
    return table;
  }

  /** The table a statement refers to; created bare when its DDL is not in the analysed paths. */
  protected ensureTable(name: QualifiedName, stmt: Statement): TableInfo {
    return this.table(name, stmt) ?? this.newTable(this.keyOf(name, stmt));
  }

  protected addTable(file: string, stmt: CreateTableStatement): void {
    const key = this.keyOf(stmt.table, stmt);
    const known = this.tables.get(key);
    // Created again (variant or upgrade scripts drop and re-create): a new version, and the old one stays for the
    // statements and inserts of its own time. (A table only indexed or altered so far gets its definition.)
    const table = this.noteDdl(file, known?.definition ? this.versions.newVersion(known) : (known ?? this.newTable(key)), stmt);
    this.versions.created(key, table);
    Object.assign(table, {
      definition: { file, stmt },
      columns: [...stmt.columns],
      tablespace: stmt.tablespace.data,
      append: stmt.append ?? false,
      locksize: stmt.locksize,
      pctfree: stmt.pctfree,
      notLoggedInitially: stmt.notLoggedInitially,
      mqt: stmt.mqt,
    });
    // The columns are the statement's own (no duplicates to look for): only identities need noting.
    for (const column of stmt.columns) this.noteIdentity(table, file, stmt, column);
    for (const constraint of stmt.constraints) this.addConstraint(table, file, stmt, constraint);
    if (stmt.mqt) {
      for (const base of stmt.mqt.baseTables) {
        this.ensureTable(base, stmt).mqts.push({ file, stmt, key, refresh: stmt.mqt.refresh });
      }
    }
  }

  private addColumn(table: TableInfo, file: string, stmt: Statement, column: ColumnDef): void {
    if (!table.columns.includes(column)) table.columns.push(column);
    this.noteIdentity(table, file, stmt, column);
  }

  private noteIdentity(table: TableInfo, file: string, stmt: Statement, column: ColumnDef): void {
    if (column.identity) {
      const cache = column.identity.cache;
      table.identity = { file, stmt, column, cache: cache ?? DB2_DEFAULT_CACHE, explicit: cache !== undefined };
    }
  }

  private addConstraint(table: TableInfo, file: string, stmt: Statement, constraint: TableConstraint): void {
    switch (constraint.kind) {
      case 'foreignKey': {
        const parentKey = this.keyOf(constraint.parent, stmt);
        table.foreignKeys = replaceNamed(table.foreignKeys, { file, stmt, constraint, enforced: constraint.enforced, parentKey, name: constraint.name ?? `(${constraint.columns.join(',')})->${parentKey}` });
        break;
      }
      case 'primaryKey':
      case 'unique':
        table.keyConstraints = replaceNamed(table.keyConstraints, { file, stmt, constraint, name: constraint.name ?? `${constraint.kind}(${constraint.columns.join(',')})` });
        break;
      case 'check':
        if (constraint.enforced) table.checks++;
        break;
    }
  }

  protected alterTable(file: string, stmt: Extract<Statement, { kind: 'alterTable' }>): void {
    const table = this.versions.changeable(file, this.ensureTable(stmt.table, stmt), stmt.actions.some((a) => a.kind === 'dropConstraint' || a.kind === 'dropColumn'));
    this.noteDdl(file, table, stmt);
    for (const action of stmt.actions) {
      switch (action.kind) {
        case 'addColumn':
          this.addColumn(table, file, stmt, action.column);
          break;
        case 'addConstraint':
          this.addConstraint(table, file, stmt, action.constraint);
          break;
        case 'dropConstraint': {
          const name = action.name;
          const before = table.foreignKeys.length;
          table.foreignKeys = table.foreignKeys.filter((fk) => fk.constraint.name !== name);
          if (before === table.foreignKeys.length && action.constraintKind !== 'foreignKey' && action.constraintKind !== 'check') {
            // DROP PRIMARY KEY names no constraint: it drops the primary key, whatever it was called.
            const going = table.keyConstraints.filter((k) => (action.constraintKind === 'primaryKey' ? k.constraint.kind === 'primaryKey' : k.constraint.name === name));
            for (const key of going) this.dropReferencesTo(file, table, key.constraint);
            table.keyConstraints = table.keyConstraints.filter((k) => !going.includes(k));
          }
          break;
        }
        case 'dropColumn':
          this.dropColumn(file, table, action.column, action.restrict);
          break;
        case 'alterConstraintEnforcement':
          table.foreignKeys = table.foreignKeys.map((fk) => (fk.constraint.name === action.name ? { ...fk, enforced: action.enforced, file, stmt } : fk));
          break;
        case 'alterColumnIdentity':
          if (table.identity && table.identity.column.name === action.column && action.cache !== undefined) {
            table.identity = { ...table.identity, file, stmt, cache: action.cache, explicit: true };
          }
          break;
        case 'append':
          table.append = action.on;
          break;
        case 'locksize':
          table.locksize = action.locksize;
          break;
        case 'pctfree':
          table.pctfree = action.value;
          break;
        case 'activateNotLoggedInitially':
          table.notLoggedInitially = true;
          break;
        case 'refresh':
          break;
        case 'other':
          break;
      }
    }
  }

  /**
   * ALTER TABLE ... DROP COLUMN (dropColumn) and the foreign keys it takes from other tables: a primary or unique key
   * that includes the column goes (CASCADE, Db2 LUW's default), and with it every referential constraint whose
   * parent key it is, in any table. Those tables lose the foreign keys: a table of another file's definition in a
   * copy, as for any DDL of this file that drops something (TableVersions.changeable). With RESTRICT, such a
   * constraint is one more dependent: Db2 refuses the statement (SQLSTATE 42893), nothing changes anywhere.
   */
  private dropColumn(file: string, table: TableInfo, name: string, restrict: boolean): void {
    // The foreign keys on a key that goes, by table (this one among them when it references itself), read before
    // dropColumn takes the primary key away; those whose own columns include it are this table's own dependents.
    const going = new Map<TableInfo, ForeignKeyInfo[]>();
    let referencing = 0;
    for (const child of this.tables.values()) {
      const keys = child.foreignKeys.filter((fk) => this.isParentOf(table, fk) && referencesColumn(fk, table, name));
      if (keys.length === 0) continue;
      going.set(child, keys);
      referencing += child === table ? keys.filter((fk) => !fk.constraint.columns.includes(name)).length : keys.length;
    }
    if (!dropColumn(table, name, restrict, referencing)) return;
    for (const [child, keys] of going) {
      const version = child === table ? table : this.versions.changeable(file, child, true);
      version.foreignKeys = version.foreignKeys.filter((fk) => !keys.includes(fk));
    }
  }

  /**
   * DROP PRIMARY KEY, DROP UNIQUE c and DROP CONSTRAINT c of a primary or unique key: Db2 drops with the key every
   * referential constraint whose parent key it is, in any table (a table of another file's definition in a copy,
   * as in dropColumn). Called before the key leaves `parent`: a foreign key naming no parent columns takes the
   * primary key.
   */
  private dropReferencesTo(file: string, parent: TableInfo, key: TableConstraint): void {
    const columns = keyColumns(key);
    const sameColumns = (named: readonly string[]) => named.length === columns.length && named.every((c) => columns.includes(c));
    const references = (fk: ForeignKeyInfo) => this.isParentOf(parent, fk) && (fk.constraint.parentColumns.length > 0 ? sameColumns(fk.constraint.parentColumns) : key.kind === 'primaryKey');
    for (const child of [...this.tables.values()]) {
      if (!child.foreignKeys.some(references)) continue;
      const version = child === parent ? parent : this.versions.changeable(file, child, true);
      version.foreignKeys = version.foreignKeys.filter((fk) => !references(fk));
    }
  }

  /**
   * Whether `fk` references `parent`: by its key, or by a name that resolves to it (an unqualified REFERENCES P
   * of a script without SET SCHEMA and the one table P, created or altered as S.P), as the rules look parents up.
   */
  private isParentOf(parent: TableInfo, fk: ForeignKeyInfo): boolean {
    return fk.parentKey === parent.key || this.tableByKey(fk.parentKey) === parent;
  }
}

/**
 * The same index, trigger or constraint defined again (variant or upgrade scripts, CREATE OR REPLACE) is one
 * object: the later definition replaces the earlier one instead of being counted twice.
 */
export function replaceNamed<T extends { name: string }>(items: readonly T[], item: T): T[] {
  // Names already in each list, so that adding the n-th index to one table is not a scan of the n-1 before.
  let names = namesIn.get(items);
  if (!names) namesIn.set(items, (names = new Set(items.map((i) => i.name))));
  const out = names.has(item.name) ? items.filter((i) => i.name !== item.name) : (items as T[]);
  if (out !== items) namesIn.set(out, (names = new Set(out.map((i) => i.name))));
  out.push(item);
  names.add(item.name);
  return out;
}
const namesIn = new WeakMap<readonly { name: string }[], Set<string>>();

/**
 * Whether `columns` (a foreign key's parent columns; none: the primary key) are a primary or unique key of
 * `table`, or the columns of a unique index on it: what a foreign key to it must reference.
 */
export function hasKey(table: TableInfo, columns: readonly string[]): boolean {
  if (columns.length === 0) return table.keyConstraints.some((k) => k.constraint.kind === 'primaryKey');
  const wanted = columnSet(columns);
  return (
    table.keyConstraints.some((k) => (k.constraint.kind === 'primaryKey' || k.constraint.kind === 'unique') && columnSet(k.constraint.columns) === wanted) ||
    table.indexes.some((i) => i.unique && columnSet(i.stmt.columns.map((c) => c.name)) === wanted)
  );
}

/** A set of column names as one comparable string (order does not matter). */
export function columnSet(columns: readonly string[]): string {
  return [...columns].map((c) => c.toUpperCase()).sort().join('\0');
}
