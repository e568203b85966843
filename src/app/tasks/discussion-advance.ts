// discussion.advance: run steps until the discussion waits, ends, or the execution's time budget is spent.
import { applyStep, planStep, runStep } from '../../core/engine.js';
import type { Loaded } from '../discussion-store.js';
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
        // It also queues the Dashboard's refresh in the same commit (so a kill cannot keep one without the other),
        // a little later, so that one refresh serves every discussion that ends meanwhile.
        const close = last
          ? () => {
              council.queue.write(
                c,
                { ...item, status: 'done', lease_owner: '', lease_until: 0, updated_at: Date.now(), last_error: '' },
                false,
              );
              const delay = council.settings().number('dashboard.refresh_delay_seconds') * 1000;
              council.queue.enqueueOnceIn(c, state, {
                type: 'dashboard.refresh',
                priority: 'LOW',
                dedupeKey: 'dashboard.refresh',
                from: 'kaigi',
                availableAt: Date.now() + delay,
              });
            }
          : undefined;
        return council.discussions.commitStep(c, loaded, r, close);
      });
      progressed = true;
      if (last) return { kind: 'finished' };
    }
  },
};
