// The web API's task flow through the built file: an idempotent POST /tasks, a discussion run to DECIDED and read back
// with GET /tasks/{id}, result reports that move the orders and column L, objections and escalations over the API,
// hostile text kept as text, and the audit naming the client.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, messages, ok, settle, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { type Answer, clients, get, post } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };
const HOSTILE = ['=IMPORTXML("http://x")', '<script>alert(1)</script>', '+1-2', "'quoted", '@SUM(A1)'];

async function untilDecided(rt: Runtime, id: string): Promise<void> {
  await rt.runTriggers(() => statuses(rt)[id] === 'DECIDED', { maxClockMs: 3600_000 });
  expect(statuses(rt)[id]).toBe('DECIDED');
}

async function exported(rt: Runtime, tab: string): Promise<Record<string, any>[]> {
  return ok(await rt.run('exportTab', [tab])).rows;
}

describe('POST /tasks', () => {
  it('answers 202 with the task and discussion ids, and the same answer for a repeated key, acting once', async () => {
    const rt = await council();
    const t = await clients(rt);
    const body = { ...TRIGGER, idempotency_key: 'crm-42' };
    // Two at once (the runtime runs them as concurrent executions) and one after: one task.
    const [a, b] = await Promise.all([
      post(rt, '/tasks', t.coordinator, body),
      post(rt, '/tasks', t.coordinator, body),
    ]);
    const c = await post(rt, '/tasks', t.coordinator, { ...body, target_user_id: 'sato' });
    expect(a).toEqual({ status: 202, task_id: 'Q-1', discussion_id: 'DISC-2026-01-15-001' });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // The same key from another client is another client's request.
    const other = await post(rt, '/tasks', t.admin, body);
    expect(other).toEqual({ status: 202, task_id: 'Q-2', discussion_id: 'DISC-2026-01-15-002' });
    const queue = records(rt, 'queue');
    expect(queue.map((q) => [q.id, q.from, q.dedupe_key])).toEqual([
      ['Q-1', 'api:coordinator-client', 'api:coordinator-client:key:crm-42'],
      ['Q-2', 'api:admin-client', 'api:admin-client:key:crm-42'],
    ]);
    const enqueued = records(rt, 'audit').filter((r) => r.event === 'enqueue');
    expect(enqueued.map((r) => [r.actor, r.row_key, JSON.parse(String(r.payload_json)).call])).toEqual([
      ['api:coordinator-client', 'Q-1', 'POST /tasks'],
      ['api:admin-client', 'Q-2', 'POST /tasks'],
    ]);
    // The reserved ids are the ones the discussions open under, whatever order they run in.
    await untilDecided(rt, a.discussion_id);
    await untilDecided(rt, other.discussion_id);
    expect(Object.keys(statuses(rt)).sort()).toEqual([a.discussion_id, other.discussion_id]);
    expect(records(rt, 'discussions').find((d) => d.discussion_id === a.discussion_id)!.trigger_target_user).toBe(
      'tanaka',
    );
    // The log row's audit event names the client that asked.
    const opened = records(rt, 'audit')
      .filter((r) => r.event === 'log_row')
      .map((r) => [r.row_key, r.actor]);
    expect(opened.sort()).toEqual([
      [a.discussion_id, 'api:coordinator-client'],
      [other.discussion_id, 'api:admin-client'],
    ]);
    // A key is answered for good, also once its task is done.
    expect(await post(rt, '/tasks', t.coordinator, body)).toEqual(a);
    expect(records(rt, 'queue').length).toBe(2);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('does not take the discussion id of a discussion the sidebar opens meanwhile', async () => {
    const rt = await council();
    const t = await clients(rt);
    // The sidebar's start reserves its id when it is queued too (issue 12): the two never take the same one.
    const sidebar = ok(
      await rt.run('startDiscussion', [{ ...TRIGGER, target_user_id: 'sato', source: 'human' }], { kind: 'server' }),
    );
    expect(sidebar.discussion_id).toBe('DISC-2026-01-15-001');
    const api = await post(rt, '/tasks', t.admin, TRIGGER);
    expect(api.discussion_id).toBe('DISC-2026-01-15-002');
    await settle(rt);
    const ids = records(rt, 'discussions').map((d) => [d.discussion_id, d.trigger_target_user]);
    expect(ids.sort()).toEqual([
      ['DISC-2026-01-15-001', 'sato'],
      ['DISC-2026-01-15-002', 'tanaka'],
    ]);
  });
});

describe('GET /tasks/{id} and POST /tasks/{id}/result', () => {
  it('shows a queued task, then the decided discussion with its phases, decision and orders', async () => {
    const rt = await council();
    const t = await clients(rt);
    const a = await post(rt, '/tasks', t.coordinator, TRIGGER);
    for (const id of [a.task_id, a.discussion_id]) {
      const queued = await get(rt, `/tasks/${id}`, t.viewer);
      expect(queued).toMatchObject({
        status: 200,
        task_id: a.task_id,
        discussion_id: a.discussion_id,
        state: 'QUEUED',
        trigger: { type: 'kpi_decline', source: 'api', target_user_id: 'tanaka', context: { metric: 'contacts' } },
        decision: null,
        orders: [],
      });
      expect(queued.task).toMatchObject({ type: 'discussion.open', state: 'queued' });
      expect(queued.phases.map((p: Answer) => p.state)).toEqual(Array(6).fill('pending'));
    }
    await untilDecided(rt, a.discussion_id);
    const view = await get(rt, `/tasks/${a.task_id}`, t.worker);
    expect(view).toMatchObject({ status: 200, discussion_id: a.discussion_id, state: 'DECIDED', current_phase: null });
    expect(view.phases.map((p: Answer) => [p.phase, p.state])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 'done']));
    expect(view.phases[1].speakers.length).toBe(8);
    expect(view.phases[0]).toMatchObject({ speakers: ['analyst'], target_seconds: 5 });
    const order = messages(rt, a.discussion_id).find((m) => m.message_type === 'EXECUTION_ORDER')!.content;
    expect(view.decision).toEqual(order);
    expect(view.orders.map((o: Answer) => [o.order_id, o.status, o.target_agent])).toEqual(
      order.actions.map((_: unknown, i: number) => [`${order.decision_id}-A${i + 1}`, 'PENDING', 'buddy']),
    );
    expect(view.orders[0].review_date).toBe(order.monitoring.review_date);
    expect(view.execution_status).toBe('PENDING');
    expect(await get(rt, `/tasks/${a.discussion_id}`, t.viewer)).toEqual({ ...view, task_id: null, task: null });
  });

  it('moves the orders and column L on reports named by the client, keeping hostile text as text', async () => {
    const rt = await council();
    const t = await clients(rt);
    const a = await post(rt, '/tasks', t.coordinator, TRIGGER);
    await untilDecided(rt, a.discussion_id);
    const long = `${'長い報告 long report '.repeat(1100)}end`;
    const steps: [string, object, string][] = [
      [a.task_id, { status: 'ACKNOWLEDGED', report: HOSTILE.join('\n'), by: 'mallory' }, 'ACKNOWLEDGED'],
      [a.discussion_id, { status: 'in_progress', report: long }, 'IN_PROGRESS'],
      [a.task_id, { status: 'completed', result: { sent: 3, note: '=1+1' } }, 'DONE'],
    ];
    const reports = [HOSTILE.join('\n'), long, 'result: {"sent":3,"note":"=1+1"}'];
    for (const [id, body, to] of steps) {
      const r = await post(rt, `/tasks/${id}/result`, t.worker, body);
      expect(r).toMatchObject({ status: 200, success: true, discussion_id: a.discussion_id, execution_status: to });
      expect(records(rt, 'orders').every((o) => o.status === to)).toBe(true);
      // Column L of the Discussion Log follows the orders.
      expect(records(rt, 'discussions')[0].execution_status).toBe(to);
    }
    // Each report is kept exactly, as text, on the order and in an ACKNOWLEDGEMENT naming the client.
    const acks = messages(rt, a.discussion_id).filter((m) => m.message_type === 'ACKNOWLEDGEMENT');
    expect(acks.map((m) => m.content.status)).toEqual(['ORDER_ACKNOWLEDGED', 'ORDER_IN_PROGRESS', 'ORDER_DONE']);
    expect(acks.map((m) => m.content.note)).toEqual(reports);
    // Who reported, then each order's move (src/core/orders/order-report.ts).
    expect(acks.every((m) => String(m.metadata.note).startsWith('reported by api:worker-client; DEC-'))).toBe(true);
    expect((await exported(rt, 'orders')).map((o) => o.last_report)).toEqual(
      records(rt, 'orders').map(() => reports[2]),
    );
    const view = await get(rt, `/tasks/${a.task_id}`, t.viewer);
    expect(view.orders.every((o: Answer) => o.status === 'DONE' && o.last_report === reports[2])).toBe(true);
    expect(view.execution_status).toBe('DONE');
    // The audit names the client as the reporter (`api:NAME`, as for every client), never a name from the body.
    const events = records(rt, 'audit').filter((r) => r.event === 'order_report');
    expect(events.length).toBe(3 * records(rt, 'orders').length);
    expect(events.every((r) => r.actor === 'api:worker-client')).toBe(true);
    expect(JSON.stringify(records(rt, 'audit'))).not.toContain('mallory');
    // A report the order's status does not allow is a 409, and changes nothing.
    const late = await post(rt, `/tasks/${a.task_id}/result`, t.worker, { status: 'FAILED' });
    expect(late).toMatchObject({ status: 409, error: { code: 'illegal_order_transition' } });
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('stores a hostile trigger context exactly and returns it as sent', async () => {
    const rt = await council();
    const t = await clients(rt);
    // About 80 KB: over a cell, within the 100,000-byte body limit.
    const context = {
      metric: 'contacts',
      formula: HOSTILE[0],
      html: HOSTILE[1],
      list: HOSTILE,
      long: `${'営業の記録 sales log '.repeat(3000)}=END()`,
    };
    const a = await post(rt, '/tasks', t.admin, { ...TRIGGER, context });
    expect(a.status).toBe(202);
    expect((await get(rt, `/tasks/${a.task_id}`, t.viewer)).trigger.context).toEqual(context);
    await untilDecided(rt, a.discussion_id);
    expect((await get(rt, `/tasks/${a.discussion_id}`, t.viewer)).trigger.context).toEqual(context);
    const row = (await exported(rt, 'discussions'))[0];
    expect(JSON.parse(row.trigger_context_json).context).toEqual(context);
    // The cell holds the overflow pointer, a plain value: nothing was written as a formula.
    const sheet = rt.workbook.sheetByName('Discussion Log')!;
    const formulas = rt.workbook
      .getValues(sheet, 2, 1, 1, 14)
      .flat()
      .filter((v) => String(v).startsWith('='));
    expect(formulas).toEqual([]);
    // 100,000 characters is over the body limit: refused whole with 413, nothing queued.
    const huge = await post(rt, '/tasks', t.admin, { ...TRIGGER, context: { long: 'x'.repeat(100_000) } });
    expect(huge).toMatchObject({ status: 413, error: { code: 'payload_too_large' } });
    expect(records(rt, 'queue').length).toBe(1);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });
});

describe('POST /objections and POST /escalations/{id}', () => {
  it('files an objection as the client, and resolves an escalation as the client', async () => {
    const rt = await council();
    const t = await clients(rt);
    const risky = await post(rt, '/tasks', t.coordinator, {
      ...TRIGGER,
      context: { metric: 'contacts', request: '位置情報を監視して行動を把握したい' },
    });
    const calm = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, target_user_id: 'sato' });
    await settle(rt);
    expect(statuses(rt)).toEqual({ [risky.discussion_id]: 'ESCALATED', [calm.discussion_id]: 'DECIDED' });
    const objection = await post(rt, '/objections', t.coordinator, {
      discussion_id: calm.discussion_id,
      reason: HOSTILE[0],
      alternative: 'PRAISE_INCREASE と ONE_ON_ONE に切り替える',
      urgency: 'HIGH',
    });
    expect(objection).toMatchObject({ status: 202, discussion_id: calm.discussion_id });
    // An edited order is checked at the door, field by field, as the sidebar checks it: nothing is queued.
    const bad = await post(rt, `/escalations/${risky.discussion_id}`, t.admin, {
      action: 'approve',
      order: { target_agents: ['buddy'], actions: [{ action_type: 'SALARY_CUT' }], monitoring: {} },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.error)).toMatch(
      /actions\.0\.action_type: action type SALARY_CUT is not in the allow-list/,
    );
    expect(records(rt, 'queue').some((q) => q.type === 'escalation.resolve')).toBe(false);
    const back = await post(rt, `/escalations/${risky.discussion_id}`, t.admin, {
      action: 'return',
      guidance: '監視はしない。ONE_ON_ONE を中心に',
    });
    expect(back).toMatchObject({ status: 202, discussion_id: risky.discussion_id });
    await settle(rt);
    expect(statuses(rt)[risky.discussion_id]).toBe('DECIDED');
    const filed = records(rt, 'objections')[0];
    expect(filed).toMatchObject({ source: 'api', objector: 'api:coordinator-client', reason: HOSTILE[0] });
    const human = messages(rt, risky.discussion_id).find((m) => m.speaker === 'human')!;
    expect(human.content).toMatchObject({ status: 'RETURNED_TO_PHASE_5' });
    // The engine's own work (advancing, the escalation's timer) aside, the queue holds what the client asked.
    const queued = records(rt, 'queue').filter((q) => q.type !== 'discussion.advance' && q.from !== 'kaigi');
    expect(queued.map((q) => [q.type, q.from])).toEqual([
      ['objection.process', 'api:coordinator-client'],
      ['escalation.resolve', 'api:admin-client'],
    ]);
    expect(JSON.parse(String(queued[1].payload_json)).by).toBe('api:admin-client');
    const calls = records(rt, 'audit')
      .filter((r) => r.event === 'enqueue')
      .map((r) => [r.actor, JSON.parse(String(r.payload_json)).call]);
    // The clients' own requests; the engine's follow-ups (its timers, re-deliberation) are enqueued by `kaigi`.
    expect(calls.filter(([actor]) => String(actor).startsWith('api:')).slice(-2)).toEqual([
      ['api:coordinator-client', 'POST /objections'],
      ['api:admin-client', 'POST /escalations/{id}'],
    ]);
    // Resolved once: it is no longer ESCALATED.
    const again = await post(rt, `/escalations/${risky.discussion_id}`, t.admin, { action: 'reject' });
    expect(again).toMatchObject({ status: 409, error: { code: 'not_escalated' } });
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });
});
