// The daily decay of unused learnings: a learning nobody used for learning.decay_days leaves
// retrieval. Its row is deactivated, kept, and audited; the plan is src/core/memory/recall.ts `decayed`.
import { rowsOf } from '../../../sheets-schema/index.js';
import { decayed } from '../../core/memory/recall.js';
import type { Council } from '../sheet-council.js';

const cols = rowsOf('learnings');

// Returns the ids deactivated. A first look outside the lock; the rows are read again under it, since a discussion
// may have just applied one of them.
export function runDecay(council: Council): string[] {
  const days = council.settings().number('learning.decay_days');
  const mem = council.recall.memory();
  if (!decayed(mem.rows(), council.now(), days).length) return [];
  const ids = council.store.withLock((state) => {
    mem.forget();
    const due = decayed(mem.rows(), council.now(), days);
    if (!due.length) return [];
    const rows = due.map((l) => l.row);
    const from = Math.min(...rows);
    const block = council.store.readRows('learnings', from, Math.max(...rows) - from + 1).map((v) => v.slice());
    for (const row of rows) block[row - from] = cols.write({ is_active: false }, block[row - from]);
    const c = council.store.begin(state);
    c.updateBlockAfter('learnings', from, block);
    c.audit({
      actor: 'kaigi',
      event: 'learnings_decayed',
      tab: 'Learnings',
      row_key: due.map((l) => l.learning_id).join(','),
      payload: { ids: due.map((l) => l.learning_id), unused_days: days },
    });
    c.run(new Date(council.now()).toISOString());
    return due.map((l) => l.learning_id);
  });
  mem.forget();
  return ids;
}
