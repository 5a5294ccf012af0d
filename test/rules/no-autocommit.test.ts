import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

const RULE = 'no-autocommit';
const INSERTS = "INSERT INTO T VALUES (1, 'a');\nINSERT INTO T VALUES (2, 'b');\nINSERT INTO T VALUES (3, 'c');\n";

describe(`rule ${RULE}`, () => {
  it('scripts: single-row inserts under the CLP default autocommit are reported at the first one', () => {
    expectFindings({ 'load.clp': 'CONNECT TO DB;\n' + INSERTS }, RULE, [{ line: 2, column: 1, message: /3 single-row INSERTs run with the CLP default of autocommit on.*UPDATE COMMAND OPTIONS USING C OFF/ }]);
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
