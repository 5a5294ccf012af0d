// One small Db2 loader per grammar, read once when the grammar loads (frontend.ts): V8 compiles the wasm
// functions the grammar's parse runs and the front end's JavaScript (access check, walk, adapter, model,
// SQL of a call) then, as part of the load the `--timings` "(grammar load)" row reports, rather than
// inside the time of the first file of that language.
import type { FileLanguage } from '../engine/types';
import type { GrammarName } from './wasm';

export interface WarmUpFile {
  path: string;
  language: FileLanguage;
  text: string;
}

const JS = `const ibmdb = require('ibm_db');
// Loads rows one at a time.
async function load(rows) {
  const conn = await ibmdb.open(process.env.DSN);
  const stmt = conn.prepareSync('INSERT INTO APP.T (A, B) VALUES (?, ?)');
  for (const row of rows) {
    if (row.a) stmt.executeSync([row.a, \`b\${row.b}\`]);
  }
  conn.querySync("INSERT INTO APP.LOG VALUES ('" + rows.length + "')");
  conn.commitTransactionSync();
}
module.exports = { load };
`;

const C = `#include <sqlcli1.h>
/* Inserts n rows. */
int load(SQLHDBC hdbc, int n) {
  SQLHSTMT hstmt;
  char sql[200];
  SQLAllocHandle(SQL_HANDLE_STMT, hdbc, &hstmt);
  SQLPrepare(hstmt, (SQLCHAR *)"INSERT INTO APP.T (A) VALUES (?)", SQL_NTS);
  for (int i = 0; i < n; i++) {
    if (i > 0) SQLExecute(hstmt);
  }
  sprintf(sql, "INSERT INTO APP.LOG VALUES (%d)", n);
  SQLExecDirect(hstmt, (SQLCHAR *)sql, SQL_NTS);
  SQLEndTran(SQL_HANDLE_DBC, hdbc, SQL_COMMIT);
  return 0;
}
`;

export const WARM_UP_FILES: Record<GrammarName, WarmUpFile> = {
  java: {
    path: 'warm-up/Load.java',
    language: 'java',
    text: `import java.sql.*;
/** Loads rows one at a time. */
class Load {
  void load(Connection conn, java.util.List<String> rows) throws SQLException {
    conn.setAutoCommit(false);
    PreparedStatement ps = conn.prepareStatement("INSERT INTO APP.T (A, B) " + "VALUES (?, ?)");
    for (String row : rows) {
      if (row != null) { ps.setString(1, row); ps.executeUpdate(); }
    }
    Statement st = conn.createStatement();
    st.executeUpdate("INSERT INTO APP.LOG VALUES ('" + rows.size() + "')");
    conn.commit();
  }
}
`,
  },
  python: {
    path: 'warm-up/load.py',
    language: 'python',
    text: `import ibm_db_dbi
# Loads rows one at a time.
def load(rows):
    conn = ibm_db_dbi.connect("DSN")
    cur = conn.cursor()
    for a, b in rows:
        if a:
            cur.execute("INSERT INTO APP.T (A, B) VALUES (?, ?)", (a, b))
    cur.execute(f"INSERT INTO APP.LOG VALUES ('{len(rows)}')")
    cur.execute("INSERT INTO APP.LOG VALUES (%s)" % len(rows))
    conn.commit()
`,
  },
  javascript: { path: 'warm-up/load.js', language: 'javascript', text: JS },
  typescript: { path: 'warm-up/load.ts', language: 'typescript', text: JS },
  tsx: { path: 'warm-up/load.tsx', language: 'typescript', text: JS },
  c: { path: 'warm-up/load.c', language: 'c', text: C },
  cpp: { path: 'warm-up/load.cpp', language: 'cpp', text: C },
  bash: {
    path: 'warm-up/load.sh',
    language: 'shell',
    text: `#!/bin/sh
# Loads rows one at a time.
db2 connect to "$DB"
for i in 1 2 3; do
  if [ -n "$i" ]; then db2 +c "INSERT INTO APP.T VALUES ($i)"; fi
done
db2 -tv <<EOF
INSERT INTO APP.LOG VALUES ('done');
COMMIT;
EOF
`,
  },
};
