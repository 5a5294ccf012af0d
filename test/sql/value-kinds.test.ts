// valueKindBits answers what valueKinds lists, for packed rows (the parser's) and plain ones (built by hand).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { valueKindBit, valueKindBits, valueKinds } from '../../server/src/sql/grammar/values';
import { parseSql } from '../../server/src/sql/parser';
import type { ValueKind, ValuesRow } from '../../server/src/sql/ast';
import { isLiteralValues } from '../../server/src/code-model/facts';

const bitsOf = (kinds: readonly ValueKind[]) => kinds.reduce((bits, k) => bits | valueKindBit(k), 0);

describe('valueKindBits', () => {
  const values = ['1', "'a'", '?', ':h', 'NULL', 'DEFAULT', 'CURRENT TIMESTAMP', '1 + 2', 'f(x)', 'NEXT VALUE FOR s'];

  it('has the bit of each kind valueKinds lists, for the rows the parser packs', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), (rows) => {
        const sql = `INSERT INTO t VALUES ${rows.map((r) => `(${r.join(', ')})`).join(', ')};`;
        const [stmt] = parseSql(sql).statements;
        assert.ok(stmt.kind === 'insert' && stmt.source.kind === 'values', sql);
        let all = 0;
        for (const row of stmt.source.rows) {
          assert.equal(valueKindBits(row), bitsOf(valueKinds(row)), sql);
          all |= valueKindBits(row);
        }
        const kinds = new Set(stmt.source.rows.flatMap((r) => [...valueKinds(r)]));
        assert.equal(isLiteralValues(stmt), kinds.has('literal') && !kinds.has('marker') && !kinds.has('host'), sql);
        assert.ok(all !== 0);
      }),
      { numRuns: 500 },
    );
  });

  it('reads plain rows too', () => {
    const row: ValuesRow = { span: { start: 0, end: 9 }, values: [{ kind: 'marker', span: { start: 1, end: 2 } }, { kind: 'null', span: { start: 4, end: 8 } }] };
    assert.equal(valueKindBits(row), valueKindBit('marker') | valueKindBit('null'));
    assert.equal(valueKindBits(row) & valueKindBit('literal'), 0);
  });
});
