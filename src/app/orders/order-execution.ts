// Objections apply before execution: a discussion with an order being carried out, or
// carried out, takes none. Checked at every door (API, sidebar, CLI) and again by the objection task under the lock.
import { rowsOf } from '../../../sheets-schema/index.js';
import { ConflictError } from '../../core/errors.js';
import { isInExecution } from '../../core/orders/order-status.js';
import type { Council } from '../sheet-council.js';

const orderCols = rowsOf('orders');
const DISCUSSION = orderCols.index('discussion_id') + 1;

// The discussion's first order that is IN_PROGRESS or DONE, or null (one search of the Orders tab's discussion
// column, then one read of each row it finds).
export function orderInExecution(council: Council, discussionId: string): { order_id: string; status: string } | null {
  const s = council.store.sheet('orders');
  const rows = s
    .getRange(1, DISCUSSION, s.getMaxRows(), 1)
    .createTextFinder(discussionId)
    .matchEntireCell(true)
    .matchCase(true)
    .findAll()
    .map((r) => r.getRow());
  for (const row of rows) {
    const o = orderCols.read(council.store.readRows('orders', row, 1)[0]);
    if (o.discussion_id === discussionId && isInExecution(String(o.status)))
      return { order_id: String(o.order_id), status: String(o.status) };
  }
  return null;
}

export function inExecutionText(discussionId: string, o: { order_id: string; status: string }): string {
  return `${discussionId} takes no objection: its order ${o.order_id} is ${o.status} (objections apply before execution)`;
}

// 409 order_in_execution naming the order and its status; nothing is queued or written.
export function refuseIfInExecution(council: Council, discussionId: string): void {
  const o = orderInExecution(council, discussionId);
  if (o) throw new ConflictError(inExecutionText(discussionId, o), 'order_in_execution');
}
