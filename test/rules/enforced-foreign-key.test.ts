import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';
import { codeFrontEnd } from '../code/helpers';

const RULE = 'enforced-foreign-key';
const PARENT = 'CREATE TABLE P (ID INT NOT NULL PRIMARY KEY);\n';
const CHILD = ['CREATE TABLE C (', '  ID INT,', '  P_ID INT,', '  CONSTRAINT C_P FOREIGN KEY (P_ID) REFERENCES P (ID)', ');', ''].join('\n');
const BULK = 'INSERT INTO C SELECT ID, P_ID FROM STAGE;\n';

describe(`rule ${RULE}`, () => {
  it('reports an enforced foreign key of a bulk target on the constraint', () => {
    expectFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 5, column: 3, severity: 'warning', message: /^Foreign key C_P on bulk target C \(INSERT … SELECT\) checks P for every inserted row\. Db2 looks up the parent through its primary-key index; a row whose key is NULL is not checked\..*55\.4 s with one.*32\.8 s and 38\.9 s \(tests 16 and 17\)/ },
    ]);
  });

  it('says a NULL key is not checked only where a key column may hold NULL', () => {
    const notNull = CHILD.replace('  P_ID INT,', '  P_ID INT NOT NULL,');
    const [finding] = findings({ 'schema.sql': PARENT + notNull, 'load.sql': BULK }, RULE);
    assert.match(finding.message, /Db2 looks up the parent through its primary-key index\. Measured/);
    assert.doesNotMatch(finding.message, /NULL/);
  });

  it('reports the keys of one table in one finding (with the count of all it has), and fixes them together', () => {
    const ddl = PARENT + CHILD + 'ALTER TABLE C ADD CONSTRAINT C_P2 FOREIGN KEY (ID) REFERENCES P (ID);\n';
    expectFindings({ 'schema.sql': ddl, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 5, column: 3, message: /^2 enforced foreign keys on bulk target C \(INSERT … SELECT\) each check a parent per inserted row\. They are C_P, C_P2 \(parents: P\)\. .*Add them with ALTER TABLE … ADD CONSTRAINT after the load \(the INSERT at load\.sql:1\)\. Or declare them NOT ENFORCED if the loading job already guarantees the parents exist\.$/ },
    ]);
    assert.equal(applyFix({ 'schema.sql': ddl, 'load.sql': BULK }, RULE), ddl.replace('REFERENCES P (ID)\n', 'REFERENCES P (ID) NOT ENFORCED\n').replace('REFERENCES P (ID);\n', 'REFERENCES P (ID) NOT ENFORCED;\n'));
    // A key added in another file is counted, not repeated.
    expectFindings({ 'schema.sql': PARENT + CHILD, 'more.sql': 'ALTER TABLE C ADD CONSTRAINT C_P2 FOREIGN KEY (ID) REFERENCES P (ID);\n', 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 5, column: 3, message: /^Foreign key C_P on bulk target C .*; it has 2 enforced foreign keys/ },
      { file: 'more.sql', line: 1, column: 19, message: /^Foreign key C_P2 on bulk target C .*; it has 2 enforced foreign keys, each checked per row/ },
    ]);
  });

  it('says to move the keys after the INSERT that loads the table when both are in the script (an upgrade step)', () => {
    const step = PARENT + CHILD + 'INSERT INTO C (ID, P_ID) SELECT ID, P_ID FROM OLD_C;\n';
    expectFindings({ 'step.sql': step }, RULE, [
      { file: 'step.sql', line: 5, column: 3, message: /Add it after the load instead: take it out of the CREATE TABLE and add it with ALTER TABLE … ADD CONSTRAINT after the INSERT at line 7\.$/ },
    ]);
    // Moving the key is the whole fix there: no NOT ENFORCED, which would give up the check for good.
    assert.equal(findings({ 'step.sql': step }, RULE)[0].fix, undefined);
    const altered = PARENT + 'CREATE TABLE C (ID INT, P_ID INT);\nALTER TABLE C ADD CONSTRAINT C_P FOREIGN KEY (P_ID) REFERENCES P (ID);\n\nINSERT INTO C (ID, P_ID) SELECT ID, P_ID FROM OLD_C;\n';
    expectFindings({ 'step.sql': altered }, RULE, [{ file: 'step.sql', line: 3, column: 19, message: /Add it after the load instead: move the ALTER TABLE … ADD CONSTRAINT statement at line 3 after the INSERT at line 5\.$/ }]);
  });

  it("leaves a key alone when no insert sets its columns (the rows hold NULL there: no parent to check)", () => {
    // Flowable's 6.2.1 upgrade adds a key on CUSTOM_VALUES_ID_, a column the copy of an older step never sets.
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'INSERT INTO C (ID) SELECT ID FROM STAGE;\n' }, RULE);
    expectFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'INSERT INTO C (ID) SELECT ID FROM STAGE;\nINSERT INTO C (ID, P_ID) SELECT ID, P_ID FROM STAGE2;\n' }, RULE, [{ file: 'schema.sql', line: 5, column: 3 }]);
    expectFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': "IMPORT FROM c.del OF DEL COMMITCOUNT 1000 INSERT INTO C;\n" }, RULE, [{ file: 'schema.sql', line: 5, column: 3 }]);
    // An INSERT naming columns this definition lacks fills another version of the table (Spring Batch's 2.2
    // migration copies rows into BATCH_JOB_EXECUTION_PARAMS with TYPE_CD and KEY_NAME; v5.2 has neither).
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'INSERT INTO C (ID, P_ID, TYPE_CD) SELECT ID, P_ID, T FROM STAGE;\n' }, RULE);
  });

  it('reads which columns an insert sets as lob-column does: NULL in every row, an IMPORT column list, a value DEFAULT', () => {
    // NULL written out for the key is no key to check.
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'INSERT INTO C (ID, P_ID) SELECT ID, NULL FROM STAGE;\n' }, RULE);
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'IMPORT FROM c.del OF DEL COMMITCOUNT 1000 INSERT INTO C (ID);\n' }, RULE);
    // A key left out takes its DEFAULT: a value Db2 checks against the parent.
    const withDefault = PARENT + CHILD.replace('  P_ID INT,', '  P_ID INT DEFAULT 1,');
    expectFindings({ 'schema.sql': withDefault, 'load.sql': 'INSERT INTO C (ID) SELECT ID FROM STAGE;\n' }, RULE, [{ file: 'schema.sql', line: 5, column: 3 }]);
    // A MERGE whose INSERT leaves the key out but whose UPDATE sets it: Db2 checks the parent of an updated key too.
    const merge = (set: string) => `MERGE INTO C USING STAGE S ON C.ID = S.ID WHEN MATCHED THEN UPDATE SET ${set} WHEN NOT MATCHED THEN INSERT (ID) VALUES (S.ID);\n`;
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': merge('P_ID = NULL') }, RULE);
    expectFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': merge('P_ID = S.P_ID') }, RULE, [{ file: 'schema.sql', line: 5, column: 3 }]);
  });

  it('reads an insert without a column list by place, as lob-column does: NULL at the key\'s place sets no key', () => {
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'INSERT INTO C SELECT ID, NULL FROM STAGE;\n' }, RULE);
    const rows = Array.from({ length: 120 }, (_, i) => `(${i}, NULL)`).join(', ');
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': `INSERT INTO C VALUES ${rows};\n` }, RULE);
    // NULL at another column's place: the key is set.
    expectFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'INSERT INTO C SELECT NULL, P_ID FROM STAGE;\n' }, RULE, [{ file: 'schema.sql', line: 5, column: 3 }]);
  });

  it('leaves a two-column key alone when every insert leaves one of its columns NULL (Db2 checks no key with a NULL)', () => {
    const parent = 'CREATE TABLE P (A INT NOT NULL, B INT NOT NULL, PRIMARY KEY (A, B));\n';
    const child = 'CREATE TABLE C (ID INT, PA INT, PB INT,\n  CONSTRAINT C_P FOREIGN KEY (PA, PB) REFERENCES P (A, B));\n';
    expectNoFindings({ 'schema.sql': parent + child, 'load.sql': 'INSERT INTO C (ID, PA) SELECT ID, PA FROM STAGE;\n' }, RULE);
    expectNoFindings({ 'schema.sql': parent + child, 'load.sql': 'INSERT INTO C SELECT ID, PA, NULL FROM STAGE;\n' }, RULE);
    // Both columns set (by name or by place): checked.
    expectFindings({ 'schema.sql': parent + child, 'load.sql': 'INSERT INTO C (ID, PA, PB) SELECT ID, PA, PB FROM STAGE;\n' }, RULE, [{ file: 'schema.sql', line: 3, column: 3 }]);
    expectFindings({ 'schema.sql': parent + child, 'load.sql': 'INSERT INTO C SELECT ID, PA, PB FROM STAGE;\n' }, RULE, [{ file: 'schema.sql', line: 3, column: 3 }]);
  });

  it('accepts NOT ENFORCED keys, keys added after the load, and non-bulk targets', () => {
    expectNoFindings({ 'schema.sql': PARENT + CHILD.replace('REFERENCES P (ID)', 'REFERENCES P (ID) NOT ENFORCED'), 'load.sql': BULK }, RULE);
    expectNoFindings({ 'schema.sql': PARENT + CHILD + 'ALTER TABLE C ALTER FOREIGN KEY C_P NOT ENFORCED;\n', 'load.sql': BULK }, RULE);
    const after = PARENT + 'CREATE TABLE C (ID INT, P_ID INT);\n' + BULK + 'ALTER TABLE C ADD CONSTRAINT C_P FOREIGN KEY (P_ID) REFERENCES P (ID);\n';
    expectNoFindings({ 'load.sql': after }, RULE);
    expectNoFindings({ 'schema.sql': PARENT + CHILD, 'load.sql': 'INSERT INTO C VALUES (?, ?);\n' }, RULE);
  });

  it('fixes with NOT ENFORCED after the constraint, or in place of ENFORCED; never for ALTER … ALTER FOREIGN KEY', () => {
    const files = { 'schema.sql': PARENT + CHILD, 'load.sql': BULK };
    const fixed = applyFix(files, RULE);
    assert.equal(fixed, PARENT + CHILD.replace('REFERENCES P (ID)', 'REFERENCES P (ID) NOT ENFORCED'));
    expectNoFindings({ 'schema.sql': fixed, 'load.sql': BULK }, RULE);
    const explicit = PARENT + CHILD.replace('REFERENCES P (ID)', 'REFERENCES P (ID) ON DELETE NO ACTION ENFORCED');
    assert.equal(applyFix({ 'schema.sql': explicit, 'load.sql': BULK }, RULE), explicit.replace('ACTION ENFORCED', 'ACTION NOT ENFORCED'));
    assert.equal(findings(files, RULE)[0].fix?.changesMeaning, true);
    const altered = PARENT + CHILD.replace('REFERENCES P (ID)', 'REFERENCES P (ID) NOT ENFORCED') + 'ALTER TABLE C ALTER FOREIGN KEY C_P ENFORCED;\n';
    const [finding] = findings({ 'schema.sql': altered, 'load.sql': BULK }, RULE);
    assert.ok(finding, 'the ALTER is reported');
    assert.equal(finding.fix, undefined);
  });

  it('never offers NOT ENFORCED for a key whose ON DELETE CASCADE or SET NULL Db2 would stop carrying out', () => {
    // IBM's bank demo: deleting a customer deletes its accounts. An informational key would leave them behind.
    const cascade = PARENT + CHILD.replace('REFERENCES P (ID)', 'REFERENCES P (ID) ON DELETE CASCADE');
    const [finding] = expectFindings({ 'schema.sql': cascade, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 5, column: 3, message: /Add it with ALTER TABLE … ADD CONSTRAINT after the load \(the INSERT at load\.sql:1\)\. NOT ENFORCED is no option here: Db2 would no longer carry out the ON DELETE CASCADE of C_P\.$/ },
    ]);
    assert.equal(finding.fix, undefined);
    const setNull = PARENT + CHILD.replace('REFERENCES P (ID)', 'REFERENCES P (ID) ON DELETE SET NULL');
    assert.match(findings({ 'schema.sql': setNull, 'load.sql': BULK }, RULE)[0].message, /ON DELETE SET NULL of C_P\.$/);
  });

  it("names no seed row's INSERT as the load, and says when the rows come from a routine", () => {
    // IBM's modules.db2: the keys, one seed row, then a procedure that inserts row by row in a cursor loop.
    const routine = [
      'CREATE PROCEDURE SHIP ()',
      'LANGUAGE SQL',
      'BEGIN',
      '  FOR R AS SELECT ID, P_ID FROM ORDERS DO',
      '    INSERT INTO C (ID, P_ID) VALUES (R.ID, R.P_ID);',
      '  END FOR;',
      'END@',
      '',
    ].join('\n');
    const script = PARENT.replace(';', '@') + CHILD.replace(');', ')@') + 'INSERT INTO C (ID, P_ID) VALUES (1, 1)@\n' + routine;
    const [finding] = expectFindings({ 'modules.db2': script }, RULE, [
      { file: 'modules.db2', line: 5, column: 3, message: /The rows come from a routine, each time it runs: there is no load to add it after\. Or declare it NOT ENFORCED if the routine already guarantees the parents exist\.$/ },
    ]);
    assert.doesNotMatch(finding.message, /at line/);
    assert.equal(finding.severity, 'warning');
    // With ON DELETE CASCADE as well, nothing is left to change: the cost is worth knowing, nothing to act on (a hint).
    const [known] = findings({ 'modules.db2': script.replace('REFERENCES P (ID)', 'REFERENCES P (ID) ON DELETE CASCADE') }, RULE);
    assert.equal(known.severity, 'hint');
    assert.match(known.message, /there is no load to add it after\. NOT ENFORCED is no option here/);
    // No load to add the key after: the figures of keys added after the inserts (tests 16 and 17) are not said.
    for (const m of [finding.message, known.message]) assert.doesNotMatch(m, /tests 16 and 17/);
    assert.match(finding.message, /against 31\.5 s without \(test 11\)\. The rows come from a routine/);
  });

  it("names a script's load in another file as the load, never an insert of application code's loop", async () => {
    const options = { codeFrontEnd: await codeFrontEnd() };
    // The DDL, a Java loader inserting row by row (the application at work), and a nightly script's INSERT … SELECT.
    const java = [
      'import java.sql.*;',
      'class Loader {',
      '  void load(Connection conn, java.util.List<Integer> ids) throws SQLException {',
      '    PreparedStatement ps = conn.prepareStatement("INSERT INTO C (ID, P_ID) VALUES (?, ?)");',
      '    for (Integer id : ids) { ps.setInt(1, id); ps.setInt(2, id); ps.executeUpdate(); }',
      '  }',
      '}',
      '',
    ].join('\n');
    const [both] = findings({ 'schema.sql': PARENT + CHILD, 'app/Loader.java': java, 'db/load.sql': '-- nightly\n' + BULK }, RULE, options);
    assert.match(both.message, /after the load \(the INSERT at load\.sql:2\)\./);
    // The Java loop alone: no load to name.
    const [loop] = findings({ 'schema.sql': PARENT + CHILD, 'app/Loader.java': java }, RULE, options);
    assert.doesNotMatch(loop.message, /Loader\.java/);
  });

  it('scales the cost to the rows the scripts spell out, and makes a known volume under a second a hint, under ten information', () => {
    // IBM's spatial bank demo: its data script inserts 189 customers, one literal INSERT each.
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `INSERT INTO C VALUES (${i}, 1);`).join('\n') + '\n';
    const [small] = expectFindings({ 'schema.sql': PARENT + CHILD, 'data.sql': rows(150) }, RULE, [
      { file: 'schema.sql', line: 5, column: 3, severity: 'hint', message: /\(tests 16 and 17\)\. The scripts insert 150 rows into it: about 0\.04 s more in all at the measured rates \(tests 14 and 11\)\. Add it with ALTER TABLE/ },
    ]);
    assert.ok(small.fix, 'the advice and its fix stay');
    // Two keys cost their own figure (test 15): 3,000 rows take 1.2 s more, information; 30,000 rows 12 s, a warning.
    const two = PARENT + CHILD + 'ALTER TABLE C ADD CONSTRAINT C_P2 FOREIGN KEY (ID) REFERENCES P (ID);\n';
    const values = (n: number) => `INSERT INTO C VALUES ${Array.from({ length: n }, (_, i) => `(${i}, 1)`).join(', ')};\n`;
    expectFindings({ 'schema.sql': two, 'data.sql': values(3000) }, RULE, [
      { file: 'schema.sql', line: 5, column: 3, severity: 'information', message: /The scripts insert 3,000 rows into it: about 1\.2 s more in all at the measured rates \(tests 15 and 11\)\./ },
    ]);
    expectFindings({ 'schema.sql': two, 'data.sql': values(30000) }, RULE, [
      { file: 'schema.sql', line: 5, column: 3, severity: 'warning', message: /The scripts insert 30,000 rows into it: about 12 s more/ },
    ]);
    // A query among the inserts: the volume is not known, the finding stays a warning without the sentence.
    const [unknown] = expectFindings({ 'schema.sql': PARENT + CHILD, 'data.sql': rows(150) + BULK }, RULE, [{ file: 'schema.sql', line: 5, column: 3, severity: 'warning' }]);
    assert.doesNotMatch(unknown.message, /The scripts insert/);
  });
});
