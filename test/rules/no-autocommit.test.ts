import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

const RULE = 'no-autocommit';
const INSERTS = "INSERT INTO T VALUES (1, 'a');\nINSERT INTO T VALUES (2, 'b');\nINSERT INTO T VALUES (3, 'c');\n";

describe(`rule ${RULE}`, () => {
  it('scripts: single-row inserts under the CLP default autocommit are one finding on the minInserts-th, counting all', () => {
    expectFindings({ 'load.clp': 'CONNECT TO DB;\n' + INSERTS }, RULE, [{ line: 4, column: 1, message: /^Single-row INSERTs committed one by one by the CLP's autocommit: 3 in this script \(lines 2\u20134\)\..*UPDATE COMMAND OPTIONS USING C OFF/ }]);
    const [finding] = expectFindings({ 'load.clp': 'CONNECT TO DB;\n' + INSERTS + INSERTS }, RULE, [{ line: 4, column: 1, message: /: 6 in this script \(lines 2\u20137\)\./ }]);
    assert.deepEqual(finding.extentLines, { line: 2, endLine: 7 });
  });

  it('scripts: UPDATE COMMAND OPTIONS USING C OFF before the inserts silences it', () => {
    expectNoFindings({ 'load.clp': 'UPDATE COMMAND OPTIONS USING C OFF;\n' + INSERTS + 'COMMIT;\n' }, RULE);
    expectNoFindings({ 'load.clp': INSERTS.split('\n')[0] + '\n' }, RULE);
  });

  it('code: JDBC default autocommit in a loop; setAutoCommit(false) before the loop silences it', async () => {
    const on = `class L { void load(List<Row> rows) throws Exception {
        Connection conn = DriverManager.getConnection(URL);
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        for (Row r : rows) { ps.setInt(1, r.a); ps.executeUpdate(); }
    } }
`;
    const off = on.replace('PreparedStatement ps', 'conn.setAutoCommit(false);\n        PreparedStatement ps');
    const { findings } = await lintCode({ 'On.java': on, 'Off.java': off });
    assert.deepEqual(
      findings.filter((f) => f.rule === RULE).map((f) => `${f.file}@${f.line}:${f.column}`),
      [`On.java@${posOf(on, 'ps.executeUpdate')}`],
    );
    assert.match(findings.find((f) => f.rule === RULE)!.message, /'conn'.*92\.1 s.*7\.6 s.*setAutoCommit\(false\)/);
  });

  it('code: a CLI connection switched off with SQLSetConnectAttr, and a JDBC connection that commits, are not reported', async () => {
    const c = `void f(SQLHDBC hdbc, SQLHSTMT h, int n) {
    SQLSetConnectAttr(hdbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, SQL_NTS);
    SQLAllocHandle(SQL_HANDLE_STMT, hdbc, &h);
    SQLPrepare(h, (SQLCHAR *)"INSERT INTO T (A) VALUES (?)", SQL_NTS);
    for (int i = 0; i < n; i++) SQLExecute(h);
}
`;
    const java = `class L { void load(Connection conn, List<Row> rows) throws Exception {
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        for (Row r : rows) { ps.executeUpdate(); }
        conn.commit();
    } }
`;
    const { findings } = await lintCode({ 'f.c': c, 'L.java': java });
    assert.deepEqual(brief(findings, [RULE]), []);
  });

  it('code: a batch per pass (execute_many per chunk) with autocommit on commits per batch, not per row', async () => {
    const py = `import ibm_db
def load(dsn, chunks):
    conn = ibm_db.connect(dsn, "", "")
    stmt = ibm_db.prepare(conn, "INSERT INTO T (A, B) VALUES (?, ?)")
    for chunk in chunks:
        ibm_db.execute_many(stmt, tuple(chunk))
`;
    const { findings } = await lintCode({ 'load.py': py });
    assert.deepEqual(brief(findings, [RULE, 'single-row-insert']), []);
  });
});

// Item 4 of issue 10: only state what the code shows. Item 5: not on loops of set-based INSERT … SELECT.
describe(`rule ${RULE}: what the code shows about autocommit`, () => {
  const LOOP = 'for (Row r : rows) { ps.setInt(1, r.a); ps.executeUpdate(); }';

  it('Java: a connection passed in, or made by a factory the analysis does not know, has unknown autocommit', async () => {
    const param = `class A { void load(Connection conn, List<Row> rows) throws Exception {
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        ${LOOP}
    } }
`;
    const factory = param.replace('void load(Connection conn, List<Row> rows)', 'void load(List<Row> rows)').replace('PreparedStatement ps', 'Connection conn = pool.borrow();\n        PreparedStatement ps');
    const { findings, models } = await lintCode({ 'A.java': param, 'B.java': factory });
    assert.deepEqual(brief(findings, [RULE]), []);
    for (const m of models.values()) assert.deepEqual(m.code!.executions.map((e) => e.connection?.autocommit), ['unknown', 'unknown']);
  });

  it('Java: an XAConnection takes part in global transactions (autocommit off)', async () => {
    const java = `class X { void load(XADataSource ds, List<Row> rows) throws Exception {
        XAConnection xa = ds.getXAConnection();
        Connection conn = xa.getConnection();
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        ${LOOP}
    } }
`;
    const { findings, models } = await lintCode({ 'X.java': java });
    assert.deepEqual(brief(findings, [RULE]), []);
    assert.equal(models.get('X.java')!.code!.executions[1].connection?.autocommit, 'off');
  });

  it('Python: ibm_db.connect in this function is on; a parameter of the same name elsewhere is unknown; connect_coordinated is off', async () => {
    const py = `import ibm_db

def load(conn, rows):
    for r in rows:
        ibm_db.exec_immediate(conn, "INSERT INTO T (A) VALUES (1)")

def fresh(rows):
    conn = ibm_db.connect(DSN, "", "")
    for r in rows:
        ibm_db.exec_immediate(conn, "INSERT INTO T (A) VALUES (1)")

def twophase(rows):
    conn = ibm_db.connect_coordinated(DSN, "", "")
    for r in rows:
        ibm_db.exec_immediate(conn, "INSERT INTO T (A) VALUES (1)")
    ibm_db.commit_two_phase(conn)
`;
    const { findings, models } = await lintCode({ 'p.py': py });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(py, 'ibm_db.exec_immediate', 2)}`]);
    assert.deepEqual(models.get('p.py')!.code!.executions.map((e) => e.connection?.autocommit), ['unknown', 'on', 'off']);
    assert.equal(models.get('p.py')!.code!.commits.length, 1, 'commit_two_phase is a commit');
  });

  it('JavaScript: a connection of an ibm_db Pool is opened by the driver (autocommit on); a parameter is unknown', async () => {
    const js = `const { Pool } = require('ibm_db');
const pool = new Pool();
pool.open(cn, (err, conn) => {
  for (const r of rows) conn.querySync('INSERT INTO T (A) VALUES (?)', [r]);
});
function load(conn, rows) {
  for (const r of rows) conn.querySync('INSERT INTO T (A) VALUES (?)', [r]);
}
`;
    const { findings } = await lintCode({ 'pool.js': js });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(js, 'conn.querySync')}`]);
  });

  it('CLI C: SQLDriverConnect here is on; a handle from elsewhere is unknown', async () => {
    const c = `void a(SQLHDBC hdbc, SQLHSTMT h, int n) {
    SQLDriverConnect(hdbc, NULL, (SQLCHAR *)"DSN=S", SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
    SQLAllocHandle(SQL_HANDLE_STMT, hdbc, &h);
    SQLPrepare(h, (SQLCHAR *)"INSERT INTO T (A) VALUES (?)", SQL_NTS);
    for (int i = 0; i < n; i++) SQLExecute(h);
}
void b(Session *s, int n) {
    SQLPrepare(s->stmt, (SQLCHAR *)"INSERT INTO T (A) VALUES (?)", SQL_NTS);
    for (int i = 0; i < n; i++) SQLExecute(s->stmt);
}
`;
    const { findings } = await lintCode({ 'c.c': c });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(c, 'SQLExecute(h)')}`]);
  });

  it('a loop of set-based INSERT … SELECT statements moves many rows per statement: not reported', async () => {
    const py = `import ibm_db
def refresh(days):
    conn = ibm_db.connect(DSN, "", "")
    for d in days:
        ibm_db.exec_immediate(conn, "INSERT INTO APP.DAILY SELECT * FROM APP.STAGE")
        ibm_db.commit(conn)
`;
    const { findings } = await lintCode({ 'r.py': py });
    assert.deepEqual(brief(findings, [RULE, 'commit-per-row', 'single-row-insert']), []);
  });
});
