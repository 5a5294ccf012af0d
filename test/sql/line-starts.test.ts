// The line starts the lexer collects as it passes each '\n' (sql/lexer.ts LineStartList) must be those
// engine/lines.ts finds by scanning the text: every construct that steps over several characters at once
// (strings, delimited names, block comments, CLP ECHO and ! free text, backslash continuations, host
// variables in quotes, newline terminators) may hold a line break.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { lineStarts } from '../../server/src/engine/lines';
import { LineStartList } from '../../server/src/sql/lexer';
import { IDENTITY_ORIGIN } from '../../server/src/sql/ast';
import { parseSql, parseStatementsFrom } from '../../server/src/sql/parser';

const fragments = [
  '\n', '\n', '\n\n', ' ', '\t', 'INSERT INTO t VALUES (1, 2)', ';', '@', "'", "'a\nb'", '"', '"x\ny"', "X'0\nA'", 'U&"a\nb"', "N'\n'",
  '--', '-- c\n', '/*', '*/', '/* a\nb */', '/* /* \n */ */', '#', '# note\n', 'ECHO a\nb', 'ECHO', '!ls\n-l', '!p!', '!', '\\', '\\\n', '\\ \n',
  ':h', ':"h\nx"', ':"', '--#SET TERMINATOR @\n', '--#SET TERMINATOR ;\n', 'CREATE PROCEDURE p BEGIN', 'END', 'x', '(', ')', ',', '.', '\u2028',
];
const text = fc.array(fc.constantFrom(...fragments), { maxLength: 50 }).map((parts) => parts.join(''));

function collected(source: string, terminator: string, roundTokens: number): number[] {
  const lines = new LineStartList(source.length);
  parseStatementsFrom(source, terminator, IDENTITY_ORIGIN, { from: 0, lineStart: true, roundTokens, lines }, () => true);
  return [...lines.starts()];
}

describe('sql line starts from the lexer', () => {
  it('are the starts a scan of the text finds, with any terminator and in rounds of any size', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(';', '@', '\n', '!!'), fc.constantFrom(1, 3, 32_768), (t, terminator, round) => {
        assert.deepEqual(collected(t, terminator, round), [...lineStarts(t)]);
      }),
      { numRuns: 5000 },
    );
  });

  it('come with parseSql on a text without \\r, and are left to LineIndex with one', () => {
    const script = 'INSERT INTO t VALUES (1);\n'.repeat(300) + "INSERT INTO t VALUES ('a\nb');\n";
    assert.deepEqual([...(parseSql(script).lineStarts ?? [])], [...lineStarts(script)]);
    assert.equal(parseSql(script.replace(/\n/g, '\r\n')).lineStarts, undefined);
  });
});
