// Whole tabs read under the lock, kept as the sheet's by this execution's own commits while nobody else commits.
import type { TabKey } from '../../sheets-schema/index.js';
import { asWritten } from './held-rows.js';

type Block = { tab: TabKey; row: number; rows: unknown[][] };

// A tab read whole under the lock (the review's Learnings, read before each decision's commit) is what the sheet
// holds for as long as the committed state is the text it was read at: every commit moves a counter in the state
// (commit.ts), so another execution's commit, a person's edit recorded by the edit trigger and a recovery all change
// it. This execution's own commits carry a copy forward: their rows are written into it, in write order, and it is
// then the sheet's at the state they leave. Any other write the execution makes forgets every copy (Store.wrote).
export class TabCopies {
  private at: Partial<Record<TabKey, string>> = {};

  // Whether this execution's copy of `key` is the sheet's at the committed state `state`.
  current(key: TabKey, state: string | null): boolean {
    return state !== null && this.at[key] === state;
  }

  mark(key: TabKey, state: string): void {
    this.at[key] = state;
  }

  forget(key: TabKey): void {
    delete this.at[key];
  }

  forgetAll(): void {
    this.at = {};
  }

  // A commit from the state `base` to `after` wrote `blocks`: each copy that was the sheet's at `base` takes their
  // rows and is the sheet's at `after`; any other copy is no longer known to be. The copies are replaced, not changed
  // in place, so rows a caller took from one before stay as they were read.
  carry(
    copies: Record<string, unknown[][]>,
    base: string | null,
    after: string,
    blocks: readonly Block[],
    width: (key: TabKey) => number,
  ): void {
    for (const key of Object.keys(this.at) as TabKey[]) {
      const copy = copies[key];
      if (!copy || !this.current(key, base)) {
        delete this.at[key];
        continue;
      }
      const w = width(key);
      const next = copy.slice();
      for (const b of blocks) {
        if (b.tab !== key) continue;
        b.rows.forEach((r, i) => {
          const at = b.row + i - 2;
          if (at < 0) return;
          while (next.length < at) next.push(asWritten([], w));
          next[at] = asWritten(r, w);
        });
      }
      // A whole-tab read ends at the last row with a value in it (getLastRow).
      while (next.length && next[next.length - 1].every((v) => v === '')) next.pop();
      copies[key] = next;
      this.at[key] = after;
    }
  }
}
