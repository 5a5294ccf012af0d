import { strict as assert } from 'node:assert';
import { expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'insert-trigger';
const TABLES = 'CREATE TABLE T (ID INT, V INT);\nCREATE TABLE AUDIT (ID INT);\nCREATE TABLE COUNTS (N INT);\n';
const INSERTING = 'CREATE TRIGGER T_AUDIT AFTER INSERT ON T REFERENCING NEW AS N\n  FOR EACH ROW INSERT INTO AUDIT VALUES (N.ID);\n';
const UPDATING = 'CREATE TRIGGER T_COUNT AFTER INSERT ON T\n  FOR EACH ROW UPDATE COUNTS SET N = N + 1;\n';
const LOAD = 'INSERT INTO T VALUES (?, ?);\n';

describe(`rule ${RULE}`, () => {
  it('reports the trigger name with the cost of a trigger that inserts (tests 18-19)', () => {
    expectFindings({ 'schema.sql': TABLES + INSERTING, 'load.sql': LOAD }, RULE, [
      { file: 'schema.sql', line: 4, column: 16, endLine: 4, endColumn: 23, severity: 'warning', message: /^Trigger T_AUDIT runs its body \(1 INSERT\) for every row inserted into T\. .*tests 18 and 19\): 67\.6 s with one/ },
    ]);
  });

  it('uses the update measurements (tests 20-21) and mentions the other triggers', () => {
    expectFindings({ 'schema.sql': TABLES + INSERTING + UPDATING, 'load.sql': LOAD }, RULE, [
      { file: 'schema.sql', line: 4, column: 16, message: /\(and 1 more INSERT trigger on it\)/ },
      { file: 'schema.sql', line: 6, column: 16, message: /^Trigger T_COUNT runs its body \(1 UPDATE\) .*tests 20 and 21\): 54\.7 s/ },
    ]);
  });

  it('ignores UPDATE/DELETE triggers and tables without inserts', () => {
    expectNoFindings({ 'schema.sql': TABLES + 'CREATE TRIGGER T_UPD AFTER UPDATE ON T FOR EACH ROW INSERT INTO AUDIT VALUES (1);\n', 'load.sql': LOAD }, RULE);
    expectNoFindings({ 'schema.sql': TABLES + INSERTING }, RULE);
  });
  it('leaves alone a BEFORE trigger that only sets the new row or signals (no SQL work per row)', () => {
    // IBM's xmltrig.db2 sample validates and defaults the new row this way.
    const before = `CREATE TRIGGER TR1 NO CASCADE BEFORE INSERT ON T REFERENCING NEW AS N
  FOR EACH ROW MODE DB2SQL BEGIN ATOMIC
    SET N.ID = 5000;
    SET N.NOTE = UPPER(N.NOTE);
    SIGNAL SQLSTATE '75000' SET MESSAGE_TEXT = 'no';
  END;
`;
    expectNoFindings({ 'schema.sql': TABLES + before, 'load.sql': LOAD }, RULE);
    const reads = before.replace("SET N.NOTE = UPPER(N.NOTE);", 'SET N.NOTE = (SELECT MAX(NOTE) FROM NOTES);');
    assert.equal(findings({ 'schema.sql': TABLES + reads, 'load.sql': LOAD }, RULE).length, 1, 'a SET that reads a table is SQL work');
  });

  it("scales the trigger's cost to the rows the scripts spell out, a hint under a second", () => {
    const rows = `INSERT INTO T VALUES ${Array.from({ length: 150 }, (_, i) => `(${i}, 1)`).join(', ')};\n`;
    expectFindings({ 'schema.sql': TABLES + INSERTING, 'data.sql': rows }, RULE, [
      { file: 'schema.sql', line: 4, column: 16, severity: 'hint', message: /\(test 11\)\. The scripts insert 150 rows into it: about 0\.05 s more in all at the measured rates \(tests 18 and 11\)\. Fold the work/ },
    ]);
    // Two triggers, one updating: each finding takes its own kind's figure for two (tests 19 and 21).
    const both = findings({ 'schema.sql': TABLES + INSERTING + UPDATING, 'data.sql': rows }, RULE);
    assert.deepEqual(both.map((f) => /\(tests (\d+) and 11\)/.exec(f.message)?.[1]), ['19', '21']);
    const [unknown] = expectFindings({ 'schema.sql': TABLES + INSERTING, 'load.sql': LOAD }, RULE, [{ file: 'schema.sql', line: 4, column: 16, severity: 'warning' }]);
    assert.doesNotMatch(unknown.message, /The scripts insert/);
  });
});
