// A tick whose item's result cannot be written because the script lock stays busy stops quietly: the item keeps its
// claim until the lease runs out and is then claimed afresh, and the execution is not reported as failed.
import { describe, expect, it } from 'vitest';
import { runClaimed } from '../../../../src/app/queue/tick.js';
import { requestDiscussion } from '../../../../src/app/discussions/requests.js';
import { decline, kaigi, settle, statuses } from '../inproc.js';

describe('a busy lock when a claimed item finishes', () => {
  it('returns busy instead of throwing, and the item is worked again once its lease runs out', () => {
    const k = kaigi();
    requestDiscussion(decline('tanaka'), k.council());
    const council = k.council();
    const claimed = council.queue.claimNext(() => true);
    expect(claimed).not.toBeNull();
    // Another execution holds the lock from here on: the handler's own commits and the finish both wait in vain.
    k.ports.lock.heldElsewhere = true;
    const done = runClaimed(council, claimed!, council.now() + 60_000);
    expect(done.busy).toBe(true);
    k.ports.lock.heldElsewhere = false;
    // Past the lease, the next ticks claim the item again and the discussion reaches its decision.
    k.advance(30 * 60_000);
    settle(k);
    expect(Object.values(statuses(k))).toEqual(['DECIDED']);
  });
});
