// Issue 22, finding 4 through the built file: a room message asks at most rooms.max_mentions_per_message council
// agents and a room at most rooms.agent_replies_per_minute answers a minute; one API client's calls (rooms
// included) spend at most api.client_daily_tokens a day; API clients never spend the budget.reserve_share the
// council keeps. Refusals are the web API's error JSON, and nothing of a refused call is stored.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { demoTrigger } from '../../../../src/core/demo-data.js';
import { records } from '../../../helpers.js';
import { call, setup } from '../rooms-helpers.js';

async function setting(rt: Runtime, key: string, value: unknown): Promise<void> {
  await rt.callServer('updateSetting', { key, value });
}

async function room(rt: Runtime, tok: string, name: string): Promise<void> {
  await call(rt, tok, 'POST', '/rooms', { roomName: name });
  await call(rt, tok, 'POST', `/rooms/${name}/enter`, {});
}

const say = (rt: Runtime, tok: string, roomName: string, message: string) =>
  call(rt, tok, 'POST', `/rooms/${roomName}/messages`, { message });

const replies = (rt: Runtime) => records(rt, 'queue').filter((q) => q.type === 'room.reply').length;

describe('room mentions (finding 4)', () => {
  it('refuses a message that asks more than 3 council agents, whole, and 11 answers in a minute', async () => {
    const { rt, worker } = await setup();
    await room(rt, worker, 'ops');
    const stored = records(rt, 'room_messages').length;
    const four = await say(rt, worker, 'ops', '@analyst @ethics @legal @coaching what now?');
    expect(four).toMatchObject({ status: 400, error: { code: 'TOO_MANY_MENTIONS' } });
    expect(four.error.message).toContain('rooms.max_mentions_per_message');
    expect(records(rt, 'room_messages').length).toBe(stored);
    expect(replies(rt)).toBe(0);
    // Other names are room users, not council agents: they do not count.
    expect(await say(rt, worker, 'ops', '@analyst @ethics @legal @alice @bob hi')).toMatchObject({ status: 200 });
    expect(replies(rt)).toBe(3);
    for (let i = 0; i < 2; i++)
      expect(await say(rt, worker, 'ops', `@analyst @ethics @legal round ${i}`)).toMatchObject({ status: 200 });
    const over = await say(rt, worker, 'ops', '@analyst @ethics one more');
    expect(over).toMatchObject({ status: 429, error: { code: 'rate_limited' } });
    expect(over.error.message).toContain('rooms.agent_replies_per_minute');
    expect(replies(rt)).toBe(9);
    // Another room has its own minute, and so has the next minute.
    await room(rt, worker, 'other');
    expect(await say(rt, worker, 'other', '@analyst hi')).toMatchObject({ status: 200 });
    rt.clock.advance(61_000);
    expect(await say(rt, worker, 'ops', '@analyst @ethics again')).toMatchObject({ status: 200 });
  });
});

describe('budgets per client (finding 4)', () => {
  it('charges a client the tokens its room answers take and refuses 429 budget_exceeded past its cap', async () => {
    const { rt, worker, coord } = await setup();
    await setting(rt, 'api.client_daily_tokens', '600');
    await room(rt, worker, 'ops');
    for (let i = 0; i < 3; i++) rt.clock.advance(61_000);
    let refused: any = null;
    for (let i = 0; i < 20 && !refused; i++) {
      const r = await say(rt, worker, 'ops', `@analyst question ${i}`);
      if (r.status !== 200) refused = r;
      await rt.runTriggers(() => false, { maxFirings: 3 });
      rt.clock.advance(61_000);
    }
    expect(refused).toMatchObject({ status: 429, error: { code: 'budget_exceeded' } });
    expect(refused.error.message).toContain('api.client_daily_tokens');
    const status = await call(rt, worker, 'GET', '/status');
    expect(status.budget.client_tokens).toBeGreaterThanOrEqual(600);
    expect(status.budget.client_token_limit).toBe(600);
    // The council's own spend is the same tokens, and another client still has its whole day.
    expect(status.budget.tokens).toBe(status.budget.client_tokens);
    expect((await call(rt, coord, 'GET', '/status')).budget.client_tokens).toBe(0);
    // A discussion is held at its forecast when admitted: far over a cap of 600, so refused and not queued.
    const queued = records(rt, 'queue').length;
    const task = await call(rt, worker, 'POST', '/tasks', demoTrigger());
    expect(task.status).toBe(403);
    const big = await call(rt, coord, 'POST', '/tasks', demoTrigger());
    expect(big).toMatchObject({ status: 429, error: { code: 'budget_exceeded' } });
    expect(records(rt, 'queue').length).toBe(queued);
  });

  it('keeps budget.reserve_share of the day for the council: clients together cannot spend into it', async () => {
    const { rt, coord } = await setup();
    await setting(rt, 'api.client_daily_tokens', '100%');
    const first = await call(rt, coord, 'POST', '/tasks', { ...demoTrigger(), idempotency_key: 'a' });
    expect(first.status).toBe(202);
    const held = (await call(rt, coord, 'GET', '/status')).budget.api_tokens;
    expect(held).toBeGreaterThan(0);
    // A day of 2.5 forecasts, half of it reserved: the second discussion would pass the clients' share.
    await setting(rt, 'limits.daily_token_budget', Math.floor(held * 2.5));
    const second = await call(rt, coord, 'POST', '/tasks', { ...demoTrigger(), idempotency_key: 'b' });
    expect(second).toMatchObject({ status: 429, error: { code: 'budget_exceeded' } });
    expect(second.error.message).toContain('budget.reserve_share');
    // The repeated first call is answered as before, not refused.
    expect(await call(rt, coord, 'POST', '/tasks', { ...demoTrigger(), idempotency_key: 'a' })).toMatchObject({
      status: 202,
      discussion_id: first.discussion_id,
    });
    // The council's own discussions are not API spend: the start dialog still opens one.
    const own = (await rt.callServer('startDiscussion', { ...demoTrigger() })) as { discussion_id: string };
    expect(own.discussion_id).toMatch(/^DISC-/);
  });
});
