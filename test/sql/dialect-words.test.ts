// sql/dialect.ts wordsAfterEdit: after any chain of edits, the dialect words kept for a script must say what
// searching its whole text says (a script's inferred dialect decides which rules run on it).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { dialectWords, inferDialect, wordsAfterEdit } from '../../server/src/sql/dialect';

const WORDS = ['APPEND', 'YES', 'NO', 'ON', 'OFF', 'SET', 'CURRENT', 'SQLID', 'CREATE', 'DATABASE', 'STOGROUP', 'D1', 'ORGANIZE', 'BY', 'MANAGED', 'NOT', 'PADDED', 'USING', 'x', ';', '('];
const SEPARATORS = [' ', '  ', '\n', '\t', '', '\u00a0'];
const INSERTS = ['', ' ', 'x', '\n', 'APPEND ', ' YES', 'ON', 'SQLID', 'BY ', ';', 'NOT PADDED'];

describe('sql dialect words', () => {
  it('after edits, tell what a search of the whole text tells', () => {
    let changed = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 8 }), insert: fc.constantFrom(...INSERTS) }), { minLength: 1, maxLength: 10 }),
        (parts, edits) => {
          let text = parts.map(([w, s]) => w + s).join('');
          let words = dialectWords(text);
          for (const e of edits) {
            const at = e.at % (text.length + 1);
            const end = Math.min(text.length, at + e.remove);
            const next = text.slice(0, at) + e.insert + text.slice(end);
            words = wordsAfterEdit(words, next, { start: at, oldEnd: end, newEnd: at + e.insert.length });
            const fresh = dialectWords(next);
            assert.equal(words.zos.length > 0, fresh.zos.length > 0, `z/OS words in ${JSON.stringify(next)}`);
            assert.equal(words.luw.length > 0, fresh.luw.length > 0, `LUW words in ${JSON.stringify(next)}`);
            assert.equal(inferDialect([], next, words), inferDialect([], next));
            if (inferDialect([], next) !== inferDialect([], text)) changed++;
            text = next;
          }
        },
      ),
      { numRuns: 2000 },
    );
    assert.ok(changed > 100, `the dialect changed only ${changed} times`);
  });
});

describe('sql dialect words kept over many keystrokes', () => {
  it('do not grow while typing near a dialect word without touching it', () => {
    // The edit is a few words from APPEND YES, inside the stretch searched again, but does not touch it.
    let text = `CREATE TABLE T (A INT) APPEND YES IN TS1;\nINSERT INTO T VALUES (1);\n`;
    let words = dialectWords(text);
    const at = text.indexOf('TS1') + 2;
    for (let i = 0; i < 200; i++) {
      const next = i % 2 === 0 ? text.slice(0, at) + '2' + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      words = i % 2 === 0 ? wordsAfterEdit(words, next, { start: at, oldEnd: at, newEnd: at + 1 }) : wordsAfterEdit(words, next, { start: at, oldEnd: at + 1, newEnd: at });
      text = next;
    }
    assert.ok(words.zos.length <= 4, `${words.zos.length / 2} z/OS matches kept for one in the text`);
  });
});
