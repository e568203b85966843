// The council's REST routes through the built file's doGet/doPost: the 429 counted without a Sheets round trip,
// concurrent calls each with its own log row, and the round trips of a call. The role table and 401/403/400/404/413
// in the web API's error format run in-process in council-routes.inproc.test.ts.
import { describe, expect, it } from 'vitest';
import { council, ok, setSetting, statuses } from '../../../council-helpers.js';
import { appendApiLog, records } from '../../../helpers.js';
import { clients, get, isSpecError, post } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

describe('refusals', () => {
  it('answers 429 past api.rate_limit_per_minute for that token only, until the next minute', async () => {
    const rt = await council();
    const t = await clients(rt);
    await setSetting(rt, 'api.rate_limit_per_minute', '3');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(rt, '/status', t.viewer));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    const refused = answers[3];
    isSpecError(refused, 429, 'rate_limited');
    expect(refused.error.details.limit_per_minute).toBe(3);
    expect(refused.error.details.retry_after_seconds).toBeGreaterThan(0);
    expect(refused.error.details.retry_after_seconds).toBeLessThanOrEqual(60);
    // Another token has its own count; a refused POST writes nothing.
    expect((await get(rt, '/status', t.worker)).status).toBe(200);
    isSpecError(await post(rt, '/tasks', t.viewer, TRIGGER), 429, 'rate_limited');
    expect(records(rt, 'queue').length).toBe(0);
    rt.clock.advance(refused.error.details.retry_after_seconds * 1000);
    expect((await get(rt, '/status', t.viewer)).status).toBe(200);
    // The limit is counted without a Sheets round trip, and the call's row waits in a Script Property of its own:
    // a refused call makes no round trip at all.
    const last429 = rt.executions.filter((e) => e.kind === 'webapp').at(-2)!;
    expect(last429.counts.byOp).toEqual({});
    await appendApiLog(rt);
    expect(
      records(rt, 'api_log')
        .filter((r) => r.status === 429)
        .map((r) => r.client),
    ).toEqual(['viewer-client', 'viewer-client']);
  });
});

describe('the API log and the cost of a call', () => {
  it('gives every one of many concurrent calls its own complete row', async () => {
    const rt = await council();
    const t = await clients(rt);
    const calls = [
      ...Array.from({ length: 8 }, () => get(rt, '/status', t.viewer)),
      ...Array.from({ length: 4 }, (_, i) =>
        post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: `c${i}` }),
      ),
      get(rt, '/status'),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 202, 202, 202, 202, 401,
    ]);
    expect(new Set(records(rt, 'queue').map((q) => q.id)).size).toBe(4);
    // Each call left its row under a property of its own, without the lock: the tick appends all twelve.
    await appendApiLog(rt);
    // The 401 is counted in CacheService for its minute's summary row (written once that minute is over), not on its
    // own.
    const rows = records(rt, 'api_log').filter((r) => r.client !== 'unauthenticated');
    expect(rows.length).toBe(12);
    const count = (call: string, status: number) => rows.filter((r) => r.call === call && r.status === status).length;
    expect([count('GET /status', 200), count('POST /tasks', 202), count('GET /status', 401)]).toEqual([8, 4, 0]);
    expect(rows.every((r) => r.time instanceof Date && typeof r.duration_ms === 'number')).toBe(true);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('keeps the Sheets round trips of a call small (the log row is two of them)', async () => {
    const rt = await council();
    const t = await clients(rt);
    const last = () => rt.executions.filter((e) => e.kind === 'webapp').at(-1)!.counts.roundTrips;
    const a = await post(rt, '/tasks', t.coordinator, TRIGGER);
    // The queue row and its audit rows in one commit, then the log row; the first start also reads the Members
    // tab once for the door (the member ids are cached after it).
    expect(last()).toBeLessThanOrEqual(7);
    await post(rt, '/tasks', t.coordinator, { ...TRIGGER, target_user_id: 'sato' });
    expect(last()).toBeLessThanOrEqual(5);
    await post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: 'rt' });
    expect(last()).toBeLessThanOrEqual(6);
    await post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: 'rt' });
    expect(last()).toBeLessThanOrEqual(4);
    await rt.runTriggers(() => statuses(rt)[a.discussion_id] === 'DECIDED', { maxClockMs: 3600_000 });
    await get(rt, `/tasks/${a.task_id}`, t.viewer);
    expect(last()).toBeLessThanOrEqual(6);
    await get(rt, `/tasks/${a.discussion_id}`, t.viewer);
    expect(last()).toBeLessThanOrEqual(6);
  });
});
