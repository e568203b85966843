// The Inbox tab's rows by item id: the tab's first column, every row the sheet holds (an item just committed included).
import type { Store } from '../store.js';

export class InboxRows {
  constructor(private readonly store: Store) {}

  rowOf(id: string): number | null {
    return this.store.findRow('inbox', id);
  }
}
