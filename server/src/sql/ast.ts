// The typed model of Db2 SQL that the parser produces and the rules read.
// Spans are offsets into the SQL text the statement was parsed from; `origin` maps them
// back to the file (identity for SQL scripts, a host string's characters for embedded SQL).

export interface Span {
  start: number;
  end: number;
}

/** Maps offsets of parsed SQL text to offsets in the file that contains it. */
export interface SqlOrigin {
  /** File offset of the SQL text offset `offset`. */
  toFile(offset: number): number;
  /**
   * For SQL text pieced together from strings in several places of the file (code/sqltext.ts, a routine's dynamic
   * SQL): the file span of the expression it was built from, the call's SQL argument (`HEAD + TAIL`). fileSpanOf
   * falls back on it when a span's ends map out of order.
   */
  extent?: Span;
}

export const IDENTITY_ORIGIN: SqlOrigin = { toFile: (offset) => offset };

/**
 * A span of parsed SQL text as a file span, well formed (start <= end): its ends mapped by the origin. Text pieced
 * together from strings in several places can map the end before the start: `executeUpdate(head + TAIL)`, TAIL a
 * constant defined above the call, ends in TAIL's literal, above where it starts. Such a span runs from its start to
 * the end of the origin's extent, the call's SQL argument (from the extent's start when it starts after it); without
 * an extent, it is empty at its start. Every file span of a statement (findings, the editor's ranges, the lines a
 * statement is on) is made here; a fix's edit is not (engine/workspace.ts mappedFix: an edit names its own
 * characters).
 */
export function fileSpanOf(origin: SqlOrigin, span: Span): Span {
  const start = origin.toFile(span.start);
  const end = origin.toFile(span.end);
  if (start <= end) return { start, end };
  const extent = origin.extent;
  if (!extent) return { start, end: start };
  return { start: start <= extent.end ? start : extent.start, end: extent.end };
}

/** A possibly qualified object name, folded to upper case unless it was delimited. */
export interface QualifiedName {
  schema?: string;
  name: string;
  span: Span;
}

export interface DataType {
  /** Upper-case base type name: INTEGER, VARCHAR, CLOB, BLOB, DBCLOB, XML, LONG VARCHAR, … */
  name: string;
  /** Length in bytes/characters where given (CLOB(1M) → 1048576). */
  length?: number;
  /** CLOB, BLOB, DBCLOB. */
  isLob: boolean;
  /** LONG VARCHAR, LONG VARGRAPHIC. */
  isLong: boolean;
  isXml: boolean;
  span: Span;
}

export interface IdentityOptions {
  always: boolean;
  start?: number;
  increment?: number;
  /** Number of cached values; 0 means NO CACHE; undefined means not specified (Db2 default 20). */
  cache?: number;
  /** Span of the CACHE n / NO CACHE clause, where written. */
  cacheSpan?: Span;
  span: Span;
}

export interface ColumnDef {
  name: string;
  nameSpan: Span;
  type: DataType;
  notNull: boolean;
  identity?: IdentityOptions;
  /** GENERATED ALWAYS AS (expr) or GENERATED … FOR EACH ROW ON UPDATE AS ROW CHANGE TIMESTAMP. */
  generatedExpression?: Span;
  defaultValue?: Span;
  /** DEFAULT NULL (or WITH DEFAULT NULL): a row that leaves the column out holds NULL, as with no DEFAULT at all. */
  defaultNull?: boolean;
  /** IMPLICITLY HIDDEN: an INSERT without a column list gives it no value (its default), nor does SELECT * read it. */
  implicitlyHidden?: boolean;
  /** LOB options: LOGGED / NOT LOGGED, COMPACT / NOT COMPACT, INLINE LENGTH n. */
  lobLogged?: boolean;
  lobCompact?: boolean;
  inlineLength?: number;
  /** Inline constraints are also listed in the table's constraints. */
  span: Span;
}

export type ReferentialAction = 'NO ACTION' | 'RESTRICT' | 'CASCADE' | 'SET NULL';

export type TableConstraint =
  | { kind: 'primaryKey'; name?: string; columns: string[]; span: Span }
  | { kind: 'unique'; name?: string; columns: string[]; span: Span }
  | {
      kind: 'foreignKey';
      name?: string;
      columns: string[];
      parent: QualifiedName;
      parentColumns: string[];
      onDelete?: ReferentialAction;
      onUpdate?: ReferentialAction;
      /** NOT ENFORCED makes it informational: no per-row lookup. Default true. */
      enforced: boolean;
      /** An ENFORCED keyword written out (where a fix writes NOT ENFORCED instead). */
      enforcedSpan?: Span;
      span: Span;
    }
  | { kind: 'check'; name?: string; enforced: boolean; span: Span };

export interface TablespaceClause {
  /** IN ts */
  data?: string;
  /** IN db.ts (Db2 for z/OS): the database. */
  database?: string;
  /** INDEX IN ts */
  index?: string;
  /** LONG IN ts */
  long?: string;
}

export interface MqtDefinition {
  /** The fullselect inside AS ( … ). */
  query: Span;
  /** Tables the fullselect reads (base tables of the MQT). */
  baseTables: QualifiedName[];
  refresh: 'immediate' | 'deferred';
  /** Span of the REFRESH IMMEDIATE|DEFERRED clause. */
  refreshSpan?: Span;
  maintainedBy?: 'system' | 'user' | 'federated_tool' | 'replication';
  /** SUMMARY TABLE syntax (CREATE SUMMARY TABLE …). */
  summary: boolean;
}

interface StatementBase {
  span: Span;
  origin: SqlOrigin;
  /** A statement the parser could only partly read carries the first error. */
  parseError?: ParseError;
  /**
   * SQL variables a statement of a routine body may assign other than as a SET's targets: those after INTO
   * (SELECT, VALUES, FETCH, EXECUTE), a CALL's arguments (OUT parameters), GET DIAGNOSTICS targets, the arguments
   * of a function that is a SET's whole value (a function's OUT parameters). A superset: every name in those
   * places. Set by the SQL PL grammar (sqlpl.ts), for a counting loop's variable (sqlpl-code-model.ts).
   */
  writes?: string[];
  /**
   * A routine, trigger or BEGIN … END block read with ';' as the statement terminator whose body holds ';': the
   * first of them (a span, so that an edit before the statement moves it). The front end reads the statement
   * whole (as Flyway, Liquibase and JDBC runners send it); the CLP run with `-t` ends the statement there and
   * rejects it (parse-error, when the script says it is run so).
   */
  innerTerminator?: Span;
}

export interface ParseError {
  message: string;
  span: Span;
  /**
   * The statement looks like several run together: another one starts at `span`, with no terminator
   * before it. `terminator` is the character the line before ends with when it looks like the one the
   * script is run with (`@` of `db2 -td@`); absent when a terminator seems simply missing.
   */
  glued?: { terminator?: string };
  /** The statement is written for another database (Oracle, SQL Server, …) in a way Db2 rejects (grammar/dialects.ts). */
  dialect?: string;
  /** A form no database accepts, recognised (grammar/dialects.ts): the message gives Db2's way, not a parser gap to report. */
  mistake?: boolean;
}

export interface CreateTableStatement extends StatementBase {
  kind: 'createTable';
  table: QualifiedName;
  columns: ColumnDef[];
  constraints: TableConstraint[];
  tablespace: TablespaceClause;
  organizeBy?: 'row' | 'column' | 'dimensions' | 'key sequence' | 'insert time';
  distributeBy?: { kind: 'hash' | 'random' | 'replication'; columns: string[] };
  partitionBy?: Span;
  /** Table options that may also come from ALTER TABLE. APPEND ON|OFF (LUW) or YES|NO (z/OS). */
  append?: boolean;
  appendSpan?: Span;
  locksize?: 'row' | 'table' | 'blockinsert';
  pctfree?: number;
  pctfreeSpan?: Span;
  notLoggedInitially: boolean;
  /** Span of the NOT LOGGED INITIALLY clause, where written. */
  notLoggedInitiallySpan?: Span;
  mqt?: MqtDefinition;
  /** CREATE TABLE … LIKE other */
  like?: QualifiedName;
  /** CREATE TABLE … AS (select) WITH NO DATA / DEFINITION ONLY (not an MQT) */
  asQuery?: Span;
  temporary?: 'global' | 'declared';
}

export type AlterTableAction =
  | { kind: 'addColumn'; column: ColumnDef; span: Span }
  | { kind: 'addConstraint'; constraint: TableConstraint; span: Span }
  /** DROP [COLUMN] c [CASCADE | RESTRICT]: `restrict` when RESTRICT is written (Db2 LUW's default is CASCADE). */
  | { kind: 'dropColumn'; column: string; restrict: boolean; span: Span }
  | { kind: 'dropConstraint'; name: string; constraintKind?: 'foreignKey' | 'primaryKey' | 'unique' | 'check'; span: Span }
  | { kind: 'alterConstraintEnforcement'; name: string; enforced: boolean; span: Span }
  | { kind: 'alterColumnIdentity'; column: string; cache?: number; cacheSpan?: Span; span: Span }
  | { kind: 'append'; on: boolean; span: Span }
  | { kind: 'locksize'; locksize: 'row' | 'table' | 'blockinsert'; span: Span }
  | { kind: 'pctfree'; value: number; span: Span }
  | { kind: 'activateNotLoggedInitially'; withEmptyTable: boolean; span: Span }
  | { kind: 'refresh'; refresh: 'immediate' | 'deferred'; span: Span }
  | { kind: 'other'; span: Span };

export interface AlterTableStatement extends StatementBase {
  kind: 'alterTable';
  table: QualifiedName;
  actions: AlterTableAction[];
}

export interface IndexColumn {
  name: string;
  descending: boolean;
}

export interface CreateIndexStatement extends StatementBase {
  kind: 'createIndex';
  index: QualifiedName;
  table: QualifiedName;
  unique: boolean;
  columns: IndexColumn[];
  include: string[];
  cluster: boolean;
  /** Span of the CLUSTER keyword. */
  clusterSpan?: Span;
  pctfree?: number;
  partitioned?: boolean;
  /** Db2 for z/OS: FREEPAGE n, PADDED / NOT PADDED. */
  freepage?: number;
  padded?: boolean;
}

export interface SequenceStatement extends StatementBase {
  kind: 'createSequence' | 'alterSequence';
  sequence: QualifiedName;
  start?: number;
  increment?: number;
  /** 0 = NO CACHE; undefined = not specified (default 20 on CREATE, unchanged on ALTER). */
  cache?: number;
  cacheSpan?: Span;
  order?: boolean;
}

export interface CreateTriggerStatement extends StatementBase {
  kind: 'createTrigger';
  trigger: QualifiedName;
  timing: 'before' | 'after' | 'instead of';
  events: ('insert' | 'update' | 'delete')[];
  table: QualifiedName;
  granularity: 'row' | 'statement';
  /** The triggered action: the statements of the body (a single statement or BEGIN ATOMIC … END). */
  body: Statement[];
  bodySpan: Span;
}

export interface CreateTablespaceStatement extends StatementBase {
  kind: 'createTablespace';
  tablespace: string;
  nameSpan: Span;
  type?: 'regular' | 'large' | 'temporary' | 'user temporary' | 'system temporary';
  managedBy?: 'system' | 'database' | 'automatic storage';
  managedBySpan?: Span;
  pageSize?: number;
  extentSize?: number;
  extentSizeSpan?: Span;
  prefetchSize?: number;
  /** true: FILE SYSTEM CACHING; false: NO FILE SYSTEM CACHING; undefined: default. */
  fileSystemCaching?: boolean;
  /** Db2 for z/OS: CREATE TABLESPACE ts IN db and its options (see ZosTablespaceOptions). */
  zos?: ZosTablespaceOptions;
}

/** The options of a Db2 for z/OS table space that shape insert cost; absent ones were not written. */
export interface ZosTablespaceOptions {
  database?: string;
  memberCluster?: boolean;
  memberClusterSpan?: Span;
  pctfree?: number;
  freepage?: number;
  /** Span of the PCTFREE / FREEPAGE clause that reserves free space. */
  freeSpaceSpan?: Span;
  trackmod?: boolean;
  locksize?: string;
  segsize?: number;
  /** Partition-by-growth (MAXPARTITIONS) or partition-by-range (NUMPARTS). */
  maxPartitions?: number;
  numParts?: number;
}

/** DCLGEN's `DECLARE t TABLE (columns)` in a COBOL/C program or copybook: the columns, no storage. */
export interface DeclareTableStatement extends StatementBase {
  kind: 'declareTable';
  table: QualifiedName;
  columns: ColumnDef[];
}

/** How a value in a VALUES row is supplied. */
export type ValueKind = 'literal' | 'marker' | 'host' | 'null' | 'default' | 'expression';

export interface InsertValue {
  kind: ValueKind;
  span: Span;
}

export interface ValuesRow {
  values: InsertValue[];
  span: Span;
}

/**
 * A fullselect of constants: every table it reads is SYSIBM.SYSDUMMY1 or its kin (`SELECT 'A', 1 FROM
 * SYSIBM.SYSDUMMY1 UNION ALL …`). It writes the rows it spells out, as a VALUES list does.
 */
export interface ConstantRows {
  /** One row per UNION branch at the top level. */
  count: number;
  /** Any parameter marker or host variable among them (rows bound at run time, not literals). */
  parameters: boolean;
}

export interface InsertStatement extends StatementBase {
  kind: 'insert';
  target: QualifiedName;
  columns: string[];
  /**
   * A VALUES list, or a fullselect: the tables it reads, `constantRows` when it spells its rows out, and `nullItems`,
   * the places (0-based, in increasing order) of the select list that are NULL in every branch (`SELECT ID, NULL
   * FROM S`), when any are (none after a `*`); with them `itemCount`, the number of items every branch selects, when
   * no item is a `*`.
   */
  source:
    | { kind: 'values'; rows: ValuesRow[]; span: Span }
    | { kind: 'select'; span: Span; tables: QualifiedName[]; constantRows?: ConstantRows; nullItems?: number[]; itemCount?: number };
  /** WITH UR/CS/RS/RR isolation clause on the fullselect. */
  isolation?: string;
  /** Sequences used in the statement: NEXT VALUE FOR s / NEXTVAL FOR s / s.NEXTVAL. */
  sequences: QualifiedName[];
  /** The INSERT of SELECT … FROM FINAL TABLE (INSERT …): the statement also returns the rows it wrote. */
  returnsRows?: boolean;
}

export interface MergeStatement extends StatementBase {
  kind: 'merge';
  target: QualifiedName;
  source: Span;
  /** USING (VALUES …): the parenthesised rows written in the statement (not the result of a query). */
  sourceValues?: Span;
  hasInsert: boolean;
  /** Each WHEN NOT MATCHED THEN INSERT, in order (set when hasInsert; an INSERT it could not read is left out). */
  inserts?: MergeInsert[];
  hasUpdate: boolean;
  /**
   * Each WHEN MATCHED THEN UPDATE SET, in order (set when hasUpdate; an UPDATE whose assignments it could not read is
   * left out): the columns it assigns and how each value is supplied.
   */
  updates?: MergeUpdate[];
  hasDelete: boolean;
}

/** A MERGE's `THEN UPDATE SET c = v, (c2, c3) = (v2, v3) …`: the columns assigned, with their values in the same order. */
export interface MergeUpdate {
  columns: string[];
  /** One per column; `expression` for each column of a row fullselect (`(c2, c3) = (SELECT …)`). */
  values: ValueKind[];
}

/** A MERGE's `THEN INSERT [(columns)] VALUES (values)`. */
export interface MergeInsert {
  /** The columns it names; empty when it names none (a value for every column, in order). */
  columns: string[];
  /** How each value is supplied (NULL, DEFAULT, …), in the order of the columns; empty when not read. */
  values: ValueKind[];
}

export interface TransactionStatement extends StatementBase {
  kind: 'commit' | 'rollback';
  /** ROLLBACK TO SAVEPOINT … */
  toSavepoint?: boolean;
}

export interface SetSchemaStatement extends StatementBase {
  kind: 'setSchema';
  schema: string;
}

export interface ConnectStatement extends StatementBase {
  kind: 'connect';
  /** CONNECT TO db; undefined for CONNECT RESET. */
  database?: string;
  reset: boolean;
}

/** CLP: UPDATE COMMAND OPTIONS USING C OFF … */
export interface UpdateCommandOptionsStatement extends StatementBase {
  kind: 'updateCommandOptions';
  /** Option letter (upper case) → ON/OFF. */
  options: Record<string, boolean>;
  /** The C (autocommit) option where given. */
  autocommit?: boolean;
}

export interface ConfigParameter {
  /** Upper case: LOGBUFSZ, CHNGPGS_THRESH, MINCOMMIT, NUM_IOCLEANERS, … */
  name: string;
  /** The value as written (a number, AUTOMATIC, …). */
  value: string;
  numericValue?: number;
  span: Span;
}

/** CLP: UPDATE DATABASE CONFIGURATION [FOR db] USING p v … */
export interface UpdateDbCfgStatement extends StatementBase {
  kind: 'updateDbCfg';
  database?: string;
  parameters: ConfigParameter[];
}

export interface LoadStatement extends StatementBase {
  kind: 'load';
  /** LOAD FROM file | cursor name. */
  from: { kind: 'file' | 'cursor'; name: string };
  fileType?: string;
  mode: 'insert' | 'replace' | 'restart' | 'terminate';
  table: QualifiedName;
  nonrecoverable: boolean;
  client: boolean;
  /** The Db2 for z/OS LOAD utility (DSNUTILB control statement), with the options that decide its cost. */
  utility?: ZosLoadOptions;
}

export interface ZosLoadOptions {
  /** Every INTO TABLE of the statement (the first one is `table`). */
  tables: QualifiedName[];
  resume: boolean;
  replace: boolean;
  /** LOG YES (the default) or LOG NO. */
  log: boolean;
  shrlevel: 'none' | 'change' | 'reference';
}

export interface ImportStatement extends StatementBase {
  kind: 'import';
  from: string;
  fileType?: string;
  mode: 'insert' | 'insert_update' | 'replace' | 'replace_create' | 'create';
  table: QualifiedName;
  /** INTO table (insert-column, …): the only columns the input fills; absent when not written (every column). */
  columns?: string[];
  commitCount?: number | 'automatic';
  /** ALLOW WRITE ACCESS: an online import, which commits as COMMITCOUNT AUTOMATIC when no COMMITCOUNT is given. */
  allowWriteAccess?: boolean;
  /** The COMMITCOUNT value as written, and the mode keyword (INSERT, REPLACE, …) before INTO: where fixes edit. */
  commitCountSpan?: Span;
  modeSpan?: Span;
}

/** CLP: INGEST FROM FILE|PIPE … INSERT INTO | REPLACE INTO | UPDATE | DELETE FROM | MERGE INTO table. */
export interface IngestStatement extends StatementBase {
  kind: 'ingest';
  /** The input as written after FROM (FILE a.del, PIPE p). */
  from: string;
  operation: 'insert' | 'replace' | 'update' | 'delete' | 'merge';
  table: QualifiedName;
}

export interface DeclareCursorStatement extends StatementBase {
  kind: 'declareCursor';
  cursor: string;
  query: Span;
  tables: QualifiedName[];
  /** DECLARE c CURSOR FOR s, where s is a prepared statement (dynamic SQL). */
  statementName?: string;
}

// ---- SQL PL: routines, compound statements and the statements of their bodies ----------------

/** UPDATE and DELETE: the model keeps their table (a searched or positioned change). */
export interface ChangeStatement extends StatementBase {
  kind: 'update' | 'delete';
  target: QualifiedName;
}

/**
 * CREATE PROCEDURE / FUNCTION / METHOD, also as ALTER MODULE m ADD|PUBLISH PROCEDURE …. `body` is the
 * parsed SQL body (a compound statement, or one statement such as RETURN); external routines have none.
 */
export interface CreateRoutineStatement extends StatementBase {
  kind: 'createRoutine';
  routine: 'procedure' | 'function' | 'method';
  name: QualifiedName;
  /** The module of ALTER MODULE … ADD|PUBLISH. */
  module?: QualifiedName;
  /** LANGUAGE as written (SQL when absent and the routine has a body); EXTERNAL routines say C, JAVA, …. */
  language: string;
  parameters: string[];
  /** The parameters' string lengths, by position, where the type has one (IN message CLOB(100000)). */
  parameterLengths?: (DeclaredLength | undefined)[];
  body?: Statement;
}

/** [label:] BEGIN [[NOT] ATOMIC] … END: an anonymous block, a routine body, a handler's action. */
export interface CompoundStatement extends StatementBase {
  kind: 'compound';
  label?: string;
  atomic: boolean;
  body: Statement[];
}

/** DECLARE v1, v2 type [DEFAULT …], including cursor variables (DECLARE c CURSOR) and DECLARE s STATEMENT. */
export interface DeclareVariableStatement extends StatementBase {
  kind: 'declareVariable';
  names: string[];
  /** Upper-case type name as written: INTEGER, VARCHAR, CURSOR, STATEMENT, a user-defined type … */
  type: string;
  /** DEFAULT n, an integer literal: the start of a counter. */
  initial?: number;
  /** A DEFAULT or CONSTANT value is given (`initial` holds it when it is an integer literal). */
  defaulted?: boolean;
  /** A string type's length attribute (VARCHAR(n), CLOB(100K)): what LENGTH of the variables can reach. */
  length?: DeclaredLength;
}

/** The length attribute of a string type as declared: the most LENGTH(v) can return, and the type as written. */
export interface DeclaredLength {
  /** In the type's units: 102400 for CLOB(100K). */
  max: number;
  /** Upper case, as written: CLOB(100K), VARCHAR(80 OCTETS). */
  type: string;
}

/** DECLARE name CONDITION FOR [SQLSTATE [VALUE]] '…'. */
export interface DeclareConditionStatement extends StatementBase {
  kind: 'declareCondition';
  name: string;
  sqlstate?: string;
}

/** DECLARE CONTINUE | EXIT | UNDO HANDLER FOR conditions action. */
export interface DeclareHandlerStatement extends StatementBase {
  kind: 'declareHandler';
  handler: 'continue' | 'exit' | 'undo';
  /** SQLEXCEPTION, SQLWARNING, NOT FOUND, SQLSTATE '…' or condition names, upper case. */
  conditions: string[];
  action?: Statement;
}

/** SET target = value[, …] (variables; SET SCHEMA and special registers are other kinds). */
export interface SetVariableStatement extends StatementBase {
  kind: 'setVariable';
  targets: string[];
  /** SET c = CURSOR FOR select: the tables the cursor variable's query reads. */
  cursorTables?: QualifiedName[];
  /** A value holds a fullselect (SET v = (SELECT … FROM t)): the statement reads data. */
  selects?: boolean;
  /** A value steps through an array (ARRAY_NEXT, ARRAY_PRIOR): a loop around it walks the array's elements. */
  arrayStep?: boolean;
  /** Sequences a value draws from (NEXT VALUE FOR s): a key made for an INSERT, or a trigger's SET N.ID = …. */
  sequences?: QualifiedName[];
  /** SET v = v + n or v - n (one target, n an integer literal; `by` is negative for -): a counter's step. */
  step?: { variable: string; by: number };
  /** SET v = n (an integer literal) or SET v = LENGTH(x) (one argument), one target: a count-down's start. */
  value?: { integer: number } | { lengthOf: string };
}

export interface Branch {
  /** The condition (IF/ELSEIF/WHEN); absent for ELSE. */
  condition?: Span;
  body: Statement[];
}

/** IF … THEN … [ELSEIF …] [ELSE …] END IF, and the CASE statement (WHEN … THEN … END CASE). */
export interface BranchStatement extends StatementBase {
  kind: 'if' | 'case';
  branches: Branch[];
}

/** FOR, WHILE, REPEAT and LOOP. */
export interface LoopStatement extends StatementBase {
  kind: 'loop';
  loop: 'for' | 'while' | 'repeat' | 'loop';
  label?: string;
  /** FOR v AS [c CURSOR FOR] select: the rows the loop goes through, and the tables that query reads. */
  query?: Span;
  tables?: QualifiedName[];
  /** WHILE / UNTIL condition. */
  condition?: Span;
  /**
   * WHILE v < bound (or <=), in parentheses or not: a counting loop when the body steps v up by a constant
   * (sqlpl-code-model.ts). Also REPEAT … UNTIL v >= bound (or >, or bound <= v …), the loop going on while v < bound (or
   * v <= bound): `loop` tells the two apart (REPEAT runs its body once before it tests).
   */
  counter?: { variable: string; inclusive: boolean; bound: string | number };
  /**
   * WHILE v > n (or >=, or n < v, n <= v; n an integer literal), in parentheses or not: a loop counting v down to
   * `floor` when the body takes a constant from v on every pass (sqlpl-code-model.ts). Also REPEAT … UNTIL v <= n (or
   * <, or n >= v …), going on while v > n (or v >= n).
   */
  countdown?: { variable: string; inclusive: boolean; floor: number };
  body: Statement[];
  /** It walks an array (ARRAY_NEXT/ARRAY_PRIOR in a SET of its body, CARDINALITY in its condition). */
  walksArray?: boolean;
  /** FOR over a query that changes data (FROM OLD TABLE (DELETE …)): Db2 accepts that only in a SELECT, not in an INSERT's. */
  queryChangesData?: boolean;
  /**
   * FOR over the rows of one table, at most one pass per row (grammar/clauses.ts oneTableRows): `deletes` when the
   * query is FROM OLD TABLE (DELETE FROM t …), which removes each row it passes over.
   */
  rowsOf?: { table: QualifiedName; deletes: boolean };
}

/** ITERATE, LEAVE, GOTO, RETURN. */
export interface JumpStatement extends StatementBase {
  kind: 'jump';
  jump: 'iterate' | 'leave' | 'goto' | 'return';
  label?: string;
}

/** SQL text built at run time: a string expression of SQL PL (EXECUTE IMMEDIATE, PREPARE … FROM). */
export interface DynamicSql {
  /** How the text was built: one literal, literals and values joined with ||, a variable set earlier, or unknown. */
  textKind: 'constant' | 'concatenation' | 'variable' | 'unknown';
  /** The statements of the text where it is known (spans in their own text; `origin` maps them to the file). */
  statements: Statement[];
  /** Values spliced into the text (variables, expressions), as spans of the routine's text. */
  splices: Span[];
}

/** PREPARE s FROM text. */
export interface PrepareStatement extends StatementBase {
  kind: 'prepare';
  statementName: string;
  text: DynamicSql;
}

/** EXECUTE s [USING …]: runs what PREPARE s read. */
export interface ExecuteStatement extends StatementBase {
  kind: 'execute';
  statementName: string;
}

/** EXECUTE IMMEDIATE text. */
export interface ExecuteImmediateStatement extends StatementBase {
  kind: 'executeImmediate';
  text: DynamicSql;
}

/** OPEN, FETCH and CLOSE of a cursor, and ALLOCATE c CURSOR FOR RESULT SET (a called procedure's result set). */
export interface CursorStatement extends StatementBase {
  kind: 'open' | 'fetch' | 'close' | 'allocate';
  cursor: string;
}

export interface CallStatement extends StatementBase {
  kind: 'call';
  procedure: QualifiedName;
  /** SYSPROC.ADMIN_CMD's command (IMPORT, LOAD, REORG …: the way routines and JDBC run them), read as SQL PL's dynamic SQL. */
  command?: DynamicSql;
  /** The arguments in order: an integer literal's value, undefined for any other argument. */
  integerArguments?: (number | undefined)[];
}

/** SIGNAL / RESIGNAL, and GET DIAGNOSTICS. */
export interface ConditionStatement extends StatementBase {
  kind: 'signal' | 'resignal' | 'getDiagnostics';
}

export interface LockTableStatement extends StatementBase {
  kind: 'lockTable';
  table: QualifiedName;
  mode: 'share' | 'exclusive';
}

/** CLP command-line options that appear in a script (`db2 +c …`) or a `--#SET` line. */
export interface OtherStatement extends StatementBase {
  kind: 'other';
  /** Upper-case leading keywords that name the statement: 'SELECT', 'CREATE VIEW', 'DROP TABLE', 'CALL', … */
  keyword: string;
  /**
   * The federated data source a SET PASSTHRU session sends the statement to, as the script names it: the
   * statement is that database's SQL and runs there, so it is not read as Db2's (no parse, no findings).
   */
  passedTo?: string;
}

export type Statement =
  | CreateTableStatement
  | AlterTableStatement
  | CreateIndexStatement
  | SequenceStatement
  | CreateTriggerStatement
  | CreateTablespaceStatement
  | DeclareTableStatement
  | InsertStatement
  | MergeStatement
  | TransactionStatement
  | SetSchemaStatement
  | ConnectStatement
  | UpdateCommandOptionsStatement
  | UpdateDbCfgStatement
  | LoadStatement
  | ImportStatement
  | DeclareCursorStatement
  | LockTableStatement
  | IngestStatement
  | ChangeStatement
  | CreateRoutineStatement
  | CompoundStatement
  | DeclareVariableStatement
  | DeclareConditionStatement
  | DeclareHandlerStatement
  | SetVariableStatement
  | BranchStatement
  | LoopStatement
  | JumpStatement
  | PrepareStatement
  | ExecuteStatement
  | ExecuteImmediateStatement
  | CursorStatement
  | CallStatement
  | ConditionStatement
  | OtherStatement;

export type StatementKind = Statement['kind'];

export interface Comment {
  span: Span;
  /** The comment's text without its delimiters (`--`, `/*`, `//`, `#`). */
  text: string;
}

/** The result of parsing one SQL text (a script, or one SQL string from code). */
export interface ParsedSql {
  statements: Statement[];
  comments: Comment[];
}
