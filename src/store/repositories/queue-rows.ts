// The Queue tab's tasks by id, by dedupe key, and the reservation that names one, read by the rule in committed-rows.ts.
import { rowsOf } from '../../../sheets-schema/index.js';
import type { QueueItem } from '../../core/queue.js';
import { queueItem } from '../records.js';
import type { Store } from '../store.js';
import { committedLast, committedRows } from './committed-rows.js';

export class QueueRows {
  constructor(private readonly store: Store) {}

  // The task on a row, its long values resolved.
  at(row: number): QueueItem {
    const raw = this.store.readRows('queue', row, 1)[0];
    return queueItem(this.store.resolveOverflow([raw])[0], row);
  }

  // The last committed row (1: no task yet).
  last(): number {
    return committedLast(this.store, 'queue');
  }

  // The rows holding exactly `value` in a column of the Queue (a dedupe key, an id), in the tab's order.
  rowsWith(column: 'id' | 'dedupe_key', value: string): number[] {
    return committedRows(this.store, 'queue', column, value);
  }

  // The committed task with a dedupe key (the latest when several share it). Queue rows are never removed, so a
  // key is answered for as long as the workbook lives.
  withKey(key: string): QueueItem | null {
    const rows = this.rowsWith('dedupe_key', key);
    return rows.length ? this.at(rows[rows.length - 1]) : null;
  }

  // The committed rows whose dedupe key matches a regular expression: one search of that column.
  rowsMatchingKey(pattern: string): number[] {
    const last = this.last();
    if (last < 2) return [];
    return this.store
      .sheet('queue')
      .getRange(2, rowsOf('queue').index('dedupe_key') + 1, last - 1, 1)
      .createTextFinder(pattern)
      .useRegularExpression(true)
      .matchEntireCell(true)
      .matchCase(true)
      .findAll()
      .map((r) => r.getRow());
  }
}
