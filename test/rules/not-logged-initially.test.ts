import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'not-logged-initially';
const TABLE = 'CREATE TABLE T (A INT);\n';

describe(`rule ${RULE}`, () => {
  it('reports ACTIVATE NOT LOGGED INITIALLY with the recovery risk and tests 6-8', () => {
    const load = 'ALTER TABLE T ACTIVATE NOT LOGGED INITIALLY;\nINSERT INTO T SELECT A FROM S;\n';
    expectFindings({ 'schema.sql': TABLE, 'load.sql': load }, RULE, [
      { file: 'load.sql', line: 1, column: 15, endLine: 1, endColumn: 44, severity: 'warning', message: /^ACTIVATE NOT LOGGED INITIALLY on T leaves the inserts of this unit of work unlogged\. .*inaccessible.*test 7: 16\.4 s vs 15\.7 s.*test 8: 11\.8 s/ },
    ]);
  });

  it('says when CHNGPGS_THRESH already keeps page cleaning ahead (test 8)', () => {
    const load = 'UPDATE DB CFG USING CHNGPGS_THRESH 5;\nALTER TABLE T ACTIVATE NOT LOGGED INITIALLY;\nINSERT INTO T SELECT A FROM S;\n';
    const [finding] = findings({ 'schema.sql': TABLE, 'load.sql': load }, RULE);
    assert.match(finding.message, /with CHNGPGS_THRESH 5 set here, page cleaning keeps up/);
  });

  it('reports CREATE TABLE … NOT LOGGED INITIALLY on an insert target only', () => {
    const ddl = 'CREATE TABLE T (A INT)\n  NOT LOGGED INITIALLY;\n';
    // The finding sits on the NOT LOGGED INITIALLY clause.
    const [finding] = expectFindings({ 'schema.sql': ddl, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE, [{ file: 'schema.sql', line: 2, column: 3, message: /^CREATE TABLE T … NOT LOGGED INITIALLY/ }]);
    assert.equal(finding.rule, RULE);
    // Run by the CLP with its autocommit on, the CREATE commits alone: NLI does nothing for the inserts (said, as information).
    assert.equal(finding.severity, 'information');
    assert.match(finding.message, /^CREATE TABLE T … NOT LOGGED INITIALLY does nothing here: the CLP's autocommit commits the CREATE on its own\. The inserts after it are logged as usual/);
    // In one unit of work with its inserts, the inserts are unlogged: the recovery risk and the cost of the commit.
    const oneUnit = 'UPDATE COMMAND OPTIONS USING C OFF;\n' + ddl + 'INSERT INTO T SELECT A FROM S;\nCOMMIT;\n';
    const [unlogged] = expectFindings({ 'load.sql': oneUnit }, RULE, [{ file: 'load.sql', line: 3, column: 3, severity: 'warning', message: /^CREATE TABLE T … NOT LOGGED INITIALLY leaves the inserts of the unit of work that creates it unlogged\. A failure there/ }]);
    assert.equal(unlogged.rule, RULE);
    // A script that COMMITs itself may be run with db2 +c (IBM's load_data.sql), or not: NLI then does nothing. It
    // says so first, and as information: whether there is anything to change depends on how the script is run.
    const commits = ddl + 'INSERT INTO T SELECT A FROM S;\nCOMMIT;\n';
    expectFindings({ 'load.sql': commits }, RULE, [{ file: 'load.sql', line: 2, column: 3, severity: 'information', message: /^NOT LOGGED INITIALLY on T works only if this script runs with autocommit off \(db2 \+c\)\. It COMMITs itself, which suggests so; under the CLP default the CREATE commits alone .* Run with \+c, the inserts of the unit of work that creates T are unlogged: a failure there leaves it unusable/ }]);
    assert.doesNotMatch(unlogged.message, /suggests so/, 'said only where it is a guess');
    expectNoFindings({ 'schema.sql': ddl }, RULE);
    expectNoFindings({ 'schema.sql': TABLE, 'load.sql': 'INSERT INTO T VALUES (?);\n' }, RULE);
  });

  it('says that the tests 6-8 figures are for a row-organized table when the table is column-organized (load_data.sql)', () => {
    const load = 'INSERT INTO T SELECT A FROM S;\nCOMMIT;\n';
    const [column] = findings({ 'load.sql': 'CREATE TABLE T (A INT) ORGANIZE BY COLUMN NOT LOGGED INITIALLY;\n' + load }, RULE);
    assert.match(column.message, /\(test 8: 11\.8 s\); those tests used a row-organized table, T is column-organized\. /);
    const [row] = findings({ 'load.sql': 'CREATE TABLE T (A INT) ORGANIZE BY ROW NOT LOGGED INITIALLY;\n' + load }, RULE);
    assert.doesNotMatch(row.message, /row-organized/);
  });

  it('does not advise LOAD for a table with a spatial (structured type) column, which LOAD cannot fill', () => {
    // IBM's spatial load_data.sql: GEO_CUSTOMER has a SYSIBM.ST_POINT column.
    const ddl = 'CREATE TABLE GEO (ID INT NOT NULL PRIMARY KEY, SHAPE SYSIBM.ST_POINT, NAME VARCHAR(254)) NOT LOGGED INITIALLY;\n';
    const load = 'INSERT INTO GEO (ID, SHAPE, NAME) SELECT ID, ST_POINTFROMTEXT(WKT, 1005), NAME FROM GEO_TEMP;\nCOMMIT;\n';
    const [spatial] = findings({ 'load.sql': ddl + load }, RULE);
    assert.match(spatial.message, /LOAD is no alternative here \(column SHAPE is of the spatial type ST_POINT, a structured type, and the load utility does not fill tables with structured type columns\); if you keep NLI, back up afterwards\./);
    assert.doesNotMatch(spatial.message, /Prefer LOAD/);
    const [plain] = findings({ 'load.sql': ddl.replace('SYSIBM.ST_POINT', 'VARCHAR(256)') + load.replace('ST_POINTFROMTEXT(WKT, 1005)', 'WKT') }, RULE);
    assert.match(plain.message, /Prefer LOAD FROM a cursor \(test 9: 12\.9 s\)/);
    // Under autocommit (information), and on ACTIVATE: the same.
    const [autocommitted] = findings({ 'schema.sql': ddl, 'load.sql': 'INSERT INTO GEO (ID) VALUES (?);\n' }, RULE);
    assert.match(autocommitted.message, /LOAD cannot fill GEO \(column SHAPE is of the spatial type ST_POINT/);
    const [activate] = findings({ 'schema.sql': ddl.replace(' NOT LOGGED INITIALLY', ''), 'load.sql': 'ALTER TABLE GEO ACTIVATE NOT LOGGED INITIALLY;\n' + load }, RULE);
    assert.match(activate.message, /LOAD is no alternative here \(column SHAPE is of the spatial type ST_POINT/);
  });
});
