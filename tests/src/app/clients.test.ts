// API clients through the built file: a token is shown once, kept only as a hash, listed without it, revocable, audited.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TABS } from '../../../sheets-schema/index.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { council, ok } from '../../council-helpers.js';
import { records } from '../../helpers.js';

describe('API clients', () => {
  it('creates a client whose token is shown once and stored only as its SHA-256', async () => {
    const rt = await council();
    const made = (await rt.callServer('createApiClient', { name: 'crm', role: 'worker' })) as Record<string, string>;
    expect(made.token).toMatch(/^kaigi_[0-9a-f]{64}$/);
    expect(made).toMatchObject({ name: 'crm', role: 'worker' });
    const stored = rt.scriptProperties.all()[PROPERTY_KEYS.apiTokens];
    expect(stored).not.toContain(made.token);
    expect(JSON.parse(stored)[0].hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    // Listed by name and role, never the token or its hash.
    const list = (await rt.callServer('listApiClients')) as Record<string, string>[];
    expect(list).toEqual([{ name: 'crm', role: 'worker', created_at: made.created_at }]);
    expect(JSON.stringify(list)).not.toContain(JSON.parse(stored)[0].hash);
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
});
