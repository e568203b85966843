// The council's REST routes through the built file: the role table, 401/403/400/404/413/429 in SPEC §11's format,
// and one API log row per call with no token anywhere in the workbook.
import { describe, expect, it } from 'vitest';
import { TABS } from '../../../../sheets-schema/index.js';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, ok, setSetting, statuses } from '../../../council-helpers.js';
import { appendApiLog, records } from '../../../helpers.js';
import { type Answer, clients, get, post, postRaw, ROLES, type RoleName } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

// Every error answer has SPEC §11's shape and nothing else: no stack, no internals.
function isSpecError(a: Answer, status: number, code: string): void {
  expect(a.status).toBe(status);
  expect(a.error.code).toBe(code);
  expect(Object.keys(a).sort()).toEqual(['error', 'status']);
  expect(Object.keys(a.error).filter((k) => !['code', 'message', 'details'].includes(k))).toEqual([]);
  expect(typeof a.error.message).toBe('string');
  expect(JSON.stringify(a)).not.toMatch(/\bat \S+ \(|\.js:\d+/);
}

async function decided(rt: Runtime, token: string): Promise<Answer> {
  const first = await post(rt, '/tasks', token, TRIGGER);
  expect(first.status).toBe(202);
  await rt.runTriggers(() => statuses(rt)[first.discussion_id] === 'DECIDED', { maxClockMs: 3600_000 });
  expect(statuses(rt)[first.discussion_id]).toBe('DECIDED');
  return first;
}

function noTokenInWorkbook(rt: Runtime, tokens: string[]): void {
  const cells = JSON.stringify(TABS.map((t) => records(rt, t.key)));
  for (const t of tokens) expect(cells).not.toContain(t);
  expect(cells).not.toContain('kaigi_');
}

describe('the role table (SPEC §11)', () => {
  it('lets each role call exactly its routes, and logs every call', async () => {
    const rt = await council();
    const t = await clients(rt);
    const { discussion_id: id } = await decided(rt, t.admin);
    const logBefore = records(rt, 'api_log').length;
    // Reports that each role's turn can make in order: PENDING → ACKNOWLEDGED → IN_PROGRESS (may repeat).
    const report: Partial<Record<RoleName, string>> = {
      worker: 'ACKNOWLEDGED',
      coordinator: 'IN_PROGRESS',
      admin: 'in_progress',
    };
    const calls: Record<string, (token: string, role: RoleName) => Promise<Answer>> = {
      'POST /tasks': (k) => post(rt, '/tasks', k, { type: 'kpi_decline', target_user_id: 'sato' }),
      'GET /tasks/{id}': (k) => get(rt, `/tasks/${id}`, k),
      'POST /tasks/{id}/result': (k, role) =>
        post(rt, `/tasks/${id}/result`, k, { status: report[role] ?? 'ACKNOWLEDGED' }),
      'GET /status': (k) => get(rt, '/status', k),
      'POST /objections': (k) => post(rt, '/objections', k, { discussion_id: id, reason: 'too soon', urgency: 'LOW' }),
      // The discussion is DECIDED, not ESCALATED: an allowed role gets 409, a forbidden one 403 before that.
      'POST /escalations/{id}': (k) => post(rt, `/escalations/${id}`, k, { action: 'approve' }),
    };
    const expected: Record<string, Record<RoleName, number>> = {
      'POST /tasks': { viewer: 403, worker: 403, coordinator: 202, admin: 202 },
      'GET /tasks/{id}': { viewer: 200, worker: 200, coordinator: 200, admin: 200 },
      'POST /tasks/{id}/result': { viewer: 403, worker: 200, coordinator: 200, admin: 200 },
      'GET /status': { viewer: 200, worker: 200, coordinator: 200, admin: 200 },
      // The reports above began execution (IN_PROGRESS): an objection comes too late, 409 order_in_execution.
      'POST /objections': { viewer: 403, worker: 403, coordinator: 409, admin: 409 },
      'POST /escalations/{id}': { viewer: 403, worker: 403, coordinator: 409, admin: 409 },
    };
    const seen: Record<string, Record<string, number>> = {};
    const logged: string[][] = [];
    for (const [route, call] of Object.entries(calls))
      for (const role of ROLES) {
        const a = await call(t[role], role);
        (seen[route] ??= {})[role] = a.status;
        logged.push([`${role}-client`, route, String(a.status)]);
        if (a.status === 403) {
          isSpecError(a, 403, 'forbidden');
          expect(a.error.message).toBe(`The ${role} role cannot call ${route}.`);
        }
      }
    expect(seen).toEqual(expected);
    // One row per call, naming the client and the route pattern (not the path as called), with the status, once
    // the next tick appended the rows the calls left waiting.
    await appendApiLog(rt);
    const rows = records(rt, 'api_log').slice(logBefore);
    expect(rows.map((r) => [r.client, r.call, String(r.status)])).toEqual(logged);
    expect(rows.filter((r) => r.status === 403).every((r) => r.code === 'forbidden')).toBe(true);
    expect(rows.every((r) => Number(r.duration_ms) >= 0 && r.time instanceof Date)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(id);
    noTokenInWorkbook(rt, Object.values(t));
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });
});

describe('refusals', () => {
  it('answers 401 without a valid token and 404 for an unknown route, logging neither token nor path', async () => {
    const rt = await council();
    const t = await clients(rt);
    isSpecError(await get(rt, '/status'), 401, 'unauthorized');
    isSpecError(await get(rt, '/status', 'kaigi_not-a-token'), 401, 'unauthorized');
    isSpecError(await post(rt, '/tasks', undefined, TRIGGER), 401, 'unauthorized');
    isSpecError(await post(rt, '/tasks', 'kaigi_wrong', TRIGGER), 401, 'unauthorized');
    const lost = await get(rt, `/secret-place-${t.viewer}`, t.viewer);
    isSpecError(lost, 404, 'not_found');
    await rt.callServer('revokeApiClient', 'worker-client');
    isSpecError(await get(rt, '/status', t.worker), 401, 'unauthorized');
    // Refused before a client is known: no row each, but one summary row for the minute, written by the first
    // drain of the log after that minute (issue 22, finding 6); the authenticated calls' rows wait for it too.
    expect(records(rt, 'api_log')).toEqual([]);
    rt.clock.advance(60_000);
    await get(rt, '/status', t.viewer);
    expect(records(rt, 'api_log')).toEqual([]);
    await appendApiLog(rt);
    const rows = records(rt, 'api_log');
    expect(rows.map((r) => [r.client, r.call, r.status, r.code])).toEqual([
      ['unauthenticated', 'GET /status ×3, POST /tasks ×2, GET (no route) ×1', 401, 'unauthorized'],
      ['viewer-client', 'GET /status', 200, ''],
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret-place');
    expect(records(rt, 'queue').length).toBe(0);
    noTokenInWorkbook(rt, Object.values(t));
  });

  it('answers 400 naming the field for broken JSON and schema violations, writing nothing', async () => {
    const rt = await council();
    const t = await clients(rt);
    isSpecError(await postRaw(rt, '/tasks', `{"token": "${t.admin}", "type": `), 400, 'invalid_json');
    const missing = await post(rt, '/tasks', t.admin, { type: 'kpi_decline', context: { metric: 'contacts' } });
    isSpecError(missing, 400, 'invalid_input');
    expect(missing.error.message).toMatch(/target_user_id/);
    expect(missing.error.details.map((d: { field: string }) => d.field)).toEqual(['target_user_id']);
    const bad = await post(rt, '/tasks', t.admin, { ...TRIGGER, priority: 'URGENT', context: 'text' });
    expect(bad.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['context', 'priority']);
    const id = await get(rt, '/tasks/DROP TABLE', t.viewer);
    isSpecError(id, 400, 'invalid_input');
    expect(id.error.details[0].field).toBe('id');
    const status = await post(rt, '/tasks/DISC-2026-01-15-001/result', t.worker, { status: 'DONE!' });
    expect(status.error.details[0].field).toBe('status');
    const guidance = await post(rt, '/escalations/DISC-2026-01-15-001', t.admin, { action: 'return' });
    expect(guidance.error.details[0].field).toBe('guidance');
    isSpecError(await get(rt, '/tasks/Q-99', t.viewer), 404, 'task_not_found');
    isSpecError(await get(rt, '/tasks/DISC-2026-01-15-009', t.viewer), 404, 'task_not_found');
    isSpecError(
      await post(rt, '/objections', t.admin, { discussion_id: 'DISC-2026-01-15-009', reason: 'x' }),
      404,
      'discussion_not_found',
    );
    expect(records(rt, 'queue').length).toBe(0);
    await appendApiLog(rt);
    // The broken JSON names no client: counted for its minute's summary row, not written row by row.
    expect(records(rt, 'api_log').map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 404, 404, 404]);
  });

  it('answers 413 for a body over api.max_body_bytes counted in UTF-8, before parsing, on /mcp too', async () => {
    const rt = await council();
    const t = await clients(rt);
    await setSetting(rt, 'api.max_body_bytes', '2000');
    const body = (text: string) => JSON.stringify({ token: t.admin, ...TRIGGER, context: { text } });
    const fits = 'a'.repeat(2000 - body('').length);
    expect((await postRaw(rt, '/tasks', body(fits))).status).toBe(202);
    const over = await postRaw(rt, '/tasks', body(`${fits}a`));
    isSpecError(over, 413, 'payload_too_large');
    expect(over.error.details).toEqual({ max_bytes: 2000, bytes: 2001 });
    // 1,000 characters but 3,000 bytes: over the limit although shorter than it.
    isSpecError(await postRaw(rt, '/tasks', body('会'.repeat(1000))), 413, 'payload_too_large');
    // Refused before JSON.parse: a broken body that is too large is a 413, not a 400; /mcp is held to the limit too.
    isSpecError(await postRaw(rt, '/tasks', `{${'x'.repeat(5000)}`), 413, 'payload_too_large');
    isSpecError(
      await postRaw(rt, '/mcp', `{"jsonrpc":"2.0","id":1,"x":"${'y'.repeat(3000)}"}`),
      413,
      'payload_too_large',
    );
    expect(records(rt, 'queue').length).toBe(1);
    await appendApiLog(rt);
    // A 413 comes before the token is read: counted for the minute's summary, not a row each.
    expect(records(rt, 'api_log').map((r) => [r.client, r.status])).toEqual([['admin-client', 202]]);
  });

  it('answers 429 past api.rate_limit_per_minute for that token only, until the next minute', async () => {
    const rt = await council();
    const t = await clients(rt);
    await setSetting(rt, 'api.rate_limit_per_minute', '3');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(rt, '/status', t.viewer));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    const refused = answers[3];
    isSpecError(refused, 429, 'rate_limited');
    expect(refused.error.details.limit_per_minute).toBe(3);
    expect(refused.error.details.retry_after_seconds).toBeGreaterThan(0);
    expect(refused.error.details.retry_after_seconds).toBeLessThanOrEqual(60);
    // Another token has its own count; a refused POST writes nothing.
    expect((await get(rt, '/status', t.worker)).status).toBe(200);
    isSpecError(await post(rt, '/tasks', t.viewer, TRIGGER), 429, 'rate_limited');
    expect(records(rt, 'queue').length).toBe(0);
    rt.clock.advance(refused.error.details.retry_after_seconds * 1000);
    expect((await get(rt, '/status', t.viewer)).status).toBe(200);
    // The limit is counted without a Sheets round trip, and the call's row waits in a Script Property of its own:
    // a refused call makes no round trip at all.
    const last429 = rt.executions.filter((e) => e.kind === 'webapp').at(-2)!;
    expect(last429.counts.byOp).toEqual({});
    await appendApiLog(rt);
    expect(
      records(rt, 'api_log')
        .filter((r) => r.status === 429)
        .map((r) => r.client),
    ).toEqual(['viewer-client', 'viewer-client']);
  });
});

describe('the API log and the cost of a call', () => {
  it('gives every one of many concurrent calls its own complete row', async () => {
    const rt = await council();
    const t = await clients(rt);
    const calls = [
      ...Array.from({ length: 8 }, () => get(rt, '/status', t.viewer)),
      ...Array.from({ length: 4 }, (_, i) =>
        post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: `c${i}` }),
      ),
      get(rt, '/status'),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 202, 202, 202, 202, 401,
    ]);
    expect(new Set(records(rt, 'queue').map((q) => q.id)).size).toBe(4);
    // Each call left its row under a property of its own, without the lock: the tick appends all twelve.
    await appendApiLog(rt);
    // The 401 is counted in CacheService for its minute's summary row (written once that minute is over), not on its
    // own.
    const rows = records(rt, 'api_log').filter((r) => r.client !== 'unauthenticated');
    expect(rows.length).toBe(12);
    const count = (call: string, status: number) => rows.filter((r) => r.call === call && r.status === status).length;
    expect([count('GET /status', 200), count('POST /tasks', 202), count('GET /status', 401)]).toEqual([8, 4, 0]);
    expect(rows.every((r) => r.time instanceof Date && typeof r.duration_ms === 'number')).toBe(true);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('keeps the Sheets round trips of a call small (the log row is two of them)', async () => {
    const rt = await council();
    const t = await clients(rt);
    const last = () => rt.executions.filter((e) => e.kind === 'webapp').at(-1)!.counts.roundTrips;
    const a = await post(rt, '/tasks', t.coordinator, TRIGGER);
    // The queue row and its audit rows in one commit, then the log row; the first start also reads the Members
    // tab once for the door (the member ids are cached after it).
    expect(last()).toBeLessThanOrEqual(7);
    await post(rt, '/tasks', t.coordinator, { ...TRIGGER, target_user_id: 'sato' });
    expect(last()).toBeLessThanOrEqual(5);
    await post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: 'rt' });
    expect(last()).toBeLessThanOrEqual(6);
    await post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: 'rt' });
    expect(last()).toBeLessThanOrEqual(4);
    await rt.runTriggers(() => statuses(rt)[a.discussion_id] === 'DECIDED', { maxClockMs: 3600_000 });
    await get(rt, `/tasks/${a.task_id}`, t.viewer);
    expect(last()).toBeLessThanOrEqual(6);
    await get(rt, `/tasks/${a.discussion_id}`, t.viewer);
    expect(last()).toBeLessThanOrEqual(6);
  });
});
