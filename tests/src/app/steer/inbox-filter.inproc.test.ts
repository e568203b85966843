// The Inbox narrowed by type and sender as well as state: the server filters, and a value the Inbox cannot hold is
// refused with a line naming the field and the value.
import { describe, expect, it } from 'vitest';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { listInbox } from '../../../../src/app/steer/inbox.js';
import { decline, kaigi, settle, statuses } from '../inproc.js';

// Watching a member's location: the ethics agent raises an alert and the discussion waits for a person.
const surveillance = {
  ...decline('tanaka'),
  context: { metric: 'contacts', request: '位置情報を監視して行動を把握したい' },
};

describe('listInbox by type and agent', () => {
  it('keeps only the items of the type and sender asked for, and refuses an unknown one', () => {
    const k = kaigi();
    const { discussion_id: id } = startDiscussion(surveillance, k.council());
    settle(k);
    expect(statuses(k)[id]).toBe('ESCALATED');
    const c = k.council();
    const all = listInbox(c);
    expect(all.length).toBeGreaterThan(0);
    const alert = all.find((x) => x.type === 'anomaly_alert' && x.from_agent === 'ethics')!;
    expect(alert).toBeTruthy();
    const ids = (xs: { inbox_id: string }[]) => xs.map((x) => x.inbox_id);
    expect(ids(listInbox(c, { type: 'anomaly_alert' }))).toContain(alert.inbox_id);
    expect(listInbox(c, { type: 'anomaly_alert' }).every((x) => x.type === 'anomaly_alert')).toBe(true);
    expect(ids(listInbox(c, { type: 'milestone' }))).not.toContain(alert.inbox_id);
    expect(ids(listInbox(c, { agent: 'ethics' }))).toContain(alert.inbox_id);
    expect(listInbox(c, { agent: 'ethics' }).every((x) => x.from_agent === 'ethics')).toBe(true);
    expect(ids(listInbox(c, { agent: 'decider' }))).not.toContain(alert.inbox_id);
    expect(ids(listInbox(c, { agent: 'ethics', type: 'anomaly_alert', status: 'unread' }))).toContain(alert.inbox_id);
    expect(listInbox(c, { agent: 'ethics', type: 'anomaly_alert', status: 'read' })).toEqual([]);
    // Kaigi's own notices, whichever name they were sent under, answer to "kaigi".
    expect(listInbox(c, { agent: 'kaigi' }).every((x) => ['kaigi', 'system'].indexOf(String(x.from_agent)) >= 0)).toBe(
      true,
    );
    expect(() => listInbox(c, { type: 'gossip' })).toThrow(/type must be one of .*not "gossip"/);
    expect(() => listInbox(c, { agent: 'nobody' })).toThrow(/agent must be one of .*not "nobody"/);
  });
});
