// Objections, human resolution of escalations, and every failure code and fallback level on the messages they affect.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import {
  council,
  decline,
  messages,
  ok,
  plantOpenTask,
  setAgent,
  settle,
  start,
  statuses,
  surveillance,
} from '../../council-helpers.js';
import { records } from '../../helpers.js';

async function decided(priority = 'HIGH'): Promise<{ rt: Runtime; id: string }> {
  const rt = await council();
  await start(rt, {
    type: 'kpi_decline',
    source: 'watcher',
    target_user_id: 'tanaka',
    context: { metric: 'contacts' },
    priority,
  });
  await settle(rt);
  const [id] = Object.keys(statuses(rt));
  expect(statuses(rt)[id]).toBe('DECIDED');
  return { rt, id };
}

describe('objections', () => {
  it('re-discusses from Phase 5 when a governance agent objects, and records the objection and its resolution', async () => {
    const { rt, id } = await decided();
    const before = messages(rt, id).find((m) => m.message_type === 'EXECUTION_ORDER')!.content;
    ok(
      await rt.run(
        'fileAgentObjection_',
        [
          'legal',
          {
            discussion_id: id,
            reason: 'GOAL_ADJUSTMENT の運用で残業が増える恐れ',
            alternative: 'PRAISE_INCREASE と ONE_ON_ONE に切り替える',
            urgency: 'MEDIUM',
          },
        ],
        { kind: 'server' },
      ),
    );
    await settle(rt);
    const ms = messages(rt, id);
    const objection = ms.find((m) => m.message_type === 'OBJECTION')!;
    expect(objection).toMatchObject({ speaker: 'legal', phase: 5 });
    const ack = ms.find((m) => m.message_type === 'ACKNOWLEDGEMENT')!;
    expect(ack.content.status).toBe('OBJECTION_ACCEPTED');
    const orders = ms.filter((m) => m.message_type === 'EXECUTION_ORDER');
    expect(orders.length).toBe(2);
    expect(orders[1].content.decision_id).not.toBe(before.decision_id);
    expect(orders[1].content.actions.map((a: { action_type: string }) => a.action_type)).not.toContain(
      'GOAL_ADJUSTMENT',
    );
    expect(statuses(rt)[id]).toBe('DECIDED');
    const obj = records(rt, 'objections');
    expect(obj.length).toBe(1);
    expect(obj[0]).toMatchObject({
      objection_id: 'OBJ-1',
      discussion_id: id,
      decision_id: before.decision_id,
      source: 'agent',
      objector: 'legal',
      status: 'RESOLVED',
    });
    expect(String(obj[0].resolution)).toMatch(/revised order/);
    // The first decision's orders are cancelled, the revised ones pending.
    const orderRows = records(rt, 'orders');
    const statusesOf = (decision: string) => orderRows.filter((r) => r.decision_id === decision).map((r) => r.status);
    expect(statusesOf(before.decision_id)).toEqual(before.actions.map(() => 'CANCELLED'));
    expect(statusesOf(orders[1].content.decision_id)).toEqual(orders[1].content.actions.map(() => 'PENDING'));
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('lets the decider reject a weak general objection, with its reason', async () => {
    const { rt, id } = await decided();
    ok(
      await rt.run(
        'fileObjection',
        [{ discussion_id: id, reason: 'なんとなく不安', alternative: '様子を見る', urgency: 'LOW' }],
        { kind: 'server' },
      ),
    );
    await settle(rt);
    const obj = records(rt, 'objections')[0];
    expect(obj.source).toBe('human');
    expect(obj.status).toBe('REJECTED');
    expect(String(obj.resolution)).toMatch(/却下/);
    expect(messages(rt, id).filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
  });

  it('keeps the original order, with reasons, when re-deliberation reaches the same decision', async () => {
    const { rt, id } = await decided();
    ok(
      await rt.run(
        'fileObjection',
        [{ discussion_id: id, reason: '本当にこれで良いか確認したい', alternative: '-', urgency: 'HIGH' }],
        { kind: 'server' },
      ),
    );
    await settle(rt);
    const ms = messages(rt, id);
    expect(ms.filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
    expect(ms.filter((m) => m.message_type === 'ACKNOWLEDGEMENT').map((m) => m.content.status)).toEqual([
      'OBJECTION_ACCEPTED',
      'ORIGINAL_ORDER_KEPT',
    ]);
    expect(String(records(rt, 'objections')[0].resolution)).toMatch(/原案/);
    expect(statuses(rt)[id]).toBe('DECIDED');
  });

  it('E005: when objection processing fails, the original order runs provisionally and is flagged', async () => {
    const { rt, id } = await decided();
    await setAgent(rt, 'decider', 'active', false);
    ok(
      await rt.run(
        'fileObjection',
        [{ discussion_id: id, reason: '再検討してください', alternative: 'ONE_ON_ONE', urgency: 'HIGH' }],
        { kind: 'server' },
      ),
    );
    await settle(rt);
    const err = messages(rt, id).find((m) => m.message_type === 'ERROR')!;
    expect(err.content.error_code).toBe('E005');
    expect(err.metadata).toMatchObject({ error_code: 'E005', fallback_level: 5 });
    const log = records(rt, 'discussions')[0];
    expect(log.execution_status).toBe('PROVISIONAL');
    expect(String(log.notes)).toMatch(/E005 review needed/);
    expect(records(rt, 'objections')[0].status).toBe('FAILED');
    expect(records(rt, 'inbox').filter((r) => String(r.title).startsWith('E005')).length).toBe(1);
  });
});

describe('escalations and failure codes', () => {
  it('E004: a governance FAIL escalates, notifies a person, and a person can return it to Phase 5 with guidance', async () => {
    const rt = await council();
    await start(rt, surveillance());
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('ESCALATED');
    const ms = messages(rt, id);
    const ethics = ms.find((m) => m.speaker === 'ethics')!;
    expect(ethics.content.check_result).toBe('FAIL');
    expect(ethics.metadata).toMatchObject({ error_code: 'E004', fallback_level: 5 });
    expect(ms.find((m) => m.message_type === 'ERROR')!.content.error_code).toBe('E004');
    expect(ms.some((m) => m.message_type === 'EXECUTION_ORDER')).toBe(false);
    const inbox = records(rt, 'inbox');
    expect(inbox.length).toBe(1);
    expect(inbox[0]).toMatchObject({ from_agent: 'ethics', type: 'anomaly_alert', priority: 'urgent' });
    ok(
      await rt.run(
        'resolveEscalation',
        [{ discussion_id: id, action: 'return', guidance: '監視はしない。ONE_ON_ONE を中心に' }],
        { kind: 'server' },
      ),
    );
    await settle(rt);
    expect(statuses(rt)[id]).toBe('DECIDED');
    const after = messages(rt, id);
    expect(after.find((m) => m.speaker === 'human')!.content).toMatchObject({
      status: 'RETURNED_TO_PHASE_5',
      guidance: '監視はしない。ONE_ON_ONE を中心に',
    });
    const order = after.find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(order.content.actions.map((a: { action_type: string }) => a.action_type)).toContain('ONE_ON_ONE');
  });

  it('lets a person approve an escalation with an edited order, or reject it', async () => {
    const rt = await council();
    for (const who of ['tanaka', 'sato'])
      await start(rt, {
        type: 'kpi_decline',
        source: 'human',
        target_user_id: who,
        context: { metric: 'contacts', request: '降格を検討' },
        priority: 'HIGH',
      });
    await settle(rt);
    const [a, b] = Object.keys(statuses(rt));
    expect([statuses(rt)[a], statuses(rt)[b]]).toEqual(['ESCALATED', 'ESCALATED']);
    const order = {
      decision_id: 'DEC-2026-01-15-999',
      target_agents: ['buddy'],
      actions: [
        {
          action_type: 'ONE_ON_ONE',
          target: '本人',
          description: '面談で状況を聞く',
          intensity: 'low',
          timing: '10:00',
          duration_days: 7,
        },
      ],
      monitoring: {
        metrics: ['contacts'],
        review_date: '2026-01-22',
        success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
      },
    };
    ok(await rt.run('resolveEscalation', [{ discussion_id: a, action: 'approve', order }], { kind: 'server' }));
    ok(await rt.run('resolveEscalation', [{ discussion_id: b, action: 'reject' }], { kind: 'server' }));
    await settle(rt);
    expect(statuses(rt)[a]).toBe('DECIDED');
    expect(statuses(rt)[b]).toBe('CLOSED');
    const approved = messages(rt, a).find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(approved.speaker).toBe('human');
    expect(approved.content.decision_id).toMatch(/^DEC-2026-01-15-00\d$/);
    expect(records(rt, 'orders').filter((r) => r.discussion_id === a).length).toBe(1);
    // A disallowed action in an edited order is refused, and the task fails with the reason.
    await start(rt, {
      type: 'kpi_decline',
      source: 'human',
      target_user_id: 'suzuki',
      context: { metric: 'contacts', request: '監視' },
      priority: 'HIGH',
    });
    await settle(rt);
    const c = Object.keys(statuses(rt)).find((x) => x !== a && x !== b)!;
    const bad = { ...order, actions: [{ ...order.actions[0], action_type: 'SALARY_CUT' }] };
    const r = await rt.run('resolveEscalation', [{ discussion_id: c, action: 'approve', order: bad }], {
      kind: 'server',
    });
    expect(r.ok).toBe(false);
    expect(r.error!.message).toMatch(/actions\.0\.action_type: action type SALARY_CUT is not in the allow-list/);
    expect(statuses(rt)[c]).toBe('ESCALATED');
    expect(
      records(rt, 'queue').some((q) => q.type === 'escalation.resolve' && String(q.payload_json).indexOf(c) >= 0),
    ).toBe(false);
  });

  it('E001 with fallback levels 2 and 3: a failing agent is replaced by its substitute, then by a marked default opinion', async () => {
    const rt = await council();
    await setAgent(rt, 'psychology', 'model', 'openai:gpt-4o-mini');
    await setAgent(rt, 'wellbeing', 'model', 'openai:gpt-4o-mini');
    await setAgent(rt, 'neuroscience', 'model', 'openai:gpt-4o-mini');
    await start(rt);
    await settle(rt);
    const ms = messages(rt);
    const psych = ms.find((m) => m.speaker === 'psychology' && m.phase === 2)!;
    expect(psych.metadata.fallback_level).toBe(2);
    expect(psych.metadata.note).toMatch(/substitute coaching/);
    // wellbeing's substitute (neuroscience) is also down: level 3, E001, marked default, no vote.
    const well = ms.find((m) => m.speaker === 'wellbeing' && m.phase === 2)!;
    expect(well.metadata).toMatchObject({ fallback_level: 3, error_code: 'E001', default_opinion: true });
    const deliberation = ms.find((m) => m.message_type === 'DECISION_DELIBERATION')!;
    expect(deliberation.content.weight_assignment.map((w: { agent_id: string }) => w.agent_id)).not.toContain(
      'wellbeing',
    );
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });

  it('E002 with level 1: unreadable KPI data is retried three times, skipped, and noted on the situation report', async () => {
    const rt = await council();
    rt.workbook.renameSheet(rt.workbook.sheetByName('KPI')!.id, 'KPI (old)');
    await start(rt);
    await settle(rt);
    const report = messages(rt).find((m) => m.message_type === 'SITUATION_REPORT')!;
    expect(report.metadata).toMatchObject({ error_code: 'E002', fallback_level: 1 });
    expect(report.metadata.note).toMatch(/KPI data could not be read after 3 attempts/);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });

  it('E003: without a decider answer, an urgent discussion gets a rule-based decision (level 4), another one escalates (level 5)', async () => {
    const rt = await council();
    await setAgent(rt, 'decider', 'model', 'anthropic:claude');
    await start(rt, decline('tanaka', 'HIGH'));
    await start(rt, decline('sato', 'LOW'));
    await settle(rt);
    const [urgent, calm] = Object.keys(statuses(rt));
    expect(statuses(rt)[urgent]).toBe('DECIDED');
    const order = messages(rt, urgent).find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(order.metadata).toMatchObject({ error_code: 'E003', fallback_level: 4, model_used: 'rules:default' });
    expect(statuses(rt)[calm]).toBe('ESCALATED');
    const err = messages(rt, calm).find((m) => m.message_type === 'ERROR')!;
    expect(err.metadata).toMatchObject({ error_code: 'E003', fallback_level: 5 });
    expect(records(rt, 'inbox').filter((r) => r.title === `E003 ${calm}`).length).toBe(1);
  });

  it('rejects an illegal status transition instead of overwriting it', async () => {
    const { rt, id } = await decided();
    ok(await rt.run('resolveEscalation', [{ discussion_id: id, action: 'reject' }], { kind: 'server' }));
    await settle(rt);
    expect(statuses(rt)[id]).toBe('DECIDED');
    const task = records(rt, 'queue').find((r) => r.type === 'escalation.resolve')!;
    expect(String(task.last_error)).toMatch(/only an ESCALATED discussion can be resolved/);
  });
});

describe('the queue', () => {
  it('skips a malformed item with its error, retries it, then marks it dead and tells a person', async () => {
    const rt = await council();
    await plantOpenTask(rt, 'Q-bad', '{not json');
    await start(rt);
    for (let i = 0; i < 6; i++) {
      ok(await rt.run('tick', [], { kind: 'trigger' }));
      rt.clock.advance(3600_000);
    }
    const dead = records(rt, 'queue').find((r) => r.id === 'Q-bad')!;
    expect(dead.status).toBe('dead');
    expect(dead.attempts).toBe(3);
    expect(String(dead.last_error)).toMatch(/malformed payload_json/);
    expect(records(rt, 'inbox').filter((r) => String(r.title).indexOf('Q-bad') >= 0).length).toBe(1);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });

  it('answers a repeated start with the same idempotency key once (the first wins) and schedules a one-shot trigger', async () => {
    const rt = await council();
    const t = {
      type: 'kpi_decline',
      source: 'watcher',
      target_user_id: 'tanaka',
      context: { metric: 'contacts', v: 1 },
      priority: 'MEDIUM',
      idempotency_key: 'k1',
    };
    const a = ok(await rt.run('startDiscussion', [t], { kind: 'server' }));
    const b = ok(
      await rt.run('startDiscussion', [{ ...t, context: { metric: 'contacts', v: 2 } }], { kind: 'server' }),
    );
    expect(b).toEqual({ task_id: a.task_id, discussion_id: a.discussion_id, duplicate: true });
    const queue = records(rt, 'queue');
    expect(queue.length).toBe(1);
    expect(JSON.parse(String(queue[0].payload_json)).trigger.context.v).toBe(1);
    expect(rt.triggers.triggers.filter((x) => x.handler === 'tickSoon').length).toBe(1);
    // after(ms) is a minimum: the runtime fires one-shot triggers late, as Apps Script may.
    rt.clock.advanceTo(rt.triggers.triggers.find((x) => x.handler === 'tickSoon')!.nextAt!);
    const fired = await rt.fireDueTriggers();
    expect(fired.map((f) => f.fn)).toContain('tickSoon');
    expect(rt.triggers.triggers.filter((x) => x.handler === 'tickSoon').length).toBe(0);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });

  it('opens discussions from the KPI watcher rule, once per decline', async () => {
    const rt = await council();
    const first = ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    expect(first.opened.map((o: { member: string }) => o.member)).toEqual(['tanaka']);
    expect(first.opened[0].change).toBeCloseTo(-0.583, 2);
    const again = ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    expect(again.opened[0].duplicate).toBe(true);
    await settle(rt);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });
});
