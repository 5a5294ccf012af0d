// `insertlint-disable-line` (ESLint's trailing form) in the comment syntax of every host language: it silences
// the findings that start on the comment's own line, and is reported when it silences nothing there.
import * as assert from 'node:assert/strict';
import { brief, lintCode, posOf } from './helpers';

interface Case {
  file: string;
  text: string;
  /** Text on the line whose finding the trailing comment silences (the finding starts there). */
  needle: string;
  rule: string;
  /** The trailing comment, with `RULES` where the rule ids go. */
  comment: string;
  /** A line holding no finding, for the unused case (the comment appended to it). */
  clean: string;
}

const JAVA = `import java.sql.*;
class Load {
    void load(Connection conn, java.util.List<String> rows) throws SQLException {
        Statement st = conn.createStatement();
        for (String r : rows) {
            st.executeUpdate("INSERT INTO T (A) VALUES ('" + r + "')");
            conn.commit();
        }
    }
}
`;

const PYTHON = `import ibm_db
conn = ibm_db.connect("DATABASE=D", "", "")
for row in rows:
    ibm_db.exec_immediate(conn, "INSERT INTO T (A) VALUES ('%s')" % row)
    ibm_db.commit(conn)
`;

const JS = `const ibmdb = require('ibm_db');
function load(conn, rows) {
  for (const row of rows) {
    conn.querySync("INSERT INTO T (A) VALUES ('" + row + "')");
    conn.commitTransactionSync();
  }
}
`;

const C = `#include <sqlcli1.h>
int load(SQLHSTMT hstmt, int n) {
    char sql[200];
    int i;
    for (i = 0; i < n; i++) {
        sprintf(sql, "INSERT INTO T (A) VALUES (%d)", i);
        SQLExecDirect(hstmt, (SQLCHAR *)sql, SQL_NTS);
    }
    return 0;
}
`;

const SQC = `EXEC SQL INCLUDE SQLCA;
EXEC SQL BEGIN DECLARE SECTION;
  sqlint32 id;
EXEC SQL END DECLARE SECTION;
int load(FILE *in)
{
    while (read_row(in, &id)) {
        EXEC SQL INSERT INTO T (A) VALUES (:id);
        EXEC SQL COMMIT;
    }
    return 0;
}
`;

const SHELL = `db2 connect to SALESDB
while IFS=, read -r id; do
  db2 "INSERT INTO T (A) VALUES ($id)"
done < ids.csv
db2 connect reset
`;

const COBOL_FREE = `IDENTIFICATION DIVISION.
PROGRAM-ID. TESTPGM.
PROCEDURE DIVISION.
MAIN-PARA.
    PERFORM UNTIL WS-EOF = 'Y'
        EXEC SQL INSERT INTO T VALUES (:WS-A) END-EXEC
    END-PERFORM.
    STOP RUN.
`;

const CASES: Case[] = [
  { file: 'Load.java', text: JAVA, needle: 'conn.commit()', rule: 'commit-per-row', comment: ' // insertlint-disable-line RULES', clean: 'Statement st' },
  { file: 'Load2.java', text: JAVA, needle: 'conn.commit()', rule: 'commit-per-row', comment: ' /* insertlint-disable-line RULES */', clean: 'Statement st' },
  { file: 'load.py', text: PYTHON, needle: 'ibm_db.commit', rule: 'commit-per-row', comment: '  # insertlint-disable-line RULES', clean: 'conn = ibm_db' },
  { file: 'load.js', text: JS, needle: 'conn.commitTransactionSync', rule: 'commit-per-row', comment: ' // insertlint-disable-line RULES', clean: 'function load' },
  { file: 'load.c', text: C, needle: 'SQLExecDirect', rule: 'single-row-insert', comment: ' // insertlint-disable-line RULES', clean: 'char sql' },
  { file: 'load.sqc', text: SQC, needle: 'EXEC SQL INSERT', rule: 'single-row-insert', comment: ' /* insertlint-disable-line RULES */', clean: 'int load' },
  { file: 'load.sh', text: SHELL, needle: 'db2 "INSERT', rule: 'single-row-insert', comment: ' # insertlint-disable-line RULES', clean: 'while IFS' },
  { file: 'P.cbl', text: COBOL_FREE, needle: 'EXEC SQL INSERT', rule: 'single-row-insert', comment: ' *> insertlint-disable-line RULES', clean: 'MAIN-PARA.' },
];

/** `text` with `comment` appended to the line holding `needle`. */
function appendToLine(text: string, needle: string, comment: string): string {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const end = text.indexOf('\n', at);
  return text.slice(0, end) + comment + text.slice(end);
}

describe('insertlint-disable-line in host-language comments', () => {
  for (const c of CASES) {
    it(`${c.file}: ${c.comment.trim().replace('RULES', c.rule)} silences its own line, and is reported where it silences nothing`, async () => {
      const at = posOf(c.text, c.needle);
      const before = brief((await lintCode({ [c.file]: c.text })).findings);
      assert.ok(before.includes(`${c.rule}@${at}`), `no ${c.rule} at ${at} to silence: ${before.join(' ')}`);

      const silenced = appendToLine(c.text, c.needle, c.comment.replace('RULES', c.rule));
      const after = brief((await lintCode({ [c.file]: silenced })).findings);
      assert.deepEqual(after, before.filter((f) => f !== `${c.rule}@${at}`), 'only that finding goes, and nothing is reported unused');

      const misplaced = appendToLine(c.text, c.clean, c.comment.replace('RULES', c.rule));
      const { findings } = await lintCode({ [c.file]: misplaced });
      const unused = findings.filter((f) => f.rule === 'unused-suppression');
      assert.deepEqual(
        unused.map((f) => [`${f.line}:${f.column}`, f.message]),
        [[posOf(misplaced, c.comment.trimStart().replace('RULES', c.rule)), 'This insertlint-disable-line comment matches no finding on its own line; remove it.']],
      );
      assert.ok(findings.some((f) => f.rule === c.rule), 'the finding stays');
    });
  }

  it('fixed-format COBOL: a *> comment in the code area of the EXEC SQL line', async () => {
    // Sequence numbers in columns 1-6, the indicator in 7, code in 8-72, a tag in 73-80.
    const fixed = (lines: string[]) => lines.map((l, i) => `${String((i + 1) * 100).padStart(6, '0')}${l.padEnd(66)}PROGTAG1`).join('\n') + '\n';
    const program = (execLine: string) =>
      fixed([' IDENTIFICATION DIVISION.', ' PROGRAM-ID. TESTPGM.', ' PROCEDURE DIVISION.', ' MAIN-PARA.', "     PERFORM UNTIL WS-EOF = 'Y'", execLine, '         INSERT INTO T VALUES (:WS-A) END-EXEC', '     END-PERFORM.']);
    assert.deepEqual(brief((await lintCode({ 'P.cbl': program('        EXEC SQL') })).findings, ['single-row-insert']), ['single-row-insert@6:15']);
    const { findings } = await lintCode({ 'P.cbl': program('        EXEC SQL *> insertlint-disable-line single-row-insert') });
    assert.deepEqual(brief(findings, ['single-row-insert', 'unused-suppression']), []);
  });
});
