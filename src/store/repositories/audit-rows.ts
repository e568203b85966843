// The Audit tab's rows by the key of the row an event is about, read by the rule in committed-rows.ts.
import { type RowOf, rowsOf } from '../../../sheets-schema/index.js';
import type { Store } from '../store.js';
import { committedRows } from './committed-rows.js';

const auditCols = rowsOf('audit');

export class AuditRows {
  constructor(private readonly store: Store) {}

  // The events about one row (a discussion id, an order id), oldest first, by column name.
  about(rowKey: string): RowOf<'audit'>[] {
    return committedRows(this.store, 'audit', 'row_key', rowKey).map((at) =>
      auditCols.read(this.store.readRows('audit', at, 1)[0]),
    );
  }
}
