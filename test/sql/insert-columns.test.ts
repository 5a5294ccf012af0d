// An INSERT whose column list spells the previous INSERT's exactly gets that list without its names being read
// again (Parser.repeatedColumns); any other spelling is read in full. Either way the list is the one the
// statement gives when parsed on its own.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseSql } from '../../server/src/sql/parser';
import type { InsertStatement } from '../../server/src/sql/ast';

const LISTS = ['(A, B)', '(A,B)', '( A , B )', '(a, B)', '("A", B)', '("a", B)', '(A X, B)', '(A, B, C)', '(A)', '(Ä, B)', '(A /* c */, B)', '(A, "B")', '(AB)', '(A, B', '(A, B,)', '(A.B, C)'];

const columnsOf = (text: string) => parseSql(text).statements.filter((s): s is InsertStatement => s.kind === 'insert').map((s) => s.columns);

describe('parser: INSERT column lists repeated from the INSERT before', () => {
  it('are the lists each INSERT gives parsed on its own, whatever the spelling', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LISTS), { minLength: 1, maxLength: 12 }), (lists) => {
        const statements = lists.map((list, i) => `INSERT INTO T ${list} VALUES (${i}, ${i})`);
        const alone = statements.map((s) => columnsOf(s + ';')[0]);
        assert.deepEqual(columnsOf(statements.join(';\n') + ';\n'), alone, lists.join(' '));
      }),
      { numRuns: 500 },
    );
  });

  it('share one array when they repeat the list', () => {
    const [first, second, third] = columnsOf('INSERT INTO T (A, B) VALUES (1, 2);\nINSERT INTO T (A, B) VALUES (3, 4);\nINSERT INTO T (a, B) VALUES (5, 6);\n');
    assert.equal(second, first);
    assert.deepEqual(third, ['A', 'B']);
    assert.equal(third, first, 'read in full, still the same list');
  });
});
