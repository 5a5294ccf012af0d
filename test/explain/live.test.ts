import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { buildConnection, describeDb2Error, loadIbmDb, redactSecrets, Db2Error, type Row } from '../../server/src/explain/driver';
import { explainLive, prepareExplainable, CREATE_EXPLAIN_TABLES_SQL } from '../../server/src/explain/live';
import { buildPlanFromExplainTables } from '../../server/src/explain/explain-tables';
import { classifyHiddenWork } from '../../server/src/explain/classify';
import { FakeDriver, KEY_ROW, SEED_ROWS, db2Error, type Handler } from './helpers/fake-driver';
import { fixture } from './helpers/fixtures';

const KEY_PARAMS = Object.values(KEY_ROW);
const KEY_WHERE = 'EXPLAIN_REQUESTER = ? AND EXPLAIN_TIME = ? AND SOURCE_NAME = ? AND SOURCE_SCHEMA = ? AND SOURCE_VERSION = ? AND EXPLAIN_LEVEL = ? AND STMTNO = ? AND SECTNO = ?';
const SQL = 'INSERT INTO WILKINS.TEST1 VALUES (?, :name, :amount :amount_ind)';
const PREPARED = 'INSERT INTO WILKINS.TEST1 VALUES (?, ?, ?)';
const connection = buildConnection({ connection: 'DATABASE=SHOPDB;HOSTNAME=db.example;PORT=50000;UID=app' }, { INSERTLINT_DB2_PASSWORD: 'S3cr3t;x' });

/** Answers like a Db2 with Explain tables in SYSTOOLS and the seed plan stored. */
function seedDb(overrides: Partial<Record<'schema' | 'explain' | 'statement' | 'catalog', Row[] | Error>> = {}): Handler {
  return (sql) => {
    if (sql.startsWith('SELECT TABSCHEMA FROM SYSCAT.TABLES')) return overrides.schema ?? [{ TABSCHEMA: 'SYSTOOLS' }];
    if (sql.startsWith('EXPLAIN PLAN')) return overrides.explain ?? [];
    if (sql.includes('EXPLAIN_STATEMENT') && sql.includes("EXPLAIN_LEVEL = 'P'"))
      return overrides.statement ?? [{ ...KEY_ROW, QUERYNO: 4242, STATEMENT_TYPE: 'I ', TOTAL_COST: 28.2956, STATEMENT_TEXT: 'INSERT INTO WILKINS.TEST1 AS Q1 SELECT …' }];
    if (sql.includes('EXPLAIN_STATEMENT') && sql.includes("EXPLAIN_LEVEL = 'O'")) return [{ STATEMENT_TEXT: PREPARED }];
    if (sql.includes('.EXPLAIN_OPERATOR')) return SEED_ROWS.operators;
    if (sql.includes('.EXPLAIN_STREAM')) return SEED_ROWS.streams;
    if (sql.includes('.EXPLAIN_OBJECT')) return SEED_ROWS.objects;
    if (sql.includes('.EXPLAIN_ARGUMENT')) return SEED_ROWS.arguments;
    if (sql.includes('.EXPLAIN_PREDICATE')) return SEED_ROWS.predicates;
    if (overrides.catalog) return overrides.catalog;
    if (sql.includes('SYSCAT.REFERENCES')) return [{ CONSTNAME: 'FK_TEST1_PARENT', REFTABSCHEMA: 'WILKINS ', REFTABNAME: 'PARENT', DELETERULE: 'A', ENFORCED: 'Y' }];
    if (sql.includes('SYSCAT.INDEXES')) return [{ INDSCHEMA: 'SYSIBM  ', INDNAME: 'SQL0401290925513', UNIQUERULE: 'P' }];
    if (sql.includes('SYSCAT.CHECKS')) return [{ N: 0 }];
    if (sql.startsWith('DELETE FROM')) return [];
    return [];
  };
}

describe('explain: live Explain through the driver interface', () => {
  it('thin client: sends EXPLAIN PLAN (never the INSERT), reads the tables on the full key, rolls back, closes', async () => {
    const driver = new FakeDriver(seedDb());
    const result = await explainLive({ sql: SQL, connection, driver, queryNo: 4242 });
    assert.equal(result.via, 'explain-tables');
    assert.equal(driver.calls[0].sql, 'DATABASE=SHOPDB;HOSTNAME=db.example;PORT=50000;UID=app;PROTOCOL=TCPIP;CONNECTTIMEOUT=10;PWD={S3cr3t;x};');
    const sent = driver.sqlSent();
    assert.equal(sent[0], "SELECT TABSCHEMA FROM SYSCAT.TABLES WHERE TABNAME = 'EXPLAIN_INSTANCE' AND TABSCHEMA IN (SESSION_USER, 'SYSTOOLS') ORDER BY CASE WHEN TABSCHEMA = 'SYSTOOLS' THEN 1 ELSE 0 END");
    assert.equal(sent[1], `EXPLAIN PLAN SET QUERYNO = 4242 SET QUERYTAG = 'INSERTLINT' FOR ${PREPARED}`);
    assert.ok(!sent.some((q) => /^\s*INSERT/i.test(q)), 'the INSERT itself is never sent');
    assert.equal(
      sent[2],
      "SELECT EXPLAIN_REQUESTER, EXPLAIN_TIME, SOURCE_NAME, SOURCE_SCHEMA, SOURCE_VERSION, EXPLAIN_LEVEL, STMTNO, SECTNO, QUERYNO, STATEMENT_TYPE, TOTAL_COST, CAST(STATEMENT_TEXT AS VARCHAR(32000)) AS STATEMENT_TEXT FROM \"SYSTOOLS\".EXPLAIN_STATEMENT WHERE QUERYNO = ? AND QUERYTAG = ? AND EXPLAIN_REQUESTER = SESSION_USER AND EXPLAIN_LEVEL = 'P' ORDER BY EXPLAIN_TIME DESC FETCH FIRST 1 ROW ONLY",
    );
    assert.deepEqual(driver.calls.find((c) => c.sql === sent[2])!.params, [4242, 'INSERTLINT']);
    for (const table of ['OPERATOR', 'STREAM', 'OBJECT', 'ARGUMENT', 'PREDICATE']) {
      const call = driver.calls.find((c) => c.sql?.includes(`"SYSTOOLS".EXPLAIN_${table} WHERE ${KEY_WHERE}`));
      assert.ok(call, `EXPLAIN_${table} read on all 8 key columns`);
      assert.deepEqual(call.params, KEY_PARAMS);
    }
    assert.deepEqual(driver.methods().slice(-2), ['rollback', 'close']);
    assert.ok(driver.methods().indexOf('beginTransaction') < driver.methods().findIndex((m, i) => m === 'query' && driver.calls[i].sql!.startsWith('EXPLAIN PLAN')));
    assert.ok(!driver.methods().includes('commit'), 'nothing committed');

    const s = result.document.statements[0];
    assert.equal(s.originalText, PREPARED);
    assert.equal(s.queryNo, 4242);
    const shape = Object.fromEntries(s.plan!.operators.map((o) => [o.id, `${o.label}:${o.children.join(',')}`]));
    assert.deepEqual(shape, { 1: 'RETURN:2', 2: 'TBSCAN:3', 3: 'FILTER:4', 4: '^NLJOIN:5,7', 5: 'INSERT:6', 6: 'TBSCAN:', 7: 'IXSCAN:' });
    const report = classifyHiddenWork(s, result.context);
    assert.deepEqual(report.pieces.map((p) => [p.kind, p.operators, p.name]), [['foreign-key-check', [4, 7], 'FK_TEST1_PARENT']]);
    assert.match(report.verdict, /foreign-key check on WILKINS\.TEST1's parent WILKINS\.PARENT via SYSIBM\.SQL0401290925513 \(constraint FK_TEST1_PARENT\)/);
    assert.match(report.notes[0], /the index on WILKINS\.TEST1 \(SYSIBM\.SQL0401290925513, unique\)/);
  });

  it('builds the same tree from table rows whatever order the streams come in', () => {
    const plan = buildPlanFromExplainTables(SEED_ROWS);
    const seven = plan.operators.find((o) => o.id === 7)!;
    assert.deepEqual(seven.objectsRead, ['SYSIBM.SQL0401290925513']);
    assert.equal(seven.inputs[0].kind === 'object' ? seven.inputs[0].object.kind : '', 'index');
    assert.deepEqual(seven.predicates, [{ id: 2, howApplied: 'Start Key', text: '(Q2.ID = Q1.PARENT_ID)', filterFactor: 0.008 }]);
    assert.deepEqual(plan.operators.find((o) => o.id === 5)!.objectsWritten, ['WILKINS.TEST1']);
    assert.equal(plan.operators.find((o) => o.id === 5)!.totalCost, 25.5248);
    assert.equal(plan.operators.find((o) => o.id === 3)!.rows, 0.04);
    assert.deepEqual(plan.roots, [1]);
    assert.equal(plan.totalCost, 28.2956);
    // A stream cycle does not hang anything.
    const cyclic = buildPlanFromExplainTables({ ...SEED_ROWS, streams: [...SEED_ROWS.streams, { STREAM_ID: 11, SOURCE_TYPE: 'O', SOURCE_ID: 1, TARGET_TYPE: 'O', TARGET_ID: 7, OBJECT_SCHEMA: null, OBJECT_NAME: null, STREAM_COUNT: 1 }] });
    classifyHiddenWork(cyclic);
  });

  it('stops with the SYSINSTALLOBJECTS hint when the Explain tables are missing, and creates them only when asked', async () => {
    const driver = new FakeDriver(seedDb({ schema: [] }));
    await assert.rejects(explainLive({ sql: SQL, connection, driver, queryNo: 1 }), (err: Db2Error) => {
      assert.equal(err.kind, 'explain-tables-missing');
      assert.match(err.message, /CALL SYSPROC\.SYSINSTALLOBJECTS\('EXPLAIN','C',NULL,NULL\)/);
      assert.match(err.message, /--create-explain-tables/);
      return true;
    });
    assert.ok(!driver.sqlSent().some((q) => q.startsWith('EXPLAIN') || q.startsWith('CALL')));
    assert.equal(driver.methods().at(-1), 'close');

    const creating = new FakeDriver(seedDb({ schema: [] }));
    const result = await explainLive({ sql: SQL, connection, driver: creating, queryNo: 1, createExplainTables: true, readCatalog: false });
    assert.equal(creating.sqlSent()[1], CREATE_EXPLAIN_TABLES_SQL);
    assert.match(creating.sqlSent()[2], /^EXPLAIN PLAN SET QUERYNO = 1 /);
    assert.equal(result.warnings[0].code, 'explain-tables-created');
  });

  it('maps SQL0219N from EXPLAIN to the missing-tables message and still rolls back and closes', async () => {
    const driver = new FakeDriver(seedDb({ explain: db2Error('[IBM][CLI Driver][DB2/LINUXX8664] SQL0219N  The required Explain table "DB2INST1.EXPLAIN_INSTANCE" does not exist.  SQLSTATE=42704', -219, '42704') }));
    await assert.rejects(explainLive({ sql: SQL, connection, driver, queryNo: 1 }), (err: Db2Error) => {
      assert.equal(err.kind, 'explain-tables-missing');
      assert.match(err.details!, /SQLSTATE=42704 SQLCODE=-219: .*SQL0219N/);
      return true;
    });
    assert.deepEqual(driver.methods().slice(-2), ['rollback', 'close']);
  });

  it('gives one clear sentence for unreachable servers, bad credentials and missing privileges', async () => {
    const unreachable = new FakeDriver(seedDb());
    unreachable.openError = { error: '[ibm_db] SQL_ERROR', sqlcode: -30081, sqlstate: '08001', message: '[IBM][CLI Driver] SQL30081N  A communication error has been detected. Communication protocol being used: "TCP/IP".  SQLSTATE=08001' };
    await assert.rejects(explainLive({ sql: SQL, connection, driver: unreachable }), (err: Db2Error) => {
      assert.equal(err.kind, 'unreachable');
      assert.equal(err.message, 'Cannot reach the Db2 server at db.example:50000 (database SHOPDB): nothing answered (check host, port and network).');
      assert.match(err.details!, /SQL30081N/);
      assert.equal(err.sqlcode, -30081);
      return true;
    });
    const denied = describeDb2Error({ message: '[IBM][CLI Driver] SQL30082N  Security processing failed with reason "24" ("USERNAME AND/OR PASSWORD INVALID").  SQLSTATE=08001', sqlcode: -30082, sqlstate: '08001' }, connection);
    assert.equal(denied.kind, 'credentials');
    assert.equal(denied.message, 'The Db2 server at db.example:50000 (database SHOPDB) rejected the user name or password.');
    const privileges = describeDb2Error(db2Error('SQL0551N  "APP" does not have the required authorization or privilege to perform operation "INSERT" on object "SYSTOOLS.EXPLAIN_INSTANCE".  SQLSTATE=42501', -551, '42501'));
    assert.equal(privileges.kind, 'privileges');
    assert.match(privileges.message, /lacks a privilege Explain needs/);
    assert.equal(describeDb2Error(db2Error('SQL0204N "WILKINS.NOPE" is an undefined name.  SQLSTATE=42704', -204, '42704')).kind, 'object-not-found');
    assert.equal(describeDb2Error(new Error('SQL30061N The database alias or database name "X" was not found at the remote node.')).kind, 'database-not-found');
    // An unknown host is not "nothing answered"; the driver's trailing newline is not shown as \n.
    const unknownHost = describeDb2Error(new Error('[IBM][CLI Driver] SQL1336N  The remote host "no-such-host.invalid" was not found.  SQLSTATE=08001\n'), { host: 'no-such-host.invalid', port: '50000' });
    assert.match(unknownHost.message, /no-such-host\.invalid:50000: the host name is not known/);
    assert.ok(!unknownHost.details!.endsWith('\n'));
    assert.match(describeDb2Error(new Error("Cannot find module 'ibm_db'\nRequire stack:\n- /x/dist/cli.js")).details!, /Cannot find module 'ibm_db' Require stack: - \/x\/dist\/cli\.js$/);
  });

  it('without a host, says the driver looked the database up on this machine, never "at the configured server"', () => {
    // The messages the real ibm_db 3.3 (IBM CLI driver) gives for --database SAMPLE with no host and no Db2 here.
    const refused = (reason: string) => db2Error(`[IBM][CLI Driver] SQL30082N  Security processing failed with reason ${reason}.  SQLSTATE=08001\n`, -30082, '08001');
    const noHost = (user?: string, password?: string) => buildConnection({ database: 'SAMPLE', user }, password ? { INSERTLINT_DB2_PASSWORD: password } : {});
    const noUser = describeDb2Error(refused('"5" ("USERID MISSING")'), noHost(undefined, 'x'));
    assert.equal(noUser.kind, 'credentials');
    assert.equal(
      noUser.message,
      'The Db2 driver could not log on to database SAMPLE: a password is set (INSERTLINT_DB2_PASSWORD) but no user name was given (security reason 5, USERID MISSING). ' +
        'As no host was given (--host, or HOSTNAME= in --connection), it looked the database up on this machine (its Db2 catalog, db2cli.ini or db2dsdriver.cfg), not on a server you named. ' +
        'Give the server with --host and --port (and the user with --user), or catalog database SAMPLE on this machine (db2 catalog database, or db2dsdriver.cfg for the IBM CLI driver).',
    );
    assert.equal(noUser.details, 'SQLSTATE=08001 SQLCODE=-30082: [IBM][CLI Driver] SQL30082N  Security processing failed with reason "5" ("USERID MISSING").  SQLSTATE=08001');
    const unsupported = describeDb2Error(refused('"17" ("UNSUPPORTED FUNCTION")'), noHost());
    assert.match(unsupported.message, /^The Db2 driver could not log on to database SAMPLE: no host was given \(--host, or HOSTNAME= in --connection\), so it looked the database up on this machine .*security reason 17, UNSUPPORTED FUNCTION\), e\.g\. there is no local Db2 instance or catalog entry for it\. Give the server with --host and --port \(and the user with --user\), or catalog database SAMPLE/);
    // A catalogued server that judged the password: it rejected them, and it was found in the local catalog.
    const rejected = describeDb2Error(refused('"24" ("USERNAME AND/OR PASSWORD INVALID")'), noHost('app', 'x'));
    assert.match(rejected.message, /^The Db2 server catalogued on this machine for database SAMPLE rejected the user name or password \(no host was given .*; security reason 24, USERNAME AND\/OR PASSWORD INVALID\)\.$/);
    // With a user and no host, the driver tries localhost:50000 (Location "127.0.0.1" in the details).
    const nothing = describeDb2Error(db2Error('[IBM][CLI Driver] SQL30081N  A communication error has been detected. Location where the error was detected: "127.0.0.1".  SQLSTATE=08001', -30081, '08001'), noHost('bob', 'x'));
    assert.equal(nothing.kind, 'unreachable');
    assert.match(nothing.message, /^Cannot reach a Db2 server for database SAMPLE: no host was given .* this machine itself \(localhost, port 50000\), and nothing answered\. Give the server with --host and --port, or catalog/);
    // A DSN that is in neither db2dsdriver.cfg nor db2cli.ini; ibm_db gives five blanks for its SQLSTATE.
    const dsn = describeDb2Error(db2Error('[IBM][CLI Driver] SQL1531N  The connection failed because the name specified with the DSN connection string keyword could not be found in either the db2dsdriver.cfg configuration file or the db2cli.ini configuration file.  Data source name specified in the connection string: "FOO".', -1531, '     '), buildConnection({ connection: 'DSN=FOO' }, {}));
    assert.equal(dsn.kind, 'database-not-found');
    assert.match(dsn.message, /^Database FOO is not catalogued on this machine: no host was given/);
    assert.match(dsn.details!, /^SQLCODE=-1531: /);
    assert.equal(describeDb2Error(db2Error('SQL1013N  The database alias name or database name "SAMPLE" could not be found.  SQLSTATE=42705', -1013, '42705'), noHost()).kind, 'database-not-found');
    for (const e of [noUser, unsupported, rejected, nothing, dsn]) assert.ok(!/configured server/.test(e.message), e.message);
    // With a host, the server did the judging; a missing user is named as such.
    const hosted = buildConnection({ host: 'db.example', port: '50000', database: 'SHOPDB' }, { INSERTLINT_DB2_PASSWORD: 'x' });
    assert.equal(describeDb2Error(refused('"5" ("USERID MISSING")'), hosted).message, 'The Db2 server at db.example:50000 (database SHOPDB) wants a user name and none was given (--user, or UID= in --connection).');
    // No connection known (a failure after connecting): no guess about hosts.
    assert.equal(describeDb2Error(db2Error('SQL30081N  A communication error has been detected.  SQLSTATE=08001', -30081, '08001')).message, 'Cannot reach the Db2 server: nothing answered (check host, port and network).');
  });

  it('with db2exfmt: commits the EXPLAIN rows for it, runs db2exfmt -d DB -1 -o <tmp>, parses, then deletes the rows', async () => {
    const driver = new FakeDriver(seedDb());
    const runs: string[][] = [];
    const result = await explainLive({
      sql: 'INSERT INTO shop.order_line (order_id, line_no, product_id, qty) VALUES (?, ?, ?, ?)',
      connection,
      driver,
      queryNo: 1,
      db2exfmt: '/opt/ibm/db2/bin/db2exfmt',
      readCatalog: false,
      runProcess: async (file, args) => {
        runs.push([file, ...args]);
        // db2exfmt can only see committed rows.
        assert.equal(driver.methods().filter((m) => m === 'commit').length, 1);
        writeFileSync(args[args.indexOf('-o') + 1], fixture('insert-fk-trigger-mqt.exfmt.txt'));
        return { code: 0, stdout: '', stderr: '' };
      },
    });
    assert.equal(result.via, 'db2exfmt');
    assert.deepEqual(runs[0].slice(0, 5), ['/opt/ibm/db2/bin/db2exfmt', '-d', 'SHOPDB', '-1', '-o']);
    assert.equal(result.document.statements[0].plan!.operators.length, 13);
    const del = driver.calls.find((c) => c.sql?.startsWith('DELETE FROM'));
    assert.ok(del);
    assert.equal(del.sql, 'DELETE FROM "SYSTOOLS".EXPLAIN_INSTANCE WHERE EXPLAIN_REQUESTER = ? AND EXPLAIN_TIME = ? AND SOURCE_NAME = ? AND SOURCE_SCHEMA = ? AND SOURCE_VERSION = ?');
    assert.deepEqual(del.params, KEY_PARAMS.slice(0, 5));
    assert.deepEqual(driver.methods().slice(-3), ['exec', 'commit', 'close']);
  });

  it('falls back to the Explain tables when db2exfmt fails, and still deletes the rows', async () => {
    const driver = new FakeDriver(seedDb());
    const result = await explainLive({ sql: SQL, connection, driver, queryNo: 1, db2exfmt: 'db2exfmt', readCatalog: false, runProcess: async () => ({ code: 4, stdout: '', stderr: 'SQL1032N' }) });
    assert.equal(result.warnings[0].code, 'db2exfmt-failed');
    assert.equal(result.document.statements[0].plan!.operators.length, 7);
    assert.ok(driver.sqlSent().some((q) => q.startsWith('DELETE FROM "SYSTOOLS".EXPLAIN_INSTANCE')));
  });

  it('keeps parameter markers, turns host variables into markers, and refuses other statements', () => {
    assert.equal(prepareExplainable(SQL), PREPARED);
    assert.equal(prepareExplainable("insert into t values (':not_a_var', ?, :hv INDICATOR :i) ;"), "insert into t values (':not_a_var', ?, ?)");
    assert.equal(prepareExplainable('-- comment\nINSERT INTO t SELECT * FROM s /* ; */'), 'INSERT INTO t SELECT * FROM s');
    assert.throws(() => prepareExplainable('INSERT INTO t VALUES (1); DROP TABLE t'), /more than one statement/);
    assert.throws(() => prepareExplainable('DELETE FROM t'), /Only INSERT \(or MERGE\)/);
  });

  it('takes the password only from the environment and never shows it', () => {
    const c = buildConnection({ host: 'h', port: '50000', database: 'D', user: 'u' }, { INSERTLINT_DB2_PASSWORD: 'pw' });
    assert.equal(c.connectionString, 'HOSTNAME=h;PORT=50000;DATABASE=D;UID=u;PROTOCOL=TCPIP;CONNECTTIMEOUT=10;PWD=pw;');
    assert.equal(c.redacted, 'HOSTNAME=h;PORT=50000;DATABASE=D;UID=u;PROTOCOL=TCPIP;CONNECTTIMEOUT=10;PWD=***;');
    assert.throws(() => buildConnection({ connection: 'DATABASE=D;UID=u;PWD=pw' }, {}), /set the environment variable INSERTLINT_DB2_PASSWORD/);
    assert.throws(() => buildConnection({ connection: 'DATABASE=D;UID=u' }, {}), /INSERTLINT_DB2_PASSWORD is not set/);
    assert.throws(() => buildConnection({ host: 'h' }, {}), /names no database/);
    assert.equal(buildConnection({ connection: 'DATABASE=SAMPLE' }, {}).connectionString, 'DATABASE=SAMPLE;');
    assert.equal(redactSecrets('x PWD={a;b};y Password=zz;'), 'x PWD=***;y Password=***;');
  });

  it('loads ibm_db lazily, honours INSERTLINT_IBM_DB_PATH and says how to install it when missing', () => {
    const seen: string[] = [];
    const fakeModule = { open() {} };
    assert.equal(loadIbmDb({ INSERTLINT_IBM_DB_PATH: '/x/ibm_db' }, (id) => (seen.push(id), fakeModule)), fakeModule);
    assert.equal(loadIbmDb({}, (id) => (seen.push(id), { default: fakeModule })), fakeModule);
    assert.deepEqual(seen, ['/x/ibm_db', 'ibm_db']);
    const missing = () =>
      loadIbmDb({}, () => {
        throw Object.assign(new Error("Cannot find module 'ibm_db'"), { code: 'MODULE_NOT_FOUND' });
      });
    assert.throws(missing, (err: Db2Error) => err.kind === 'driver-missing' && /npm install ibm_db/.test(err.message) && /scripts\/ibm-db-setup\.sh/.test(err.message));
    // Node's require stack (InsertLint's own files) is not a detail; other lines of a load error are kept.
    const withStack = () =>
      loadIbmDb({}, () => {
        throw Object.assign(new Error("Cannot find module 'ibm_db'\nRequire stack:\n- /tmp/fresh/out/cli.js"), { code: 'MODULE_NOT_FOUND' });
      });
    assert.throws(withStack, (err: Db2Error) => err.details === "Cannot find module 'ibm_db'");
    assert.throws(
      () =>
        loadIbmDb({}, () => {
          throw new Error('libdb2.so.1: cannot open shared object file: No such file or directory');
        }),
      /LD_LIBRARY_PATH/,
    );
  });
});
