// INSERTs inside SQL routines reach the rules as code analysis's do: the SQL PL front end (sql/sqlpl-code-model.ts)
// gives their executions, loops and commits in the CodeModel shape, and the schema counts routine INSERTs
// as insert targets (in loops: bulk). Everything through the real engine, as the CLI and the server run it.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findings, lint, lintWorkspace } from '../helpers/rule-tester';
import { runCli } from '../ci/repo';

const TABLE = 'CREATE TABLE app.events (id INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), payload CLOB(1M), ts TIMESTAMP);\n';

/** The issue's case: a procedure loops INSERT + COMMIT into a table with a NO CACHE identity and a CLOB. */
const LOADER = `CREATE PROCEDURE app.load_events ()
LANGUAGE SQL
BEGIN
  FOR r AS SELECT payload FROM app.staging DO
    INSERT INTO app.events (payload, ts) VALUES (r.payload, CURRENT TIMESTAMP);
    COMMIT;
  END FOR;
END;
`;

const rulesAt = (fs: { rule: string; line: number }[]) => fs.map((f) => `${f.rule}@${f.line}`).sort();

describe('routines: INSERTs inside procedures and blocks reach the rules', () => {
  it('names a LOOP statement "the LOOP", with its line, as the host languages name theirs', () => {
    const proc = ['CREATE PROCEDURE APP.FILL ()', 'LANGUAGE SQL', 'BEGIN', '  DECLARE N INT DEFAULT 0;', '  L1: LOOP', '    INSERT INTO APP.T VALUES (N);', '    SET N = N + 1;', '    IF N > 1000 THEN LEAVE L1; END IF;', '  END LOOP L1;', 'END@', ''].join('\n');
    const [finding] = findings({ 'fill.db2': proc }, 'single-row-insert');
    assert.match(finding.message, /on every pass of the LOOP at line 5: /);
  });

  it('a procedure that loops INSERT + COMMIT gets what the same INSERT gets at top level, and the loop findings', () => {
    const found = lint({ 'schema.sql': TABLE, 'load.sql': LOADER }, { config: { extends: 'insertlint:all' }, unmerged: true });
    assert.deepEqual(
      rulesAt(found.filter((f) => ['identity-cache', 'lob-column', 'insert-target-cost', 'single-row-insert', 'commit-per-row'].includes(f.rule))),
      ['commit-per-row@6', 'identity-cache@1', 'insert-target-cost@5', 'lob-column@1', 'single-row-insert@5'],
    );
    const [single] = findings({ 'schema.sql': TABLE, 'load.sql': LOADER }, 'single-row-insert');
    assert.match(single.message, /^One single-row INSERT INTO APP\.EVENTS on every pass of the FOR loop at line 4: .*INSERT … SELECT.*test 6/);
    const [commit] = findings({ 'schema.sql': TABLE, 'load.sql': LOADER }, 'commit-per-row');
    assert.match(commit.message, /every pass of the FOR loop.*IF MOD\(n, 1000\) = 0 THEN COMMIT/);
  });

  it('a routine INSERT in a loop makes its table a bulk target (schema rules on the DDL)', () => {
    const { workspace } = lintWorkspace({ 'schema.sql': TABLE, 'load.sql': LOADER });
    const target = workspace.schema.insertTargets.get('APP.EVENTS');
    assert.ok(target);
    assert.deepEqual(target.bulkReasons, ['inserted inside a loop']);
    assert.equal(findings({ 'schema.sql': TABLE, 'load.sql': LOADER }, 'append-mode-off').length, 1);
  });

  it('an OPEN/FETCH loop that inserts is a row-by-row loop; a commit inside IF MOD(…) is not per row', () => {
    const text = `CREATE PROCEDURE p ()
BEGIN
  DECLARE v_id INT;
  DECLARE n INT DEFAULT 0;
  DECLARE done INT DEFAULT 0;
  DECLARE c1 CURSOR FOR SELECT id FROM app.staging;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  OPEN c1;
  fetch_loop: LOOP
    FETCH c1 INTO v_id;
    IF done = 1 THEN LEAVE fetch_loop; END IF;
    INSERT INTO app.orders (id) VALUES (v_id);
    SET n = n + 1;
    IF MOD(n, 1000) = 0 THEN COMMIT; END IF;
  END LOOP;
  CLOSE c1;
  COMMIT;
END@
`;
    const found = lint({ 'p.db2': text });
    assert.deepEqual(rulesAt(found.filter((f) => f.rule === 'single-row-insert' || f.rule === 'commit-per-row')), ['single-row-insert@12']);
  });

  it('a loop over chunks (INSERT … SELECT a month at a time, catalog rows, utilities) is quiet about its log row and commit', () => {
    const text = `BEGIN
  DECLARE d DATE DEFAULT '2024-01-01';
  WHILE d < '2025-01-01' DO
    INSERT INTO app.sales_new SELECT * FROM app.sales WHERE day >= d AND day < d + 1 MONTH;
    INSERT INTO app.copy_log VALUES (d, CURRENT TIMESTAMP);
    COMMIT;
    SET d = d + 1 MONTH;
  END WHILE;
  FOR t AS SELECT tabschema, tabname FROM syscat.tables WHERE tabschema = 'APP' DO
    CALL SYSPROC.ADMIN_CMD('REORG TABLE ' || t.tabname);
    INSERT INTO app.reorg_log VALUES (t.tabname);
    COMMIT;
  END FOR;
END@
`;
    const found = lint({ 'chunks.db2': text });
    assert.deepEqual(rulesAt(found.filter((f) => ['single-row-insert', 'commit-per-row'].includes(f.rule))), []);
    const { workspace } = lintWorkspace({ 'chunks.db2': text });
    assert.deepEqual(workspace.schema.insertTargets.get('APP.COPY_LOG')?.bulkReasons, []);
    assert.deepEqual(workspace.schema.insertTargets.get('APP.SALES_NEW')?.bulkReasons, ['INSERT … SELECT']);
  });

  it('EXECUTE IMMEDIATE of an INSERT with spliced values: parameter markers and the injection risk', () => {
    const text = `CREATE PROCEDURE app.add_order (IN p_id INT, IN p_note VARCHAR(100))
BEGIN
  EXECUTE IMMEDIATE 'INSERT INTO app.orders (id, note) VALUES (' || CHAR(p_id) || ', ''' || p_note || ''')';
END@
`;
    const [finding] = findings({ 'add.db2': text }, 'prefer-parameter-markers');
    assert.ok(finding, 'a finding');
    assert.match(finding.message, /^Values spliced into INSERT INTO APP\.ORDERS through string concatenation: 2 values\..*SQL-injection risk.*PREPARE the INSERT once/);
    assert.deepEqual([finding.line, finding.column], [3, 3]); // on the EXECUTE IMMEDIATE that runs it
  });

  it("a routine's static literal INSERTs are compiled with it: row at a time in a loop, not parameter markers", () => {
    // tbrowcompress.db2 (IBM's samples) fills test data this way; the block is xmlindgtt.db2's shape.
    const text = `CREATE PROCEDURE insertdata (IN size INT)
LANGUAGE SQL
BEGIN
  DECLARE count INTEGER DEFAULT 0;
  WHILE (count < size) DO
    INSERT INTO app.temp VALUES (100, 20000);
    INSERT INTO app.temp VALUES (200, 30000);
    SET count = count + 1;
  END WHILE;
END@
BEGIN ATOMIC
  INSERT INTO app.gtt VALUES (1, 'a');
  INSERT INTO app.gtt VALUES (2, 'b');
  INSERT INTO app.gtt VALUES (3, 'c');
END@
CREATE PROCEDURE dyn ()
BEGIN
  DECLARE i INT DEFAULT 0;
  WHILE i < 100 DO
    EXECUTE IMMEDIATE 'INSERT INTO app.log VALUES (1)';
    SET i = i + 1;
  END WHILE;
END@
`;
    const found = lint({ 'fill.db2': text }, { unmerged: true });
    // The loop's two INSERTs into one table are one finding, on the first, which counts them.
    assert.deepEqual(rulesAt(found.filter((f) => ['prefer-parameter-markers', 'single-row-insert'].includes(f.rule))), ['prefer-parameter-markers@20', 'single-row-insert@20', 'single-row-insert@6']);
    const single = found.find((f) => f.rule === 'single-row-insert' && f.line === 6)!;
    assert.match(single.message, /every pass of the WHILE loop at line 5: the routine runs the statement once per row\. Its body holds 2 such INSERTs into it: 2 statements, one row each, on every pass\. .*recursive common table expression/);
  });

  it('tells how to fold a routine loop by where its rows come from: the FOR query, the cursor fetched, or rows made up', () => {
    const text = `CREATE PROCEDURE copy_for ()
BEGIN
  FOR r AS SELECT id, name FROM app.src DO
    INSERT INTO app.dst VALUES (r.id, UPPER(r.name));
  END FOR;
END@
CREATE PROCEDURE copy_cursor ()
BEGIN
  DECLARE v_id INT;
  DECLARE at_end INT DEFAULT 0;
  DECLARE c1 CURSOR FOR SELECT id FROM app.src;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET at_end = 1;
  OPEN c1;
  fetch_loop: LOOP
    FETCH c1 INTO v_id;
    IF at_end = 1 THEN LEAVE fetch_loop; END IF;
    INSERT INTO app.dst2 VALUES (v_id, 'x');
  END LOOP;
  CLOSE c1;
END@
CREATE PROCEDURE fill (IN n INT)
BEGIN
  DECLARE i INT DEFAULT 0;
  WHILE i < n DO
    INSERT INTO app.dst3 VALUES (i, 'made');
    SET i = i + 1;
  END WHILE;
END@
`;
    const found = findings({ 'fold.db2': text }, 'single-row-insert');
    assert.deepEqual(found.map((f) => f.line), [4, 17, 25]);
    // The fold comes after the figures (test 68's sentence).
    const advice = found.map((f) => f.message.slice(f.message.indexOf('(test 68')));
    assert.match(advice[0], /Replace the loop with one INSERT … SELECT over the FOR loop's query, with the values the body computes written as expressions of its columns\.$/);
    assert.match(advice[1], /over the query of cursor C1 \(its DECLARE … CURSOR FOR\), with the values the body computes written as expressions of its columns\.$/);
    // Where the cursor's query is written: a PREPAREd text (xquery_xmlproc.db2's CUR_XQ3), a cursor variable's SET (modules.db2).
    const foldOf = (t: string) => findings({ 'fold.db2': t }, 'single-row-insert').find((f) => /cursor C1/.test(f.message))!.message;
    const dynamic = text.replace('  DECLARE c1 CURSOR FOR SELECT id FROM app.src;', "  DECLARE c1 CURSOR FOR s1;").replace('  OPEN c1;', "  PREPARE s1 FROM 'SELECT id FROM app.src';\n  OPEN c1;");
    assert.match(foldOf(dynamic), /over the query of cursor C1 \(the text PREPAREd as S1, written out as SQL\)/);
    const variable = text.replace('  DECLARE c1 CURSOR FOR SELECT id FROM app.src;', '  DECLARE c1 CURSOR;').replace('  OPEN c1;', '  SET c1 = CURSOR FOR SELECT id FROM app.src;\n  OPEN c1;');
    assert.match(foldOf(variable), /over the query of cursor C1 \(its SET … = CURSOR FOR\)/);
    assert.doesNotMatch(advice[1], /recursive common table expression/);
    assert.match(advice[2], /The loop makes its rows itself .* recursive common table expression/);
    assert.doesNotMatch(advice[2], /cursor|FOR loop's query/);
    // A lookup per pass (SELECT … INTO, modules.db2's customer_details) is a join in the one INSERT … SELECT.
    const lookup = text.replace("    INSERT INTO app.dst2 VALUES (v_id, 'x');", "    SELECT name INTO v_name FROM app.customers WHERE id = v_id;\n    INSERT INTO app.dst2 VALUES (v_id, v_name);").replace('  DECLARE v_id INT;\n  DECLARE at_end', '  DECLARE v_id INT;\n  DECLARE v_name VARCHAR(20);\n  DECLARE at_end');
    assert.notEqual(lookup, text);
    const joined = findings({ 'fold.db2': lookup }, 'single-row-insert').find((f) => /cursor C1/.test(f.message))!;
    assert.match(joined.message, /written as expressions of its columns, and what it looks up per row \(SELECT … INTO\) joined in\.$/);
  });

  it('one finding for a loop whose pass inserts a row into each of several tables, on the first, spanning them all', () => {
    const text = `CREATE PROCEDURE fill2 ()
BEGIN
  FOR r AS SELECT id FROM app.src DO
    INSERT INTO app.accounts VALUES (r.id, 0);
    INSERT INTO app.profiles VALUES (r.id, 'x');
    INSERT INTO app.profiles VALUES (r.id, 'y');
  END FOR;
END@
`;
    const [finding, ...rest] = findings({ 'fill2.db2': text }, 'single-row-insert');
    assert.deepEqual(rest, []);
    assert.equal(finding.line, 4);
    assert.match(finding.message, /^A single-row INSERT into each of APP\.ACCOUNTS and APP\.PROFILES on every pass of the FOR loop at line 3: the routine runs each once per row\. Its body holds 3 such INSERTs, into 2 tables: 3 statements, one row each, on every pass\./);
  });

  it("a routine loop counted to a parameter takes its passes from the script's CALL with a literal: rows in the message, a hint under a second, information under ten", () => {
    // IBM's tbrowcompress.db2: CONNECT, a procedure whose WHILE counts to its parameter, CALL insertdata(1000).
    const proc = (table: string, inserts: number, bound = 'size') => `CREATE PROCEDURE insertdata (IN size INT)
LANGUAGE SQL
BEGIN
  DECLARE count INTEGER DEFAULT 0;
  WHILE (count < ${bound}) DO
${Array.from({ length: inserts }, (_, i) => `    INSERT INTO ${table} VALUES (${i}, 20000);`).join('\n')}
    SET count = count + 1;
  END WHILE;
END@
`;
    const single = (text: string) => findings({ 'fill.db2': text }, 'single-row-insert');
    // 1.8 s in all: information (a warning from ten seconds, below).
    const [temp] = single(proc('app.temp', 3) + 'CALL insertdata(1000)@\n');
    assert.equal(temp.severity, 'information');
    assert.match(temp.message, /on every pass\. The script's CALL INSERTDATA\(1000\) at line 12 makes 1,000 passes: 3,000 rows, about 1\.8 s more than one INSERT … SELECT at Db2 INSERT tips' rates \(tests 68 and 6\)\. Db2 INSERT tips filled/);
    // The fold counts as the loop does (its passes are known), and no number is written the way SQL cannot read it.
    assert.match(temp.message, /The loop is a counter that makes each row itself: .*WHERE i < bound\), bound being the loop's\), the values the body computes written as expressions of i\.$/);
    // Defined again (DROP PROCEDURE, CREATE again): each CALL counts for the definition before it.
    const [first, second] = single(proc('app.temp', 3) + 'CALL insertdata(1000)@\n' + proc('app.emptable', 5) + 'CALL insertdata(8000)@\n');
    assert.match(first.message, /CALL INSERTDATA\(1000\) at line 12 makes 1,000 passes: 3,000 rows, about 1\.8 s more/);
    assert.match(second.message, /CALL INSERTDATA\(8000\) at line 26 makes 8,000 passes: 40,000 rows, about 24 s more/);
    assert.deepEqual([first.severity, second.severity], ['information', 'warning']);
    // Two calls add up; 200 rows cost about 0.12 s more: a hint.
    const [two] = single(proc('app.temp', 1) + 'CALL insertdata(150)@\nCALL insertdata(50)@\n');
    assert.equal(two.severity, 'hint');
    assert.match(two.message, /The script's CALL INSERTDATA\(150\) at line 10 and CALL INSERTDATA\(50\) at line 11 make 200 passes: 200 rows, about 0\.12 s more/);
    // A step of 2: half the passes (500 rows, about 0.3 s more: a hint).
    const [halved] = single(proc('app.temp', 1).replace('SET count = count + 1;', 'SET count = count + 2;') + 'CALL insertdata(1000)@\n');
    assert.equal(halved.severity, 'hint');
    assert.match(halved.message, /CALL INSERTDATA\(1000\) at line 10 makes 500 passes: 500 rows/);
    // Ten passes or fewer: no bulk loop (as for a counting loop in code), no finding.
    assert.deepEqual(single(proc('app.temp', 1) + 'CALL insertdata(10)@\n'), []);
    // A literal bound: the loop's own count decides whether it is a bulk loop (as in code), and is not told.
    assert.deepEqual(single(proc('app.temp', 1, '10')), []);
    const [counted] = single(proc('app.temp', 1, '5000'));
    assert.equal(counted.severity, 'warning');
    assert.doesNotMatch(counted.message, /passes/);
    // Not known: a call with a marker, a call from another routine or a loop, a counter stepped in a branch, no
    // DEFAULT: no count in the message, and the finding stays a warning.
    const unknown = [
      proc('app.temp', 1) + 'CALL insertdata(?)@\n',
      proc('app.temp', 1) + 'CALL insertdata(100)@\nCREATE PROCEDURE twice () BEGIN CALL insertdata(100); END@\n',
      proc('app.temp', 1).replace('SET count = count + 1;', 'IF count < 5 THEN SET count = count + 1; END IF;') + 'CALL insertdata(1000)@\n',
      proc('app.temp', 1).replace(' DEFAULT 0', '') + 'CALL insertdata(1000)@\n',
    ];
    for (const text of unknown) {
      const [finding] = single(text);
      assert.equal(finding.severity, 'warning', text);
      assert.doesNotMatch(finding.message, /passes/, text);
    }
  });

  it('a routine loop counted up is told only when nothing but its step assigns the counter: else a warning, no count', () => {
    // tbrowcompress.db2's insertdata: 1,000 passes of 3 rows, about 1.8 s: information. Anything else that may set
    // the counter (or skip its step) leaves the passes unknown: a warning, as for any loop of unknown length.
    const proc = (parts: { handler?: string; label?: string; body?: string; after?: string } = {}) => `CREATE PROCEDURE insertdata (IN size INT)
LANGUAGE SQL
BEGIN
  DECLARE count INTEGER DEFAULT 0;
  DECLARE c1 CURSOR FOR SELECT id FROM app.src;${parts.handler ?? ''}
  again: ${parts.label ?? ''}WHILE (count < size) DO
    INSERT INTO app.temp VALUES (100, 20000);
    INSERT INTO app.temp VALUES (200, 30000);
    INSERT INTO app.temp VALUES (200, 30000);${parts.body ?? ''}
    SET count = count + 1;
  END WHILE;${parts.after ?? ''}
END@
CALL insertdata(1000)@
`;
    const single = (text: string) => findings({ 'fill.db2': text }, 'single-row-insert');
    const [told] = single(proc());
    assert.equal(told.severity, 'information');
    assert.match(told.message, /The script's CALL INSERTDATA\(1000\) at line 13 makes 1,000 passes: 3,000 rows, about 1\.8 s more/);
    // A lookup by the counter only reads it.
    const [lookup] = single(proc({ body: '\n    SELECT id INTO count2 FROM app.src WHERE id = count;' }));
    assert.equal(lookup.severity, 'information');
    const unknown = [
      proc({ body: '\n    FETCH c1 INTO count;' }),
      proc({ body: '\n    SELECT MAX(id) INTO count FROM app.src;' }),
      proc({ handler: '\n  DECLARE CONTINUE HANDLER FOR NOT FOUND SET count = 0;' }),
      proc({ body: '\n    CALL app.next_id(count);' }),
      proc({ label: 'fill: ', body: '\n    IF count > 10 THEN ITERATE fill; END IF;' }).replace('  again: ', '  '),
      proc({ after: '\n  IF count < size THEN GOTO again; END IF;' }),
    ];
    for (const text of unknown) {
      const [finding] = single(text);
      assert.equal(finding.severity, 'warning', text);
      assert.doesNotMatch(finding.message, /passes/, text);
    }
  });

  it('a routine REPEAT … UNTIL loop counting up or down is counted as the WHILE of the opposite test, with at least one pass', () => {
    const proc = (loop: string, declare = 'DECLARE count INTEGER DEFAULT 0;') => `CREATE PROCEDURE insertdata (IN size INT)
LANGUAGE SQL
BEGIN
  ${declare}
  ${loop}
END@
`;
    const repeat = (until: string, step = 'SET count = count + 1;', label = '') => `${label ? `${label}: ` : ''}REPEAT
    INSERT INTO app.temp VALUES (count, 20000);
    ${step}
  UNTIL ${until} END REPEAT${label ? ` ${label}` : ''};`;
    const single = (text: string) => findings({ 'fill.db2': text }, 'single-row-insert');
    const told = (text: string) => {
      const [finding, ...rest] = single(text);
      assert.deepEqual(rest, []);
      return finding.message.match(/make[s]? ([\d,]+) passes: ([\d,]+) rows/)?.slice(1).join(' / ');
    };
    // Up to the CALL's argument: UNTIL count >= size goes on while count < size (1,000 passes); UNTIL count > size, one more.
    assert.equal(told(proc(repeat('count >= size')) + 'CALL insertdata(1000)@\n'), '1,000 / 1,000');
    assert.equal(told(proc(repeat('(count > size)', 'SET count = count + 1;', 'fill')) + 'CALL insertdata(1000)@\n'), '1,001 / 1,001');
    assert.equal(told(proc(repeat('size <= count', 'SET count = count + 2;')) + 'CALL insertdata(1000)@\n'), '500 / 500');
    // The body runs before the test: CALL insertdata(0) makes one pass (a WHILE of the same count makes none).
    assert.equal(told(proc(repeat('count >= size')) + 'CALL insertdata(1000)@\nCALL insertdata(0)@\n'), '1,001 / 1,001');
    // Counting the parameter down: REPEAT … SET size = size - 1; UNTIL size <= 0.
    assert.equal(told(proc(repeat('size <= 0', 'SET size = size - 1;'), '') + 'CALL insertdata(1000)@\n'), '1,000 / 1,000');
    // Down from LENGTH of a CLOB(100000) parameter by 80 (db2mon's diff_log written with REPEAT): at most 1,250 passes.
    const split = `CREATE PROCEDURE app.diff_log (IN message CLOB(100000))
BEGIN
  DECLARE len INTEGER;
  SET len = LENGTH(message);
  REPEAT
    INSERT INTO app.log VALUES (SUBSTR(message, 1, 80));
    SET len = len - 80;
  UNTIL len <= 0 END REPEAT;
END@
`;
    assert.match(single(split)[0].message, /LEN is set to LENGTH\(MESSAGE\) at line 4, at most 100,000 \(parameter MESSAGE is CLOB\(100000\)\), and the loop takes 80 from it on every pass until LEN <= 0: at most 1,250 passes per call/);
    // To a literal bound: its own count decides whether it is a bulk loop (ten passes or fewer: none), and is not told.
    assert.deepEqual(single(proc(repeat('count >= 10'))), []);
    assert.deepEqual(single(proc(repeat('count >= 10'), 'DECLARE count INTEGER DEFAULT 500;')), [], 'one pass: the count is past the bound');
    const [literal] = single(proc(repeat('count >= 5000')));
    assert.equal(literal.severity, 'warning');
    assert.doesNotMatch(literal.message, /passes/);
    // Unknown shapes stay unknown: a test of equality, a step in a branch, a counter a FETCH may set. Warnings, no count.
    const unknown = [
      proc(repeat('count = size')) + 'CALL insertdata(1000)@\n',
      proc(repeat('count >= size', 'IF count < 5 THEN SET count = count + 1; END IF;')) + 'CALL insertdata(1000)@\n',
      proc(repeat('count >= size', 'SET count = count + 1;\n    FETCH c1 INTO count;')) + 'CALL insertdata(1000)@\n',
    ];
    for (const text of unknown) {
      const [finding] = single(text);
      assert.equal(finding.severity, 'warning', text);
      assert.doesNotMatch(finding.message, /passes/, text);
    }
  });

  it('a routine loop counting down from LENGTH of a CLOB(n) parameter: at most ceil(n / step) rows per call, told, and severity by that', () => {
    // IBM's db2mon_import.sql, db2mon.diff_log: a message split into rows of 80 characters, one INSERT each.
    const proc = (param: string, parts: { start?: string; step?: string; name?: string } = {}) => `CREATE PROCEDURE db2mon.${parts.name ?? 'diff_log'}( IN message ${param} )
LANGUAGE SQL
BEGIN
   DECLARE start integer;
   DECLARE len integer;
   DECLARE insert_stmt_str char(80);
   DECLARE buffer char(81);
   set start = 1;
   ${parts.start ?? 'set len = length(message);'}
   set insert_stmt_str = 'insert into db2mon.diff_log values ( ? )';
   prepare insert_stmt from insert_stmt_str;
   while len > 0 do
     set buffer = cast(substr(message,start,min(len,80)) as varchar(80)) || case when len > 80 then '-' else '' end;
     execute insert_stmt using buffer;
     set start = start + 80;
     ${parts.step ?? 'set len = len - 80;'}
   end while;
   commit work;
END@
`;
    const single = (text: string) => findings({ 'db2mon.sql': text }, 'single-row-insert');
    // 1,250 rows at most per call, about 0.75 s beyond one INSERT … SELECT: a hint.
    const [clob] = single(proc('CLOB(100000)'));
    assert.equal(clob.line, 14);
    assert.equal(clob.severity, 'hint');
    assert.match(
      clob.message,
      /^One single-row INSERT INTO DB2MON\.DIFF_LOG on every pass of the WHILE loop at line 12: the routine runs the statement once per row\. LEN is set to LENGTH\(MESSAGE\) at line 9, at most 100,000 \(parameter MESSAGE is CLOB\(100000\)\), and the loop takes 80 from it on every pass while LEN > 0: at most 1,250 passes per call, up to 1,250 rows, at most about 0\.75 s more than one INSERT … SELECT at Db2 INSERT tips' rates \(tests 68 and 6\)\. Db2 INSERT tips filled/,
    );
    // A string it splits: the general fold, not a copy of a count up to a bound.
    assert.match(clob.message, /The loop makes its rows itself \(a counter, a string it splits, values it computes\)/);
    // CLOB(1M) in rows of 80: 13,108 rows, about 7.9 s: information; in rows of 10, about 63 s: a warning.
    const [mega] = single(proc('CLOB(1M)'));
    assert.equal(mega.severity, 'information');
    assert.match(mega.message, /at most 1,048,576 \(parameter MESSAGE is CLOB\(1M\)\), .*: at most 13,108 passes per call, up to 13,108 rows, at most about 7\.9 s more/);
    const [tens] = single(proc('CLOB(1M)', { step: 'set len = len - 10;' }));
    assert.equal(tens.severity, 'warning');
    assert.match(tens.message, /takes 10 from it on every pass while LEN > 0: at most 104,858 passes per call/);
    // A VARCHAR(800) in rows of 80: ten passes, no bulk loop, no finding.
    assert.deepEqual(single(proc('VARCHAR(800)')), []);
    // From a constant: its own count decides whether it is a bulk loop, and is not told (as for a loop counted up to one).
    assert.deepEqual(single(proc('CLOB(100000)', { start: 'set len = 800;' })), []);
    const [constant] = single(proc('CLOB(100000)', { start: 'set len = 400000;' }));
    assert.equal(constant.severity, 'warning');
    assert.doesNotMatch(constant.message, /passes|at most/);
    // Not bounded: a step that is no constant, another assignment in the body, a type without a length, a routine
    // that a loop of the file calls (each call adds its rows). Warnings, no count.
    const caller = `CREATE PROCEDURE db2mon.log_all ()
BEGIN
  FOR r AS SELECT text FROM db2mon.messages DO
    CALL db2mon.diff_log(r.text);
  END FOR;
END@
`;
    const unbounded = [
      proc('CLOB(100000)', { step: 'set len = len - start;' }),
      proc('CLOB(100000)', { step: 'set len = len - 80;\n     fetch c1 into len;' }),
      proc('CLOB(100000)', { step: 'set len = len - 80;\n     if start > 800 then set len = length(message); end if;' }),
      proc('CLOB'),
      proc('CLOB(100000)') + caller,
    ];
    for (const text of unbounded) {
      const [finding] = single(text);
      assert.equal(finding.severity, 'warning', text);
      assert.doesNotMatch(finding.message, /passes|at most/, text);
    }
  });

  it("a loop over a called procedure's result set is not folded into INSERT … SELECT (no query to fold)", () => {
    // IBM's db_library compound statements keep what ADMIN_MOVE_TABLE and the like return this way.
    const text = `BEGIN
  DECLARE V_KEY VARCHAR(32);
  DECLARE V_VALUE CLOB(10M);
  DECLARE V1 RESULT_SET_LOCATOR VARYING;
  CALL SYSPROC.ADMIN_MOVE_TABLE('S', 'T', '', '', '', '', '', '', '', '', 'MOVE');
  ASSOCIATE RESULT SET LOCATOR (V1) WITH PROCEDURE SYSPROC.ADMIN_MOVE_TABLE;
  ALLOCATE C1 CURSOR FOR RESULT SET V1;
  L1: LOOP
    FETCH C1 INTO V_KEY, V_VALUE;
    IF SQLSTATE <> '00000' THEN LEAVE L1; END IF;
    INSERT INTO APP.MOVE_RESULT VALUES (V_KEY, V_VALUE);
  END LOOP;
END@
BEGIN
  DECLARE V INT;
  DECLARE C2 CURSOR FOR SELECT A FROM APP.SRC;
  OPEN C2;
  L2: LOOP
    FETCH C2 INTO V;
    IF SQLSTATE <> '00000' THEN LEAVE L2; END IF;
    INSERT INTO APP.COPY VALUES (V);
  END LOOP;
END@
`;
    const found = lint({ 'moves.db2': text }, { unmerged: true });
    assert.deepEqual(rulesAt(found.filter((f) => f.rule === 'single-row-insert')), ['single-row-insert@21'], 'the cursor over a query still is');
  });

  it("a loop over what a Db2-supplied routine returned (ADMIN_CMD's DESCRIBE) is no bulk load; one over a user procedure's is", () => {
    // IBM's db_library describe.sql keeps DESCRIBE TABLE's result sets in tables with a CLOB(32K) column.
    const ddl = 'CREATE TABLE APP.PARTS (SEQ INT, EXPR CLOB(32K));\n';
    const routine = (call: string) => `BEGIN
  DECLARE V_SEQ INT;
  DECLARE V_EXPR CLOB(32K);
  DECLARE V1 RESULT_SET_LOCATOR VARYING;
  CALL ${call}('DESCRIBE TABLE SYSIBM.TABLES SHOW DETAIL');
  ASSOCIATE RESULT SET LOCATOR (V1) WITH PROCEDURE ${call};
  ALLOCATE C1 CURSOR FOR RESULT SET V1;
  L1: LOOP
    FETCH C1 INTO V_SEQ, V_EXPR;
    IF SQLSTATE <> '00000' THEN LEAVE L1; END IF;
    INSERT INTO APP.PARTS VALUES (V_SEQ, V_EXPR);
  END LOOP L1;
END@
`;
    const admin = lint({ 'schema.sql': ddl, 'describe.db2': routine('SYSPROC.ADMIN_CMD') }, { unmerged: true });
    assert.deepEqual(admin.filter((f) => f.rule === 'lob-column').map((f) => f.severity), ['information'], 'a table that gets a few rows per call');
    const user = lint({ 'schema.sql': ddl, 'describe.db2': routine('APP.EXPORT_PARTS') }, { unmerged: true });
    assert.deepEqual(user.filter((f) => f.rule === 'lob-column').map((f) => f.severity), ['warning'], "a user procedure's result set may be any size");
  });

  it('a walk over an array the routine was handed is one call\'s elements (an order\'s lines), not a bulk load', () => {
    // IBM's modules.db2: one purchase order's lines per call, stepped through with ARRAY_NEXT.
    const ddl = `CREATE TABLE APP.PO_LINES (PO INT NOT NULL, ITEM INT NOT NULL, QTY INT,
  CONSTRAINT FK_PO FOREIGN KEY (PO) REFERENCES APP.PO (ID));
`;
    const proc = (loop: string) => `CREATE PROCEDURE APP.ADD_ORDER (IN PO INT, IN LINES APP.QTY_ARRAY)
LANGUAGE SQL
BEGIN
  DECLARE I INT;
${loop}
END@
`;
    const walks = [
      `  SET I = ARRAY_FIRST(LINES);
  WHILE (I IS NOT NULL) DO
    INSERT INTO APP.PO_LINES VALUES (PO, I, LINES[I]);
    SET I = ARRAY_NEXT(LINES, I);
  END WHILE;`,
      `  SET I = 1;
  WHILE I <= CARDINALITY(LINES) DO
    INSERT INTO APP.PO_LINES VALUES (PO, I, LINES[I]);
    SET I = I + 1;
  END WHILE;`,
      `  SET I = 1;
  REPEAT
    INSERT INTO APP.PO_LINES VALUES (PO, I, LINES[I]);
    SET I = I + 1;
  UNTIL I > CARDINALITY(LINES) END REPEAT;`,
    ];
    for (const loop of walks) {
      const found = lint({ 'schema.sql': ddl, 'order.db2': proc(loop) }, { unmerged: true });
      assert.deepEqual(found.filter((f) => f.rule === 'single-row-insert' || f.rule === 'enforced-foreign-key'), [], loop);
    }
    // A loop counting up to a number it computes is no array walk: still row by row.
    const counting = `  SET I = 1;
  WHILE I <= 100000 DO
    INSERT INTO APP.PO_LINES VALUES (PO, I, 1);
    SET I = I + 1;
  END WHILE;`;
    const found = lint({ 'schema.sql': ddl, 'order.db2': proc(counting) }, { unmerged: true });
    assert.deepEqual(rulesAt(found.filter((f) => f.rule === 'single-row-insert' || f.rule === 'enforced-foreign-key')), ['enforced-foreign-key@2', 'single-row-insert@7']);
  });

  it('an INSERT inside SELECT … FROM FINAL TABLE (…) in a loop is a row at a time, and fills its table (tbselcreate.db2)', () => {
    const text = `CREATE TABLE APP.B (ID SMALLINT GENERATED BY DEFAULT AS IDENTITY (START WITH 2000 NOCACHE) NOT NULL, NAME VARCHAR(9))@
CREATE PROCEDURE APP.COPY_EMPLOYEES ()
LANGUAGE SQL
BEGIN
  DECLARE NEW_ID SMALLINT;
  FOR E AS SELECT NAME FROM APP.A DO
    SELECT ID INTO NEW_ID FROM FINAL TABLE (INSERT INTO APP.B VALUES (DEFAULT, E.NAME));
  END FOR;
END@
`;
    const found = lint({ 'copy.db2': text }, { unmerged: true });
    assert.deepEqual(rulesAt(found.filter((f) => f.rule === 'single-row-insert' || f.rule === 'identity-cache')), ['identity-cache@1', 'single-row-insert@7']);
    // tbselcreate.db2 moves the rows it deletes: a query with OLD TABLE (DELETE …) cannot feed an INSERT … SELECT.
    const moved = text.replace('FOR E AS SELECT NAME FROM APP.A DO', 'FOR E AS C1 CURSOR FOR (SELECT NAME FROM OLD TABLE (DELETE FROM APP.A)) DO');
    assert.deepEqual(rulesAt(lint({ 'copy.db2': moved }, { unmerged: true }).filter((f) => f.rule === 'single-row-insert')), []);
  });

  it('a PREPARE on every pass of the loop that EXECUTEs it', () => {
    const text = `CREATE PROCEDURE p ()
BEGIN
  DECLARE i INT DEFAULT 0;
  DECLARE s STATEMENT;
  WHILE i < 100 DO
    PREPARE s FROM 'INSERT INTO app.t (a) VALUES (?)';
    EXECUTE s USING i;
    SET i = i + 1;
  END WHILE;
END@
`;
    const found = lint({ 'p.db2': text }, { unmerged: true });
    assert.deepEqual(rulesAt(found.filter((f) => ['prepare-in-loop', 'single-row-insert'].includes(f.rule))), ['prepare-in-loop@6', 'single-row-insert@7']);
    // Shown as one finding on the EXECUTE, the PREPARE above it as related information (one cause, one fix).
    const { findings: shown, workspace } = lintWorkspace({ 'p.db2': text });
    assert.deepEqual(rulesAt(shown.filter((f) => ['prepare-in-loop', 'single-row-insert'].includes(f.rule))), ['single-row-insert@7']);
    const execute = workspace.diagnostics('p.db2').find((d) => d.rule === 'single-row-insert')!;
    assert.ok(execute.mergedRules?.includes('prepare-in-loop'), JSON.stringify(execute.mergedRules));
    assert.equal(workspace.lines('p.db2')!.position(execute.related!.find((r) => r.message.startsWith('also prepare-in-loop:'))!.span.start).line + 1, 6);
  });

  it('a routine called in a loop lends the loop to its INSERT (one level, same file)', () => {
    const text = `CREATE PROCEDURE app.add_one (IN v INT)
BEGIN
  INSERT INTO app.t (a) VALUES (v);
END@
CREATE PROCEDURE app.add_many ()
BEGIN
  FOR r AS SELECT a FROM app.src DO
    CALL app.add_one(r.a);
  END FOR;
END@
`;
    const [finding] = findings({ 'p.db2': text }, 'single-row-insert');
    assert.equal(finding.line, 3);
    assert.match(finding.message, /the FOR loop at line 7 \(through ADD_ONE\(\)\)/);
  });

  it('script rules still read the top-level script of a file with routines', () => {
    const text = 'CREATE PROCEDURE p () BEGIN INSERT INTO t VALUES (1); END@\n' + [1, 2, 3].map((i) => `INSERT INTO t VALUES (${i})@`).join('\n') + '\n';
    assert.equal(findings({ 'p.db2': text }, 'no-autocommit').length, 1);
  });
});

describe('cli: statements inside routines and opaque statements in the summary', () => {
  it('counts them in the JSON summary and says so in the text summary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-routines-'));
    writeFileSync(join(dir, 'load.sql'), TABLE + LOADER + 'GRANT EXECUTE ON PROCEDURE app.load_events TO PUBLIC;\n');
    const json = JSON.parse((await runCli(['check', '--format', 'json', '.'], dir)).stdout);
    assert.deepEqual(
      [json.summary.statements, json.summary.statementsInBodies, json.summary.parseErrors, json.summary.otherDialect, json.summary.opaque],
      [3, 4, 0, 0, 1],
    );
    const text = (await runCli(['check', '.'], dir)).stdout;
    assert.match(text, /3 statements \(\+4 in routine bodies\), 0 unreadable, 1 kept as text/);
  });
});
