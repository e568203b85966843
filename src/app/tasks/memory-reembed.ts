// memory.reembed: rows embedded by another model (or dimensions) are embedded again, a batch per commit.
import { rowsOf } from '../../../sheets-schema/index.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { defineTask } from './task.js';

const BATCH = 100;

export const reembedMemory = defineTask(TASK_KINDS.reembed, {
  run(_item, _payload, { council, deadline }) {
    const mem = council.recall.memory();
    const cols = rowsOf('learnings');
    // The matrix is decoded once, at the start, for the cells the decoder refuses; each batch re-reads the rows only.
    mem.stale(true);
    for (;;) {
      mem.forget();
      const stale = mem.stale().slice(0, BATCH);
      if (!stale.length) return { kind: 'done' };
      if (council.now() >= deadline) return { kind: 'requeue', progressed: true };
      const cells = mem.embed(stale.map((l) => l.content));
      council.store.withLock((state) => {
        const c = council.store.begin(state);
        stale.forEach((l, i) => {
          const raw = council.store.readRows('learnings', l.row, 1)[0];
          const v = cols.write({ embedding: cells[i], embedding_model: mem.tag }, raw);
          if (i === stale.length - 1) c.setMarker('learnings', l.row, v, `Learnings:${l.learning_id}`);
          else c.update('learnings', l.row, v);
        });
        c.audit({
          actor: 'kaigi',
          event: 'reembedded',
          tab: 'Learnings',
          row_key: mem.tag,
          payload: { ids: stale.map((l) => l.learning_id) },
        });
        c.run(new Date(council.now()).toISOString());
      });
    }
  },
});
