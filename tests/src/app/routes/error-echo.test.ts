// Errors never echo a request's body, its key names or a token (security round two): a JSON body sent as a form
// (curl without Content-Type) is told so, an unknown key is named only when short and plain, and no token reaches an
// answer, over REST and MCP alike. Through the built file.
import { describe, expect, it } from 'vitest';
import { council, ok } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { type Answer, clients, get, post } from './api-helpers.js';

// No part of the answer holds a token, nor any of `texts`.
function echoesNothing(a: Answer, ...texts: string[]): void {
  const json = JSON.stringify(a);
  expect(json).not.toMatch(/kaigi_[0-9a-f]{8}/);
  for (const t of texts) expect(json).not.toContain(t);
}

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' } };

describe('error answers', () => {
  it('tell a JSON body sent as a form (no Content-Type) to send Content-Type, quoting none of it', async () => {
    const rt = await council();
    const t = await clients(rt);
    const body = JSON.stringify({ token: t.coordinator, ...TRIGGER });
    // What Apps Script hands doPost for `curl -d '{…}'` without the header: the JSON is the form's one key, too.
    const reply = await rt.doPost({ path: '/tasks', [body]: '' }, body, 'application/x-www-form-urlencoded');
    const a = JSON.parse(reply.body) as Answer;
    expect(a).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
    expect(a.error.message).toMatch(/Content-Type: application\/json/);
    echoesNothing(a, 'kpi_decline', 'target_user_id');
    // Refused and logged as such; nothing queued.
    expect(records(rt, 'queue')).toEqual([]);
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(records(rt, 'api_log').pop()).toMatchObject({
      client: 'coordinator-client',
      call: 'POST /tasks',
      status: 400,
      code: 'invalid_input',
    });
  });

  it('name a short unknown key, but never a long one or one holding a token', async () => {
    const rt = await council();
    const t = await clients(rt);
    const named = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, prority: 'HIGH' });
    expect(named).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
    expect(named.error.message).toContain('"prority"');
    const long = 'x'.repeat(41);
    for (const key of [long, t.admin, `note ${t.admin}`]) {
      const a = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, [key]: 1 });
      expect(a).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
      expect(a.error.message).toMatch(/unknown field/);
      echoesNothing(a, long, t.admin.slice(6));
      // The same key in a KPI row, and as a query parameter of a GET.
      const row = { member_id: 'tanaka', date: '2026-01-15', metric: 'contacts', value: 9, [key]: 1 };
      const kpi = await post(rt, '/kpi', t.worker, { rows: [row] });
      expect(kpi).toMatchObject({ status: 400 });
      echoesNothing(kpi, long, t.admin.slice(6));
      const got = await get(rt, '/orders', t.worker, { [key]: '1' });
      echoesNothing(got, long, t.admin.slice(6));
    }
    expect(records(rt, 'queue')).toEqual([]);
  });

  it('quote no token a value or a path carries', async () => {
    const rt = await council();
    const t = await clients(rt);
    const type = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, type: t.admin });
    expect(type).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
    echoesNothing(type);
    const path = await post(rt, `/nothing/${t.admin}`, t.coordinator, {});
    expect(path.status).toBe(404);
    echoesNothing(path);
    const long = await get(rt, `/nothing/${'y'.repeat(60)}`, t.viewer);
    expect(long.status).toBe(404);
    echoesNothing(long, 'y'.repeat(41));
  });

  it('over MCP: no unknown tool, method or argument key is echoed with a token in it', async () => {
    const rt = await council();
    const t = await clients(rt);
    const rpc = async (method: string, params?: object) =>
      JSON.parse(
        (await rt.doPost({ path: '/mcp' }, JSON.stringify({ token: t.admin, jsonrpc: '2.0', id: 7, method, params })))
          .body,
      ) as Answer;
    echoesNothing(await rpc(`tools/${t.coordinator}`));
    echoesNothing(await rpc('tools/call', { name: t.coordinator, arguments: {} }));
    const args = await rpc('tools/call', { name: 'start_discussion', arguments: { ...TRIGGER, [t.coordinator]: 1 } });
    expect(args.result.isError).toBe(true);
    expect(args.result.structuredContent.error.code).toBe('invalid_input');
    echoesNothing(args);
  });
});
