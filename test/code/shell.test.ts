import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';

describe('code: shell scripts driving the db2 CLP', () => {
  it('db2 "INSERT …" per line of a while-read loop, autocommit on, db2 commit per row', async () => {
    const sh = `#!/bin/bash
set -e
db2 connect to SALESDB
while IFS=, read -r id name; do
  db2 "INSERT INTO SALES.CUSTOMER (ID, NAME) VALUES ($id, '$name')"
  db2 commit
done < customers.csv
db2 connect reset
`;
    const { findings, models } = await lintCode({ 'load.sh': sh });
    const [exec] = models.get('load.sh')!.code!.executions;
    assert.equal(exec.api, 'clp');
    assert.equal(exec.connection?.autocommit, 'on');
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `no-autocommit@${posOf(sh, 'db2 "INSERT')}`,
      `prefer-parameter-markers@${posOf(sh, 'db2 "INSERT')}`,
      `single-row-insert@${posOf(sh, 'db2 "INSERT')}`,
      `commit-per-row@${posOf(sh, 'db2 commit')}`,
    ]);
    assert.match(findings.find((f) => f.rule === 'prefer-parameter-markers')!.message, /^Values spliced into INSERT INTO SALES\.CUSTOMER run by the db2 command: \$id, \$name\. .*IMPORT or LOAD/);
    assert.match(findings.find((f) => f.rule === 'no-autocommit')!.message, /^Autocommit is on for the db2 command line processor/);
  });

  it('UPDATE COMMAND OPTIONS USING C OFF and a modulo-guarded commit are respected', async () => {
    const sh = `#!/bin/sh
db2 connect to SALESDB
db2 "UPDATE COMMAND OPTIONS USING C OFF"
i=0
for f in data/*.del; do
  db2 "IMPORT FROM $f OF DEL INSERT INTO SALES.ORDERS"
  i=$((i + 1))
  if [ $((i % 100)) -eq 0 ]; then db2 commit; fi
done
db2 commit
`;
    const { findings } = await lintCode({ 'ok.sh': sh });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('db2 +c turns autocommit off for that command; a variable holds the statement', async () => {
    const sh = `#!/bin/ksh
for i in $(seq 1 500); do
  stmt="INSERT INTO T (A) VALUES ($i)"
  db2 +c "$stmt"
done
db2 commit
`;
    const { findings } = await lintCode({ 'plus-c.ksh': sh });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prefer-parameter-markers@${posOf(sh, 'db2 +c')}`,
      `single-row-insert@${posOf(sh, 'db2 +c')}`,
    ]);
  });

  it('here-documents fed to db2: in a loop like a call per row, outside loops like a CLP script', async () => {
    const sh = [
      '#!/bin/bash',
      'for id in $(cat ids.txt); do',
      '  db2 -tv <<EOF',
      "INSERT INTO APP.EVENTS (ID) VALUES ($id);",
      'COMMIT;',
      'EOF',
      'done',
      "db2 -tv <<'SQL'",
      "INSERT INTO APP.REGION VALUES ('UK', 'United Kingdom');",
      "INSERT INTO APP.REGION VALUES ('US', 'United States');",
      "INSERT INTO APP.REGION VALUES ('NL', 'Netherlands');",
      'SQL',
      '',
    ].join('\n');
    const { findings } = await lintCode({ 'seed.sh': sh });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `no-autocommit@${posOf(sh, 'db2 -tv <<EOF')}`,
      `prefer-parameter-markers@${posOf(sh, 'db2 -tv <<EOF')}`,
      `single-row-insert@${posOf(sh, 'db2 -tv <<EOF')}`,
      `commit-per-row@${posOf(sh, 'COMMIT;')}`,
      // The script-run findings: one per run, on its 3rd INSERT (rules/support/runs.ts).
      `no-autocommit@${posOf(sh, "INSERT INTO APP.REGION", 3)}`,
      `prefer-parameter-markers@${posOf(sh, "INSERT INTO APP.REGION", 3)}`,
      `single-row-insert@${posOf(sh, "INSERT INTO APP.REGION", 3)}`,
    ]);
  });

  it('a file the loop writes and runs with db2 -tvf (echo, printf, cat <<EOF) is a call per row; other files are not read', async () => {
    const sh = [
      '#!/bin/bash',
      'while IFS=, read -r id vec; do',
      '  sql="INSERT INTO APP.VEC (ID, V) VALUES ($id, VECTOR($vec, 768, FLOAT32));"',
      '  echo $sql>temp.sql',
      '  db2 -tvf temp.sql',
      '  printf "%s\\n" "$sql" > t2.sql',
      '  db2 +c -tvf t2.sql',
      '  cat > t3.sql <<EOF',
      'INSERT INTO APP.VEC (ID) VALUES ($id);',
      'EOF',
      '  db2 -tvf t3.sql',
      '  db2 -tvf other.sql',
      '  echo "$sql" >> grows.sql',
      '  db2 -tvf grows.sql',
      'done < vectors.csv',
      '',
    ].join('\n');
    const { findings } = await lintCode({ 'load.sh': sh });
    const at = (needle: string) => posOf(sh, needle);
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `no-autocommit@${at('db2 -tvf temp.sql')}`,
      `prefer-parameter-markers@${at('db2 -tvf temp.sql')}`,
      `single-row-insert@${at('db2 -tvf temp.sql')}`,
      // (each rule reports the loop once: no-autocommit and single-row-insert say how many such calls it makes,
      // prefer-parameter-markers spans them, first to last)
    ]);
    assert.deepEqual(findings.find((f) => f.rule === 'prefer-parameter-markers')!.extentLines, { line: 5, endLine: 11 });
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /The loop makes 3 such calls into it\./);
    assert.match(findings.find((f) => f.rule === 'prefer-parameter-markers')!.message, /run by the db2 command: \$id, \$vec\./);
  });

  it('db2 +c with a here-document of multi-row inserts and one COMMIT is clean', async () => {
    const sh = "#!/bin/sh\ndb2 +c -tv <<'SQL'\nINSERT INTO APP.REGION VALUES ('UK', 'United Kingdom'), ('US', 'United States');\nCOMMIT;\nSQL\n";
    const { findings } = await lintCode({ 'ok.sh': sh });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });
});
