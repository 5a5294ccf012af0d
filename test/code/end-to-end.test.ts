// The insert-pattern findings of application code as users meet them: `insertlint check` (JSON and text),
// the review checklist and the language server must report the same findings, with the messages that
// name table, loop and spliced expressions. One small code base holds a shape of each item of issue 10.
import * as assert from 'node:assert/strict';
import { LspSession, uriOf } from '../lsp/harness';
import { Repo, runCli } from '../ci/repo';
import { INSERT_RULES } from './helpers';

const FILES: Record<string, string> = {
  '.insertlintrc.json': JSON.stringify({ driverModules: ['./db/client'] }),
  'py/loader.py': `import ibm_db

def load(conn, rows):
    for r in rows:
        sql = "INSERT INTO APP.EVENTS (ID, NAME) VALUES (%d, '%s')" % (r.id, r.name)
        ibm_db.exec_immediate(conn, sql)

def seed(conn):
    ibm_db.exec_immediate(conn, "INSERT INTO APP.REGION VALUES ('UK', 'United Kingdom')")
    ibm_db.exec_immediate(conn, "INSERT INTO APP.REGION VALUES ('US', 'United States')")
    ibm_db.exec_immediate(conn, "INSERT INTO APP.REGION VALUES ('NL', 'Netherlands')")

def refresh(days):
    conn = ibm_db.connect(DSN, "", "")
    for d in days:
        ibm_db.exec_immediate(conn, "INSERT INTO APP.DAILY SELECT * FROM APP.STAGE")
        stmt = ibm_db.prepare(conn, "CALL APP.ROLLUP(?)")
        ibm_db.execute(stmt, (d,))
`,
  'ts/orders.service.ts': `import { Db2Client } from './db/client';

export class OrdersService {
  constructor(private readonly db: Db2Client) {}

  async saveAll(orders: Order[]): Promise<void> {
    for (const o of orders) {
      await this.db.query(\`INSERT INTO APP.ORDERS (ID, NOTE) VALUES (\${o.id}, '\${o.note}')\`);
    }
  }
}
`,
  'ts/report.ts': `import { client } from './db/client';

export function run(text: string) {
  return client.prepare(text);
}
`,
  'ts/util.ts': 'export const twice = (n: number) => 2 * n;\n',
  'java/Feed.java': `import java.sql.*;
import java.text.MessageFormat;

class Feed {
    void feed(Connection conn, List<Event> events) throws SQLException {
        Statement st = conn.createStatement();
        for (Event e : events) {
            String sql = MessageFormat.format("INSERT INTO APP.EVENTS (ID, NAME) VALUES ({0}, ''{1}'')", e.id, e.name);
            st.executeUpdate(sql);
        }
    }

    void xa(XADataSource ds, List<Event> events) throws SQLException {
        XAConnection xa = ds.getXAConnection();
        Connection c = xa.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO APP.EVENTS (ID, NAME) VALUES (?, ?)");
        for (Event e : events) {
            ps.setInt(1, e.id);
            ps.executeUpdate();
        }
    }
}
`,
  'c/load.c': `#include <sqlcli1.h>

int load(SQLHDBC hdbc, struct row *rows, int n)
{
    SQLHSTMT hstmt;
    char buf[256];
    SQLDriverConnect(hdbc, NULL, (SQLCHAR *)"DSN=SAMPLE", SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
    SQLAllocHandle(SQL_HANDLE_STMT, hdbc, &hstmt);
    for (int i = 0; i < n; i++) {
        snprintf(buf, sizeof buf, "INSERT INTO APP.EVENTS (ID, NAME) VALUES (%d, '%s')", rows[i].id, rows[i].name);
        SQLExecDirect(hstmt, (SQLCHAR *)buf, SQL_NTS);
        SQLEndTran(SQL_HANDLE_DBC, hdbc, SQL_COMMIT);
    }
    return 0;
}
`,
};

/**
 * rule@file:line of every insert-pattern finding, sorted. Findings of one cause on one line are one (issue 13):
 * single-row-insert (and, in C, prefer-parameter-markers) ride along as related information.
 */
const EXPECTED = [
  'commit-per-row@c/load.c:12',
  'no-autocommit@c/load.c:11',
  'prefer-parameter-markers@java/Feed.java:9',
  'single-row-insert@java/Feed.java:19',
  'prefer-parameter-markers@py/loader.py:6',
  'prefer-parameter-markers@py/loader.py:11',
  'prefer-parameter-markers@ts/orders.service.ts:8',
].sort();

interface JsonReport {
  summary: { files: number; leftOut: number };
  leftOut: { file: string; reason: string }[];
  diagnostics: { file: string; line: number; rule: string; message: string; related?: { message: string }[] }[];
}

describe('code: CLI, checklist and language server give the same insert-pattern findings', function () {
  this.timeout(60000);
  let repo: Repo;
  let base: string;

  before(() => {
    repo = new Repo();
    repo.write('README.md', 'loaders\n');
    base = repo.commit('base');
    for (const [path, text] of Object.entries(FILES)) repo.write(path, text);
    repo.commit('loaders');
  });
  after(() => repo.dispose());

  it('insertlint check --format json: the findings, their messages, and the code files left out', async () => {
    const result = await runCli(['check', '--format', 'json'], repo.dir);
    const report = JSON.parse(result.stdout) as JsonReport;
    const found = report.diagnostics.filter((d) => INSERT_RULES.includes(d.rule));
    assert.deepEqual(found.map((d) => `${d.rule}@${d.file}:${d.line}`).sort(), EXPECTED);
    const message = (rule: string, file: string, line: number) => found.find((d) => d.rule === rule && d.file === file && d.line === line)!.message;
    // Item 2: the quoted splice of each template style, named, on the executing call.
    assert.match(message('prefer-parameter-markers', 'py/loader.py', 6), /^Values spliced into INSERT INTO APP\.EVENTS through a format template: r\.id, r\.name\. .*for loop at line 4/);
    assert.match(message('prefer-parameter-markers', 'java/Feed.java', 9), /^Values spliced into INSERT INTO APP\.EVENTS through a format template: e\.id, e\.name\./);
    const merged = found.find((d) => d.rule === 'no-autocommit' && d.file === 'c/load.c')!.related!.map((r) => r.message);
    assert.match(merged.join('\n'), /^also prefer-parameter-markers: Values spliced into INSERT INTO APP\.EVENTS through a format template: rows\[i\]\.id, rows\[i\]\.name\./m);
    assert.match(merged.join('\n'), /^also single-row-insert: /m);
    assert.match(message('prefer-parameter-markers', 'ts/orders.service.ts', 8), /^Values spliced into INSERT INTO APP\.ORDERS through an interpolated string: o\.id, o\.note\. .*for-of loop at line 7/);
    // Item 1: several literal INSERTs into one table from one function: one finding on the 3rd, with the count (rules/support/runs.ts).
    assert.match(message('prefer-parameter-markers', 'py/loader.py', 11), /^Literal-valued INSERTs into APP\.REGION: 3 executed from seed\(\) \(lines 9\u201311\)\. .*Db2 INSERT tips/);
    // Item 4: autocommit stated only for the connection the C file opens; item 6: the loop and the table named.
    assert.match(message('no-autocommit', 'c/load.c', 11), /^Autocommit is on for 'hdbc' \(the driver default for a connection this file opens\) while the for loop at line 9 inserts into APP\.EVENTS one row per call\./);
    assert.match(message('commit-per-row', 'c/load.c', 12), /^Commit on every pass of the for loop at line 9 that inserts into APP\.EVENTS\./);
    assert.ok(!found.some((d) => /seed 00/i.test(d.message)), 'citations read "Db2 INSERT tips, test N"');
    // Item 3: files left out are counted and named; the configured driver module makes report.ts read.
    assert.deepEqual(report.leftOut, [{ file: 'ts/util.ts', reason: report.leftOut[0]?.reason }]);
    assert.match(report.leftOut[0].reason, /^no Db2 access found/);
    assert.equal(report.summary.leftOut, 1);
  });

  it('insertlint check --format text says how many code files were left out and why', async () => {
    const result = await runCli(['check'], repo.dir);
    assert.match(result.stdout, /in 6 files, .*, 1 code file left out \(no Db2 access found\)\n$/);
  });

  it('the review checklist lists the same findings with their first sentence', async () => {
    const result = await runCli(['checklist', '--base', base], repo.dir);
    const listed = [...result.stdout.matchAll(/^- \[ \] `([^`]+):(\d+)` `([^`]+)`[^\n]*/gm)].filter((m) => INSERT_RULES.includes(m[3]));
    assert.deepEqual(listed.map((m) => `${m[3]}@${m[1]}:${m[2]}`).sort(), EXPECTED);
    const seed = listed.find((m) => m[1] === 'py/loader.py' && m[2] === '11')![0];
    assert.match(seed, /: Literal-valued INSERTs into APP\.REGION: 3 executed from seed\(\) \(lines 9\u201311\)\.( |\(|$)/);
  });

  it('the language server publishes the same findings', async () => {
    const lsp = await LspSession.start(repo.dir);
    try {
      const files = Object.keys(FILES).filter((f) => !f.startsWith('.'));
      const collect = () =>
        files.flatMap((f) => (lsp.diagnostics.get(uriOf(`${repo.dir}/${f}`)) ?? []).filter((d) => INSERT_RULES.includes(String(d.code))).map((d) => `${d.code}@${f}:${d.range.start.line + 1}`)).sort();
      await lsp.waitFor('insert-pattern findings of the code files', () => collect().length >= EXPECTED.length);
      assert.deepEqual(collect(), EXPECTED);
    } finally {
      await lsp.stop();
    }
  });
});
