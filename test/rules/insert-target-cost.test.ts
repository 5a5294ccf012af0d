import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'insert-target-cost';
const SCHEMA = [
  'CREATE TABLE P (ID INT NOT NULL PRIMARY KEY);',
  'CREATE TABLE LOG (ID INT);',
  'CREATE TABLE T (',
  '  ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE),',
  '  P_ID INT REFERENCES P (ID),',
  '  DOC CLOB(1K),',
  '  CONSTRAINT T_PK PRIMARY KEY (ID)',
  ');',
  'CREATE INDEX T_P ON T (P_ID) CLUSTER;',
  'CREATE TRIGGER T_LOG AFTER INSERT ON T REFERENCING NEW AS N FOR EACH ROW INSERT INTO LOG VALUES (N.ID);',
  'CREATE TABLE T_SUM AS (SELECT P_ID, COUNT(*) AS N FROM T GROUP BY P_ID) DATA INITIALLY DEFERRED REFRESH IMMEDIATE;',
  '',
].join('\n');

describe(`rule ${RULE}`, () => {
  it('summarises the hidden per-row work at the first insert into a table, once per file', () => {
    const load = 'INSERT INTO T (P_ID, DOC) VALUES (?, ?);\nINSERT INTO T (P_ID, DOC) VALUES (?, ?);\n';
    const [finding] = expectFindings({ 'schema.sql': SCHEMA, 'load.sql': load }, RULE, [{ file: 'load.sql', line: 1, column: 13, endColumn: 14, severity: 'information' }]);
    const parts = [
      /an entry in each of 2 indexes \(2\.6x, tests 31-35\), one of them clustering \(2\.0x instead of 1\.7x/,
      /a parent-key lookup for 1 enforced foreign key \(1\.8x, tests 14-15\)/,
      /1 INSERT trigger \(T_LOG: 2\.1x, tests 18-19\)/,
      /REFRESH IMMEDIATE MQT T_SUM/,
      /a direct disk write for 1 LOB\/LONG column DOC \(9\.1x, test 91\)/,
      /a logged identity value every row for ID \(NO CACHE: 28\.5x, test 42\)/,
    ];
    for (const part of parts) assert.match(finding.message, part);
  });

  it('charges the LOB columns some insert into the table writes, as lob-column reports them', () => {
    const leftOut = findings({ 'schema.sql': SCHEMA, 'load.sql': 'INSERT INTO T (P_ID) VALUES (?);\n' }, RULE)[0];
    assert.doesNotMatch(leftOut.message, /LOB|DOC/);
    // NULL at DOC's place in an insert that names no columns; a value at it in another file's insert.
    const nulls = findings({ 'schema.sql': SCHEMA, 'load.sql': 'INSERT INTO T VALUES (DEFAULT, ?, NULL);\n' }, RULE)[0];
    assert.doesNotMatch(nulls.message, /LOB|DOC/);
    const elsewhere = findings({ 'schema.sql': SCHEMA, 'load.sql': 'INSERT INTO T (P_ID) VALUES (?);\n', 'app.sql': 'INSERT INTO T VALUES (DEFAULT, ?, ?);\n' }, RULE);
    assert.match(elsewhere.find((f) => f.file === 'load.sql')!.message, /a direct disk write for 1 LOB\/LONG column DOC \(9\.1x, test 91\)/);
  });

  it('counts only the DDL in force at the insert', () => {
    const load = 'CREATE TABLE W (A INT);\nINSERT INTO W VALUES (1);\nCREATE INDEX W_A ON W (A);\nINSERT INTO W VALUES (2);\n';
    expectNoFindings({ 'load.sql': load }, RULE);
  });

  it('stays quiet for tables with no hidden work', () => {
    expectNoFindings({ 'schema.sql': 'CREATE TABLE B (A INT) APPEND ON;\n', 'load.sql': 'INSERT INTO B VALUES (?);\n' }, RULE);
  });

  it('also summarises at an IMPORT', () => {
    const [finding] = findings({ 'schema.sql': 'CREATE TABLE Q (A INT NOT NULL PRIMARY KEY);\n', 'load.clp': "IMPORT FROM 'q.del' OF DEL COMMITCOUNT 1000 INSERT INTO Q;\n" }, RULE);
    assert.equal(finding.file, 'load.clp');
    assert.match(finding.message, /^Each row inserted into Q also costs: an entry in 1 index \(1\.7x/);
  });
});
