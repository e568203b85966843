// A discussion from request to decision in-process: startDiscussion queues it, the tick's work runs it with the
// rules provider, and the audit chain verifies over what it wrote.
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/store/store.js';
import { verifyAudit } from '../../../src/app/audit/audit.js';
import { startDiscussion } from '../../../src/app/discussions/start.js';
import { decline, kaigi, settle, statuses, ZONE } from './inproc.js';

describe('a discussion in-process', () => {
  it('is queued, run to DECIDED by the tick, and leaves a verifiable audit chain', () => {
    const k = kaigi();
    const r = startDiscussion(decline('tanaka'), k.council());
    expect(r.duplicate).toBe(false);
    expect(k.records('queue').map((q) => [q.type, q.status])).toEqual([['discussion.open', 'queued']]);
    // The request asked for a nudge: a one-shot trigger for tickSoon.
    expect(k.ports.triggers.list().map((t) => [t.handler, t.eventType])).toEqual([['tickSoon', 'CLOCK']]);
    settle(k);
    expect(statuses(k)).toEqual({ [r.discussion_id]: 'DECIDED' });
    // One row per action: tanaka's first order is filled to three by the vote (memory on).
    expect(k.records('orders')).toHaveLength(3);
    expect(k.records('messages').length).toBeGreaterThan(3);
    const report = verifyAudit(new Store(k.ports.spreadsheet, ZONE));
    expect(report.ok).toBe(true);
    // Each message's audit event names the SHA-256 of the message's JSON, the hash its first row carries.
    const firstRows = k.records('messages').filter((m) => m.chunk === 0);
    const events = k.records('audit').filter((a) => a.event === 'message');
    expect(events).toHaveLength(firstRows.length);
    for (const m of firstRows) {
      const event = events.find((a) => a.row_key === m.message_id);
      expect(JSON.parse(String(event?.payload_json)).sha256).toBe(m.message_sha256);
    }
    // Every write reached the sheet before the lock was let go, and the lock was let go.
    expect(k.ports.host.flushes).toBeGreaterThan(0);
    expect(k.ports.lock.held).toBe(0);
  });

  it('opens one discussion for a repeated idempotency key', () => {
    const k = kaigi();
    const a = startDiscussion({ ...decline('tanaka'), idempotency_key: 'k1' }, k.council());
    const b = startDiscussion({ ...decline('tanaka'), idempotency_key: 'k1' }, k.council());
    expect([b.duplicate, b.discussion_id]).toEqual([true, a.discussion_id]);
    expect(k.records('queue')).toHaveLength(1);
  });
});
