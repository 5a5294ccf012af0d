// LOB and LONG columns on a table that receives inserts: their values bypass the buffer pool.
import type { Rule, RuleContext } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import type { ColumnDef, Statement } from '../server/src/sql/ast';
import type { InsertTargetInfo, SchemaModel, TableInfo } from '../server/src/schema/schema';
import { BASELINE_SECONDS, LOB_SECONDS } from './support/measurements';
import { knownVolume } from './support/known-volume';
import { columnsDefinedBy, inEffectForInserts, insertTargetFor, siteText, tableName } from './support/targets';
import { isFullyInlined } from '../server/src/schema/insert-costs';

const LobColumnRule: Rule = {
  meta: {
    id: 'lob-column',
    description: 'LOB or LONG column on a table that receives inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createTable', 'alterTable'] },
    evidence: ['Db2 INSERT tips, test 11', 'Db2 INSERT tips, test 91', "IBM's LOB I/O technote"],
    messages: {
      lob:
        'Column {column} of insert target {table} is {type}. Db2 does not keep LOB/LONG values in the buffer pool, so each inserted row writes them straight to disk (a direct write). Measured (Db2 INSERT tips, test 91): turning a CHAR(10) into CLOB(10) made 100,000 inserts take 286.5 s instead of 31.5 s (test 11), whatever the LOGGED/COMPACT options.{volume}{writers} {advice}{caching}.',
      partlyInline:
        'Column {column} of insert target {table} is {type} with INLINE LENGTH {inline}. Values longer than that are still written straight to disk for every row (direct write, Db2 INSERT tips, test 91: 286.5 s vs 31.5 s for 100,000 rows).{volume}{writers} Check that most values fit the inline length{caching}.',
      lobs:
        'Insert target {table} has {count} LOB/LONG columns: {columns}. Db2 does not keep LOB/LONG values in the buffer pool, so each inserted row writes each of them straight to disk (a direct write). Measured (Db2 INSERT tips, test 91): turning one CHAR(10) into CLOB(10) made 100,000 inserts take 286.5 s instead of 31.5 s (test 11), whatever the LOGGED/COMPACT options.{volume}{writers} {advice}{caching}.',
    },
  },
  check(context) {
    const { file, schema, report } = context;
    for (const stmt of statementsOf(file, 'createTable', 'alterTable')) {
      const table = schema.table(stmt.table, stmt);
      if (!table) continue;
      const lobs = columnsDefinedBy(stmt, table).filter((c) => c.type.isLob || c.type.isLong);
      if (lobs.length === 0) continue;
      const target = insertTargetFor(schema, table, { file: file.source.path, stmt });
      if (!target) continue;
      // Fully inlined: every value is stored in the row and goes through the buffer pool. A column no insert gives
      // a value (left out of every column list, NULL in every row) holds no LOB data: nothing is written directly.
      // (SchemaModel.writtenColumns: the same columns the cost summaries charge.)
      const reported = schema.writtenColumns(table, lobs.filter((c) => !isFullyInlined(c)), target);
      if (reported.length === 0) continue;
      // The inserts that write them: their rows pay the direct writes (a bulk copy that leaves the LOBs out does not).
      // Only a few literal rows (reference data), or only inserts that run before the DDL: as for a table filled so.
      const writers = schema.insertsWriting(target, reported, table)!;
      if (writers !== target && (schema.isReferenceData(writers) || !inEffectForInserts({ file: file.source.path, stmt }, writers))) continue;
      // Rows the scripts spell out: test 91's direct write per column and row (an upper bound with INLINE LENGTH).
      const volume = knownVolume(schema, writers, (LOB_SECONDS - BASELINE_SECONDS) * reported.length, reported.length > 1 ? `tests 91 and 11, for ${reported.length} columns` : 'tests 91 and 11');
      // A row per call or per run (a web request's document, a script's one image) pays the direct write once:
      // worth knowing, not a warning. A bulk target pays it for every row of the load.
      const maxSeverity = writers.bulkReasons.length > 0 ? volume.maxSeverity : ('information' as const);
      const writersText = writersSentence(context, target, writers, tableName(table), reported.length);
      const caching = cachingAdvice(schema, table, stmt);
      // One finding per statement: a table with several LOBs has one cause and one place to fix it, so one
      // paragraph naming each column (on the first) rather than the same paragraph once per column.
      const [first] = reported;
      if (reported.length === 1) {
        const inline = inlineOf(first);
        report({
          messageId: inline > 0 ? 'partlyInline' : 'lob',
          data: { column: first.name, table: tableName(table), type: typeText(first), inline, advice: adviceFor(first), caching, volume: volume.sentence, writers: writersText },
          stmt,
          span: first.type.span,
          maxSeverity,
        });
        continue;
      }
      report({
        messageId: 'lobs',
        data: {
          table: tableName(table),
          count: reported.length,
          columns: reported.map((c) => `${c.name} ${typeText(c)}${inlineOf(c) > 0 ? ` INLINE LENGTH ${inlineOf(c)}` : ''}`).join(', '),
          advice: adviceForMany(reported),
          caching,
          volume: volume.sentence,
          writers: writersText,
        },
        stmt,
        span: first.type.span,
        maxSeverity,
      });
    }
  },
};

/**
 * " Of the inserts into T, only the INSERT at load.sql:4 writes it.": when some inserts into the table leave the
 * columns out (or give them only NULL), which of them write them; nothing when every insert may.
 */
function writersSentence(context: RuleContext, target: InsertTargetInfo, writers: InsertTargetInfo, table: string, columns: number): string {
  if (writers === target) return '';
  const [first] = writers.sites;
  const where = siteText(context, first);
  const it = columns > 1 ? 'them' : 'it';
  if (writers.sites.length === 1) return where ? ` Of the inserts into ${table}, only ${where} writes ${it}.` : '';
  return ` Of the ${target.sites.length} inserts into ${table}, ${writers.sites.length} write ${it}${where ? ` (the first: ${where})` : ''}.`;
}

/** The longest VARCHAR or VARBINARY value (32K pages); a longer declared LOB cannot become one. */
const MAX_IN_ROW = 32672;

function inlineOf(column: ColumnDef): number {
  return column.inlineLength ?? 0;
}

/** CLOB(1M), LONG VARCHAR: the type as declared, its length as usually written. */
function typeText(column: ColumnDef): string {
  return column.type.name + (column.type.length !== undefined && column.type.isLob ? `(${sizeText(column.type.length)})` : '');
}

/** A LOB declared longer than any VARCHAR/VARBINARY: only INLINE LENGTH can bring (its short) values into the row. */
function tooLongForRow(column: ColumnDef): boolean {
  return column.type.length !== undefined && column.type.length > MAX_IN_ROW && !column.type.isLong;
}

/**
 * The advice of several columns, grouped where it is the same: which in-row type fits each column that can
 * have one, which columns only INLINE LENGTH can help, which inline lengths to check.
 */
function adviceForMany(columns: readonly ColumnDef[]): string {
  const sentences: string[] = [];
  const partly = columns.filter((c) => inlineOf(c) > 0);
  const tooLong = columns.filter((c) => inlineOf(c) === 0 && tooLongForRow(c));
  const long = columns.filter((c) => c.type.isLong);
  const fitting = columns.filter((c) => inlineOf(c) === 0 && !tooLongForRow(c) && !c.type.isLong);
  if (long.length > 0) sentences.push(longAdvice(long.map((c) => c.name), [...new Set(long.map((c) => shortTypeFor(c.type.name)))]));
  if (fitting.length > 0) {
    const byType = new Map<string, string[]>();
    // (Pushed, not spread into a new array per column: quadratic in a table's LOB columns.)
    for (const c of fitting) {
      const type = shortTypeFor(c.type.name);
      const names = byType.get(type);
      if (names) names.push(c.name);
      else byType.set(type, [c.name]);
    }
    const uses = [...byType].map(([type, names]) => `${type} for ${listText(names)}`).join(', ');
    sentences.push(`Use ${uses} when values fit a row (a larger page size may be needed), or INLINE LENGTH so short values live in the row and use the buffer pool`);
  }
  if (tooLong.length > 0) {
    const names = listText(tooLong.map((c) => `${c.name} (up to ${sizeText(c.type.length!)})`));
    sentences.push(`Values of ${names} cannot all live in a row (VARCHAR and VARBINARY hold 32,672 bytes at most): if most are short, INLINE LENGTH keeps those in the row and in the buffer pool, and only the long ones are written directly`);
  }
  if (partly.length > 0) {
    const names = listText(partly.map((c) => `${c.name} (${inlineOf(c)})`));
    sentences.push(`Values longer than the INLINE LENGTH of ${names} are still written directly: check that most values fit it`);
  }
  return sentences.join('. ');
}

/** "A", "A and B", "A, B and C". */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** What to do: an in-row type when values can fit a row, else INLINE LENGTH for the short ones. */
function adviceFor(column: ColumnDef): string {
  if (tooLongForRow(column)) {
    return `Values up to ${sizeText(column.type.length!)} cannot all live in a row (VARCHAR and VARBINARY hold 32,672 bytes at most): if most are short, INLINE LENGTH keeps those in the row and in the buffer pool, and only the long ones are written directly`;
  }
  if (column.type.isLong) return longAdvice([], [shortTypeFor(column.type.name)]);
  // Binary data (BLOB) goes in a binary string type; text (CLOB, DBCLOB) in VARCHAR/VARGRAPHIC.
  return `Use ${shortTypeFor(column.type.name)} when values fit a row (a larger page size may be needed), or INLINE LENGTH so short values live in the row and use the buffer pool`;
}

/**
 * LONG VARCHAR and LONG VARGRAPHIC take no INLINE LENGTH (only LOBs and structured types do) and are deprecated:
 * their values fit a VARCHAR or VARGRAPHIC (32,700 bytes at most against 32,672).
 */
function longAdvice(names: readonly string[], types: readonly string[]): string {
  const which = names.length > 0 ? ` for ${listText(names)}` : '';
  return `Use ${listText(types)}${which} (a larger page size may be needed): LONG types are deprecated and take no INLINE LENGTH`;
}

/** The in-row string type for a LOB/LONG column's values. */
function shortTypeFor(type: string): string {
  if (type === 'BLOB') return 'VARBINARY (or VARCHAR FOR BIT DATA)';
  if (type === 'DBCLOB' || type === 'LONG VARGRAPHIC') return 'VARGRAPHIC';
  return 'VARCHAR';
}

/** 1048576 → "1M", as the length is usually written. */
function sizeText(length: number): string {
  for (const [unit, size] of [['G', 1024 ** 3], ['M', 1024 ** 2], ['K', 1024]] as const) {
    if (length >= size && length % size === 0) return `${length / size}${unit}`;
  }
  return String(length);
}

/**
 * Seed 003: LOB data that is not inlined gets operating-system caching on SMS table spaces, but on DMS
 * and automatic-storage table spaces only when the table space has FILE SYSTEM CACHING.
 */
function cachingAdvice(schema: SchemaModel, table: TableInfo, stmt: Statement): string {
  const longIn = (stmt.kind === 'createTable' ? stmt.tablespace.long : undefined) ?? table.definition?.stmt.tablespace.long ?? table.tablespace;
  if (!longIn) return '';
  const ts = schema.tablespaces.get(longIn)?.stmt;
  if (!ts || ts.managedBy === 'system' || ts.fileSystemCaching === true) return '';
  return `; table space ${longIn} holds these values without FILE SYSTEM CACHING, so nothing caches the direct writes: give LOB data a table space (LONG IN) with FILE SYSTEM CACHING`;
}

export default LobColumnRule;
