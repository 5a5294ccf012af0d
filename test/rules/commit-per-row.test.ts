import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

const RULE = 'commit-per-row';
const PAIRS = 'UPDATE COMMAND OPTIONS USING C OFF;\n' + [1, 2, 3].map((i) => `INSERT INTO T VALUES (${i});\nCOMMIT;`).join('\n') + '\n';

describe(`rule ${RULE}`, () => {
  it('scripts: COMMIT after each INSERT is one finding on the minPairs-th such COMMIT, counting all of them', () => {
    expectFindings({ 'load.clp': PAIRS }, RULE, [{ line: 7, column: 1, message: /^COMMIT after each single-row INSERT: 3 times in this script \(lines 3\u20137\), a synchronous log write per row\. .*Db2 INSERT tips.*118\.4 s.*102\.9 s/ }]);
    const more = PAIRS + [4, 5].map((i) => `INSERT INTO T VALUES (${i});\nCOMMIT;`).join('\n') + '\n';
    const [finding] = expectFindings({ 'load.clp': more }, RULE, [{ line: 7, column: 1, message: /^COMMIT after each single-row INSERT: 5 times in this script \(lines 3\u201311\)/ }]);
    assert.deepEqual(finding.extentLines, { line: 3, endLine: 11 });
  });

  it('scripts: autocommit committing each row is no-autocommit\'s finding, not a second one here; a commit after a block of rows is fine', () => {
    expectNoFindings({ 'load.clp': 'INSERT INTO T VALUES (1);\nINSERT INTO T VALUES (2);\nINSERT INTO T VALUES (3);\n' }, RULE);
    expectFindings({ 'load.clp': 'INSERT INTO T VALUES (1);\nINSERT INTO T VALUES (2);\nINSERT INTO T VALUES (3);\n' }, 'no-autocommit', [{ line: 3, column: 1 }]);
    expectNoFindings({ 'load.clp': 'UPDATE COMMAND OPTIONS USING C OFF;\nINSERT INTO T VALUES (1);\nINSERT INTO T VALUES (2);\nINSERT INTO T VALUES (3);\nCOMMIT;\n' }, RULE);
  });

  it('scripts: a COMMIT every two or three rows is not a COMMIT after each row (IBM xmlmdc.db2: 15 INSERTs, 6 COMMITs)', () => {
    const blocks = 'UPDATE COMMAND OPTIONS USING C OFF;\n' + [1, 2, 3, 4].map((b) => `INSERT INTO T VALUES (${b}1);\nINSERT INTO T VALUES (${b}2);\nCOMMIT;`).join('\n') + '\n';
    expectNoFindings({ 'load.clp': blocks }, RULE);
    // A multi-row INSERT before the single row makes the COMMIT one after many rows, too.
    const mixed = 'UPDATE COMMAND OPTIONS USING C OFF;\n' + [1, 2, 3].map((i) => `INSERT INTO T VALUES (${i}0), (${i}1);\nINSERT INTO T VALUES (${i});\nCOMMIT;`).join('\n') + '\n';
    expectNoFindings({ 'load.clp': mixed }, RULE);
  });

  it('code: unguarded commit in the insert loop is reported; modulo and count guards are not', async () => {
    const py = `import ibm_db
def load(conn, rows, batch_size):
    ibm_db.autocommit(conn, ibm_db.SQL_AUTOCOMMIT_OFF)
    stmt = ibm_db.prepare(conn, "INSERT INTO T (A, B) VALUES (?, ?)")
    for r in rows:
        ibm_db.execute(stmt, r)
        ibm_db.commit(conn)
    n = 0
    for r in rows:
        ibm_db.execute(stmt, r)
        n += 1
        if n % 1000 == 0:
            ibm_db.commit(conn)
    pending = 0
    for r in rows:
        ibm_db.execute(stmt, r)
        pending += 1
        if pending >= batch_size:
            ibm_db.commit(conn)
            pending = 0
`;
    const { findings } = await lintCode({ 'load.py': py });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(py, 'ibm_db.commit(conn)')}`]);
    // The counter it suggests is written in the file's language.
    assert.match(findings.find((f) => f.rule === RULE)!.message, /with a counter \(n \+= 1, then if n % 1000 == 0:\)/);
    // Prepared once: the seed's prepared series.
    assert.match(findings.find((f) => f.rule === RULE)!.message, /10,000 prepared single-row inserts at 22\.3 s committing every 5 rows vs 7\.6 s every 1000 \(tests 65, 68\)/);
  });

  it('code: a commit in an outer loop around a batch, or after the loop, is fine', async () => {
    const java = `class A { void run(Connection conn, List<List<Row>> chunks) throws Exception {
        conn.setAutoCommit(false);
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        for (List<Row> chunk : chunks) {
            for (Row r : chunk) { ps.setInt(1, r.a); ps.addBatch(); }
            ps.executeBatch();
            conn.commit();
        }
    } }
`;
    const { findings } = await lintCode({ 'A.java': java });
    assert.deepEqual(brief(findings, [RULE]), []);
  });

  it('Java: a commit through a getter (connection.connection().commit(), Debezium) is a commit per row too', async () => {
    const java = `class A { void run(JdbcConnection connection, List<Row> rows) throws Exception {
        for (Row r : rows) {
            connection.executeWithoutCommitting("INSERT INTO T (A) VALUES (" + r.a + ")");
            connection.connection().commit();
        }
    } }
`;
    const { findings } = await lintCode({ 'A.java': java });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(java, 'connection.connection().commit()')}`]);
    // The values are spliced into the text, a new statement per row: the seed's literal series (tests 61, 64).
    const [finding] = findings.filter((f) => f.rule === RULE);
    assert.match(finding.message, /10,000 single-row inserts whose text carries the values, each compiled anew, at 118\.4 s committing every 5 rows vs 102\.9 s every 1000 \(tests 61, 64\)/);
    assert.doesNotMatch(finding.message, /tests 65, 68/);
  });

  it('names every table the loop inserts into (Debezium: TABLEA and TABLEB, then a commit)', async () => {
    const java = `class A { void run(JdbcConnection connection, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            connection.executeWithoutCommitting("INSERT INTO tablea VALUES(" + i + ", 'a')");
            connection.executeWithoutCommitting("INSERT INTO tableb VALUES(" + i + ", 'b')");
            connection.connection().commit();
        }
    } }
`;
    const { findings } = await lintCode({ 'A.java': java });
    const [finding] = findings.filter((f) => f.rule === RULE);
    assert.match(finding.message, /^Commit on every pass of the for loop at line 2 that inserts into TABLEA and TABLEB\./);
  });
});

// Item 4 of issue 10: the commit calls beyond commit() are commits per row too.
describe(`rule ${RULE}: commit calls of each driver`, () => {
  it('Python DB-API commit() and tpc_commit(), Node commitTransaction, CLI SQLEndTran, query("COMMIT")', async () => {
    const py = `import ibm_db_dbi
def a(conn, rows):
    cur = conn.cursor()
    for r in rows:
        cur.execute("INSERT INTO T (A) VALUES (?)", (r,))
        conn.tpc_commit()
`;
    const js = `const ibmdb = require('ibm_db');
async function b(conn, rows) {
  for (const r of rows) {
    await conn.query('INSERT INTO T (A) VALUES (?)', [r]);
    await conn.query('COMMIT');
  }
}
`;
    const c = `void c(SQLHDBC hdbc, SQLHSTMT h, int n) {
    SQLPrepare(h, (SQLCHAR *)"INSERT INTO T (A) VALUES (?)", SQL_NTS);
    for (int i = 0; i < n; i++) { SQLExecute(h); SQLEndTran(SQL_HANDLE_DBC, hdbc, SQL_COMMIT); }
}
`;
    const { findings } = await lintCode({ 'a.py': py, 'b.js': js, 'c.c': c });
    assert.deepEqual(brief(findings, [RULE]), [
      `${RULE}@${posOf(py, 'conn.tpc_commit')}`,
      `${RULE}@${posOf(js, "conn.query('COMMIT')")}`,
      `${RULE}@${posOf(c, 'SQLEndTran')}`,
    ]);
    assert.match(findings.find((f) => f.file === 'c.c' && f.rule === RULE)!.message, /^Commit on every pass of the for loop at line 3 that inserts into T\. .*Db2 INSERT tips/);
  });
});
