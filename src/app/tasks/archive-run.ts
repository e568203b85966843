// archive.run: moves rows past retention (or over the cell threshold) to the archive spreadsheet (src/app/audit/retention.ts).
import { runArchive } from '../audit/retention.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { defineTask } from './task.js';

// Another execution at work holds row numbers the move would shift: the run waits this long and tries again.
const BUSY_WAIT_MS = 5 * 60_000;

export const archiveRows = defineTask(TASK_KINDS.archive, {
  run(item, _payload, { council, deadline }) {
    const r = runArchive(council, item.id, deadline);
    if (r.done) return { kind: 'done' };
    const progressed = Object.values(r.moved).some((n) => n > 0) || r.audit > 0;
    return r.busy
      ? { kind: 'requeue', progressed, notBefore: council.now() + BUSY_WAIT_MS }
      : { kind: 'requeue', progressed };
  },
});
