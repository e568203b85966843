// GET /members and GET /trigger-types through the built file (and as MCP tools): what an integrator needs to start a
// valid discussion — member ids, trigger types and their labels — to any client with a token, and nothing private.
import { describe, expect, it } from 'vitest';
import { council, setSetting } from '../../../council-helpers.js';
import { column } from '../../../helpers.js';
import { type Answer, clients, get, isSpecError } from './api-helpers.js';

const DEMO_IDS = ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'];

async function rpc(rt: Awaited<ReturnType<typeof council>>, token: string | undefined, body: object): Promise<Answer> {
  const message = { jsonrpc: '2.0', id: 1, ...body };
  const reply = await rt.doPost({ path: '/mcp' }, JSON.stringify(token ? { token, ...message } : message));
  return JSON.parse(reply.body);
}

describe('GET /members', () => {
  it('lists the demo team by id, name, team and role to a viewer, never a profile', async () => {
    const rt = await council();
    const t = await clients(rt);
    const a = await get(rt, '/members', t.viewer);
    expect(a.status).toBe(200);
    expect(a.members.map((m: Answer) => m.member_id)).toEqual(DEMO_IDS);
    expect(a.members[0]).toEqual({ member_id: 'tanaka', name: '田中 太郎', team: '営業1課', role: '営業' });
    for (const m of a.members) expect(Object.keys(m).sort()).toEqual(['member_id', 'name', 'role', 'team']);
    // The profile's notes (recognition preference, contact time) stay in the sheet.
    expect(JSON.stringify(a)).not.toMatch(/recognition|preferred_contact|tenure|best_login/);
    for (const role of ['worker', 'coordinator', 'admin'] as const)
      expect((await get(rt, '/members', t[role])).members).toHaveLength(5);
  });

  it('is refused without a token, with a wrong one, and with a parameter it does not take', async () => {
    const rt = await council();
    const t = await clients(rt);
    isSpecError(await get(rt, '/members'), 401, 'unauthorized');
    isSpecError(await get(rt, '/members', `kaigi_${'0'.repeat(64)}`), 401, 'unauthorized');
    const extra = await get(rt, '/members', t.viewer, { team: '営業1課' });
    isSpecError(extra, 400, 'invalid_input');
    expect(extra.error.message).toContain('team');
  });

  it('shows a member a person adds to the Members tab at once', async () => {
    const rt = await council();
    const t = await clients(rt);
    const row = DEMO_IDS.length + 2;
    const cols = ['member_id', 'name', 'team', 'role'] as const;
    for (const [i, v] of ['yamada', '山田 一郎', '営業3課', '営業'].entries())
      for (const r of await rt.edit('Members', row, column('members', cols[i]), [[v]])) expect(r.ok).toBe(true);
    const ids = (await get(rt, '/members', t.viewer)).members.map((m: Answer) => m.member_id);
    expect(ids).toEqual([...DEMO_IDS, 'yamada']);
  });
});

describe('GET /trigger-types', () => {
  it('lists Settings triggers.types in the sheet’s language, or the one asked for', async () => {
    const rt = await council();
    const t = await clients(rt);
    const ja = await get(rt, '/trigger-types', t.viewer);
    expect(ja).toMatchObject({ status: 200, locale: 'ja' });
    expect(ja.trigger_types).toEqual([
      { type: 'kpi_decline', label: 'KPI の低下' },
      { type: 'overwork', label: '働きすぎの兆候' },
      { type: 'motivation', label: 'モチベーションの変化' },
      { type: 'manual', label: 'その他の相談' },
    ]);
    const en = await get(rt, '/trigger-types', t.worker, { locale: 'en' });
    expect(en.locale).toBe('en');
    expect(en.trigger_types[0]).toEqual({ type: 'kpi_decline', label: 'KPI decline' });
    const bad = await get(rt, '/trigger-types', t.viewer, { locale: 'fr' });
    isSpecError(bad, 400, 'invalid_input');
    expect(bad.error.message).toContain('locale');
    isSpecError(await get(rt, '/trigger-types'), 401, 'unauthorized');
  });

  it('gives a type’s description when Settings has one, in the language asked for', async () => {
    const rt = await council();
    const t = await clients(rt);
    const types = [
      { type: 'kpi_decline', label_ja: 'KPI の低下', label_en: 'KPI decline', description_en: 'A metric fell' },
      { type: 'churn_risk', label_ja: '離職の兆候', label_en: 'Churn risk', description_ja: '辞めそう' },
    ];
    await setSetting(rt, 'triggers.types', JSON.stringify(types));
    expect((await get(rt, '/trigger-types', t.viewer, { locale: 'en' })).trigger_types).toEqual([
      { type: 'kpi_decline', label: 'KPI decline', description: 'A metric fell' },
      { type: 'churn_risk', label: 'Churn risk' },
    ]);
    expect((await get(rt, '/trigger-types', t.viewer)).trigger_types[1]).toEqual({
      type: 'churn_risk',
      label: '離職の兆候',
      description: '辞めそう',
    });
  });
});

describe('list_members and list_trigger_types over MCP', () => {
  it('are offered to a viewer and answer as the routes do; without a token the call is refused', async () => {
    const rt = await council();
    const t = await clients(rt);
    const tools = (await rpc(rt, t.viewer, { method: 'tools/list' })).result.tools;
    const byName = Object.fromEntries(tools.map((x: Answer) => [x.name, x]));
    for (const name of ['list_members', 'list_trigger_types']) {
      expect(byName[name], name).toBeDefined();
      expect(byName[name].annotations).toEqual({ readOnlyHint: true });
      expect(byName[name]._meta['kaigi/roles']).toEqual(['viewer', 'worker', 'coordinator', 'admin']);
    }
    expect(byName.list_trigger_types.inputSchema.properties.locale.enum).toEqual(['ja', 'en']);
    const call = (name: string, args: object, token: string | null = t.viewer) =>
      rpc(rt, token ?? undefined, { method: 'tools/call', params: { name, arguments: args } });
    const members = (await call('list_members', {})).result.structuredContent;
    expect(members.members.map((m: Answer) => m.member_id)).toEqual(DEMO_IDS);
    const types = (await call('list_trigger_types', { locale: 'en' })).result.structuredContent;
    expect(types.trigger_types.map((x: Answer) => x.label)).toEqual([
      'KPI decline',
      'Signs of overwork',
      'Change in motivation',
      'Other request',
    ]);
    isSpecError(await call('list_members', {}, null), 401, 'unauthorized');
  });
});
