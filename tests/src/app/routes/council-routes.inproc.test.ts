// The council's REST routes in-process, answered as doGet/doPost answer them: the role table, 401/403/400/404/413
// in the web API's error format, and one API log row per call with no token anywhere in the workbook. The built file's
// doGet/doPost, the 429 counted without a round trip, concurrent calls and each call's cost: council-routes.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { TABS } from '../../../../sheets-schema/index.js';
import { Store } from '../../../../src/store/store.js';
import { answerWeb } from '../../../../src/app/api/web.js';
import { revokeClient } from '../../../../src/app/api/clients.js';
import { verifyAudit } from '../../../../src/app/audit/audit.js';
import { runTick } from '../../../../src/app/queue/tick.js';
import { client, type Kaigi, kaigi, settle, statuses, ZONE } from '../inproc.js';
import { editConfig } from '../inproc-more.js';
import { type Answer, isSpecError, ROLES, type RoleName } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

// One API client per role, named after it, with the clock at the top of the next minute (tests that count a
// minute's calls start there), as api-helpers.ts's clients() does through the built file.
function clients(k: Kaigi): Record<RoleName, string> {
  const out = {} as Record<RoleName, string>;
  for (const role of ROLES) out[role] = client(k, `${role}-client`, role);
  k.advance(Math.ceil(Date.now() / 60_000) * 60_000 + 1 - Date.now());
  return out;
}

// Each call a moment after the last, as calls through the web app are (the log keeps rows in call order).
function call(method: 'GET' | 'POST', parameter: Record<string, string>, contents?: string): Answer {
  vi.setSystemTime(Date.now() + 200);
  return answerWeb(method, parameter, contents) as Answer;
}
const get = (path: string, token?: string): Answer => call('GET', { path, ...(token ? { token } : {}) });
const postRaw = (path: string, contents: string): Answer => call('POST', { path }, contents);
const post = (path: string, token: string | undefined, body: object = {}): Answer =>
  postRaw(path, JSON.stringify(token ? { token, ...body } : body));

function noTokenInWorkbook(k: Kaigi, tokens: string[]): void {
  const cells = JSON.stringify(TABS.map((t) => k.records(t.key)));
  for (const t of tokens) expect(cells).not.toContain(t);
  expect(cells).not.toContain('kaigi_');
}

describe('the web API’s role table in-process', () => {
  it('lets each role call exactly its routes, and logs every call', () => {
    const k = kaigi();
    const t = clients(k);
    const first = post('/tasks', t.admin, TRIGGER);
    expect(first.status).toBe(202);
    const id: string = first.discussion_id;
    settle(k);
    expect(statuses(k)[id]).toBe('DECIDED');
    const logBefore = k.records('api_log').length;
    // Reports that each role's turn can make in order: PENDING → ACKNOWLEDGED → IN_PROGRESS (may repeat).
    const report: Partial<Record<RoleName, string>> = {
      worker: 'ACKNOWLEDGED',
      coordinator: 'IN_PROGRESS',
      admin: 'in_progress',
    };
    const calls: Record<string, (token: string, role: RoleName) => Answer> = {
      'POST /tasks': (tk) => post('/tasks', tk, { type: 'kpi_decline', target_user_id: 'sato' }),
      'GET /tasks/{id}': (tk) => get(`/tasks/${id}`, tk),
      'POST /tasks/{id}/result': (tk, role) =>
        post(`/tasks/${id}/result`, tk, { status: report[role] ?? 'ACKNOWLEDGED' }),
      'GET /status': (tk) => get('/status', tk),
      'POST /objections': (tk) => post('/objections', tk, { discussion_id: id, reason: 'too soon', urgency: 'LOW' }),
      // The discussion is DECIDED, not ESCALATED: an allowed role gets 409, a forbidden one 403 before that.
      'POST /escalations/{id}': (tk) => post(`/escalations/${id}`, tk, { action: 'approve' }),
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
        const a = call(t[role], role);
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
    runTick();
    const rows = k.records('api_log').slice(logBefore);
    expect(rows.map((r) => [r.client, r.call, String(r.status)])).toEqual(logged);
    expect(rows.filter((r) => r.status === 403).every((r) => r.code === 'forbidden')).toBe(true);
    expect(rows.every((r) => Number(r.duration_ms) >= 0 && r.time instanceof Date)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(id);
    noTokenInWorkbook(k, Object.values(t));
    expect(verifyAudit(new Store(k.ports.spreadsheet, ZONE)).ok).toBe(true);
  });
});

describe('refusals in-process', () => {
  it('answers 401 without a valid token and 404 for an unknown route, logging neither token nor path', () => {
    const k = kaigi();
    const t = clients(k);
    isSpecError(get('/status'), 401, 'unauthorized');
    isSpecError(get('/status', 'kaigi_not-a-token'), 401, 'unauthorized');
    isSpecError(post('/tasks', undefined, TRIGGER), 401, 'unauthorized');
    isSpecError(post('/tasks', 'kaigi_wrong', TRIGGER), 401, 'unauthorized');
    isSpecError(get(`/secret-place-${t.viewer}`, t.viewer), 404, 'not_found');
    revokeClient(k.council().store, 'worker-client', 'lead@example.com');
    isSpecError(get('/status', t.worker), 401, 'unauthorized');
    // Refused before a client is known: no row each, but one summary row for the minute, written by the first
    // drain of the log after that minute (issue 22, finding 6); the authenticated calls' rows wait for it too.
    expect(k.records('api_log')).toEqual([]);
    k.advance(60_000);
    get('/status', t.viewer);
    expect(k.records('api_log')).toEqual([]);
    runTick();
    const rows = k.records('api_log');
    expect(rows.map((r) => [r.client, r.call, r.status, r.code])).toEqual([
      ['unauthenticated', 'GET /status ×3, POST /tasks ×2, GET (no route) ×1', 401, 'unauthorized'],
      ['viewer-client', 'GET /status', 200, ''],
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret-place');
    expect(k.records('queue').length).toBe(0);
    noTokenInWorkbook(k, Object.values(t));
  });

  it('answers 400 naming the field for broken JSON and schema violations, writing nothing', () => {
    const k = kaigi();
    const t = clients(k);
    isSpecError(postRaw('/tasks', `{"token": "${t.admin}", "type": `), 400, 'invalid_json');
    const missing = post('/tasks', t.admin, { type: 'kpi_decline', context: { metric: 'contacts' } });
    isSpecError(missing, 400, 'invalid_input');
    expect(missing.error.message).toMatch(/target_user_id/);
    expect(missing.error.details.map((d: { field: string }) => d.field)).toEqual(['target_user_id']);
    const bad = post('/tasks', t.admin, { ...TRIGGER, priority: 'URGENT', context: 'text' });
    expect(bad.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['context', 'priority']);
    const id = get('/tasks/DROP TABLE', t.viewer);
    isSpecError(id, 400, 'invalid_input');
    expect(id.error.details[0].field).toBe('id');
    expect(post('/tasks/DISC-2026-01-15-001/result', t.worker, { status: 'DONE!' }).error.details[0].field).toBe(
      'status',
    );
    expect(post('/escalations/DISC-2026-01-15-001', t.admin, { action: 'return' }).error.details[0].field).toBe(
      'guidance',
    );
    isSpecError(get('/tasks/Q-99', t.viewer), 404, 'task_not_found');
    isSpecError(get('/tasks/DISC-2026-01-15-009', t.viewer), 404, 'task_not_found');
    isSpecError(
      post('/objections', t.admin, { discussion_id: 'DISC-2026-01-15-009', reason: 'x' }),
      404,
      'discussion_not_found',
    );
    expect(k.records('queue').length).toBe(0);
    runTick();
    // The broken JSON names no client: counted for its minute's summary row, not written row by row.
    expect(k.records('api_log').map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 404, 404, 404]);
  });

  it('answers 413 for a body over api.max_body_bytes counted in UTF-8, before parsing, on /mcp too', () => {
    const k = kaigi();
    const t = clients(k);
    editConfig(k, 'settings', 'api.max_body_bytes', 'value', '2000');
    const body = (text: string) => JSON.stringify({ token: t.admin, ...TRIGGER, context: { text } });
    const fits = 'a'.repeat(2000 - body('').length);
    expect(postRaw('/tasks', body(fits)).status).toBe(202);
    const over = postRaw('/tasks', body(`${fits}a`));
    isSpecError(over, 413, 'payload_too_large');
    expect(over.error.details).toEqual({ max_bytes: 2000, bytes: 2001 });
    // 1,000 characters but 3,000 bytes: over the limit although shorter than it.
    isSpecError(postRaw('/tasks', body('会'.repeat(1000))), 413, 'payload_too_large');
    // Refused before JSON.parse: a broken body that is too large is a 413, not a 400; /mcp is held to the limit too.
    isSpecError(postRaw('/tasks', `{${'x'.repeat(5000)}`), 413, 'payload_too_large');
    isSpecError(postRaw('/mcp', `{"jsonrpc":"2.0","id":1,"x":"${'y'.repeat(3000)}"}`), 413, 'payload_too_large');
    expect(k.records('queue').length).toBe(1);
    runTick();
    // A 413 comes before the token is read: counted for the minute's summary, not a row each.
    expect(k.records('api_log').map((r) => [r.client, r.status])).toEqual([['admin-client', 202]]);
  });
});
