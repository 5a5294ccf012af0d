import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';

describe('code: C/C++ (Db2 CLI) and embedded SQL', () => {
  it('CLI: sprintf + SQLExecDirect per row on a connection opened here with autocommit on', async () => {
    const c = `#include <sqlcli1.h>
#include <stdio.h>

int load(SQLHDBC hdbc, struct row *rows, int n)
{
    SQLHSTMT hstmt;
    char sql[512];
    int i;
    SQLDriverConnect(hdbc, NULL, (SQLCHAR *)"DSN=SAMPLE", SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
    SQLAllocHandle(SQL_HANDLE_STMT, hdbc, &hstmt);
    for (i = 0; i < n; i++) {
        sprintf(sql,
                "INSERT INTO STAFF (ID, NAME) VALUES (%d, '%s')",
                rows[i].id, rows[i].name);
        printf("INSERT INTO STAFF VALUES (%d)\\n", rows[i].id);
        SQLExecDirect(hstmt, (SQLCHAR *)sql, SQL_NTS);
    }
    return 0;
}
`;
    const { findings, models } = await lintCode({ 'load.c': c });
    const execs = models.get('load.c')!.code!.executions;
    assert.equal(execs.length, 1, 'printf of a statement is not an execution');
    assert.equal(execs[0].textKind, 'format');
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `no-autocommit@${posOf(c, 'SQLExecDirect')}`,
      `prefer-parameter-markers@${posOf(c, 'SQLExecDirect')}`,
      `single-row-insert@${posOf(c, 'SQLExecDirect')}`,
    ]);
    const markers = findings.find((f) => f.rule === 'prefer-parameter-markers')!;
    assert.match(markers.message, /^Values spliced into INSERT INTO STAFF through a format template: rows\[i\]\.id, rows\[i\]\.name\. .* on each pass of the for loop at line 11,/);
  });

  it('a C++ header (.h) is read with the C++ grammar: the loop in an inline method of a class is seen', async () => {
    const h = `#include <sqlcli1.h>
namespace loader {
template <typename Row>
class Writer {
public:
    void write(SQLHSTMT hstmt, const std::vector<Row> &rows) {
        for (const Row &r : rows) {
            SQLExecDirect(hstmt, (SQLCHAR *)"INSERT INTO STAFF (ID) VALUES (1)", SQL_NTS);
        }
    }
};
}
`;
    const { findings, models } = await lintCode({ 'writer.h': h });
    assert.equal(models.get('writer.h')!.code!.executions.length, 1);
    assert.ok(brief(findings, INSERT_RULES).includes(`single-row-insert@${posOf(h, 'SQLExecDirect')}`), brief(findings).join());
  });

  it('CLI: SQLPrepare in the loop, SQLEndTran without a guard', async () => {
    const c = `void load(SQLHDBC hdbc, SQLHSTMT hstmt, int n)
{
    SQLSetConnectAttr(hdbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, SQL_NTS);
    int i = 0;
    while (i < n) {
        SQLPrepare(hstmt, (SQLCHAR *)"INSERT INTO T (A) VALUES (?)", SQL_NTS);
        SQLBindParameter(hstmt, 1, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0, &i, 0, NULL);
        SQLExecute(hstmt);
        SQLEndTran(SQL_HANDLE_DBC, hdbc, SQL_COMMIT);
        i++;
    }
}
`;
    const { findings } = await lintCode({ 'load.cpp': c });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(c, 'SQLPrepare')}`,
      `single-row-insert@${posOf(c, 'SQLExecute(')}`,
      `commit-per-row@${posOf(c, 'SQLEndTran')}`,
    ]);
  });

  it('CLI: a helper that runs a handle, defined above the function that prepares it and calls it per row (db2_fdw)', async () => {
    const c = `#include <sqlcli1.h>
static int execOne(SQLHSTMT h)
{
    return SQLExecute(h);
}

void batchInsert(SQLHSTMT h, int n)
{
    int i;
    SQLPrepare(h, (SQLCHAR *)"INSERT INTO T (A) VALUES (?)", SQL_NTS);
    for (i = 0; i < n; i++) {
        execOne(h);
    }
}
`;
    const { findings } = await lintCode({ 'fdw.c': c });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(c, 'SQLExecute(')}`]);
    assert.match(findings[0].message, /^One INSERT INTO T call per row in the for loop at line 11 \(through execOne\(\)\)/);
    // batchInsert() counts to its parameter n: it has the rows together, and the arrays are bound there.
    assert.match(findings[0].message, / Instead, in batchInsert\(\), which receives the rows together, bind column arrays of them, set SQL_ATTR_PARAMSET_SIZE to n and run one SQLExecute for the batch \(Db2 CLI array input\)\.$/);
    // A count of its own (not handed to it): the advice asks for a function that receives the rows.
    const own = c.replace('void batchInsert(SQLHSTMT h, int n)\n{\n    int i;', 'void batchInsert(SQLHSTMT h)\n{\n    int i, n = pending_rows();');
    assert.notEqual(own, c);
    const ownFindings = (await lintCode({ 'fdw.c': own })).findings;
    assert.deepEqual(brief(ownFindings, INSERT_RULES), [`single-row-insert@${posOf(own, 'SQLExecute(')}`]);
    assert.match(ownFindings[0].message, /SQL_ATTR_PARAMSET_SIZE \(100 or more\) .*, in a function that receives the rows together \(a list\): the loop calls execOne\(\) once per row/);
  });

  it('CLI: array insert with SQL_ATTR_PARAMSET_SIZE and a guarded commit is clean', async () => {
    const c = `#define ARRAY_SIZE 1000
#define INSERT_SQL "INSERT INTO T (A, B) VALUES (?, ?)"
void load(SQLHDBC hdbc, SQLHSTMT hstmt, int batches)
{
    SQLSetConnectAttr(hdbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, SQL_NTS);
    SQLSetStmtAttr(hstmt, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)ARRAY_SIZE, 0);
    SQLPrepare(hstmt, (SQLCHAR *)INSERT_SQL, SQL_NTS);
    for (int b = 0; b < batches; b++) {
        fill(b);
        SQLExecute(hstmt);
        SQLEndTran(SQL_HANDLE_DBC, hdbc, SQL_COMMIT);
    }
}
`;
    const { findings, models } = await lintCode({ 'array.c': c });
    const execs = models.get('array.c')!.code!.executions;
    assert.equal(execs[0].statements[0]?.kind, 'insert', 'the #define text is followed');
    assert.equal(execs[1].batched, true);
    assert.deepEqual(brief(findings), []);
  });

  it('CLI: SQLExecDirect or SQLExecute after SQL_ATTR_PARAMSET_SIZE > 1 on its handle is array input; after a size of 1, or before any, row at a time', async () => {
    // Autocommit on (the CLI default) and a commit on every pass: each call sends an array of rows.
    const c = `void load(SQLHDBC hdbc, SQLHSTMT hstmt, int batches)
{
    SQLSetStmtAttr(hstmt, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) 500, 0);
    for (int b = 0; b < batches; b++) {
        fill(b);
        SQLExecDirect(hstmt, (SQLCHAR *) "INSERT INTO T (A, B) VALUES (?, ?)", SQL_NTS);
        SQLEndTran(SQL_HANDLE_DBC, hdbc, SQL_COMMIT);
    }
}
`;
    const batched = await lintCode({ 'array.c': c });
    assert.deepEqual(batched.models.get('array.c')!.code!.executions.map((e) => [e.action, e.batched]), [['executeDirect', true]]);
    assert.deepEqual(brief(batched.findings, INSERT_RULES), []);
    // The loop's execution (the last one) runs a row per call: reported by single-row-insert and commit-per-row.
    const rowAtATime = async (text: string) => {
      assert.notEqual(text, c);
      const { findings, models } = await lintCode({ 'array.c': text });
      assert.equal(models.get('array.c')!.code!.executions.at(-1)!.batched, false);
      const last = text.split('SQLExecDirect').length - 1;
      const expected = [`commit-per-row@${posOf(text, 'SQLEndTran')}`, `single-row-insert@${posOf(text, 'SQLExecDirect', last)}`];
      assert.deepEqual(brief(findings, INSERT_RULES).sort(), expected);
    };
    // A size of 1, another handle's size, a size set again to 1 before the loop, a size set only after it.
    await rowAtATime(c.replace('(SQLPOINTER) 500', '(SQLPOINTER) 1'));
    await rowAtATime(c.replace('SQLSetStmtAttr(hstmt,', 'SQLSetStmtAttr(hstmt2,'));
    const reset = c.replace('    for (int b', '    SQLExecDirect(hstmt, (SQLCHAR *) "INSERT INTO T (A, B) VALUES (?, ?)", SQL_NTS);\n    SQLSetStmtAttr(hstmt, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) 1, 0);\n    for (int b');
    await rowAtATime(reset);
    const { models } = await lintCode({ 'array.c': reset });
    assert.deepEqual(models.get('array.c')!.code!.executions.map((e) => e.batched), [true, false], 'the array before the reset');
    const after = c.replace('    SQLSetStmtAttr(hstmt, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) 500, 0);\n', '').replace(/\}\n$/, '    SQLSetStmtAttr(hstmt, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) 500, 0);\n}\n');
    await rowAtATime(after);
    // Values written into the text: no parameter to bind an array to, one row per call whatever the size.
    const literal = await lintCode({ 'array.c': c.replace('fill(b);\n', 'char sql[100];\n        sprintf(sql, "INSERT INTO T (A, B) VALUES (%d, %d)", b, b);\n').replace('(SQLCHAR *) "INSERT INTO T (A, B) VALUES (?, ?)"', '(SQLCHAR *) sql') });
    assert.equal(literal.models.get('array.c')!.code!.executions[0].batched, false);
    assert.ok(brief(literal.findings, INSERT_RULES).some((f) => f.startsWith('prefer-parameter-markers@')));
    // A helper that executes the handle its caller sized (defined above it): array input too.
    const helper = `static int run(SQLHSTMT h) {
    return SQLExecute(h);
}
void load(SQLHSTMT h, int batches) {
    SQLPrepare(h, (SQLCHAR *) "INSERT INTO T (A) VALUES (?)", SQL_NTS);
    SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) 500, 0);
    for (int b = 0; b < batches; b++) run(h);
}
`;
    assert.deepEqual(brief((await lintCode({ 'helper.c': helper })).findings, INSERT_RULES), []);
  });

  it('embedded SQL (.sqc): EXEC SQL INSERT with host variables per row and EXEC SQL COMMIT per row', async () => {
    const sqc = `#include <sqlenv.h>
EXEC SQL INCLUDE SQLCA;

EXEC SQL BEGIN DECLARE SECTION;
  sqlint32 id;
  char name[31];
EXEC SQL END DECLARE SECTION;

int load(FILE *in)
{
    while (read_row(in, &id, name)) {
        /* EXEC SQL INSERT INTO IGNORED VALUES (1); is only a comment */
        EXEC SQL INSERT INTO STAFF (ID, NAME)
                 VALUES (:id, :name);
        EXEC SQL COMMIT;
    }
    return 0;
}
`;
    const { findings, models } = await lintCode({ 'load.sqc': sqc });
    const execs = models.get('load.sqc')!.code!.executions;
    assert.equal(execs.length, 1);
    const insert = execs[0].statements[0];
    assert.equal(insert.kind, 'insert');
    assert.deepEqual(insert.kind === 'insert' && insert.source.kind === 'values' ? insert.source.rows[0].values.map((v) => v.kind) : [], ['host', 'host']);
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `single-row-insert@${posOf(sqc, 'EXEC SQL INSERT', 2)}`,
      `commit-per-row@${posOf(sqc, 'EXEC SQL COMMIT')}`,
    ]);
    // For neither Db2 in particular, both forms; configured for Db2 for LUW, only the one LUW has.
    const advice = (f: { message: string }[]) => f.find((x) => x.message.startsWith('One INSERT INTO STAFF'))!.message.replace(/^.*Instead, /, '');
    assert.equal(advice(findings), 'insert many rows per statement: host-variable arrays with INSERT … FOR :n ROWS (Db2 for z/OS multi-row insert) or a multi-row VALUES list (Db2 for LUW).');
    assert.equal(advice((await lintCode({ 'load.sqc': sqc }, { dialect: 'luw' })).findings), 'insert many rows per statement with a multi-row VALUES list.');
  });

  it('embedded SQL: PREPARE from a host string inside the loop', async () => {
    const sqc = `int load(int n)
{
    EXEC SQL BEGIN DECLARE SECTION;
      char stmt_text[200];
      sqlint32 v;
    EXEC SQL END DECLARE SECTION;
    strcpy(stmt_text, "INSERT INTO T (A) VALUES (?)");
    for (v = 0; v < n; v++) {
        EXEC SQL PREPARE s1 FROM :stmt_text;
        EXEC SQL EXECUTE s1 USING :v;
    }
    EXEC SQL COMMIT;
    return 0;
}
`;
    const { findings } = await lintCode({ 'prep.sqC': sqc });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(sqc, 'EXEC SQL PREPARE')}`,
      `single-row-insert@${posOf(sqc, 'EXEC SQL EXECUTE')}`,
    ]);
  });
});
