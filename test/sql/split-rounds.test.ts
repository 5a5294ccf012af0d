// parseSql lexes and splits big scripts in rounds through one reused token buffer
// (forEachStatementInRounds); the statements must be exactly those of one pass over all tokens,
// whatever the round size, including at the look-ahead mayHoldBlock and END … need.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { lex, Lexer, TokenList } from '../../server/src/sql/lexer';
import { forEachStatement, forEachStatementInRounds } from '../../server/src/sql/splitter';
import { parseSql } from '../../server/src/sql/parser';

type Range = [start: number, end: number, unterminatedBlock: boolean];

function allAtOnce(text: string, terminator: string): Range[] {
  const { tokens } = lex(text, terminator);
  const out: Range[] = [];
  forEachStatement(text, tokens, (first, end, u) => out.push([tokens.start[first], tokens.end[end - 1], u]));
  return out;
}

function inRounds(text: string, terminator: string, roundTokens: number): Range[] {
  const tokens = new TokenList(4);
  const out: Range[] = [];
  forEachStatementInRounds(new Lexer(text, terminator), text, tokens, roundTokens, (first, end, u) => out.push([tokens.start[first], tokens.end[end - 1], u]));
  return out;
}

// Pieces that exercise the block-aware splitter: routines, triggers, compound statements, CASE, END IF,
// labels, terminator switches, CLP lines, and statements a few words before a CREATE PROCEDURE.
const PIECES = [
  'CREATE TABLE T (A INT);',
  'INSERT INTO T VALUES (1), (2);',
  'CREATE PROCEDURE P() BEGIN DECLARE X INT; IF X = 1 THEN SET X = 2; END IF; END;',
  'CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW BEGIN ATOMIC INSERT INTO A VALUES (1); END;',
  'BEGIN INSERT INTO T VALUES (1); COMMIT; END;',
  'L1: BEGIN WHILE 1 = 1 DO LEAVE L1; END WHILE; END;',
  'UPDATE B SET X = CASE WHEN Y = 1 THEN 2 ELSE 3 END;',
  'CREATE FUNCTION F() RETURNS INT BEGIN CASE WHEN 1 = 1 THEN RETURN 1; END CASE; RETURN 2; END;',
  '--#SET TERMINATOR @\nCREATE PROCEDURE Q() BEGIN COMMIT; END@\n--#SET TERMINATOR ;\n',
  'ECHO hello; there;',
  'COMMIT;',
  'SELECT BEGIN, END FROM T;',
  'CREATE TABLE U (B INT)',
  ';',
  ' BEGIN ',
  ' END ',
  'ALTER TABLE T ADD COLUMN C INT;',
  // mayHoldBlock reads past the terminator: followed by CREATE PROCEDURE this BEGIN opens a block.
  'CREATE VIEW BEGIN;',
  'CREATE PROCEDURE R() BEGIN COMMIT; END;',
];

describe('sql splitter: statements in rounds', () => {
  it('gives the statements of one pass over all tokens, for any round size', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom(';', '@'), (pieces, round, terminator) => {
        const text = pieces.join('\n');
        assert.deepEqual(inRounds(text, terminator, round), allAtOnce(text, terminator));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps only a bounded buffer on a long script of short statements', () => {
    const text = 'INSERT INTO T VALUES (1, 2);\n'.repeat(20_000);
    const tokens = new TokenList(4);
    let statements = 0;
    let largest = 0;
    forEachStatementInRounds(new Lexer(text), text, tokens, 100, () => {
      statements++;
      largest = Math.max(largest, tokens.count);
    });
    assert.equal(statements, 20_000);
    assert.ok(largest < 300, `buffer held ${largest} tokens`);
  });

  it('empties a token list for reuse as a new one: zeroed wherever tokens were, a discard before or not', () => {
    const text = 'INSERT INTO T VALUES (1, 2);\nCOMMIT;\nDELETE FROM T;\n';
    for (const discard of [0, 5]) {
      const tokens = new TokenList(64);
      new Lexer(text).run(tokens);
      assert.ok(tokens.count > 5);
      tokens.discard(discard);
      tokens.reset();
      assert.equal(tokens.count, 0);
      for (const array of [tokens.kind, tokens.start, tokens.end, tokens.flags]) assert.ok(array.every((x) => x === 0), `left over after a discard of ${discard}`);
    }
  });

  it('parseSql reads a text the same whatever it read before (small token lists are kept for the next parse)', () => {
    const texts = [
      'INSERT INTO T (A, B) VALUES (1, 2);\n'.repeat(300),
      'COMMIT',
      "INSERT INTO T VALUES ('x', 2)",
      "CREATE PROCEDURE P() BEGIN EXECUTE IMMEDIATE 'INSERT INTO T VALUES (1)'; EXECUTE IMMEDIATE 'DELETE FROM T'; END",
      'ALTER TABLE T ADD COLUMN C INT; CREATE INDEX I ON T (C',
      '',
      "UPDATE T SET A = 'unterminated",
      ...PIECES,
    ];
    const alone = texts.map((t) => JSON.stringify(parseSql(t)));
    texts.forEach((before) => {
      texts.forEach((text, i) => {
        parseSql(before);
        assert.equal(JSON.stringify(parseSql(text)), alone[i], `${text} after ${before}`);
      });
    });
  });
});
