import * as assert from 'node:assert/strict';
import { expectNoFindings, lintWorkspace } from '../helpers/rule-tester';
import { brief, codeFrontEnd, lintCode, posOf } from '../code/helpers';
import type { ConfigFile } from '../../server/src/engine/config';

const RULE = 'prepare-in-loop';

describe(`rule ${RULE}`, () => {
  it('code: a prepare whose executes are in the same loop is reported at the prepare', async () => {
    const ts = `import * as ibmdb from 'ibm_db';
export async function load(conn: ibmdb.Database, rows: number[][]) {
  for (const r of rows) {
    const stmt = await conn.prepare('INSERT INTO T (A, B) VALUES (?, ?)');
    await stmt.execute(r);
  }
}
`;
    const { findings } = await lintCode({ 'load.ts': ts });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(ts, 'conn.prepare')}`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /for-of loop.*180\.6 s.*92\.1 s/);
  });

  it('code: information beside single-row-insert when each pass runs one row; a warning when the rows go in batches', async () => {
    const java = (body: string) => `class L { void load(Connection conn, List<Row> rows) throws Exception {
    for (Row r : rows) {
      PreparedStatement ps = conn.prepareStatement("INSERT INTO APP.T (A) VALUES (?)");
      ps.setInt(1, r.a);
      ${body}
    }
  } }
`;
    const perRow = await lintCode({ 'L.java': java('ps.executeUpdate();') });
    assert.equal(perRow.findings.find((f) => f.rule === RULE)!.severity, 'information');
    assert.equal(perRow.findings.find((f) => f.rule === 'single-row-insert')!.severity, 'warning');
    const batched = await lintCode({ 'L.java': java('ps.addBatch();\n      ps.executeBatch();') });
    assert.equal(batched.findings.find((f) => f.rule === RULE)!.severity, 'warning');
  });

  it('code: a prepare before the loop, or a prepare in a loop over different statements that runs elsewhere, is fine', async () => {
    const c = `void f(SQLHSTMT h, int n) {
    SQLPrepare(h, (SQLCHAR *)"INSERT INTO T (A) VALUES (?)", SQL_NTS);
    for (int i = 0; i < n; i++) SQLExecute(h);
}
`;
    const java = `class M { void migrate(Connection c, List<String> ddl) throws Exception {
        for (String text : ddl) { prepared.add(c.prepareStatement(text)); }
    } }
`;
    const { findings } = await lintCode({ 'f.c': c, 'M.java': java });
    assert.deepEqual(brief(findings, [RULE]), []);
  });

  it('scripts: never reported (a CLP script has no prepare of its own)', () => {
    expectNoFindings({ 'load.sql': 'INSERT INTO T VALUES (1);\n' }, RULE);
  });
});

// Item 5 of issue 10: only the same INSERT/MERGE text prepared on every pass.
describe(`rule ${RULE}: the same INSERT or MERGE each pass`, () => {
  it('Python: a loop that prepares a CALL, a SELECT or a statement of a list each pass is not reported', async () => {
    const py = `import ibm_db
def run(conn, days, statements):
    for d in days:
        stmt = ibm_db.prepare(conn, "CALL APP.ROLLUP(?)")
        ibm_db.execute(stmt, (d,))
        q = ibm_db.prepare(conn, "SELECT * FROM APP.DAILY WHERE D = ?")
        ibm_db.execute(q, (d,))
    for sql in statements:
        s = ibm_db.prepare(conn, sql)
        ibm_db.execute(s)
`;
    const { findings } = await lintCode({ 'run.py': py });
    assert.deepEqual(brief(findings, [RULE]), []);
  });

  it('Java: a spliced table name makes each pass a different statement; the same MERGE each pass is reported', async () => {
    const java = `class M {
    void m(Connection conn, List<String> tables, List<Row> rows) throws SQLException {
        for (String t : tables) {
            PreparedStatement ps = conn.prepareStatement("INSERT INTO " + t + " (A) VALUES (?)");
            ps.executeUpdate();
        }
        for (Row r : rows) {
            PreparedStatement ps = conn.prepareStatement("MERGE INTO APP.T USING (VALUES (?)) AS S(A) ON T.A = S.A WHEN NOT MATCHED THEN INSERT (A) VALUES (S.A)");
            ps.setInt(1, r.a);
            ps.executeUpdate();
        }
    }
}
`;
    const { findings } = await lintCode({ 'M.java': java });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(java, 'conn.prepareStatement', 2)}`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /^MERGE INTO APP\.T is prepared again on every pass of the for-each loop at line 7\. .*Db2 INSERT tips/);
  });

  it('C: the same INSERT prepared each pass of a while loop is reported, naming table and loop', async () => {
    const c = `void f(SQLHSTMT h, int n) {
    while (n-- > 0) {
        SQLPrepare(h, (SQLCHAR *)"INSERT INTO APP.T (A) VALUES (?)", SQL_NTS);
        SQLExecute(h);
    }
}
`;
    const { findings } = await lintCode({ 'f.c': c });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(c, 'SQLPrepare')}`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /^INSERT INTO APP\.T is prepared again on every pass of the while loop at line 2\./);
  });
});

// One fix for one cause: the statement prepared on every pass and executed a row per pass is single-row-insert's
// finding on the execute, the prepare linked as related information (it was two findings on two lines).
describe(`rule ${RULE}: part of single-row-insert's finding when each pass executes one row`, () => {
  const java = (body: string, before = '') => `class L { void load(Connection conn, List<Row> rows) throws Exception {
    for (Row r : rows) {
      PreparedStatement ps = conn.prepareStatement("INSERT INTO APP.T (A) VALUES (?)");
      ps.setInt(1, r.a);
${before}      ${body}
    }
  } }
`;
  const merged = async (text: string, config?: ConfigFile) => {
    const { findings, workspace } = lintWorkspace({ 'L.java': text }, { config, codeFrontEnd: await codeFrontEnd() });
    const shown = findings.filter((f) => f.rule === RULE || f.rule === 'single-row-insert');
    return { shown, brief: shown.map((f) => `${f.rule}@${f.line}:${f.column}:${f.severity}`), diagnostics: workspace.diagnostics('L.java').filter((d) => !d.suppressed), lines: workspace.lines('L.java')! };
  };

  it('one warning on the execute, with the prepare as related information', async () => {
    const text = java('ps.executeUpdate();');
    const { brief: found, diagnostics, lines } = await merged(text);
    assert.deepEqual(found, [`single-row-insert@${posOf(text, 'ps.executeUpdate')}:warning`]);
    const [d] = diagnostics.filter((x) => x.rule === 'single-row-insert');
    assert.deepEqual(d.mergedRules, [RULE]);
    assert.equal(d.related!.length, 1);
    assert.match(d.related![0].message, /^also prepare-in-loop: INSERT INTO APP\.T is prepared again on every pass of the for-each loop at line 2\.$/);
    const at = lines.position(d.related![0].span.start);
    assert.equal(`${at.line + 1}:${at.column + 1}`, posOf(text, 'conn.prepareStatement'));
  });

  it('alone (single-row-insert off, or silenced on its line) it stays information at the prepare', async () => {
    const text = java('ps.executeUpdate();');
    assert.deepEqual((await merged(text, { rules: { 'single-row-insert': 'off' } })).brief, [`${RULE}@${posOf(text, 'conn.prepareStatement')}:information`]);
    const silenced = java('ps.executeUpdate();', '      // insertlint-disable-next-line single-row-insert: one row per call on purpose\n');
    assert.deepEqual((await merged(silenced)).brief, [`${RULE}@${posOf(silenced, 'conn.prepareStatement')}:information`]);
  });

  it('the directive "Disable … for this line" writes above the execute silences both, and is used', async () => {
    const text = java('ps.executeUpdate();', '      // insertlint-disable-next-line single-row-insert, prepare-in-loop\n');
    const { brief: found, diagnostics } = await merged(text);
    assert.deepEqual(found, []);
    assert.deepEqual(diagnostics.filter((d) => d.rule === 'unused-suppression'), []);
  });

  it('rows sent in batches: the prepare each pass is the waste left, a warning of its own', async () => {
    const text = java('ps.addBatch();\n      ps.executeBatch();');
    const { brief: found } = await merged(text);
    assert.ok(found.includes(`${RULE}@${posOf(text, 'conn.prepareStatement')}:warning`), found.join());
  });
});
