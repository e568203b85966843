// Reports on orders in-process: column L follows the orders, a failure is final, and every report is audited.
import { describe, expect, it } from 'vitest';
import { Store } from '../../../../src/store/store.js';
import { verifyAudit } from '../../../../src/app/audit/audit.js';
import { reportOrder } from '../../../../src/app/orders/orders.js';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { IllegalOrderTransitionError } from '../../../../src/core/orders/order-status.js';
import { decline, type Kaigi, kaigi, settle, statuses, ZONE } from '../inproc.js';

function decided(): { k: Kaigi; id: string } {
  const k = kaigi();
  const { discussion_id: id } = startDiscussion(decline('tanaka'), k.council());
  settle(k);
  expect(statuses(k)[id]).toBe('DECIDED');
  return { k, id };
}

const columnL = (k: Kaigi, id: string) =>
  k.records('discussions').find((r) => r.discussion_id === id)!.execution_status;

describe('reportOrder in-process', () => {
  it('fails an order at once, after which it takes no other report', () => {
    const { k, id } = decided();
    expect(columnL(k, id)).toBe('PENDING');
    const r = reportOrder(k.council(), { discussion_id: id, status: 'FAILED', report: 'member on leave' }, 'lead@x');
    expect(r.execution_status).toBe('FAILED');
    expect(columnL(k, id)).toBe('FAILED');
    // Tanaka's first order holds three actions (filled by the vote with memory on): each row takes the report.
    const rows = k.records('orders');
    expect(rows.length).toBe(3);
    expect(rows.map((o) => [o.status, o.last_report])).toEqual(rows.map(() => ['FAILED', 'member on leave']));
    expect(() => reportOrder(k.council(), { discussion_id: id, status: 'ACKNOWLEDGED' }, 'lead@x')).toThrow(
      IllegalOrderTransitionError,
    );
    const event = k.records('audit').find((a) => a.event === 'order_report')!;
    expect(event.actor).toBe('lead@x');
    expect(verifyAudit(new Store(k.ports.spreadsheet, ZONE)).ok).toBe(true);
  });

  it('moves an order through its states and writes an acknowledgement into the transcript', () => {
    const { k, id } = decided();
    const before = k.records('messages').length;
    reportOrder(k.council(), { discussion_id: id, status: 'ACKNOWLEDGED' }, 'lead@x');
    reportOrder(k.council(), { discussion_id: id, status: 'IN_PROGRESS' }, 'lead@x');
    expect(columnL(k, id)).toBe('IN_PROGRESS');
    reportOrder(k.council(), { discussion_id: id, status: 'DONE', report: 'held the 1on1' }, 'lead@x');
    expect(columnL(k, id)).toBe('DONE');
    expect(k.records('messages').length).toBeGreaterThan(before);
    // One audited report per order row (three actions) for each of the three reports.
    expect(k.records('orders').length).toBe(3);
    expect(k.records('audit').filter((a) => a.event === 'order_report')).toHaveLength(9);
  });
});
