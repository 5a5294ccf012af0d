import * as assert from 'node:assert/strict';
import { brief, codeFrontEnd, INSERT_RULES, lintCode, posOf } from './helpers';
import { lintWorkspace } from '../helpers/rule-tester';

describe('code: Python (ibm_db, DB-API)', () => {
  it('ibm_db: exec_immediate of an f-string per row, autocommit on (the driver default)', async () => {
    const py = `import ibm_db

def load(rows):
    conn = ibm_db.connect(DSN, "", "")
    for row in rows:
        sql = f"""INSERT INTO SALES.CUSTOMER (ID, NAME)
                  VALUES ({row['id']}, '{row['name']}')"""
        ibm_db.exec_immediate(conn, sql)
        ibm_db.commit(conn)
`;
    const { findings, models } = await lintCode({ 'load.py': py });
    const [exec] = models.get('load.py')!.code!.executions;
    assert.equal(exec.textKind, 'template');
    assert.equal(exec.connection?.autocommit, 'on');
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `no-autocommit@${posOf(py, 'ibm_db.exec_immediate')}`,
      `prefer-parameter-markers@${posOf(py, 'ibm_db.exec_immediate')}`,
      `single-row-insert@${posOf(py, 'ibm_db.exec_immediate')}`,
      `commit-per-row@${posOf(py, 'ibm_db.commit')}`,
    ]);
    // Named through the variable assigned once: the values inside and outside quotes of the f-string.
    const markers = findings.find((f) => f.rule === 'prefer-parameter-markers')!;
    assert.match(markers.message, /^Values spliced into INSERT INTO SALES\.CUSTOMER through an interpolated string: row\['id'\], row\['name'\]\./);
    assert.match(findings.find((f) => f.rule === 'commit-per-row')!.message, /^Commit on every pass of the for loop at line 5 that inserts into SALES\.CUSTOMER\./);
  });

  it('ibm_db: prepare inside a while loop, % formatting and .format', async () => {
    const py = `import ibm_db

def feed(conn, reader):
    ibm_db.autocommit(conn, ibm_db.SQL_AUTOCOMMIT_OFF)
    n = 0
    while True:
        line = reader.readline()
        if not line:
            break
        stmt = ibm_db.prepare(conn, "INSERT INTO EVENTS (ID, KIND) VALUES (?, ?)")
        ibm_db.execute(stmt, (n, line))
        n += 1
        if n % 1000 == 0:
            ibm_db.commit(conn)
    ibm_db.exec_immediate(conn, "INSERT INTO AUDIT VALUES (%d, '%s')" % (n, "done"))
    ibm_db.exec_immediate(conn, "INSERT INTO AUDIT VALUES ({}, '{who}')".format(n, who=user))
`;
    const { findings } = await lintCode({ 'feed.py': py });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(py, 'ibm_db.prepare')}`,
      `single-row-insert@${posOf(py, 'ibm_db.execute(')}`,
      `prefer-parameter-markers@${posOf(py, 'ibm_db.exec_immediate')}`,
      `prefer-parameter-markers@${posOf(py, 'ibm_db.exec_immediate', 2)}`,
    ]);
    const [percent, format] = findings.filter((f) => f.rule === 'prefer-parameter-markers');
    assert.match(percent.message, /^Values spliced into INSERT INTO AUDIT through a format template: n\./);
    assert.match(format.message, /^Values spliced into INSERT INTO AUDIT through a format template: n, user\./);
  });

  it('DB-API cursors: %s markers with parameters are not splices; execute in a comprehension is per row', async () => {
    const py = `import ibm_db_dbi

def save(conn, orders):
    cur = conn.cursor()
    [cur.execute("INSERT INTO ORDERS (CUSTOMER, AMOUNT) VALUES (%s, %s)", (o.customer, o.amount)) for o in orders]
    conn.commit()
`;
    const { findings, models } = await lintCode({ 'save.py': py });
    const [exec] = models.get('save.py')!.code!.executions;
    assert.equal(exec.statements[0].kind, 'insert');
    assert.equal(exec.splicedValues.length, 0);
    // A connection passed in may have been switched either way: the file does not show it.
    assert.equal(exec.connection?.autocommit, 'unknown');
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'cur.execute')}`]);
    assert.ok(!findings.some((f) => f.rule === 'parse-error'));
  });

  it('DB-API: conn.autocommit = True before the loop turns no-autocommit on', async () => {
    const py = `import ibm_db_dbi

def save(rows):
    conn = ibm_db_dbi.connect(DSN)
    conn.autocommit = True
    cur = conn.cursor()
    for r in rows:
        cur.execute("INSERT INTO T (A) VALUES (?)", (r,))
`;
    const { findings } = await lintCode({ 'save.py': py });
    assert.deepEqual(brief(findings, ['no-autocommit']), [`no-autocommit@${posOf(py, 'cur.execute')}`]);
  });

  it('pyodbc and pypyodbc connect with autocommit off (the DB-API default) unless autocommit=True is passed', async () => {
    const loop = (connect: string) => `import pyodbc
import pypyodbc

def save(rows):
    conn = ${connect}
    cur = conn.cursor()
    for r in rows:
        cur.execute("INSERT INTO T (A) VALUES (?)", (r,))
`;
    const state = (connect: string) => autocommitAndFindings(loop(connect));
    assert.deepEqual(await state('pyodbc.connect(DSN)'), ['off', 0]);
    assert.deepEqual(await state('pypyodbc.connect(CONN_STR)'), ['off', 0]);
    assert.deepEqual(await state('pyodbc.connect(DSN, autocommit=False)'), ['off', 0]);
    assert.deepEqual(await state('pyodbc.connect(DSN, autocommit=True)'), ['on', 1]);
    assert.deepEqual(await state('pypyodbc.connect(CONN_STR, True)'), ['on', 1]);
    // A flag the file computes may be either.
    assert.deepEqual(await state('pyodbc.connect(DSN, autocommit=settings.autocommit)'), ['unknown', 0]);
  });

  it('pyodbc executemany run per row: the quick fix sets fast_executemany on the cursor before the statement, and the fixed file is silent', async () => {
    const code = `import pyodbc

class Loader:
    def load(self, rows):
        if rows:
\tself.cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
        if rows: self.cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
`;
    const lint = async (text: string) => lintWorkspace({ 'load.py': text }, { baseConfig: { bulkRowThreshold: 2 }, codeFrontEnd: await codeFrontEnd(), unmerged: true }).findings.filter((f) => f.rule === 'single-row-insert');
    const findings = await lint(code);
    assert.equal(findings.length, 2, JSON.stringify(findings));
    // A cursor written as a name or attributes, its statement first on its line (indented with a tab here): fixed.
    const [fixed, sameLine] = findings;
    assert.equal(fixed.fix?.title, 'Set self.cur.fast_executemany = True before executemany');
    assert.equal(fixed.fix?.changesMeaning, true, 'offered alone, never applied by Fix all');
    assert.deepEqual(fixed.fix?.edits, [{ span: { start: code.indexOf('self.cur.executemany'), end: code.indexOf('self.cur.executemany') }, newText: 'self.cur.fast_executemany = True\n\t' }]);
    // A statement after `if rows:` on its line: no edit to make mechanically.
    assert.equal(sameLine.fix, undefined);
    const edit = fixed.fix!.edits[0];
    const after = code.slice(0, edit.span.start) + edit.newText + code.slice(edit.span.end);
    assert.match(after, /if rows:\n\tself\.cur\.fast_executemany = True\n\tself\.cur\.executemany\(/);
    // The cursor set, its calls are one parameter array each (a cursor the reader cannot follow takes the setting).
    assert.deepEqual(await lint(after), []);
  });

  it('pyodbc executemany without fast_executemany, and pypyodbc executemany, run one execute per row: reported, in a loop of chunks too', async () => {
    const code = `import pyodbc

def load(rows):
    conn = pyodbc.connect(DSN)
    cur = conn.cursor()
    cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
    conn.commit()

def load_chunks(chunks):
    conn = pyodbc.connect(DSN)
    cur = conn.cursor()
    for chunk in chunks:
        cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", chunk)
        conn.commit()
`;
    const { findings, models } = await lintCode({ 'load.py': code });
    const executions = models.get('load.py')!.code!.executions;
    assert.deepEqual(executions.map((e) => [e.action, e.batched, e.manyPerRow, e.loop?.kind]), [
      ['executeMany', false, 'pyodbc', 'executemany()'],
      ['executeMany', false, 'pyodbc', 'executemany()'],
    ]);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'cur.executemany')}`, `single-row-insert@${posOf(code, 'cur.executemany', 2)}`]);
    assert.match(findings[0].message, /^One INSERT INTO APP\.ORDERS call per row in the executemany\(\) loop at line 6\..*Instead, set cursor\.fast_executemany = True before executemany \(pyodbc 4\.0\.19 or later\)/);
    // pypyodbc has no fast_executemany: the advice is another driver.
    const pypy = code.replace('import pyodbc', 'import pypyodbc as odbc').replace(/pyodbc\.connect/g, 'odbc.connect');
    const p = await lintCode({ 'load.py': pypy });
    assert.deepEqual(brief(p.findings, INSERT_RULES).length, 2);
    assert.match(p.findings[0].message, /Instead, run it through pyodbc with cursor\.fast_executemany = True, or ibm_db_dbi/);
    // Batched: fast_executemany set, ibm_db_dbi's cursor, a file that imports another DB-API driver too (whose
    // cursor it may be).
    const fast = code.replace(/cur = conn\.cursor\(\)/g, 'cur = conn.cursor()\n    cur.fast_executemany = True');
    const dbi = code.replace('import pyodbc', 'import ibm_db_dbi').replace(/pyodbc\.connect/g, 'ibm_db_dbi.connect');
    const both = code.replace('import pyodbc', 'import pyodbc\nimport ibm_db_dbi');
    for (const silent of [fast, dbi, both]) {
      const read = await lintCode({ 'load.py': silent });
      assert.deepEqual(brief(read.findings, INSERT_RULES), [], silent);
      assert.deepEqual(read.models.get('load.py')!.code!.executions.map((e) => [e.batched, e.manyPerRow]), [[true, undefined], [true, undefined]]);
    }
  });

  it('pyodbc fast_executemany counts for the cursor it is set on, in its function; a cursor the code does not follow stays silent', async () => {
    const code = `import pyodbc

from .db import open_cursor


def fast_load(rows):
    conn = pyodbc.connect(DSN)
    cur = conn.cursor()
    cur.fast_executemany = True
    cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
    conn.commit()


def slow_load(rows):
    conn = pyodbc.connect(DSN)
    cur = conn.cursor()
    cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
    conn.commit()


def two_cursors(rows):
    conn = pyodbc.connect(DSN)
    fast = conn.cursor()
    fast.fast_executemany = True
    with conn.cursor() as slow:
        slow.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
        fast.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
    conn.commit()


def from_helper(rows):
    cur = open_cursor()
    cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
`;
    const { findings } = await lintCode({ 'load.py': code });
    // slow_load's cursor and two_cursors' slow one: one execute per row. fast_load's and the fast one: batched. The
    // helper's cursor (open_cursor may set it): not reported.
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'cur.executemany', 2)}`, `single-row-insert@${posOf(code, 'slow.executemany')}`]);
    // Set where the code cannot tell which cursor (a helper's parameter, an attribute, a keyword): none reported.
    const unknowns = [
      code.replace('    cur.fast_executemany = True\n', '    make_fast(cur)\n') + '\n\ndef make_fast(c):\n    c.fast_executemany = True\n',
      code.replace('    cur.fast_executemany = True\n', '    self.cur.fast_executemany = True\n'),
      code.replace('    cur.fast_executemany = True\n', '    cur = open_cursor(fast_executemany=True)\n'),
    ];
    for (const unknown of unknowns) assert.deepEqual(brief((await lintCode({ 'load.py': unknown })).findings, INSERT_RULES), [], unknown);
    // Set on a module-level cursor from a function: every function's executemany on that cursor is batched.
    const module = `import pyodbc

conn = pyodbc.connect(DSN)
cur = conn.cursor()


def setup():
    cur.fast_executemany = True


def load(rows):
    cur.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
    conn.commit()


def load_other(rows):
    other = conn.cursor()
    other.executemany("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (?, ?)", rows)
`;
    assert.deepEqual(brief((await lintCode({ 'load.py': module })).findings, INSERT_RULES), [`single-row-insert@${posOf(module, 'other.executemany')}`]);
  });

  it('jaydebeapi connects with JDBC autocommit on, unless the file commits or switches the JDBC connection', async () => {
    const py = (extra: string) => `import jaydebeapi

def save(rows):
    conn = jaydebeapi.connect('com.ibm.db2.jcc.DB2Driver', URL, [USER, PWD])
${extra}    cur = conn.cursor()
    for r in rows:
        cur.execute("INSERT INTO T (A) VALUES (?)", (r,))
`;
    const state = (extra: string) => autocommitAndFindings(py(extra));
    assert.deepEqual(await state(''), ['on', 1]);
    // The switch is the JDBC connection's: a jaydebeapi connection has no autocommit attribute to set.
    const { findings } = await lintCode({ 'save.py': py('') });
    assert.match(findings.find((f) => f.rule === 'no-autocommit')!.message, /^Autocommit is on for 'conn' \(the driver default for a connection this file opens\).*Switch autocommit off \(conn\.jconn\.setAutoCommit\(False\)\)/);
    assert.deepEqual(await state('    conn.jconn.setAutoCommit(False)\n'), ['off', 0]);
    // commit() of an autocommit JDBC connection fails: code that commits has turned it off where the file does not show.
    assert.deepEqual(await state('    conn.commit()\n'), ['unknown', 0]);
  });

  it('a connection opened by drivers that disagree on autocommit (pypyodbc or jaydebeapi) is unknown', async () => {
    const py = `import pypyodbc
import jaydebeapi

def save(rows, odbc):
    if odbc:
        conn = pypyodbc.connect(CONN_STR)
    else:
        conn = jaydebeapi.connect('com.ibm.db2.jcc.DB2Driver', URL)
    cur = conn.cursor()
    for r in rows:
        cur.execute("INSERT INTO T (A) VALUES (?)", (r,))
`;
    const { models } = await lintCode({ 'save.py': py });
    assert.equal(models.get('save.py')!.code!.executions[0].connection?.autocommit, 'unknown');
  });

  it('ignores SQL-looking strings that are only printed or logged', async () => {
    const py = `import ibm_db
import logging

def show(rows):
    for r in rows:
        print(f"INSERT INTO T VALUES ({r})")
        logging.info("INSERT INTO T VALUES (%s)" % r)
`;
    const { findings, models } = await lintCode({ 'show.py': py });
    assert.deepEqual(brief(findings), []);
    assert.equal(models.get('show.py')!.code!.executions.length, 0);
  });

  it('follows " ".join([...]) and textwrap.dedent around the SQL text', async () => {
    const py = [
      'import textwrap',
      'import ibm_db',
      '',
      'INSERT_ORDER = " ".join(["INSERT INTO SALES.ORDERS (CUST_ID, AMOUNT)", "VALUES (?, ?)"])',
      'INSERT_LINE = textwrap.dedent("""',
      '    INSERT INTO SALES.ORDER_LINE (ORDER_ID, QTY)',
      '    VALUES (?, ?)',
      '""")',
      '',
      'def load(conn, orders):',
      '    s1 = ibm_db.prepare(conn, INSERT_ORDER)',
      '    s2 = ibm_db.prepare(conn, INSERT_LINE)',
      '    for o in orders:',
      '        ibm_db.execute(s1, (o.cust, o.amount))',
      '        ibm_db.execute(s2, (o.id, o.qty))',
      '',
    ].join('\n');
    const { models } = await lintCode({ 'load.py': py });
    const prepares = models.get('load.py')!.code!.executions.filter((e) => e.action === 'prepare');
    assert.deepEqual(prepares.map((p) => p.statements.map((st) => st.kind)), [['insert'], ['insert']]);
    const first = prepares[0].statements[0];
    assert.equal(first.origin.toFile(first.span.start), py.indexOf('INSERT INTO SALES.ORDERS'));
    const second = prepares[1].statements[0];
    assert.equal(second.origin.toFile(second.span.start), py.indexOf('INSERT INTO SALES.ORDER_LINE'));
  });
});

describe('code: Python (SQLAlchemy)', () => {
  it('conn.execute(text(sql), dict) per row in engine.begin(): single-row-insert says to pass a list of dicts, not cursor.executemany', async () => {
    const py = `from sqlalchemy import create_engine, text
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def load(rows):
    with engine.begin() as conn:
        for r in rows:
            conn.execute(text("INSERT INTO APP.T (A, B) VALUES (:a, :b)"), {"a": r[0], "b": r[1]})
`;
    const { findings, models } = await lintCode({ 'load.py': py });
    const [exec] = models.get('load.py')!.code!.executions;
    assert.equal(exec.api, 'sqlalchemy');
    assert.equal(exec.batched, false);
    // engine.begin(): a transaction the block's end commits.
    assert.equal(exec.connection?.autocommit, 'off');
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'conn.execute')}`]);
    const message = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(message, /list of dicts .*conn\.execute\(text\(sql\), rows\).*executemany/);
    assert.doesNotMatch(message, /cursor/);
  });

  it('session.execute(text(sql), dict) per row: the advice names the session the loop runs on, not a conn', async () => {
    const py = `from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def load(rows):
    with Session(engine) as db_session:
        for r in rows:
            db_session.execute(text("INSERT INTO APP.T (A, B) VALUES (:a, :b)"), {"a": r[0], "b": r[1]})
        db_session.commit()
`;
    const { findings } = await lintCode({ 'load.py': py });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'db_session.execute')}`]);
    const message = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(message, /list of dicts .*db_session\.execute\(text\(sql\), rows\)/);
    assert.doesNotMatch(message, /conn\.execute/);
  });

  it('must not report: engine.begin() with one execute of a list of rows; an AUTOCOMMIT engine running one INSERT outside a loop', async () => {
    const batch = `from sqlalchemy import create_engine, text
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def load(data):
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO APP.T (A, B) VALUES (:a, :b)"), [{"a": r[0], "b": r[1]} for r in data])
`;
    const once = `from sqlalchemy import create_engine, text
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE", isolation_level="AUTOCOMMIT")
def audit(who):
    with engine.connect() as conn:
        conn.execute(text("INSERT INTO APP.AUDIT (WHO) VALUES (:who)"), {"who": who})
`;
    const { findings, models } = await lintCode({ 'batch.py': batch, 'once.py': once });
    assert.deepEqual(brief(findings), []);
    assert.equal(models.get('batch.py')!.code!.executions[0].batched, true);
    assert.equal(models.get('once.py')!.code!.executions[0].connection?.autocommit, 'on');
  });

  it('rows held by a variable or a parameter named for rows are a batch; the loop variable and a dict are one row', async () => {
    const py = (params: string, loop = false) => `from sqlalchemy import create_engine, text
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def load(rows, records):
    with engine.begin() as conn:
${loop ? '        for row in rows:\n    ' : ''}        conn.execute(text("INSERT INTO APP.T (A) VALUES (:a)"), ${params})
`;
    const batched = async (source: string) => (await lintCode({ 'load.py': source })).models.get('load.py')!.code!.executions[0].batched;
    assert.equal(await batched(py('rows')), true);
    assert.equal(await batched(py('records')), true);
    assert.equal(await batched(py('payload').replace('    with', '    payload = [{"a": r} for r in rows]\n    with')), true);
    assert.equal(await batched(py('payload').replace('    with', '    payload = {"a": 1}\n    with')), false);
    assert.equal(await batched(py('row', true)), false);
  });

  it('values spliced into sa.text(f"…"): bind :name parameters passed as a dict, not "?" markers', async () => {
    const py = `import sqlalchemy as sa
engine = sa.create_engine("ibm_db_sa://user:pw@host:50000/SAMPLE")
def load(rows):
    with engine.begin() as conn:
        for r in rows:
            conn.execute(sa.text(f"INSERT INTO APP.T (A, B) VALUES ('{r[0]}', '{r[1]}')"))
`;
    const { findings } = await lintCode({ 'load.py': py });
    const markers = findings.find((f) => f.rule === 'prefer-parameter-markers')!;
    assert.match(markers.message, /^Values spliced into INSERT INTO APP\.T through an interpolated string: r\[0\], r\[1\]\./);
    assert.match(markers.message, /bound parameters \(:name\) in the text\(\) and pass the values in a dict/);
    assert.doesNotMatch(markers.message, /\(\?\)/);
    // No transaction per row: engine.begin() around the loop.
    assert.deepEqual(brief(findings, ['no-autocommit']), []);
  });

  it('from sqlalchemy import text as sql_text: the text is read through the alias', async () => {
    const py = `from sqlalchemy import create_engine, text as sql_text
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def load(rows):
    with engine.begin() as conn:
        for r in rows:
            conn.execute(sql_text(f"INSERT INTO APP.T (A) VALUES ('{r}')"))
`;
    const { findings } = await lintCode({ 'load.py': py });
    assert.deepEqual(brief(findings, ['prefer-parameter-markers', 'single-row-insert']), [
      `prefer-parameter-markers@${posOf(py, 'conn.execute')}`,
      `single-row-insert@${posOf(py, 'conn.execute')}`,
    ]);
  });

  it('isolation_level="AUTOCOMMIT" on create_engine, on a connection or on an engine copy: no-autocommit with SQLAlchemy advice', async () => {
    const py = (engine: string, connect: string) => `from sqlalchemy import create_engine, text
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE"${engine})
def load(rows):
${connect}
        for r in rows:
            conn.execute(text("INSERT INTO APP.T (A) VALUES (:a)"), {"a": r})
        conn.commit()
`;
    const plain = '    with engine.connect() as conn:';
    assert.deepEqual(await autocommitAndFindings(py(', isolation_level="AUTOCOMMIT"', plain)), ['on', 1]);
    assert.deepEqual(await autocommitAndFindings(py(', execution_options={"isolation_level": "AUTOCOMMIT"}', plain)), ['on', 1]);
    assert.deepEqual(await autocommitAndFindings(py('', `${plain}\n        conn.execution_options(isolation_level="AUTOCOMMIT")`)), ['on', 1]);
    assert.deepEqual(await autocommitAndFindings(py('', '    auto = engine.execution_options(isolation_level="AUTOCOMMIT")\n    with auto.connect() as conn:')), ['on', 1]);
    // Another function's connection of the same name, switched to AUTOCOMMIT: not this one (a with-bound name is a local).
    const other = '\ndef other():\n    with engine.connect() as conn:\n        conn.execution_options(isolation_level="AUTOCOMMIT")\n        conn.execute(text("DELETE FROM APP.T"))\n';
    assert.deepEqual(await autocommitAndFindings(py('', plain) + other), ['off', 0]);
    // A 2.x connection begins a transaction by itself and commits when told: off.
    assert.deepEqual(await autocommitAndFindings(py('', plain)), ['off', 0]);
    assert.deepEqual(await autocommitAndFindings(py(', isolation_level="READ COMMITTED"', plain)), ['off', 0]);
    const { findings } = await lintCode({ 'save.py': py(', isolation_level="AUTOCOMMIT"', plain) });
    assert.match(findings.find((f) => f.rule === 'no-autocommit')!.message, /^Autocommit is on for 'conn' \(isolation_level="AUTOCOMMIT" set by the code\).*drop isolation_level="AUTOCOMMIT".*with engine\.begin\(\) as conn:/);
  });

  it('SQLAlchemy 1.x library-level autocommit: engine.execute(...) and a plain string on a connection outside a transaction commit each INSERT', async () => {
    const py = (body: string) => `import sqlalchemy
engine = sqlalchemy.create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def load(rows):
${body}
`;
    // Connectionless execution (1.x only): no transaction to be in.
    assert.deepEqual(await autocommitAndFindings(py('    for r in rows:\n        engine.execute(sqlalchemy.text("INSERT INTO APP.T (A) VALUES (:a)"), {"a": r})')), ['on', 1]);
    // A plain string (refused by 2.x) on a connection with no transaction begun.
    const plain = '    conn = engine.connect()\n    for r in rows:\n        conn.execute("INSERT INTO APP.T (A) VALUES (?)", r)';
    assert.deepEqual(await autocommitAndFindings(py(plain)), ['on', 1]);
    // The same inside conn.begin(): one transaction.
    assert.deepEqual(await autocommitAndFindings(py(plain.replace('    for', '    trans = conn.begin()\n    for'))), ['off', 0]);
    // text() on a connection: 2.x code, autobegin.
    assert.deepEqual(await autocommitAndFindings(py('    conn = engine.connect()\n    for r in rows:\n        conn.execute(sqlalchemy.text("INSERT INTO APP.T (A) VALUES (:a)"), {"a": r})')), ['off', 0]);
    const { findings } = await lintCode({ 'save.py': py(plain) });
    assert.match(findings.find((f) => f.rule === 'no-autocommit')!.message, /\(SQLAlchemy 1\.x commits on its own each INSERT it runs outside a transaction\).*with engine\.begin\(\) as conn:/);
  });

  it('commits per row: conn.commit() or session.commit() in the loop, and engine.begin() blocks opened per row', async () => {
    const py = `from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def per_session(rows):
    with Session(engine) as session:
        for r in rows:
            session.execute(text("INSERT INTO APP.T (A) VALUES (:a)"), {"a": r})
            session.commit()
def per_block(rows):
    for r in rows:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO APP.U (A) VALUES (:a)"), {"a": r})
`;
    const { findings, models } = await lintCode({ 'load.py': py });
    assert.deepEqual(models.get('load.py')!.code!.executions.map((e) => [e.api, e.connection?.autocommit]), [['sqlalchemy', 'off'], ['sqlalchemy', 'off']]);
    assert.deepEqual(brief(findings, ['commit-per-row', 'no-autocommit']), [
      `commit-per-row@${posOf(py, 'session.commit')}`,
      `commit-per-row@${posOf(py, 'engine.begin()')}`,
    ]);
    const [perSession, perBlock] = findings.filter((f) => f.rule === 'commit-per-row');
    // Commit as you go on the session or connection the loop uses (SQLAlchemy's two styles are not mixed).
    assert.match(perSession.message, /Keep one session for the whole loop, .*session\.commit\(\) every 1000 rows or so with a counter/);
    assert.match(perBlock.message, /Keep one conn for the whole loop, opened before it \(with engine\.connect\(\) as conn:/);
    assert.doesNotMatch(perBlock.message, /engine\.begin\(\).*conn\.commit\(\)/);
  });

  it('a with-bound x.connect() of a SQLAlchemy file is an engine connection (a pytest fixture named db2 is no ibm_db module)', async () => {
    const py = `from sqlalchemy import insert, text

def test_load(db2, records):
    with db2.connect() as conn, conn.begin():
        conn.execute(insert(T), records)
        for r in records:
            conn.execute(text("INSERT INTO APP.T (A) VALUES (:a)"), {"a": r})
`;
    const { findings, models } = await lintCode({ 'test_load.py': py });
    const executions = models.get('test_load.py')!.code!.executions;
    assert.deepEqual(executions.map((e) => [e.api, e.batched, e.connection?.autocommit]), [['sqlalchemy', true, 'off'], ['sqlalchemy', false, 'off']]);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'conn.execute(text')}`]);
  });

  it('import pyodbc as odbc (and other module aliases) name the driver', async () => {
    const py = (connect: string) => `import pyodbc as odbc
import ibm_db as db

def save(rows):
    conn = ${connect}
    cur = conn.cursor()
    for r in rows:
        cur.execute("INSERT INTO T (A) VALUES (?)", (r,))
`;
    assert.deepEqual(await autocommitAndFindings(py('odbc.connect(DSN, autocommit=True)')), ['on', 1]);
    assert.deepEqual(await autocommitAndFindings(py('odbc.connect(DSN)')), ['off', 0]);
    const { models } = await lintCode({ 'save.py': py('db.connect(DSN, "", "")').replace('cur = conn.cursor()', 'pass').replace('cur.execute(', 'db.exec_immediate(conn, ') });
    assert.deepEqual(models.get('save.py')!.code!.executions.map((e) => [e.api, e.connection?.autocommit]), [['ibm_db', 'on']]);
  });
});

describe('code: Python (SQLAlchemy inserts without SQL text: ORM session.add, Core insert constructs)', () => {
  const models = `from sqlalchemy import create_engine, insert, Column, Integer, String
from sqlalchemy.orm import Session, declarative_base
Base = declarative_base()
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")

class Order(Base):
    __tablename__ = "orders"
    __table_args__ = {"schema": "APP"}
    id = Column(Integer, primary_key=True)
    item = Column(String(40))
`;

  it('the INSERT built for a mapped class or a Table() names its table where the file writes it (hover, findings on the name)', async () => {
    const py = `${models}from sqlalchemy import Table, MetaData
events = Table("events", MetaData(), schema="LOG")
def load(rows):
    with Session(engine) as session:
        for r in rows:
            session.add(Order(id=r))
            session.commit()
    with engine.connect() as conn:
        for r in rows:
            conn.execute(insert(events), {"a": r})
`;
    const { models: read } = await lintCode({ 'load.py': py });
    const shown = read.get('load.py')!.code!.executions.map((e) => {
      const stmt = e.statements[0];
      if (stmt?.kind !== 'insert') return undefined;
      const at = (o: number) => stmt.origin.toFile(o);
      return [stmt.target.schema, py.slice(at(stmt.target.span.start), at(stmt.target.span.end))];
    });
    assert.deepEqual(shown, [
      ['APP', 'orders'],
      ['LOG', 'events'],
    ]);
  });

  it('session.add(Model(...)) with session.commit() on every pass: single-row-insert and commit-per-row into __tablename__, ORM advice', async () => {
    const py = `${models}
def load(rows):
    with Session(engine) as session:
        for r in rows:
            order = Order(id=r[0], item=r[1])
            session.add(order)
            session.commit()
`;
    const { findings, models: read } = await lintCode({ 'load.py': py });
    const [exec] = read.get('load.py')!.code!.executions;
    assert.deepEqual([exec.api, exec.construct, exec.batched, exec.connection?.autocommit, exec.splicedValues.length], ['sqlalchemy', 'orm', false, 'off', 0]);
    assert.deepEqual(exec.statements.map((st) => st.kind === 'insert' && `${st.target.schema}.${st.target.name}`), ['APP.ORDERS']);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'session.add(')}`, `commit-per-row@${posOf(py, 'session.commit')}`]);
    const single = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(single, /^One INSERT INTO APP\.ORDERS call per row in the for loop at line 14\./);
    assert.match(single, /session\.add_all\(objs\)\) and flush or commit once after it.*session\.execute\(insert\(Model\), rows\)/);
    assert.doesNotMatch(single, /text\(sql\)/);
    const commit = findings.find((f) => f.rule === 'commit-per-row')!.message;
    assert.match(commit, /^Commit on every pass of the for loop at line 14 that inserts into APP\.ORDERS\./);
    assert.match(commit, /Keep one session for the whole loop and commit it once after the loop.*session\.execute\(insert\(Model\), rows\)/);
  });

  it('must not report: objects added in a loop and committed once after it, add_all of a list, insert(t) or t.insert() with a list of rows', async () => {
    const once = `${models}
def load(rows):
    with Session(engine) as session:
        for r in rows:
            session.add(Order(id=r[0], item=r[1]))
        session.commit()
`;
    const all = `${models}
def load(rows):
    with Session(engine) as session:
        session.add_all([Order(id=r[0], item=r[1]) for r in rows])
        session.execute(insert(Order), [{"id": r[0], "item": r[1]} for r in rows])
        session.commit()
`;
    const core = `from sqlalchemy import create_engine, insert, MetaData, Table, Column, Integer
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
metadata = MetaData()
events = Table("events", metadata, Column("id", Integer), schema="LOG")
def load(rows, chunks):
    with engine.begin() as conn:
        conn.execute(insert(events), [{"id": 1}, {"id": 2}])
        for chunk in chunks:
            conn.execute(events.insert(), [{"id": r} for r in chunk])
            conn.execute(events.insert().values([{"id": r} for r in chunk]))
`;
    const { findings, models: read } = await lintCode({ 'once.py': once, 'all.py': all, 'core.py': core });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    assert.deepEqual(['once.py', 'all.py', 'core.py'].map((f) => read.get(f)!.code!.executions.map((e) => [e.construct, e.batched])), [
      [['orm', true]],
      [['orm', true], ['core', true]],
      [['core', true], ['core', true], ['core', true]],
    ]);
    // insert(Model): the class's table.
    assert.deepEqual(read.get('all.py')!.code!.executions.map((e) => e.statements.map((st) => st.kind === 'insert' && `${st.target.schema}.${st.target.name}`)), [['APP.ORDERS'], ['APP.ORDERS']]);
  });

  it('Core insert construct per row in a loop: single-row-insert into the Table() named in the file, schema included; no prefer-parameter-markers', async () => {
    const py = `import sqlalchemy as sa
engine = sa.create_engine("ibm_db_sa://user:pw@host:50000/SAMPLE")
metadata = sa.MetaData()
events = sa.Table("events", metadata, sa.Column("id", sa.Integer), schema="LOG")
def load(rows):
    with engine.connect() as conn:
        for r in rows:
            conn.execute(events.insert().values(id=r))
            conn.commit()
def load_again(rows):
    with engine.begin() as conn:
        for r in rows:
            conn.execute(sa.insert(events), {"id": r})
`;
    const { findings, models: read } = await lintCode({ 'load.py': py });
    const executions = read.get('load.py')!.code!.executions;
    assert.deepEqual(executions.map((e) => [e.construct, e.batched, e.statements.map((st) => st.kind === 'insert' && `${st.target.schema}.${st.target.name}`)]), [
      ['core', false, ['LOG.EVENTS']],
      ['core', false, ['LOG.EVENTS']],
    ]);
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `single-row-insert@${posOf(py, 'conn.execute(events')}`,
      `commit-per-row@${posOf(py, 'conn.commit')}`,
      `single-row-insert@${posOf(py, 'conn.execute(sa.insert')}`,
    ]);
    const single = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(single, /^One INSERT INTO LOG\.EVENTS call per row in the for loop at line 7\..*conn\.execute\(insert\(table\), rows\)/);
    assert.match(findings.find((f) => f.rule === 'commit-per-row')!.message, /conn\.execute\(insert\(table\), rows\)/);
  });

  it('a class the file does not declare: the loop is reported, the table named by the class; session.flush() per pass is one row per flush', async () => {
    const py = `from sqlalchemy import create_engine
from sqlalchemy.orm import Session
from app.models import Order
engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")
def load(rows):
    with Session(engine) as session:
        for r in rows:
            session.add(Order(id=r))
            session.commit()
def stage(rows, session):
    for r in rows:
        session.merge(Order(id=r))
        session.flush()
    session.commit()
`;
    const { findings, models: read } = await lintCode({ 'load.py': py });
    assert.deepEqual(read.get('load.py')!.code!.executions.map((e) => [e.construct, e.batched]), [['orm', false], ['orm', false]]);
    // A table named at run time: no statement of the file for the SQL rules.
    assert.deepEqual(read.get('load.py')!.statements, []);
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `single-row-insert@${posOf(py, 'session.add(')}`,
      `commit-per-row@${posOf(py, 'session.commit')}`,
      `single-row-insert@${posOf(py, 'session.merge(')}`,
    ]);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /^One INSERT INTO <Order> call per row in the for loop at line 7\./);
    assert.match(findings.find((f) => f.rule === 'commit-per-row')!.message, /that inserts into <Order>\./);
  });

  it('add() on a set, and session.add() of an object the code did not make (a loaded one inserts nothing), are no inserts: only the new Order is', async () => {
    const py = `${models}
def load(rows):
    seen = set()
    with Session(engine) as session:
        for r in rows:
            seen.add(r)
            seen.add(Order(id=r))
            order = session.get(Order, r)
            session.add(order)
            session.commit()
def create(rows, session):
    for r in rows:
        session.add(Order(id=r))
        session.commit()
`;
    const { findings, models: read } = await lintCode({ 'load.py': py });
    assert.deepEqual(read.get('load.py')!.code!.executions.map((e) => [e.construct, e.callSpan.start]), [['orm', py.indexOf('session.add(Order')]]);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'session.add(Order')}`, `commit-per-row@${posOf(py, 'session.commit', 2)}`]);
  });

  describe('autoflush: a query of the session on every pass flushes the previous pass add', () => {
    const customers = `${models}
class Customer(Base):
    __tablename__ = "customers"
    id = Column(Integer, primary_key=True)
    code = Column(String(10))
`;

    it('look up then add, one commit after the loop: one INSERT per pass, reported with the query that autoflushes and fitting advice', async () => {
      const py = `${customers}
def load(rows):
    with Session(engine) as session:
        for row in rows:
            customer = session.query(Customer).filter_by(code=row.code).first()
            session.add(Order(id=row.id, item=customer.code))
        session.commit()
`;
      const { findings, models: read } = await lintCode({ 'load.py': py });
      const [add] = read.get('load.py')!.code!.executions;
      assert.deepEqual([add.construct, add.batched, add.autoflushedBy], ['orm', false, 'session.query(Customer).filter_by(code=row.code).first()']);
      assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'session.add(')}`]);
      const message = findings.find((f) => f.rule === 'single-row-insert')!.message;
      assert.match(message, /^One INSERT INTO APP\.ORDERS call per row in the for loop at line \d+\. session\.query\(Customer\)\.filter_by\(code=row\.code\)\.first\(\) runs on every pass, and a query first flushes what was added to its session \(SQLAlchemy's autoflush\)/);
      assert.match(message, /Instead, look up what the loop needs before it \(one query for all the rows' keys, into a dict\), or run the loop's queries inside `with session\.no_autoflush:`.*session\.add_all\(objs\).*session\.execute\(insert\(Model\), rows\)/);
    });

    it('2.0 style (session.scalars / execute / scalar of select(Model)), the add before the query, a query in a function the loop calls, merge(), a query in the condition of an if: reported', async () => {
      const py = `${customers}from sqlalchemy import select
def load_scalars(rows):
    with Session(engine) as session:
        for row in rows:
            customer = session.scalars(select(Customer).where(Customer.code == row.code)).first()
            session.add(Order(id=row.id, item=customer.code))
        session.commit()
def load_execute_after(rows):
    with Session(engine) as session:
        for row in rows:
            session.add(Order(id=row.id, item=row.code))
            session.execute(select(Customer.id).where(Customer.code == row.code)).scalar_one()
        session.commit()
def load_scalar_stmt(session, rows):
    for row in rows:
        stmt = select(Customer).filter_by(code=row.code)
        customer = session.scalar(stmt)
        session.add(Order(id=row.id, item=customer.code))
    session.commit()
def lookup(session, code):
    return session.query(Customer).filter(Customer.code == code).one()
def load_helper(session, rows):
    for row in rows:
        customer = lookup(session, row.code)
        session.add(Order(id=row.id, item=customer.code))
    session.commit()
def load_merges(session, rows):
    for row in rows:
        session.merge(Order(id=row.id, item=row.code))
    session.commit()
def load_new_only(session, rows):
    for row in rows:
        if session.query(Order).filter_by(id=row.id).one_or_none() is None:
            session.add(Order(id=row.id, item=row.code))
    session.commit()
`;
      const { findings, models: read } = await lintCode({ 'load.py': py });
      // (An execute on a session the file makes is an execution of its own, with no INSERT: the adds only.)
      assert.deepEqual(read.get('load.py')!.code!.executions.filter((e) => e.construct === 'orm').map((e) => [e.batched, e.autoflushedBy]), [
        [false, 'session.scalars(select(Customer).where(Customer.code == row.code))'],
        [false, 'session.execute(select(Customer.id).where(Customer.code == row.code))'],
        [false, 'session.scalar(stmt)'],
        [false, 'session.query(Customer).filter(Customer.code == code).one()'],
        [false, 'session.merge()'],
        [false, 'session.query(Order).filter_by(id=row.id).one_or_none()'],
      ]);
      assert.deepEqual(brief(findings, INSERT_RULES), [
        `single-row-insert@${posOf(py, 'session.add(', 1)}`,
        `single-row-insert@${posOf(py, 'session.add(', 2)}`,
        `single-row-insert@${posOf(py, 'session.add(', 3)}`,
        `single-row-insert@${posOf(py, 'session.add(', 4)}`,
        `single-row-insert@${posOf(py, 'session.merge(')}`,
        `single-row-insert@${posOf(py, 'session.add(', 5)}`,
      ]);
      const merge = findings.find((f) => /session\.merge\(\) runs/.test(f.message))!.message;
      assert.match(merge, /session\.merge\(\) runs on every pass and first flushes the session, to look its object up \(SQLAlchemy's autoflush\)/);
      assert.match(merge, /Instead, add new objects with session\.add\(obj\) rather than session\.merge\(obj\)/);
    });

    it('must not report: no query in the loop; autoflush off (no_autoflush, Session(..., autoflush=False), sessionmaker(autoflush=False), session.autoflush = False, .autoflush(False)); another session; a guarded or conditional query (in an elif condition, on the right of `or`); Core and text() statements; get(); a query iterated by the loop', async () => {
      const py = `${customers}from sqlalchemy import select, text, Table, MetaData
from sqlalchemy.orm import sessionmaker
codes = Table("codes", MetaData())
QuietSession = sessionmaker(bind=engine, autoflush=False)
def load_no_query(rows):
    with Session(engine) as session:
        for row in rows:
            session.add(Order(id=row.id, item=row.code))
        session.commit()
def load_no_autoflush(rows):
    with Session(engine) as session:
        for row in rows:
            with session.no_autoflush:
                customer = session.query(Customer).filter_by(code=row.code).first()
            session.add(Order(id=row.id, item=customer.code))
        session.commit()
def load_no_autoflush_around(rows):
    with Session(engine) as session, session.no_autoflush:
        for row in rows:
            customer = session.query(Customer).filter_by(code=row.code).first()
            session.add(Order(id=row.id, item=customer.code))
        session.commit()
def load_made_off(rows):
    with Session(engine, autoflush=False) as session:
        for row in rows:
            customer = session.query(Customer).filter_by(code=row.code).first()
            session.add(Order(id=row.id, item=customer.code))
        session.commit()
def load_factory_off(rows):
    db = QuietSession()
    for row in rows:
        customer = db.query(Customer).filter_by(code=row.code).first()
        db.add(Order(id=row.id, item=customer.code))
    db.commit()
def load_assigned_off(session, rows):
    session.autoflush = False
    for row in rows:
        customer = session.query(Customer).filter_by(code=row.code).first()
        session.add(Order(id=row.id, item=customer.code))
    session.commit()
def load_query_off(db_session, rows):
    for row in rows:
        customer = db_session.query(Customer).autoflush(False).filter_by(code=row.code).first()
        db_session.add(Order(id=row.id, item=customer.code))
    db_session.commit()
def load_other_session(rows):
    with Session(engine) as session, Session(engine) as lookups:
        for row in rows:
            customer = lookups.query(Customer).filter_by(code=row.code).first()
            session.add(Order(id=row.id, item=customer.code))
        session.commit()
def load_guarded(session, rows):
    for i, row in enumerate(rows):
        if i % 1000 == 0:
            print(session.query(Customer).count())
        session.add(Order(id=row.id, item=row.code))
    session.commit()
def load_cache_miss(session, rows):
    cache = {}
    for row in rows:
        if row.code not in cache:
            cache[row.code] = session.query(Customer).filter_by(code=row.code).one()
        session.add(Order(id=row.id, item=row.code))
    session.commit()
def load_iterated(session):
    for customer in session.query(Customer).all():
        session.add(Order(id=customer.id, item=customer.code))
    for customer in session.scalars(select(Customer)):
        session.add(Order(id=customer.id, item=customer.code))
    session.commit()
def load_short_circuit(session, rows, cache):
    for row in rows:
        if row.code in cache or session.query(Customer).filter_by(code=row.code).first():
            session.add(Order(id=row.id, item=row.code))
        elif session.query(Customer).count() > 10:
            print(row)
    session.commit()
def load_core(session, rows):
    for row in rows:
        session.execute(text("SELECT id FROM customers WHERE code = :c"), {"c": row.code}).first()
        session.execute(select(codes)).first()
        session.get(Customer, row.customer_id)
        session.add(Order(id=row.id, item=row.code))
    session.commit()
`;
      const { findings, models: read } = await lintCode({ 'load.py': py });
      const adds = read.get('load.py')!.code!.executions.filter((e) => e.construct === 'orm');
      assert.equal(adds.length, 14);
      assert.deepEqual(adds.filter((e) => !e.batched || e.autoflushedBy).map((e) => e.callSpan.start), []);
      assert.deepEqual(brief(findings, INSERT_RULES), []);
      // The same loops with autoflush left on: the six whose autoflush was off are reported.
      const on = py
        .replace('with session.no_autoflush:', 'with nullcontext():')
        .replace('with Session(engine) as session, session.no_autoflush:', 'with Session(engine) as session:')
        .replace(/autoflush=False/g, 'autoflush=True')
        .replace('session.autoflush = False', 'session.autoflush = True')
        .replace('.autoflush(False)', '.autoflush(True)');
      const { findings: reported } = await lintCode({ 'load.py': on });
      // (Each function's add: the first line after its def that adds an Order.)
      const addLine = (text: string, def: string) => {
        const all = text.split('\n');
        const from = all.findIndex((line) => line.startsWith(def));
        return all.findIndex((line, n) => n > from && line.includes('.add(Order')) + 1;
      };
      const offLines = ['def load_no_autoflush(', 'def load_no_autoflush_around(', 'def load_made_off(', 'def load_factory_off(', 'def load_assigned_off(', 'def load_query_off('].map((def) => addLine(on, def));
      assert.deepEqual(reported.filter((f) => f.rule === 'single-row-insert').map((f) => [f.line, /SQLAlchemy's autoflush/.test(f.message)]), offLines.map((line) => [line, true]));
    });
  });
});

/** A save.py's first execution's autocommit and its count of no-autocommit findings. */
async function autocommitAndFindings(source: string): Promise<[string | undefined, number]> {
  const { models, findings } = await lintCode({ 'save.py': source });
  return [models.get('save.py')!.code!.executions[0].connection?.autocommit, brief(findings, ['no-autocommit']).length];
}
