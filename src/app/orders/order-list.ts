// The orders an executor pulls (GET /orders, MCP list_orders): filtered by status, executor and member, oldest first,
// a page at a time by offset.
import { rowsOf } from '../../../sheets-schema/index.js';
import { dayCell, isDate } from '../../store/records.js';
import type { OrderStatus } from '../../core/orders/order-status.js';
import type { Council } from '../sheet-council.js';

const orderCols = rowsOf('orders');
const logCols = rowsOf('discussions');
const MEMBER = logCols.index('trigger_target_user');

export interface OrderQuery {
  status?: OrderStatus;
  target?: string;
  member?: string;
  limit: number;
  offset: number;
}

export interface ListedOrder {
  order_id: string;
  decision_id: string;
  discussion_id: string;
  member: string;
  target: string;
  action_type: string;
  action: unknown;
  review_date: string;
  status: string;
  updated_at: string;
  last_report: string;
}

function parsed(v: unknown): unknown {
  try {
    return JSON.parse(String(v));
  } catch {
    return String(v ?? '');
  }
}

// Each discussion's member, from the Discussion Log's first columns only (the messages cell may be large).
function members(council: Council): Record<string, string> {
  const s = council.store.sheet('discussions');
  const last = s.getLastRow();
  const out: Record<string, string> = {};
  if (last < 2) return out;
  for (const r of s.getRange(2, 1, last - 1, MEMBER + 1).getValues()) out[String(r[0])] = String(r[MEMBER] ?? '');
  return out;
}

// Rows in the Orders tab's order are decision order: a decision's orders are appended by the commit that makes it,
// so the tab's order is oldest first. `total` counts every match; `next_offset` is null on the last page.
export function listOrders(
  council: Council,
  q: OrderQuery,
): { orders: ListedOrder[]; total: number; offset: number; limit: number; next_offset: number | null } {
  const rows = council.store.readWhole('orders').filter((r) => String(r[0] ?? '') !== '');
  const who = members(council);
  const matches: unknown[][] = [];
  for (const r of rows) {
    const o = orderCols.read(r);
    if (q.status && o.status !== q.status) continue;
    if (q.target && o.target_agent !== q.target) continue;
    if (q.member && who[String(o.discussion_id)] !== q.member) continue;
    matches.push(r);
  }
  const page = council.store.resolveOverflow(matches.slice(q.offset, q.offset + q.limit));
  const orders = page.map((r) => {
    const o = orderCols.read(r);
    const action = parsed(o.action_json);
    return {
      order_id: String(o.order_id),
      decision_id: String(o.decision_id),
      discussion_id: String(o.discussion_id),
      member: who[String(o.discussion_id)] ?? '',
      target: String(o.target_agent),
      action_type: String((action as { action_type?: unknown })?.action_type ?? ''),
      action,
      review_date: dayCell(o.review_date),
      status: String(o.status),
      updated_at: isDate(o.updated_at) ? o.updated_at.toISOString() : String(o.updated_at ?? ''),
      last_report: String(o.last_report ?? ''),
    };
  });
  const end = q.offset + orders.length;
  return {
    orders,
    total: matches.length,
    offset: q.offset,
    limit: q.limit,
    next_offset: end < matches.length ? end : null,
  };
}
