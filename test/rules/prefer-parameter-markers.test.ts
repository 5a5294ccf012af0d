import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, findings as ruleFindings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

const RULE = 'prefer-parameter-markers';
const SEED = [
  "INSERT INTO REGION VALUES ('UK', 'United Kingdom');",
  "INSERT INTO REGION VALUES ('US', 'United States');",
  "INSERT INTO REGION VALUES ('NL', 'Netherlands');",
  '',
].join('\n');

describe(`rule ${RULE}`, () => {
  it('scripts: reports repeated literal single-row inserts into one table once, on the minRepeats-th, counting all', () => {
    expectFindings({ 'seed.sql': SEED }, RULE, [{ line: 3, column: 1, severity: 'warning', message: /^Literal-valued INSERTs into REGION: 3 in this script \(lines 1\u20133\), each compiled anew by Db2\. .*Db2 INSERT tips, tests 1-2.*180\.6 s.*92\.1 s/ }]);
    const mixed = SEED + "INSERT INTO OTHER VALUES (1);\nINSERT INTO REGION VALUES ('FR', 'France');\n";
    const [finding] = expectFindings({ 'seed.sql': mixed }, RULE, [{ line: 3, column: 1, message: /^Literal-valued INSERTs into REGION: 4 in this script \(lines 1\u20135\)/ }]);
    assert.deepEqual(finding.extentLines, { line: 1, endLine: 5 });
  });

  it('scripts for Db2 for z/OS (SPUFI, DSNTIAD): LOAD, not markers, multi-row VALUES or IMPORT, which they lack', () => {
    const [finding] = ruleFindings({ 'seed.sql': SEED }, RULE, { config: { dialect: 'zos' } });
    assert.match(finding.message, /^Literal-valued INSERTs into REGION: 3 in this script .*DSNTIAD and SPUFI run every statement as dynamic SQL.*run the LOAD utility instead\.$/);
    assert.doesNotMatch(finding.message, /IMPORT|multi-row VALUES/);
  });

  it('scripts: below the threshold, with markers or multi-row VALUES there is nothing to report', () => {
    expectNoFindings({ 'seed.sql': SEED.split('\n').slice(0, 2).join('\n') }, RULE);
    expectNoFindings({ 'load.sql': 'INSERT INTO T VALUES (?, ?);\nINSERT INTO T VALUES (?, ?);\nINSERT INTO T VALUES (?, ?);\n' }, RULE);
    expectNoFindings({ 'load.sql': "INSERT INTO REGION VALUES ('UK', 'x'), ('US', 'y'), ('NL', 'z');\n" }, RULE);
    expectNoFindings({ 'seed.sql': SEED }, RULE, { config: { rules: { [RULE]: ['warning', { minRepeats: 4 }] } } });
  });

  it('code: reports spliced VALUES and says both the compile cost and the injection risk', async () => {
    const js = "const ibmdb = require('ibm_db');\nconn.querySync(\"INSERT INTO T (A, B) VALUES ('\" + a + \"', \" + b + \")\");\n";
    const { findings } = await lintCode({ 'a.js': js });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(js, 'conn.querySync')}`]);
    assert.match(findings[0].message, /^Values spliced into INSERT INTO T through string concatenation: a, b\. .*SQL-injection risk \(Db2 INSERT tips, tests 1-2/);
  });

  it('code: a spliced table name or a constant is not a spliced value', async () => {
    const java = `class A {
    static final String STATUS = "N";
    void run(Statement st, String table) throws Exception {
        st.executeUpdate("INSERT INTO " + table + " (A, S) VALUES (1, '" + STATUS + "')");
    }
}
`;
    const { findings, models } = await lintCode({ 'A.java': java });
    assert.equal(models.get('A.java')!.code!.executions[0].splicedValues.length, 1);
    assert.deepEqual(brief(findings, [RULE]), []);
  });

  it('code: a constant of another class (UPPER_CASE) is the same text every time, not a row value', async () => {
    const java = `class C { void run(Statement st, Row r) throws Exception {
        st.executeUpdate("INSERT INTO T (A, S) VALUES (" + r.a + ", " + Status.ACTIVE + ")");
    } }
`;
    const { findings } = await lintCode({ 'C.java': java });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(java, 'st.executeUpdate')}`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /through string concatenation: r\.a\. /);
  });
});

// Item 1 of issue 10: literal-valued INSERTs executed from code. In a loop: a warning; several into one
// table from one function (or file-level code): the scripts' threshold; a one-off: nothing, or a hint.
describe(`rule ${RULE}: literal-valued INSERTs executed from code`, () => {
  it('Java: a literal INSERT inside a loop is a warning naming the table and the loop', async () => {
    const java = `class Fill {
    void fill(Statement st, int n) throws SQLException {
        for (int i = 0; i < n; i++) {
            st.executeUpdate("INSERT INTO APP.TICKS (KIND) VALUES ('tick')");
        }
    }
}
`;
    const { findings } = await lintCode({ 'Fill.java': java });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(java, 'st.executeUpdate')}`]);
    assert.equal(found[0].severity, 'warning');
    assert.match(found[0].message, /^Literal-valued INSERT INTO APP\.TICKS executed on every pass of the for loop at line 3\. .*Db2 INSERT tips, tests 1-2/);
  });

  it('JavaScript and C: literal INSERTs in loops (forEach callback, while)', async () => {
    const js = "const ibmdb = require('ibm_db');\nfunction f(conn, rows) {\n  rows.forEach(() => conn.querySync(\"INSERT INTO T (A) VALUES (1)\"));\n}\n";
    const c = 'void f(SQLHSTMT h, int n) {\n    while (n-- > 0) SQLExecDirect(h, (SQLCHAR *)"INSERT INTO T (A) VALUES (1)", SQL_NTS);\n}\n';
    const { findings } = await lintCode({ 'f.js': js, 'f.c': c });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(js, 'conn.querySync')}`, `${RULE}@${posOf(c, 'SQLExecDirect')}`]);
    assert.match(findings.find((f) => f.file === 'f.js' && f.rule === RULE)!.message, /forEach loop at line 3/);
  });

  it('Python: three literal INSERTs into one table from one function reach the scripts threshold', async () => {
    const py = `import ibm_db

def seed(conn):
    ibm_db.exec_immediate(conn, "INSERT INTO APP.REGION VALUES ('UK', 'United Kingdom')")
    ibm_db.exec_immediate(conn, "INSERT INTO APP.REGION VALUES ('US', 'United States')")
    ibm_db.exec_immediate(conn, "INSERT INTO APP.REGION VALUES ('NL', 'Netherlands')")

def other(conn):
    ibm_db.exec_immediate(conn, "INSERT INTO APP.REGION VALUES ('FR', 'France')")
    ibm_db.exec_immediate(conn, "INSERT INTO APP.COUNTRY VALUES ('FR')")
`;
    const { findings } = await lintCode({ 'seed.py': py });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(py, 'ibm_db.exec_immediate', 3)}`]);
    assert.match(found[0].message, /^Literal-valued INSERTs into APP\.REGION: 3 executed from seed\(\) \(lines 4\u20136\)\. /);
    // minRepeats applies as for scripts.
    const four = await lintCode({ 'seed.py': py }, { rules: { [RULE]: ['warning', { minRepeats: 4 }] } });
    assert.deepEqual(brief(four.findings, [RULE]), []);
  });

  it('shell: literal db2 "INSERT …" commands at the top level of a script count like a function', async () => {
    const sh = `#!/bin/sh
db2 connect to SAMPLE
db2 "INSERT INTO APP.REGION VALUES ('UK', 'United Kingdom')"
db2 "INSERT INTO APP.REGION VALUES ('US', 'United States')"
db2 "INSERT INTO APP.REGION VALUES ('NL', 'Netherlands')"
`;
    const { findings } = await lintCode({ 'seed.sh': sh });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(sh, 'db2 "INSERT', 3)}`]);
    assert.match(found[0].message, /^Literal-valued INSERTs into APP\.REGION: 3 executed from the top level of this file \(lines 3\u20135\)\./);
  });

  it('a one-off literal INSERT is not reported; with reportOneOff it is a hint, whatever the rule severity', async () => {
    const py = 'import ibm_db\n\ndef mark(conn):\n    ibm_db.exec_immediate(conn, "INSERT INTO APP.AUDIT (MSG) VALUES (\'started\')")\n';
    assert.deepEqual(brief((await lintCode({ 'mark.py': py })).findings, [RULE]), []);
    const { findings } = await lintCode({ 'mark.py': py }, { rules: { [RULE]: ['error', { reportOneOff: true }] } });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(found.map((f) => [f.severity, f.line]), [['hint', 4]]);
    assert.match(found[0].message, /^Literal-valued INSERT INTO APP\.AUDIT executed once here\. /);
  });

  it('static embedded SQL, markers, a prepared handle and multi-row VALUES are not literal INSERT findings', async () => {
    const sqc = 'void f(void) {\n  for (int i = 0; i < 3; i++) {\n    EXEC SQL INSERT INTO T (A) VALUES (1);\n  }\n}\n';
    const java = `class P {
    void p(Connection c, int n) throws SQLException {
        PreparedStatement ps = c.prepareStatement("INSERT INTO T (A) VALUES (?)");
        for (int i = 0; i < n; i++) { ps.setInt(1, i); ps.executeUpdate(); }
        Statement st = c.createStatement();
        st.executeUpdate("INSERT INTO T (A) VALUES (1), (2), (3)");
    }
}
`;
    const { findings } = await lintCode({ 'f.sqc': sqc, 'P.java': java });
    assert.deepEqual(brief(findings, [RULE]), []);
  });
});

// Item 2 of issue 10: values spliced through a format template inside quotes, through a variable assigned
// once, anchored on the call that executes, naming the spliced expressions.
describe(`rule ${RULE}: values spliced through format templates`, () => {
  it("Python: '%s' % (…) and '{}'.format(…) through a variable, anchored on the execute", async () => {
    const py = `import ibm_db_dbi

def save(cur, people):
    for p in people:
        sql = "INSERT INTO APP.PEOPLE (NAME, AGE) VALUES ('%s', %d)" % (p.name, p.age)
        cur.execute(sql)
    note = "INSERT INTO APP.NOTES (BODY) VALUES ('{}')".format(text)
    cur.execute(note)
`;
    const { findings } = await lintCode({ 'save.py': py });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(py, 'cur.execute(sql)')}`, `${RULE}@${posOf(py, 'cur.execute(note)')}`]);
    assert.match(found[0].message, /^Values spliced into INSERT INTO APP\.PEOPLE through a format template: p\.name, p\.age\. /);
    assert.match(found[1].message, /^Values spliced into INSERT INTO APP\.NOTES through a format template: text\. /);
  });

  it("Java: String.format('%s') and MessageFormat.format(''{0}'')", async () => {
    const java = `class F {
    void f(Statement st, Person p) throws SQLException {
        st.executeUpdate(String.format("INSERT INTO APP.PEOPLE (NAME, AGE) VALUES ('%s', %d)", p.name, p.age));
        String sql = MessageFormat.format("INSERT INTO APP.NOTES (BODY, AT) VALUES (''{0}'', ''{1}'')", p.note, when);
        st.execute(sql);
    }
}
`;
    const { findings } = await lintCode({ 'F.java': java });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(java, 'st.executeUpdate')}`, `${RULE}@${posOf(java, 'st.execute(sql)')}`]);
    assert.match(found[0].message, /through a format template: p\.name, p\.age\. /);
    assert.match(found[1].message, /^Values spliced into INSERT INTO APP\.NOTES through a format template: p\.note, when\. /);
  });

  it('C: snprintf into a buffer that SQLExecDirect runs later; a quoted %s in a table name is not a value', async () => {
    const c = `void f(SQLHSTMT h, const char *name, const char *table) {
    char sql[200];
    snprintf(sql, sizeof sql, "INSERT INTO APP.PEOPLE (NAME) VALUES ('%s')", name);
    prepare_something();
    SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS);
    char ddl[200];
    sprintf(ddl, "INSERT INTO \\"%s\\" (NAME) VALUES ('x')", table);
    SQLExecDirect(h, (SQLCHAR *)ddl, SQL_NTS);
}
`;
    const { findings } = await lintCode({ 'f.c': c });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(c, 'SQLExecDirect')}`]);
    assert.match(found[0].message, /^Values spliced into INSERT INTO APP\.PEOPLE through a format template: name\. /);
  });

  it('JavaScript: a quoted template substitution; a constant of the file is text, not a splice', async () => {
    const js = "const ibmdb = require('ibm_db');\nconst TABLE = 'APP.PEOPLE';\nfunction f(conn, p) {\n  return conn.querySync(`INSERT INTO ${TABLE} (NAME) VALUES ('${p.name}')`);\n}\n";
    const { findings } = await lintCode({ 'f.js': js });
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(js, 'conn.querySync')}`]);
    assert.match(found[0].message, /^Values spliced into INSERT INTO APP\.PEOPLE through an interpolated string: p\.name\. /);
  });
});

describe(`rule ${RULE}: a text run every n passes`, () => {
  it('does not say "on each pass" of an INSERT built over many passes and run under a counter check, and knows it carries many rows (db2magic.py)', async () => {
    const py = `import ibm_db
def load(hdbc, table, frame, limit):
    row_count = 0
    insert_sql = ""
    for row in range(0, len(frame)):
        insert_row = f"'{frame[row]}'"
        if insert_sql == "":
            insert_sql = f"INSERT INTO {table} VALUES ({insert_row})"
        else:
            insert_sql = f"{insert_sql},({insert_row})"
        row_count += 1
        if row_count % 1000 == 0 or row_count == limit:
            ibm_db.exec_immediate(hdbc, insert_sql)
            insert_sql = ""
`;
    const { findings } = await lintCode({ 'load.py': py });
    const [finding] = findings.filter((f) => f.rule === RULE);
    assert.ok(finding, 'the spliced values are still reported');
    // The text appends a row to itself on each pass: one execution carries up to 1000 rows, a new statement each time.
    // It names insert_row, which the INSERT's text shows, not frame[row] it is built from.
    assert.match(finding.message, /^Values spliced into INSERT INTO <table> through an interpolated string: insert_row, appended to one text row by row\. Each such text is a new statement of many rows of literals, up to Db2's 2 MB limit, that Db2 compiles and keeps in its package cache, and a spliced value is an SQL-injection risk\./);
    assert.doesNotMatch(finding.message, /each pass|180\.6 s|frame/);
    // The remedy is the driver's own way to bind many rows (ibm_db here, not DB-API's cursor.executemany).
    assert.match(finding.message, /Bind the rows instead: parameter markers \(\?\) with ibm_db\.execute_many\.$/);
    // The same text built afresh for each row is no list.
    const { findings: perRow } = await lintCode({ 'load.py': py.replace('insert_sql = f"{insert_sql},({insert_row})"', 'insert_sql = f"INSERT INTO {table} VALUES ({insert_row})"') });
    assert.match(perRow.find((f) => f.rule === RULE)!.message, /Db2 compiles every distinct text as a new statement/);
  });
});

describe(`rule ${RULE}: a list of rows spliced into one text`, () => {
  it('does not quote per-row compile figures for VALUES (%s) filled with a row list (ibmdbpy base.py)', async () => {
    const py = `import ibm_db
def insert_chunks(conn, schema, tablename, column_string, chunks):
    for chunk in chunks:
        row_string = ""
        for value_string in chunk:
            row_string += "(%s)," % value_string
        query = "INSERT INTO \\"%s\\".\\"%s\\" (%s) VALUES (%s)" % (schema, tablename, column_string, row_string[:-1])
        ibm_db.exec_immediate(conn, query)
`;
    const { findings } = await lintCode({ 'base.py': py });
    const [finding] = findings.filter((f) => f.rule === RULE);
    assert.ok(finding, 'still reported: the injection risk');
    assert.match(finding.message, /: row_string\[:-1\], a list of rows\. Each such text is a new statement of many rows of literals, up to Db2's 2 MB limit, that Db2 compiles and keeps in its package cache, and a spliced value is an SQL-injection risk\./);
    assert.doesNotMatch(finding.message, /180\.6 s|each pass/);
  });

  it('a variable named like a list that is built from one row (no "(" in what it is assigned) holds one row', async () => {
    for (const name of ['values', 'vals', 'value_string']) {
      const py = `import csv
import ibm_db
conn = ibm_db.connect("SAMPLE", "", "")
def load(path):
    with open(path) as f:
        for row in csv.reader(f):
            ${name} = ", ".join("'%s'" % c.replace("'", "''") for c in row)
            ibm_db.exec_immediate(conn, "INSERT INTO APP.ORDERS VALUES (%s)" % ${name})
`;
      const { findings } = await lintCode({ 'load.py': py });
      const markers = findings.find((f) => f.rule === RULE);
      assert.ok(markers, name);
      assert.doesNotMatch(markers.message, /a list of rows/, name);
      assert.match(markers.message, /on each pass of the for loop/, name);
      // The rules about one row per call see it too.
      assert.deepEqual(findings.map((f) => f.rule).sort(), ['no-autocommit', RULE, 'single-row-insert'], name);
    }
  });
});

describe(`rule ${RULE}: MERGE`, () => {
  it('reports values spliced into MERGE … USING (VALUES …), an upsert per call (Sequelize), not one from a query', async () => {
    const js = `const ibmdb = require('ibm_db');
class QI {
  async upsert(tableName, insertValues) {
    const keys = Object.keys(insertValues);
    const vals = keys.map((k) => this.escape(insertValues[k])).join(', ');
    const sql = \`MERGE INTO APP.T AS t USING (VALUES(\${vals})) AS s(\${keys.join(', ')}) ON t.id = s.id WHEN NOT MATCHED THEN INSERT (\${keys.join(', ')}) VALUES(\${vals});\`;
    return this.conn.query(sql);
  }
  async copy(day) {
    return this.conn.query(\`MERGE INTO APP.T AS t USING (SELECT * FROM APP.S WHERE D = '\${day}') AS s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id)\`);
  }
}
`;
    const { findings } = await lintCode({ 'qi.js': js });
    const reported = findings.filter((f) => f.rule === RULE);
    assert.equal(reported.length, 1, JSON.stringify(findings));
    // The values go through this.escape: escaped by the code, not an open injection hole.
    assert.match(reported[0].message, /^Values spliced into MERGE INTO APP\.T through an interpolated string: vals\. Db2 compiles every distinct text as a new statement, and the values are escaped by the code \(an escape function\) instead of bound/);
    // Markers in a MERGE's USING (VALUES …) take their types from their use, or need a CAST.
    assert.match(reported[0].message, /Use parameter markers \(\?\) and bind the values; in USING \(VALUES …\), cast a marker whose type Db2 cannot tell from its use \(CAST\(\? AS INTEGER\)\)\.$/);
    assert.equal(reported[0].line, 7, "on the query call");
  });
});

describe(`rule ${RULE}: numbers spliced outside bulk loops`, () => {
  it('Java and C: a variable declared numeric cannot carry SQL; outside a bulk loop it is not reported, a string is', async () => {
    const java = `class N {
    void one(Statement st, String name) throws SQLException {
        final int id = next();
        st.executeUpdate("INSERT INTO APP.T (ID) VALUES (" + id + ")");
        st.executeUpdate("INSERT INTO APP.T (NAME) VALUES ('" + name + "')");
        for (int i = 0; i < 5; i++) st.executeUpdate("INSERT INTO APP.T (ID) VALUES (" + i + ")");
    }
    void many(Statement st, List<Row> rows) throws SQLException {
        for (Row r : rows) {
            long k = r.key();
            st.executeUpdate("INSERT INTO APP.T (ID) VALUES (" + k + ")");
        }
    }
}
`;
    const c = 'void f(SQLHSTMT h) {\n    int n = 7;\n    char sql[99];\n    sprintf(sql, "INSERT INTO APP.T (ID) VALUES (%d)", n);\n    SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS);\n}\n';
    const { findings } = await lintCode({ 'N.java': java, 'n.c': c });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(java, 'st.executeUpdate', 2)}`, `${RULE}@${posOf(java, 'st.executeUpdate', 4)}`]);
    // In the bulk loop the compile cost is reported; a long cannot carry SQL, so no injection warning.
    const [text, number] = findings.filter((f) => f.rule === RULE).map((f) => f.message);
    assert.match(text, /SQL-injection risk/);
    assert.match(number, /^Values spliced into INSERT INTO APP\.T through string concatenation: k\. Db2 compiles every distinct text as a new statement on each pass/);
    assert.doesNotMatch(number, /injection/);
  });
});

describe(`rule ${RULE}: the expression the statement's text shows`, () => {
  it('names the variable spliced into the INSERT text (insert_row), not the values it was built from; the splice keeps its own span', async () => {
    const py = `import ibm_db
def load(hdbc, table, frame):
    for row in frame:
        value = row[0]
        insert_row = f"{value}"
        insert_row = f"{insert_row},{row[1]}"
        insert_sql = f"INSERT INTO APP.T VALUES ({insert_row})"
        ibm_db.exec_immediate(hdbc, insert_sql)
`;
    const { findings, models } = await lintCode({ 'load.py': py });
    const [finding] = findings.filter((f) => f.rule === RULE);
    assert.match(finding.message, /^Values spliced into INSERT INTO APP\.T through an interpolated string: insert_row\. /);
    const execution = models.get('load.py')!.code!.executions[0];
    // The text names insert_row; the span is the value's own (what the SQL text maps onto), here `value` and `row[1]`.
    assert.deepEqual(execution.splices!.map((x) => [x.text, py.slice(x.span.start, x.span.end)]), [['insert_row', 'value'], ['insert_row', 'row[1]']]);
  });

  it('Java: a variable of values concatenated in, and a qualified name held in one variable, are named as the text shows them', async () => {
    const java = `class V {
    void v(Statement st, Person p, String schema, String table) throws SQLException {
        String vals = "'" + p.name + "', " + p.age;
        String target = schema + "." + table;
        st.executeUpdate("INSERT INTO " + target + " VALUES (" + vals + ")");
    }
}
`;
    const { findings } = await lintCode({ 'V.java': java });
    const [finding] = findings.filter((f) => f.rule === RULE);
    assert.match(finding.message, /^Values spliced into INSERT INTO <target> through string concatenation: vals\. /);
  });

  it('a variable holding the statement itself is not the name: the values spliced into it are', async () => {
    const py = `import ibm_db
def save(conn, people):
    for p in people:
        sql = f"INSERT INTO APP.PEOPLE (NAME) VALUES ('{p.name}')"
        stmt = sql
        ibm_db.exec_immediate(conn, stmt)
`;
    const { findings } = await lintCode({ 'save.py': py });
    assert.match(findings.find((f) => f.rule === RULE)!.message, /: p\.name\. /);
  });
});

describe(`rule ${RULE}: values quoted by hand`, () => {
  it('quotes doubled in a function of the file the values go through (db2magic addquotes): said as such, not as an injection risk', async () => {
    const py = `import ibm_db
def addquotes(s, flag):
    return "'" + s.replace("'", "''") + "'"

def load(hdbc, table, frame):
    insert_sql = ""
    for row in frame:
        value = str(row[0])
        value = addquotes(value, True)
        insert_row = f"{value}"
        if insert_sql == "":
            insert_sql = f"INSERT INTO {table} VALUES ({insert_row})"
        else:
            insert_sql = f"{insert_sql},({insert_row})"
        if len(insert_sql) > 100000:
            ibm_db.exec_immediate(hdbc, insert_sql)
            insert_sql = ""
`;
    const { findings } = await lintCode({ 'load.py': py });
    const finding = findings.find((f) => f.rule === RULE)!;
    assert.match(finding.message, /: insert_row, appended to one text row by row\. .*package cache, and the values are quoted by hand \(quotes doubled\) instead of bound\. Bind the rows instead/);
    assert.doesNotMatch(finding.message, /injection/);
    // Without the doubling, the same code is an injection risk.
    const { findings: open } = await lintCode({ 'load.py': py.replace(`s.replace("'", "''")`, 's') });
    assert.match(open.find((f) => f.rule === RULE)!.message, /and a spliced value is an SQL-injection risk\./);
  });

  it(`Java .replace("'", "''") on every value but a number; one value left unescaped keeps the injection warning`, async () => {
    const java = `class Q {
    void q(Statement st, List<Person> people) throws SQLException {
        for (Person p : people) {
            int age = p.age();
            String name = p.name().replace("'", "''");
            st.executeUpdate("INSERT INTO APP.PEOPLE (NAME, AGE) VALUES ('" + name + "', " + age + ")");
        }
    }
    void r(Statement st, Person p) throws SQLException {
        String name = p.name().replace("'", "''");
        st.executeUpdate("INSERT INTO APP.PEOPLE (NAME, CITY) VALUES ('" + name + "', '" + p.city() + "')");
    }
}
`;
    const { findings } = await lintCode({ 'Q.java': java });
    const [quoted, open] = findings.filter((f) => f.rule === RULE).map((f) => f.message);
    assert.match(quoted, /^Values spliced into INSERT INTO APP\.PEOPLE through string concatenation: name, age\. Db2 compiles every distinct text as a new statement on each pass of the for-each loop at line 3, and the values are quoted by hand \(quotes doubled\) instead of bound \(Db2 INSERT tips/);
    assert.match(open, /: name, p\.city\(\)\. .*, and a spliced value is an SQL-injection risk/);
  });
});

describe(`rule ${RULE}: one finding per loop`, () => {
  it('values spliced into INSERTs into two tables on each pass of one loop are one finding naming both, spanning the calls (Debezium)', async () => {
    const java = `class It {
    void fill(JdbcConnection connection, int n) throws SQLException {
        for (int i = 0; i < n; i++) {
            final String id = "" + i;
            connection.executeWithoutCommitting(
                    "INSERT INTO tablea VALUES(" + id + ", 'a')");
            connection.executeWithoutCommitting(
                    "INSERT INTO tableb VALUES(" + id + ", 'b')");
        }
        for (int i = 0; i < n; i++) {
            final String id = "" + i;
            connection.executeWithoutCommitting("INSERT INTO tablea VALUES(" + id + ", 'a')");
        }
        connection.executeWithoutCommitting("INSERT INTO tablea VALUES(" + name + ", 'a')");
        connection.executeWithoutCommitting("INSERT INTO tableb VALUES(" + name + ", 'b')");
    }
}
`;
    const { findings } = await lintCode({ 'It.java': java });
    const found = findings.filter((f) => f.rule === RULE);
    // One per loop; outside loops one per call, as before.
    assert.deepEqual(brief(found), [1, 3, 4, 5].map((n) => `${RULE}@${posOf(java, 'connection.executeWithoutCommitting', n)}`));
    assert.match(found[0].message, /^Values spliced into INSERT INTO TABLEA and TABLEB through string concatenation: id\. Db2 compiles every distinct text as a new statement on each pass of the for loop at line 3/);
    assert.deepEqual(found[0].extentLines, { line: 5, endLine: 8 });
    assert.match(found[1].message, /^Values spliced into INSERT INTO TABLEA through string concatenation: id\. .*for loop at line 10/);
    assert.equal(found[1].extentLines, undefined);
  });
});

describe(`rule ${RULE}: INSERT texts a function builds and returns (query generators)`, () => {
  // The shape of Sequelize's Db2 bulkInsertQuery: a lodash template whose tuples slot holds every row as escaped
  // literals, returned for the dialect's query class (another file) to prepare and run.
  const generator = `import template from 'lodash/template';
import forEach from 'lodash/forEach';

export class QueryGenerator {
  bulkInsertQuery(tableName, attrValueHashes, options, attributes) {
    let query = 'INSERT INTO <%= table %> (<%= attributes %>)<%= output %> VALUES <%= tuples %>;';
    if (options.returning) {
      query = 'SELECT * FROM FINAL TABLE (INSERT INTO <%= table %> (<%= attributes %>)<%= output %> VALUES <%= tuples %>);';
    }
    const emptyQuery = 'INSERT INTO <%= table %>';
    const tuples = [];
    const allAttributes = [];
    const allQueries = [];
    let outputFragment;
    const valuesForEmptyQuery = [];
    if (options.returning) {
      outputFragment = '';
    }
    forEach(attrValueHashes, attrValueHash => {
      const fields = Object.keys(attrValueHash);
      if (fields.length === 1 && attrValueHash[fields[0]] === null) {
        valuesForEmptyQuery.push(\`(\${this.autoGenValue++})\`);
        return;
      }
      for (const key of fields) if (!allAttributes.includes(key)) allAttributes.push(key);
    });
    if (valuesForEmptyQuery.length > 0) {
      allQueries.push(\`\${emptyQuery} VALUES \${valuesForEmptyQuery.join(',')}\`);
    }
    if (allAttributes.length > 0) {
      forEach(attrValueHashes, attrValueHash => {
        tuples.push(\`(\${allAttributes.map(key => this.escape(attrValueHash[key] ?? null, { replacements: options.replacements })).join(',')})\`);
      });
      allQueries.push(query);
    }
    const replacements = {
      table: this.quoteTable(tableName),
      attributes: allAttributes.map(attr => this.quoteIdentifier(attr)).join(','),
      tuples,
      output: outputFragment,
    };
    const generatedQuery = template(allQueries.join(';'), this._templateSettings)(replacements);
    return generatedQuery;
  }
}
`;

  it('reports the rows of escaped literals a lodash template splices into a returned INSERT, where the INSERT is written', async () => {
    const { findings, models } = await lintCode({ 'query-generator.js': generator });
    const code = models.get('query-generator.js')!.code!;
    // Built and returned, not run here: no execution, and no statement of the file (the schema and SQL rules see none).
    assert.deepEqual([code.executions.length, code.returnedTexts?.length, models.get('query-generator.js')!.statements.length], [0, 1, 0]);
    const found = findings.filter((f) => f.rule === RULE);
    assert.deepEqual(brief(found), [`${RULE}@${posOf(generator, "'SELECT * FROM FINAL TABLE")}`]);
    assert.equal(found[0].severity, 'warning');
    assert.match(
      found[0].message,
      /^Rows spliced into the INSERT INTO <this\.quoteTable\(tableName\)> that bulkInsertQuery\(\) returns: valuesForEmptyQuery\.join\(','\), tuples\. Built through a format template for its caller to run, every call makes a new statement of many rows of literals, up to Db2's 2 MB limit, that Db2 compiles and keeps in its package cache for that one use, and the values are escaped by the code \(an escape function\) instead of bound\. Build the INSERT with parameter markers \(\?\) and run it with the rows bound/,
    );
    // No other rule reads a returned text: no loop, connection or autocommit is known for it.
    assert.deepEqual(findings.filter((f) => f.rule !== RULE), []);
  });

  it('not for names, markers, literals, counters, a text the function runs itself, or what a callback returns', async () => {
    const js = `import template from 'lodash/template';
export class QueryGenerator {
  insertQuery(table, row) {
    const keys = Object.keys(row);
    return template('INSERT INTO <%= table %> (<%= attributes %>) VALUES (<%= markers %>)')({
      table: this.quoteTable(table),
      attributes: keys.map((k) => this.quoteIdentifier(k)).join(','),
      markers: keys.map(() => '?').join(','),
    });
  }
  seedQuery() {
    return "INSERT INTO APP.T (ID, NAME) VALUES (1, 'one')";
  }
  nextIdQuery() {
    return \`INSERT INTO APP.IDS (ID) VALUES (\${this.seq++})\`;
  }
  async runQuery(conn, row) {
    const sql = \`INSERT INTO APP.T (NAME) VALUES ('\${row.name}')\`;
    await conn.query(sql);
    return sql;
  }
  rowsQuery(rows) {
    const texts = rows.map((r) => { return \`INSERT INTO APP.T (NAME) VALUES ('\${r.name}')\`; });
    return texts.length;
  }
}
`;
    const { findings, models } = await lintCode({ 'qg.js': js });
    // Only nextIdQuery returns a value spliced into its rows, a counter: a number, left alone as outside bulk loops.
    assert.deepEqual(models.get('qg.js')!.code!.returnedTexts?.map((t) => [t.inFunction?.name, t.splices?.map((x) => x.numeric)]), [['nextIdQuery', [true]]]);
    // runQuery's text is reported once, at the call that runs it.
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(js, 'conn.query')}`]);
  });

  it("an upsert MERGE a function returns with its aliases spliced after AS (Sequelize's Db2 upsertQuery)", async () => {
    const js = `export class QueryGenerator {
  upsertQuery(tableName, insertValues, updateValues, where, model, options) {
    const targetTableAlias = this.quoteTable(\`\${tableName}_target\`);
    const sourceTableAlias = this.quoteTable(\`\${tableName}_source\`);
    const tableNameQuoted = this.quoteTable(tableName);
    const insertKeys = Object.keys(insertValues);
    const insertKeysQuoted = insertKeys.map(key => this.quoteIdentifier(key)).join(', ');
    const insertValuesEscaped = insertKeys.map(key => this.escape(insertValues[key], { replacements: options.replacements, model })).join(', ');
    const sourceTableQuery = \`VALUES(\${insertValuesEscaped})\`;
    const joinCondition = this.getJoinSnippet(insertKeys).join(' AND ');
    const insertSnippet = \`(\${insertKeysQuoted}) VALUES(\${insertValuesEscaped})\`;
    let query = \`MERGE INTO \${tableNameQuoted} AS \${targetTableAlias} USING (\${sourceTableQuery}) AS \${sourceTableAlias}(\${insertKeysQuoted}) ON \${joinCondition}\`;
    query += \` WHEN NOT MATCHED THEN INSERT \${insertSnippet};\`;
    return query;
  }
}
`;
    const { findings, models } = await lintCode({ 'query-generator.js': js });
    assert.equal(models.get('query-generator.js')!.code!.returnedTexts?.length, 1);
    assert.deepEqual(brief(findings), [`${RULE}@${posOf(js, '`MERGE INTO')}`]);
    assert.equal(findings[0].severity, 'warning');
    assert.match(
      findings[0].message,
      /^Values spliced into the MERGE INTO <tableNameQuoted> that upsertQuery\(\) returns: insertValuesEscaped\. Built through string concatenation for its caller to run, every call makes a new statement text that Db2 compiles, and the values are escaped by the code \(an escape function\) instead of bound \(Db2 INSERT tips.*\)\. Build the MERGE with parameter markers \(\?\) and bind the values where it runs; in USING \(VALUES …\), cast a marker whose type Db2 cannot tell from its use \(CAST\(\? AS INTEGER\)\)\.$/,
    );
  });

  it('a class field holding an arrow function is a method by that name (expression body or block, JavaScript and TypeScript)', async () => {
    const js = `export class QueryGenerator {
  insertQuery = (row) => \`INSERT INTO APP.T (NAME) VALUES ('\${row.name}')\`;
  auditQuery = row => {
    return \`INSERT INTO APP.AUDIT (NOTE) VALUES ('\${row.note}')\`;
  };
  #seedQuery = () => "INSERT INTO APP.T (NAME) VALUES ('seed')";
  label = \`INSERT INTO APP.T (NAME) VALUES ('\${this.name}')\`;
  deleteQuery(table) {
    return \`DELETE FROM \${table}\`;
  }
}
`;
    const ts = `export class Gen {
  public insertQuery = (row: Row): string => \`INSERT INTO APP.T (NAME) VALUES ('\${row.name}')\`;
  deleteQuery(table: string): string {
    return \`DELETE FROM \${table}\`;
  }
}
`;
    // (access.ts reads a file with SQL text and a call or method named like a query: deleteQuery here.)
    const { findings, models } = await lintCode({ 'qg.js': js, 'gen.ts': ts });
    assert.deepEqual(models.get('qg.js')!.code!.returnedTexts?.map((t) => t.inFunction?.name), ['insertQuery', 'auditQuery']);
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(js, '`INSERT')}`, `${RULE}@${posOf(js, '`INSERT', 2)}`, `${RULE}@${posOf(ts, '`INSERT')}`]);
    assert.match(findings.find((f) => f.file === 'qg.js')!.message, /^Values spliced into the INSERT INTO APP\.T that insertQuery\(\) returns: row\.name\./);
    assert.match(findings.find((f) => f.file === 'gen.ts')!.message, /that insertQuery\(\) returns: row\.name\./);
  });

  it('a file whose only SQL is in class fields named like a query holding arrow functions is read (query builders)', async () => {
    const js = `export class InsertBuilder {
  insertQuery = (row) => \`INSERT INTO APP.T (NAME) VALUES ('\${row.name}')\`;
}
`;
    const ts = `export class Gen {
  public insertSql = async (row: Row): Promise<string> => \`INSERT INTO APP.T (NAME) VALUES ('\${row.name}')\`;
}
`;
    // A field named otherwise, or holding no function, is no query builder: the file stays left out.
    const other = `export class Labels {
  label = (row) => \`INSERT INTO APP.T (NAME) VALUES ('\${row.name}')\`;
  insertQuery = \`INSERT INTO APP.T (NAME) VALUES ('x')\`;
}
`;
    const { findings, models } = await lintCode({ 'builder.js': js, 'gen.ts': ts, 'labels.js': other });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(js, '`INSERT')}`, `${RULE}@${posOf(ts, '`INSERT')}`]);
    assert.match(models.get('labels.js')!.leftOut ?? '', /no Db2 access/);
  });

  it('a class field arrow function that runs its parameter is a wrapper, as a method is', async () => {
    const js = `const ibmdb = require('ibm_db');
class Repo {
  save = (sql) => this.conn.querySync(sql);
  load(rows) {
    for (const r of rows) this.save(\`INSERT INTO APP.T (NAME) VALUES ('\${r.name}')\`);
  }
}
`;
    const { findings } = await lintCode({ 'repo.js': js });
    assert.deepEqual(brief(findings, [RULE, 'single-row-insert']), [`${RULE}@${posOf(js, 'this.save(')}`, `single-row-insert@${posOf(js, 'this.save(')}`]);
  });

  it('a one-row INSERT a function returns with a value spliced in: the compile per text and the injection risk', async () => {
    const ts = `export function insertPersonQuery(p: Person): string {
  return \`INSERT INTO APP.PEOPLE (NAME, AGE) VALUES ('\${p.name}', \${p.age})\`;
}
`;
    const { findings } = await lintCode({ 'people.ts': ts });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(ts, '`INSERT')}`]);
    assert.match(findings[0].message, /^Values spliced into the INSERT INTO APP\.PEOPLE that insertPersonQuery\(\) returns: p\.name, p\.age\. Built through an interpolated string for its caller to run, every call makes a new statement text that Db2 compiles, and a spliced value is an SQL-injection risk \(Db2 INSERT tips, tests 1-2/);
  });
});
