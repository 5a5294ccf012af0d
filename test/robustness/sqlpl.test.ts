// SQL PL, terminators and dialects under bad and big input: no throw, every nested statement maps into its
// file, and time linear in the input for the shapes that could go quadratic (long bodies, ELSEIF chains,
// a text appended to statement by statement, long failing ALTERs, routines called in many loops).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseScript, parseSql } from '../../server/src/sql/parser';
import { inferTerminator } from '../../server/src/sql/terminator';
import { forEachStatement } from '../../server/src/sql/walk';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { growthRatio, mutated, sqlish, fixture } from './support';

/** Every statement at any depth, and its error, maps to offsets inside the file. */
function checkNested(text: string, terminator?: string): void {
  const { statements } = parseSql(text, terminator ? { terminator } : undefined);
  forEachStatement(statements, (s) => {
    for (const offset of [s.span.start, s.span.end, ...(s.parseError ? [s.parseError.span.start, s.parseError.span.end] : [])]) {
      const at = s.origin.toFile(offset);
      assert.ok(Number.isInteger(at) && at >= 0 && at <= text.length, `${s.kind}: offset ${offset} maps to ${at}, outside a text of ${text.length}`);
    }
  });
}

const ROUTINE_PIECES = [
  'CREATE PROCEDURE p () BEGIN ', 'END', 'END@\n', 'END;\n', ';', '@\n', 'DECLARE v VARCHAR(100) DEFAULT ', "'INSERT INTO t VALUES (1)'",
  'SET v = v || ', "'x'", ' || ', 'EXECUTE IMMEDIATE v', "EXECUTE IMMEDIATE 'INSERT INTO t VALUES (' || x || ')'", 'PREPARE s FROM v',
  'IF a THEN ', 'ELSEIF b THEN ', 'ELSE ', 'END IF', 'WHILE x DO ', 'END WHILE', 'FOR r AS SELECT a FROM t DO ', 'END FOR',
  'REPEAT ', 'UNTIL c END REPEAT', 'l: LOOP ', 'END LOOP l', 'CASE WHEN 1 THEN ', 'END CASE', 'INSERT INTO t VALUES (r.a)', 'COMMIT',
  'DECLARE CONTINUE HANDLER FOR NOT FOUND ', 'CALL q(1)', 'OPEN c', 'FETCH c INTO v', 'CLOSE c', "'", '(', ')', ' ', '\n',
];

describe('robustness: SQL PL', () => {
  it('never throws on routine-shaped random text, and nested statements stay inside the file', () => {
    const routine = fc.array(fc.constantFrom(...ROUTINE_PIECES), { maxLength: 60 }).map((p) => p.join(''));
    fc.assert(fc.property(routine, fc.constantFrom(';', '@'), (text, t) => checkNested(text, t)), { numRuns: 1500 });
    fc.assert(fc.property(sqlish(80), (text) => checkNested(text)), { numRuns: 1000 });
  });

  it('never throws on mutations of the SQL PL fixture, nor does the engine building its code model', () => {
    const seed = fixture('procedure.clp');
    fc.assert(
      fc.property(mutated(seed), (text) => {
        checkNested(text);
        buildFileModel({ path: 'p.clp', text, language: 'sql' });
      }),
      { numRuns: 300 },
    );
  });

  it('infers a terminator on any text without throwing', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => void inferTerminator(text)), { numRuns: 2000 });
  });

  const GROWING: Record<string, [(n: number) => string, number]> = {
    'a procedure with many statements': [
      (n) => 'CREATE PROCEDURE p () BEGIN DECLARE i INT; ' + 'SET i = i + 1; IF i > 2 THEN INSERT INTO t VALUES (i); END IF; '.repeat(n / 60) + 'END@\n',
      40_000,
    ],
    'an IF with many ELSEIF branches': [(n) => 'BEGIN IF a = 0 THEN SET b = 0; ' + 'ELSEIF a = 1 THEN SET b = 1; '.repeat(n / 30) + 'END IF; END@\n', 40_000],
    'a text appended to statement by statement': [
      (n) => "CREATE PROCEDURE p () BEGIN DECLARE s VARCHAR(32000) DEFAULT 'INSERT INTO t VALUES ('; " + "SET s = s || '1, ';\n".repeat(n / 20) + "EXECUTE IMMEDIATE s || '0)'; END@\n",
      40_000,
    ],
    'a failing ALTER TABLE with many commas (dialect check)': [(n) => 'ALTER TABLE t ADD ' + 'c INT NULL, '.repeat(n / 12) + 'd INT NULL;\n', 40_000],
    'statements run together with no terminator (glued check)': [(n) => 'CREATE TABLE a (x INT)\n'.repeat(n / 23), 40_000],
  };
  for (const [shape, [make, n]] of Object.entries(GROWING)) {
    it(`parses ${shape} in time linear in the input`, () => {
      const { ratio, smallMs, largeMs } = growthRatio(make, (text) => parseScript(text), n);
      assert.ok(ratio < 24, `8× the input took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    });
  }

  it('builds the code model of routines called in many loops in linear time', () => {
    const make = (n: number) => {
      const parts = ['CREATE PROCEDURE one (IN v INT) BEGIN INSERT INTO t VALUES (v); END@'];
      for (let i = 0; i < n / 90; i++) parts.push(`CREATE PROCEDURE many${i} () BEGIN FOR r AS SELECT a FROM s DO CALL one(r.a); END FOR; END@`);
      return parts.join('\n') + '\n';
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, (text) => buildFileModel({ path: 'p.db2', text, language: 'sql' }), 40_000);
    assert.ok(ratio < 24, `8× the input took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('counts the runs of routines looping over a table, each called by the script, in linear time', () => {
    // Each routine filtered all the script's CALLs, and all routines' calls, for its own: 20,000 routines took 6 s.
    const make = (n: number) => {
      const parts = ['CREATE TABLE A (X INT)@', 'CREATE TABLE B (X INT)@', 'INSERT INTO A VALUES (1), (2), (3)@'];
      for (let i = 0; i < n / 100; i++) parts.push(`CREATE PROCEDURE P${i} () BEGIN FOR r AS SELECT X FROM A DO INSERT INTO B VALUES (r.X); END FOR; END@`, `CALL P${i}()@`);
      return parts.join('\n') + '\n';
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, (text) => buildFileModel({ path: 'p.db2', text, language: 'sql' }), 200_000);
    assert.ok(ratio < 24, `8× the input took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('infers the terminator of a large file in time that stops growing (it reads the first megabyte)', () => {
    const { ratio } = growthRatio((n) => 'INSERT INTO t VALUES (1);\n'.repeat(n / 26), (text) => void inferTerminator(text), 400_000);
    assert.ok(ratio < 24, `ratio ${ratio.toFixed(1)}`);
  });
});
