// Statement splitting: terminators, --#SET TERMINATOR, the -td@ option, SQL PL bodies, comments, strings.
import { strict as assert } from 'node:assert';
import { lex } from '../../server/src/sql/lexer';
import { splitStatements } from '../../server/src/sql/splitter';

/** The text of each statement (first token to last token, terminator excluded). */
function split(text: string, terminator?: string): string[] {
  const { tokens } = lex(text, terminator);
  return splitStatements(text, tokens).map((r) => text.slice(tokens.start[r.first], tokens.end[r.end - 1]));
}

describe('sql splitter', () => {
  it('splits at ; and drops empty statements', () => {
    assert.deepEqual(split('a 1;; b 2 ;\n;c 3'), ['a 1', 'b 2', 'c 3']);
  });

  it("does not split at ';' inside strings or comments", () => {
    assert.deepEqual(split("insert into t values ('a;b'); -- x;y\n/* p; q */ commit;"), ["insert into t values ('a;b')", 'commit']);
  });

  it('follows --#SET TERMINATOR @ and back', () => {
    const text = [
      'connect to sample;',
      '--#SET TERMINATOR @',
      'create procedure p() begin insert into t values 1; commit; end@',
      '--#SET TERMINATOR ;',
      'commit;',
    ].join('\n');
    assert.deepEqual(split(text), ['connect to sample', 'create procedure p() begin insert into t values 1; commit; end', 'commit']);
  });

  it('uses the initial terminator option (db2 -td@)', () => {
    assert.deepEqual(split('values 1; values 2@\nvalues 3@', '@'), ['values 1; values 2', 'values 3']);
  });

  it('keeps a trigger with BEGIN ATOMIC … END together when ; is the terminator', () => {
    const text = `CREATE TRIGGER t1 AFTER INSERT ON t FOR EACH ROW
BEGIN ATOMIC
  INSERT INTO a VALUES (1);
  UPDATE b SET x = CASE WHEN y = 1 THEN 2 ELSE 3 END;
END;
COMMIT;`;
    const parts = split(text);
    assert.equal(parts.length, 2);
    assert.ok(parts[0].startsWith('CREATE TRIGGER') && parts[0].endsWith('END'));
    assert.equal(parts[1], 'COMMIT');
  });

  it('keeps procedures with nested blocks, IF, loops and CASE statements together', () => {
    const text = `CREATE OR REPLACE PROCEDURE p (IN n INT)
LANGUAGE SQL
BEGIN
  DECLARE i INT DEFAULT 0;
  L1: LOOP
    SET i = i + 1;
    IF i > n THEN LEAVE L1; END IF;
  END LOOP L1;
  WHILE i > 0 DO SET i = i - 1; END WHILE;
  CASE n WHEN 1 THEN SET i = 2; ELSE SET i = 3; END CASE;
  BEGIN
    DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
    INSERT INTO t VALUES (i);
  END;
END;
SELECT 1 FROM sysibm.sysdummy1;`;
    const parts = split(text);
    assert.equal(parts.length, 2, parts.join('\n----\n'));
    assert.ok(parts[0].endsWith('END'));
    assert.equal(parts[1], 'SELECT 1 FROM sysibm.sysdummy1');
  });

  it('keeps a labelled compound statement together', () => {
    assert.deepEqual(split('L: BEGIN INSERT INTO t VALUES 1; END L; COMMIT;'), ['L: BEGIN INSERT INTO t VALUES 1; END L', 'COMMIT']);
  });

  it('does not treat a column named BEGIN or a CASE expression in plain SQL as a block', () => {
    assert.deepEqual(split('SELECT begin, CASE WHEN a THEN 1 END FROM t; COMMIT;'), ['SELECT begin, CASE WHEN a THEN 1 END FROM t', 'COMMIT']);
    assert.deepEqual(split('CREATE TABLE t (begin INT, x INT); COMMIT;'), ['CREATE TABLE t (begin INT, x INT)', 'COMMIT']);
  });

  it('reports a BEGIN block still open at the end of input', () => {
    const { tokens } = lex('CREATE PROCEDURE p() BEGIN INSERT INTO t VALUES 1; COMMIT;');
    const ranges = splitStatements('CREATE PROCEDURE p() BEGIN INSERT INTO t VALUES 1; COMMIT;', tokens);
    assert.equal(ranges.length, 1);
    assert.equal(ranges[0].unterminatedBlock, true);
  });

  it('treats each line as a command in CLP line mode (terminator "\\n") with \\ continuation', () => {
    assert.deepEqual(split('CONNECT TO s\nCREATE TABLE t \\\n (a INT)\n\nTERMINATE\n', '\n'), ['CONNECT TO s', 'CREATE TABLE t \\\n (a INT)', 'TERMINATE']);
  });
});
