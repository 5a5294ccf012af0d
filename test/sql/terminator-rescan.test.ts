// sql/terminator.ts rescanTerminator: after any chain of edits, scanning again around each edit from the
// previous scan must infer what scanning the whole new text infers (the terminator decides the whole parse).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { inferTerminator, rescanTerminator, scanTerminator } from '../../server/src/sql/terminator';

const LINES = [
  'INSERT INTO T VALUES (1);',
  'INSERT INTO T VALUES (2)@',
  'CREATE PROCEDURE P() BEGIN',
  '  INSERT INTO T VALUES (3);',
  'END@',
  'END!',
  '@',
  '/',
  'COMMIT;',
  'CONNECT TO DB1',
  "INSERT INTO T VALUES ('a",
  "b');",
  '-- run with db2 -td@ -vf x.sql',
  '/* a block',
  '   comment */ COMMIT;',
  'SELECT "x', 'y" FROM T;',
  'LOAD FROM x OF DEL INSERT INTO T \\',
  '',
  '   ',
  'VALUES 1 !name!',
];
const INSERTS = ['', ' ', 'x', '\n', ';', '@', '!', '/', "'", '"', '--', '/*', '*/', '-td@', '--#SET TERMINATOR @\n', 'END', '\\'];

describe('sql terminator: scanning again around an edit', () => {
  it('infers what a scan of the whole new text infers, after any chain of edits', () => {
    let met = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 400 }).chain((few) => fc.oneof(fc.constant(few), fc.array(fc.constantFrom(...LINES), { minLength: 150, maxLength: 400 }))),
        fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 20 }), insert: fc.constantFrom(...INSERTS) }), { minLength: 1, maxLength: 8 }),
        (lines, edits) => {
          let text = lines.join('\n') + '\n';
          let scan = scanTerminator(text);
          assert.deepEqual(scan.choice, inferTerminator(text));
          for (const e of edits) {
            const at = e.at % (text.length + 1);
            const end = Math.min(text.length, at + e.remove);
            const next = text.slice(0, at) + e.insert + text.slice(end);
            const fresh = scanTerminator(next);
            scan = rescanTerminator(scan, text, next, { start: at, oldEnd: end, newEnd: at + e.insert.length });
            assert.deepEqual(scan.choice, fresh.choice, `after ${JSON.stringify(e)}`);
            assert.deepEqual(scan.end?.counts, fresh.end?.counts, 'counts');
            if (scan.metAt !== undefined) met++;
            text = next;
          }
        },
      ),
      { numRuns: 300 },
    );
    // The checks above must have compared rescans that met the old scan part-way, not only whole ones.
    assert.ok(met > 50, `met the old scan only ${met} times`);
  });
});
