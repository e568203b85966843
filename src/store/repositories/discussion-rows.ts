// The Discussion Log's rows by discussion id, read by the rule in committed-rows.ts (a row just committed is found).
import { type RowOf, rowsOf } from '../../../sheets-schema/index.js';
import type { Store } from '../store.js';
import { committedRows, rowAt } from './committed-rows.js';

const logCols = rowsOf('discussions');

export class DiscussionRows {
  constructor(private readonly store: Store) {}

  // The row of a discussion's log row, or null when it is not in the log (yet).
  rowOf(id: string): number | null {
    return committedRows(this.store, 'discussions', 'discussion_id', id)[0] ?? null;
  }

  // The log row's cells by column name (long values still as overflow pointers), or null when it is not in the log.
  logRow(id: string): RowOf<'discussions'> | null {
    const row = this.rowOf(id);
    const raw = row ? rowAt(this.store, 'discussions', row) : null;
    return raw ? logCols.read(raw) : null;
  }
}
