// What files include (engine/members.ts): a file is read again when a member it includes now changes, and
// not for a member it included only before its last read.
import { strict as assert } from 'node:assert';
import { MemberIndex } from '../../server/src/engine/members';

describe('engine member index', () => {
  it('marks the includers of a changed member stale, once each', () => {
    const members = new MemberIndex();
    members.track('cbl/PROG1.cbl', ['CUSTREC', 'DCLCUST']);
    members.track('cbl/PROG2.cbl', ['CUSTREC']);
    members.changed('cpy/CUSTREC.cpy', true);
    assert.deepEqual([...members.takeStale()].sort(), ['cbl/PROG1.cbl', 'cbl/PROG2.cbl']);
    assert.deepEqual(members.takeStale(), []);
  });

  it('forgets what a file included before its last read', () => {
    const members = new MemberIndex();
    members.track('cbl/PROG1.cbl', ['CUSTREC', 'DCLCUST']);
    members.track('cbl/PROG1.cbl', ['DCLCUST']);
    members.changed('cpy/CUSTREC.cpy', true);
    assert.deepEqual(members.takeStale(), []);
    members.changed('cpy/DCLCUST.cpy', true);
    assert.deepEqual(members.takeStale(), ['cbl/PROG1.cbl']);
    // Read again including nothing: no member change concerns it any more.
    members.track('cbl/PROG1.cbl', undefined);
    members.changed('cpy/DCLCUST.cpy', true);
    assert.deepEqual(members.takeStale(), []);
  });

  it('does not mark a file stale for its own change', () => {
    const members = new MemberIndex();
    members.track('cpy/A.cpy', ['A']);
    members.changed('cpy/A.cpy', true);
    assert.deepEqual(members.takeStale(), []);
  });
});
