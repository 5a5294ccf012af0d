import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'import-commitcount';

describe(`rule ${RULE}`, () => {
  it('reports IMPORT without COMMITCOUNT on its target', () => {
    expectFindings({ 'load.clp': "IMPORT FROM 'orders.del' OF DEL INSERT INTO SALES.ORDERS;\n" }, RULE, [
      { line: 1, column: 45, endColumn: 57, severity: 'information', message: /^IMPORT into SALES\.ORDERS has no COMMITCOUNT, so it commits once, at the end\. .*fill the active log \(SQL0964C\).*COMMITCOUNT AUTOMATIC, or a count such as 1000, commits as it goes/ },
    ]);
  });

  it('reads the IMPORT that SYSPROC.ADMIN_CMD runs (routines, JDBC, schedulers), and fixes it inside the string', () => {
    const call = "CALL SYSPROC.ADMIN_CMD('IMPORT FROM /tmp/o.del OF DEL INSERT INTO SALES.ORDERS');\n";
    expectFindings({ 'load.sql': call }, RULE, [{ line: 1, column: 67, endColumn: 79, message: /^IMPORT into SALES\.ORDERS has no COMMITCOUNT/ }]);
    assert.equal(applyFix({ 'load.sql': call }, RULE), "CALL SYSPROC.ADMIN_CMD('IMPORT FROM /tmp/o.del OF DEL COMMITCOUNT AUTOMATIC INSERT INTO SALES.ORDERS');\n");
    // Built in a routine from a variable, too; another procedure's argument is no command.
    const routine = "BEGIN\n  DECLARE CMD VARCHAR(200) DEFAULT 'IMPORT FROM /tmp/o.del OF DEL INSERT INTO SALES.ORDERS';\n  CALL ADMIN_CMD(CMD);\nEND@\n";
    assert.equal(findings({ 'load.db2': routine }, RULE).length, 1);
    expectNoFindings({ 'load.sql': "CALL APP.RUN('IMPORT FROM /tmp/o.del OF DEL INSERT INTO SALES.ORDERS');\n" }, RULE);
  });

  it('reports a small COMMITCOUNT with tests 65-68', () => {
    expectFindings({ 'load.clp': "IMPORT FROM 'orders.del' OF DEL COMMITCOUNT 10 INSERT INTO ORDERS;\n" }, RULE, [
      { line: 1, column: 60, message: /^IMPORT into ORDERS commits every 10 rows: .*20\.8 s every 10/ },
    ]);
  });

  it('accepts COMMITCOUNT AUTOMATIC and large counts', () => {
    expectNoFindings({ 'load.clp': "IMPORT FROM 'orders.del' OF DEL COMMITCOUNT AUTOMATIC INSERT INTO ORDERS;\n" }, RULE);
    expectNoFindings({ 'load.clp': "IMPORT FROM 'orders.del' OF DEL COMMITCOUNT 5000 INSERT INTO ORDERS;\n" }, RULE);
  });

  it('says the default import locks the table (not each row), and leaves an online import alone (it commits as AUTOMATIC)', () => {
    const [offline] = findings({ 'load.clp': "IMPORT FROM 'orders.del' OF DEL ALLOW NO ACCESS INSERT INTO ORDERS;\n" }, RULE);
    // Commits do not release it: IMPORT holds the table until it ends, whatever COMMITCOUNT says.
    assert.match(offline.message, /It does not free the table sooner: the default ALLOW NO ACCESS holds an exclusive table lock until the IMPORT ends; only ALLOW WRITE ACCESS, for an IMPORT that INSERTs into an existing table, lets other work in/);
    assert.doesNotMatch(offline.message, /faster than/);
    assert.doesNotMatch(offline.message, /every new row/);
    expectNoFindings({ 'load.clp': "IMPORT FROM 'orders.del' OF DEL ALLOW WRITE ACCESS INSERT INTO ORDERS;\n" }, RULE);
    expectFindings({ 'load.clp': "IMPORT FROM 'orders.del' OF DEL ALLOW WRITE ACCESS COMMITCOUNT 5 INSERT INTO ORDERS;\n" }, RULE, [{ line: 1, column: 78, message: /commits every 5 rows/ }]);
  });

  it('fixes a missing COMMITCOUNT with AUTOMATIC and a small one with the minimum, as changes of meaning (not "Fix all")', () => {
    const missing = { 'load.clp': "IMPORT FROM 'orders.del' OF DEL MESSAGES 'm.txt' INSERT INTO SALES.ORDERS;\n" };
    assert.equal(applyFix(missing, RULE), "IMPORT FROM 'orders.del' OF DEL MESSAGES 'm.txt' COMMITCOUNT AUTOMATIC INSERT INTO SALES.ORDERS;\n");
    const small = { 'load.clp': "IMPORT FROM 'orders.del' OF DEL COMMITCOUNT 10 INSERT_UPDATE INTO ORDERS;\n" };
    assert.equal(applyFix(small, RULE), "IMPORT FROM 'orders.del' OF DEL COMMITCOUNT 1000 INSERT_UPDATE INTO ORDERS;\n");
    assert.equal(findings(small, RULE)[0].fix?.changesMeaning, true);
    // The fixed scripts are clean.
    expectNoFindings({ 'load.clp': applyFix(missing, RULE) }, RULE);
  });

  it('reports the IMPORTs without COMMITCOUNT of one script once, fixed together', () => {
    const script = {
      'mon.clp': [
        'CONNECT TO MON;',
        'IMPORT FROM a.ixf OF IXF MODIFIED BY FORCECREATE CREATE INTO MON.A;',
        "IMPORT FROM 'b.del' OF DEL COMMITCOUNT AUTOMATIC INSERT INTO MON.B;",
        'IMPORT FROM c.ixf OF IXF CREATE INTO MON.C;',
        'IMPORT FROM d.ixf OF IXF COMMITCOUNT 5 INSERT INTO MON.D;',
        'IMPORT FROM e.ixf OF IXF INSERT INTO MON.A;',
        '',
      ].join('\n'),
    };
    expectFindings(script, RULE, [
      { line: 2, column: 62, message: /^IMPORT without COMMITCOUNT: 3 in this script \(lines 2–6\), loading MON\.A, MON\.C\. Each commits once, at the end of its file\. IMPORT inserts row by row/ },
      { line: 5, column: 52, message: /^IMPORT into MON\.D commits every 5 rows/ },
    ]);
    const [many] = findings(script, RULE);
    assert.equal(many.fix?.title, 'Add COMMITCOUNT AUTOMATIC to the 3 IMPORTs');
    assert.equal(many.fix?.changesMeaning, true);
    const fixed = applyFix(script, RULE);
    assert.equal((fixed.match(/COMMITCOUNT AUTOMATIC/g) ?? []).length, 4);
    assert.match(fixed, /IMPORT FROM a\.ixf OF IXF MODIFIED BY FORCECREATE COMMITCOUNT AUTOMATIC CREATE INTO MON\.A;/);
  });
});
