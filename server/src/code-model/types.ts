// The engine's model of code (FileModel.code): what a file's code runs, in which loops, with which commits. The
// host-language front ends (code/) and the SQL PL reader (sql/sqlpl-code-model.ts) fill it; the engine, the schema
// and the rules read it. Spans here are file offsets.
import type { InsertStatement, QualifiedName, Span, Statement } from '../sql/ast';

/** What a Django project on Db2 tells the Python front end (FrontEndOptions.djangoDb2Folders; cli/project-evidence.ts). */
export interface DjangoProject {
  /** Why the project is on Db2 (the settings file and what it says). */
  why: string;
  /**
   * Its settings set ATOMIC_REQUESTS: True: Django runs each view in a transaction (a function whose first
   * parameter, or second after `self`, is `request`).
   */
  atomicRequests?: boolean;
}

/** What a Java project's configuration says of Hibernate's batching (code/hibernate-config.ts; absent: none found). */
export interface HibernateBatching {
  /** The configuration file read, as a message names it (relative to the project's top folder). */
  file: string;
  /** hibernate.jdbc.batch_size as set (the largest, when several files or units set it); undefined: not set. */
  batchSize?: number;
  /**
   * The Spring Boot file that sets MyBatis's executor to BATCH (`mybatis.executor-type=batch`,
   * `mybatis.configuration.default-executor-type=BATCH`): the project's mapper calls are batched (java-mybatis.ts).
   */
  mybatisBatch?: string;
  /**
   * The file that sets the connection pool's initial autocommit off (`spring.datasource.hikari.auto-commit=false`,
   * tomcat / dbcp2 `default-auto-commit`, hikari.properties `autoCommit=false`): a JDBC connection got from a
   * DataSource starts with autocommit off (java.ts getConnection).
   */
  poolAutocommitOff?: string;
  /**
   * The file that sets Hibernate's flush mode to COMMIT or MANUAL (`org.hibernate.flushMode`, as
   * `spring.jpa.properties.org.hibernate.flushMode` in a Spring Boot file, a <property> of persistence.xml or
   * hibernate.cfg.xml): no query flushes the session before it runs (java-jpa.ts).
   */
  flushModeOff?: string;
  /**
   * No Hibernate configuration was found, only MyBatis's executor or the pool's autocommit (`file` is that one;
   * hibernateUnbatched: no).
   */
  mybatisOnly?: boolean;
}

export interface LoopInfo {
  /** The whole loop statement. */
  span: Span;
  /** for, while, forEach, do, list comprehension, shell for/while … */
  kind: string;
  /** Set when the call sits in a helper function that this loop calls (same file, one level). */
  via?: string;
  /** 1-based line where the loop starts (messages name it). */
  line?: number;
  /** The file the loop is in, when it is not the file of the call it is lent to (engine/cross-file.ts). */
  file?: string;
  /** Passes of a counting loop with a constant bound (for i < 5, range(5)); absent when not known. */
  passes?: number;
  /**
   * Where `passes` comes from when the loop's bound is a parameter of its routine: the script's CALLs of it with
   * literal arguments ("CALL INSERTDATA(1000) at line 116"). Set by the SQL PL front end.
   */
  passesFrom?: string[];
  /**
   * `passes` is an upper bound, per call of the routine (`perCall`) or per run of a script's block, set by a string's
   * declared length: a WHILE that counts a variable down by a constant from LENGTH of a CLOB(100000) parameter
   * (split into rows of 80: 1,250 passes at most). `from`: how a message says where the bound comes from. Set by the
   * SQL PL front end (sql/sqlpl-code-model.ts), for a loop in no other loop or handler, of a routine no loop or trigger of its
   * file calls.
   */
  passesBound?: { from: string; perCall: boolean };
  /** The loop counts its variable down (WHILE len > 0 … SET len = len - 80): its rows are no count up to a bound. */
  countsDown?: boolean;
  /**
   * Each pass works on a set of rows, not one: it inserts a set (INSERT … SELECT, multi-row VALUES), runs SQL
   * text built per pass or an administrative routine (ADMIN_CMD), or the loop walks catalog rows (a table at a time). A COMMIT or a one-row INSERT (a
   * log line) per pass is then per chunk. Set by the SQL PL front end (sql/sqlpl-code-model.ts).
   */
  chunked?: boolean;
  /**
   * There is no query to fold into one INSERT … SELECT: the loop FETCHes from a cursor over a called procedure's
   * result set (ALLOCATE c CURSOR FOR RESULT SET), or its query changes data (FOR … FROM OLD TABLE (DELETE …), which
   * Db2 accepts in a SELECT but not in an INSERT's: SQLSTATE 428FL). Set by the SQL PL front end.
   */
  noQueryToFold?: boolean;
  /**
   * The loop walks an array the routine was handed (ARRAY_NEXT, CARDINALITY): the elements of one call, such as
   * one order's lines, not a bulk load. Set by the SQL PL front end.
   */
  walksArray?: boolean;
  /**
   * The loop FETCHes the result set of a routine Db2 supplies (SYSPROC.ADMIN_CMD's DESCRIBE, ADMIN_MOVE_TABLE's
   * report): the few rows one administrative call returns, not a bulk load. Set by the SQL PL front end.
   */
  readsAdminOutput?: boolean;
  /**
   * Where a routine's loop gets each pass's row: the FOR statement's query, a cursor it FETCHes (the name), or
   * neither (a counter, a string it splits, values it makes up). Set by the SQL PL front end; the fold into one
   * INSERT … SELECT differs (single-row-insert's advice).
   */
  rowsFrom?: { query: true } | { cursor: string; declared?: CursorOrigin } | { madeUp: true };
  /** A pass SELECTs … INTO from another table (a lookup per row): folded, that is a join. Set by the SQL PL front end. */
  looksUpPerRow?: boolean;
  /**
   * A FOR loop over the rows of one table, a pass per row at most (LoopStatement.rowsOf): `at` is the loop statement
   * (for the table's name), `deletes` when the query removes each row it passes over (FROM OLD TABLE (DELETE …)), so
   * that all runs of the loop together pass at most once per row the table ever receives. Otherwise `runs` is how
   * often the loop runs when the script says so: the number of its CALLs of the routine, when nothing else in the
   * file calls it, the loop is in no other loop and the routine has no GOTO. The schema bounds the rows the loop
   * inserts by the table's known rows (SchemaModel.knownRows). Set by the SQL PL front end.
   */
  rowsOf?: { table: QualifiedName; at: Statement; deletes: boolean; runs?: number };
  /**
   * The loop counts to, or walks, something its function was handed (`i < *numSlots`, numSlots a parameter of
   * db2ExecForeignBatchInsert): that function has the rows of all its passes at once, and a batch of them can be
   * sent from there. `fn`: the function; `count`: how many rows, as a message says it (the bound as written,
   * `*numSlots`; `the size of rows` for a range for). Set by the C/C++ front end (loop-bounds.ts).
   */
  receives?: { fn: string; count: string };
}

/** How a routine's cursor gets its query: DECLARE … CURSOR FOR a select, FOR a PREPAREd statement (its name), or SET c = CURSOR FOR. */
export type CursorOrigin = { declare: true } | { prepared: string } | { set: true };

export interface ConnectionInfo {
  /** The connection's variable name where known. */
  name?: string;
  /**
   * Autocommit where the execution happens, as the file shows it: a switch the code makes, or the driver's
   * default for a connection the file opens itself; 'unknown' for one passed in or made elsewhere.
   */
  autocommit: 'on' | 'off' | 'unknown';
  /** Where autocommit was switched (setAutoCommit(false), ibm_db.autocommit(conn, OFF) …). */
  autocommitSpan?: Span;
  /**
   * Set when `autocommit` is the driver's default for a field declared with the driver's connection type that this
   * file never switches ("an ibm_db Connection"; LanguageAdapter.driverConnectionFields).
   */
  declaredAs?: string;
  /**
   * Set when `autocommit` is the default of a connection got from a DataSource (a pool's or an application
   * server's, on unless configured) whose project's configuration was not found to switch it off (java.ts).
   */
  pooled?: boolean;
  /**
   * The driver whose default `autocommit` is, when it is not the execution's own API's: a jaydebeapi connection that
   * DB-API cursors run on ('jaydebeapi': its autocommit is switched off on the JDBC connection under it).
   */
  driver?: string;
  /**
   * `autocommit` is on because the library commits each DML statement it runs outside a transaction (SQLAlchemy 1.x's
   * library-level autocommit: `engine.execute(...)`, or a plain string on a connection with no transaction begun).
   */
  libraryAutocommit?: true;
}

export type ExecutionAction =
  | 'executeDirect' // SQL text executed as is: Statement.executeUpdate(sql), ibm_db.exec_immediate, SQLExecDirect, db2 "…"
  | 'prepare' // Connection.prepareStatement, ibm_db.prepare, SQLPrepare
  | 'executePrepared' // PreparedStatement.executeUpdate, ibm_db.execute, SQLExecute
  | 'addBatch'
  | 'executeBatch'
  | 'executeMany'; // executemany / execute_many / batchUpdate / CLI array insert

export interface SqlExecution {
  /** The host call, e.g. `stmt.executeUpdate(sql)`. */
  callSpan: Span;
  /**
   * Driver API, e.g. 'jdbc', 'spring', 'sqlj', 'ibm_db', 'dbapi', 'node-ibm_db', 'cli', 'esql', 'clp';
   * 'wrapper' for a call recognised by its use (an SQL text handed to a query/execute method of unknown kind).
   */
  api: string;
  action: ExecutionAction;
  /** The statements of the SQL text this call runs or prepares, when the text is known. */
  statements: Statement[];
  /** How the SQL text was built. */
  textKind: 'constant' | 'concatenation' | 'template' | 'format' | 'variable' | 'unknown';
  /** Values spliced into the SQL text (file offsets). */
  splicedValues: Span[];
  /**
   * Every expression spliced into the SQL text (values, names, constants), with its source text: messages
   * name them. `markers` marks a spliced list of parameter markers ("?, ?, ?" built from the column count),
   * `numeric` a variable declared with a numeric type (int id): no SQL text can get in through it; `rows` a value
   * that may hold a list of rows (row_string, appended "(…)," per row): VALUES (%s) with it is no single row;
   * `quoted` a value whose single quotes the code doubles before splicing (`.replace("'", "''")`, directly, through
   * the variables it is built from, or in a function of the file it goes through); `escaped` one the code passes to an
   * escape function (`this.escape(v)`) before splicing it, there or in what the variables it is built from were
   * assigned or had pushed onto them. `text` is the expression the
   * statement's text shows: `insert_row` for a value `value` that reached the text through
   * `f"… VALUES ({insert_row})"` (insert_row being built from value); `span` is always the value's own.
   */
  splices?: { span: Span; text: string; markers?: boolean; numeric?: boolean; rows?: boolean; quoted?: boolean; escaped?: boolean }[];
  /**
   * The text is a VALUES list that grows by a row at a time (`sql = f"{sql},({row})"`, `sql += ", (" + …`): one
   * execution carries many rows, as with a spliced list of rows (`rows` above).
   */
  rowList?: boolean;
  /** The named function the call is in (absent for file-level code). */
  inFunction?: { name?: string; span: Span };
  /** The innermost loop the call runs in. */
  loop?: LoopInfo;
  connection?: ConnectionInfo;
  /** Rows go in arrays/batches (addBatch/executeBatch, executemany, PARAMSET_SIZE > 1). */
  batched: boolean;
  /** For executes of a prepared statement: the prepare call whose statements this runs. */
  preparedAt?: Span;
  /**
   * The statement handle of a CLI call as written, blanks dropped (`session->stmtp->hsql`): the engine finds the
   * SQLPrepare of another file that an SQLExecute runs through it (engine/called-inserts.ts).
   */
  handle?: string;
  /** Inside an if on a counter within its loop (if (++n % 1000 == 0) ps.executeBatch()). */
  guarded?: boolean;
  /**
   * A wrapper call (api 'wrapper') passed a keyword saying it must not commit: `autocommit=False` or `commit=False`
   * (ibmdbpy's `self._prepare_and_execute(query, autocommit=False)`): the call and the keyword argument as a message
   * names them (`self._prepare_and_execute()`, `autocommit=False`).
   */
  noCommitArg?: { call: string; flag: string };
  /** The text is a whole CLP script (a here-document fed to db2), not one statement. */
  script?: boolean;
  /**
   * No SQL text in the code: the INSERT is one SQLAlchemy builds, with its values bound, from the ORM's unit of work
   * (`orm`: session.add(obj) of a mapped class's instance, sent at the session's flush) or a Core construct (`core`:
   * insert(t), t.insert()). `statements` hold that INSERT (`INSERT INTO S.T VALUES (?)`, the table as the file maps it,
   * else named by the class or table expression).
   */
  construct?: 'orm' | 'core';
  /**
   * A Java ORM insert (`construct: 'orm'`, api `jpa`, `hibernate` or `spring-data`) that goes to Db2 one row per call
   * whatever the code flushes: the entity's id is @GeneratedValue(strategy = GenerationType.IDENTITY) (`identity`:
   * Hibernate inserts it at persist() to read the key back and never batches it), or Spring Data's save() runs in a
   * transaction of its own (`transaction`: no @Transactional method or class around the call, and no transaction the
   * code opens itself around its loop: a TransactionTemplate's callback, getTransaction … commit, begin … commit).
   */
  ormPerCall?: 'identity' | 'transaction' | 'unbatched';
  /**
   * A DB-API `executemany` that the driver runs as one execute per parameter set: pyodbc unless the cursor's
   * `fast_executemany` is set True (then an ODBC parameter array), and pypyodbc always. Its loop is the call itself.
   */
  manyPerRow?: 'pyodbc' | 'pypyodbc';
  /**
   * A quick fix in the host file's offsets for what the call does per row, where the edit is mechanical: pyodbc's
   * `cur.fast_executemany = True` on its own line before the statement that calls `cur.executemany`.
   */
  hostFix?: HostFix;
  /**
   * An ORM insert (`construct: 'orm'`, sent at a flush) that goes one row per pass of its loop because a query of the
   * same session runs on every pass and flushes what was added before it runs (SQLAlchemy's autoflush; Hibernate's
   * FlushMode AUTO, for a query of the entity): that query as the message names it (`session.query(Customer)…first()`,
   * `Customer.query…first()`, `session.merge()`, `em.createQuery(…).getResultList()`).
   */
  autoflushedBy?: string;
  /**
   * An ORM call that first queries for its row and inserts only when none is found (Django's get_or_create,
   * update_or_create and their async forms): the call as the message names it (`Order.objects.get_or_create()`).
   */
  queriesFirst?: string;
  /**
   * Spring Data: the repository query methods of the loop that autoflush this insert (autoflushedBy names the first),
   * when every one is such a method of a repository whose type the file declares: the type, the qualified names it
   * may be (`from`, as ormClass's) and the method. The engine drops those whose method another file's repository
   * interface hints to flush at COMMIT or MANUAL (OrmEntity.queryFlushOff, engine/orm-entities.ts); with none left the
   * insert goes with the flush after the loop (batched).
   */
  autoflushRepositoryQueries?: { query: string; type: string; from?: string[]; method: string }[];
  /**
   * A Java ORM insert of a project whose configuration was found (FrontEndOptions.hibernateBatching): the file read and
   * the batch size it sets, if any. With `ormPerCall: 'unbatched'` it sets none (or 0, 1): Hibernate's default, one
   * INSERT per entity at the flush.
   */
  ormConfig?: HibernateBatching;
  /**
   * An ORM insert (`construct`) of a class whose table or id the file does not settle: the class (`name`, as declared)
   * and the qualified names it may be where the file says (`from`: Java `com.acme.model.Order` by the file's import of
   * it, its package or a wildcard import; Python the module a from-import or an import names it by, `app.models.Order`);
   * absent `from`: the file does not say (no package, no import naming it). The engine looks the class up among the
   * entity classes of the workspace's files (CodeModel.entities, engine/orm-entities.ts) and names its table in
   * `statements`, and for Java sets `ormPerCall: 'identity'` for an IDENTITY id. Java records it on every ORM insert
   * not known to be IDENTITY (an id inherited from a @MappedSuperclass of another file); Python where the class is
   * none of the file's.
   */
  ormClass?: { name: string; from?: string[] };
  /**
   * A MyBatis mapper call (api `mybatis`) of an interface another file declares: the qualified ids the statement may
   * have (`com.acme.OrderMapper.insertOrder`, from the file's imports and package). The engine names the SQL text
   * from the mapper's file (engine/orm-entities.ts, OrmEntity.mapper) and parses it over the call; not found, the
   * execution has no statement.
   */
  mapperStatement?: string[];
  /**
   * Set on an execution the engine adds at a call, in a loop, of a function of another file that runs one
   * single-row INSERT per call (engine/called-inserts.ts): `statements` is then empty (the INSERT is the other
   * file's text), `insert` the INSERT when its text is known there, `at` the file and line of the execute call and
   * `runs` its name (SQLExecute); `byName`: the text is not known, and the function holding the call is named for
   * an insert (db2ExecuteInsert); `prepared`: where the statement it runs is prepared, when the engine can tell (the
   * SQLPrepare of its handle, in its file or, through the same handle path, in the nearest other file: db2_fdw's
   * db2PrepareQuery()).
   */
  callsInsert?: { file: string; line: number; runs: string; insert?: InsertStatement; byName?: boolean; prepared?: PreparedSite };
}

/** A prepare call as a message names it: its file and line, the function it is in, the handle it prepares. */
export interface PreparedSite {
  file: string;
  line: number;
  fn?: string;
  runs: string;
  handle?: string;
}

export interface CommitCall {
  callSpan: Span;
  api: string;
  loop?: LoopInfo;
  /** Inside an if on a counter (i % 1000 == 0, count >= batchSize …). */
  guarded: boolean;
  /** The named function the commit is in (a commit(conn) helper): another file's loop may reach it (engine/cross-file.ts). */
  inFunction?: { name?: string; span: Span };
  /**
   * How many ifs stand between the commit and its loop or function: of several commits on a pass (DayTrader's buy()
   * commits a global transaction under two conditions, else its connection), the plainest is the one to name.
   */
  conditions?: number;
}

/**
 * An ORM entity or mapped class a file declares (CodeModel.entities): Java's @Entity and @MappedSuperclass classes,
 * Python's declarative and Flask-SQLAlchemy model classes with a table.
 */
export interface OrmEntity {
  /** The class name as declared. */
  name: string;
  /** Java: the file's package ('' for none); Python: absent (the file's path names its modules: engine/cross-file.ts modulesOf). */
  package?: string;
  /** Its table as SQL writes it (`orders`, `"Orders"`, `APP`): absent when the file does not settle it. */
  table?: { name: string; schema?: string };
  /** Java: its own id is @GeneratedValue(strategy = GenerationType.IDENTITY). */
  identity?: boolean;
  /** Java: the class it extends (simple name), whose id it inherits. */
  extends?: string;
  /** Java: a @MappedSuperclass (no table of its own; its id is its entities'). */
  mappedSuperclass?: boolean;
  /**
   * Java: not an entity but a MyBatis mapper interface: its @Insert statements by method, as MyBatis prepares them
   * (`#{…}` as `?`; languages/java-mybatis.ts javaMappers).
   */
  mapper?: Record<string, string>;
  /**
   * Java: not an entity but a Spring Data repository interface: its query methods whose @QueryHints set Hibernate's
   * flush mode to COMMIT or MANUAL (languages/java-jpa.ts javaRepositories), sorted.
   */
  queryFlushOff?: string[];
}

export interface CodeModel {
  executions: SqlExecution[];
  commits: CommitCall[];
  /**
   * INSERT/MERGE texts a named function of this file builds with values spliced into their rows and returns, for its
   * callers to run elsewhere (an ORM's query generator): `callSpan` is the string that starts its INSERT of spliced
   * rows (else the returned expression), `inFunction` the function; no loop, connection or batching is known. Not executions: only prefer-parameter-markers reads them.
   * Absent when there are none.
   */
  returnedTexts?: SqlExecution[];
  /**
   * Methods this file calls inside loops on a variable of a known declared type (`ts.createQuote(…)`, ts a
   * TradeServices): the engine lends the loop to a method of that name in another file whose class is that type
   * (engine/cross-file.ts). Java only; absent when there are none.
   */
  loopCalls?: { name: string; type: string; loop: LoopInfo; guarded: boolean }[];
  /** The types this file's classes are: their names and what they extend or implement (Java). */
  types?: string[];
  /**
   * Calls from one method of this file to another outside loops (Java): a loop lent to the caller reaches the callee.
   * `span`: the first such call in the caller (where a commit helper it calls is reported, engine/cross-file.ts).
   */
  innerCalls?: { caller: string; callee: string; span: Span; conditions: number }[];
  /** C/C++: the functions this file defines; `exported` unless static (engine/called-inserts.ts). */
  functions?: { name: string; exported: boolean }[];
  /**
   * C/C++: calls of functions by plain name, once per calling function outside loops (`from`) and once per loop
   * inside one (`loop`, `guarded` by a counter): another file may define the function (engine/called-inserts.ts).
   */
  functionCalls?: { name: string; span: Span; from?: string; loop?: LoopInfo; guarded?: boolean }[];
  /**
   * Python: the functions this file defines at module level (by the span of their `def`), where it runs SQL or
   * commits: another file's loop may call one through an import (engine/cross-file.ts).
   */
  moduleFunctions?: { name: string; span: Span }[];
  /**
   * Python: calls in loops of a function another module defines, by what the file's imports make of the name
   * (`app.dao.save_row` for `save_row` after `from app.dao import save_row`, or for `dao.save_row` after
   * `import app.dao as dao`; relative imports resolved against the file's folders), once per name and loop.
   */
  moduleCalls?: { callee: string; loop: LoopInfo; guarded: boolean }[];
  /**
   * The ORM entity classes this file declares (even a file left out for having no data access of its own: an entity
   * file): other files' ORM inserts of them get their table and id from here (SqlExecution.ormClass). Absent when none.
   */
  entities?: OrmEntity[];
}

/** An edit of a host file (application code), in the file's offsets, offered as a quick fix (SqlExecution.hostFix). */
export interface HostFix {
  title: string;
  edits: { span: Span; newText: string }[];
  /** The edit changes what the program does beyond its speed (ReportFix.changesMeaning): offered alone, not by Fix all. */
  changesMeaning?: boolean;
}
