// Writes planned review ops (src/core/memory/review-ops.ts) into one commit, by column name, and runs it.
import { rowsOfAny, type TabKey } from '../../../sheets-schema/index.js';
import type { Commit } from '../../store/store.js';
import type { ReviewOp } from '../../core/memory/review-ops.js';

// Writes the ops in their order and runs the commit; an update starts from `base`, the row as stored.
export function writeOps(
  c: Commit,
  ops: readonly ReviewOp[],
  now: number,
  base: (tab: TabKey, row: number) => unknown[],
): void {
  for (const op of ops) {
    if (op.kind === 'audit') {
      c.audit({ actor: op.actor, event: op.event, tab: op.tab, row_key: op.row_key, payload: op.payload });
      continue;
    }
    const cols = rowsOfAny(op.tab);
    if (op.at === 'append') {
      const values = cols.write(op.values);
      if (op.owner) c.appendOne(op.tab, values, op.owner);
      else c.append(op.tab, [values]);
    } else {
      const values = cols.write(op.values, base(op.tab, op.row));
      if (op.at === 'after') c.updateAfter(op.tab, op.row, values);
      else c.setMarker(op.tab, op.row, values, op.owner ?? `${op.tab}:${op.row}`);
    }
    // The commit puts the written row's number and digest on the event that names it.
    c.audit(op.audit);
  }
  c.run(new Date(now).toISOString());
}
