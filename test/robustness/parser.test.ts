// Property tests of the Db2 parser: it never throws, statements stay inside the input and in order, errors
// are data (a message and a span), deep nesting does not overflow the stack, and time grows linearly.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseSql } from '../../server/src/sql/parser';
import type { ParsedSql } from '../../server/src/sql/ast';
import { anyText, fixture, growthRatio, mutated, sqlish } from './support';

function checkParsed(text: string, parsed: ParsedSql): void {
  let previousEnd = 0;
  for (const [i, stmt] of parsed.statements.entries()) {
    const { start, end } = stmt.span;
    assert.ok(Number.isInteger(start) && Number.isInteger(end) && start >= previousEnd && end >= start && end <= text.length, `statement ${i} (${stmt.kind}) span ${start}..${end} after ${previousEnd} in a text of ${text.length}`);
    previousEnd = end;
    assert.equal(typeof stmt.kind, 'string');
    if (stmt.parseError) {
      const e = stmt.parseError;
      assert.ok(typeof e.message === 'string' && e.message.length > 0, `statement ${i}: empty parse-error message`);
      assert.ok(e.span.start >= 0 && e.span.end >= e.span.start && e.span.end <= text.length, `statement ${i}: parse-error span ${e.span.start}..${e.span.end} outside the text`);
    }
  }
  for (const c of parsed.comments) assert.ok(c.span.start >= 0 && c.span.end <= text.length, `comment span ${c.span.start}..${c.span.end}`);
}

function parseAndCheck(text: string, terminator?: string): ParsedSql {
  const parsed = parseSql(text, terminator ? { terminator } : undefined);
  checkParsed(text, parsed);
  return parsed;
}

describe('robustness: parser', () => {
  it('never throws on any string', () => {
    fc.assert(fc.property(anyText, (text) => void parseAndCheck(text)), { numRuns: 1000 });
  });

  it('never throws on SQL-shaped random text, with ; and @ terminators', () => {
    fc.assert(fc.property(sqlish(80), fc.constantFrom(';', '@'), (text, t) => void parseAndCheck(text, t)), { numRuns: 2000 });
  });

  for (const name of ['workload.sql', 'procedure.clp']) {
    it(`never throws on mutations of ${name}`, () => {
      const seed = fixture(name);
      const clean = parseAndCheck(seed);
      assert.ok(clean.statements.length > 5, 'the fixture parses into statements');
      fc.assert(fc.property(mutated(seed), (text) => void parseAndCheck(text)), { numRuns: 500 });
    });
  }

  it('reads the unmutated fixtures without a parse error', () => {
    for (const name of ['workload.sql', 'procedure.clp']) {
      const errors = parseSql(fixture(name)).statements.filter((s) => s.parseError).map((s) => `${s.kind}: ${s.parseError!.message}`);
      assert.deepEqual(errors, [], name);
    }
  });

  // Deep nesting: a recursive-descent parser must not overflow the stack (100,000 levels).
  const DEEP = 100_000;
  const NESTED: Record<string, string> = {
    'parentheses in a SELECT': 'SELECT ' + '('.repeat(DEEP) + '1' + ')'.repeat(DEEP) + ' FROM T;',
    'unclosed parentheses in VALUES': 'INSERT INTO T VALUES ' + '('.repeat(DEEP) + ';',
    'parentheses in a column DEFAULT': 'CREATE TABLE T (A INT DEFAULT ' + '('.repeat(DEEP) + '1' + ')'.repeat(DEEP) + ');',
    'parentheses in a CHECK constraint': 'CREATE TABLE T (A INT, CHECK (' + '('.repeat(DEEP) + 'A > 1' + ')'.repeat(DEEP) + '));',
    'subselects in INSERT … SELECT': 'INSERT INTO T ' + 'SELECT * FROM ('.repeat(DEEP / 10) + 'SELECT 1 FROM U' + ') X'.repeat(DEEP / 10) + ';',
    'subselects in an MQT': 'CREATE TABLE M AS (' + 'SELECT * FROM ('.repeat(DEEP / 10) + 'SELECT 1 FROM T' + ')'.repeat(DEEP / 10) + ') DATA INITIALLY DEFERRED REFRESH IMMEDIATE;',
    'nested CASE in VALUES': 'INSERT INTO T VALUES (' + 'CASE WHEN 1=1 THEN '.repeat(DEEP / 10) + '1' + ' END'.repeat(DEEP / 10) + ');',
    'nested BEGIN blocks': 'CREATE PROCEDURE P BEGIN ' + 'BEGIN '.repeat(DEEP / 10) + 'INSERT INTO T VALUES (1);' + ' END;'.repeat(DEEP / 10) + ' END;',
    'nested IF in a trigger': 'CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW BEGIN ATOMIC ' + 'IF 1=1 THEN '.repeat(DEEP / 10) + 'INSERT INTO A VALUES (1);' + ' END IF;'.repeat(DEEP / 10) + ' END;',
    'unclosed BEGIN with IFs': 'CREATE PROCEDURE P BEGIN ' + 'IF 1=1 THEN INSERT INTO T VALUES (1); '.repeat(DEEP / 10),
    'MERGE over nested subselects': 'MERGE INTO T USING (' + 'SELECT * FROM ('.repeat(DEEP / 10) + 'VALUES 1' + ')'.repeat(DEEP / 10) + ') S ON 1=1 WHEN NOT MATCHED THEN INSERT VALUES (1);',
    'long unary chain': 'INSERT INTO T VALUES (' + '- '.repeat(DEEP) + '1);',
    'long || chain': "INSERT INTO T VALUES (" + "'a' || ".repeat(DEEP) + "'b');",
  };
  for (const [shape, text] of Object.entries(NESTED)) {
    it(`survives ${shape} (${DEEP.toLocaleString('en-US')} levels/terms)`, () => {
      const parsed = parseAndCheck(text);
      assert.ok(parsed.statements.length >= 1);
    });
  }

  // Growth: 8× the input must cost well under 64× (quadratic) the time. See support.growthRatio.
  const GROWING: Record<string, [(n: number) => string, number]> = {
    'many single-row inserts': [(n) => "INSERT INTO T (A, B) VALUES (1, 'x');\n".repeat(n / 38), 100_000],
    'one multi-row insert': [(n) => 'INSERT INTO T VALUES ' + "(1, 'x', ?),".repeat(n / 13) + '(1, 2, 3);', 100_000],
    'many columns': [(n) => 'INSERT INTO T (' + 'C,'.repeat(n / 2) + 'D) VALUES (1);', 100_000],
    'nested parentheses around a VALUES value': [(n) => 'INSERT INTO T VALUES (' + '('.repeat(n / 2) + '1' + ')'.repeat(n / 2) + ');', 4_000],
    'nested parentheses around a VALUES row list': [(n) => 'INSERT INTO T VALUES ' + '('.repeat(n / 2) + '1' + ')'.repeat(n / 2) + ';', 4_000],
    'nested parentheses in a SELECT': [(n) => 'SELECT ' + '('.repeat(n / 2) + '1' + ')'.repeat(n / 2) + ' FROM T;', 20_000],
    'CREATE TABLE with many columns': [(n) => 'CREATE TABLE T (' + 'C INT NOT NULL,'.repeat(n / 15) + 'D INT);', 100_000],
    'a procedure with many statements': [(n) => 'CREATE PROCEDURE P BEGIN ' + 'INSERT INTO T VALUES (1); '.repeat(n / 26) + 'END;', 100_000],
    'a trigger with many IFs': [(n) => 'CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW BEGIN ATOMIC ' + 'IF 1=1 THEN SET A = 1; END IF; '.repeat(n / 31) + 'END;', 100_000],
    'unterminated string after many statements': [(n) => 'COMMIT;\n'.repeat(n / 8) + "INSERT INTO T VALUES ('open", 100_000],
    'statements with WITH isolation': [(n) => 'INSERT INTO T SELECT * FROM U WITH UR;\n'.repeat(n / 39), 100_000],
    'sequences in inserts': [(n) => 'INSERT INTO T VALUES (NEXT VALUE FOR S, S.NEXTVAL);\n'.repeat(n / 51), 100_000],
    'a UNION of selects with many NULL items': [(n) => `INSERT INTO T SELECT ${'NULL, '.repeat(n / 12)}1 FROM S UNION ALL SELECT ${'NULL, '.repeat(n / 12)}2 FROM S2;`, 40_000],
  };
  for (const [shape, [make, n]] of Object.entries(GROWING)) {
    it(`parses ${shape} in time linear in the input`, () => {
      const { ratio, smallMs, largeMs } = growthRatio(make, (text) => parseSql(text), n);
      assert.ok(ratio < 24, `8× the input took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    });
  }
});
