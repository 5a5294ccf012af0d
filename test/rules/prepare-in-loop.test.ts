import * as assert from 'node:assert/strict';
import { expectNoFindings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

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
