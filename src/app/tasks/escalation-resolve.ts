// escalation.resolve: a person approved, returned or rejected an escalated discussion.
import { runResolution } from '../../core/orders/objections.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { assignDecisionId } from '../discussions/pending-ids.js';
import { defineTask } from './task.js';

export const resolveEscalation = defineTask(TASK_KINDS.resolution, {
  run(_item, input, { council }) {
    const l = council.discussions.load(input.discussion_id);
    const computed = runResolution(l.d, input, council.env());
    council.store.withLock((state) => {
      const c = council.store.begin(state);
      council.discussions.commitStep(c, l, assignDecisionId(c, council.tz, computed).r);
    });
    return { kind: 'done' };
  },
});
