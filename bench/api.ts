// The web API bench: Sheets round trips per call (p50 by route, built file in the runtime), and the time from
// POST /tasks to DECIDED on `kaigi serve` with the rules provider, over real HTTP on the real clock.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ExecutionResult, findRoot, Runtime } from '../runtime/runtime.js';
import { demoTrigger } from '../src/core/demo-data.js';

export interface ApiResult {
  calls_per_route: number;
  round_trips_p50: Record<string, number>;
  round_trips_p50_all: number;
  ms_p50: Record<string, number>;
  serve: { decided_ms: number; status: string; after_max_ms: number } | null;
}

function must(r: ExecutionResult): any {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.message}`);
  return r.value;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
};

// One call of the web app as Apps Script runs it; its execution's round trips and wall time.
async function call(
  rt: Runtime,
  method: 'GET' | 'POST',
  params: Record<string, string>,
  body?: Record<string, unknown>,
): Promise<{ answer: any; trips: number; ms: number }> {
  const t0 = performance.now();
  const r = method === 'GET' ? await rt.doGet(params) : await rt.doPost(params, JSON.stringify(body ?? {}));
  const ms = performance.now() - t0;
  return { answer: JSON.parse(r.body), trips: r.result.counts.roundTrips, ms };
}

async function roundTrips(start: number, n: number) {
  const rt = new Runtime({ startAt: start });
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    // Ten discussions by one client: more than its default day (10 % of the budget) holds at their forecasts.
    must(await rt.run('updateSetting', [{ key: 'api.client_daily_tokens', value: '100%' }], { kind: 'server' }));
    const admin = (
      must(await rt.run('createApiClient', [{ name: 'bench', role: 'admin' }], { kind: 'server' })) as {
        token: string;
      }
    ).token;
    const trips: Record<string, number[]> = {};
    const ms: Record<string, number[]> = {};
    const note = (route: string, r: { trips: number; ms: number }) => {
      (trips[route] ??= []).push(r.trips);
      (ms[route] ??= []).push(r.ms);
    };
    // A decided discussion to read and report on.
    const first = await call(rt, 'POST', { path: '/tasks' }, { token: admin, ...demoTrigger() });
    const disc = String(first.answer.discussion_id);
    for (let k = 0; k < 30; k++) {
      const state = (await call(rt, 'GET', { path: `/tasks/${disc}`, token: admin })).answer.state;
      if (state === 'DECIDED') break;
      await rt.runTriggers(() => false, { maxFirings: 1 });
    }
    await call(rt, 'POST', { path: '/rooms' }, { token: admin, roomName: 'bench' });
    await call(rt, 'POST', { path: '/rooms/bench/enter' }, { token: admin });
    const reports = ['ACKNOWLEDGED', 'IN_PROGRESS', 'DONE'];
    for (let i = 0; i < n; i++) {
      // Far enough apart that the per-minute rate limit never answers instead of the route.
      rt.clock.advance(20_000);
      note('GET /status', await call(rt, 'GET', { path: '/status', token: admin }));
      note(
        'POST /tasks',
        await call(rt, 'POST', { path: '/tasks' }, { token: admin, ...demoTrigger(), idempotency_key: `bench-${i}` }),
      );
      note('GET /tasks/{id}', await call(rt, 'GET', { path: `/tasks/${disc}`, token: admin }));
      if (i < reports.length)
        note(
          'POST /tasks/{id}/result',
          await call(rt, 'POST', { path: `/tasks/${disc}/result` }, { token: admin, status: reports[i], report: 'ok' }),
        );
      note(
        'POST /rooms/{roomName}/messages',
        await call(rt, 'POST', { path: '/rooms/bench/messages' }, { token: admin, message: `m${i}` }),
      );
      note('GET /rooms/{roomName}/messages', await call(rt, 'GET', { path: '/rooms/bench/messages', token: admin }));
      note(
        'MCP tools/call get_status',
        await call(
          rt,
          'POST',
          { path: '/mcp' },
          {
            token: admin,
            jsonrpc: '2.0',
            id: i + 1,
            method: 'tools/call',
            params: { name: 'get_status', arguments: {} },
          },
        ),
      );
    }
    const p50: Record<string, number> = {};
    const wall: Record<string, number> = {};
    for (const k of Object.keys(trips)) {
      p50[k] = median(trips[k]);
      wall[k] = Math.round(median(ms[k]));
    }
    return { p50, wall, all: median(Object.values(trips).flat()) };
  } finally {
    await rt.close();
  }
}

function startServe(workbook: string, afterMaxMs: number): Promise<{ child: ChildProcess; url: string }> {
  const root = findRoot();
  const args = ['bin/kaigi.js', 'serve', '--workbook', workbook, '--port', '0', '--after-max-ms', String(afterMaxMs)];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`kaigi serve exited ${code} before listening`)));
  });
}

// POST /tasks to DECIDED on `kaigi serve`: the client's view, polling GET /tasks/{id} once a second.
async function serveBench(afterMaxMs: number): Promise<ApiResult['serve']> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-api-bench-'));
  const workbook = path.join(dir, 'api.xlsx');
  const root = findRoot();
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['bin/kaigi.js', ...args], { cwd: root, encoding: 'utf8' });
  // The demo team, then an API client: the token is the last line of stdout.
  if (cli(['run', '--demo', '--workbook', workbook]).status !== 0) throw new Error('kaigi run --demo failed');
  const made = cli(['token', 'create', '--workbook', workbook, '--role', 'coordinator', '--name', 'bench']);
  const token = made.stdout.trim().split('\n').pop() ?? '';
  const { child, url } = await startServe(workbook, afterMaxMs);
  try {
    const exec = `${url.replace(/\/$/, '')}/exec`;
    const t0 = Date.now();
    const posted = await fetch(`${exec}?path=/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, ...demoTrigger(), idempotency_key: 'serve-bench' }),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const id = String(posted.discussion_id);
    let state = '';
    while (Date.now() - t0 < 10 * 60_000) {
      const got = (await fetch(`${exec}?path=/tasks/${id}&token=${token}`).then((r) => r.json())) as Record<
        string,
        unknown
      >;
      state = String(got.state ?? '');
      if (['DECIDED', 'ESCALATED', 'TIMEOUT', 'CLOSED'].includes(state)) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    return { decided_ms: Date.now() - t0, status: state, after_max_ms: afterMaxMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function apiBench(start: number, n = 9): Promise<ApiResult> {
  const trips = await roundTrips(start, n);
  // The runtime's default: a one-shot trigger may fire up to 3 minutes late (the pessimistic reading).
  const serve = await serveBench(180_000);
  return {
    calls_per_route: n,
    round_trips_p50: trips.p50,
    round_trips_p50_all: trips.all,
    ms_p50: trips.wall,
    serve,
  };
}

export function printApi(api: ApiResult): void {
  console.log(`\nWeb API: Sheets round trips per call, p50 of ${api.calls_per_route} calls per route (built file)`);
  for (const [route, trips] of Object.entries(api.round_trips_p50))
    console.log(`  ${route.padEnd(34)} ${String(trips).padStart(3)} round trips, ${api.ms_p50[route]} ms`);
  console.log(`  all calls: p50 ${api.round_trips_p50_all} round trips`);
  if (api.serve)
    console.log(
      `  kaigi serve, rules provider: POST /tasks → ${api.serve.status} in ${(api.serve.decided_ms / 1000).toFixed(1)} s on the real clock (one-shot triggers up to ${api.serve.after_max_ms / 1000} s late)`,
    );
}
