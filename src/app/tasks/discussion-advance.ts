// discussion.advance: run steps until the discussion waits, ends, or the execution's time budget is spent.
import { applyStep, planStep, runStep } from '../../core/engine.js';
import type { Loaded } from '../discussion-store.js';
import { markDashboardDue } from '../dashboard.js';
import { assignDecisionId } from '../pending-ids.js';
import { objectionPayload } from '../requests.js';
import type { Council } from '../council.js';
import type { Commit } from '../../adapters/gas/commit.js';
import type { AgentObjection } from '../../core/engine.js';
import type { TaskHandler } from './task.js';

function fileAgentObjection(council: Council, c: Commit, discussionId: string, o: AgentObjection): void {
  const { objector, ...rest } = o;
  const payload = objectionPayload({ ...rest, discussion_id: discussionId }, { source: 'agent', objector });
  council.queue.append(c, Date.now(), {
    type: 'objection.process',
    payload: payload as unknown as Record<string, unknown>,
    priority: payload.urgency,
    from: objector,
    availableAt: Date.now(),
  });
}

// The lease makes this execution the discussion's only writer: it is loaded once, agents are asked outside
// the lock, and only the commit holds it.
export const advanceDiscussion: TaskHandler = {
  type: 'discussion.advance',
  run(item, { council, deadline, callsUntil }) {
    council.models.deadline = Math.max(deadline, callsUntil ?? 0);
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
        // The council objects to its own order (seed 000 §7): filed through the ordinary objection path, in this
        // same commit, so the review's mark and its objection are written together or not at all.
        if (r.agentObjection) fileAgentObjection(council, c, loaded.d.discussion_id, r.agentObjection);
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
