// Message numbers and the order of findings are computed without ICU (see server/src/engine/count-text.ts and
// compareRuleIds): they must still be what toLocaleString('en-US') and localeCompare give.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { countText } from '../../server/src/engine/count-text';
import { compareRuleIds } from '../../server/src/engine/findings';
import { RULES } from '../../server/src/engine/registry';
import { UNUSED_SUPPRESSION_RULE } from '../../server/src/engine/suppressions';

describe('countText', () => {
  it('groups digits in threes as en-US does', () => {
    assert.equal(countText(0), '0');
    assert.equal(countText(999), '999');
    assert.equal(countText(1000), '1,000');
    assert.equal(countText(20001), '20,001');
    assert.equal(countText(1234567), '1,234,567');
    assert.equal(countText(-1234), '-1,234');
  });

  it('is toLocaleString("en-US") for every safe integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e6, max: 1e7 }), fc.maxSafeInteger(), fc.maxSafeNat(), fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER)), (n) => {
        assert.equal(countText(n), n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves other numbers to ICU', () => {
    for (const n of [1.5, 1234.5678, 2 ** 60, Infinity, NaN, -0]) assert.equal(countText(n), n.toLocaleString('en-US'));
  });
});

describe('compareRuleIds', () => {
  it('orders every pair of rule ids as localeCompare does', () => {
    const ids = [...RULES.map((r) => r.rule.meta.id), UNUSED_SUPPRESSION_RULE];
    assert.ok(ids.length > 20);
    for (const a of ids) for (const b of ids) assert.equal(compareRuleIds(a, b), Math.sign(a.localeCompare(b)), `${a} / ${b}`);
  });

  it('would notice an id where the two orders differ', () => {
    // Upper case and '_' are where code-unit order and collation part: such an id would fail the test above.
    assert.notEqual(compareRuleIds('a-b', 'A-c'), Math.sign('a-b'.localeCompare('A-c')));
  });
});
