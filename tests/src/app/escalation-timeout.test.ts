// An escalation nobody answers (discussion.escalation_timeout_hours): a reminder in the Inbox at half the
// time, TIMEOUT with a notice at the full time; an answered one keeps quiet. Through the built file, on the clock.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { ok, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { clients, post } from './routes/api-helpers.js';
import { call, escalated } from './steer-helpers.js';

const HOUR = 3600_000;

async function ticks(rt: Runtime, n = 3): Promise<void> {
  for (let i = 0; i < n; i++) ok(await rt.run('tick', [], { kind: 'trigger' }));
}

const titles = (rt: Runtime, id: string) =>
  records(rt, 'inbox')
    .filter((r) => r.discussion_id === id)
    .map((r) => String(r.title));

describe('escalation timeout', () => {
  it('reminds at half the time and times out at the full time, once each', async () => {
    const { rt, id } = await escalated();
    expect(statuses(rt)[id]).toBe('ESCALATED');
    const timer = records(rt, 'queue').find((q) => q.type === 'escalation.timeout');
    expect(timer).toMatchObject({ status: 'queued', from: 'kaigi' });
    const before = titles(rt, id).length;
    // Nothing before half the time.
    rt.clock.advance(35 * HOUR);
    await ticks(rt);
    expect(titles(rt, id)).toEqual(titles(rt, id).slice(0, before));
    rt.clock.advance(2 * HOUR);
    await ticks(rt);
    const reminded = titles(rt, id).slice(before);
    expect(reminded).toEqual([`${id}: 人の判断を待っています（エスカレーションから36時間）`]);
    expect(statuses(rt)[id]).toBe('ESCALATED');
    rt.clock.advance(34 * HOUR);
    await ticks(rt);
    expect(statuses(rt)[id]).toBe('ESCALATED');
    rt.clock.advance(2 * HOUR);
    await ticks(rt);
    expect(statuses(rt)[id]).toBe('TIMEOUT');
    expect(titles(rt, id).slice(before)).toEqual([
      `${id}: 人の判断を待っています（エスカレーションから36時間）`,
      `${id}: 応答がなかったため TIMEOUT になりました`,
    ]);
    const log = records(rt, 'discussions').find((d) => d.discussion_id === id)!;
    expect(log.closed_at).toBeInstanceOf(Date);
    expect(String(log.notes)).toMatch(/TIMEOUT: no answer to the escalation within 72 h/);
    // Nothing more afterwards, and the record verifies.
    rt.clock.advance(200 * HOUR);
    await ticks(rt);
    expect(titles(rt, id).length).toBe(before + 2);
    expect(records(rt, 'queue').find((q) => q.type === 'escalation.timeout')?.status).toBe('done');
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
    // Nobody can resolve it any more.
    const t = await clients(rt);
    expect(await post(rt, `/escalations/${id}`, t.coordinator, { action: 'reject' })).toMatchObject({
      status: 409,
      error: { code: 'not_escalated' },
    });
  });

  it('keeps quiet once a person answered', async () => {
    const { rt, id } = await escalated();
    const before = titles(rt, id).length;
    await call(rt, 'resolveEscalation', { discussion_id: id, action: 'reject', guidance: 'not this way' });
    await ticks(rt);
    expect(statuses(rt)[id]).toBe('CLOSED');
    rt.clock.advance(100 * HOUR);
    await ticks(rt);
    expect(statuses(rt)[id]).toBe('CLOSED');
    expect(titles(rt, id).length).toBe(before);
    expect(records(rt, 'queue').find((q) => q.type === 'escalation.timeout')?.status).toBe('done');
  });
});
