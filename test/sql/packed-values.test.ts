// VALUES lists packed one per INSERT (sql/grammar/values.ts PackedValues): the rows read back from the numbers are
// what was written, also when a list outgrows its chunk and moves, and the counting accessors agree with `rows`.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { firstRowSpan, PackedValues, packedValues, packedValuesParts, valueKindBits, valuesKindBits, valuesRowCount } from '../../server/src/sql/grammar/values';
import { parseStatementsFrom, parseSql } from '../../server/src/sql/parser';
import { IDENTITY_ORIGIN, type Statement, type ValuesRow } from '../../server/src/sql/ast';
import { plain } from './plain-parse';

const VALUES = ['1', "'a,b'", '?', ':h', 'NULL', 'DEFAULT', 'CURRENT TIMESTAMP', '(1 + 2)', 'f(x, y)', "DATE '2024-01-01'"];
const rowsArb = fc.array(fc.array(fc.constantFrom(...VALUES), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 });

const scriptOf = (lists: string[][][]) => lists.map((rows) => `INSERT INTO S.T VALUES ${rows.map((r) => `(${r.join(', ')})`).join(',\n  ')};\n`).join('');

/** The script's statements, its VALUES rows packed into chunks of `chunkInts` numbers. */
function parseInChunks(text: string, chunkInts: number): Statement[] {
  const out: Statement[] = [];
  parseStatementsFrom(text, ';', IDENTITY_ORIGIN, { from: 0, lineStart: true, roundTokens: 64, rowChunkInts: chunkInts }, (s) => (out.push(s), true));
  return out;
}

/** The rows of the script as written: each value's text, row by row. */
const valueTexts = (text: string, rows: ValuesRow[]) => rows.map((r) => r.values.map((v) => text.slice(v.span.start, v.span.end)));

describe('packed VALUES lists', () => {
  it('read back every row and value as written, in chunks of any size (a list that outgrows its chunk moves whole)', () => {
    fc.assert(
      fc.property(fc.array(rowsArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 200 }), (lists, chunkInts) => {
        const text = scriptOf(lists);
        const statements = parseInChunks(text, chunkInts);
        assert.equal(statements.length, lists.length);
        statements.forEach((stmt, i) => {
          assert.ok(stmt.kind === 'insert' && stmt.source.kind === 'values' && stmt.source instanceof PackedValues, text);
          assert.deepEqual(valueTexts(text, stmt.source.rows), lists[i], text);
          assert.equal(valuesRowCount(stmt.source), lists[i].length);
        });
        assert.deepEqual(plain(statements), plain(parseSql(text).statements));
      }),
      { numRuns: 300 },
    );
  });

  it('count rows and collect value kinds as the rows themselves say', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const text = scriptOf([rows]);
        const [stmt] = parseSql(text).statements;
        assert.ok(stmt.kind === 'insert' && stmt.source.kind === 'values');
        assert.equal(valuesRowCount(stmt.source), stmt.source.rows.length);
        assert.equal(valuesKindBits(stmt.source), stmt.source.rows.reduce((bits, r) => bits | valueKindBits(r), 0));
        // The parser's bits, and those a list sent to another thread works out from its numbers (cli/ship-model.ts).
        assert.equal(valuesKindBits(packedValues(packedValuesParts(stmt.source)!)), valuesKindBits(stmt.source));
        // The same answers for a plain list (built by hand, as code front ends and tests may).
        const plainSource = { kind: 'values' as const, rows: stmt.source.rows.map((r) => ({ span: r.span, values: r.values })), span: stmt.source.span };
        assert.equal(valuesRowCount(plainSource), rows.length);
        assert.equal(valuesKindBits(plainSource), valuesKindBits(stmt.source));
        assert.deepEqual(firstRowSpan(stmt.source), stmt.source.rows[0].span);
        assert.deepEqual(firstRowSpan(plainSource), stmt.source.rows[0].span);
      }),
      { numRuns: 200 },
    );
  });

  it('collect the kinds of rows written without parentheses, and of none when a row cannot be read', () => {
    for (const text of ['INSERT INTO S.T VALUES NULL, ?, 1;', 'INSERT INTO S.T VALUES DEFAULT;', 'INSERT INTO S.T VALUES (1), (NULL,);', 'INSERT INTO S.T VALUES (?), (NULL']) {
      const [stmt] = parseSql(text).statements;
      assert.ok(stmt.kind === 'insert' && stmt.source.kind === 'values', text);
      assert.equal(valuesKindBits(stmt.source), stmt.source.rows.reduce((bits, r) => bits | valueKindBits(r), 0), text);
    }
  });

  it('moves the list, its rows and values by an offset, and nothing of the lists beside it', () => {
    const text = scriptOf([[['1', '2']], [['?', "'x'"], ['3', 'NULL']], [['4']]]);
    const statements = parseSql(text).statements;
    const before = plain(statements);
    const middle = statements[1];
    assert.ok(middle.kind === 'insert' && middle.source instanceof PackedValues);
    middle.source.shiftBy(5);
    const moved = (o: unknown): unknown => (Array.isArray(o) ? o.map(moved) : o && typeof o === 'object' ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === 'start' || k === 'end' ? (v as number) + 5 : moved(v)])) : o);
    const after = plain(statements) as { source: unknown }[];
    const was = before as { source: unknown }[];
    assert.deepEqual(after[1].source, moved(was[1].source));
    assert.deepEqual(after[0], was[0]);
    assert.deepEqual(after[2], was[2]);
  });
});
