// Resolving an escalation from the sidebar: an edited order is validated field by field before anything is queued,
// and the approved one is the order recorded.
import { describe, expect, it } from 'vitest';
import { messages, settle, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { call, escalated, HOSTILE } from './steer-helpers.js';

// The workbook's today is 2026-01-15 (tests/council-helpers.ts START).
const edited = () => ({
  target_agents: ['buddy'],
  actions: [
    {
      action_type: 'ONE_ON_ONE',
      target: '本人',
      description: HOSTILE,
      intensity: 'low',
      timing: '10:00',
      duration_days: 7,
    },
  ],
  monitoring: {
    metrics: ['contacts'],
    review_date: '2026-01-29',
    success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
  },
});

describe('resolveEscalation with an edited order', () => {
  it('records the approved edited order as the decision, text exactly as written', async () => {
    const { rt, id } = await escalated();
    const { task_id } = await call(rt, 'resolveEscalation', { discussion_id: id, action: 'approve', order: edited() });
    expect(task_id).toMatch(/^Q-/);
    await settle(rt);
    expect(statuses(rt)[id]).toBe('DECIDED');
    const order = messages(rt, id).find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(order.speaker).toBe('human');
    expect(order.content).toEqual({
      ...edited(),
      decision_id: order.content.decision_id,
      monitoring: { ...edited().monitoring, review_in_days: 14 },
    });
    const v = await call(rt, 'getDiscussion', id);
    expect(v.summary).toMatchObject({
      decided_by: 'human',
      intensity: 'low',
      review_date: '2026-01-29',
      execution_status: 'PENDING',
    });
    expect(v.summary.actions[0].description).toBe(HOSTILE);
    expect(
      records(rt, 'orders')
        .filter((o) => o.discussion_id === id)
        .map((o) => o.review_date),
    ).toHaveLength(1);
  });

  it('names every bad field and queues nothing', async () => {
    const { rt, id } = await escalated();
    const queued = records(rt, 'queue').length;
    const bad = edited() as any;
    bad.actions[0].action_type = 'SALARY_CUT';
    bad.actions[0].intensity = 'extreme';
    bad.actions[0].target = '';
    bad.monitoring.review_date = '29/01/2026';
    bad.salary = 0;
    const err = await call(rt, 'resolveEscalation', { discussion_id: id, action: 'approve', order: bad }).catch(
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('OrderValidationError');
    for (const field of [
      /actions\.0\.action_type: action type SALARY_CUT is not in the allow-list/,
      /actions\.0\.intensity:/,
      /actions\.0\.target: expected 1 to 200 characters/,
      /monitoring\.review_date: expected YYYY-MM-DD/,
      /salary: not a field of an order/,
    ])
      expect(err.message).toMatch(field);
    // A well-formed date that is not a day, or too far ahead, is named too.
    const when = async (date: string) => {
      const o = edited();
      o.monitoring.review_date = date;
      return call(rt, 'resolveEscalation', { discussion_id: id, action: 'approve', order: o }).catch(
        (e: Error) => e.message,
      );
    };
    expect(await when('2026-02-30')).toMatch(/monitoring\.review_date: 2026-02-30 is not a calendar date/);
    expect(await when('2026-01-15')).toMatch(/monitoring\.review_date: expected a date 1 to 90 days after 2026-01-15/);
    expect(await when('2026-06-01')).toMatch(/monitoring\.review_date: expected a date 1 to 90 days after/);
    await expect(
      call(rt, 'resolveEscalation', { discussion_id: id, action: 'reject', order: edited() }),
    ).rejects.toThrow(/an edited order goes with approve only/);
    expect(records(rt, 'queue').length).toBe(queued);
    expect(statuses(rt)[id]).toBe('ESCALATED');
  });

  it('returns with guidance and rejects as before', async () => {
    const { rt, id } = await escalated();
    await expect(call(rt, 'resolveEscalation', { discussion_id: id, action: 'return' })).rejects.toThrow(
      /needs guidance/,
    );
    await call(rt, 'resolveEscalation', { discussion_id: id, action: 'return', guidance: '監視はしない' });
    await settle(rt);
    expect(statuses(rt)[id]).toBe('DECIDED');
    const other = await escalated('sato');
    await call(other.rt, 'resolveEscalation', { discussion_id: other.id, action: 'reject' });
    await settle(other.rt);
    expect(statuses(other.rt)[other.id]).toBe('CLOSED');
  });
});
