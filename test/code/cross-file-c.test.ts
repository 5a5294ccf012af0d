// C/C++ files linked by their functions (engine/called-inserts.ts): a loop in one file calls, once per pass, a
// function another file defines that runs one single-row INSERT per call. db2_fdw: db2ExecForeignBatchInsert.c loops
// over the slots calling db2ExecForeignInsert(), which calls db2ExecuteInsert() (another file), which binds the row
// and calls SQLExecute. The finding is on the loop's call; files that reach Db2 only through such calls are read.
import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';
import { growthRatio } from '../robustness/support';

const BATCH = `#include <postgres.h>
extern TupleTableSlot* db2ExecForeignInsert(EState* estate, ResultRelInfo* rinfo, TupleTableSlot* slot, TupleTableSlot* planSlot);

TupleTableSlot** db2ExecForeignBatchInsert(EState* estate, ResultRelInfo* rinfo, TupleTableSlot** slots, TupleTableSlot** planSlots, int* numSlots) {
  int i;
  for (i = 0; i < *numSlots; i++) {
    if (slots[i] == NULL)
      continue;
    db2ExecForeignInsert(estate, rinfo, slots[i], planSlots ? planSlots[i] : NULL);
  }
  return slots;
}
`;
const INSERT = `#include <postgres.h>
extern int db2ExecuteInsert(DB2Session* session, const DB2Table* db2Table, ParamDesc* paramList);

TupleTableSlot* db2ExecForeignInsert(EState* estate, ResultRelInfo* rinfo, TupleTableSlot* slot, TupleTableSlot* planSlot) {
  DB2FdwState* fdw_state = (DB2FdwState*) rinfo->ri_FdwState;
  int rows;
  setModifyParameters(fdw_state->paramList, slot, planSlot, fdw_state->db2Table, fdw_state->session);
  rows = db2ExecuteInsert(fdw_state->session, fdw_state->db2Table, fdw_state->paramList);
  if (rows != 1)
    ereport(ERROR, (errmsg("INSERT added %d rows instead of one", rows)));
  return slot;
}
`;
const EXECUTE = `#include <sqlcli1.h>

int db2ExecuteInsert(DB2Session* session, const DB2Table* db2Table, ParamDesc* paramList) {
  ParamDesc* param;
  SQLRETURN rc;
  SQLLEN rowcount = 0;
  for (param = paramList; param; param = param->next) {
    db2BindParameter(session, db2Table, param);
  }
  rc = SQLExecute(session->stmtp->hsql);
  rc = SQLRowCount(session->stmtp->hsql, &rowcount);
  return (int) rowcount;
}
`;
/** db2PrepareQuery(): prepares the handle SQLExecute runs, with a text handed to it (the INSERT is built elsewhere). */
const PREPARE = `#include <sqlcli1.h>

void db2PrepareQuery(DB2Session* session, const char* query, DB2Table* db2Table, unsigned long prefetch) {
  SQLRETURN rc;
  session->stmtp = db2AllocStmtHdl(SQL_HANDLE_STMT, session->connp);
  rc = SQLPrepare(session->stmtp->hsql, (SQLCHAR*) query, SQL_NTS);
}
`;
const FDW = { 'source/batch.c': BATCH, 'source/insert.c': INSERT, 'source/execute.c': EXECUTE };

/** A function that runs a known single-row INSERT once per call. */
const STORE = `#include <sqlcli1.h>

int store_order(SQLHSTMT hstmt, long id) {
  SQLBindParameter(hstmt, 1, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0, &id, 0, NULL);
  return SQLExecDirect(hstmt, (SQLCHAR*) "INSERT INTO APP.ORDERS (ID) VALUES (?)", SQL_NTS);
}
`;
const LOADER = `#include <stdio.h>
extern int store_order(SQLHSTMT hstmt, long id);

void load_orders(SQLHSTMT hstmt, long* ids, int n) {
  int i;
  for (i = 0; i < n; i++) {
    store_order(hstmt, ids[i]);
  }
}
`;

describe("code: C/C++ loops calling another file's function that inserts a row per call", () => {
  it("db2_fdw's batch insert: the loop's call, through two files, to SQLExecute of a statement prepared elsewhere", async () => {
    const { findings, models } = await lintCode(FDW);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(BATCH, 'db2ExecForeignInsert(estate')}`]);
    const [single] = findings;
    assert.equal(single.file, 'source/batch.c');
    assert.equal(single.severity, 'warning');
    // Where the execute is (the prepare is in no file given here), then one pair of figures, committed every 1000
    // rows (the calling file shows no commits), then CLI array input in the function handed the rows, sized by
    // the count it loops to.
    assert.equal(
      single.message,
      'One INSERT call per row in the for loop at line 6 (through db2ExecForeignInsert(), then db2ExecuteInsert()). db2ExecuteInsert() runs it with SQLExecute at execute.c:10, once per call. ' +
        'Each row pays a round trip and the per-statement work: committing every 1000 rows, Db2 INSERT tips measured 7.6 s per 10,000 rows one row per call (test 68) against 2.3 s in arrays of 1000 (test 74). ' +
        'Instead, in db2ExecForeignBatchInsert(), which receives the rows together, bind column arrays of them, set SQL_ATTR_PARAMSET_SIZE to *numSlots and run one SQLExecute for the batch (Db2 CLI array input).',
    );
    assert.ok(single.message.indexOf('. ') < 120, 'a first sentence under 120 characters');
    // With the file that prepares the handle: the prepare is named.
    const prepared = await lintCode({ ...FDW, 'source/prepare.c': PREPARE });
    assert.deepEqual(brief(prepared.findings, INSERT_RULES), [`single-row-insert@${posOf(BATCH, 'db2ExecForeignInsert(estate')}`]);
    assert.match(
      prepared.findings[0].message,
      /^One INSERT call per row in the for loop at line 6 \(through db2ExecForeignInsert\(\), then db2ExecuteInsert\(\)\)\. db2ExecuteInsert\(\) runs it with SQLExecute at execute\.c:10, once per call, on the statement db2PrepareQuery\(\) prepares \(SQLPrepare of session->stmtp->hsql at prepare\.c:6\)\. Each row/,
    );
    // Both callers reach Db2 only through the other files' functions: read, not left out.
    assert.equal(models.get('source/insert.c')!.leftOut, undefined);
    assert.equal(models.get('source/batch.c')!.leftOut, undefined);
    // Alone, the callers are left out as before, and the executing file has no finding (its SQLExecute is in no loop).
    const alone = await lintCode({ 'source/batch.c': BATCH, 'source/insert.c': INSERT });
    assert.match(alone.models.get('source/batch.c')!.leftOut!, /^no Db2 access found/);
    assert.match(alone.models.get('source/insert.c')!.leftOut!, /^no Db2 access found/);
    assert.deepEqual(brief((await lintCode({ 'source/execute.c': EXECUTE })).findings, INSERT_RULES), []);
  });

  it("names the prepare of the execute's handle path only when one file of the nearest folder prepares it with a text that may be an INSERT", async () => {
    const named = (message: string) => /on the statement (\w+)\(\) prepares \(SQLPrepare of session->stmtp->hsql at ([\w.]+):(\d+)\)/.exec(message)?.slice(1).join(' ');
    const messageOf = async (files: Record<string, string>) => {
      const { findings } = await lintCode({ ...FDW, ...files });
      assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(BATCH, 'db2ExecForeignInsert(estate')}`]);
      return findings[0].message;
    };
    // A prepare of a known SELECT on the same handle prepares no INSERT: the other one is named.
    const select = PREPARE.replace('db2PrepareQuery', 'db2GetImportColumn').replace('(SQLCHAR*) query', '(SQLCHAR*) "SELECT COLNAME FROM SYSCAT.COLUMNS WHERE TABNAME = ?"');
    assert.equal(named(await messageOf({ 'source/prepare.c': PREPARE, 'source/import.c': select })), 'db2PrepareQuery prepare.c 6');
    assert.equal(named(await messageOf({ 'source/import.c': select })), undefined);
    // Two files of the folder prepare it with a text not known: which one ran before is not known.
    const twice = await messageOf({ 'source/prepare.c': PREPARE, 'source/prepare2.c': PREPARE.replace('db2PrepareQuery', 'db2PrepareOther') });
    assert.equal(named(twice), undefined);
    assert.match(twice, /runs it with SQLExecute at execute\.c:10, once per call\. Each row/);
    // The nearer folder's prepare wins over the parent's.
    assert.equal(named(await messageOf({ 'source/prepare.c': PREPARE, 'other.c': PREPARE.replace('db2PrepareQuery', 'db2PrepareOther') })), 'db2PrepareQuery prepare.c 6');
    // A handle that is one name (a parameter in both functions) links nothing.
    const plain = await lintCode({ ...FDW, 'source/execute.c': EXECUTE.replace(/session->stmtp->hsql/g, 'hsql'), 'source/prepare.c': PREPARE.replace('session->stmtp->hsql', 'hsql') });
    assert.doesNotMatch(plain.findings[0].message, /prepares/);
  });

  it('CLI array advice in the function handed the rows only when the loop counts to what it was handed', async () => {
    // A count the function works out itself: the generic advice, in a function that receives the rows.
    const counted = BATCH.replace('  int i;\n  for (i = 0; i < *numSlots; i++) {', '  int i, n = pending_slots(estate);\n  for (i = 0; i < n; i++) {');
    assert.notEqual(counted, BATCH);
    const { findings } = await lintCode({ ...FDW, 'source/batch.c': counted });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(counted, 'db2ExecForeignInsert(estate')}`]);
    assert.match(findings[0].message, /Instead, bind parameter arrays and set SQL_ATTR_PARAMSET_SIZE \(100 or more\) so that one SQLExecute sends many rows, in a function that receives the rows together \(a list\): the loop calls db2ExecForeignInsert\(\) once per row, and each call can only send its own\.$/);
    // A count of rows reached through a parameter's field, and C++'s range for over a parameter.
    const field = await lintCode({ ...FDW, 'source/batch.c': BATCH.replace('i < *numSlots', 'i < batch->count').replace('int* numSlots', 'Batch* batch') });
    assert.match(field.findings[0].message, /Instead, in db2ExecForeignBatchInsert\(\), which receives the rows together, bind column arrays of them, set SQL_ATTR_PARAMSET_SIZE to batch->count and run one SQLExecute/);
    const { findings: cpp } = await lintCode({ 'store.cpp': STORE, 'load.cpp': LOADER.replace('void load_orders(SQLHSTMT hstmt, long* ids, int n)', 'void load_orders(SQLHSTMT hstmt, const std::vector<long>& ids)').replace('for (i = 0; i < n; i++) {', 'for (long id : ids) {').replace('ids[i]', 'id') });
    assert.match(cpp[0].message, /Instead, in load_orders\(\), which receives the rows together, bind column arrays of them, set SQL_ATTR_PARAMSET_SIZE to the size of ids and run one SQLExecDirect for the batch \(Db2 CLI array input\)\.$/);
  });

  it('names the table when the INSERT text is known in the other file, and reports nothing there', async () => {
    const { findings, models } = await lintCode({ 'src/db/store.c': STORE, 'src/load.c': LOADER });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(LOADER, 'store_order(hstmt, ids')}`]);
    assert.equal(findings[0].file, 'src/load.c');
    assert.match(findings[0].message, /^One INSERT INTO APP\.ORDERS call per row in the for loop at line 6 \(through store_order\(\)\)\. store_order\(\) runs it with SQLExecDirect at store\.c:5, once per call\. /);
    assert.equal(models.get('src/load.c')!.leftOut, undefined);
    // C++ too.
    const cpp = await lintCode({ 'store.cpp': STORE, 'load.cpp': LOADER.replace('for (i = 0; i < n; i++) {', 'for (long id : std::vector<long>(ids, ids + n)) {').replace('ids[i]', 'id') });
    assert.deepEqual(cpp.findings.filter((f) => f.rule === 'single-row-insert').map((f) => f.file), ['load.cpp']);
  });

  it('a helper of the calling file in between: reported at the loop\'s call of the helper', async () => {
    const caller = `extern int store_order(SQLHSTMT hstmt, long id);
static int keep(SQLHSTMT hstmt, long id) {
  return store_order(hstmt, id);
}
void load_orders(SQLHSTMT hstmt, long* ids, int n) {
  for (int i = 0; i < n; i++) keep(hstmt, ids[i]);
}
`;
    const { findings } = await lintCode({ 'store.c': STORE, 'load.c': caller });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(caller, 'keep(hstmt, ids')}`]);
    assert.match(findings[0].message, /\(through keep\(\), then store_order\(\)\)/);
  });

  it('nothing where no loop calls it once per row', async () => {
    const lint = async (caller: string, callee = STORE) => brief((await lintCode({ 'store.c': callee, 'load.c': caller })).findings, INSERT_RULES);
    // Outside a loop: one row per run of the caller.
    assert.deepEqual(await lint('extern int store_order(SQLHSTMT h, long id);\nvoid one(SQLHSTMT h) {\n  store_order(h, 1);\n}\n'), []);
    // Under a counter guard: a flush every 1000 rows.
    assert.deepEqual(await lint(LOADER.replace('    store_order(hstmt, ids[i]);', '    if (i % 1000 == 0) store_order(hstmt, ids[i]);')), []);
    // A loop of a few passes (constant bound of 10 or fewer).
    assert.deepEqual(await lint(LOADER.replace('i < n', 'i < 5')), []);
    // The callee sends arrays (SQL_ATTR_PARAMSET_SIZE > 1): many rows per call. (Prepared and executed: the same
    // callee without the array size is reported.)
    const prepared = STORE.replace('  return SQLExecDirect(hstmt, (SQLCHAR*) "INSERT INTO APP.ORDERS (ID) VALUES (?)", SQL_NTS);', '  SQLPrepare(hstmt, (SQLCHAR*) "INSERT INTO APP.ORDERS (ID) VALUES (?)", SQL_NTS);\n  return SQLExecute(hstmt);');
    assert.notEqual(prepared, STORE);
    assert.deepEqual(await lint(LOADER, prepared), [`single-row-insert@${posOf(LOADER, 'store_order(hstmt, ids')}`]);
    const arrays = prepared.replace('  return SQLExecute', '  SQLSetStmtAttr(hstmt, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) 100, 0);\n  return SQLExecute');
    assert.deepEqual(await lint(LOADER, arrays), []);
    // The callee inserts a set (INSERT … SELECT), or reads.
    assert.deepEqual(await lint(LOADER, STORE.replace('VALUES (?)', 'SELECT ID FROM APP.STAGE')), []);
    assert.deepEqual(await lint(LOADER, STORE.replace('INSERT INTO APP.ORDERS (ID) VALUES (?)', 'SELECT ID FROM APP.ORDERS WHERE ID = ?')), []);
    // A static function of the other file is not this one's; nor is a C++ class's method of that name.
    assert.deepEqual(await lint(LOADER, STORE.replace('int store_order', 'static int store_order')), []);
    const method = STORE.replace('int store_order', 'class Orders {\n public:\n  int store_order').replace(/\}\n$/, '}\n};\n');
    assert.deepEqual(brief((await lintCode({ 'store.cpp': method, 'load.cpp': LOADER })).findings, INSERT_RULES), []);
    assert.deepEqual(brief((await lintCode({ 'store.cpp': STORE, 'load.cpp': LOADER })).findings, INSERT_RULES), [`single-row-insert@${posOf(LOADER, 'store_order(hstmt, ids')}`]);
  });

  it('a statement prepared elsewhere counts only in a function named for an insert (db2ExecuteQuery is no INSERT)', async () => {
    const query = EXECUTE.replace(/db2ExecuteInsert/g, 'db2ExecuteQuery');
    const { findings, models } = await lintCode({ 'batch.c': BATCH.replace(/db2ExecForeignInsert/g, 'db2IterateScan'), 'scan.c': INSERT.replace(/db2ExecForeignInsert/g, 'db2IterateScan').replace(/db2ExecuteInsert/g, 'db2ExecuteQuery'), 'execute.c': query });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    assert.match(models.get('batch.c')!.leftOut!, /^no Db2 access found/);
    assert.match(models.get('scan.c')!.leftOut!, /^no Db2 access found/);
  });

  it("the callee's own loop is its own finding: the caller's loop adds none", async () => {
    const callee = `int store_all(SQLHSTMT hstmt, long* ids, int n) {
  SQLPrepare(hstmt, (SQLCHAR*) "INSERT INTO APP.ORDERS (ID) VALUES (?)", SQL_NTS);
  for (int i = 0; i < n; i++) {
    SQLBindParameter(hstmt, 1, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0, &ids[i], 0, NULL);
    SQLExecute(hstmt);
  }
  return 0;
}
`;
    const caller = 'extern int store_all(SQLHSTMT h, long* ids, int n);\nvoid load(SQLHSTMT h, long** chunks, int m) {\n  for (int c = 0; c < m; c++) store_all(h, chunks[c], 1000);\n}\n';
    const { findings } = await lintCode({ 'store.c': callee, 'load.c': caller });
    assert.deepEqual(brief(findings, ['single-row-insert']), [`single-row-insert@${posOf(callee, 'SQLExecute(hstmt)')}`]);
  });

  it('two definitions at the same distance are no answer; the nearer one wins', async () => {
    const other = STORE.replace('INSERT INTO APP.ORDERS (ID) VALUES (?)', 'SELECT ID FROM APP.ORDERS WHERE ID = ?');
    // Two programs of one folder, each with its own store_order: which one the loader links with is not known.
    const twin = await lintCode({ 'p/store.c': STORE, 'p/store2.c': STORE.replace('APP.ORDERS', 'APP.OTHER'), 'p/load.c': LOADER });
    assert.deepEqual(brief(twin.findings, INSERT_RULES), []);
    // The one of the loader's own folder, not the one of another project's.
    const near = await lintCode({ 'a/store.c': other, 'a/load.c': LOADER, 'b/store.c': STORE });
    assert.deepEqual(brief(near.findings, INSERT_RULES), []);
    const far = await lintCode({ 'a/store.c': STORE, 'a/load.c': LOADER, 'b/store.c': other });
    assert.deepEqual(brief(far.findings, INSERT_RULES), [`single-row-insert@${posOf(LOADER, 'store_order(hstmt, ids')}`]);
  });

  it('grows linearly with the files and functions (one library of inserting functions, many loaders)', async function () {
    this.timeout(120_000);
    const { lintWorkspace } = await import('../helpers/rule-tester');
    const { codeFrontEnd } = await import('./helpers');
    const frontEnd = await codeFrontEnd();
    // n folders, each with a function that inserts, a left-out file that calls it and a loader that loops over the
    // middle one; each folder also defines shared_insert(), which its loader calls too (its own folder's), and a
    // loader in the top folder calls in a loop: n definitions at the same distance, no answer, found without a
    // walk over them.
    const make = (n: number) => String(n);
    const run = (count: string) => {
      const files: Record<string, string> = {};
      for (let i = 0; i < Number(count); i++) {
        files[`p${i}/store.c`] = STORE.replace(/store_order/g, `store_${i}`) + 'int shared_insert(SQLHSTMT h) { return SQLExecDirect(h, (SQLCHAR*) "INSERT INTO T (A) VALUES (1)", SQL_NTS); }\n';
        files[`p${i}/middle.c`] = `int middle_${i}(SQLHSTMT h, long id) {\n  return store_${i}(h, id);\n}\n`;
        files[`p${i}/load.c`] = `void load_${i}(SQLHSTMT h, long* ids, int n) {\n  for (int k = 0; k < n; k++) { middle_${i}(h, ids[k]); shared_insert(h); }\n}\n`;
      }
      files['top.c'] = 'void load_all(SQLHSTMT h, int n) {\n  for (int k = 0; k < n; k++) shared_insert(h);\n}\n';
      const { findings } = lintWorkspace(files, { codeFrontEnd: frontEnd, unmerged: true });
      assert.equal(findings.filter((f) => f.rule === 'single-row-insert').length, Number(count) * 2);
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 40);
    assert.ok(ratio < 24, `8× the files took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(0)} ms → ${largeMs.toFixed(0)} ms): super-linear`);
  });
});
