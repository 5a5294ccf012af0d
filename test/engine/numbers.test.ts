// Numbers in messages and the order of rule ids, without ICU (engine/numbers.ts, workspace.ts compareRuleIds).
import * as assert from 'node:assert/strict';
import { groupThousands } from '../../server/src/engine/numbers';
import { compareRuleIds } from '../../server/src/engine/workspace';
import { ENGINE_FINDINGS } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';

describe('numbers and rule-id order without Intl', () => {
  it('groups thousands as toLocaleString("en-US") does', () => {
    const samples = [0, -0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 20000, 20001, 123456, 1234567, -1, -1000, -1234567, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, 1234.5678, NaN, Infinity];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48271) % 2147483647;
      samples.push(seed % 10 ** (1 + (i % 12)));
    }
    for (const n of samples) assert.equal(groupThousands(n), n.toLocaleString('en-US'), String(n));
  });

  it('orders the rule ids as localeCompare does: they are lower-case ASCII words and hyphens', () => {
    const ids = [...allRules().map((r) => r.meta.id), ...ENGINE_FINDINGS];
    for (const id of ids) assert.match(id, /^[a-z][a-z0-9-]*$/);
    // Pairs that differ only by a hyphen or a prefix, where a collation could disagree with code units.
    const tricky = [...ids, 'a-b', 'ab', 'a0', 'a', 'a-', 'zos-x', 'zosx'];
    assert.deepEqual([...tricky].sort(compareRuleIds), [...tricky].sort((a, b) => a.localeCompare(b)));
  });
});
