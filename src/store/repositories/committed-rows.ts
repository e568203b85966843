// A search of one column of a tab for an exact cell, for the web routes' reads outside the lock.
import { type ColumnOf, rowsOf, type TabKey } from '../../../sheets-schema/index.js';
import type { Council } from '../sheet-council.js';

// The committed rows of an append tab whose `column` holds exactly `value`: one search over the rows the store's state
// knows (a state read is a Script Property, not a spreadsheet round trip; Store.findRow asks the sheet its size first).
// Outside the lock that state may predate a commit whose rows the caller has already met (a decided discussion's log
// row, its orders not yet in the state it holds): a miss searches again the rows committed since.
export function findRows<K extends TabKey>(council: Council, tab: K, column: ColumnOf<K>, value: string): number[] {
  const search = (from: number, to: number): number[] =>
    to < from
      ? []
      : council.store
          .sheet(tab)
          .getRange(from, rowsOf(tab).index(column) + 1, to - from + 1, 1)
          .createTextFinder(value)
          .matchEntireCell(true)
          .matchCase(true)
          .findAll()
          .map((r) => r.getRow());
  const last = council.store.readState().tails[tab]?.last ?? 1;
  const hits = search(2, last);
  if (hits.length) return hits;
  return search(Math.max(2, last + 1), council.store.readStateNow().tails[tab]?.last ?? 1);
}
