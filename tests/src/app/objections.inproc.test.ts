// Objections, human resolution of escalations, and the failure codes and fallback levels on the messages they affect,
// in-process: the use cases the sidebar and the engine call (the bundle's entry points: objections.test.ts, access).
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/store/store.js';
import { verifyAudit } from '../../../src/app/audit/audit.js';
import { requestObjection } from '../../../src/app/discussions/requests.js';
import { startDiscussion } from '../../../src/app/discussions/start.js';
import { runWatcher } from '../../../src/app/queue/watcher.js';
import { resolveFromSidebar } from '../../../src/app/steer/escalation.js';
import { ConflictError } from '../../../src/core/errors.js';
import { decline, type Kaigi, kaigi, settle, statuses, ZONE } from './inproc.js';
import { editConfig, messages, preparedKaigi } from './inproc-more.js';
import { TASK_KINDS } from '../../../src/core/queue-tasks.js';

const start = (k: Kaigi, trigger: object) => startDiscussion(trigger, k.council()).discussion_id;
const object = (k: Kaigi, input: object) => requestObjection(input, k.council());
const resolve = (k: Kaigi, input: object) => resolveFromSidebar(k.council(), input);

// A DECIDED discussion about tanaka, made once for the file and copied for each test that starts from it.
function decided(): { k: Kaigi; id: string } {
  const { k, value: id } = preparedKaigi('decided', (k) => {
    const id = start(k, { ...decline('tanaka'), source: 'watcher' });
    settle(k);
    return id;
  });
  expect(statuses(k)).toEqual({ [id]: 'DECIDED' });
  return { k, id };
}

describe('objections', () => {
  it('re-discusses from Phase 5 when a governance agent objects, and records the objection and its resolution', () => {
    const { k, id } = decided();
    const before = messages(k, id).find((m) => m.message_type === 'EXECUTION_ORDER')!.content;
    requestObjection(
      {
        discussion_id: id,
        reason: 'GOAL_ADJUSTMENT の運用で残業が増える恐れ',
        alternative: 'PRAISE_INCREASE と ONE_ON_ONE に切り替える',
        urgency: 'MEDIUM',
      },
      k.council(),
      { source: 'agent', objector: 'legal' },
    );
    settle(k);
    const ms = messages(k, id);
    expect(ms.find((m) => m.message_type === 'OBJECTION')).toMatchObject({ speaker: 'legal', phase: 5 });
    expect(ms.find((m) => m.message_type === 'ACKNOWLEDGEMENT')!.content.status).toBe('OBJECTION_ACCEPTED');
    const orders = ms.filter((m) => m.message_type === 'EXECUTION_ORDER');
    expect(orders.length).toBe(2);
    expect(orders[1].content.decision_id).not.toBe(before.decision_id);
    expect(orders[1].content.actions.map((a: { action_type: string }) => a.action_type)).not.toContain(
      'GOAL_ADJUSTMENT',
    );
    expect(statuses(k)[id]).toBe('DECIDED');
    const obj = k.records('objections');
    expect(obj.length).toBe(1);
    expect(obj[0]).toMatchObject({
      objection_id: 'OBJ-1',
      discussion_id: id,
      decision_id: before.decision_id,
      source: 'agent',
      objector: 'legal',
      status: 'ACCEPTED',
    });
    expect(String(obj[0].resolution)).toMatch(/revised order/);
    // The first decision's orders are cancelled, the revised ones pending.
    const orderRows = k.records('orders');
    const statusesOf = (decision: string) => orderRows.filter((r) => r.decision_id === decision).map((r) => r.status);
    expect(statusesOf(before.decision_id)).toEqual(before.actions.map(() => 'CANCELLED'));
    expect(statusesOf(orders[1].content.decision_id)).toEqual(orders[1].content.actions.map(() => 'PENDING'));
    expect(verifyAudit(new Store(k.ports.spreadsheet, ZONE)).ok).toBe(true);
  });

  it('lets the decider reject a weak general objection, with its reason', () => {
    const { k, id } = decided();
    object(k, { discussion_id: id, reason: 'なんとなく不安', alternative: '様子を見る', urgency: 'LOW' });
    settle(k);
    const obj = k.records('objections')[0];
    expect([obj.source, obj.status]).toEqual(['human', 'REJECTED']);
    expect(String(obj.resolution)).toMatch(/却下/);
    expect(messages(k, id).filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
  });

  it('keeps the original order, with reasons, when re-deliberation reaches the same decision', () => {
    const { k, id } = decided();
    object(k, { discussion_id: id, reason: '本当にこれで良いか確認したい', alternative: '-', urgency: 'HIGH' });
    settle(k);
    const ms = messages(k, id);
    expect(ms.filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
    expect(ms.filter((m) => m.message_type === 'ACKNOWLEDGEMENT').map((m) => m.content.status)).toEqual([
      'OBJECTION_ACCEPTED',
      'ORIGINAL_ORDER_KEPT',
    ]);
    expect(String(k.records('objections')[0].resolution)).toMatch(/原案/);
    expect(statuses(k)[id]).toBe('DECIDED');
  });

  it('E005: when objection processing fails, the original order runs provisionally and is flagged', () => {
    const { k, id } = decided();
    editConfig(k, 'agents', 'decider', 'active', false);
    object(k, { discussion_id: id, reason: '再検討してください', alternative: 'ONE_ON_ONE', urgency: 'HIGH' });
    settle(k);
    const err = messages(k, id).find((m) => m.message_type === 'ERROR')!;
    expect(err.content.error_code).toBe('E005');
    expect(err.metadata).toMatchObject({ error_code: 'E005', fallback_level: 5 });
    const log = k.records('discussions')[0];
    expect(log.execution_status).toBe('PROVISIONAL');
    expect(String(log.notes)).toMatch(/E005 review needed/);
    expect(k.records('objections')[0].status).toBe('REJECTED');
    expect(k.records('inbox').filter((r) => String(r.title).startsWith('E005')).length).toBe(1);
  });

  it('refuses to resolve a discussion that is not escalated, at the door and again in the task', () => {
    const { k, id } = decided();
    // At the door: 409 naming the state, and nothing queued.
    expect(() => resolve(k, { discussion_id: id, action: 'reject' })).toThrow(ConflictError);
    expect(() => resolve(k, { discussion_id: id, action: 'reject' })).toThrow(
      `${id} is DECIDED; only an ESCALATED discussion can be resolved`,
    );
    expect(k.records('queue').filter((r) => r.type === 'escalation.resolve')).toEqual([]);
    // A task queued before the state moved (the door checked an older state) is refused under the lock.
    k.council().queue.enqueue(
      TASK_KINDS.resolution,
      { discussion_id: id, action: 'reject', by: 'lead@x' },
      'HIGH',
      '',
      'lead@x',
    );
    settle(k);
    expect(statuses(k)[id]).toBe('DECIDED');
    const task = k.records('queue').find((r) => r.type === 'escalation.resolve')!;
    expect(String(task.last_error)).toMatch(/only an ESCALATED discussion can be resolved/);
  });

  it('refuses an objection to a discussion with no decision, naming its state', () => {
    const k = kaigi();
    const id = start(k, {
      ...decline('tanaka'),
      context: { metric: 'contacts', request: '位置情報を監視して行動を把握したい' },
    });
    settle(k);
    expect(statuses(k)[id]).toBe('ESCALATED');
    expect(() =>
      requestObjection({ discussion_id: id, reason: 'no' }, k.council(), { source: 'human', objector: 'lead@x' }),
    ).toThrow(`${id} is ESCALATED; an objection is to a decision, so only a DECIDED discussion takes one`);
    expect(() =>
      requestObjection({ discussion_id: 'DISC-2026-01-15-099', reason: 'no' }, k.council(), {
        source: 'human',
        objector: 'lead@x',
      }),
    ).toThrow(/was not found in the Discussion Log/);
  });
});

const request = (member: string, text: string) => ({
  ...decline(member),
  context: { metric: 'contacts', request: text },
});

describe('escalations and failure codes', () => {
  it('E004: a governance FAIL escalates, notifies a person, and a person can return it to Phase 5 with guidance', () => {
    const k = kaigi();
    const id = start(k, request('tanaka', '位置情報を監視して行動を把握したい'));
    settle(k);
    expect(statuses(k)[id]).toBe('ESCALATED');
    const ms = messages(k, id);
    const ethics = ms.find((m) => m.speaker === 'ethics')!;
    expect(ethics.content.check_result).toBe('FAIL');
    expect(ethics.metadata).toMatchObject({ error_code: 'E004', fallback_level: 5 });
    expect(ms.find((m) => m.message_type === 'ERROR')!.content.error_code).toBe('E004');
    expect(ms.some((m) => m.message_type === 'EXECUTION_ORDER')).toBe(false);
    const inbox = k.records('inbox');
    expect(inbox.length).toBe(1);
    expect(inbox[0]).toMatchObject({ from_agent: 'ethics', type: 'anomaly_alert', priority: 'urgent' });
    resolve(k, { discussion_id: id, action: 'return', guidance: '監視はしない。ONE_ON_ONE を中心に' });
    settle(k);
    expect(statuses(k)[id]).toBe('DECIDED');
    const after = messages(k, id);
    expect(after.find((m) => m.speaker === 'human')!.content).toMatchObject({
      status: 'RETURNED_TO_PHASE_5',
      guidance: '監視はしない。ONE_ON_ONE を中心に',
    });
    const order = after.find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(order.content.actions.map((a: { action_type: string }) => a.action_type)).toContain('ONE_ON_ONE');
  });

  it('lets a person approve an escalation with an edited order, or reject it', () => {
    const k = kaigi();
    const [a, b] = ['tanaka', 'sato'].map((who) => start(k, request(who, '降格を検討')));
    settle(k);
    expect([statuses(k)[a], statuses(k)[b]]).toEqual(['ESCALATED', 'ESCALATED']);
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
    resolve(k, { discussion_id: a, action: 'approve', order });
    resolve(k, { discussion_id: b, action: 'reject' });
    settle(k);
    expect([statuses(k)[a], statuses(k)[b]]).toEqual(['DECIDED', 'CLOSED']);
    const approved = messages(k, a).find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(approved.speaker).toBe('human');
    expect(approved.content.decision_id).toMatch(/^DEC-2026-01-15-00\d$/);
    expect(k.records('orders').filter((r) => r.discussion_id === a).length).toBe(1);
    // A disallowed action in an edited order is refused, and no resolution is queued.
    const c = start(k, request('suzuki', '監視'));
    settle(k);
    const bad = { ...order, actions: [{ ...order.actions[0], action_type: 'SALARY_CUT' }] };
    expect(() => resolve(k, { discussion_id: c, action: 'approve', order: bad })).toThrow(
      /actions\.0\.action_type: action type SALARY_CUT is not in the allow-list/,
    );
    expect(statuses(k)[c]).toBe('ESCALATED');
    expect(
      k.records('queue').some((q) => q.type === 'escalation.resolve' && String(q.payload_json).indexOf(c) >= 0),
    ).toBe(false);
  });

  it('E001 with fallback levels 2 and 3: a failing agent is replaced by its substitute, then by a marked default opinion', () => {
    const k = kaigi();
    for (const agent of ['psychology', 'wellbeing', 'neuroscience'])
      editConfig(k, 'agents', agent, 'model', 'openai:gpt-4o-mini');
    start(k, decline('tanaka'));
    settle(k);
    const ms = messages(k);
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
    expect(Object.values(statuses(k))).toEqual(['DECIDED']);
  });

  it('E003: without a decider answer, an urgent discussion gets a rule-based decision (level 4), another one escalates (level 5)', () => {
    const k = kaigi();
    editConfig(k, 'agents', 'decider', 'model', 'anthropic:claude');
    const urgent = start(k, decline('tanaka', 'HIGH'));
    const calm = start(k, decline('sato', 'LOW'));
    settle(k);
    expect(statuses(k)[urgent]).toBe('DECIDED');
    const order = messages(k, urgent).find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(order.metadata).toMatchObject({ error_code: 'E003', fallback_level: 4, model_used: 'rules:default' });
    expect(statuses(k)[calm]).toBe('ESCALATED');
    const err = messages(k, calm).find((m) => m.message_type === 'ERROR')!;
    expect(err.metadata).toMatchObject({ error_code: 'E003', fallback_level: 5 });
    expect(k.records('inbox').filter((r) => r.title === `E003 ${calm}`).length).toBe(1);
  });
});

describe('the KPI watcher', () => {
  it('opens discussions from its rule, once per decline', () => {
    const k = kaigi();
    const first = runWatcher(k.council());
    expect(first.opened.map((o) => o.member)).toEqual(['tanaka']);
    expect(first.opened[0].change).toBeCloseTo(-0.583, 2);
    expect(runWatcher(k.council()).opened[0].duplicate).toBe(true);
    settle(k);
    expect(Object.values(statuses(k))).toEqual(['DECIDED']);
  });
});
