// What a web API request with a missing or bad token costs (issue 22, Must show 4): Properties and Sheets calls per
// request, counted by the runtime per execution (ExecutionResult counts.byService), on a warm gate cache and on the
// cold one the first request after a token list change finds. An authenticated call is shown beside them.
import { type ExecutionResult, Runtime } from '../runtime/runtime.js';

export interface ApiCostResult {
  unauthorized_requests: number;
  properties_per_unauthorized: number;
  sheets_per_unauthorized: number;
  cache_per_unauthorized: number;
  locks_per_unauthorized: number;
  // The one request that finds the gate cold (after a token was created or revoked, or the cache expired).
  properties_cold_gate: number;
  sheets_cold_gate: number;
  // An authenticated GET /status, for scale.
  properties_authorized_status: number;
  sheets_authorized_status: number;
}

const SHEETS = ['ss', 'sh', 'rg', 'pr'];

function cost(r: ExecutionResult): { props: number; sheets: number; cache: number; lock: number } {
  const s = r.counts.byService;
  return {
    props: s.props ?? 0,
    sheets: SHEETS.reduce((a, k) => a + (s[k] ?? 0), 0),
    cache: s.cache ?? 0,
    lock: s.lock ?? 0,
  };
}

// The refused requests: a bad token on a GET and a POST route, none at all, MCP with a bad token, a token sent as
// an MCP tool name, an unknown path, a deep body, a body over the limit.
function refused(bad: string): { method: 'GET' | 'POST'; params: Record<string, string>; body?: string }[] {
  return [
    { method: 'GET', params: { path: '/status', token: bad } },
    { method: 'POST', params: { path: '/tasks' }, body: JSON.stringify({ token: bad, type: 'manual' }) },
    { method: 'GET', params: { path: '/status' } },
    {
      method: 'POST',
      params: { path: '/mcp' },
      body: JSON.stringify({ token: bad, jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: bad } }),
    },
    { method: 'GET', params: { path: '/nowhere', token: bad } },
    { method: 'POST', params: { path: '/tasks' }, body: `${'['.repeat(5000)}${']'.repeat(5000)}` },
    { method: 'POST', params: { path: '/tasks' }, body: JSON.stringify({ token: bad, pad: 'x'.repeat(200_000) }) },
  ];
}

export async function apiCostBench(start: number, rounds = 5): Promise<ApiCostResult> {
  const rt = new Runtime({ startAt: start });
  try {
    const setup = await rt.run('setup', [], { kind: 'menu' });
    if (!setup.ok) throw new Error(`setup: ${setup.error?.message}`);
    const made = (await rt.callServer('createApiClient', { name: 'bench', role: 'viewer' })) as { token: string };
    const bad = `kaigi_${'0'.repeat(64)}`;
    const send = (q: ReturnType<typeof refused>[number]) =>
      q.method === 'GET' ? rt.doGet(q.params) : rt.doPost(q.params, q.body ?? '');
    // The first request after the token list changed finds the gate cold.
    const cold = cost((await rt.doGet({ path: '/status', token: bad })).result);
    const authorized = cost((await rt.doGet({ path: '/status', token: made.token })).result);
    let props = 0;
    let sheets = 0;
    let cache = 0;
    let lock = 0;
    let n = 0;
    for (let i = 0; i < rounds; i++)
      for (const q of refused(bad)) {
        const reply = await send(q);
        const status = (JSON.parse(reply.body) as { status: number }).status;
        if (status < 400) throw new Error(`a refused request was answered ${status}`);
        const c = cost(reply.result);
        props = Math.max(props, c.props);
        sheets = Math.max(sheets, c.sheets);
        cache = Math.max(cache, c.cache);
        lock = Math.max(lock, c.lock);
        n++;
        rt.clock.advance(1000);
      }
    return {
      unauthorized_requests: n,
      properties_per_unauthorized: props,
      sheets_per_unauthorized: sheets,
      cache_per_unauthorized: cache,
      locks_per_unauthorized: lock,
      properties_cold_gate: cold.props,
      sheets_cold_gate: cold.sheets,
      properties_authorized_status: authorized.props,
      sheets_authorized_status: authorized.sheets,
    };
  } finally {
    await rt.close();
  }
}

export function printApiCost(c: ApiCostResult): void {
  console.log(`\nWeb API: cost of a request with a missing or bad token (most over ${c.unauthorized_requests})`);
  console.log(
    `  Properties ${c.properties_per_unauthorized}, Sheets ${c.sheets_per_unauthorized}, CacheService ${c.cache_per_unauthorized}, locks ${c.locks_per_unauthorized} calls`,
  );
  console.log(
    `  cold gate cache (once after a token change): Properties ${c.properties_cold_gate}, Sheets ${c.sheets_cold_gate}; an authenticated GET /status: Properties ${c.properties_authorized_status}, Sheets ${c.sheets_authorized_status}`,
  );
}
