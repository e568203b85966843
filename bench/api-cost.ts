// What a web API request costs in the deployer's quotas: with a missing or bad token (issue 22, Must show 4) on a
// warm gate cache and on the cold one the first request after a token list change finds, and authenticated reads,
// starts and the sidebar's idle poll (issue 25, Must show 2; bench/api-cost-reads.ts). Properties and Sheets calls
// per request, counted by the runtime per execution (ExecutionResult counts.byService).
import { Runtime } from '../runtime/runtime.js';
import { cost, readCosts } from './api-cost-reads.js';

export interface ApiCostResult {
  unauthorized_requests: number;
  properties_per_unauthorized: number;
  sheets_per_unauthorized: number;
  cache_per_unauthorized: number;
  locks_per_unauthorized: number;
  // The one request that finds the gate cold (after a token was created or revoked, or the cache expired).
  properties_cold_gate: number;
  sheets_cold_gate: number;
  // The first authenticated GET /status after the token list changed (the gate read again, the status in full).
  properties_authorized_status: number;
  sheets_authorized_status: number;
  // GET /status while its cached copy stands: the most over a client polling every 5 s.
  properties_per_status: number;
  sheets_per_status: number;
  cache_per_status: number;
  locks_per_status: number;
  // GET /status just after a commit moved the change stamp: read in full, the copy renewed.
  properties_per_status_after_commit: number;
  sheets_per_status_after_commit: number;
  properties_per_mcp_status: number;
  sheets_per_mcp_status: number;
  // POST /tasks, each with a new idempotency key (the most over several).
  properties_per_task: number;
  sheets_per_task: number;
  locks_per_task: number;
  // The sidebar's poll when nothing changed since the stamp it holds, and when something did.
  properties_per_sidebar_poll_idle: number;
  sheets_per_sidebar_poll_idle: number;
  cache_per_sidebar_poll_idle: number;
  properties_per_sidebar_poll_changed: number;
  sheets_per_sidebar_poll_changed: number;
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
    const seeded = await rt.run('seedDemoData', [], { kind: 'menu' });
    if (!seeded.ok) throw new Error(`seedDemoData: ${seeded.error?.message}`);
    // Room in the client's daily share for the starts the bench makes.
    await rt.callServer('updateSetting', { key: 'api.client_daily_tokens', value: '50%' });
    const made = (await rt.callServer('createApiClient', { name: 'bench', role: 'coordinator' })) as { token: string };
    // One call warms the configuration cache the Settings changes above dropped; the next client made then drops
    // only the gate, as any token list change does.
    await rt.doGet({ path: '/status', token: made.token });
    await rt.callServer('createApiClient', { name: 'other', role: 'viewer' });
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
    const reads = await readCosts(rt, made.token);
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
      properties_per_status: reads.status.props,
      sheets_per_status: reads.status.sheets,
      cache_per_status: reads.status.cache,
      locks_per_status: reads.status.lock,
      properties_per_status_after_commit: reads.status_after_commit.props,
      sheets_per_status_after_commit: reads.status_after_commit.sheets,
      properties_per_mcp_status: reads.mcp_status.props,
      sheets_per_mcp_status: reads.mcp_status.sheets,
      properties_per_task: reads.task.props,
      sheets_per_task: reads.task.sheets,
      locks_per_task: reads.task.lock,
      properties_per_sidebar_poll_idle: reads.sidebar_poll_idle.props,
      sheets_per_sidebar_poll_idle: reads.sidebar_poll_idle.sheets,
      cache_per_sidebar_poll_idle: reads.sidebar_poll_idle.cache,
      properties_per_sidebar_poll_changed: reads.sidebar_poll_changed.props,
      sheets_per_sidebar_poll_changed: reads.sidebar_poll_changed.sheets,
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
    `  cold gate cache (once after a token change): Properties ${c.properties_cold_gate}, Sheets ${c.sheets_cold_gate}; the first authenticated GET /status after it: Properties ${c.properties_authorized_status}, Sheets ${c.sheets_authorized_status}`,
  );
  console.log('Web API and sidebar: calls per authenticated request (Properties / Sheets)');
  console.log(
    `  GET /status ${c.properties_per_status} / ${c.sheets_per_status} (cached copy; ${c.properties_per_status_after_commit} / ${c.sheets_per_status_after_commit} just after a commit), MCP get_status ${c.properties_per_mcp_status} / ${c.sheets_per_mcp_status}, POST /tasks ${c.properties_per_task} / ${c.sheets_per_task}`,
  );
  console.log(
    `  sidebar poll, nothing changed: ${c.properties_per_sidebar_poll_idle} / ${c.sheets_per_sidebar_poll_idle} and ${c.cache_per_sidebar_poll_idle} cache read; after a change: ${c.properties_per_sidebar_poll_changed} / ${c.sheets_per_sidebar_poll_changed}`,
  );
}
