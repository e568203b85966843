// What authenticated web requests and the sidebar's poll cost (issue 25, Must show 2): Properties, Sheets, cache and
// lock calls per execution, counted by the runtime (ExecutionResult counts.byService), for GET /status answered from
// its cached copy and read in full, MCP get_status, POST /tasks, and a sidebar poll that finds nothing changed.
import type { ExecutionResult, Runtime } from '../runtime/runtime.js';

export interface Cost {
  props: number;
  sheets: number;
  cache: number;
  lock: number;
}

const SHEETS = ['ss', 'sh', 'rg', 'pr'];

export function cost(r: ExecutionResult): Cost {
  const s = r.counts.byService;
  return {
    props: s.props ?? 0,
    sheets: SHEETS.reduce((a, k) => a + (s[k] ?? 0), 0),
    cache: s.cache ?? 0,
    // Calls to LockService: a taken lock is an acquire and a release.
    lock: s.lock ?? 0,
  };
}

// The most of each count over the runs.
function most(costs: Cost[]): Cost {
  return costs.reduce(
    (a, c) => ({
      props: Math.max(a.props, c.props),
      sheets: Math.max(a.sheets, c.sheets),
      cache: Math.max(a.cache, c.cache),
      lock: Math.max(a.lock, c.lock),
    }),
    { props: 0, sheets: 0, cache: 0, lock: 0 },
  );
}

export interface ReadCosts {
  // GET /status while its cached copy stands (the most over 25 s of a client asking every 5 s).
  status: Cost;
  // GET /status just after a commit: read in full (every property in one call) and the copy renewed.
  status_after_commit: Cost;
  // MCP tools/call get_status, likewise while the copy stands.
  mcp_status: Cost;
  // POST /tasks with a new idempotency key each (the most over several, after a first one warmed the caches).
  task: Cost;
  // pollSidebar with the stamp the page holds, nothing committed since.
  sidebar_poll_idle: Cost;
  // pollSidebar after a commit: the list read in full.
  sidebar_poll_changed: Cost;
}

function ok(r: ExecutionResult, what: string): ExecutionResult {
  if (!r.ok) throw new Error(`${what}: ${r.error?.message}`);
  return r;
}

export async function readCosts(rt: Runtime, token: string, polls = 6): Promise<ReadCosts> {
  const status = () => rt.doGet({ path: '/status', token });
  const members = ['tanaka', 'sato', 'suzuki'];
  let n = 0;
  const task = async (key: string) => {
    const body = {
      token,
      type: 'kpi_decline',
      target_user_id: members[n++ % members.length],
      context: { metric: 'contacts' },
      idempotency_key: key,
    };
    const r = await rt.doPost({ path: '/tasks' }, JSON.stringify(body));
    const status = (JSON.parse(r.body) as { status: number }).status;
    if (status !== 202) throw new Error(`POST /tasks answered ${status}: ${r.body.slice(0, 200)}`);
    return r;
  };
  // The caches warm: the configuration, the gate, the member ids, the status copy.
  await task('warm');
  await status();
  // A client asking every 5 s within the copy's 30 s (api.status_max_age_seconds); the read after them is in full.
  const warm: Cost[] = [];
  for (let i = 0; i < 5; i++) {
    rt.clock.advance(5000);
    warm.push(cost((await status()).result));
  }
  const tasks: Cost[] = [];
  for (let i = 0; i < polls; i++) tasks.push(cost((await task(`bench-${i}`)).result));
  const afterCommit = cost((await status()).result);
  const mcp = (id: number) =>
    rt.doPost(
      { path: '/mcp' },
      JSON.stringify({
        token,
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'get_status', arguments: {} },
      }),
    );
  await mcp(0);
  const mcpCosts: Cost[] = [];
  for (let i = 1; i <= 5; i++) {
    rt.clock.advance(5000);
    mcpCosts.push(cost((await mcp(i)).result));
  }
  // The sidebar: a full read, then polls with the stamp it gave.
  const first = ok(await rt.run('pollSidebar', [{}], { kind: 'server' }), 'pollSidebar');
  const stamp = (first.value as { stamp: string }).stamp;
  const idle: Cost[] = [];
  for (let i = 0; i < polls; i++) {
    rt.clock.advance(30_000);
    const r = ok(await rt.run('pollSidebar', [{ since: stamp }], { kind: 'server' }), 'pollSidebar');
    if ((r.value as { changed: boolean }).changed) throw new Error('an idle sidebar poll read in full');
    idle.push(cost(r));
  }
  await task('bench-sidebar');
  const changed = ok(await rt.run('pollSidebar', [{ since: stamp }], { kind: 'server' }), 'pollSidebar');
  return {
    status: most(warm),
    status_after_commit: afterCommit,
    mcp_status: most(mcpCosts),
    task: most(tasks),
    sidebar_poll_idle: most(idle),
    sidebar_poll_changed: cost(changed),
  };
}
