import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings } from '../helpers/rule-tester';
import { brief, lintCode, posOf } from '../code/helpers';

const RULE = 'prefer-parameter-markers';
const SEED = [
  "INSERT INTO REGION VALUES ('UK', 'United Kingdom');",
  "INSERT INTO REGION VALUES ('US', 'United States');",
  "INSERT INTO REGION VALUES ('NL', 'Netherlands');",
  '',
].join('\n');

describe(`rule ${RULE}`, () => {
  it('scripts: reports repeated literal single-row inserts into one table, once, on the first VALUES', () => {
    expectFindings({ 'seed.sql': SEED }, RULE, [{ line: 1, column: 20, severity: 'warning', message: /^3 single-row INSERTs into REGION with literal values in this script\..*Db2 INSERT tips, tests 1-2.*180\.6 s.*92\.1 s/ }]);
  });

  it('scripts: below the threshold, with markers or multi-row VALUES there is nothing to report', () => {
    expectNoFindings({ 'seed.sql': SEED.split('\n').slice(0, 2).join('\n') }, RULE);
    expectNoFindings({ 'load.sql': 'INSERT INTO T VALUES (?, ?);\nINSERT INTO T VALUES (?, ?);\nINSERT INTO T VALUES (?, ?);\n' }, RULE);
    expectNoFindings({ 'load.sql': "INSERT INTO REGION VALUES ('UK', 'x'), ('US', 'y'), ('NL', 'z');\n" }, RULE);
    expectNoFindings({ 'seed.sql': SEED }, RULE, { config: { rules: { [RULE]: ['warning', { minRepeats: 4 }] } } });
  });

  it('code: reports spliced VALUES and says both the compile cost and the injection risk', async () => {
    const js = "const ibmdb = require('ibm_db');\nconn.querySync(\"INSERT INTO T (A, B) VALUES ('\" + a + \"', \" + b + \")\");\n";
    const { findings } = await lintCode({ 'a.js': js });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(js, 'conn.querySync')}`]);
    assert.match(findings[0].message, /^Values spliced into INSERT INTO T through string concatenation: a, b\. .*SQL-injection risk \(Db2 INSERT tips, tests 1-2/);
  });

  it('code: a spliced table name or a constant is not a spliced value', async () => {
    const java = `class A {
    static final String STATUS = "N";
    void run(Statement st, String table) throws Exception {
        st.executeUpdate("INSERT INTO " + table + " (A, S) VALUES (1, '" + STATUS + "')");
    }
}
`;
    const { findings, models } = await lintCode({ 'A.java': java });
    assert.equal(models.get('A.java')!.code!.executions[0].splicedValues.length, 1);
    assert.deepEqual(brief(findings, [RULE]), []);
  });

  it('code: a constant of another class (UPPER_CASE) is the same text every time, not a row value', async () => {
    const java = `class C { void run(Statement st, Row r) throws Exception {
        st.executeUpdate("INSERT INTO T (A, S) VALUES (" + r.a + ", " + Status.ACTIVE + ")");
    } }
`;
    const { findings } = await lintCode({ 'C.java': java });
    assert.deepEqual(brief(findings, [RULE]), [`${RULE}@${posOf(java, 'st.executeUpdate')}`]);
    assert.match(findings.find((f) => f.rule === RULE)!.message, /through string concatenation: r\.a\. /);
  });
});
