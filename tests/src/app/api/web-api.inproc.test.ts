// The web API in-process: a call answered as doGet/doPost answer it, from the token through the router to the
// council, with its API Log row left for a tick and the per-token rate limit counted in the cache.
import { describe, expect, it } from 'vitest';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { api, client, decline, kaigi, settle } from '../inproc.js';

describe('the web API in-process', () => {
  it('refuses a call without a valid token and answers one with it', () => {
    const k = kaigi();
    expect(api('nope', 'GET', '/status')).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    const token = client(k, 'ops', 'coordinator');
    const status = api(token, 'GET', '/status');
    expect(status.status).toBe(200);
    expect(status.agents.length).toBeGreaterThan(0);
  });

  it('queues a discussion from POST /tasks and the tick decides it; the API Log gets its rows', () => {
    const k = kaigi();
    const token = client(k, 'ops', 'coordinator');
    const r = api(token, 'POST', '/tasks', { ...decline('tanaka'), idempotency_key: 'crm-1' });
    expect(r).toMatchObject({ status: 202, discussion_id: expect.stringMatching(/^DISC-2026-01-15-/) });
    expect(api(token, 'POST', '/tasks', { ...decline('tanaka'), idempotency_key: 'crm-1' })).toEqual(r);
    expect(k.records('queue').map((q) => q.type)).toEqual(['discussion.open']);
    // The call left its log row in the inbox (a property), not in the sheet.
    expect(Object.keys(k.ports.properties.values).some((p) => p.startsWith(PROPERTY_KEYS.apiLogInbox))).toBe(true);
    settle(k);
    expect(k.records('discussions').map((d) => d.status)).toEqual(['DECIDED']);
    expect(api(token, 'GET', `/tasks/${r.discussion_id}`)).toMatchObject({ status: 200, state: 'DECIDED' });
    expect(k.records('api_log').length).toBeGreaterThan(0);
  });

  it('refuses a viewer the route that needs a coordinator', () => {
    const k = kaigi();
    const token = client(k, 'watcher', 'viewer');
    const r = api(token, 'POST', '/tasks', decline('tanaka'));
    expect(r).toMatchObject({ status: 403, error: { code: 'forbidden' } });
    expect(k.records('queue')).toEqual([]);
  });
});
