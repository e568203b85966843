// review.run: the rest of a daily review that did not fit in its execution, a few decisions per tick until none is due.
import { markDashboardDue } from '../surfaces/dashboard.js';
import { dueNow, restOf, runReview } from '../review/review.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { defineTask } from './task.js';

export const reviewRest = defineTask(TASK_KINDS.review, {
  run(_item, _payload, { council, deadline }) {
    const r = runReview(council, dueNow(council), deadline);
    // The daily run left the Dashboard to the verdicts that came after it: it refreshes once these are in.
    if (r.evaluated.length) markDashboardDue(council);
    // Back no sooner than this tick's deadline, or the same tick would claim it again at once.
    return restOf(r, deadline);
  },
});
