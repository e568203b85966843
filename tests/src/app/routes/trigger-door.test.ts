// The door every discussion passes (its trigger, checked strictly): POST /tasks, MCP start_discussion's route
// and the start dialog refuse an unknown member, a trigger type Settings do not name and a misspelt key, with 400
// naming the field, and queue nothing.
import { describe, expect, it } from 'vitest';
import { council, ok, setSetting } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, post } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

describe('the trigger door', () => {
  it('POST /tasks refuses an unknown member, an unknown type and a misspelt key, naming the field', async () => {
    const rt = await council();
    const t = await clients(rt);
    const unknownMember = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, target_user_id: 'yamada' });
    expect(unknownMember).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
    expect(unknownMember.error.message).toMatch(/target_user_id: "yamada" is not a member/);
    expect(unknownMember.error.details).toEqual([
      expect.objectContaining({ field: 'target_user_id', code: 'unknown_member' }),
    ]);
    const misspeltType = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, type: 'kpi_declne' });
    expect(misspeltType).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
    expect(misspeltType.error.message).toMatch(
      /type: "kpi_declne" is not a trigger type \(Settings triggers.types: kpi_decline, overwork, motivation, manual\)/,
    );
    for (const [key, value] of [
      ['prority', 'CRITICAL'],
      ['contxt', { note: 'x' }],
    ] as const) {
      const { priority: _p, context: _c, ...rest } = TRIGGER;
      const r = await post(rt, '/tasks', t.coordinator, { ...rest, [key]: value });
      expect(r).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
      expect(r.error.message).toContain(key);
    }
    // Nothing was queued or reserved by any of them.
    expect(records(rt, 'queue')).toEqual([]);
    // A type a person adds to Settings (with its labels) is let in.
    await setSetting(
      rt,
      'triggers.types',
      JSON.stringify([{ type: 'churn_risk', label_ja: '解約の兆候', label_en: 'Churn risk' }]),
    );
    const added = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, type: 'churn_risk' });
    expect(added).toMatchObject({ status: 202 });
    expect((await post(rt, '/tasks', t.coordinator, TRIGGER)).status).toBe(400);
  });

  it('the start dialog offers the Settings types and refuses the same way', async () => {
    const rt = await council();
    const options = ok(await rt.run('getStartOptions', [], { kind: 'server' }));
    expect(options.triggerTypes.map((x: { type: string }) => x.type)).toEqual([
      'kpi_decline',
      'overwork',
      'motivation',
      'manual',
    ]);
    const r = await rt.run('startDiscussion', [{ ...TRIGGER, target_user_id: 'yamada' }], { kind: 'server' });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(/target_user_id: "yamada" is not a member/);
    const e = await rt.run('estimateStart', [{ ...TRIGGER, type: 'nope' }], { kind: 'server' });
    expect(e.error?.message).toMatch(/type: "nope" is not a trigger type/);
    expect(records(rt, 'queue')).toEqual([]);
  });

  it('a workbook with no members says how to load them', async () => {
    const rt = await council({ demo: false });
    const r = await rt.run('startDiscussion', [TRIGGER], { kind: 'server' });
    expect(r.error?.message).toMatch(/the Members tab is empty/);
  });
});
