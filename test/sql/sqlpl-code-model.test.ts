// The SQL PL front end's CodeModel: what routines run, in which loops, as code analysis reports it.
import { strict as assert } from 'node:assert';
import { buildFileModel } from '../../server/src/engine/workspace-files';

function model(text: string) {
  return buildFileModel({ path: 'r.db2', text, language: 'sql' });
}

describe('sql: SQL PL routines as a CodeModel (api sqlpl)', () => {
  it('has no code model for a script without routines (nothing changes for plain scripts)', () => {
    assert.equal(model('INSERT INTO t VALUES (1);\nCOMMIT;\n').code, undefined);
  });

  it('gives the script as one execution, then each routine statement with its loop, and the commits', () => {
    const text = `CREATE PROCEDURE p ()
BEGIN
  DECLARE s STATEMENT;
  INSERT INTO log VALUES (1);
  WHILE 1 = 1 DO
    INSERT INTO t VALUES (2);
    IF 1 = 0 THEN COMMIT; END IF;
    PREPARE s FROM 'INSERT INTO u VALUES (?)';
    EXECUTE s USING 3;
  END WHILE;
  COMMIT;
END@
`;
    const code = model(text).code!;
    const [script, ...rest] = code.executions;
    assert.deepEqual([script.api, script.script, script.statements.length], ['clp', true, 1]);
    assert.deepEqual(
      rest.map((e) => [e.api, e.action, e.statements.map((s) => s.kind).join(), e.loop?.kind ?? '-']),
      [
        ['sqlpl', 'executePrepared', 'insert', '-'],
        ['sqlpl', 'executePrepared', 'insert', 'WHILE'],
        ['sqlpl', 'prepare', 'insert', 'WHILE'],
        ['sqlpl', 'executePrepared', 'insert', 'WHILE'],
      ],
    );
    const [, , prepare, execute] = rest;
    assert.deepEqual(execute.preparedAt, prepare.callSpan);
    assert.equal(text.slice(rest[1].callSpan.start, rest[1].callSpan.end), 'INSERT INTO t VALUES (2)');
    assert.deepEqual(code.commits.map((c) => [c.api, c.loop?.kind ?? '-', c.guarded]), [['sqlpl', 'WHILE', true], ['sqlpl', '-', false]]);
  });

  it('marks loops over sets of rows as chunked, and set-based inserts as batched', () => {
    const code = model(`BEGIN
  FOR r AS SELECT tabname FROM syscat.tables DO
    INSERT INTO log VALUES (r.tabname);
  END FOR;
  WHILE 1 = 1 DO
    INSERT INTO t SELECT * FROM s;
  END WHILE;
  LOOP
    INSERT INTO t VALUES (1);
  END LOOP;
END@
`).code!;
    const inLoops = code.executions.filter((e) => e.loop);
    assert.deepEqual(inLoops.map((e) => [e.loop!.kind, e.loop!.chunked ?? false, e.batched]), [['FOR', true, false], ['WHILE', true, true], ['LOOP', false, false]]);
  });

  describe('a WHILE that counts a variable down: passes bounded by where the variable starts', () => {
    /** db2mon_import.sql's db2mon.diff_log, shaped: a CLOB split into rows of 80. */
    const splitter = (parts: { param?: string; start?: string; condition?: string; step?: string; body?: string; declare?: string } = {}) => `CREATE PROCEDURE app.log_text (IN message ${parts.param ?? 'CLOB(100000)'})
LANGUAGE SQL
BEGIN
  DECLARE start INTEGER;
  DECLARE len INTEGER${parts.declare ?? ''};
  DECLARE buffer CHAR(81);
  SET start = 1;
  ${parts.start ?? 'SET len = LENGTH(message);'}
  WHILE ${parts.condition ?? 'len > 0'} DO
    SET buffer = CAST(SUBSTR(message, start, MIN(len, 80)) AS VARCHAR(80));
    INSERT INTO app.log VALUES (buffer);${parts.body ?? ''}
    SET start = start + 80;
    ${parts.step ?? 'SET len = len - 80;'}
  END WHILE;
END@
`;
    const loopOf = (text: string) => model(text).code!.executions.find((e) => e.loop?.kind === 'WHILE')!.loop!;

    it('from LENGTH of a CLOB(n) parameter: at most ceil(n / step) passes per call, and where that comes from', () => {
      const loop = loopOf(splitter());
      assert.equal(loop.passes, 1250);
      assert.equal(loop.countsDown, true);
      assert.deepEqual(loop.passesBound, {
        from: 'LEN is set to LENGTH(MESSAGE) at line 8, at most 100,000 (parameter MESSAGE is CLOB(100000)), and the loop takes 80 from it on every pass while LEN > 0',
        perCall: true,
      });
      // K, M, G multiply; the units of the type do not change what LENGTH counts.
      assert.equal(loopOf(splitter({ param: 'CLOB(1M)' })).passes, 13108); // ceil(1,048,576 / 80)
      assert.match(loopOf(splitter({ param: 'VARCHAR(100 CODEUNITS32)' })).passesBound!.from, /at most 100 \(parameter MESSAGE is VARCHAR\(100 CODEUNITS32\)\)/);
      // >= and the n < v forms.
      assert.equal(loopOf(splitter({ param: 'VARCHAR(160)', condition: 'len >= 0' })).passes, 3); // 160, 80, 0
      assert.equal(loopOf(splitter({ param: 'VARCHAR(160)', condition: '(0 < len)' })).passes, 2);
      assert.equal(loopOf(splitter({ param: 'VARCHAR(160)', condition: '1 <= len' })).passes, 2);
    });

    it("from LENGTH of a declared VARCHAR(n) variable, and from a constant (passes only: a constant's count is not told)", () => {
      const variable = splitter({ start: 'SET len = LENGTH(note);' }).replace('  DECLARE buffer CHAR(81);', "  DECLARE buffer CHAR(81);\n  DECLARE note VARCHAR(1000) DEFAULT 'x';");
      const loop = loopOf(variable);
      assert.equal(loop.passes, 13);
      assert.match(loop.passesBound!.from, /^LEN is set to LENGTH\(NOTE\) at line 9, at most 1,000 \(variable NOTE is VARCHAR\(1000\)\)/);
      for (const start of ['SET len = 5000;', '']) {
        const constant = loopOf(splitter({ start, declare: start ? '' : ' DEFAULT 5000', step: 'SET len = len - 1;' }));
        assert.deepEqual([constant.passes, constant.countsDown, constant.passesBound], [5000, true, undefined], start);
      }
      // The largest start counts.
      assert.equal(loopOf(splitter({ start: 'SET len = 400;\n  IF start > 0 THEN SET len = LENGTH(message); END IF;', param: 'VARCHAR(160)' })).passes, 5);
    });

    it('not bounded: a step that is no constant, another assignment in the body, a start it cannot bound', () => {
      const unbounded = [
        splitter({ step: 'SET len = len - start;' }),
        splitter({ step: 'SET len = len + 80;' }),
        splitter({ step: 'IF len > 0 THEN SET len = len - 80; END IF;' }),
        splitter({ body: '\n    SET len = len - 1;' }),
        splitter({ body: '\n    IF buffer IS NULL THEN SET len = 0; END IF;' }),
        splitter({ body: '\n    SELECT COUNT(*) INTO len FROM app.log;' }),
        splitter({ body: '\n    CALL app.measure(message, len);' }),
        splitter({ body: '\n    VALUES LENGTH(message) INTO len;' }),
        splitter({ start: 'SET len = LENGTH(message) + 1;' }),
        splitter({ start: '', declare: ' DEFAULT 5 * 1000' }),
        splitter({ start: 'SET len = LENGTH(message);\n  SET len = start * 1000;' }),
        splitter({ start: 'SET len = LENGTH(message);\n  GET DIAGNOSTICS len = ROW_COUNT;' }),
        splitter({ param: 'CLOB' }),
        splitter({ param: 'INTEGER', start: 'SET len = LENGTH(message);' }),
        splitter({ condition: 'len > start' }),
        splitter().replace('DECLARE buffer CHAR(81);', 'DECLARE buffer CHAR(81);\n  DECLARE CONTINUE HANDLER FOR SQLWARNING SET len = 100000000;'),
        splitter().replace('  WHILE len > 0 DO', '  again: WHILE len > 0 DO').replace('    SET start = start + 80;', '    IF start > 1 THEN ITERATE again; END IF;\n    SET start = start + 80;'),
        splitter().replace('    SET start = start + 80;', '    SET start = start + 80;\n    IF start > 1 THEN GOTO done; END IF;').replace('  END WHILE;', '  END WHILE;\n  done: SET start = 0;'),
      ];
      for (const text of unbounded) {
        const loop = loopOf(text);
        assert.deepEqual([loop.passes, loop.passesBound], [undefined, undefined], text);
      }
      // The variable is a parameter: it starts at whatever the caller passes.
      const parameter = `CREATE PROCEDURE app.fill (IN n INTEGER)
BEGIN
  WHILE n > 0 DO
    INSERT INTO app.t VALUES (n);
    SET n = n - 1;
  END WHILE;
END@
`;
      assert.equal(loopOf(parameter).passes, undefined);
    });

    it("a parameter counted down: the script's CALLs with an integer give the passes, as for a count up to one", () => {
      const fill = (step = 'SET n = n - 1;', condition = 'n > 0') => `CREATE PROCEDURE app.fill (IN n INTEGER)
BEGIN
  WHILE ${condition} DO
    INSERT INTO app.t VALUES (n);
    ${step}
  END WHILE;
END@
`;
      const counted = (text: string) => {
        const loop = loopOf(text);
        return [loop.passes, loop.passesFrom?.length ?? 0];
      };
      assert.deepEqual(counted(fill() + 'CALL app.fill(1000)@\n'), [1000, 1]);
      assert.deepEqual(counted(fill() + 'CALL app.fill(1000)@\nCALL app.fill(500)@\n'), [1500, 2]);
      assert.deepEqual(counted(fill('SET n = n - 3;', 'n >= 0') + 'CALL app.fill(9)@\n'), [4, 1]); // 9, 6, 3, 0
      assert.deepEqual(counted(fill() + 'CALL app.fill(0)@\n'), [0, 1]);
      // Not known: a CALL with a marker, the parameter assigned elsewhere too, a loop inside another loop.
      for (const text of [
        fill() + 'CALL app.fill(?)@\n',
        fill().replace('BEGIN\n', 'BEGIN\n  SET n = n * 2;\n') + 'CALL app.fill(1000)@\n',
        fill().replace('  WHILE', '  FOR r AS SELECT id FROM app.src DO\n  WHILE').replace('  END WHILE;', '  END WHILE;\n  END FOR;') + 'CALL app.fill(1000)@\n',
      ]) {
        assert.deepEqual(counted(text), [undefined, 0], text);
      }
    });

    it('a bound per call is not told for a loop in another loop, nor for a routine that a loop of the file calls', () => {
      const nested = splitter().replace('  WHILE len > 0 DO', '  FOR r AS SELECT id FROM app.src DO\n  WHILE len > 0 DO').replace('  END WHILE;', '  END WHILE;\n  END FOR;');
      const inner = loopOf(nested);
      assert.deepEqual([inner.passes, inner.passesBound], [1250, undefined]);
      const calledInLoop = splitter() + `CREATE PROCEDURE app.log_all ()
BEGIN
  FOR r AS SELECT text FROM app.messages DO
    CALL app.log_text(r.text);
  END FOR;
END@
`;
      const called = loopOf(calledInLoop);
      assert.deepEqual([called.passes, called.passesBound], [1250, undefined]);
      // Called by the script or by another routine outside a loop: per call, as said.
      assert.ok(loopOf(splitter() + "CALL app.log_text('x')@\nCREATE PROCEDURE app.twice () BEGIN CALL app.log_text('a'); CALL app.log_text('b'); END@\n").passesBound);
    });
  });

  describe('a WHILE that counts a variable up: passes only when nothing but its step can raise it past its start', () => {
    /** tbrowcompress.db2's insertdata, shaped: a counter from 0 to the parameter, one step on every pass. */
    const filler = (parts: { declare?: string; handler?: string; before?: string; label?: string; bound?: string; body?: string; step?: string; after?: string; calls?: string } = {}) => `CREATE PROCEDURE app.insertdata (IN size INT)
LANGUAGE SQL
BEGIN
  DECLARE count INTEGER${parts.declare ?? ' DEFAULT 0'};
  DECLARE name VARCHAR(20);
  DECLARE s STATEMENT;
  DECLARE c1 CURSOR FOR SELECT id FROM app.src;${parts.handler ?? ''}
  ${parts.before ?? ''}
  ${parts.label ?? ''}WHILE (count < ${parts.bound ?? 'size'}) DO
    INSERT INTO app.temp VALUES (count, name);${parts.body ?? ''}
    ${parts.step ?? 'SET count = count + 1;'}
  END WHILE;
  ${parts.after ?? ''}
END@
${parts.calls ?? 'CALL app.insertdata(1000)@'}
`;
    const loopOf = (text: string) => model(text).code!.executions.find((e) => e.loop?.kind === 'WHILE')!.loop!;
    const counted = (text: string) => {
      const loop = loopOf(text);
      return [loop.passes, loop.passesFrom?.length ?? 0];
    };

    it('counted: to a parameter the CALL gives, to an integer, with lookups, calls and handlers that leave the counter alone', () => {
      assert.deepEqual(counted(filler()), [1000, 1]);
      assert.deepEqual(counted(filler({ bound: '5000' })), [5000, 0]);
      const kept = [
        // A lookup by the counter reads it (INTO names what it assigns, up to FROM), as does EXECUTE … USING.
        filler({ body: '\n    SELECT name INTO name FROM app.src WHERE id = count;' }),
        filler({ body: '\n    EXECUTE s INTO name USING count;' }),
        filler({ body: '\n    FETCH c1 INTO name;' }),
        filler({ body: '\n    CALL app.log(name);' }),
        filler({ handler: '\n  DECLARE CONTINUE HANDLER FOR NOT FOUND SET name = NULL;' }),
        // A start given by SET rather than DEFAULT, or given twice alike.
        filler({ declare: '', before: 'SET count = 0;' }),
        filler({ before: 'SET count = 0;' }),
      ];
      for (const text of kept) assert.deepEqual(counted(text), [1000, 1], text);
    });

    it('not counted: the counter assigned otherwise in the loop (INTO, CALL, GET DIAGNOSTICS, a function, a handler), an ITERATE, a GOTO', () => {
      const unbounded = [
        filler({ body: '\n    FETCH c1 INTO count;' }),
        filler({ body: '\n    SELECT COUNT(*) INTO count FROM app.temp;' }),
        filler({ body: '\n    VALUES count * 2 INTO count;' }),
        filler({ body: '\n    EXECUTE s INTO count USING name;' }),
        filler({ body: '\n    GET DIAGNOSTICS count = ROW_COUNT;' }),
        filler({ body: '\n    CALL app.next_id(count);' }),
        filler({ body: '\n    SET name = app.next_name(count);' }),
        filler({ body: '\n    IF name IS NULL THEN SET count = 0; END IF;' }),
        filler({ handler: '\n  DECLARE CONTINUE HANDLER FOR SQLWARNING SET count = 0;' }),
        filler({ body: '\n    BEGIN\n      DECLARE CONTINUE HANDLER FOR NOT FOUND SET count = 0;\n      FETCH c1 INTO name;\n    END;' }),
        filler({ label: 'fill: ', body: '\n    IF name IS NULL THEN ITERATE fill; END IF;' }),
        filler({ before: 'again: SET name = NULL;', after: "IF name = 'x' THEN GOTO again; END IF;" }),
        // A start that is no integer: a query, an expression.
        filler({ before: 'SELECT MAX(id) INTO count FROM app.temp;' }),
        filler({ before: 'SET count = size - 10;' }),
        filler({ declare: '' }),
      ];
      for (const text of unbounded) {
        for (const bound of ['size', '5000']) {
          const loop = loopOf(text.replace('WHILE (count < size)', `WHILE (count < ${bound})`));
          assert.deepEqual([loop.passes, loop.passesFrom], [undefined, undefined], `${bound}: ${text}`);
        }
      }
    });

    it('counts a step up by any constant: passes rounded up, to a literal bound or to the CALL argument', () => {
      for (const [step, bound, passes] of [['2', 'size', 500], ['3', 'size', 334], ['7', '5000', 715], ['1000', '5000', 5], ['2', '1', 1]] as const) {
        const loop = loopOf(filler({ step: `SET count = count + ${step};` }).replace('WHILE (count < size)', `WHILE (count < ${bound})`));
        assert.equal(loop.passes, passes, `step ${step}, bound ${bound}`);
      }
      // <= takes the bound itself too: 0, 3, 6, 9 up to 9.
      assert.equal(loopOf(filler({ step: 'SET count = count + 3;' }).replace('WHILE (count < size)', 'WHILE (count <= 9)')).passes, 4);
    });

    it("a count to a parameter is told only when the CALL's argument is the count: the parameter kept, one start, once per call", () => {
      const untold = [
        // The bound is not the argument any more.
        filler({ before: 'SET size = size * 2;' }),
        filler({ before: 'SELECT COUNT(*) INTO size FROM app.src;' }),
        filler({ handler: '\n  DECLARE CONTINUE HANDLER FOR SQLWARNING SET size = 0;' }),
        // Starts that differ, or an earlier count on the same variable: the loop may start above 0.
        filler({ before: 'SET count = 500;' }),
        filler({ before: 'WHILE count < 10 DO SET count = count + 1; END WHILE;' }),
        // Once per pass of another loop, or per row of a trigger's table: not once per call.
        filler({ before: 'FOR r AS SELECT id FROM app.src DO', after: 'END FOR;' }),
        filler({ calls: 'CALL app.insertdata(1000)@\nCREATE TRIGGER app.on_src AFTER INSERT ON app.src FOR EACH ROW CALL app.insertdata(5)@' }),
      ];
      for (const text of untold) assert.equal(loopOf(text).passesFrom, undefined, text);
      // With an integer bound the passes are known, at most those from the lowest start (they decide only whether it is a bulk loop).
      assert.equal(loopOf(filler({ before: 'SET count = 500;', bound: '5000' })).passes, 5000);
      assert.equal(loopOf(filler({ before: 'FOR r AS SELECT id FROM app.src DO', after: 'END FOR;', bound: '5000' })).passes, 5000);
    });
  });
});
