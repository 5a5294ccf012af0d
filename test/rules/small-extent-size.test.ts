import * as assert from 'node:assert/strict';
import { applyFix, expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'small-extent-size';
const SMS = "CREATE TABLESPACE DATA_TS MANAGED BY SYSTEM USING ('/db2/data')\n  EXTENTSIZE 8;\n";
const TABLE = 'CREATE TABLE T (A INT) IN DATA_TS;\n';
const LOAD = 'INSERT INTO T VALUES (?);\n';

describe(`rule ${RULE}`, () => {
  it('reports EXTENTSIZE below 32 on SMS and fixes it to 32', () => {
    const files = { 'schema.sql': SMS + TABLE, 'load.sql': LOAD };
    expectFindings(files, RULE, [
      { file: 'schema.sql', line: 2, column: 3, endLine: 2, endColumn: 15, severity: 'information', message: /^EXTENTSIZE 8 on SMS table space DATA_TS \(holding insert target T\)\. .*34\.6 s with 8/ },
    ]);
    assert.equal(applyFix(files, RULE), SMS.replace('EXTENTSIZE 8', 'EXTENTSIZE 32') + TABLE);
  });

  it('honours minExtentSize, and ignores DMS, 32-page extents and table spaces without insert targets', () => {
    expectNoFindings({ 'schema.sql': SMS + TABLE, 'load.sql': LOAD }, RULE, { config: { rules: { [RULE]: ['information', { minExtentSize: 8 }] } } });
    expectNoFindings({ 'schema.sql': SMS.replace('SYSTEM', 'DATABASE') + TABLE, 'load.sql': LOAD }, RULE);
    expectNoFindings({ 'schema.sql': SMS.replace('EXTENTSIZE 8', 'EXTENTSIZE 32') + TABLE, 'load.sql': LOAD }, RULE);
    expectNoFindings({ 'schema.sql': SMS + TABLE }, RULE);
  });
});
