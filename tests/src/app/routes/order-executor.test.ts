// An order naming an API client as its executor is that client's to report (or a coordinator's): another worker's
// report is 403 and changes nothing; the same status reported again is 200 with no new message.
import { expect, it } from 'vitest';
import { council, messages, ok, settle, start, statuses, surveillance } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, post } from './api-helpers.js';

it('lets only the order’s executor (or a coordinator) report on it, and a repeated status writes nothing', async () => {
  const rt = await council();
  const t = await clients(rt);
  const executor = (await rt.callServer('createApiClient', { name: 'crm-bot', role: 'worker' })) as { token: string };
  await start(rt, surveillance('tanaka'));
  await settle(rt);
  const [id] = Object.keys(statuses(rt));
  const order = {
    target_agents: ['crm-bot'],
    actions: [
      {
        action_type: 'ONE_ON_ONE',
        target: 'tanaka',
        description: '週1回の1on1で状況を聞く',
        intensity: 'low',
        timing: '金曜 16:00',
        duration_days: 14,
      },
    ],
    monitoring: {
      metrics: ['contacts'],
      review_date: '2026-01-29',
      success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
    },
  };
  ok(await rt.run('resolveEscalation', [{ discussion_id: id, action: 'approve', order }], { kind: 'server' }));
  await settle(rt);
  const [row] = records(rt, 'orders').filter((o) => o.discussion_id === id);
  expect(row.target_agent).toBe('crm-bot');
  const path = `/orders/${row.order_id}/report`;
  const acks = () => messages(rt, id).filter((m) => m.message_type === 'ACKNOWLEDGEMENT').length;
  const before = acks();
  // Another worker: refused, naming the rule; nothing moves.
  const other = await post(rt, path, t.worker, { status: 'IN_PROGRESS', report: 'not mine' });
  expect(other).toMatchObject({ status: 403, error: { code: 'not_executor' } });
  expect(other.error.message).toMatch(/a worker reports only on its own orders/);
  expect(records(rt, 'orders').find((o) => o.order_id === row.order_id)!.status).toBe('PENDING');
  expect(acks()).toBe(before);
  // Its executor: moved, one message.
  expect(await post(rt, path, executor.token, { status: 'IN_PROGRESS', report: 'started' })).toMatchObject({
    success: true,
  });
  expect(acks()).toBe(before + 1);
  // The same status again: answered as it stands, no new message, however often.
  for (let i = 0; i < 3; i++) {
    const again = await post(rt, path, executor.token, { status: 'IN_PROGRESS', report: 'still going' });
    expect(again).toMatchObject({ success: true, orders: [], message_id: '' });
  }
  expect(acks()).toBe(before + 1);
  // A coordinator may report on any order.
  expect(await post(rt, path, t.coordinator, { status: 'DONE', report: 'closed by the lead' })).toMatchObject({
    success: true,
  });
  expect(records(rt, 'orders').find((o) => o.order_id === row.order_id)!.status).toBe('DONE');
});
