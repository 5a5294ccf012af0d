import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'identity-cache';

const ORDERS = [
  'CREATE TABLE ORDERS (',
  '  ID BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1 NO CACHE),',
  '  AMOUNT DECIMAL(9, 2)',
  ');',
].join('\n');
const INSERT = 'INSERT INTO ORDERS (AMOUNT) VALUES (?);\n';
const BULK = 'INSERT INTO ORDERS (AMOUNT) SELECT AMOUNT FROM STAGE;\n';

describe(`rule ${RULE}`, () => {
  it('reports NO CACHE on the clause, with the measured cost, and fixes it to CACHE 1000', () => {
    expectFindings({ 'schema.sql': ORDERS, 'load.sql': INSERT }, RULE, [
      { file: 'schema.sql', line: 2, column: 65, endLine: 2, endColumn: 73, severity: 'warning', message: /ORDERS\.ID hands out values with NO CACHE.*test 42\): 896\.6 s with NO CACHE, against 37\.5 s with CACHE 1000 \(test 46\).*Use CACHE 1000\./ },
    ]);
    assert.equal(applyFix({ 'schema.sql': ORDERS, 'load.sql': INSERT }, RULE), ORDERS.replace('NO CACHE', 'CACHE 1000'));
  });

  it('reports a small explicit cache with the nearest measurement', () => {
    const ddl = ORDERS.replace('NO CACHE', 'CACHE 5');
    expectFindings({ 'schema.sql': ddl, 'load.sql': INSERT }, RULE, [{ file: 'schema.sql', line: 2, column: 65, message: /with CACHE 5\. .*test 43\): 212\.5 s with CACHE 5/ }]);
  });

  it('reports the implicit default cache on the column name of a bulk target, without a fix', () => {
    const ddl = ORDERS.replace(' (START WITH 1 NO CACHE)', '');
    const [finding] = expectFindings({ 'schema.sql': ddl, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 2, column: 3, message: /with the default CACHE 20.*test 44\): 99\.1 s/ }]);
    assert.equal(finding.fix, undefined);
    // A row per call (a request, a run): the default's 0.6 ms a row more than CACHE 1000 goes unnoticed.
    expectNoFindings({ 'schema.sql': ddl, 'load.sql': INSERT }, RULE);
    expectNoFindings({ 'schema.sql': ORDERS.replace('NO CACHE', 'CACHE 50'), 'load.sql': INSERT }, RULE);
  });

  it('warns that the cache eats the range of a SMALLINT identity', () => {
    const small = ORDERS.replace('ID BIGINT', 'ID SMALLINT');
    const [finding] = findings({ 'schema.sql': small, 'load.sql': INSERT }, RULE);
    assert.match(finding.message, /Use CACHE 100\. The column is SMALLINT, at most 32,767 values: each stop of the database loses the values still cached, which is why CACHE 100 and not more; for CACHE 1000, make the column INTEGER or BIGINT\.$/);
    assert.equal(finding.fix?.title, 'Use CACHE 100');
    // The figure quoted is the advised cache's own (test 45), not CACHE 1000's.
    assert.match(finding.message, /against 61\.6 s with CACHE 100 \(test 45\)/);
    // The values left are counted from START WITH (tbselcreate.db2 starts at 2000).
    const from2000 = small.replace('START WITH 1 ', 'START WITH 2000 ');
    assert.notEqual(from2000, small, 'the fixture has an identity clause to extend');
    assert.match(findings({ 'schema.sql': from2000, 'load.sql': INSERT }, RULE)[0].message, /The column is SMALLINT, 30,768 values from START WITH 2000 to 32,767:/);
    assert.doesNotMatch(findings({ 'schema.sql': ORDERS, 'load.sql': INSERT }, RULE)[0].message, /SMALLINT/);
  });

  it('accepts a cache at or above the threshold', () => {
    expectNoFindings({ 'schema.sql': ORDERS.replace('NO CACHE', 'CACHE 100'), 'load.sql': INSERT }, RULE);
    expectNoFindings({ 'schema.sql': ORDERS.replace('NO CACHE', 'CACHE 1000'), 'load.sql': INSERT }, RULE);
  });

  it('stays quiet when nothing inserts into the table', () => {
    expectNoFindings({ 'schema.sql': ORDERS }, RULE);
  });

  it('reports the ALTER that sets the cache in effect, not the CREATE it overrides', () => {
    const files = { 'schema.sql': `${ORDERS}\nALTER TABLE ORDERS ALTER COLUMN ID SET CACHE 10;\n`, 'load.sql': INSERT };
    expectFindings(files, RULE, [{ file: 'schema.sql', line: 5, column: 36, message: /with CACHE 10/ }]);
    assert.match(applyFix(files, RULE), /ALTER COLUMN ID SET CACHE 1000;/);
    expectNoFindings({ 'schema.sql': `${ORDERS}\nALTER TABLE ORDERS ALTER COLUMN ID SET CACHE 500;\n`, 'load.sql': INSERT }, RULE);
  });

  it('reports a sequence that inserts take values from, also through a trigger body', () => {
    const seq = 'CREATE SEQUENCE ORDER_SEQ START WITH 1 NO CACHE;\nCREATE TABLE T (ID BIGINT, V INT);\n';
    expectFindings({ 'schema.sql': seq, 'load.sql': 'INSERT INTO T VALUES (NEXT VALUE FOR ORDER_SEQ, ?);\n' }, RULE, [
      { file: 'schema.sql', line: 1, column: 40, message: /^Sequence ORDER_SEQ hands out values with NO CACHE.*test 47\): 896\.9 s with NO CACHE, against 39\.6 s with CACHE 1000 \(test 51\)/ },
    ]);
    const trigger = 'CREATE TABLE AUDIT (ID BIGINT);\nCREATE TRIGGER T_AUD AFTER INSERT ON T FOR EACH ROW INSERT INTO AUDIT VALUES (NEXTVAL FOR ORDER_SEQ);\n';
    expectFindings({ 'schema.sql': seq + trigger, 'load.sql': 'INSERT INTO T VALUES (?, ?);\n' }, RULE, [{ file: 'schema.sql', line: 1, column: 40 }]);
    expectNoFindings({ 'schema.sql': seq, 'load.sql': 'INSERT INTO T VALUES (?, ?);\n' }, RULE);
  });

  it('reports the default cache of a sequence only when a bulk insert draws from it', () => {
    const seq = 'CREATE SEQUENCE ORDER_SEQ START WITH 1;\nCREATE TABLE T (ID BIGINT, V INT);\n';
    // IBM's modules.db2: one value per order a procedure takes.
    expectNoFindings({ 'schema.sql': seq, 'load.sql': 'INSERT INTO T VALUES (NEXT VALUE FOR ORDER_SEQ, ?);\n' }, RULE);
    expectFindings({ 'schema.sql': seq, 'load.sql': 'INSERT INTO T SELECT NEXT VALUE FOR ORDER_SEQ, V FROM S;\n' }, RULE, [
      { file: 'schema.sql', line: 1, column: 17, message: /^Sequence ORDER_SEQ hands out values with the default CACHE 20\..*test 49\): 101\.9 s/ },
    ]);
    // A per-row trigger on a bulk target draws once per row too.
    const trigger = 'CREATE TRIGGER T_KEY NO CASCADE BEFORE INSERT ON T REFERENCING NEW AS N FOR EACH ROW SET N.ID = NEXT VALUE FOR ORDER_SEQ;\n';
    expectFindings({ 'schema.sql': seq + trigger, 'load.sql': 'INSERT INTO T (V) SELECT V FROM S;\n' }, RULE, [{ file: 'schema.sql', line: 1, column: 17 }]);
    expectNoFindings({ 'schema.sql': seq + trigger, 'load.sql': 'INSERT INTO T (V) VALUES (?);\n' }, RULE);
  });

  it("reports a sequence a BEFORE INSERT trigger sets the key from, or a routine draws into a variable it inserts", () => {
    const seq = 'CREATE SEQUENCE ORDER_SEQ START WITH 1 NO CACHE;\nCREATE TABLE T (ID BIGINT, V INT);\n';
    // The Oracle-migration shape: the key is set per row in the trigger.
    const before = 'CREATE TRIGGER T_KEY NO CASCADE BEFORE INSERT ON T REFERENCING NEW AS N FOR EACH ROW SET N.ID = NEXT VALUE FOR ORDER_SEQ;\n';
    expectFindings({ 'schema.sql': seq + before, 'load.sql': 'INSERT INTO T (V) SELECT V FROM S;\n' }, RULE, [{ file: 'schema.sql', line: 1, column: 40 }]);
    // IBM's modules.db2: SET v = NEXT VALUE FOR s, then INSERT … VALUES (v, …) in the same procedure.
    const proc = (body: string) => `CREATE PROCEDURE TAKE_ORDER (IN P_V INT)\nLANGUAGE SQL\nBEGIN\n  DECLARE K BIGINT;\n  SET K = NEXT VALUE FOR ORDER_SEQ;\n${body}END@\n`;
    expectFindings({ 'schema.sql': seq, 'order.db2': proc('  INSERT INTO T VALUES (K, P_V);\n') }, RULE, [{ file: 'schema.sql', line: 1, column: 40 }]);
    // A routine that draws a value and inserts nothing (it returns the key) is no use by inserts.
    expectNoFindings({ 'schema.sql': seq, 'order.db2': proc('  UPDATE T SET ID = K WHERE V = P_V;\n') }, RULE);
  });

  it('honours the threshold and suggestedCache options', () => {
    const files = { 'schema.sql': ORDERS.replace('NO CACHE', 'CACHE 500'), 'load.sql': BULK };
    expectNoFindings(files, RULE);
    const config = { rules: { [RULE]: ['error', { threshold: 1000, suggestedCache: 5000 }] as ['error', Record<string, number>] } };
    const [finding] = findings(files, RULE, { config });
    assert.equal(finding.severity, 'error');
    assert.match(finding.message, /Use CACHE 5000\./);
    assert.equal(applyFix(files, RULE, 0, { config }), ORDERS.replace('NO CACHE', 'CACHE 5000'));
  });

  it("scales the cache's own cost to the rows the scripts spell out: a warning from ten seconds, information under, a hint under one", () => {
    const rows = (n: number) => `INSERT INTO ORDERS (AMOUNT) VALUES ${Array.from({ length: n }, (_, i) => `(${i})`).join(', ')};\n`;
    // NO CACHE: 8.7 ms a row (test 42 against 41), 300 rows take 2.6 s more: worth knowing, not a warning.
    expectFindings({ 'schema.sql': ORDERS, 'data.sql': rows(300) }, RULE, [
      { file: 'schema.sql', line: 2, column: 65, severity: 'information', message: /\(test 41\)\. The scripts insert 300 rows into it: about 2\.6 s more in all at the measured rates \(tests 42 and 41\)\. Use CACHE 1000\.$/ },
    ]);
    // 1,200 rows take 10 s more: the warning stays.
    expectFindings({ 'schema.sql': ORDERS, 'data.sql': rows(1200) }, RULE, [
      { file: 'schema.sql', line: 2, column: 65, severity: 'warning', message: /The scripts insert 1,200 rows into it: about 10 s more in all/ },
    ]);
    // The default CACHE 20: 0.7 ms a row (test 44), 150 rows take 0.10 s more.
    const ddl = ORDERS.replace(' (START WITH 1 NO CACHE)', '');
    expectFindings({ 'schema.sql': ddl, 'data.sql': rows(150) }, RULE, [
      { file: 'schema.sql', line: 2, column: 3, severity: 'hint', message: /The scripts insert 150 rows into it: about 0\.10 s more in all at the measured rates \(tests 44 and 41\)\./ },
    ]);
    const [unknown] = expectFindings({ 'schema.sql': ddl, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 2, column: 3, severity: 'warning' }]);
    assert.doesNotMatch(unknown.message, /The scripts insert/);
  });

  it("counts the rows of a routine's loop over a table of known rows: NO CACHE for up to 8 rows is a hint", () => {
    // tbselcreate.db2: buy_company moves COMPANY_A's three rows into COMPANY_B, which holds five, deleting them as it goes.
    const script = [
      '--#SET TERMINATOR @',
      'CREATE TABLE COMPANY_A (ID SMALLINT NOT NULL, NAME VARCHAR(9))@',
      "INSERT INTO COMPANY_A VALUES (5275, 'Sanders'), (5265, 'Pernal'), (5791, 'O''Brien')@",
      'CREATE TABLE COMPANY_B (ID SMALLINT GENERATED BY DEFAULT AS IDENTITY (START WITH 2000 NOCACHE) NOT NULL, NAME VARCHAR(9), OLD_ID SMALLINT)@',
      "INSERT INTO COMPANY_B VALUES (DEFAULT, 'Naughton', 0), (DEFAULT, 'Yamaguchi', 0), (DEFAULT, 'Fraye', 0), (DEFAULT, 'Williams', 0), (DEFAULT, 'Molinare', 0)@",
      'CREATE PROCEDURE BUY_COMPANY',
      'LANGUAGE SQL',
      'BEGIN',
      '  DECLARE NEW_ID SMALLINT;',
      '  FOR E AS EMP_CURSOR CURSOR FOR (SELECT ID, NAME FROM OLD TABLE (DELETE FROM COMPANY_A)) DO',
      '    SELECT ID INTO NEW_ID FROM FINAL TABLE (INSERT INTO COMPANY_B VALUES (DEFAULT, NAME, ID));',
      '  END FOR;',
      'END@',
      '',
    ].join('\n');
    expectFindings({ 'tbsel.db2': script }, RULE, [
      { file: 'tbsel.db2', line: 4, column: 87, severity: 'hint', message: /The scripts insert up to 8 rows into it: about 0\.07 s more in all at the measured rates \(tests 42 and 41\)\./ },
    ]);
    // Filled by a LOAD too: the loop's rows are not known, the warning stays.
    const [loaded] = expectFindings({ 'tbsel.db2': script, 'load.db2': 'LOAD FROM a.del OF DEL INSERT INTO COMPANY_A;\n' }, RULE, [{ file: 'tbsel.db2', line: 4, column: 87, severity: 'warning' }]);
    assert.doesNotMatch(loaded.message, /The scripts insert/);
  });
});
