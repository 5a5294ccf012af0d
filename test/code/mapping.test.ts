// SQL-rule findings inside host strings land on the exact file characters, across lines and escapes.
import * as assert from 'node:assert/strict';
import { lintCode, posOf } from './helpers';

describe('code: positions of SQL findings inside host strings', () => {
  it('Python triple-quoted string: the unexpected token on the second line of the string', async () => {
    const py = 'import ibm_db\ndef f(conn):\n    ibm_db.exec_immediate(conn, """INSERT INTO T (A, B)\n        VALUES (1,, 2)""")\n';
    const { findings } = await lintCode({ 'f.py': py });
    const pe = findings.filter((f) => f.rule === 'parse-error');
    assert.deepEqual(pe.map((f) => `${f.line}:${f.column}`), [posOf(py, ',,').replace(/:(\d+)$/, (_, c) => `:${Number(c) + 1}`)]);
  });

  it('JavaScript string with \\n and \\t escapes: offsets account for the two-character escapes', async () => {
    const js = "const ibmdb = require('ibm_db');\nconn.querySync(\"INSERT INTO T (A, B)\\n\\tVALUES (1,, 2)\");\n";
    const { findings } = await lintCode({ 'f.js': js });
    const pe = findings.filter((f) => f.rule === 'parse-error');
    assert.equal(pe.length, 1);
    assert.equal(`${pe[0].line}:${pe[0].column}`, posOf(js, ',,').replace(/:(\d+)$/, (_, c) => `:${Number(c) + 1}`));
  });

  it('Java concatenation over three lines: the token after a line break in the host code', async () => {
    const java = 'class A { void f(Statement st) throws Exception {\n    st.executeUpdate("INSERT INTO T (A, B) "\n        + "VALUES (1, "\n        + ", 2)");\n} }\n';
    const { findings } = await lintCode({ 'A.java': java });
    const pe = findings.filter((f) => f.rule === 'parse-error');
    assert.equal(pe.length, 1);
    assert.equal(`${pe[0].line}:${pe[0].column}`, posOf(java, ', 2)'));
  });

  it('C adjacent literals and a shell single-quoted string', async () => {
    const c = 'void f(SQLHSTMT h) {\n  SQLExecDirect(h, (SQLCHAR *)"INSERT INTO T (A, B) "\n                             "VALUES (1,, 2)", SQL_NTS);\n}\n';
    const sh = "#!/bin/sh\ndb2 'INSERT INTO T (A, B) VALUES (1,, 2)'\n";
    const { findings } = await lintCode({ 'f.c': c, 'f.sh': sh });
    const pe = findings.filter((f) => f.rule === 'parse-error').map((f) => `${f.file}@${f.line}:${f.column}`);
    const next = (text: string) => posOf(text, ',,').replace(/:(\d+)$/, (_, col) => `:${Number(col) + 1}`);
    assert.deepEqual(pe, [`f.c@${next(c)}`, `f.sh@${next(sh)}`]);
  });
});
