import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

const RULE = 'single-row-insert';
const run = (n: number, table = 'T') => Array.from({ length: n }, (_, i) => `INSERT INTO ${table} (A) VALUES (?);${i % 2 ? '\nCOMMIT;' : ''}`).join('\n') + '\n';

describe(`rule ${RULE}`, () => {
  it('scripts: a run of single-row inserts into one table is reported on its first statement', () => {
    expectFindings({ 'load.sql': 'SET SCHEMA APP;\n' + run(4) }, RULE, [{ line: 2, column: 1, message: /4 consecutive single-row INSERTs into APP\.T.*92\.1 s.*12\.9 s/ }]);
  });

  it('scripts: short runs, runs broken by other tables, and multi-row VALUES are fine', () => {
    expectNoFindings({ 'load.sql': run(2) }, RULE);
    expectNoFindings({ 'load.sql': run(2, 'T') + run(2, 'U') }, RULE);
    expectNoFindings({ 'load.sql': 'INSERT INTO T VALUES (1), (2), (3);\nINSERT INTO T SELECT * FROM S;\n' }, RULE);
  });

  it('code: an execute per row in the loop, with advice for the driver; batches are fine', async () => {
    const py = `import ibm_db
def f(conn, rows):
    stmt = ibm_db.prepare(conn, "INSERT INTO T (A) VALUES (?)")
    for r in rows:
        ibm_db.execute(stmt, (r,))
    ibm_db.execute_many(stmt, tuple(rows))
`;
    const { findings } = await lintCode({ 'f.py': py });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(py, 'ibm_db.execute(')}`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /execute_many/);
  });

  it('code: an INSERT … SELECT or a multi-row VALUES in a loop is not one row per call', async () => {
    const java = `class A { void run(Statement st, List<String> days) throws Exception {
        for (String d : days) {
            st.executeUpdate("INSERT INTO DAILY SELECT * FROM STAGE WHERE DAY = '" + d + "'");
            st.executeUpdate("INSERT INTO T (A) VALUES (1), (2), (3)");
        }
    } }
`;
    const { findings } = await lintCode({ 'A.java': java });
    assert.deepEqual(brief(findings, [RULE]), []);
  });

  it('code: executeBatch right after addBatch on every pass is a batch of one row', async () => {
    const java = `class B { void run(Connection conn, List<Row> rows) throws Exception {
        conn.setAutoCommit(false);
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        for (Row r : rows) {
            ps.setInt(1, r.a);
            ps.addBatch();
            ps.executeBatch();
        }
        int n = 0;
        for (Row r : rows) {
            ps.setInt(1, r.a);
            ps.addBatch();
            if (++n % 500 == 0) ps.executeBatch();
        }
        ps.executeBatch();
        conn.commit();
    } }
`;
    const { findings } = await lintCode({ 'B.java': java });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(java, 'ps.executeBatch()')}`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /^executeBatch runs after every addBatch in the for-each loop at line \d+: each batch of INSERT INTO T holds one row\./);
  });
});
