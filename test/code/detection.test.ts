// Item 3 of issue 10: driver detection by use, not by the module's name. Wrappers, re-exports, pools,
// relative imports and ORMs' raw queries are read when they hand SQL text to query/execute/prepare; extra
// driver modules come from .insertlintrc.json; files left out say why.
import * as assert from 'node:assert/strict';
import { namesModule } from '../../server/src/code/access';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';

describe('code: Db2 access found by use', () => {
  it('TypeScript: a wrapper reached through a relative import, with no ibm_db in sight, is read', async () => {
    const ts = `import { db } from '../shared/db';

export async function saveAll(rows: Row[]) {
  for (const r of rows) {
    await db.execute('INSERT INTO APP.T (A, B) VALUES (?, ?)', [r.a, r.b]);
  }
}
`;
    const { findings, models } = await lintCode({ 'save.ts': ts });
    assert.equal(models.get('save.ts')!.leftOut, undefined);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(ts, 'db.execute')}`]);
  });

  it('JavaScript: an ORM raw query and a re-exported pool count; a file with no SQL call is left out with the reason', async () => {
    const orm = "const { sequelize } = require('./models');\nasync function f(rows) {\n  for (const r of rows) await sequelize.query(`INSERT INTO APP.T (A) VALUES (${r.a})`);\n}\n";
    const reexport = "export { pool as default } from './pool';\n";
    const { findings, models } = await lintCode({ 'orm.js': orm, 'index.js': reexport });
    assert.deepEqual(brief(findings, ['prefer-parameter-markers']), [`prefer-parameter-markers@${posOf(orm, 'sequelize.query')}`]);
    assert.match(models.get('index.js')!.leftOut!, /^no Db2 access found/);
  });

  it('.insertlintrc.json driverModules: a file that imports one is read even when its SQL comes from elsewhere', async () => {
    const ts = "import { client } from '../db/client';\nexport function run(sql: string, rows: unknown[][]) {\n  const stmt = client.prepareSync(sql);\n  for (const r of rows) stmt.executeSync(r);\n}\n";
    const without = await lintCode({ 'src/run.ts': ts });
    assert.match(without.models.get('src/run.ts')!.leftOut!, /^no Db2 access found/);
    const withConfig = await lintCode({ 'src/run.ts': ts }, { driverModules: ['./db/client'] });
    const model = withConfig.models.get('src/run.ts')!;
    assert.equal(model.leftOut, undefined);
    assert.deepEqual(model.code!.executions.map((e) => e.action), ['prepare', 'executePrepared']);
  });

  it('configured module names match as written in imports', () => {
    assert.ok(namesModule('../db/client', './db/client'));
    assert.ok(namesModule('./db/client.js', 'db/client'));
    assert.ok(namesModule('@acme/db2', '@acme/db2'));
    assert.ok(namesModule('@acme/db2/pool', '@acme/db2'));
    assert.ok(namesModule('acme_db.pool', 'acme_db'.replace(/\./g, '/')) || namesModule('acme_db/pool', 'acme_db'));
    // The module's path from the project's top names an importer's shorter relative way to it (a file beside it).
    assert.ok(namesModule('./dbclient', './app/dbclient'));
    assert.ok(namesModule('../dbclient.js', 'src/app/dbclient'));
    assert.ok(!namesModule('dbclient', './app/dbclient'), 'a package name is not a relative import');
    assert.ok(!namesModule('./client', './app/dbclient'));
    assert.ok(!namesModule('./db/clients', './db/client'));
    assert.ok(!namesModule('db2x', 'db2'));
  });

  it('Python: a wrapper function of this file (self method or module function) runs the SQL its callers pass', async () => {
    const py = `class Store:
    def _run(self, query, silent=False):
        cursor = self._con.cursor()
        cursor.execute(query)

    def save(self, rows):
        for r in rows:
            self._run("INSERT INTO APP.T (A) VALUES (%d)" % r.a)

def run_sql(sql):
    get_cursor().execute(sql)

def seed():
    for name in NAMES:
        run_sql(f"INSERT INTO APP.N (NAME) VALUES ('{name}')")
`;
    const { findings } = await lintCode({ 'store.py': py });
    assert.deepEqual(brief(findings, ['prefer-parameter-markers', 'single-row-insert']), [
      `prefer-parameter-markers@${posOf(py, 'self._run("INSERT')}`,
      `single-row-insert@${posOf(py, 'self._run("INSERT')}`,
      `prefer-parameter-markers@${posOf(py, 'run_sql(f"')}`,
      `single-row-insert@${posOf(py, 'run_sql(f"')}`,
    ]);
  });

  it('Python: a file on another database driver is left out and says so', async () => {
    const py = "import sqlite3\ncon = sqlite3.connect('x.db')\nfor r in rows:\n    con.execute('INSERT INTO t VALUES (' + r + ')')\n";
    const { findings, models } = await lintCode({ 'lite.py': py });
    assert.deepEqual(brief(findings), []);
    assert.equal(models.get('lite.py')!.leftOut, 'talks to another database (sqlite3), not Db2');
  });

  it('Java: a prepare wrapper of this file (overloads agree) and a connection helper that runs several texts', async () => {
    const java = `class Trade {
    private PreparedStatement getStatement(Connection conn, String sql) throws Exception { return conn.prepareStatement(sql); }
    private PreparedStatement getStatement(Connection conn, String sql, int type, int conc) throws Exception { return conn.prepareStatement(sql, type, conc); }
    private static final String CREATE_ORDER = "insert into orderejb (orderid, price) VALUES (?, ?)";

    void buy(Connection conn, List<Order> orders) throws Exception {
        for (Order o : orders) {
            PreparedStatement stmt = getStatement(conn, CREATE_ORDER);
            stmt.setInt(1, o.id);
            stmt.executeUpdate();
        }
    }

    void setUp(JdbcConnection connection) throws Exception {
        connection.execute("CREATE TABLE tablea (id int)", "INSERT INTO tablea VALUES (1)", "INSERT INTO tablea VALUES (2)", "INSERT INTO tablea VALUES (3)");
    }
}
`;
    const { findings, models } = await lintCode({ 'Trade.java': java });
    const execs = models.get('Trade.java')!.code!.executions.filter((e) => e.statements.length > 0);
    assert.ok(execs.some((e) => e.action === 'prepare' && e.statements[0].kind === 'insert' && e.loop), 'getStatement(conn, sql) prepares its argument');
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(java, 'getStatement(conn, CREATE_ORDER)')}`,
      `single-row-insert@${posOf(java, 'stmt.executeUpdate')}`,
      `prefer-parameter-markers@${posOf(java, 'connection.execute')}`,
    ]);
    assert.match(findings.find((f) => f.rule === 'prefer-parameter-markers')!.message, /^Literal-valued INSERTs into TABLEA: 3 executed from setUp\(\) \(line \d+\)\./);
  });

  it('C: a helper named like an executor that is handed SQL text runs it', async () => {
    const c = 'void f(Session *s, int n) {\n    for (int i = 0; i < n; i++) db2_exec_sql(s, "INSERT INTO APP.T (A) VALUES (1)");\n}\n';
    const { findings } = await lintCode({ 'f.c': c });
    assert.deepEqual(brief(findings, ['prefer-parameter-markers', 'single-row-insert']), [
      `prefer-parameter-markers@${posOf(c, 'db2_exec_sql')}`,
      `single-row-insert@${posOf(c, 'db2_exec_sql')}`,
    ]);
  });
});
