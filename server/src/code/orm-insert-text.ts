// The INSERT an ORM call sends, as text for the SQL front end (`INSERT INTO S.T VALUES (?)`), mapped onto the call:
// the code front ends read an ORM's inserts written without SQL text (SQLAlchemy, Django, JPA / Hibernate / Spring
// Data, MyBatis, jOOQ, Spring's SimpleJdbcInsert, Sequelize) into the same executions as SQL they find in strings.
import type { Node } from 'web-tree-sitter';
import type { HostText, TextPiece } from './sqltext';

/** A table the file names: its name and schema as the code writes it (SQLAlchemy's spelling in Python). */
export interface MappedTable {
  name: string;
  schema?: string;
  /**
   * Where the file writes the name (the file offset of each character, as the evaluated literal maps them:
   * `Table("orders", …)`, `__tablename__ = "orders"`), so that the INSERT's table name points there rather than at
   * the call (hover, a finding on the name); absent where no literal spells it (a derived default name).
   */
  nameAt?: readonly number[];
}

/** What an insert construct or an ORM call inserts into: a table the file shows, or the expression naming it. */
export type InsertTarget = { table: MappedTable } | { expression: Node } | { span: { start: number; end: number } };

/**
 * The INSERT SQLAlchemy sends for a target, mapped onto the call (`over`): `INSERT INTO S.T VALUES (?)`, or the
 * target expression spliced where the table's name goes when the file does not show the table. Lower-case names are
 * case-insensitive to SQLAlchemy (Db2 folds them to upper case); others it quotes. (`sql`: how another ORM's names
 * become SQL: java-jpa.ts hands them over already in SQL.)
 */
export function insertText(target: InsertTarget, over: Node, sql: (name: string) => string = sqlName): HostText {
  const start = over.startIndex;
  const last = Math.max(start, over.endIndex - 1);
  const piece = (text: string, from: number): TextPiece => {
    const offsets = new Array<number>(text.length);
    for (let i = 0; i < text.length; i++) offsets[i] = Math.min(from + i, last);
    return { kind: 'text', text, offsets };
  };
  const head = 'INSERT INTO ';
  const tail = ' VALUES (?)';
  if (!('table' in target)) {
    // (`span`: a class name written elsewhere than the call, as Java's declaration `Order o` of a persisted variable.)
    const span = 'span' in target ? target.span : { start: target.expression.startIndex, end: target.expression.endIndex };
    return { pieces: [piece(head, start), { kind: 'splice', span }, piece(tail, start + head.length)], kind: 'template', from: { start, end: over.endIndex } };
  }
  const { name, schema, nameAt } = target.table;
  const table = `${schema ? `${sql(schema)}.` : ''}${sql(name)}`;
  const quotedName = sql(name);
  // The table's name points where the file writes it (the schema, written apart if at all, at its first character:
  // one span covers both); else the whole text points at the call.
  if (!nameAt || nameAt.length !== name.length || name.length === 0 || quotedName.length - name.length !== (quotedName === name ? 0 : 2)) {
    return { pieces: [piece(`${head}${table}${tail}`, start)], kind: 'constant', from: { start, end: over.endIndex } };
  }
  const nameOffsets = quotedName === name ? [...nameAt] : [nameAt[0], ...nameAt, nameAt[nameAt.length - 1]];
  const offsets = [...new Array<number>(table.length - quotedName.length).fill(nameAt[0]), ...nameOffsets];
  return { pieces: [piece(head, start), { kind: 'text', text: table, offsets }, piece(tail, start + head.length)], kind: 'constant', from: { start, end: over.endIndex } };
}

/** A name as SQLAlchemy sends it: lower or upper case as is (Db2 folds it), else quoted. */
export function sqlName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) || /^[A-Z_][A-Z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}
