// discussion.advance: run steps until the discussion waits, ends, or the execution's time budget is spent.
import { applyStep, planStep, runStep } from '../../core/engine.js';
import type { Loaded } from '../discussion-store.js';
import { markDashboardDue } from '../dashboard.js';
import { assignDecisionId } from '../pending-ids.js';
import type { TaskHandler } from './task.js';

// The lease makes this execution the discussion's only writer: it is loaded once, agents are asked outside
// the lock, and only the commit holds it.
export const advanceDiscussion: TaskHandler = {
  type: 'discussion.advance',
  run(item, { council, deadline }) {
    council.models.deadline = deadline;
    const p = item.payload as { discussion_id: string; row?: number };
    let l: Loaded | null = null;
    let progressed = false;
    for (;;) {
      if (Date.now() >= deadline) return { kind: 'requeue', progressed };
      if (!l) l = council.discussions.load(p.discussion_id, p.row);
      const env = council.env();
      const step = planStep(l.d, env);
      if (step.kind === 'idle') return { kind: 'done' };
      const computed = runStep(l.d, step, env);
      const last = planStep(applyStep(l.d, computed), env).kind === 'idle';
      const loaded: Loaded = l;
      l = council.store.withLock((state): Loaded => {
        const c = council.store.begin(state);
        const { r } = assignDecisionId(c, council.tz, computed);
        // The step that ends the work also closes the task, right after the commit point.
        const close = last
          ? () =>
              council.queue.write(
                c,
                { ...item, status: 'done', lease_owner: '', lease_until: 0, updated_at: Date.now(), last_error: '' },
                false,
              )
          : undefined;
        return council.discussions.commitStep(c, loaded, r, close);
      });
      progressed = true;
      if (last) {
        // The discussion ended (DECIDED, ESCALATED, …): the Dashboard is due, refreshed by a later tick.
        markDashboardDue(council);
        return { kind: 'finished' };
      }
    }
  },
};
