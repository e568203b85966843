// Issue 25, Must show 2 through the built file: GET /status (and MCP get_status) answers from its cached copy for a
// Properties read or two and no Sheets call, and is never stale after a commit — the change stamp every commit moves
// tells the copy is old — nor after the cache loses the stamp.
import { describe, expect, it } from 'vitest';
import type { ExecutionResult, Runtime } from '../../../../runtime/runtime.js';
import { council, decline, ok } from '../../../council-helpers.js';
import { clients, get, post } from './api-helpers.js';

const SHEETS = ['ss', 'sh', 'rg', 'pr'];
const cost = (r: ExecutionResult) => {
  const s = r.counts.byService;
  return { props: s.props ?? 0, sheets: SHEETS.reduce((a, k) => a + (s[k] ?? 0), 0), lock: s.lock ?? 0 };
};
const lastWeb = (rt: Runtime) => rt.executions.filter((e) => e.kind === 'webapp').at(-1)!;
const stamp = (rt: Runtime) => rt.caches.get('script')?.get('kaigi:change') ?? null;

describe('GET /status from its cached copy', () => {
  it('costs at most 5 Properties calls (here 1) and no Sheets call or lock while the copy stands, MCP too', async () => {
    const rt = await council();
    const t = await clients(rt);
    await get(rt, '/status', t.viewer);
    // A few seconds apart: with each call's own time on Apps Script's clock, all within the copy's 30 s.
    for (let i = 0; i < 4; i++) {
      rt.clock.advance(2000);
      expect((await get(rt, '/status', t.viewer)).status).toBe(200);
      const c = cost(lastWeb(rt));
      // The one Properties call is the call's own API Log row, left in the inbox.
      expect(c.props).toBeLessThanOrEqual(5);
      expect(c).toEqual({ props: 1, sheets: 0, lock: 0 });
    }
    const mcp = (id: number) =>
      rt.doPost(
        { path: '/mcp' },
        JSON.stringify({ token: t.viewer, jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_status' } }),
      );
    await mcp(1);
    expect(cost((await mcp(2)).result)).toEqual({ props: 1, sheets: 0, lock: 0 });
    // Read in full (the copy gone): every property in one getProperties() call, and the row.
    for (const c of rt.caches.values()) c.load([]);
    await get(rt, '/status', t.viewer);
    expect(cost(lastWeb(rt)).props).toBeLessThanOrEqual(5);
  });

  it('is never stale after a commit: a start, a tick, a start from the sidebar each show at the next call', async () => {
    const rt = await council();
    const t = await clients(rt);
    const idle = await get(rt, '/status', t.viewer);
    expect([idle.state, idle.queue.queued]).toEqual(['idle', 0]);
    const before = stamp(rt);
    const started = await post(rt, '/tasks', t.coordinator, decline('sato'));
    expect(started.status).toBe(202);
    expect(stamp(rt)).not.toBe(before);
    // Within the copy's 30 s, but a commit came between: read again.
    const queued = await get(rt, '/status', t.viewer);
    expect([queued.state, queued.queue.queued]).toEqual(['busy', 1]);
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    const after = await get(rt, '/status', t.viewer);
    expect(after.queue.queued).toBe(0);
    expect(after.budget.tokens).toBeGreaterThan(0);
    ok(await rt.run('startDiscussion', [decline('suzuki')], { kind: 'server' }));
    expect((await get(rt, '/status', t.viewer)).queue.queued).toBe(1);
  });

  it('reads in full when the cache lost the stamp, and a call that read nothing new does not move it', async () => {
    const rt = await council();
    const t = await clients(rt);
    await get(rt, '/status', t.viewer);
    const s1 = stamp(rt);
    // The call's own API Log row is no change anyone is shown: the stamp stays.
    await get(rt, '/status', t.viewer);
    expect(stamp(rt)).toBe(s1);
    rt.caches.get('script')!.remove(['kaigi:change']);
    await post(rt, '/tasks', t.coordinator, decline('tanaka'));
    const fresh = await get(rt, '/status', t.viewer);
    expect(fresh.queue.queued).toBe(1);
    expect(stamp(rt)).not.toBeNull();
  });
});
