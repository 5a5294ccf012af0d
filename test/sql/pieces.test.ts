// sql/pieces.ts: a large script parsed in pieces (check --jobs) must give what parsing it whole gives, or
// say "parse it whole". Cuts are tried where cutScript puts them and at random line starts, in scripts
// with the things that make a line look like a statement start when it is not (strings, comments, blocks).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseSql } from '../../server/src/sql/parser';
import { cutScript, joinPieces, parsePiece, type ScriptPiece } from '../../server/src/sql/pieces';
import { plain } from './plain-parse';

const PARTS = [
  'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (CACHE 5), NOTE VARCHAR(20), PRIMARY KEY (ID));\n',
  "INSERT INTO S.T (NOTE) VALUES ('a'), ('b');\n",
  'INSERT INTO S.T (NOTE)\n  VALUES (?);\n',
  '-- a comment; with a terminator\n',
  '/* block;\nINSERT INTO S.T VALUES (0);\n comment */\n',
  "INSERT INTO S.T (NOTE) VALUES ('a string;\nINSERT INTO S.T VALUES (1);\nover lines');\n",
  'SET SCHEMA S;\n',
  'COMMIT;\n',
  '  INSERT INTO S.T (NOTE) VALUES (\'indented\');\n',
  "INSERT INTO T VALUES (1, 'x;y', 2.5)\n;\n",
  'INSERT INTO S.T (NOTE) VALUES (NEXT VALUE FOR S.Q);\n',
  'MERGE INTO S.T USING (VALUES (1)) AS V(X) ON 1 = 0\nWHEN NOT MATCHED THEN\nINSERT (NOTE) VALUES (\'m\');\n',
  'INSERT INTO S.T (NOTE) VALUES (\'unterminated\'\n',
  'INSERT INTO S.T (NOTE VALUES (;\n',
  'CONNECT TO DB1;\n',
];

const scriptArb = fc.tuple(fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 30 }), fc.constantFrom(';', '@')).map(([parts, terminator]) => {
  let text = parts.join('');
  if (terminator === '@') text = text.replace(/;\n/g, '@\n');
  return { text, terminator };
});

/** The first non-blank character of every line but the first: every place a cut could be. */
function lineStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    let first = i + 1;
    while (text[first] === ' ') first++;
    if (first < text.length && text[first] !== '\n') starts.push(first);
  }
  return starts;
}

function parseInPieces(text: string, terminator: string, pieces: ScriptPiece[]) {
  return joinPieces(pieces, pieces.map((piece) => parsePiece(text, terminator, piece)));
}

function assertSameAsWhole(text: string, terminator: string, joined: ReturnType<typeof joinPieces>): void {
  const whole = parseSql(text, { terminator });
  assert.deepEqual(plain(joined!.statements), plain(whole.statements), `statements of ${JSON.stringify(text)}`);
  assert.deepEqual(plain(joined!.comments), plain(whole.comments), `comments of ${JSON.stringify(text)}`);
}

describe('sql script read in pieces', () => {
  it('joins to the whole parse, or refuses, wherever the cuts fall', () => {
    let joined = 0;
    let refused = 0;
    fc.assert(
      fc.property(scriptArb, fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), ({ text, terminator }, picks) => {
        const starts = lineStarts(text);
        if (starts.length === 0) return;
        const cuts = [...new Set(picks.map((p) => starts[p % starts.length]))].sort((a, b) => a - b);
        const froms = [0, ...cuts];
        const pieces = froms.map((from, i) => (i + 1 < froms.length ? { from, until: froms[i + 1] } : { from }));
        const result = parseInPieces(text, terminator, pieces);
        if (!result) {
          refused++;
          return;
        }
        joined++;
        assertSameAsWhole(text, terminator, result);
      }),
      { numRuns: 600 },
    );
    // Both outcomes happen: the property is not true for want of joins, nor for want of refusals.
    assert.ok(joined > 100, `joined ${joined}`);
    assert.ok(refused > 20, `refused ${refused}`);
  });

  it('cuts where statements start, so that most scripts join', () => {
    let joined = 0;
    fc.assert(
      fc.property(scriptArb, fc.integer({ min: 2, max: 6 }), ({ text, terminator }, count) => {
        const pieces = cutScript(text, terminator, count)!;
        assert.ok(pieces.length >= 1 && pieces.length <= count);
        assert.equal(pieces[0].from, 0);
        const result = parseInPieces(text, terminator, pieces);
        if (result) {
          joined++;
          assertSameAsWhole(text, terminator, result);
        }
      }),
      { numRuns: 300 },
    );
    assert.ok(joined > 150, `joined ${joined} of 300`);
  });

  it('cuts a large load script into the pieces asked for, each parsed on its own', () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `INSERT INTO APP.EVENTS (A, B) VALUES (${i}, 'row ${i}');`);
    const text = ['CREATE TABLE APP.EVENTS (A INT, B VARCHAR(20));', ...rows, 'COMMIT;', ''].join('\n');
    const pieces = cutScript(text, ';', 4)!;
    assert.equal(pieces.length, 4);
    const parsed = pieces.map((p) => parsePiece(text, ';', p));
    assert.ok(parsed.every((p) => p.statements.length > 900), parsed.map((p) => p.statements.length).join(' '));
    const result = joinPieces(pieces, parsed);
    assert.ok(result);
    assert.equal(result.statements.length, 4002);
    assertSameAsWhole(text, ';', result);
  });

  it('refuses scripts read with state: SQL PL and terminator directives', () => {
    const body = Array.from({ length: 50 }, (_, i) => `INSERT INTO T VALUES (${i});`).join('\n');
    const routine = `${body}\nCREATE PROCEDURE P() BEGIN DECLARE I INT; SET I = 1; INSERT INTO T VALUES (I); END;\n${body}\n`;
    const pieces = cutScript(routine, ';', 3)!;
    assert.equal(joinPieces(pieces, pieces.map((p) => parsePiece(routine, ';', p))), undefined);
    assert.equal(cutScript(`--#SET TERMINATOR @\n${body}`, ';', 3), undefined);
    assert.equal(cutScript(`SET PASSTHRU ORA;\n${body}\nSET PASSTHRU RESET;\n${body}`, ';', 3), undefined);
  });

  it('gives one piece when no line looks like a statement start', () => {
    const text = `INSERT INTO T VALUES ('${'x\n'.repeat(1000)}');\n`;
    assert.deepEqual(cutScript(text, ';', 4), [{ from: 0 }]);
  });
});
