// The sidebar's per-order report: each open order of a discussion has its own form, sent by the order's id to the
// reportOrder server function; a final order has none, and a refused report shows the server's reason.
import { describe, expect, it } from 'vitest';
import { namedControls, openPage, render } from '../page-dom.js';

const ID = 'DISC-2026-01-15-001';
const list = {
  tabs: [],
  agents: [],
  busy: false,
  inbox_unread: 0,
  discussions: [{ id: ID, status: 'DECIDED', priority: 'HIGH', target: 'tanaka', createdAt: '' }],
};
const view = (orders: object[]) => ({
  discussion_id: ID,
  status: 'DECIDED',
  trigger: { type: 'kpi_decline', source: 'human', target_user_id: 'tanaka' },
  busy: false,
  phases: [],
  messages: [],
  decision: null,
  summary: null,
  orders,
  estimate: null,
  spent: { tokens: 0, cost_usd: 0, by_phase: '' },
});
const order = (n: number, status: string) => ({
  order_id: `DEC-2026-01-15-001-A${n}`,
  action_type: 'ONE_ON_ONE',
  status,
  last_report: '',
  updated_at: '',
});

describe('the sidebar, per order', () => {
  it('reports one open order by its id, any step forward, and offers no form for a final one', async () => {
    const page = openPage(await render('sidebar', 'en'));
    page.calls.shift()!.ok({ stamp: 's1', changed: true, list });
    (
      page
        .byId('discussion-list')!
        .all()
        .find((e) => e.tagName === 'button')!.onclick as () => void
    )();
    // The sidebar's poll reads the list and the opened discussion in one call.
    page.calls.shift()!.ok({ stamp: 's2', changed: true, list, view: view([order(1, 'PENDING'), order(2, 'DONE')]) });
    const status = page.byId('report-status-DEC-2026-01-15-001-A1')!;
    expect(status.children.map((o) => o.value)).toEqual(['ACKNOWLEDGED', 'IN_PROGRESS', 'DONE', 'FAILED']);
    expect(page.byId('report-send-DEC-2026-01-15-001-A2')).toBeUndefined();
    status.value = 'DONE';
    page.byId('report-text-DEC-2026-01-15-001-A1')!.value = '=held the 1on1';
    (page.byId('report-send-DEC-2026-01-15-001-A1')!.onclick as () => void)();
    const sent = page.calls.find((c) => c.fn === 'reportOrder')!;
    expect(sent.args).toEqual([{ order_id: 'DEC-2026-01-15-001-A1', status: 'DONE', report: '=held the 1on1' }]);
    sent.fail(new Error('ConflictError: order DEC-2026-01-15-001-A1 is CANCELLED and cannot become DONE'));
    expect(page.byId('report-result-DEC-2026-01-15-001-A1')!.textContent).toBe(
      'order DEC-2026-01-15-001-A1 is CANCELLED and cannot become DONE',
    );
    for (const c of namedControls(page)) expect(c.name, `${c.tag}#${c.id}`).not.toBe('');
  });
});
