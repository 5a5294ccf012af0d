import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

const RULE = 'single-row-insert';
const run = (n: number, table = 'T') => Array.from({ length: n }, (_, i) => `INSERT INTO ${table} (A) VALUES (?);${i % 2 ? '\nCOMMIT;' : ''}`).join('\n') + '\n';

describe(`rule ${RULE}`, () => {
  it('scripts: a run of single-row inserts into one table is one finding on its minRun-th statement, with its size and lines', () => {
    const [finding] = expectFindings({ 'load.sql': 'SET SCHEMA APP;\n' + run(4) }, RULE, [
      { line: 5, column: 1, message: /^Single-row INSERTs into APP\.T: 4 in a row \(lines 2\u20136\), one statement and one round trip per row\. .*92\.1 s.*12\.9 s/ },
    ]);
    assert.deepEqual(finding.extentLines, { line: 2, endLine: 6 });
  });

  it('scripts: a run of 20,000 INSERTs is one finding saying how long the run is; its first sentence stays short', () => {
    const rows = Array.from({ length: 20000 }, (_, i) => `INSERT INTO T.A (ID) VALUES (${i});`).join('\n') + '\n';
    const found = findings({ 'load.sql': 'SET SCHEMA APP;\n' + rows }, RULE);
    assert.equal(found.length, 1);
    assert.equal(found[0].line, 4, 'on the 3rd INSERT, where the run was first reported before');
    assert.deepEqual(found[0].extentLines, { line: 2, endLine: 20001 });
    const first = /^.*?\.(?= [A-Z])/.exec(found[0].message)![0];
    assert.equal(first, 'Single-row INSERTs into T.A: 20,000 in a row (lines 2\u201320,001), one statement and one round trip per row.');
    assert.ok(first.length < 120, first);
    assert.ok(found[0].fix, 'the multi-row VALUES fix combines the whole run');
    assert.equal(found[0].fix!.edits.length, 19999);
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
    assert.match(findings.find((f) => f.rule === RULE)!.message, /^executeBatch after every addBatch in the for-each loop at line \d+: each batch of INSERT INTO T holds one row\./);
  });
});

describe(`rule ${RULE}: loops with a constant number of passes`, () => {
  it('a counting loop of 10 passes or fewer is not a bulk load (Java, Python); 30 passes is', async () => {
    const java = `class Few {
    void few(Statement st) throws SQLException {
        final int RECORDS = 5;
        for (int i = 0; i < RECORDS; i++) st.executeUpdate("INSERT INTO T (A) VALUES (?)");
        for (int i = 0; i < 30; i++) st.executeUpdate("INSERT INTO T (A) VALUES (?)");
        final int STARTING_ID = 100;
        final int COUNT = 10;
        for (int i = STARTING_ID; i < (COUNT + STARTING_ID); i++) st.executeUpdate("INSERT INTO T (A) VALUES (?)");
    }
}
`;
    const py = 'import ibm_db\ndef f(conn):\n    for i in range(1, 4):\n        ibm_db.exec_immediate(conn, "INSERT INTO T (A) VALUES (1)")\n';
    const { findings, models } = await lintCode({ 'Few.java': java, 'few.py': py });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(java, 'st.executeUpdate', 2)}`]);
    assert.deepEqual(models.get('Few.java')!.code!.executions.map((e) => e.loop?.passes), [5, 30, 10]);
    assert.equal(models.get('few.py')!.code!.executions[0].loop?.passes, 3);
  });

  it('scripts: fixes a run of literal INSERTs with one multi-row VALUES list, only when nothing is lost', () => {
    const literal = ["INSERT INTO T (A, B) VALUES (1, 'x');", "INSERT INTO T (A, B) VALUES (2, 'y');", 'insert into t (a, b)', "  values (3, 'z');", 'SELECT 1 FROM SYSIBM.SYSDUMMY1;', ''].join('\n');
    assert.equal(
      applyFix({ 'load.sql': literal }, RULE),
      ["INSERT INTO T (A, B) VALUES (1, 'x'),", "  (2, 'y'),", "  (3, 'z');", 'SELECT 1 FROM SYSIBM.SYSDUMMY1;', ''].join('\n'),
    );
    assert.equal(findings({ 'load.sql': literal }, RULE)[0].fix?.changesMeaning, true);
    // Parameter markers, a COMMIT or a comment in between, or different column lists: no fix.
    assert.equal(findings({ 'load.sql': run(4) }, RULE)[0].fix, undefined);
    const withComment = literal.replace("VALUES (2, 'y');", "VALUES (2, 'y'); -- second");
    assert.equal(findings({ 'load.sql': withComment }, RULE)[0].fix, undefined);
    const withCommit = literal.replace("VALUES (2, 'y');", "VALUES (2, 'y');\nCOMMIT;");
    assert.equal(findings({ 'load.sql': withCommit }, RULE)[0].fix, undefined);
    // A COMMIT after the run's last INSERT is kept as it is: the fix stays.
    const commitAfter = literal.replace("  values (3, 'z');", "  values (3, 'z');\nCOMMIT;");
    assert.ok(findings({ 'load.sql': commitAfter }, RULE)[0].fix);
    const otherColumns = literal.replace("INSERT INTO T (A, B) VALUES (2, 'y')", "INSERT INTO T (B, A) VALUES ('y', 2)");
    assert.equal(findings({ 'load.sql': otherColumns }, RULE)[0].fix, undefined);
  });
});
