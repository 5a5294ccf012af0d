// sql/terminator.ts rescanTerminator: after any chain of edits, scanning again around each edit from the
// previous scan must infer what scanning the whole new text infers (the terminator decides the whole parse).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { inferTerminator, rescanTerminator, scanTerminator, type TerminatorScan } from '../../server/src/sql/terminator';

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
  '-- run with db2 -tvf x.sql',
  '-- db2 -x -t -v -f y.sql',
  '/* db2 -stvf z.sql */',
  '-- db2 -vtd! -f w.sql',
  '-- db2 -vtd@ -f x.sql',
  '/* db2 -td! -f y.sql */',
  '/* a block',
  '   comment */ COMMIT;',
  'SELECT "x', 'y" FROM T;',
  'LOAD FROM x OF DEL INSERT INTO T \\',
  '',
  '   ',
  'VALUES 1 !name!',
];
const INSERTS = ['', ' ', 'x', '\n', ';', '@', '!', '/', "'", '"', '--', '/*', '*/', '-td@', '--#SET TERMINATOR @\n', 'END', '\\', 'db2 ', ' -tvf', '-- db2 -tf a.sql\n', 'd'];

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

/**
 * Applies `edits` to `text` one after the other, each time giving `check` the rescan from the previous scan and a
 * fresh scan (of a file called `name`, when given: comments' db2 commands that run other files do not count).
 */
function rescanAlong(text: string, edits: readonly Edit[], check: (scan: TerminatorScan, fresh: TerminatorScan, edit: Edit) => void, name?: string): void {
  let scan = scanTerminator(text, { name });
  for (const e of edits) {
    const at = e.at % (text.length + 1);
    const end = Math.min(text.length, at + e.remove);
    const next = text.slice(0, at) + e.insert + text.slice(end);
    const fresh = scanTerminator(next, { name });
    scan = rescanTerminator(scan, text, next, { start: at, oldEnd: end, newEnd: at + e.insert.length });
    check(scan, fresh, e);
    text = next;
  }
}

describe('sql terminator: scanning again around an edit', () => {
  it('infers what a scan of the whole new text infers, after any chain of edits', () => {
    let met = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 400 }).chain((few) => fc.oneof(fc.constant(few), fc.array(fc.constantFrom(...LINES), { minLength: 150, maxLength: 400 }))),
        fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 20 }), insert: fc.constantFrom(...INSERTS) }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(undefined, 'x.sql', '/w/y.sql'),
        (lines, edits, name) => {
          const text = lines.join('\n') + '\n';
          assert.deepEqual(scanTerminator(text, { name }).choice, inferTerminator(text, { name }));
          rescanAlong(text, edits, (scan, fresh, e) => {
            assert.deepEqual(scan.choice, fresh.choice, `after ${JSON.stringify(e)}`);
            assert.deepEqual(scan.end?.counts, fresh.end?.counts, 'counts');
            assert.deepEqual(scan.semicolonComment, fresh.semicolonComment, 'the db2 -t comment');
            assert.equal(scan.name, fresh.name);
            if (scan.metAt !== undefined) met++;
          }, name);
        },
      ),
      { numRuns: 300 },
    );
    // The checks above must have compared rescans that met the old scan part-way, not only whole ones.
    assert.ok(met > 50, `met the old scan only ${met} times`);
  });

  it('finds the db2 -t comment a scan of the whole new text finds, where such comments are few', () => {
    // Mostly code, a comment naming the CLP now and then: the first one is often after an edit, and a rescan
    // that meets the old scan before it must take it (moved) from there.
    const code = fc.constantFrom('INSERT INTO T VALUES (1);', 'COMMIT;', 'CREATE PROCEDURE P() BEGIN', 'END;', '', '/* a', 'b */');
    const comments = fc.constantFrom('-- run with db2 -tvf x.sql', '-- db2 -x -t -v -f y.sql', '/* db2 -stvf z.sql */', '-- db2 -vtd! -f w.sql', '-- db2 -td@ -f v.sql', '-- db2 -vtd@ -f x.sql', '/* db2 -td! -f y.sql */');
    const line = fc.oneof({ arbitrary: code, weight: 60 }, { arbitrary: comments, weight: 1 });
    let found = 0;
    let met = 0;
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 150, maxLength: 500 }),
        fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 30 }), insert: fc.constantFrom('', 'x', '\n', '\n\n\n', '-- db2 -tf a.sql\n', 'db2 ', ' -tvf', '-- db2 -td@ -f b\n', '/*', '*/', 'd') }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(undefined, 'x.sql', 'C:\\w\\Y.SQL'),
        (lines, edits, name) =>
          rescanAlong(
            lines.join('\n') + '\n',
            edits,
            (scan, fresh, e) => {
              assert.deepEqual(scan.semicolonComment, fresh.semicolonComment, `after ${JSON.stringify(e)}`);
              assert.deepEqual(scan.choice, fresh.choice);
              if (fresh.semicolonComment) found++;
              if (scan.metAt !== undefined && fresh.semicolonComment && fresh.semicolonComment.span.start > scan.metAt) met++;
            },
            name,
          ),
      ),
      { numRuns: 300 },
    );
    assert.ok(found > 50 && met > 4, `a comment found ${found} times, after the meeting point ${met} times`);
  });
});
