// SQL PL into the typed model: routines, blocks and every statement of their bodies.
import { strict as assert } from 'node:assert';
import { parseScript, parseSql } from '../../server/src/sql/parser';
import { childStatements, forEachStatement } from '../../server/src/sql/walk';
import type { Statement } from '../../server/src/sql/ast';

type Of<K extends Statement['kind']> = Statement & { kind: K };

function only<K extends Statement['kind']>(statements: readonly Statement[], kind: K): Of<K> {
  assert.equal(statements.length, 1, `one statement expected, got ${statements.map((s) => s.kind).join(', ')}`);
  assert.equal(statements[0].kind, kind);
  return statements[0] as Of<K>;
}

/** Kinds of a body, with `other` statements by keyword. */
const kinds = (statements: readonly Statement[]) => statements.map((s) => (s.kind === 'other' ? `other:${s.keyword}` : s.kind));

/** Every parse error at any depth. */
function errors(statements: readonly Statement[]): string[] {
  const out: string[] = [];
  forEachStatement(statements, (s) => {
    if (s.parseError) out.push(`${s.kind}: ${s.parseError.message}`);
  });
  return out;
}

const PROCEDURE = `CREATE OR REPLACE PROCEDURE app.load_orders (IN p_batch INTEGER, OUT p_count INTEGER)
  SPECIFIC load_orders_v1
  DYNAMIC RESULT SETS 0
  MODIFIES SQL DATA
  NOT DETERMINISTIC
  LANGUAGE SQL
main: BEGIN
  DECLARE v_id, v_qty INTEGER DEFAULT 0;
  DECLARE v_sql VARCHAR(1000) DEFAULT 'INSERT INTO app.audit VALUES (1)';
  DECLARE c_var CURSOR;
  DECLARE no_table CONDITION FOR SQLSTATE '42704';
  DECLARE c1 CURSOR WITH HOLD FOR SELECT id, qty FROM app.staging WHERE batch = p_batch;
  DECLARE CONTINUE HANDLER FOR NOT FOUND, no_table SET v_id = -1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
    BEGIN
      GET DIAGNOSTICS EXCEPTION 1 v_sql = MESSAGE_TEXT;
      RESIGNAL;
    END;
  SET p_count = 0, v_qty = 1;
  SET c_var = CURSOR FOR SELECT a, b FROM app.other;
  IF p_batch IS NULL THEN
    SIGNAL SQLSTATE '75001' SET MESSAGE_TEXT = 'no batch';
  ELSEIF p_batch < 0 THEN
    RETURN;
  ELSE
    CALL app.log_start(p_batch);
  END IF;
  OPEN c1;
  fetch_loop: LOOP
    FETCH FROM c1 INTO v_id, v_qty;
    IF v_id = -1 THEN LEAVE fetch_loop; END IF;
    CASE WHEN v_qty > 100 THEN ITERATE fetch_loop;
         ELSE INSERT INTO app.orders (id, qty) VALUES (v_id, v_qty);
    END CASE;
    SET p_count = p_count + 1;
  END LOOP fetch_loop;
  CLOSE c1;
  FOR r AS cur2 CURSOR FOR SELECT id FROM app.orders o JOIN app.customers c ON o.cust = c.id DO
    UPDATE app.orders SET flag = 1 WHERE id = r.id;
  END FOR;
  WHILE v_qty < 10 DO
    SET v_qty = v_qty + 1;
  END WHILE;
  REPEAT
    DELETE FROM app.staging WHERE batch = p_batch;
  UNTIL v_qty > 0 END REPEAT;
  MERGE INTO app.totals t USING (VALUES (p_batch)) s (b) ON t.b = s.b WHEN NOT MATCHED THEN INSERT (b) VALUES (s.b);
  EXECUTE IMMEDIATE v_sql;
  COMMIT;
END main`;

describe('sql PL: CREATE PROCEDURE and the statements of its body', () => {
  const routine = only(parseSql(PROCEDURE).statements, 'createRoutine');
  const body = routine.body as Of<'compound'>;

  it('reads the header: kind, name, language, parameters', () => {
    assert.equal(routine.routine, 'procedure');
    assert.deepEqual([routine.name.schema, routine.name.name], ['APP', 'LOAD_ORDERS']);
    assert.equal(routine.language, 'SQL');
    assert.deepEqual(routine.parameters, ['P_BATCH', 'P_COUNT']);
    assert.deepEqual(errors([routine]), []);
  });

  it('reads the labelled compound body statement by statement', () => {
    assert.equal(body.kind, 'compound');
    assert.equal(body.label, 'MAIN');
    assert.deepEqual(kinds(body.body), [
      'declareVariable', 'declareVariable', 'declareVariable', 'declareCondition', 'declareCursor', 'declareHandler', 'declareHandler',
      'setVariable', 'setVariable', 'if', 'open', 'loop', 'close', 'loop', 'loop', 'loop', 'merge', 'executeImmediate', 'commit',
    ]);
  });

  it('reads declarations: variables with their type, a cursor variable, conditions, cursors and handlers', () => {
    const [vars, , cursorVariable, condition, cursor, handler, exitHandler] = body.body as Statement[];
    assert.deepEqual([(vars as Of<'declareVariable'>).names, (vars as Of<'declareVariable'>).type], [['V_ID', 'V_QTY'], 'INTEGER']);
    assert.deepEqual([(cursorVariable as Of<'declareVariable'>).names, (cursorVariable as Of<'declareVariable'>).type], [['C_VAR'], 'CURSOR']);
    assert.deepEqual([(condition as Of<'declareCondition'>).name, (condition as Of<'declareCondition'>).sqlstate], ['NO_TABLE', '42704']);
    assert.deepEqual((cursor as Of<'declareCursor'>).tables.map((t) => t.name), ['STAGING']);
    const h = handler as Of<'declareHandler'>;
    assert.deepEqual([h.handler, h.conditions, h.action?.kind], ['continue', ['NOT FOUND', 'NO_TABLE'], 'setVariable']);
    const x = exitHandler as Of<'declareHandler'>;
    assert.equal(x.handler, 'exit');
    assert.deepEqual(kinds(childStatements(x.action!)), ['getDiagnostics', 'resignal']);
  });

  it('reads SET of several variables and of a cursor variable', () => {
    const set = body.body[7] as Of<'setVariable'>;
    assert.deepEqual(set.targets, ['P_COUNT', 'V_QTY']);
    const cursorSet = body.body[8] as Of<'setVariable'>;
    assert.deepEqual(cursorSet.cursorTables?.map((t) => t.name), ['OTHER']);
  });

  it('reads IF / ELSEIF / ELSE with a condition per branch', () => {
    const ifStmt = body.body[9] as Of<'if'>;
    assert.deepEqual(ifStmt.branches.map((b) => kinds(b.body)), [['signal'], ['jump'], ['call']]);
    assert.equal(PROCEDURE.slice(ifStmt.branches[1].condition!.start, ifStmt.branches[1].condition!.end), 'p_batch < 0');
    assert.equal(ifStmt.branches[2].condition, undefined);
    const call = ifStmt.branches[2].body[0] as Of<'call'>;
    assert.equal(call.procedure.name, 'LOG_START');
  });

  it('reads the loops: LOOP with its label, ITERATE/LEAVE, FOR over a cursor, WHILE, REPEAT … UNTIL', () => {
    const [loop, forLoop, whileLoop, repeat] = [body.body[11], body.body[13], body.body[14], body.body[15]] as Of<'loop'>[];
    assert.deepEqual([loop.loop, loop.label], ['loop', 'FETCH_LOOP']);
    assert.deepEqual(kinds(loop.body), ['fetch', 'if', 'case', 'setVariable']);
    const caseStmt = loop.body[2] as Of<'case'>;
    assert.deepEqual(caseStmt.branches.map((b) => kinds(b.body)), [['jump'], ['insert']]);
    assert.deepEqual((caseStmt.branches[0].body[0] as Of<'jump'>).label, 'FETCH_LOOP');
    assert.equal(forLoop.loop, 'for');
    assert.deepEqual(forLoop.tables?.map((t) => t.name), ['ORDERS', 'CUSTOMERS']);
    assert.deepEqual(kinds(forLoop.body), ['update']);
    assert.equal((forLoop.body[0] as Of<'update'>).target.name, 'ORDERS');
    assert.deepEqual([whileLoop.loop, kinds(whileLoop.body)], ['while', ['setVariable']]);
    assert.deepEqual([repeat.loop, kinds(repeat.body)], ['repeat', ['delete']]);
    assert.equal(PROCEDURE.slice(repeat.condition!.start, repeat.condition!.end), 'v_qty > 0');
  });

  it("reads what a count-down needs: string lengths, a WHILE v > n, SET v = v - n / n / LENGTH(x), and what statements may assign", () => {
    const text = `CREATE PROCEDURE app.split (IN message CLOB(100K), IN n INTEGER, IN tag CHARACTER VARYING(20 OCTETS), IN raw BLOB(2 M))
BEGIN
  DECLARE a, b VARCHAR(80) DEFAULT '';
  DECLARE c CHAR FOR BIT DATA;
  DECLARE len INTEGER;
  SET len = LENGTH(message);
  SET len = 100;
  SET len = len - 80, a = 'x';
  WHILE (0 <= len) DO
    SET len = len - 80;
    SELECT COUNT(*) INTO b, len FROM app.t WHERE id = n;
    FETCH c1 INTO a;
    CALL app.measure(message, len);
    GET DIAGNOSTICS n = ROW_COUNT;
    SET a = app.f(len);
    SET a = SUBSTR(message, 1, len);
    EXECUTE IMMEDIATE 'INSERT INTO app.t VALUES (1)';
    INSERT INTO app.t VALUES (len);
  END WHILE;
  WHILE len > n DO SET len = len - 1; END WHILE;
END`;
    const proc = only(parseSql(text).statements, 'createRoutine');
    assert.deepEqual(proc.parameterLengths, [{ max: 102400, type: 'CLOB(100K)' }, undefined, { max: 20, type: 'CHARACTER VARYING(20 OCTETS)' }, { max: 2097152, type: 'BLOB(2M)' }]);
    const [ab, c, , lengthOf, integer, several, loop, other] = (proc.body as Of<'compound'>).body as Statement[];
    assert.deepEqual((ab as Of<'declareVariable'>).length, { max: 80, type: 'VARCHAR(80)' });
    assert.equal((c as Of<'declareVariable'>).length, undefined);
    assert.deepEqual((lengthOf as Of<'setVariable'>).value, { lengthOf: 'MESSAGE' });
    assert.deepEqual((integer as Of<'setVariable'>).value, { integer: 100 });
    assert.deepEqual([(several as Of<'setVariable'>).step, (several as Of<'setVariable'>).value], [{ variable: 'LEN', by: -80 }, undefined]);
    const w = loop as Of<'loop'>;
    assert.deepEqual([w.countdown, w.counter], [{ variable: 'LEN', inclusive: true, floor: 0 }, undefined]);
    assert.deepEqual((w.body[0] as Of<'setVariable'>).step, { variable: 'LEN', by: -80 });
    // Writes: a superset of the names a statement may assign besides a SET's targets (none for a built-in function).
    const writes = w.body.map((s) => s.writes ?? []);
    assert.deepEqual([writes[1].includes('LEN'), writes[2].includes('A'), writes[3].includes('LEN'), writes[4].includes('N')], [true, true, true, true]);
    assert.deepEqual([writes[1].includes('B'), writes[2].includes('LEN')], [true, false]);
    assert.deepEqual(writes.slice(5), [['LEN'], [], [], []]);
    assert.equal((other as Of<'loop'>).countdown, undefined); // a bound that is no integer
  });

  it('reads REPEAT … UNTIL as the WHILE of the opposite test: counting up to a bound or down to an integer', () => {
    const until = (condition: string) => {
      const loop = only(parseSql(`BEGIN REPEAT SET i = i + 1; UNTIL ${condition} END REPEAT; END`).statements, 'compound').body[0] as Of<'loop'>;
      assert.equal(loop.loop, 'repeat');
      return { counter: loop.counter, countdown: loop.countdown };
    };
    assert.deepEqual(until('i >= 100'), { counter: { variable: 'I', inclusive: false, bound: 100 }, countdown: undefined });
    assert.deepEqual(until('(i > size)'), { counter: { variable: 'I', inclusive: true, bound: 'SIZE' }, countdown: undefined });
    assert.deepEqual(until('size <= i'), { counter: { variable: 'I', inclusive: false, bound: 'SIZE' }, countdown: undefined });
    assert.deepEqual(until('n <= 0'), { counter: undefined, countdown: { variable: 'N', inclusive: false, floor: 0 } });
    assert.deepEqual(until('1 > n'), { counter: undefined, countdown: { variable: 'N', inclusive: true, floor: 1 } });
    // Anything else: no count (equality, a bound that is an expression, a floor that is no integer).
    for (const other of ['i = 100', 'i >= n + 1', 'n <= 1.5', 'i >= 100 OR done = 1']) assert.deepEqual(until(other), { counter: undefined, countdown: undefined }, other);
    // A labelled REPEAT, and the condition of a WHILE is read as before.
    const labelled = only(parseSql('BEGIN fill: REPEAT SET i = i + 1; UNTIL i >= 5 END REPEAT fill; END').statements, 'compound').body[0] as Of<'loop'>;
    assert.deepEqual([labelled.label, labelled.counter], ['FILL', { variable: 'I', inclusive: false, bound: 5 }]);
  });

  it('takes what an INTO assigns up to a SELECT\'s FROM or an EXECUTE\'s USING: the names after those are read', () => {
    const text = `BEGIN
  SELECT name INTO v_name FROM app.src WHERE id = i;
  WITH t (n) AS (SELECT id FROM app.src FETCH FIRST 1 ROW ONLY) SELECT n INTO v_id FROM t WHERE n > i;
  SELECT (SELECT MAX(id) FROM app.src) INTO v_id, v_name FROM sysibm.sysdummy1;
  EXECUTE s INTO v_id USING i;
  FETCH c1 INTO v_id, v_arr[i];
  VALUES i + 1 INTO v_id;
END`;
    const block = only(parseSql(text).statements, 'compound');
    assert.deepEqual(block.body.map((s) => s.writes), [['V_NAME'], ['V_ID'], ['V_ID', 'V_NAME'], ['V_ID'], ['V_ID', 'V_ARR', 'I'], ['V_ID']]);
  });

  it('knows the text of a variable set earlier when EXECUTE IMMEDIATE runs it', () => {
    const exec = body.body[17] as Of<'executeImmediate'>;
    assert.equal(exec.text.textKind, 'variable');
    const [insert] = exec.text.statements as Of<'insert'>[];
    assert.equal(insert.target.name, 'AUDIT');
    // The built statement maps back to the literal in the DECLARE.
    const at = insert.origin.toFile(insert.target.span.start);
    assert.equal(PROCEDURE.slice(at, at + 9), 'app.audit');
  });
});

describe('sql PL: dynamic SQL built with ||', () => {
  const text = `CREATE PROCEDURE p (IN v_name VARCHAR(20), IN v_qty INT)
BEGIN
  DECLARE stmt VARCHAR(200);
  DECLARE s STATEMENT;
  EXECUTE IMMEDIATE 'INSERT INTO t (name, qty) VALUES (''' || v_name || ''', ' || CHAR(v_qty) || ')';
  SET stmt = 'INSERT INTO t (name) VALUES (?)';
  PREPARE s FROM stmt;
  EXECUTE s USING v_name;
  EXECUTE IMMEDIATE ('INSERT INTO "' || v_name || '" SELECT * FROM src');
  EXECUTE IMMEDIATE v_unknown;
END`;
  const body = (only(parseSql(text).statements, 'createRoutine').body as Of<'compound'>).body;

  it('parses the text with each spliced value standing where it goes, mapped to the expression', () => {
    const exec = body[2] as Of<'executeImmediate'>;
    assert.equal(exec.text.textKind, 'concatenation');
    assert.deepEqual(exec.text.splices.map((s) => text.slice(s.start, s.end)), ['v_name', 'CHAR(v_qty)']);
    const insert = exec.text.statements[0] as Of<'insert'>;
    assert.equal(insert.parseError, undefined);
    assert.deepEqual(insert.columns, ['NAME', 'QTY']);
    const values = insert.source.kind === 'values' ? insert.source.rows[0].values : [];
    // The second value is the spliced CHAR(v_qty): its span maps onto that expression in the file.
    const v = values[1];
    assert.equal(text.slice(insert.origin.toFile(v.span.start), insert.origin.toFile(v.span.end)), 'CHAR(v_qty)');
  });

  it('links a PREPARE of a variable to its text, and keeps EXECUTE by statement name', () => {
    const prepare = body[4] as Of<'prepare'>;
    assert.deepEqual([prepare.statementName, prepare.text.textKind], ['S', 'variable']);
    assert.equal((prepare.text.statements[0] as Of<'insert'>).source.kind, 'values');
    assert.equal((body[5] as Of<'execute'>).statementName, 'S');
  });

  it('follows a text appended to statement by statement, but not one appended to on every pass of a loop', () => {
    const built = `BEGIN
  DECLARE s VARCHAR(200) DEFAULT 'INSERT INTO t (a) ';
  SET s = s || 'VALUES (' || v || ')';
  EXECUTE IMMEDIATE s;
  WHILE i < 3 DO
    SET s = s || ', (1)';
    EXECUTE IMMEDIATE s;
  END WHILE;
END@
`;
    const block = parseScript(built).statements[0] as Of<'compound'>;
    const first = block.body[2] as Of<'executeImmediate'>;
    assert.deepEqual([first.text.textKind, first.text.statements[0]?.kind, first.text.splices.map((x) => built.slice(x.start, x.end))], ['variable', 'insert', ['v']]);
    const inLoop = (block.body[3] as Of<'loop'>).body[1] as Of<'executeImmediate'>;
    assert.deepEqual([inLoop.text.textKind, inLoop.text.statements.length], ['variable', 0]);
  });

  it('fills a variable spliced where a name goes (an alias after AS, a qualifier) as a name: the MERGE parses', () => {
    const merge = `BEGIN
  EXECUTE IMMEDIATE 'MERGE INTO app.t AS ' || v_alias || ' USING (VALUES (' || v_id || ')) AS s (id) ON ' || v_alias || '.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)';
END@
`;
    const block = parseScript(merge).statements[0] as Of<'compound'>;
    const exec = block.body[0] as Of<'executeImmediate'>;
    assert.deepEqual(exec.text.splices.map((x) => merge.slice(x.start, x.end)), ['v_alias', 'v_id', 'v_alias']);
    const [stmt] = exec.text.statements as Of<'merge'>[];
    assert.deepEqual([stmt?.kind, stmt?.parseError, stmt?.target.name, stmt?.sourceValues !== undefined], ['merge', undefined, 'T', true]);
  });

  it('fills as names a variable spliced as a correlation name without AS or as the table of CREATE TABLE … LIKE', () => {
    const script = `BEGIN
  EXECUTE IMMEDIATE 'UPDATE app.t ' || v_alias || ' SET ' || v_col || '  = 1 WHERE ' || v_alias || '.id = ' || v_id;
  EXECUTE IMMEDIATE 'CREATE TABLE app.copy LIKE ' || v_table;
END@
`;
    const block = parseScript(script).statements[0] as Of<'compound'>;
    const read = block.body.map((s) => (s as Of<'executeImmediate'>).text.statements[0]);
    // Filled as numbers, the UPDATE read as some other statement and CREATE TABLE … LIKE did not parse.
    assert.deepEqual(read.map((st) => [st?.kind, st?.parseError?.message]), [['update', undefined], ['createTable', undefined]]);
  });

  it('reads a parenthesised text, and says when the text is unknown', () => {
    const paren = body[6] as Of<'executeImmediate'>;
    assert.equal((paren.text.statements[0] as Of<'insert'>).source.kind, 'select');
    const unknown = body[7] as Of<'executeImmediate'>;
    assert.deepEqual([unknown.text.textKind, unknown.text.statements.length], ['variable', 0]);
  });
});

describe('sql PL: routines, modules, blocks and triggers', () => {
  it('reads functions with a RETURN body, and external routines without a body', () => {
    const fn = only(parseSql('CREATE FUNCTION f (x INT) RETURNS INT LANGUAGE SQL DETERMINISTIC NO EXTERNAL ACTION RETURN x * 2').statements, 'createRoutine');
    assert.deepEqual([fn.routine, fn.body?.kind, (fn.body as Of<'jump'>).jump], ['function', 'jump', 'return']);
    const ext = only(parseSql("CREATE PROCEDURE q (IN a INT) LANGUAGE C EXTERNAL NAME 'lib!q' FENCED PARAMETER STYLE SQL").statements, 'createRoutine');
    assert.deepEqual([ext.language, ext.body], ['C', undefined]);
    assert.equal(ext.parseError, undefined);
  });

  it('reads ALTER MODULE … ADD / PUBLISH PROCEDURE with its module, and keeps other module statements as text', () => {
    const text = `CREATE MODULE m@
ALTER MODULE m PUBLISH PROCEDURE p (IN a INT)@
ALTER MODULE m ADD PROCEDURE p (IN a INT) BEGIN INSERT INTO t VALUES (a); END@
ALTER MODULE m ADD VARIABLE v INT@
`;
    const statements = parseScript(text).statements;
    assert.deepEqual(kinds(statements), ['other:CREATE MODULE', 'createRoutine', 'createRoutine', 'other:ALTER MODULE']);
    const added = statements[2] as Of<'createRoutine'>;
    assert.equal(added.module?.name, 'M');
    assert.deepEqual(kinds(childStatements(added.body!)), ['insert']);
    assert.deepEqual(errors(statements), []);
  });

  it('reads anonymous and labelled blocks of a -td@ script as compound statements', () => {
    const text = `BEGIN
  DECLARE i INT DEFAULT 0;
  WHILE i < 10 DO
    INSERT INTO t VALUES (i);
    SET i = i + 1;
  END WHILE;
END@
lbl: BEGIN ATOMIC
  INSERT INTO t VALUES (1);
END lbl@
`;
    const statements = parseScript(text).statements;
    assert.deepEqual(kinds(statements), ['compound', 'compound']);
    assert.deepEqual(kinds((statements[0] as Of<'compound'>).body), ['declareVariable', 'loop']);
    assert.deepEqual([(statements[1] as Of<'compound'>).label, (statements[1] as Of<'compound'>).atomic], ['LBL', true]);
  });

  it('types the statements of a trigger body, IF included', () => {
    const text = `CREATE TRIGGER tr AFTER INSERT ON t REFERENCING NEW AS n FOR EACH ROW
BEGIN ATOMIC
  IF n.qty > 0 THEN INSERT INTO log VALUES (n.id); END IF;
  SET n.flag = 1;
END`;
    const trigger = only(parseSql(text).statements, 'createTrigger');
    assert.deepEqual(kinds(trigger.body), ['if', 'setVariable']);
    assert.deepEqual(kinds((trigger.body[0] as Of<'if'>).branches[0].body), ['insert']);
  });

  it('keeps a variable named LOOP in a WHILE condition, and labels on any statement', () => {
    const text = `CREATE PROCEDURE p ()
BEGIN
  DECLARE loop INT DEFAULT 1;
  WHILE loop <= 3 DO
    SET loop = loop + 1;
  END WHILE;
  check_it: IF loop = 4 THEN RETURN; END IF;
END`;
    const routine = only(parseSql(text).statements, 'createRoutine');
    assert.deepEqual(errors([routine]), []);
    assert.deepEqual(kinds((routine.body as Of<'compound'>).body), ['declareVariable', 'loop', 'if']);
  });

  it('reports an unreadable statement inside a body on that statement and reads the others', () => {
    const text = `CREATE PROCEDURE p ()
BEGIN
  INSERT INTO t VALUES (1;
  INSERT INTO t VALUES (2);
END`;
    const routine = only(parseSql(text).statements, 'createRoutine');
    assert.equal(routine.parseError, undefined);
    const [bad, good] = (routine.body as Of<'compound'>).body;
    assert.match(bad.parseError!.message, /missing '\)'/);
    assert.equal(good.parseError, undefined);
  });

  it('reports a block never closed once, at the routine', () => {
    const statements = parseSql('CREATE PROCEDURE p () BEGIN INSERT INTO t VALUES (1);').statements;
    assert.deepEqual(errors(statements), ['createRoutine: BEGIN … END block is not closed at end of input']);
  });

  it('keeps deeply nested blocks bounded: past 32 levels they are kept as text, without a stack overflow', () => {
    const depth = 5000;
    const text = 'CREATE PROCEDURE p () ' + 'BEGIN '.repeat(depth) + 'INSERT INTO t VALUES (1); ' + 'END; '.repeat(depth - 1) + 'END';
    const statements = parseSql(text).statements;
    let deepest = 0;
    const walk = (s: Statement, d: number): void => {
      deepest = Math.max(deepest, d);
      for (const c of childStatements(s)) walk(c, d + 1);
    };
    walk(statements[0], 0);
    assert.ok(deepest <= 40, `nesting kept: ${deepest}`);
  });
});
