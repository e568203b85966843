// Issue 23's Must show 2 over `kaigi serve`: an outside executor lists its pending orders with a worker token,
// reports one DONE straight from PENDING while the other order of the same discussion stays PENDING, after which an
// objection to the discussion is 409; then `kaigi report --order` and `kaigi object` on the same workbook.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClients, exportTabs } from './saved-workbook.js';
import { kaigi, type Served, serve } from './serve-process.js';

let dir: string;
let book: string;
let served: Served | null = null;
let exec: string;
let discussion = '';
const tokens: Record<string, string> = {};

// Tabs read in this process, several at one opening of the file, as `kaigi export` prints them (tests/cli/kaigi.test.ts
// runs that command): a `kaigi` process per read costs seconds.
const tabs = (...names: string[]) => exportTabs(book, names);

async function post(route: string, token: string, body: object): Promise<any> {
  const res = await fetch(`${exec}?path=${encodeURIComponent(route)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, ...body }),
  });
  return res.json();
}

async function get(route: string, token: string, query: Record<string, string>): Promise<any> {
  return (await fetch(`${exec}?${new URLSearchParams({ path: route, ...query, token })}`)).json();
}

const action = (action_type: string, description: string) => ({
  action_type,
  target: 'tanaka',
  description,
  intensity: 'low',
  timing: '金曜 16:00',
  duration_days: 14,
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-serve-orders-'));
  book = path.join(dir, 'orders.xlsx');
  // A request the governance agents refuse escalates; a person approves it with an order of two actions.
  const trigger = path.join(dir, 'trigger.json');
  fs.writeFileSync(
    trigger,
    JSON.stringify({
      type: 'manual',
      source: 'human',
      target_user_id: 'tanaka',
      context: { request: '位置情報を監視したい' },
      priority: 'HIGH',
    }),
  );
  const run = kaigi(['run', '--demo', '--trigger', trigger, '--workbook', book, '--json']);
  expect(run.status, run.stderr).toBe(1);
  discussion = JSON.parse(run.stdout).discussion_id;
  const order = path.join(dir, 'order.json');
  const review = new Date(Date.now() + 14 * 86400_000).toISOString().slice(0, 10);
  fs.writeFileSync(
    order,
    JSON.stringify({
      target_agents: ['buddy'],
      actions: [action('ONE_ON_ONE', '週1回の1on1で状況を聞く'), action('PRAISE_INCREASE', '具体的な行動を当日ほめる')],
      monitoring: {
        metrics: ['contacts'],
        review_date: review,
        success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
      },
    }),
  );
  const approved = kaigi([
    'resolve',
    '--workbook',
    book,
    '--discussion',
    discussion,
    '--action',
    'approve',
    '--order',
    order,
  ]);
  expect(approved.status, approved.stderr).toBe(0);
  expect((await tabs('Orders')).Orders.map((o: { status: string }) => o.status)).toEqual(['PENDING', 'PENDING']);
  // Made as `kaigi token create` makes them (tests/cli/token.test.ts runs that command), in one opening of the file.
  [tokens.worker, tokens.coordinator] = await apiClients(book, [
    { name: 'buddy-bot', role: 'worker' },
    { name: 'lead', role: 'coordinator' },
  ]);
  served = await serve(book, '--after-max-ms', '2000');
  exec = `${served.url}/exec`;
}, 240_000);

afterAll(async () => {
  if (served) await served.stop('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('an outside executor over kaigi serve', () => {
  it('lists pending orders, reports one DONE from PENDING while the other stays PENDING, then an objection is 409', async () => {
    const pending = await get('/orders', tokens.worker, { status: 'PENDING', target: 'buddy' });
    expect(pending.status).toBe(200);
    const [a1, a2] = pending.orders.map((o: { order_id: string }) => o.order_id);
    expect(pending.orders.map((o: any) => [o.discussion_id, o.member, o.action_type, o.status])).toEqual([
      [discussion, 'tanaka', 'ONE_ON_ONE', 'PENDING'],
      [discussion, 'tanaka', 'PRAISE_INCREASE', 'PENDING'],
    ]);
    expect(pending.orders[0].review_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const done = await post(`/orders/${a1}/report`, tokens.worker, { status: 'DONE', report: '1on1 held on Friday' });
    expect(done).toMatchObject({
      status: 200,
      orders: [{ order_id: a1, from: 'PENDING', to: 'DONE', implied: ['ACKNOWLEDGED', 'IN_PROGRESS'] }],
      execution_status: 'IN_PROGRESS',
    });
    const after = await get('/orders', tokens.worker, { status: 'PENDING' });
    expect(after.orders.map((o: { order_id: string }) => o.order_id)).toEqual([a2]);
    const objection = await post('/objections', tokens.coordinator, {
      discussion_id: discussion,
      reason: 'raises overtime risk',
      urgency: 'HIGH',
    });
    expect([objection.status, objection.error.code]).toEqual([409, 'order_in_execution']);
    expect(objection.error.message).toContain(`its order ${a1} is DONE`);
  });
});

describe('kaigi report --order and kaigi object on the same workbook', () => {
  it('reports the other order by its id, refuses a step back, and refuses an objection', async () => {
    await served!.stop('SIGTERM');
    served = null;
    const [, a2] = (await tabs('Orders')).Orders.map((o: { order_id: string }) => o.order_id);
    const r = kaigi(['report', '--workbook', book, '--order', a2, '--status', 'IN_PROGRESS', '--report', 'set up']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      orders: [{ order_id: a2, from: 'PENDING', to: 'IN_PROGRESS', implied: ['ACKNOWLEDGED'] }],
    });
    const back = kaigi(['report', '--workbook', book, '--order', a2, '--status', 'ACKNOWLEDGED']);
    expect([back.status, back.stderr.trim()]).toEqual([
      2,
      `kaigi: --order ${a2} is IN_PROGRESS and cannot become ACKNOWLEDGED (it can be reported IN_PROGRESS, DONE, FAILED)`,
    ]);
    const objected = kaigi(['object', '--workbook', book, '--discussion', discussion, '--reason', 'too late']);
    expect(objected.status).toBe(2);
    expect(objected.stderr.trim()).toMatch(new RegExp(`^kaigi: ${discussion} takes no objection: its order `));
    // The refused step back and the refused objection changed nothing.
    const after = await tabs('Orders', 'Discussion Log', 'Objections');
    expect(after.Orders.map((o: { status: string }) => o.status)).toEqual(['DONE', 'IN_PROGRESS']);
    expect(after['Discussion Log'][0].execution_status).toBe('IN_PROGRESS');
    expect(after.Objections).toEqual([]);
  });
});
