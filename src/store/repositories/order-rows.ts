// The Orders tab's rows by order id or by the decision that gave them, read by the rule in committed-rows.ts.
import type { Store } from '../store.js';
import { committedRows } from './committed-rows.js';

export class OrderRows {
  constructor(private readonly store: Store) {}

  // The row of an order by its id (the tab's first column, every row the sheet holds), or null.
  rowOf(orderId: string): number | null {
    return this.store.findRow('orders', orderId);
  }

  // A decision's orders' rows, in the tab's order: one search, one read of the block they lie in. A decision's
  // orders are committed with its log row, so a caller that has just read that row finds them (committed-rows.ts).
  ofDecision(decisionId: string): unknown[][] {
    const rows = committedRows(this.store, 'orders', 'decision_id', decisionId);
    if (!rows.length) return [];
    const first = Math.min(...rows);
    const block = this.store.readRows('orders', first, Math.max(...rows) - first + 1);
    return rows.map((r) => block[r - first]);
  }
}
