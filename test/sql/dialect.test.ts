// The dialect words read from a script's text (sql/dialect.ts dialectWords): the phrases are tried only where
// their anchor words are, which must find a match of each kind whenever testing the two expressions on the
// whole text finds one, and only real matches.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { growthRatio } from '../robustness/support';
import { dialectWords, LUW_TEXT, ZOS_TEXT } from '../../server/src/sql/dialect';

const wholeText = (t: string) => ({ zos: ZOS_TEXT.test(t), luw: LUW_TEXT.test(t) });

/** What dialectWords finds, as "is there one", after checking each pair it gives is a match of its expression. */
function found(t: string): { zos: boolean; luw: boolean } {
  const words = dialectWords(t);
  for (const [pairs, expression] of [[words.zos, ZOS_TEXT], [words.luw, LUW_TEXT]] as const) {
    assert.ok(pairs.length === 0 || pairs.length === 2, JSON.stringify(pairs));
    if (pairs.length === 2) {
      const at = new RegExp(expression.source, 'iy');
      at.lastIndex = pairs[0];
      assert.ok(at.test(t) && at.lastIndex === pairs[1], `${JSON.stringify(t)}: [${pairs}] is no match of ${expression.source}`);
    }
  }
  return { zos: words.zos.length > 0, luw: words.luw.length > 0 };
}

describe('sql dialect words', () => {
  // The phrases' words in both cases, glued and apart, with every kind of white space \s knows and the
  // characters \b and \w treat differently from the lexer (@ # $ _ digits, non-ASCII).
  const fragments = [
    'SET', 'set', 'CURRENT', 'current', 'SQLID', 'sqlid', 'APPEND', 'Append', 'YES', 'NO', 'no', 'ON', 'OFF', 'CREATE', 'create',
    'DATABASE', 'database', 'STOGROUP', 'stogroup', 'BUFFERPOOL', 'VOLUMES', 'CCSID', 'INDEXBP', 'NOT', 'PADDED', 'padded', 'USING',
    'ORGANIZE', 'DISTRIBUTE', 'MANAGED', 'BY', 'by', 'DB1', 'X', '_', '@', '#', '$', '9', 'é', ' ', ' ', ' ', '  ', '\t', '\n', '\r\n',
    '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', ';', ',', '(', ')', "'", '--', '/*', '*/', '=', '.',
  ];
  const text = fc.array(fc.constantFrom(...fragments), { maxLength: 40 }).map((parts) => parts.join(''));

  it('gives what testing ZOS_TEXT and LUW_TEXT on the whole text gives', () => {
    fc.assert(
      fc.property(text, (t) => {
        assert.deepEqual(found(t), wholeText(t));
      }),
      { numRuns: 20000 },
    );
  });

  it('finds phrases a few words before, behind or around other anchor words', () => {
    const cases = [
      'SET  CURRENT\n\tSQLID = X',
      'x SET CURRENT SQLID',
      'XSET CURRENT SQLID',
      'SET CURRENTX SQLID',
      'CREATE DATABASE DATABASE STOGROUP',
      'CREATE STOGROUP SG VOLUMES',
      'create\u00a0database db1\u2028ccsid',
      'NOT PADDED',
      'NOTPADDED NOT  PADDED',
      'USING STOGROUP',
      'APPENDAPPEND YES',
      'APPEND APPEND YES',
      'APPEND\u3000NO',
      '_APPEND YES',
      'ORGANIZE BY',
      'XORGANIZE BY ORGANIZE BY',
      'DISTRIBUTE  BY',
      'MANAGED\tBY',
      'APPEND OFF',
      'SQLIDSQLID',
      '',
    ];
    for (const t of cases) assert.deepEqual(found(t), wholeText(t), JSON.stringify(t));
  });

  it('is linear in a text full of anchor words', () => {
    const block = 'SET CURRENT DATABASE x CREATE STOGROUP   y NOT SQLID APPENDAPPEND ORGANIZE MANAGED\n';
    const script = (lines: number) => block.repeat(lines);
    const { ratio, smallMs, largeMs } = growthRatio(script, (t) => void dialectWords(t), 2_000);
    assert.ok(ratio < 24, `8× the text took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });
});
