// API clients through the built file: a token is shown once, kept only as a hash, listed without it, revocable, audited.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TABS } from '../../../../sheets-schema/index.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { council, ok } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';

describe('API clients', () => {
  it('creates a client whose token is shown once and stored only as its SHA-256', async () => {
    const rt = await council();
    const made = (await rt.callServer('createApiClient', { name: 'crm', role: 'worker' })) as Record<string, string>;
    expect(made.token).toMatch(/^kaigi_[0-9a-f]{64}$/);
    expect(made).toMatchObject({ name: 'crm', role: 'worker' });
    const stored = rt.scriptProperties.all()[PROPERTY_KEYS.apiTokens];
    expect(stored).not.toContain(made.token);
    expect(JSON.parse(stored).clients[0].hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    // Listed by name and role, never the token or its hash.
    const list = (await rt.callServer('listApiClients')) as Record<string, string>[];
    expect(list).toEqual([{ name: 'crm', role: 'worker', created_at: made.created_at }]);
    expect(JSON.stringify(list)).not.toContain(JSON.parse(stored).clients[0].hash);
    // The token now opens the web app; nothing in any cell holds it.
    const status = JSON.parse((await rt.doGet({ path: '/status', token: made.token })).body);
    expect(status.status).toBe(200);
    const cells = JSON.stringify(TABS.map((t) => records(rt, t.key)));
    expect(cells).not.toContain(made.token);
    // The creation is in the audit trail with the role, and the chain still verifies.
    const events = records(rt, 'audit').filter((r) => r.event === 'api_client_created');
    expect(events.map((e) => e.row_key)).toEqual(['crm']);
    expect(String(events[0].payload_json)).not.toContain(made.token);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('refuses a bad role, a bad name and a name in use, and revokes a client for good', async () => {
    const rt = await council();
    await rt.callServer('createApiClient', { name: 'ops', role: 'admin' });
    await expect(rt.callServer('createApiClient', { name: 'x', role: 'root' })).rejects.toThrow(/role is one of/);
    await expect(rt.callServer('createApiClient', { name: '=HYPERLINK("x")', role: 'viewer' })).rejects.toThrow(
      /client name/,
    );
    await expect(rt.callServer('createApiClient', { name: 'ops', role: 'viewer' })).rejects.toThrow(/exists already/);
    const made = (await rt.callServer('createApiClient', { name: 'gone', role: 'viewer' })) as { token: string };
    expect(await rt.callServer('revokeApiClient', 'gone')).toEqual({ name: 'gone', revoked: true });
    const after = JSON.parse((await rt.doGet({ path: '/status', token: made.token })).body);
    expect(after.status).toBe(401);
    expect(((await rt.callServer('listApiClients')) as { name: string }[]).map((c) => c.name)).toEqual(['ops']);
    await expect(rt.callServer('revokeApiClient', 'gone')).rejects.toThrow(/No API client/);
    expect(
      records(rt, 'audit')
        .filter((r) => r.event === 'api_client_revoked')
        .map((r) => r.row_key),
    ).toEqual(['gone']);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('keeps at most 60 clients in properties of at most 8,000 B, refusing the 61st before anything is audited', async () => {
    const rt = await council();
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    // Written by an earlier release: a bare list under KAIGI_API_TOKENS, still read (and its token still works).
    const old = `kaigi_${'b'.repeat(64)}`;
    const legacy = [{ hash: sha(old), role: 'viewer', name: 'legacy', created_at: '2025-01-01T00:00:00.000Z' }];
    rt.scriptProperties.set({ [PROPERTY_KEYS.apiTokens]: JSON.stringify(legacy) });
    expect(((await rt.callServer('listApiClients')) as { name: string }[]).map((c) => c.name)).toEqual(['legacy']);
    expect(JSON.parse((await rt.doGet({ path: '/status', token: old })).body).status).toBe(200);
    // The first creation writes the current format.
    await rt.callServer('createApiClient', { name: 'first', role: 'viewer' });
    expect(JSON.parse(rt.scriptProperties.get(PROPERTY_KEYS.apiTokens)!)).toMatchObject({ v: 2, shards: 1 });
    // The longest names and role there are: 57 more clients, stored as the current format stores them.
    const long = (i: number) => `c${String(i).padStart(2, '0')}${'x'.repeat(61)}`;
    const many = JSON.parse(rt.scriptProperties.get(PROPERTY_KEYS.apiTokens)!).clients.concat(
      Array.from({ length: 57 }, (_, i) => ({
        hash: sha(`t${i}`),
        role: 'coordinator',
        name: long(i),
        created_at: '2026-01-15T01:00:00.000Z',
      })),
    );
    rt.scriptProperties.set({
      [PROPERTY_KEYS.apiTokens]: JSON.stringify({ v: 2, shards: 2, clients: many.slice(0, 30) }),
      [`${PROPERTY_KEYS.apiTokens}_2`]: JSON.stringify({ v: 2, clients: many.slice(30) }),
    });
    // The 60th: in the second shard; each shard within a property's 8,000 B.
    const last = (await rt.callServer('createApiClient', { name: long(99), role: 'coordinator' })) as { token: string };
    const stored = rt.scriptProperties.all();
    const keys = Object.keys(stored).filter((k) => k.startsWith(PROPERTY_KEYS.apiTokens));
    expect(keys.sort()).toEqual([PROPERTY_KEYS.apiTokens, `${PROPERTY_KEYS.apiTokens}_2`]);
    for (const k of keys) expect(Buffer.byteLength(k) + Buffer.byteLength(stored[k])).toBeLessThanOrEqual(8000);
    expect(JSON.parse(stored[PROPERTY_KEYS.apiTokens])).toMatchObject({ v: 2, shards: 2 });
    expect((await rt.callServer('listApiClients')) as unknown[]).toHaveLength(60);
    // The token of a client in the second shard opens the web app.
    expect(JSON.parse((await rt.doGet({ path: '/status', token: last.token })).body).status).toBe(200);

    // The 61st is refused clearly; nothing is audited and nothing stored.
    const audited = records(rt, 'audit').length;
    await expect(rt.callServer('createApiClient', { name: 'one-more', role: 'viewer' })).rejects.toThrow(
      /at most 60 API clients.*revoke one first/,
    );
    expect(records(rt, 'audit').length).toBe(audited);
    for (const k of keys) expect(rt.scriptProperties.get(k)).toBe(stored[k]);
    // Revoking one makes room again.
    await rt.callServer('revokeApiClient', 'legacy');
    await rt.callServer('createApiClient', { name: 'one-more', role: 'viewer' });
    expect((await rt.callServer('listApiClients')) as unknown[]).toHaveLength(60);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  }, 120_000);
});
