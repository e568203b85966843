// Where a trigger came from is the server's to say (security round two, N12): a caller's `source` is ignored, so an
// API client cannot pass its discussion off as the watcher's. POST /tasks, MCP start_discussion and the start dialog,
// through the built file; the stored trigger (queue row, Discussion Log, GET /tasks) says api, or sheets for a person.
import { describe, expect, it } from 'vitest';
import { council, ok, settle } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, get, post } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

const queuedSources = (rt: Awaited<ReturnType<typeof council>>) =>
  records(rt, 'queue')
    .filter((q) => q.type === 'discussion.open')
    .map((q) => JSON.parse(String(q.payload_json)).trigger.source);

describe('trigger.source', () => {
  it('is api for an API client, whatever source it sends, and sheets for a person', async () => {
    const rt = await council();
    const t = await clients(rt);
    const a = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, source: 'watcher', idempotency_key: 'k1' });
    expect(a.status).toBe(202);
    const rpc = {
      token: t.coordinator,
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'start_discussion', arguments: { ...TRIGGER, source: 'watcher', idempotency_key: 'k2' } },
    };
    const m = JSON.parse((await rt.doPost({ path: '/mcp' }, JSON.stringify(rpc))).body);
    expect(m.result.structuredContent.status).toBe(202);
    const s = ok(await rt.run('startDiscussion', [{ ...TRIGGER, source: 'watcher' }], { kind: 'server' }));
    expect(s.task_id).toMatch(/^Q-/);
    expect(queuedSources(rt)).toEqual(['api', 'api', 'sheets']);
    expect((await get(rt, `/tasks/${a.task_id}`, t.viewer)).trigger.source).toBe('api');
    // Once opened, the Discussion Log row keeps it too.
    await settle(rt);
    const logged = records(rt, 'discussions').find((d) => d.discussion_id === a.discussion_id)!;
    expect(JSON.parse(String(logged.trigger_context_json)).source).toBe('api');
  });
});
