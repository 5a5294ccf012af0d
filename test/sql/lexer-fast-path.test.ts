// Lexer.run reads the commonest tokens ('(' ')' ',', numbers, plain words) on a fast path before its general
// tests: the tokens, comments and terminator switches must be what the general path alone gives, for any input.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Lexer, TokenList } from '../../server/src/sql/lexer';

/** Every token (kind, start, end, flags) and comment of `text`, lexed in rounds of `round` tokens. */
function lexed(text: string, terminator: string, fastPath: boolean, round: number): unknown {
  const lexer = new Lexer(text, terminator, 0, true, fastPath);
  const tokens = new TokenList(16);
  const out: number[][] = [];
  while (!lexer.done) {
    lexer.run(tokens, tokens.count + round);
    for (let i = 0; i < tokens.count; i++) out.push([tokens.kind[i], tokens.start[i], tokens.end[i], tokens.flags[i]]);
    tokens.count = 0;
  }
  return { tokens: out, comments: lexer.comments };
}

// Pieces around the fast path's edges: the letters that start prefixed strings (B G N U X), ECHO and words at
// a statement's start, terminators that are themselves fast-path characters, comments, placeholders, numbers.
const PIECES = [
  'INSERT', 'into', 'x', 'X', "X'00'", "x'4F'", "G'a'", "N'n'", "B'1'", "GX'00'", "UX'0041'", "BX'01'", "U&'x'", 'U&"d"', 'u',
  'ECHO hi there', 'echo', 'Echo', 'VALUES', 'abc_1', '_x', '@v', '#t', '$d', 'ß', 'é', '\u00a0',
  '(', ')', ',', '.', ';', '@', '!', '!p!', '/', '*', '-', '+', ':h', ':h:i', '?', '||', '<=', '<>',
  '1', '12.5', '.5', '1e3', '2E-4', '3e', '0x1', '1.2.3', "'s'", "'it''s'", '"d"', "'open", '"open',
  '-- c', '--#SET TERMINATOR @', '--#SET TERMINATOR ,', '--#SET TERMINATOR (', '/* b */', '/*', '*/', '# note',
  ' ', '  ', '\n', '\r\n', '\t', '\\\n', 'GO', 'END',
];

describe('sql lexer fast path', () => {
  it('gives the tokens and comments of the general path, for any input, terminator and round size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }),
        fc.array(fc.constantFrom('', ' ', '\n'), { minLength: 40, maxLength: 40 }),
        fc.constantFrom(';', '@', '!', '/', '\n', ',', '(', 'x', 'GO', '1'),
        fc.integer({ min: 1, max: 8 }),
        (pieces, gaps, terminator, round) => {
          const text = pieces.map((p, k) => p + gaps[k]).join('');
          assert.deepEqual(lexed(text, terminator, true, round), lexed(text, terminator, false, round), JSON.stringify({ text, terminator }));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a string or delimited identifier to its closing quote wherever doubled quotes fall, short or long', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b c', "''", '""', 'x'.repeat(20)), { maxLength: 30 }), fc.constantFrom("'", '"'), fc.boolean(), (pieces, quote, closed) => {
        const body = pieces.join('');
        const text = `${quote}${body}${closed ? quote : ''} z`;
        const expected = new RegExp(quote === "'" ? "'(?:[^']|'')*'?" : '"(?:[^"]|"")*"?', 'y').exec(text)![0];
        const tokens = new TokenList(16);
        new Lexer(text).run(tokens);
        assert.equal(text.slice(tokens.start[0], tokens.end[0]), expected, text);
      }),
      { numRuns: 2000 },
    );
  });
});
