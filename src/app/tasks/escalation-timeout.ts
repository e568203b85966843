// escalation.timeout: the timer of an ESCALATED discussion (src/core/discussion/escalation-timer.ts). Scheduled in the same
// commit that escalated it (Council's commit hook), so an escalation never goes without its timer; the reminder and
// the re-scheduled timer are one commit, and so are the TIMEOUT and its notice.
import { escalationStep, escalationWake, timerStale } from '../../core/discussion/escalation-timer.js';
import type { QueueItem } from '../../core/queue.js';
import { payloadRow, TASK_KINDS } from '../../core/queue-tasks.js';
import { defineTask } from './task.js';

export const escalationTimeout = defineTask(TASK_KINDS.escalationTimer, {
  run(item, p, { council }) {
    const l = council.discussions.load(p.discussion_id, p.row);
    if (timerStale(l.d, p.escalated_at)) return { kind: 'done' };
    const hours = council.settings().number('discussion.escalation_timeout_hours');
    const r = escalationStep(l.d, council.env(), hours, p.stage);
    const now = council.now();
    council.store.withLock((state) => {
      const c = council.store.begin(state);
      // The reminder turns this item into the expiry timer, in the same commit as the reminder's row.
      const rearm =
        p.stage === 'remind'
          ? () => {
              const next: QueueItem = {
                ...item,
                payload: payloadRow(TASK_KINDS.escalationTimer, { ...p, stage: 'expire' }),
                status: 'queued',
                lease_owner: '',
                lease_until: 0,
                attempts: 0,
                available_at: escalationWake(p.escalated_at, hours, 'expire'),
                updated_at: now,
              };
              council.queue.write(c, next, false);
            }
          : undefined;
      council.discussions.commitStep(c, l, r, rearm);
    });
    return p.stage === 'remind' ? { kind: 'converted' } : { kind: 'done' };
  },
});
