// The read rule every repository follows, in one place: which rows count as committed, and when to read "now".
//
// The store's state (Script Properties) says where each append tab's committed rows end. Outside the lock an
// execution holds the state it first read (property-reads.ts): cheap, and right for anything that only needs rows
// committed before it began. It is stale for a caller that has just met a row from a newer commit (a decided
// discussion's log row, whose orders were committed with it; a queue task a tick has just appended): that caller
// must read the state as committed now. The repositories decide this, so a use case never picks the read:
// - a search for rows by a column's value looks in the rows the held state knows, and on a miss searches again the
//   rows committed since (committedRows below): a hit never costs a second state read, a miss never a stale answer;
// - a count or a walk of a tab's rows (tails, queue scans) uses the held state, which an execution's own commits
//   keep current (a commit writes the state it made).
import { type ColumnOf, rowsOf, type TabKey } from '../../../sheets-schema/index.js';
import type { Store } from '../store.js';

// The committed rows of an append tab whose `column` holds exactly `value`: one search over the rows the store's state
// knows (a state read is a Script Property, not a spreadsheet round trip; Store.findRow asks the sheet its size first),
// then, on a miss, one over the rows committed since.
export function committedRows<K extends TabKey>(store: Store, tab: K, column: ColumnOf<K>, value: string): number[] {
  const search = (from: number, to: number): number[] =>
    to < from
      ? []
      : store
          .sheet(tab)
          .getRange(from, rowsOf(tab).index(column) + 1, to - from + 1, 1)
          .createTextFinder(value)
          .matchEntireCell(true)
          .matchCase(true)
          .findAll()
          .map((r) => r.getRow());
  const last = store.readState().tails[tab]?.last ?? 1;
  const hits = search(2, last);
  if (hits.length) return hits;
  return search(Math.max(2, last + 1), store.readStateNow().tails[tab]?.last ?? 1);
}

// The last committed row of an append tab as this execution's state knows it (1: none yet).
export function committedLast(store: Store, tab: TabKey): number {
  return store.readState().tails[tab]?.last ?? 1;
}

// One row by its values, or null when the row lies past the sheet (a caller's hint from an older state).
export function rowAt(store: Store, tab: TabKey, row: number): unknown[] | null {
  return row >= 2 ? (store.readRows(tab, row, 1)[0] ?? null) : null;
}
