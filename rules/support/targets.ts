// Shared questions the schema rules ask: is this DDL's table an insert (or bulk) target, and does
// the DDL take effect before the inserts that fill the table? Not a rule: the build only registers
// rules/<id>.ts files at the top level of rules/.
import type { ColumnDef, QualifiedName, Statement } from '../../server/src/sql/ast';
import type { MovedDdl, Report, RuleContext, StatementAt } from '../../server/src/engine/types';
import { displayKey, IN_LOOP, sameDatabase, type InsertSite, type InsertTargetInfo, type Located, type SchemaModel, type TableInfo } from '../../server/src/schema/schema';
import { isLiteralValues } from '../../server/src/code-model/facts';
import { laterMigrationStep } from './migrations';
import { statementsText } from '../../server/src/engine/merge';
import { countText } from '../../server/src/engine/count-text';
import { BASELINE_SECONDS, secsOf } from './measurements';
import { tickDeadline } from '../../server/src/engine/deadline';

/** Insert-like statements whose rows pay for a table's per-row work. */
export function isInsertLike(stmt: Statement): boolean {
  return stmt.kind === 'insert' || stmt.kind === 'import' || (stmt.kind === 'merge' && stmt.hasInsert);
}

/** The table of an insert-like statement, as written. */
export function insertTargetName(stmt: Statement): QualifiedName | undefined {
  switch (stmt.kind) {
    case 'insert':
    case 'merge':
      return stmt.target;
    case 'import':
      return stmt.table;
    default:
      return undefined;
  }
}

/**
 * The columns a CREATE TABLE (not an MQT's) or an ALTER TABLE … ADD COLUMN defines that `table` still has: a later
 * DROP COLUMN takes a column, its LOB storage and its generated expression away from the inserts.
 */
export function columnsDefinedBy(stmt: Statement, table: TableInfo): ColumnDef[] {
  const defined = stmt.kind === 'createTable' && !stmt.mqt ? stmt.columns : stmt.kind === 'alterTable' ? stmt.actions.flatMap((a) => (a.kind === 'addColumn' ? [a.column] : [])) : [];
  return defined.filter((c) => table.columns.includes(c));
}

/** File offset where a statement starts (statement spans are in the parsed SQL text). */
function fileStart(stmt: Statement): number {
  return stmt.origin.toFile(stmt.span.start);
}

/**
 * True when `ddl` is in force for at least one insert into `target`: it sits in another file (whose
 * order we cannot know, so we assume the schema comes first), or earlier in the same file.
 * DDL written after every insert of its file is the recommended pattern (build the index, add the
 * foreign key once the rows are in: seed 000, tests 16, 17, 36, 37) and costs the inserts nothing.
 */
export function inEffectForInserts(ddl: Located, target: InsertTargetInfo): boolean {
  return target.sites.some((site) => inEffectAt(ddl, site));
}

/** Why a target is a bulk target, for messages: "INSERT … SELECT; several INSERT statements in one script". */
export function bulkWhy(target: InsertTargetInfo): string {
  // One reason per kind ("multi-row VALUES (4 rows)" and "(3 rows)" are one kind), at most three.
  const byKind = new Map<string, string>();
  for (const reason of target.bulkReasons) {
    const kind = reason.replace(/ \(.*\)$/, '');
    if (!byKind.has(kind)) byKind.set(kind, reason);
  }
  const reasons = [...byKind.values()];
  return reasons.length > 3 ? `${reasons.slice(0, 3).join('; ')}; …` : reasons.join('; ');
}

export function tableName(table: TableInfo): string {
  return displayKey(table.key);
}

/** Bulk target the DDL statement's table is, with the DDL in force for its inserts; undefined otherwise. */
export function bulkTargetFor(schema: SchemaModel, table: TableInfo | undefined, ddl: Located): InsertTargetInfo | undefined {
  if (!table) return undefined;
  const target = schema.targetOfTable(table);
  if (!target || target.bulkReasons.length === 0) return undefined;
  return inEffectForInserts(ddl, target) ? target : undefined;
}

/**
 * Insert target (bulk or not) the DDL statement's table is, with the DDL in force for its inserts. A table
 * that receives only reference data (literal rows under bulkRowThreshold) is none: its costs go unnoticed.
 */
export function insertTargetFor(schema: SchemaModel, table: TableInfo | undefined, ddl: Located): InsertTargetInfo | undefined {
  if (!table) return undefined;
  const target = schema.targetOfTable(table);
  if (!target || target.sites.length === 0 || schema.isReferenceData(target)) return undefined;
  return inEffectForInserts(ddl, target) ? target : undefined;
}

/** Insert-target tables whose data, indexes or LOB data live in table space `name`. */
export function insertTargetsIn(schema: SchemaModel, name: string): TableInfo[] {
  // Any version of a table defined more than once (a migration step's own copy counts), each name once.
  const out = new Map<string, TableInfo>();
  for (const table of tablesBySpace(schema, 'any').get(name) ?? []) {
    if (!out.has(table.key) && schema.receivesRows(table)) out.set(table.key, table);
  }
  return [...out.values()];
}

/**
 * Every version of every table by the table spaces it uses: its data only (`data`), or its data, indexes and LOB
 * data (`any`). Made once per schema model: a scan of all tables per table space was quadratic in a schema file
 * of a table space per table.
 */
export function tablesBySpace(schema: SchemaModel, which: 'data' | 'any'): ReadonlyMap<string, readonly TableInfo[]> {
  let made = BY_SPACE.get(schema);
  if (!made) {
    made = { data: new Map(), any: new Map() };
    const add = (map: Map<string, TableInfo[]>, space: string, table: TableInfo) => {
      const list = map.get(space);
      if (!list) map.set(space, [table]);
      else if (list[list.length - 1] !== table) list.push(table);
    };
    for (const table of schema.allVersions()) {
      const clause = table.definition?.stmt.tablespace;
      if (table.tablespace) add(made.data, table.tablespace, table);
      for (const space of [table.tablespace, clause?.index, clause?.long]) if (space) add(made.any, space, table);
    }
    BY_SPACE.set(schema, made);
  }
  return made[which];
}

const BY_SPACE = new WeakMap<SchemaModel, { data: Map<string, TableInfo[]>; any: Map<string, TableInfo[]> }>();

/** A load later in the DDL's file: its words ("the INSERT at line 189"), its statement and where it starts in the file. */
export interface LaterLoad {
  text: string;
  /** What the statement is: "INSERT", "MERGE", "IMPORT". */
  word: string;
  stmt: Statement;
  offset: number;
}

/**
 * "the INSERT at line 189": the first bulk insert into `target` that this file's script runs after all of `ddl`
 * (an upgrade step that adds keys or indexes, then copies rows in), for advice to move the DDL after it; undefined
 * when none. A seed row's INSERT is no load to move DDL after, nor one in a routine (it runs when called); many
 * written rows are, when they are what makes the table a bulk target (the first of them).
 */
export function laterLoad({ file, lineOf }: RuleContext, target: InsertTargetInfo, ddl: readonly Statement[]): LaterLoad | undefined {
  // A loop, not Math.max(...): spreading 200,000 statements overflows the stack.
  let last = -Infinity;
  for (const s of ddl) last = Math.max(last, s.origin.toFile(s.span.start));
  const load = firstLoad(target, (s) => s.file === file.source.path && s.stmt.origin.toFile(s.stmt.span.start) > last);
  if (!load) return undefined;
  const offset = load.stmt.origin.toFile(load.stmt.span.start);
  const word = statementWord(load);
  return { text: `the ${word} at line ${lineOf(offset)}`, word, stmt: load.stmt, offset };
}

/**
 * "the CREATE INDEX statements at lines 63–66", "the ALTER TABLE … ADD CONSTRAINT statement at line 91": DDL to
 * move, by the lines its statements start on (consecutive lines as a range; past six ranges, "and n more").
 */
export function statementsAt(words: string, stmts: readonly Statement[], lineOf: (offset: number) => number): string {
  const at = stmts.map((s) => {
    const line = lineOf(s.origin.toFile(s.span.start));
    return { line, ordinal: line };
  });
  return statementsText(words, at, stmts.length);
}

/**
 * Where `stmt` starts: its line, and its place among the file's statements (statements next to each other are one
 * range of lines when several tables' DDL is named at once: MovedDdl).
 */
export function statementAt({ file, lineOf }: RuleContext, stmt: Statement): StatementAt {
  tickDeadline();
  const offset = stmt.origin.toFile(stmt.span.start);
  return { line: lineOf(offset), ordinal: ordinalOf(file.statements, stmt, offset) };
}

/** The index of `stmt` in `statements` (in file order): a binary search by where it starts, else a walk. */
function ordinalOf(statements: readonly Statement[], stmt: Statement, offset: number): number {
  let lo = 0;
  let hi = statements.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = statements[mid].origin.toFile(statements[mid].span.start);
    if (at < offset) lo = mid + 1;
    else if (at > offset) hi = mid - 1;
    else if (statements[mid] === stmt) return mid;
    else break;
  }
  return statements.indexOf(stmt);
}

/** What a rule says of its cost in a finding about moving DDL after a load (MoveAfterLoad): see moveAfterLoadReport. */
export interface MovePart {
  /** "5 indexes": this table's count, for a finding about one table. */
  cost: string;
  /** The rule's message that tells this table's part of a finding about one table. */
  partMessageId: string;
  /** "indexes", "enforced foreign keys". */
  kind: string;
  /** What each inserted row pays: "adds an entry to each index". */
  perRow: string;
  /** The measured figure, the same for every table. */
  figure: string;
  /** Something said of this table alone (a figure for its known rows, a redundant index): no finding with others'. */
  particular: boolean;
}

/** The bare table every figure of a MoveAfterLoad compares with (tests 11 and 31 measured the same table). */
const BARE_TABLE = `100,000 inserts took ${secsOf(BASELINE_SECONDS)} into the bare table (Db2 INSERT tips, tests 11 and 31)`;

/**
 * What a finding of index-count or enforced-foreign-key on `table` says to move after `move.load` (Report.moveAfterLoad):
 * the engine shows such findings of one table and load as one (engine/merge.ts mergeMovesAfterLoad), the key telling
 * the load and the table apart; and those of several tables given the same advice as one. `part` is this rule's.
 */
export function moveAfterLoadReport(context: RuleContext, table: TableInfo, move: { load: LaterLoad; moves: string[]; ddl: MovedDdl[] }, part: MovePart): NonNullable<Report['moveAfterLoad']> {
  return {
    key: `${context.file.source.path}\u0000${move.load.offset}\u0000${table.key}`,
    subject: `Bulk target ${tableName(table)}`,
    table: tableName(table),
    cost: part.cost,
    moves: move.moves,
    ddl: move.ddl,
    load: move.load.text,
    loadWord: move.load.word,
    kind: part.kind,
    perRow: part.perRow,
    figure: part.figure,
    baseline: BARE_TABLE,
    ...(part.particular ? { particular: true } : {}),
    partMessageId: part.partMessageId,
    loadAt: { span: move.load.stmt.span, stmt: move.load.stmt },
  };
}

/**
 * "the INSERT at load.db2:80": the first bulk insert into `target` in another file's script, for advice to add
 * DDL after the load when the load is not in the DDL's file (a demo's data script beside its DDL script).
 */
export function loadInOtherFile(context: RuleContext, target: InsertTargetInfo): string | undefined {
  // Not an insert of application code's loop: that runs whenever the application does, there is no "after" it.
  const load = firstLoad(target, (s) => s.file !== context.file.source.path && !s.bulkReasons.every((r) => r === IN_LOOP));
  return load && siteText(context, load);
}

/** The first site of `target` that `where` accepts and that loads it: a script statement (not in a routine) that is bulk, or writes rows when those make the table bulk. */
function firstLoad(target: InsertTargetInfo, where: (site: InsertSite) => boolean): InsertSite | undefined {
  // A bulk target none of whose inserts gives a reason is one by the rows they write together (SchemaModel.finish).
  const byRows = target.bulkReasons.length > 0 && target.sites.every((s) => s.bulkReasons.length === 0);
  return target.sites.find((s) => !s.nested && where(s) && (byRows ? s.valuesRows > 0 : s.bulkReasons.length > 0));
}

/** "the INSERT at line 12" in the rule's file, "the IMPORT at load.clp:3" in another; undefined when its line is not known. */
export function siteText({ file, lineOf, lineIn }: RuleContext, site: InsertSite): string | undefined {
  tickDeadline();
  const offset = site.stmt.origin.toFile(site.stmt.span.start);
  if (site.file === file.source.path) return `the ${statementWord(site)} at line ${lineOf(offset)}`;
  const line = lineIn?.(site.file, offset);
  return line !== undefined ? `the ${statementWord(site)} at ${site.file.replace(/^.*[\\/]/, '')}:${line}` : undefined;
}

function statementWord(site: InsertSite): string {
  return site.stmt.kind === 'insert' ? 'INSERT' : site.stmt.kind === 'merge' ? 'MERGE' : site.stmt.kind.toUpperCase();
}

/** "A, B and 2 more" for messages. */
export function listNames(names: string[], max = 3): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${countText(names.length - max)} more`;
}

/** The DB CFG parameters named `name` that `stmt` sets (UPDATE DB CFG … USING name value). */
export function dbCfgParameters(stmt: Statement, name: string) {
  return stmt.kind === 'updateDbCfg' ? stmt.parameters.filter((p) => p.name === name) : [];
}

/**
 * True when `ddl` is in force when `site` runs: another file (assumed earlier, unless it is a later step of the same
 * migration sequence: rules/support/migrations.ts), or earlier in the same file;
 * never when the two scripts CONNECT TO different databases.
 */
export function inEffectAt(ddl: Located, site: Located): boolean {
  // Asked per DDL statement and insert site: a rule's loop through them stops at the file's time budget.
  tickDeadline();
  if (!sameDatabase(ddl.stmt, site.stmt)) return false;
  // Another file's order is unknown (the schema is assumed first), unless both are steps of one migration sequence.
  if (site.file !== ddl.file) return !laterMigrationStep(ddl.file, site.file);
  return fileStart(site.stmt) > fileStart(ddl.stmt);
}

/**
 * True when `stmt` inserts into a table that receives only reference data (literal rows under
 * bulkRowThreshold in all): prefer-parameter-markers leaves a single literal INSERT of code into it alone.
 */
export function insertsReferenceData(schema: SchemaModel, stmt: Statement): boolean {
  return stmt.kind === 'insert' && schema.insertsReferenceData(stmt.target, stmt);
}

/**
 * True when `stmt` writes seed rows (SchemaModel.writesSeedRows): literal rows into a table whose literal rows in
 * all the scripts stay under bulkRowThreshold (codes, statuses, a demo's rows). The script-run rules count what
 * scripts write: ten seed rows cost little whether or not something else loads the table (a CICS sample's JCL
 * seeds CUSTOMER, which its COBOL fills at run time; an IBM sample IMPORTs a table and adds a few rows by hand).
 */
export function writesSeedRows(schema: SchemaModel, stmt: Statement): boolean {
  return insertsReferenceData(schema, stmt) || (stmt.kind === 'insert' && schema.writesSeedRows(stmt.target, stmt) && isLiteralValues(stmt));
}
