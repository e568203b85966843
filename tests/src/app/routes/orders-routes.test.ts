// An outside executor's routes through the built file: GET /orders lists orders oldest first a page at a time,
// POST /orders/{order_id}/report moves one order any step forward (the skipped ones implied), a step back or a
// report on a cancelled order is 409 naming its status, and an objection after execution began is 409
// order_in_execution; the same through MCP list_orders and report_order.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, decline, messages, ok, settle, start, statuses, surveillance } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { type Answer, clients, get, post, type RoleName } from './api-helpers.js';
import { prepared } from '../prepared.js';

type Tokens = Record<RoleName, string>;

const action = (action_type: string, description: string) => ({
  action_type,
  target: 'tanaka',
  description,
  intensity: 'low',
  timing: '金曜 16:00',
  duration_days: 14,
});

// A discussion a person approved with an order of two actions (tanaka), then one the rules decided (sato), and a
// client of each role: made once for the file and restored for each test.
async function twoDiscussions(): Promise<{ rt: Runtime; tanaka: string; sato: string; t: Tokens }> {
  const { rt, value } = await prepared('two discussions', async () => {
    const rt = await council();
    const made = await decideTwo(rt);
    return { rt, value: { ...made, t: await clients(rt) } };
  });
  return { rt, ...value };
}

async function decideTwo(rt: Runtime): Promise<{ tanaka: string; sato: string }> {
  await start(rt, surveillance('tanaka'));
  await settle(rt);
  const [tanaka] = Object.keys(statuses(rt));
  expect(statuses(rt)[tanaka]).toBe('ESCALATED');
  const order = {
    target_agents: ['buddy'],
    actions: [action('ONE_ON_ONE', '週1回の1on1で状況を聞く'), action('PRAISE_INCREASE', '具体的な行動を当日ほめる')],
    monitoring: {
      metrics: ['contacts'],
      review_date: '2026-01-29',
      success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
    },
  };
  ok(await rt.run('resolveEscalation', [{ discussion_id: tanaka, action: 'approve', order }], { kind: 'server' }));
  await settle(rt);
  await start(rt, decline('sato'));
  await settle(rt);
  const sato = Object.keys(statuses(rt)).find((id) => id !== tanaka)!;
  expect([statuses(rt)[tanaka], statuses(rt)[sato]]).toEqual(['DECIDED', 'DECIDED']);
  return { tanaka, sato };
}

const ids = (a: Answer) => a.orders.map((o: { order_id: string }) => o.order_id);
const orderStatus = (rt: Runtime) => Object.fromEntries(records(rt, 'orders').map((o) => [o.order_id, o.status]));
const columnL = (rt: Runtime, id: string) =>
  records(rt, 'discussions').find((r) => r.discussion_id === id)!.execution_status;

describe('GET /orders and POST /orders/{order_id}/report', () => {
  it('lists pending orders oldest first by page, reports one DONE from PENDING, and then refuses an objection', async () => {
    const { rt, tanaka, sato, t } = await twoDiscussions();
    const [a1, a2] = ['DEC-2026-01-15-001-A1', 'DEC-2026-01-15-001-A2'];
    // Sato's first order: the vote's actions (up to three with memory on), after tanaka's two.
    const sIds = records(rt, 'orders')
      .filter((o) => o.discussion_id === sato)
      .map((o) => o.order_id as string);
    expect(sIds.length).toBeGreaterThan(1);
    expect((await get(rt, '/orders', t.viewer, { status: 'PENDING' })).status).toBe(403);
    const all = await get(rt, '/orders', t.worker, { status: 'PENDING' });
    expect(all).toMatchObject({ status: 200, total: 2 + sIds.length, offset: 0, limit: 50, next_offset: null });
    expect(ids(all)).toEqual([a1, a2, ...sIds]);
    expect(all.orders[0]).toMatchObject({
      order_id: a1,
      discussion_id: tanaka,
      member: 'tanaka',
      target: 'buddy',
      action_type: 'ONE_ON_ONE',
      action: { action_type: 'ONE_ON_ONE', description: '週1回の1on1で状況を聞く' },
      review_date: '2026-01-29',
      status: 'PENDING',
    });
    // Pages of two: next_offset says where the next starts, null on the last.
    const p1 = await get(rt, '/orders', t.worker, { status: 'PENDING', limit: '2' });
    expect([ids(p1), p1.next_offset, p1.total]).toEqual([[a1, a2], 2, 2 + sIds.length]);
    const p2 = await get(rt, '/orders', t.worker, { status: 'PENDING', limit: '2', offset: '2' });
    expect([ids(p2), p2.next_offset]).toEqual([sIds.slice(0, 2), sIds.length > 2 ? 4 : null]);
    expect(ids(await get(rt, '/orders', t.worker, { member: 'sato' }))).toEqual(sIds);
    expect(ids(await get(rt, '/orders', t.worker, { target: 'buddy', member: 'tanaka' }))).toEqual([a1, a2]);
    expect(ids(await get(rt, '/orders', t.worker, { target: 'someone_else' }))).toEqual([]);
    const bad = await get(rt, '/orders', t.worker, { status: 'WAITING' });
    expect([bad.status, bad.error.code]).toEqual([400, 'invalid_input']);
    expect(JSON.stringify(bad.error.details)).toContain('status');

    // DONE straight from PENDING: the skipped stages are implied; the other order stays PENDING.
    const done = await post(rt, `/orders/${a1}/report`, t.worker, { status: 'DONE', report: '1on1 held' });
    expect(done).toMatchObject({
      status: 200,
      discussion_id: tanaka,
      orders: [{ order_id: a1, from: 'PENDING', to: 'DONE', implied: ['ACKNOWLEDGED', 'IN_PROGRESS'] }],
      execution_status: 'IN_PROGRESS',
    });
    expect([orderStatus(rt)[a1], orderStatus(rt)[a2], columnL(rt, tanaka)]).toEqual(['DONE', 'PENDING', 'IN_PROGRESS']);
    const ack = messages(rt, tanaka).find((m) => m.message_id === done.message_id)!;
    expect([ack.message_type, ack.content.status, ack.content.note]).toEqual([
      'ACKNOWLEDGEMENT',
      'ORDER_DONE',
      '1on1 held',
    ]);
    expect(ack.metadata.note).toBe(
      `reported by api:worker-client; ${a1} PENDING → DONE (ACKNOWLEDGED, IN_PROGRESS implied)`,
    );
    const event = records(rt, 'audit').find((a) => a.event === 'order_report')!;
    expect([event.actor, event.row_key, JSON.parse(String(event.payload_json)).implied]).toEqual([
      'api:worker-client',
      a1,
      ['ACKNOWLEDGED', 'IN_PROGRESS'],
    ]);
    const pending = await get(rt, '/orders', t.worker, { status: 'PENDING' });
    expect(ids(pending)).toEqual([a2, ...sIds]);

    // A step back is 409 naming the order's status; the caller cannot name who reported.
    const back = await post(rt, `/orders/${a1}/report`, t.worker, { status: 'ACKNOWLEDGED' });
    expect([back.status, back.error.code]).toEqual([409, 'illegal_order_transition']);
    expect(back.error.message).toBe(`order ${a1} is DONE and cannot become ACKNOWLEDGED (DONE is final)`);
    expect((await post(rt, `/orders/${a2}/report`, t.worker, { status: 'IN_PROGRESS' })).status).toBe(200);
    const back2 = await post(rt, `/orders/${a2}/report`, t.worker, { status: 'ACKNOWLEDGED' });
    expect([back2.status, back2.error.message]).toEqual([
      409,
      `order ${a2} is IN_PROGRESS and cannot become ACKNOWLEDGED (it can be reported IN_PROGRESS, DONE, FAILED)`,
    ]);
    const named = await post(rt, `/orders/${a2}/report`, t.worker, { status: 'DONE', by: 'someone' });
    expect([named.status, named.error.code]).toEqual([400, 'invalid_input']);
    const missing = await post(rt, '/orders/DEC-2026-01-15-099-A1/report', t.worker, { status: 'DONE' });
    expect([missing.status, missing.error.code]).toEqual([404, 'order_not_found']);
    expect((await post(rt, `/orders/${a2}/report`, t.viewer, { status: 'DONE' })).status).toBe(403);
    expect(orderStatus(rt)[a2]).toBe('IN_PROGRESS');

    // Execution began: an objection is refused at the door, and nothing is queued or written.
    const queued = records(rt, 'queue').length;
    const objection = await post(rt, '/objections', t.coordinator, {
      discussion_id: tanaka,
      reason: 'too late',
      urgency: 'HIGH',
    });
    expect([objection.status, objection.error.code]).toEqual([409, 'order_in_execution']);
    expect(objection.error.message).toBe(
      `${tanaka} takes no objection: its order ${a1} is DONE (objections apply before execution)`,
    );
    expect([records(rt, 'queue').length, records(rt, 'objections').length]).toEqual([queued, 0]);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  }, 120_000);

  it('takes an objection while the orders are only acknowledged, cancels them, and refuses reports on them', async () => {
    const { rt, sato, t } = await twoDiscussions();
    const held = records(rt, 'orders').filter((o) => o.discussion_id === sato);
    const [old] = held;
    expect((await post(rt, `/orders/${old.order_id}/report`, t.worker, { status: 'ACKNOWLEDGED' })).status).toBe(200);
    const types = held.map((o) => JSON.parse(String(o.action_json)).action_type);
    const objection = await post(rt, '/objections', t.coordinator, {
      discussion_id: sato,
      reason: '面談の前に本人の負担を確認すべき',
      // An action the order does not hold yet, so the revised vote changes it.
      alternative: ['REST_RECOMMENDATION', 'SKILL_TRAINING', 'PEER_SUPPORT'].find((a) => types.indexOf(a) < 0),
      urgency: 'HIGH',
    });
    expect(objection.status).toBe(202);
    await settle(rt);
    const revised = records(rt, 'orders').filter((o) => o.discussion_id === sato && o.decision_id !== old.decision_id);
    expect(revised.length).toBeGreaterThan(0);
    expect(orderStatus(rt)[old.order_id as string]).toBe('CANCELLED');
    expect(revised.map((o) => o.status)).toEqual(revised.map(() => 'PENDING'));
    const cancelled = await post(rt, `/orders/${old.order_id}/report`, t.worker, { status: 'DONE' });
    expect([cancelled.status, cancelled.error.message]).toEqual([
      409,
      `order ${old.order_id} is CANCELLED and cannot become DONE (CANCELLED is final)`,
    ]);
    // The cancelled order is listed as such; the pending list has the revised ones.
    const listed = await get(rt, '/orders', t.worker, { status: 'CANCELLED', member: 'sato' });
    expect(ids(listed)).toEqual(
      records(rt, 'orders')
        .filter((o) => o.decision_id === old.decision_id)
        .map((o) => o.order_id),
    );
    expect(ids(await get(rt, '/orders', t.worker, { status: 'PENDING', member: 'sato' }))).toEqual(
      revised.map((o) => o.order_id),
    );
  }, 120_000);

  it('serves the same operations as MCP tools list_orders and report_order', async () => {
    const { rt, tanaka, t } = await twoDiscussions();
    const rpc = async (tok: string, id: number, name: string, args: object) => {
      const reply = await rt.doPost(
        { path: '/mcp' },
        JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args }, token: tok }),
      );
      return JSON.parse(reply.body).result;
    };
    const listed = await rpc(t.worker, 1, 'list_orders', { status: 'PENDING', member: 'tanaka', limit: 1 });
    expect(listed.isError).toBeUndefined();
    expect([ids(listed.structuredContent), listed.structuredContent.next_offset]).toEqual([
      ['DEC-2026-01-15-001-A1'],
      1,
    ]);
    const reported = await rpc(t.worker, 2, 'report_order', { order_id: 'DEC-2026-01-15-001-A2', status: 'DONE' });
    expect(reported.structuredContent).toMatchObject({
      discussion_id: tanaka,
      orders: [{ order_id: 'DEC-2026-01-15-001-A2', from: 'PENDING', to: 'DONE' }],
    });
    const again = await rpc(t.worker, 3, 'report_order', { order_id: 'DEC-2026-01-15-001-A2', status: 'FAILED' });
    expect(again.isError).toBe(true);
    expect(again.structuredContent.error.code).toBe('illegal_order_transition');
    expect((await rpc(t.viewer, 4, 'list_orders', {})).isError).toBe(true);
  }, 120_000);
});
