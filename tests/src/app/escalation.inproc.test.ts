// Escalations and objections in-process: a request the governance agent must fail escalates to a person, who
// rejects it (closed, no order); an objection to a decision before its order runs is queued, processed, and audited.
import { describe, expect, it } from 'vitest';
import { requestObjection, requestResolution } from '../../../src/app/discussions/requests.js';
import { startDiscussion } from '../../../src/app/discussions/start.js';
import { decline, kaigi, settle, statuses } from './inproc.js';

// Watching a member's location: the governance agent fails it (tests/council-helpers.ts's surveillance()).
const surveillance = {
  ...decline('tanaka'),
  context: { metric: 'contacts', request: '位置情報を監視して行動を把握したい' },
};

describe('escalations and objections in-process', () => {
  it('escalates a surveillance request to a person, who rejects it', () => {
    const k = kaigi();
    const { discussion_id: id } = startDiscussion(surveillance, k.council());
    settle(k);
    expect(statuses(k)[id]).toBe('ESCALATED');
    expect(k.records('orders')).toEqual([]);
    requestResolution({ discussion_id: id, action: 'reject' }, k.council());
    settle(k);
    // A rejected escalation closes the discussion with no order.
    expect(statuses(k)[id]).toBe('CLOSED');
    expect(k.records('orders')).toEqual([]);
  });

  it('queues an objection to a decision and records it once processed', () => {
    const k = kaigi();
    const { discussion_id: id } = startDiscussion(decline('tanaka'), k.council());
    settle(k);
    requestObjection({ discussion_id: id, reason: 'raises overtime risk', urgency: 'HIGH' }, k.council(), {
      source: 'human',
      objector: 'lead@example.com',
    });
    expect(k.records('queue').filter((q) => q.type === 'objection.process')).toHaveLength(1);
    settle(k);
    const rows = k.records('objections');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ discussion_id: id, reason: 'raises overtime risk' });
  });
});
