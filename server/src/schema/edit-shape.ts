// What an edit of a script must leave alone for the workspace's schema to be kept (SchemaModel.withFileReplaced,
// issue 15: typing in a VALUES list must not fold the schema of a 2,000-file workspace again): the statements
// the schema reads, and the shape of each insert-like one.
import type { InsertStatement, QualifiedName, Span, Statement, ValuesRow } from '../sql/ast';
import type { FileModel } from '../engine/types';
import { childStatements } from '../sql/walk';
import { valueKindBit, valuesKindBits, valuesRowCount } from '../sql/grammar/values';
import { positionalValueCount } from './written-columns';

/**
 * The statements of a flat script that the schema reads, in order. Undefined for files with nested statements
 * (routines, blocks, triggers) or host-language code.
 */
export function schemaStatements(file: FileModel): Statement[] | undefined {
  if (file.source.language !== 'sql' || file.code?.executions.some((e) => !e.script)) return undefined;
  // Found once per statement list: an edit compares the previous model's with the new one's.
  if (SCHEMA_STATEMENTS.has(file.statements)) return SCHEMA_STATEMENTS.get(file.statements);
  let out: Statement[] | undefined = [];
  for (const stmt of file.statements) {
    if (stmt.kind === 'createTrigger' || childStatements(stmt).length > 0) {
      out = undefined;
      break;
    }
    if (SCHEMA_KINDS.has(stmt.kind)) out.push(stmt);
  }
  SCHEMA_STATEMENTS.set(file.statements, out);
  return out;
}

const SCHEMA_STATEMENTS = new WeakMap<readonly Statement[], Statement[] | undefined>();

/** Statement kinds addStatement reads (and CONNECT, which places statements in a database). */
const SCHEMA_KINDS: ReadonlySet<Statement['kind']> = new Set<Statement['kind']>([
  'insert', 'merge', 'import', 'ingest', 'lockTable', 'setSchema', 'connect', 'createTable', 'alterTable', 'createIndex',
  'createSequence', 'alterSequence', 'createTablespace', 'load', 'declareTable', 'updateDbCfg',
]);

/**
 * What the schema takes from an insert-like statement it only counts; undefined for DDL, SET SCHEMA, CONNECT…
 * (those must stay the same object for the schema to be kept).
 */
export function shapeOf(stmt: Statement): string | undefined {
  const name = (n: QualifiedName) => `${n.schema ?? ''}.${n.name}`;
  switch (stmt.kind) {
    case 'insert': {
      const written = writtenRows(stmt.source);
      // A query's tables decide whether it copies reference data or loads (SchemaModel.settleCopiesOfReferenceData).
      const from = written ? 'written' : `query ${stmt.source.kind === 'select' ? stmt.source.tables.map(name).join(',') : ''}`;
      // The columns it names, or without them how many values it gives, decide which versions of the table it fills
      // (TableVersions.attribute).
      return `insert ${name(stmt.target)} (${stmt.columns.join(',') || (positionalValueCount(stmt) ?? '')}) ${from} ${written?.count ?? 0} ${written?.literal ?? false} ${stmt.sequences.map(name).join(',')}`;
    }
    case 'merge':
      return `merge ${name(stmt.target)} ${stmt.hasInsert} ${!!stmt.sourceValues}`;
    case 'import':
      return `import ${name(stmt.table)}`;
    case 'ingest':
      return `ingest ${name(stmt.table)} ${stmt.operation}`;
    case 'lockTable':
      return `lock ${name(stmt.table)} ${stmt.mode}`;
    default:
      return undefined;
  }
}

/**
 * The rows an INSERT spells out (a VALUES list, or a SELECT of constants from SYSIBM.SYSDUMMY1), and whether they
 * are literals (no parameter marker or host variable); undefined when its rows come from a query.
 */
export function writtenRows(source: InsertStatement['source']): { count: number; literal: boolean } | undefined {
  if (source.kind === 'values') return { count: valuesRowCount(source), literal: withoutParameters(source) };
  return source.constantRows ? { count: source.constantRows.count, literal: !source.constantRows.parameters } : undefined;
}

const PARAMETER_BITS = valueKindBit('marker') | valueKindBit('host');

/** VALUES rows with no parameter marker or host variable: literal rows, written into the script. */
function withoutParameters(source: { kind: 'values'; rows: ValuesRow[]; span: Span }): boolean {
  return (valuesKindBits(source) & PARAMETER_BITS) === 0;
}
