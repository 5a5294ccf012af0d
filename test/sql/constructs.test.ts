// DDL and CLP constructs real scripts use: PERIOD as a column name (and every other non-reserved word as a
// column and table name), INCLUDE/EXCLUDE NULL KEYS, ALTER TABLE … FOREIGN KEY without ADD, INGEST,
// cursor variables, CONNECT RESET@ and UPDATE COMMAND OPTIONS … OFF@ in -td@ scripts, other dialects.
import { strict as assert } from 'node:assert';
import { parseScript, parseSql } from '../../server/src/sql/parser';
import type { Statement } from '../../server/src/sql/ast';
import { coverageOf } from '../../server/src/engine/statements';

type Of<K extends Statement['kind']> = Statement & { kind: K };

function one<K extends Statement['kind']>(sql: string, kind: K): Of<K> {
  const { statements } = parseSql(sql);
  assert.equal(statements.length, 1, `one statement expected in ${sql}`);
  assert.equal(statements[0].parseError, undefined, `${sql}: ${statements[0].parseError?.message}`);
  assert.equal(statements[0].kind, kind, sql);
  return statements[0] as Of<K>;
}

/**
 * Keywords of Db2's SQL that are not reserved (Db2 for LUW reserves none outright: a keyword is an ordinary
 * identifier wherever it cannot be read as syntax). Words that open a clause in the very position tested
 * (CONSTRAINT, PRIMARY, UNIQUE, FOREIGN, CHECK and LIKE inside a column list; SELECT, VALUES and WITH after
 * INSERT INTO) are ambiguous for Db2 itself and need quotes there; they are left out.
 */
const NON_RESERVED = `ABS ABSOLUTE ACCESS ACCORDING ACTION ACTIVATE ADA ADD AFTER ALIAS ALLOCATE ALLOW ALTER ALWAYS AND ANY APPEND
ARRAY AS ASC ASENSITIVE ASSOCIATE ASUTIME ASYMMETRIC AT ATOMIC ATTRIBUTES AUDIT AUTHORIZATION AUTOMATIC AUX AUXILIARY
AVG BEFORE BEGIN BETWEEN BIGINT BINARY BIND BIT BLOB BLOCKED BOOLEAN BOTH BUFFERPOOL BY CACHE CALL CALLED CAPTURE
CARDINALITY CASCADE CASCADED CASE CAST CATALOG CCSID CEIL CEILING CHANGE CHAR CHARACTER CLIENT CLOB CLOSE CLUSTER
COALESCE COLLATE COLLECTION COLLID COLUMN COLUMNS COMMENT COMMIT COMMITTED COMPACT COMPRESS CONCAT CONDITION CONNECT
CONNECTION CONTAINS CONTENT CONTINUE COUNT COUNT_BIG CREATE CROSS CUBE CURRENT CURSOR CYCLE DATA DATABASE
DATAPARTITIONNAME DATAPARTITIONNUM DATE DAY DAYS DB2GENERAL DB2GENRL DB2SQL DBINFO DBPARTITIONNAME DBPARTITIONNUM
DEALLOCATE DEC DECIMAL DECLARE DEFAULT DEFAULTS DEFERRED DEFINITION DELETE DENSE_RANK DESC DESCRIBE DESCRIPTOR
DETERMINISTIC DIAGNOSTICS DISABLE DISALLOW DISCONNECT DISTINCT DO DOCUMENT DOUBLE DROP DSSIZE DYNAMIC EACH EDITPROC
ELSE ELSEIF ENABLE ENCODING ENCRYPTION END ENDING ENFORCED ERASE ESCAPE EVERY EXCEPT EXCEPTION EXCLUDE EXCLUDING
EXCLUSIVE EXECUTE EXISTS EXIT EXPLAIN EXTENDED EXTERNAL EXTRACT FENCED FETCH FIELDPROC FILE FINAL FIRST FLOAT FOR
FREE FROM FULL FUNCTION GENERAL GENERATED GET GLOBAL GO GOTO GRANT GRAPHIC GROUP HANDLER HASH HASHED_VALUE HAVING HINT
HOLD HOUR HOURS IDENTITY IF IMMEDIATE IMPLICITLY IN INCLUDE INCLUDING INCLUSIVE INCREMENT INDEX INDICATOR INF INHERIT
INNER INOUT INSENSITIVE INSERT INTEGER INTEGRITY INTERSECT INTO IS ISOBID ISOLATION ITERATE JAR JAVA JOIN KEEP KEY
LABEL LANGUAGE LAST LATERAL LC_CTYPE LEAVE LEFT LEVEL LINKTYPE LOCAL LOCALDATE LOCALE LOCALTIME LOCALTIMESTAMP LOCATOR
LOCATORS LOCK LOCKMAX LOCKSIZE LOG LOGGED LONG LOOP MAINTAINED MATERIALIZED MAXVALUE MERGE MICROSECOND MICROSECONDS
MINUTE MINUTES MINVALUE MODE MODIFIES MONTH MONTHS NAN NATIONAL NEW NEW_TABLE NEXT NEXTVAL NO NOCACHE NOCYCLE NODENAME
NODENUMBER NOMAXVALUE NOMINVALUE NONE NOORDER NORMALIZED NOT NULL NULLS NUMPARTS OBID OF OLD OLD_TABLE ON OPEN
OPTIMIZATION OPTIMIZE OPTION OR ORDER ORGANIZE OUT OUTER OVER OVERRIDING PACKAGE PADDED PAGESIZE PARAMETER PART
PARTITION PARTITIONED PARTITIONING PARTITIONS PASSWORD PATH PCTFREE PERIOD PIECESIZE PLAN POSITION PRECISION PREPARE
PREVVAL PRIOR PRIQTY PRIVILEGES PROCEDURE PROGRAM PSID PUBLIC QUERY QUERYNO RANGE RANK READ READS RECOVERY REFERENCES
REFERENCING REFRESH RELEASE RENAME REPEAT RESET RESIGNAL RESTART RESTRICT RESULT RESULT_SET_LOCATOR RETURN RETURNS
REVOKE RIGHT ROLE ROLLBACK ROLLUP ROUTINE ROW ROWNUMBER ROWS ROWSET ROW_NUMBER RRN RUN SAVEPOINT SCHEMA SCRATCHPAD
SCROLL SEARCH SECOND SECONDS SECQTY SECURITY SENSITIVE SEQUENCE SESSION SESSION_USER SET SIGNAL SIMPLE SNAN SOME
SOURCE SPECIFIC SQL SQLID STACKED STANDARD START STARTING STATEMENT STATIC STATMENT STAY STOGROUP STORES STYLE
SUBSTRING SUMMARY SYNONYM SYSFUN SYSIBM SYSPROC SYSTEM SYSTEM_USER TABLE TABLESPACE THEN TIME TIMESTAMP TO TRANSACTION
TRIGGER TRIM TRUNCATE TYPE UNDO UNION UNTIL UPDATE USAGE USER USING VALIDPROC VALUE VARIABLE VARIANT VCAT VERSION
VIEW VOLATILE VOLUMES WHEN WHENEVER WHERE WHILE WLM WRITE XMLELEMENT XMLEXISTS XMLNAMESPACES YEAR YEARS`
  .split(/\s+/)
  .filter((w) => w !== '');

describe('sql parser: keywords as column and table names', () => {
  it(`reads each of ${NON_RESERVED.length} non-reserved words as a column name (CREATE TABLE, ALTER TABLE ADD, INSERT, CREATE INDEX)`, () => {
    const failed: string[] = [];
    for (const w of NON_RESERVED) {
      const checks: [string, (s: Statement) => boolean][] = [
        [`CREATE TABLE t (id INTEGER NOT NULL, ${w} VARCHAR(10), x INT)`, (s) => s.kind === 'createTable' && s.columns.map((c) => c.name).join() === `ID,${w},X`],
        [`CREATE TABLE t (${w} INTEGER NOT NULL)`, (s) => s.kind === 'createTable' && s.columns[0]?.name === w],
        [`ALTER TABLE t ADD COLUMN ${w} INTEGER`, (s) => s.kind === 'alterTable' && s.actions[0].kind === 'addColumn' && s.actions[0].column.name === w],
        [`INSERT INTO t (id, ${w}) VALUES (1, 2)`, (s) => s.kind === 'insert' && s.columns.join() === `ID,${w}`],
        [`CREATE INDEX i ON t (${w}, id)`, (s) => s.kind === 'createIndex' && s.columns[0]?.name === w],
      ];
      for (const [sql, ok] of checks) {
        const { statements } = parseSql(sql);
        if (statements.length !== 1 || statements[0].parseError || !ok(statements[0])) failed.push(`${sql}  →  ${statements[0]?.parseError?.message ?? statements.map((s) => s.kind)}`);
      }
    }
    assert.deepEqual(failed, []);
  });

  it('reads each of them as a table name (CREATE TABLE, INSERT INTO, CREATE INDEX ON, ALTER TABLE, LOCK TABLE)', () => {
    const failed: string[] = [];
    for (const w of NON_RESERVED) {
      const checks: [string, (s: Statement) => boolean][] = [
        [`CREATE TABLE app.${w} (a INT)`, (s) => s.kind === 'createTable' && s.table.name === w],
        [`CREATE TABLE ${w} (a INT)`, (s) => s.kind === 'createTable' && s.table.name === w],
        [`INSERT INTO app.${w} VALUES (1)`, (s) => s.kind === 'insert' && s.target.name === w],
        [`CREATE INDEX i ON app.${w} (a)`, (s) => s.kind === 'createIndex' && s.table.name === w],
        [`ALTER TABLE app.${w} ADD COLUMN b INT`, (s) => s.kind === 'alterTable' && s.table.name === w],
        [`LOCK TABLE app.${w} IN EXCLUSIVE MODE`, (s) => s.kind === 'lockTable' && s.table.name === w],
      ];
      for (const [sql, ok] of checks) {
        const { statements } = parseSql(sql);
        if (statements.length !== 1 || statements[0].parseError || !ok(statements[0])) failed.push(`${sql}  →  ${statements[0]?.parseError?.message ?? statements.map((s) => s.kind)}`);
      }
    }
    assert.deepEqual(failed, []);
  });

  it('still reads PERIOD SYSTEM_TIME (…) as a period, and ADD PERIOD BUSINESS_TIME as an action', () => {
    const t = one('CREATE TABLE t (a TIMESTAMP(12) NOT NULL, b TIMESTAMP(12) NOT NULL, period INT, PERIOD SYSTEM_TIME (a, b))', 'createTable');
    assert.deepEqual(t.columns.map((c) => c.name), ['A', 'B', 'PERIOD']);
    const a = one('ALTER TABLE t ADD PERIOD BUSINESS_TIME (a, b) ADD period VARCHAR(7)', 'alterTable');
    assert.deepEqual(a.actions.map((x) => x.kind), ['other', 'addColumn']);
  });
});

describe('sql parser: DDL constructs of real scripts', () => {
  it('reads CREATE INDEX … INCLUDE NULL KEYS and EXCLUDE NULL KEYS, and INCLUDE (columns)', () => {
    for (const option of ['INCLUDE NULL KEYS', 'EXCLUDE NULL KEYS']) {
      const i = one(`CREATE UNIQUE INDEX ix ON t (a) INCLUDE (b) ${option} ALLOW REVERSE SCANS`, 'createIndex');
      assert.deepEqual([i.columns.map((c) => c.name), i.include], [['A'], ['B']]);
    }
  });

  it('reads ALTER TABLE … FOREIGN KEY name (cols) REFERENCES … without ADD, as Db2 for z/OS writes it', () => {
    const fk = one('ALTER TABLE dsn8d10.dept FOREIGN KEY rdd (admrdept) REFERENCES dsn8d10.dept ON DELETE CASCADE', 'alterTable');
    const action = fk.actions[0];
    assert.equal(action.kind, 'addConstraint');
    assert.ok(action.kind === 'addConstraint' && action.constraint.kind === 'foreignKey');
    if (action.kind === 'addConstraint' && action.constraint.kind === 'foreignKey') {
      assert.deepEqual([action.constraint.name, action.constraint.columns, action.constraint.parent.name, action.constraint.onDelete], ['RDD', ['ADMRDEPT'], 'DEPT', 'CASCADE']);
    }
    const pk = one('ALTER TABLE t PRIMARY KEY (id)', 'alterTable');
    assert.equal(pk.actions[0].kind, 'addConstraint');
    const named = one('ALTER TABLE department ADD FOREIGN KEY rod (admrdept) REFERENCES department ON DELETE CASCADE', 'alterTable');
    assert.equal(named.actions[0].kind === 'addConstraint' && named.actions[0].constraint.name, 'ROD');
  });

  it('reads INGEST … INSERT INTO / REPLACE INTO / MERGE INTO / UPDATE with its table', () => {
    const ing = one(`INGEST FROM FILE orders.del FORMAT DELIMITED ($id INTEGER EXTERNAL, $qty INTEGER EXTERNAL)
  RESTART NEW 'job1' INSERT INTO app.orders (id, qty) VALUES ($id, $qty)`, 'ingest');
    assert.deepEqual([ing.operation, ing.table.name, ing.from], ['insert', 'ORDERS', 'FILE orders.del FORMAT DELIMITED ($id INTEGER EXTERNAL, $qty INTEGER EXTERNAL) RESTART NEW \'job1\'']);
    assert.equal(one('INGEST DATA FROM PIPE p FORMAT POSITIONAL ($a POSITION(1:5) INTEGER) REPLACE INTO t', 'ingest').operation, 'replace');
    assert.equal(one('INGEST FROM FILE f FORMAT DELIMITED MERGE INTO t ON (a = $a) WHEN NOT MATCHED THEN INSERT VALUES ($a)', 'ingest').operation, 'merge');
    assert.equal(one('INGEST FROM FILE f FORMAT DELIMITED UPDATE t SET b = $b WHERE a = $a', 'ingest').operation, 'update');
  });

  it('reads DECLARE c CURSOR; (a cursor variable) at top level and DECLARE c CURSOR FOR s (a prepared statement)', () => {
    const v = one('DECLARE c CURSOR', 'declareVariable');
    assert.deepEqual([v.names, v.type], [['C'], 'CURSOR']);
    assert.equal(one('DECLARE c2 CURSOR WITH HOLD FOR s1', 'declareCursor').statementName, 'S1');
  });

  it('reads CONNECT RESET@ and UPDATE COMMAND OPTIONS USING c OFF@ in a -td@ script', () => {
    const text = '-- db2 -td@ -vf this.db2\nCONNECT TO sample@\nUPDATE COMMAND OPTIONS USING c OFF@\nINSERT INTO t VALUES (1)@\nCONNECT RESET@\n';
    const statements = parseScript(text).statements;
    assert.deepEqual(statements.map((s) => [s.kind, s.parseError?.message]), [['connect', undefined], ['updateCommandOptions', undefined], ['insert', undefined], ['connect', undefined]]);
    assert.equal((statements[1] as Of<'updateCommandOptions'>).autocommit, false);
    assert.equal((statements[3] as Of<'connect'>).reset, true);
  });
});

describe("sql parser: another database's SQL", () => {
  const dialectOf = (sql: string) => parseSql(sql).statements[0].parseError?.dialect;

  it('names the dialect of statements Db2 rejects, with what Db2 writes instead', () => {
    const modify = parseSql('ALTER TABLE batch_params MODIFY COLUMN type_cd VARCHAR(100)').statements[0];
    assert.equal(modify.parseError?.dialect, 'Oracle, MySQL or Informix');
    assert.match(modify.parseError!.message, /ALTER COLUMN c SET DATA TYPE/);
    assert.equal(dialectOf('ALTER TABLE t ADD (a INT, b INT)'), 'Oracle or Informix');
    assert.equal(dialectOf('ALTER TABLE t ALTER COLUMN c VARCHAR(9)'), 'SQL Server or Sybase');
    assert.equal(dialectOf('ALTER TABLE t ADD a CHAR(1) NULL, b CHAR(1) NULL'), 'SQL Server, Sybase or Informix');
    assert.equal(dialectOf('CREATE TABLE t (ts DATETIME YEAR TO FRACTION(5) NOT NULL)'), 'Informix');
    assert.equal(dialectOf("CREATE TABLE t (ts TIMESTAMP(6) FORMAT 'YYYY-MM-DD' NOT NULL)"), 'Teradata');
    assert.equal(dialectOf('CREATE INDEX ix (a, b) ON t'), 'Teradata');
    // PostgreSQL (db2_fdw's tests run in PostgreSQL beside Db2 scripts).
    assert.equal(dialectOf('IMPORT FOREIGN SCHEMA "DB2INST1" FROM SERVER sample INTO sample'), 'PostgreSQL');
    const ctas = parseSql('create table sample.orgcopy as select * from sample.org').statements[0];
    assert.equal(ctas.parseError?.dialect, 'PostgreSQL, Oracle or MySQL');
    assert.match(ctas.parseError!.message, /AS \(SELECT …\) WITH DATA/);
    assert.equal(dialectOf('CREATE TABLE t (a, b) AS WITH q AS (SELECT 1, 2 FROM s) SELECT * FROM q'), 'PostgreSQL, Oracle or MySQL');
  });

  it('never calls valid Db2 foreign, nor an ordinary mistake', () => {
    assert.equal(parseSql('ALTER TABLE t ALTER COLUMN c SET DATA TYPE VARCHAR(9)').statements[0].parseError, undefined);
    assert.equal(dialectOf('ALTER TABLE t ADD COLUMN a INT b INT'), undefined);
    assert.equal(dialectOf('CREATE TABLE t (a INT,, b INT)'), undefined);
    // Db2's own forms read; the CLP's IMPORT and a broken one stay ordinary parse errors.
    assert.equal(parseSql('CREATE TABLE t AS (SELECT a FROM s) WITH NO DATA').statements[0].parseError, undefined);
    assert.equal(parseSql('CREATE TABLE t AS (SELECT a FROM s) WITH DATA').statements[0].parseError, undefined);
    assert.equal(dialectOf('IMPORT FROM x.del OF DEL INTO'), undefined);
    // A rename inside MODIFY is no database's syntax: an error of the script (Spring Batch's 5.0 Db2 migration).
    assert.equal(dialectOf('ALTER TABLE BATCH_JOB_EXECUTION_PARAMS MODIFY COLUMN TYPE_CD PARAMETER_TYPE VARCHAR(100)'), undefined);
    const rename = parseSql('ALTER TABLE T MODIFY COLUMN A B VARCHAR(100)').statements[0].parseError;
    assert.ok(rename?.mistake, 'a known mistake, with Db2\'s form in its message');
    assert.match(rename.message, /RENAME COLUMN old TO new, then ALTER TABLE t ALTER COLUMN new SET DATA TYPE type/);
    assert.equal(dialectOf('ALTER TABLE T MODIFY COLUMN A VARCHAR(100)'), 'Oracle, MySQL or Informix');
    assert.equal(dialectOf('ALTER TABLE QASN.IBMQREP_SIGNAL MODIFY SIGNAL_LSN RAW(16)'), 'Oracle, MySQL or Informix');
    assert.equal(dialectOf('CREATE TABLE t (a INT CHECK (b AS SELECT))'), undefined);
  });

  it("reads a template's <NAME> placeholder where a table space name belongs, as it reads !name!", () => {
    // Q Replication's asnqcapluw.sql: "(2) update <TS> with the tablespace name".
    const table = one('CREATE TABLE !capschema!.IBMQREP_IGNTRAN (AUTHID CHARACTER(128)) IN <TS>', 'createTable');
    assert.equal(table.tablespace.data, '<TS>');
    // Not a comparison: with spaces it is no placeholder, and the statement stays unreadable.
    assert.ok(parseSql('CREATE TABLE T (A INT) IN < TS >').statements[0].parseError);
  });

  it('leaves the statements of a SET PASSTHRU session to the data source they are sent to, up to SET PASSTHRU RESET', () => {
    // Q Replication's migration scripts change the Oracle control tables through federation (mig9/q/asnqappora.sql).
    const script = [
      'DROP NICKNAME L.RECVQUEUES;',
      'SET PASSTHRU !server_name!;',
      'ALTER TABLE !remote_schema!."RECVQUEUES" MODIFY (CAPTURE_SCHEMA VARCHAR2(128));',
      "INSERT INTO R.T VALUES (1, 'a');",
      'COMMIT;',
      'set passthru reset;',
      'ALTER TABLE T MODIFY COLUMN A VARCHAR(100);',
      "INSERT INTO T VALUES (2, 'b');",
    ].join('\n');
    const statements = parseSql(script).statements;
    assert.deepEqual(
      statements.map((s) => [s.kind, s.kind === 'other' ? (s.passedTo ?? null) : null, s.parseError?.dialect ?? null]),
      [
        ['other', null, null],
        ['other', null, null],
        ['other', '!server_name!', null],
        ['other', '!server_name!', null],
        ['other', '!server_name!', null],
        ['other', null, null],
        ['alterTable', null, 'Oracle, MySQL or Informix'],
        ['insert', null, null],
      ],
    );
    const passed = statements[2];
    assert.ok(passed.kind === 'other');
    assert.equal(passed.keyword, 'ALTER TABLE');
    assert.equal(script.slice(passed.span.start, passed.span.end), 'ALTER TABLE !remote_schema!."RECVQUEUES" MODIFY (CAPTURE_SCHEMA VARCHAR2(128))');
    // A session left open runs to the end of the script.
    assert.equal(parseSql('SET PASSTHRU ORA1;\nINSERT INTO T VALUES (1);').statements[1].kind, 'other');
    assert.equal(parseSql('SET PASSTHRU ORA1;').statements[0].kind, 'other');
  });

  it('counts the statements of a SET PASSTHRU session apart from those it keeps as text', () => {
    const model = { source: { path: 'a.sql', text: '', language: 'sql' as const }, comments: [], statements: parseSql('SET PASSTHRU S1; SELECT 1 FROM T; CREATE TABLE X (A NUMBER(5) DEFAULT SYSDATE); SET PASSTHRU RESET; SELECT 2 FROM T;').statements };
    const coverage = coverageOf(model);
    assert.deepEqual([coverage.statements, coverage.passedThrough, coverage.opaque, coverage.parseErrors, coverage.otherDialect], [5, 2, 3, 0, 0]);
  });
});
