// Questions the insert-pattern rules ask of a file's code model: which executions insert, which loops they run in,
// and the script-level equivalents (runs of single-row INSERTs, COMMIT after each INSERT). The engine asks some of
// them too (engine/called-inserts.ts).
import type { InsertStatement, MergeStatement, Span, Statement } from '../sql/ast';
import type { Dialect, FileModel } from '../engine/types';
import { valueKindBit, valuesKindBits, valuesRowCount } from '../sql/grammar/values';
import { displayKey, type SchemaModel } from '../schema/schema';
import type { HibernateBatching, LoopInfo, SqlExecution } from './types';

import { isBulkLoop } from './bulk-loops';
import { partitionPoint } from '../engine/sorted';

export { isBulkLoop };

export function insertsOf(execution: SqlExecution): InsertStatement[] {
  return execution.statements.filter((s): s is InsertStatement => s.kind === 'insert');
}

/** An INSERT … VALUES with one row (the shape that runs once per application row). */
export function isSingleRowValues(stmt: Statement): stmt is InsertStatement {
  return stmt.kind === 'insert' && stmt.source.kind === 'values' && valuesRowCount(stmt.source) === 1;
}

/** An INSERT … VALUES with literal values only (no parameter marker, host variable or spliced value). */
export function isLiteralValues(stmt: Statement): stmt is InsertStatement {
  if (stmt.kind !== 'insert' || stmt.source.kind !== 'values') return false;
  const kinds = valuesKindBits(stmt.source);
  return (kinds & PARAMETER_BITS) === 0 && (kinds & LITERAL_BIT) !== 0;
}

const PARAMETER_BITS = valueKindBit('marker') | valueKindBit('host');
const LITERAL_BIT = valueKindBit('literal');

/** Executions that send rows: a direct or prepared run, not a prepare on its own. */
export function runsRows(execution: SqlExecution): boolean {
  return execution.action !== 'prepare';
}

export function sameLoop(a: LoopInfo | undefined, b: LoopInfo | undefined): boolean {
  return !!a && !!b && a.span.start === b.span.start && a.span.end === b.span.end;
}

export function within(inner: Span, outer: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** The span among `sorted` (by start, disjoint) that contains file offset `at`. */
function spanAt(sorted: readonly Span[], at: number): Span | undefined {
  const span = sorted[partitionPoint(sorted, (s) => s.end <= at)];
  return span && span.start <= at ? span : undefined;
}

/**
 * Spliced values (file spans) of an execution that land inside the VALUES of one of its INSERTs. Checked in
 * SQL-text positions: a value quoted in a template ('%s') has its quotes in the template and its characters
 * in the argument, so each character of a value is mapped to the file and looked up among the splices.
 */
export function splicedInsertValues(execution: SqlExecution): Span[] {
  if (execution.splicedValues.length === 0) return [];
  const sorted = [...execution.splicedValues].sort((a, b) => a.start - b.start);
  const found = new Set<Span>();
  const look = (stmt: Statement, span: Span) => {
    for (let o = span.start; o < Math.min(span.end, span.start + 400); o++) {
      const hit = spanAt(sorted, stmt.origin.toFile(o));
      if (hit) found.add(hit);
    }
  };
  for (const stmt of rowWritersOf(execution)) {
    if (stmt.kind === 'merge') look(stmt, stmt.sourceValues!);
    else if (stmt.source.kind === 'values') for (const row of stmt.source.rows) for (const v of row.values) look(stmt, v.span);
  }
  return sorted.filter((s) => found.has(s));
}

/** The INSERTs of an execution, and its MERGEs that insert the rows they write out (USING (VALUES …): an upsert). */
export function rowWritersOf(execution: SqlExecution): (InsertStatement | MergeStatement)[] {
  return execution.statements.filter((s): s is InsertStatement | MergeStatement => s.kind === 'insert' || (s.kind === 'merge' && s.hasInsert && s.sourceValues !== undefined));
}

/** A CLP script: an SQL file, or a here-document fed to `db2` in a shell script. */
export interface ScriptUnit {
  statements: Statement[];
  /** The script runs with autocommit off from its start (`db2 +c`). */
  autocommitOff: boolean;
}

/**
 * Calls `visit` for each statement of a script with whether the CLP's autocommit is on when it runs: on from the
 * start unless the script runs with `db2 +c`, and as the UPDATE COMMAND OPTIONS USING C ON|OFF before it set it.
 */
export function forEachWithAutocommit(unit: ScriptUnit, visit: (stmt: Statement, autocommit: boolean) => void): void {
  let autocommit = !unit.autocommitOff;
  const statements = unit.statements;
  for (let i = 0; i < statements.length; i++) {
    const stmt = statements[i];
    if (stmt.kind === 'updateCommandOptions' && stmt.autocommit !== undefined) autocommit = stmt.autocommit;
    visit(stmt, autocommit);
  }
}

/** The scripts of a file that rules read as scripts (code statements, run one by one, are not). */
export function scriptUnits(file: FileModel): ScriptUnit[] {
  if (!file.code) return [{ statements: file.statements, autocommitOff: false }];
  return file.code.executions
    .filter((e) => e.script && e.statements.length > 0)
    .map((e) => ({ statements: e.statements, autocommitOff: e.connection?.autocommit === 'off' }));
}

/**
 * Short advice on sending many rows per call, by driver API; for SQLAlchemy also by how the code builds the INSERT
 * (SqlExecution.construct: the ORM's session.add, a Core insert construct, else a text()); for the Java ORMs by why
 * the entity goes one row per call (SqlExecution.ormPerCall).
 */
export function batchAdvice(api: string, dialect?: Dialect, execution?: Pick<SqlExecution, 'construct' | 'connection' | 'ormPerCall' | 'ormConfig' | 'autoflushedBy' | 'manyPerRow' | 'queriesFirst'>): string {
  const construct = execution?.construct;
  switch (api) {
    case 'jpa':
    case 'hibernate':
    case 'spring-data':
      return javaOrmAdvice(api, execution?.ormPerCall, execution?.ormConfig, execution?.autoflushedBy);
    case 'jdbc':
      return 'prepare once, call addBatch() per row and executeBatch() every few hundred rows';
    case 'spring':
      return 'collect the rows and call JdbcTemplate.batchUpdate';
    case 'spring-simple-insert':
    case 'spring-simple-insert-keys':
      return simpleInsertAdvice(execution?.connection?.name ?? 'insert', api === 'spring-simple-insert-keys');
    case 'jooq':
      return JOOQ_BATCHING;
    case 'mybatis':
      // MyBatis's default executor (SIMPLE) runs each mapper call on its own; a BATCH session queues them as JDBC
      // batches until flushStatements() / commit() (languages/java-mybatis.ts).
      return MYBATIS_BATCHING;
    case 'ibm_db':
      return 'prepare once and send the rows with ibm_db.execute_many';
    case 'dbapi':
      // pyodbc's executemany runs one SQLExecute per row unless fast_executemany is on; pypyodbc's always does.
      if (execution?.manyPerRow === 'pyodbc') return 'set cursor.fast_executemany = True before executemany (pyodbc 4.0.19 or later): pyodbc then binds the rows as one ODBC parameter array (SQL_ATTR_PARAMSET_SIZE), one round trip per call, where by default it runs one execute per row';
      if (execution?.manyPerRow === 'pypyodbc') return 'run it through pyodbc with cursor.fast_executemany = True, or ibm_db_dbi, whose executemany sends the rows as one parameter array: pypyodbc\'s executemany runs one execute per row';
      return 'send the rows with cursor.executemany';
    case 'sqlalchemy':
      // The ORM sends what was added at the flush: objects of one class flushed together go as one executemany when
      // it need not fetch each generated key back (the keys are set, or the dialect returns them in batches).
      if (construct === 'orm') {
        const session = execution?.connection?.name ?? 'session';
        // A query of the session on every pass autoflushes each add (SqlExecution.autoflushedBy): no flush before the
        // loop's end, then the usual advice.
        const autoflushed = execution?.autoflushedBy;
        if (autoflushed && /\.merge\(\)$/.test(autoflushed)) {
          return `add new objects with ${session}.add(obj) rather than ${session}.merge(obj) (merge flushes the session first, to look the object up), or run the loop inside \`with ${session}.no_autoflush:\`; then flush or commit once after the loop (or every 1000 rows with a counter), so that one flush sends the rows together; or pass the rows as a list of dicts to ${session}.execute(insert(Model), rows)`;
        }
        if (autoflushed) {
          return `look up what the loop needs before it (one query for all the rows' keys, into a dict), or run the loop's queries inside \`with ${session}.no_autoflush:\`, so that nothing is flushed until the loop ends; then add the objects (or ${session}.add_all(objs)) and flush or commit once after the loop (or every 1000 rows with a counter), so that one flush sends them together; or, to be sure of one executemany, pass the rows as a list of dicts to ${session}.execute(insert(Model), rows)`;
        }
        return `add the objects in the loop (or ${session}.add_all(objs)) and flush or commit once after it (or every 1000 rows with a counter), so that one flush sends them together; or, to be sure of one executemany (the ORM still inserts one row at a time when it must fetch each generated key), pass the rows as a list of dicts to ${session}.execute(insert(Model), rows)`;
      }
      // SQLAlchemy has no cursor to call executemany on: a list of parameter dicts given to one execute is run as one.
      // Named as the code names the connection or session it runs on (session.execute for a Session).
      return `gather the rows into a list of dicts (one per row, keyed by ${construct === 'core' ? 'column' : 'the bound parameter names'}) and run the ${construct === 'core' ? 'insert' : 'INSERT'} once with that list, ${execution?.connection?.name ?? 'conn'}.execute(${construct === 'core' ? 'insert(table)' : 'text(sql)'}, rows): SQLAlchemy hands a list of parameter sets to the driver as one executemany`;
    case 'sequelize':
      // The Db2 dialect's bulkCreate (and queryInterface.bulkInsert) sends one multi-row INSERT … VALUES for the rows
      // it is given; a raw sequelize.query runs the text it is given.
      if (construct !== 'orm') return "insert the rows with one call: sequelize.getQueryInterface().bulkInsert(table, rows) or a model's bulkCreate(rows), each one multi-row INSERT on Db2 (a few thousand rows at a time), or one sequelize.query with a multi-row VALUES list";
      return 'gather the rows into an array and insert them with one Model.bulkCreate(rows) (the Db2 dialect sends one multi-row INSERT per call; give it a few thousand rows at a time)';
    case 'django':
      // ibm_db_django sets has_bulk_insert when it connects: bulk_create sends one multi-row INSERT per batch_size objects.
      // get_or_create / update_or_create (SqlExecution.queriesFirst): also a query per row, which one lookup of the
      // existing keys before the loop replaces.
      if (execution?.queriesFirst) {
        // (Not bulk_create's ignore_conflicts / update_conflicts: they need a backend that writes a conflict clause into
        // the INSERT, which is not shown for ibm_db_django; a Db2 duplicate then fails the batch.)
        return 'for loading new rows, look the existing keys up with one query before the loop (Model.objects.filter(key__in=keys)), gather the new objects in a list and insert them with one Model.objects.bulk_create(objs, batch_size=1000) after the loop (the changed ones with bulk_update): no query per row, and ibm_db_django sends each batch as one multi-row INSERT'
          + (execution.connection?.autocommit === 'on' ? "; as written, outside transaction.atomic(), Django's autocommit also commits every row on its own" : '');
      }
      return 'gather the new objects in a list and insert them with one Model.objects.bulk_create(objs, batch_size=1000) after the loop (or per 1000 rows): ibm_db_django sends each batch as one multi-row INSERT, and inside transaction.atomic() the batches share one commit'
        + (execution?.connection?.autocommit === 'on' ? "; as written, outside transaction.atomic(), Django's autocommit also commits every row on its own" : '');
    case 'node-ibm_db':
      return 'send the rows as an array insert (query with ArraySize) or a multi-row VALUES list';
    case 'cli':
      return 'bind parameter arrays and set SQL_ATTR_PARAMSET_SIZE (100 or more) so that one SQLExecute sends many rows';
    case 'clp':
      return 'write the rows to a file and IMPORT or LOAD it, or run one INSERT with a multi-row VALUES list';
    case 'esql':
    case 'sqlj':
      // Only Db2 for z/OS has multi-row INSERT (FOR :n ROWS); a program known to be for one Db2 gets its own.
      if (dialect === 'zos') return 'insert many rows per statement: host-variable arrays with INSERT … FOR :n ROWS (multi-row insert)';
      if (dialect === 'luw') return 'insert many rows per statement with a multi-row VALUES list';
      return 'insert many rows per statement: host-variable arrays with INSERT … FOR :n ROWS (Db2 for z/OS multi-row insert) or a multi-row VALUES list (Db2 for LUW)';
    default:
      return 'send many rows per call (batch, array insert or multi-row VALUES)';
  }
}

/**
 * Spring's SimpleJdbcInsert (languages/java-spring-jdbc.ts): executeBatch sends the rows as one JDBC batch of its
 * prepared INSERT, and returns the update counts only, no generated keys.
 */
function simpleInsertAdvice(insert: string, keys: boolean): string {
  const batch = `gather the rows (a Map<String, ?> or a SqlParameterSource each) and call ${insert}.executeBatch(rows) once after the loop (or per few hundred rows): SimpleJdbcInsert sends them as one JDBC batch of its prepared INSERT`;
  if (!keys) return batch;
  return `${batch}. executeBatch returns the update counts only, no generated keys (usingGeneratedKeyColumns, executeAndReturnKey): where the loop needs each row's key, batch the rows whose keys it does not need, or read the keys back afterwards with one query by a natural key of the rows`;
}

/** jOOQ's batched and multi-row inserts (languages/java-jooq.ts). */
const JOOQ_BATCHING =
  'gather the rows and insert them together: dsl.batchInsert(records).execute() (the new records, one JDBC batch), or dsl.batch(dsl.insertInto(T, T.A, T.B).values((Integer) null, null)) with .bind(a, b) per row, then .execute() once (one prepared INSERT, one JDBC batch), or one insertInto(T, T.A, T.B).valuesOfRows(rows) (or chained .values(…)) per few hundred rows (one multi-row INSERT); for large loads the Loader API, dsl.loadInto(T).batchAll().loadArrays(rows).fields(T.A, T.B).execute()';

/** How MyBatis sends many rows per call: a BATCH session, or one multi-row INSERT written with <foreach>. */
const MYBATIS_BATCHING =
  'open the SqlSession with ExecutorType.BATCH (sqlSessionFactory.openSession(ExecutorType.BATCH), or with Spring a SqlSessionTemplate built with ExecutorType.BATCH), call the mapper in the loop, and call flushStatements() or commit() every 1000 rows or so and once after the loop, so that the inserts go as JDBC batches; or write one multi-row INSERT: a mapper method taking a List whose <foreach> writes one VALUES row per element, called per few hundred rows';

/**
 * Hibernate batches the INSERTs of one flush only when hibernate.jdbc.batch_size is set (the code does not show the
 * configuration, so the advice is conditional) and never for an IDENTITY id (it inserts at persist() to read the key).
 */
const HIBERNATE_BATCHING =
  'Hibernate sends the INSERTs of one flush as JDBC batches only when hibernate.jdbc.batch_size is set (50 to 1000, with hibernate.order_inserts=true; in persistence.xml, or spring.jpa.properties.hibernate.jdbc.batch_size with Spring Boot), if it is not already, and never for an entity whose id is @GeneratedValue(strategy = GenerationType.IDENTITY)';

/**
 * The project's configuration sets no batch size (or 0 or 1): Hibernate's default sends each INSERT of a flush on its
 * own. What to set, and where (the file read: cli/project-evidence.ts).
 */
function configuredBatching(config: HibernateBatching): string {
  const now = config.batchSize === undefined ? 'sets no hibernate.jdbc.batch_size (Hibernate\'s default is 0, no batching)' : `sets hibernate.jdbc.batch_size to ${config.batchSize}, which batches nothing`;
  const spring = /(?:^|\/)application(?:-[\w.-]+)?\.(?:properties|ya?ml)$/.test(config.file);
  const name = spring ? 'spring.jpa.properties.hibernate.jdbc.batch_size' : 'hibernate.jdbc.batch_size';
  const order = spring ? 'spring.jpa.properties.hibernate.order_inserts=true' : 'hibernate.order_inserts=true';
  return `${config.file} ${now}, so Hibernate sends every entity's INSERT on its own, one round trip each, even when one flush sends them all: set ${name} (50 to 1000) and ${order} in ${config.file}`;
}

function javaOrmAdvice(api: 'jpa' | 'hibernate' | 'spring-data', perCall: SqlExecution['ormPerCall'], config?: HibernateBatching, autoflushed?: string): string {
  const unbatched = config && (config.batchSize === undefined || config.batchSize <= 1) ? configuredBatching(config) : undefined;
  // A query of the persisted entity on every pass flushes each one (SqlExecution.autoflushedBy): no flush before the
  // loop's end, then the usual advice.
  if (autoflushed && !perCall && api === 'spring-data') {
    return `look up what the loop needs before it (one repository query for all the rows' keys, such as a findAllBy…In(keys) method, into a map), or, if the query need not see the entities the loop saves, give its repository method @QueryHints(@QueryHint(name = "org.hibernate.flushMode", value = "COMMIT")), so that nothing is flushed until the loop ends; then save() in the one transaction with no flush per entity, or saveAll(list) once after the loop: ${unbatched ?? HIBERNATE_BATCHING}`;
  }
  if (autoflushed && !perCall) {
    return `look up what the loop needs before it (one query for all the rows' keys, into a map), or, if the query need not see the entities the loop persists, run it with setFlushMode(FlushModeType.COMMIT), so that nothing is flushed until the loop ends; then flush or commit once after the loop (or flush() and clear() every 1000 entities with a counter): ${unbatched ?? HIBERNATE_BATCHING}`;
  }
  if (perCall === 'unbatched' && unbatched) {
    const how = api === 'spring-data' ? 'saveAll() of a list, or save() calls in one @Transactional method with no flush per entity, sends them in batches of that size' : 'flush once after the loop, or flush() and clear() every batch of entities (a counter at the batch size)';
    return `${unbatched}, then ${how}; an entity whose id is @GeneratedValue(strategy = GenerationType.IDENTITY) is never batched, whatever the size`;
  }
  if (perCall === 'identity') {
    return 'generate the entity\'s id from a Db2 sequence (@GeneratedValue(strategy = GenerationType.SEQUENCE) with a @SequenceGenerator whose allocationSize, 50 or more, matches the sequence\'s INCREMENT BY): with GenerationType.IDENTITY Hibernate inserts each entity as soon as it is persisted, to read the generated key back, and never batches them, whatever hibernate.jdbc.batch_size says. Then set hibernate.jdbc.batch_size (50 to 1000) and hibernate.order_inserts=true if they are not set, and flush once after the loop (or flush() and clear() every 1000 entities)';
  }
  if (api === 'spring-data') {
    // (A caller in another class may hold a transaction open around the loop: the file does not show it. A transaction
    // the code opens on every pass, a TransactionTemplate called in the loop, is one per save too.)
    const own = perCall === 'transaction' ? 'no @Transactional method or class, and no transaction the code opens itself (TransactionTemplate.execute, a transaction manager\'s getTransaction … commit, UserTransaction.begin … commit), is shown around the loop, and unless a caller holds a transaction open, each save() is a transaction of its own, with its own commit; ' : '';
    return `gather the entities in a list and call saveAll(list) once (or per 1000 entities), or run the whole loop in one transaction (a @Transactional method, or inside one TransactionTemplate.execute) with save() and no flush per entity: ${own}${unbatched ?? HIBERNATE_BATCHING}`;
  }
  return `persist the entities in the loop and flush or commit once after it (or flush() and clear() every 1000 entities or so with a counter), so that one flush sends them together: ${unbatched ?? HIBERNATE_BATCHING}`;
}

/**
 * The function a loop calls once per row to reach the statement (`buy` for a loop lent through buy(), then
 * createOrder()): that function sees one row per call. Undefined for the loop's own statements and for COBOL
 * PERFORM chains, whose paragraphs share the program's storage.
 */
export function perRowCallee(loop: LoopInfo | undefined): string | undefined {
  const via = loop?.via;
  if (!via || /^PERFORM\b/.test(via)) return undefined;
  return via.split(/[(,\s]/)[0];
}

/** How a message names a loop: `for loop at line 12`, `for loop at line 12 (through insertRow())`. */
export function loopName(loop: LoopInfo): string {
  // SQL PL's LOOP statement is "the LOOP", not "the LOOP loop".
  const kind = /loop$/i.test(loop.kind) ? loop.kind : `${loop.kind} loop`;
  // A function is named with its call parentheses; a COBOL PERFORM chain as written (PERFORM 2000-INSERT).
  const via = loop.via ? (/\s/.test(loop.via) ? loop.via : `${loop.via}()`) : undefined;
  const at = loop.line ? (loop.file ? ` at ${loop.file}:${loop.line}` : ` at line ${loop.line}`) : loop.file ? ` in ${loop.file}` : '';
  return `${kind}${at}${via ? ` (through ${via})` : ''}`;
}

/** At most three expressions, shortened, for a message: `id, row.name, qty`. */
export function nameList(texts: readonly string[]): string {
  const short = texts.map((t) => {
    const flat = t.replace(/\s+/g, ' ').trim();
    return flat.length > 40 ? flat.slice(0, 39) + '…' : flat;
  });
  const unique = [...new Set(short)];
  return unique.length > 3 ? `${unique.slice(0, 3).join(', ')} and ${unique.length - 3} more` : unique.join(', ');
}

/** What the front end knows about the splice at a span of `splicedValues` (its `text`: the expression a message names). */
export function spliceAt(execution: SqlExecution, span: Span): NonNullable<SqlExecution['splices']>[number] | undefined {
  const splices = execution.splices;
  if (!splices) return undefined;
  if (splices.length <= 8) return splices.find((x) => x.span.start === span.start && x.span.end === span.end);
  // Rules ask for every spliced value of a text: a search of the list for each made a text of 40,000 values
  // (f"… VALUES ({a}, {a}, …)") take 1.7 s, 130,000 over a minute. One index per list, made on first use.
  let index = spliceIndexes.get(splices);
  if (!index) {
    index = new Map();
    for (const x of splices) {
      const key = `${x.span.start}:${x.span.end}`;
      if (!index.has(key)) index.set(key, x);
    }
    spliceIndexes.set(splices, index);
  }
  return index.get(`${span.start}:${span.end}`);
}

const spliceIndexes = new WeakMap<readonly Splice[], Map<string, Splice>>();

/** The spliced expressions of an execution that a statement-relative span covers (names spliced into the text). */
function splicesAt(execution: SqlExecution | undefined, stmt: Statement, span: Span, markers = true): string[] {
  return [...new Set(splicesOver(execution, stmt, span, markers).map((x) => x.text))];
}

/** The splices whose placeholder lies in `span` of `stmt` (spliced marker lists only when `markers`). */
function splicesOver(execution: SqlExecution | undefined, stmt: Statement, span: Span, markers: boolean): Splice[] {
  if (!execution?.splices) return [];
  const found: Splice[] = [];
  // Placeholder characters map one by one into their host expression: look at each of them.
  for (let o = span.start; o < Math.min(span.end, span.start + 400); o++) {
    const at = stmt.origin.toFile(o);
    const s = execution.splices.find((x) => x.span.start <= at && at < x.span.end && (markers || !x.markers));
    if (s && !found.includes(s)) found.push(s);
  }
  return found;
}

type Splice = NonNullable<SqlExecution['splices']>[number];

/** The table an INSERT/MERGE of an execution writes to: its name, or the expressions a spliced name comes from. */
export function targetName(execution: SqlExecution | undefined, stmt: Statement & { target: { span: Span } }, schema: SchemaModel): string {
  const spliced = splicesAt(execution, stmt, stmt.target.span);
  // <tableName>, <schema>.<table>: the name is whatever those expressions hold at run time.
  if (spliced.length > 0) return spliced.slice(0, 2).map((t) => `<${nameList([t])}>`).join('.');
  return displayKey(schema.keyOf((stmt as InsertStatement).target, stmt));
}

/**
 * A single-row INSERT … VALUES of an execution, unless its one row is one spliced value named like a list
 * of rows: VALUES (%s) filled with row_string may be a whole multi-row VALUES list.
 */
export function singleRowInsertOf(execution: SqlExecution): InsertStatement | undefined {
  return insertsOf(execution).find((insert) => isSingleRowValues(insert) && !splicesRowList(execution, insert));
}

/**
 * A one-row INSERT run on every pass of a bulk loop, unbatched, that one INSERT … SELECT or a batch could replace
 * (single-row-insert's finding; not rows fetched from a called procedure's result set, which no query can read).
 */
export function isRowAtATimeInsert(execution: SqlExecution): execution is SqlExecution & { loop: LoopInfo } {
  return runsOnEveryPass(execution) && singleRowInsertOf(execution) !== undefined;
}

/**
 * Runs, unbatched, on every pass of a bulk loop whose rows one query could give (not rows fetched from a called
 * procedure's result set, nor from a query that changes data): what makes an INSERT in it one row at a time.
 */
export function runsOnEveryPass(execution: SqlExecution): execution is SqlExecution & { loop: LoopInfo } {
  return isBulkLoop(execution.loop) && !execution.batched && runsRows(execution) && !execution.loop.noQueryToFold;
}

/**
 * Which loop a row-at-a-time INSERT runs in, as single-row-insert groups them: one finding per loop, whatever the
 * calls that lead to each INSERT (DayTrader's populate loop reaches ORDEREJB through buy(), then createOrder(), and
 * HOLDINGEJB through buy(), then completeOrder(), then createHolding()).
 */
export function rowAtATimeLoopKey(loop: LoopInfo): string {
  return `${loop.file ?? ''}:${loop.span.start}`;
}

/**
 * The loop as one finding names it when its INSERTs are reached through several call paths: through the calls
 * they share (LoopInfo.via, "buy(), then createOrder()"), none when they share none.
 */
export function sharedPathLoop(loops: readonly LoopInfo[]): LoopInfo {
  const first = loops[0];
  const paths = [...new Set(loops.map((l) => l.via ?? ''))];
  if (paths.length === 1) return first;
  const steps = paths.map((p) => p.split(', then '));
  let shared = 0;
  while (steps.every((s) => shared < s.length && s[shared] === steps[0][shared])) shared++;
  const common = steps[0].slice(0, shared);
  // One call is written without its parentheses (loopName adds them), as a lending path of one call is.
  const via = common.length === 0 ? undefined : common.length === 1 ? common[0].replace(/\(\)$/, '') : common.join(', then ');
  const loop: LoopInfo = { ...first };
  if (via === undefined) delete loop.via;
  else loop.via = via;
  return loop;
}

/** Where single-row-insert reports the loop `execution` runs in: the loop's first row-at-a-time INSERT call. */
export function firstRowAtATimeCall(executions: readonly SqlExecution[], execution: SqlExecution): SqlExecution | undefined {
  if (!execution.loop) return undefined;
  const key = rowAtATimeLoopKey(execution.loop);
  return executions.find((e) => isRowAtATimeInsert(e) && rowAtATimeLoopKey(e.loop) === key);
}

/** VALUES (%s) whose one value is a spliced expression named like a list of rows (row_string): many rows per text. */
export function splicesRowList(execution: SqlExecution, insert: InsertStatement): boolean {
  if (insert.source.kind !== 'values' || insert.source.rows.length !== 1) return false;
  const values = insert.source.rows[0].values;
  return values.length === 1 && splicesOver(execution, insert, values[0].span, false).some((x) => x.rows);
}

/** The target of an execution's first INSERT (or MERGE), for messages. */
export function firstTarget(execution: SqlExecution, schema: SchemaModel): string {
  const stmt = execution.statements.find((s): s is InsertStatement => s.kind === 'insert') ?? execution.statements.find((s) => s.kind === 'merge');
  return stmt && 'target' in stmt ? targetName(execution, stmt as InsertStatement, schema) : 'the table';
}
