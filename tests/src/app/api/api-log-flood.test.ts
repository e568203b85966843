// Issue 22, finding 6 and Must show 4 through the built file: a request with a missing or bad token costs no
// Properties and no Sheets call (counted by the runtime per execution), writes no API Log row, and is told in one
// summary row per minute; the call column holds only known names.
import { describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../../../runtime/runtime.js';
import { council } from '../../../council-helpers.js';
import { appendApiLog, records } from '../../../helpers.js';
import { token } from '../rooms-helpers.js';

const SHEETS = ['ss', 'sh', 'rg', 'pr'];
function cost(r: ExecutionResult) {
  const s = r.counts.byService;
  return { properties: s.props ?? 0, sheets: SHEETS.reduce((a, k) => a + (s[k] ?? 0), 0), lock: s.lock ?? 0 };
}

describe('requests with a missing or bad token (finding 6, Must show 4)', () => {
  it('cost 0 Properties and 0 Sheets calls each, write no row, and are summed in one row per minute', async () => {
    const rt = await council();
    const viewer = await token(rt, 'watcher', 'viewer');
    // One authenticated call fills the gate cache the way any first request after a token change does.
    expect(JSON.parse((await rt.doGet({ path: '/status', token: viewer })).body).status).toBe(200);
    await appendApiLog(rt);
    const rows = records(rt, 'api_log').length;
    rt.clock.advance(60_000 - (rt.clock.now() % 60_000) + 1000);
    const bad = `kaigi_${'f'.repeat(64)}`;
    const costs = [];
    // Each refused request still takes a second or so on Apps Script's clock (its start): 32 fit in one minute.
    for (let i = 0; i < 8; i++) {
      const replies = [
        await rt.doGet({ path: '/status', token: bad }),
        await rt.doGet({ path: '/status' }),
        await rt.doPost({ path: '/tasks' }, JSON.stringify({ token: bad, type: 'manual' })),
        await rt.doPost(
          { path: '/mcp' },
          JSON.stringify({ token: bad, jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: bad } }),
        ),
      ];
      for (const r of replies) {
        expect(JSON.parse(r.body)).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
        costs.push(cost(r.result));
      }
    }
    expect(costs.every((c) => c.properties === 0 && c.sheets === 0 && c.lock === 0)).toBe(true);
    expect(records(rt, 'api_log').length).toBe(rows);
    // The first drain after that minute writes the summary before the authenticated call's row.
    rt.clock.advance(60_000);
    await rt.doGet({ path: '/status', token: viewer });
    await appendApiLog(rt);
    const added = records(rt, 'api_log').slice(rows);
    expect(added.map((r) => [r.client, r.status, r.code])).toEqual([
      ['unauthenticated', 401, 'unauthorized'],
      ['watcher', 200, ''],
    ]);
    expect(added[0].call).toBe('GET /status ×16, POST /tasks ×8, mcp ×8');
    expect(JSON.stringify(records(rt, 'api_log'))).not.toContain(bad);
    // Once written, a minute is not written again.
    rt.clock.advance(60_000);
    await rt.doGet({ path: '/status', token: viewer });
    await appendApiLog(rt);
    expect(records(rt, 'api_log').filter((r) => r.client === 'unauthenticated').length).toBe(1);
  });

  it('writes unknown, never the client’s text, for an MCP method or tool it does not know', async () => {
    const rt = await council();
    const viewer = await token(rt, 'watcher', 'viewer');
    const secret = `kaigi_${'a'.repeat(64)}`;
    const rpc = (method: string, params: object) =>
      rt.doPost({ path: '/mcp' }, JSON.stringify({ token: viewer, jsonrpc: '2.0', id: 7, method, params }));
    await rpc('tools/call', { name: secret, arguments: {} });
    await rpc(secret, {});
    await rpc('tools/call', { name: 'get_status', arguments: {} });
    await appendApiLog(rt);
    const calls = records(rt, 'api_log').map((r) => r.call);
    expect(calls.slice(-3)).toEqual(['unknown', 'unknown', 'mcp tools/call get_status']);
    expect(JSON.stringify(records(rt, 'api_log'))).not.toContain(secret);
  });
});
