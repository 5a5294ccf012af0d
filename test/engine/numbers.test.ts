// engine/numbers.ts thousands() must print what toLocaleString('en-US') prints (messages and fingerprints read it).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { thousands } from '../../server/src/engine/numbers';

describe('engine: thousands', () => {
  it('equals toLocaleString("en-US")', () => {
    for (const n of [0, 7, 999, 1000, 20001, 123456, 1234567, 1e15, -1234, 2.5, Number.MAX_SAFE_INTEGER]) assert.equal(thousands(n), n.toLocaleString('en-US'), String(n));
    fc.assert(fc.property(fc.nat(), (n) => assert.equal(thousands(n), n.toLocaleString('en-US'))), { numRuns: 2000 });
  });
});
