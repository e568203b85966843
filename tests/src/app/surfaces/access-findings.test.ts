// Issue 22's findings 2 and 3 through the built file: actors cannot be forged, and a plain editor administers nothing.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { decline, ok, settle, start, START, statuses } from '../../../council-helpers.js';
import { newRuntime, records } from '../../../helpers.js';
import { prepared } from '../prepared.js';
import { post } from '../routes/api-helpers.js';

const EDITOR = 'editor@example.com';
const FORGED = 'manager@example.com';

// A set-up workbook with the demo team, a plain editor of the owner's domain (email revealed, on no access list),
// and one DECIDED discussion.
// Made once for the file and restored for each test that starts from it.
async function decided(): Promise<{ rt: Runtime; id: string }> {
  const users = [{ email: EDITOR, sameDomain: true }];
  const { rt, value: id } = await prepared(
    'decided',
    async () => {
      const rt = newRuntime({ startAt: START, users });
      ok(await rt.run('setup', [], { kind: 'menu' }));
      ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
      await start(rt, decline('tanaka'));
      await settle(rt);
      return { rt, value: Object.keys(statuses(rt))[0] };
    },
    { users },
  );
  expect(statuses(rt)).toEqual({ [id]: 'DECIDED' });
  return { rt, id };
}

const audited = (rt: Runtime) => JSON.stringify(records(rt, 'audit'));
// Who the audit says objected, reported or queued work (the agents' own messages are theirs, and not counted).
const actorsOf = (rt: Runtime) =>
  records(rt, 'audit')
    .filter((a) => ['objection', 'order_report', 'enqueue'].indexOf(String(a.event)) >= 0)
    .map((a) => String(a.actor));

describe('finding 2: the audit cannot be told who acted', () => {
  it('reportOrder refuses a forged `by` from google.script.run; the report is the caller’s', async () => {
    const { rt, id } = await decided();
    await expect(
      rt.callServer('reportOrder', { discussion_id: id, status: 'ACKNOWLEDGED', report: 'done', by: FORGED }),
    ).rejects.toThrow(/reportOrder does not take by/);
    expect(records(rt, 'orders').every((o) => o.status === 'PENDING')).toBe(true);
    expect(audited(rt)).not.toContain(FORGED);
    await rt.callServer('reportOrder', { discussion_id: id, status: 'ACKNOWLEDGED' });
    const events = records(rt, 'audit').filter((a) => a.event === 'order_report');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((a) => a.actor === rt.owner)).toBe(true);
  });

  it('fileObjection refuses to file as a council agent; a person’s data_error is judged as a person’s', async () => {
    const { rt, id } = await decided();
    const forged = { discussion_id: id, source: 'agent', objector: 'analyst', kind: 'data_error', reason: 'wrong' };
    await expect(rt.callServer('fileObjection', forged)).rejects.toThrow(/fileObjection does not take source/);
    await expect(rt.callServer('fileObjection', { ...forged, source: undefined })).rejects.toThrow(
      /does not take objector/,
    );
    expect(records(rt, 'queue').filter((q) => q.type === 'objection.process')).toEqual([]);
    // Without the forged fields the objection is the owner's; `kind: data_error` no longer borrows the analyst's rule.
    await rt.callServer('fileObjection', { discussion_id: id, kind: 'data_error', reason: 'the data is wrong' });
    await settle(rt);
    const [row] = records(rt, 'objections');
    expect(row).toMatchObject({ source: 'human', objector: rt.owner, status: 'REJECTED' });
    expect(actorsOf(rt)).not.toContain('analyst');
  });

  it('an API client named like an agent is refused, and one from before acts as api:NAME, judged as a client', async () => {
    const { rt, id } = await decided();
    for (const name of ['analyst', 'Decider', 'system', 'KAIGI', 'human', 'buddy'])
      await expect(rt.callServer('createApiClient', { name, role: 'coordinator' })).rejects.toThrow(
        /council agent's id|reserved for Kaigi/,
      );
    await rt.callServer('createApiClient', { name: 'crm', role: 'viewer' });
    await expect(rt.callServer('createApiClient', { name: 'CRM', role: 'admin' })).rejects.toThrow(/only in case/);
    // A client called `analyst` made before names were checked: its calls are `api:analyst`, never the agent.
    const token = `kaigi_${'a'.repeat(64)}`;
    const stored = JSON.parse(rt.scriptProperties.get(PROPERTY_KEYS.apiTokens)!);
    stored.clients.push({
      hash: createHash('sha256').update(token).digest('hex'),
      role: 'coordinator',
      name: 'analyst',
    });
    rt.scriptProperties.set({ [PROPERTY_KEYS.apiTokens]: JSON.stringify(stored) });
    const filed = await post(rt, '/objections', token, { discussion_id: id, reason: 'wrong data', kind: 'data_error' });
    expect(filed.status).toBe(202);
    const reported = await post(rt, `/tasks/${id}/result`, token, { status: 'ACKNOWLEDGED', by: FORGED });
    expect(reported.status).toBe(200);
    await settle(rt);
    const [row] = records(rt, 'objections');
    expect(row).toMatchObject({ source: 'api', objector: 'api:analyst', status: 'REJECTED' });
    const reports = records(rt, 'audit').filter((a) => a.event === 'order_report');
    expect(reports.map((a) => a.actor)).toEqual(reports.map(() => 'api:analyst'));
    expect(actorsOf(rt)).not.toContain('analyst');
    expect(audited(rt)).not.toContain(FORGED);
  });
});

describe('finding 3: a plain editor is not an administrator', () => {
  it('refuses createApiClient, saveApiKey, teardown, handOverWorkers, takeOverWorkers and seedDemoData, audited', async () => {
    const rt = newRuntime({ startAt: START, users: [{ email: EDITOR, sameDomain: true }] });
    ok(await rt.run('setup', [], { kind: 'menu' }));
    const before = {
      props: rt.scriptProperties.all(),
      triggers: rt.triggers.triggers.map((t) => [t.owner, t.handler]),
    };
    const calls: [string, unknown[]][] = [
      ['createApiClient', [{ name: 'mine', role: 'admin' }]],
      ['saveApiKey', ['openai', 'placeholder-cred-editor']],
      ['teardown', []],
      ['handOverWorkers', []],
      ['takeOverWorkers', []],
      ['seedDemoData', []],
    ];
    for (const [fn, args] of calls) {
      const r = await rt.run(fn, args, { kind: 'server', user: EDITOR });
      expect([fn, r.error?.name]).toEqual([fn, 'ForbiddenError']);
      expect(r.error?.message).toContain(`${fn} には admin の権限が必要です`);
    }
    // Nothing changed but the audit rows of the refusals: no client, no key, the owner's workers, no demo team.
    const after = rt.scriptProperties.all();
    for (const key of Object.keys(after).filter((k) => k !== PROPERTY_KEYS.state))
      expect([key, after[key]]).toEqual([key, before.props[key]]);
    expect(JSON.stringify(after)).not.toContain('placeholder-cred-editor');
    expect(rt.triggers.triggers.map((t) => [t.owner, t.handler])).toEqual(before.triggers);
    expect(records(rt, 'members')).toEqual([]);
    expect(
      records(rt, 'audit')
        .filter((a) => a.event === 'access_refused')
        .map((a) => [a.actor, a.row_key]),
    ).toEqual(calls.map(([fn]) => [EDITOR, fn]));
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('audits saveApiKey (vendor, set or removed, by whom) and never the key', async () => {
    const rt = newRuntime({ startAt: START });
    ok(await rt.run('setup', [], { kind: 'menu' }));
    const key = 'placeholder-cred-owner';
    await rt.callServer('saveApiKey', 'openai', key);
    await rt.callServer('saveApiKey', 'openai', '');
    const events = records(rt, 'audit').filter((a) => String(a.event).startsWith('api_key_'));
    expect(events.map((a) => [a.event, a.row_key, a.actor])).toEqual([
      ['api_key_set', 'openai', rt.owner],
      ['api_key_removed', 'openai', rt.owner],
    ]);
    expect(audited(rt)).not.toContain(key);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('the demo loader refuses a spreadsheet with real members, and loads again over its own', async () => {
    const rt = newRuntime({ startAt: START });
    ok(await rt.run('setup', [], { kind: 'menu' }));
    ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
    // Its own team again: nothing new, no refusal.
    expect(ok(await rt.run('seedDemoData', [], { kind: 'menu' }))).toEqual({ members: 0, kpi: 0 });
    const next = records(rt, 'members').length + 2;
    for (const r of await rt.edit('Members', next, 1, [['yamada', '山田']])) ok(r);
    const kpi = records(rt, 'kpi').length;
    const refused = await rt.run('seedDemoData', [], { kind: 'menu' });
    expect(refused.error?.message).toMatch(/Members already holds 1 member\(s\) it did not seed \(yamada\)/);
    expect(records(rt, 'kpi').length).toBe(kpi);
  });
});
