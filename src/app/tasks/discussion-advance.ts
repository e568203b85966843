// discussion.advance: run steps until the discussion waits, ends, or the execution's time budget is spent.
import { applyStep, mergeable, mergeSteps, planStep, runStep, type StepResult } from '../../core/engine.js';
import type { Loaded } from '../discussions/discussion-store.js';
import { markDashboardDue } from '../surfaces/dashboard.js';
import { assignDecisionId } from '../discussions/pending-ids.js';
import { objectionPayload } from '../discussions/requests.js';
import { fileObjectionRow } from '../discussions/objection-records.js';
import type { Council } from '../sheet-council.js';
import type { Commit } from '../../store/commit.js';
import type { AgentObjection } from '../../core/engine.js';
import type { QueueItem } from '../../core/queue.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { defineTask } from './task.js';
import { ports } from '../../ports.js';
import { stepLine } from '../../core/engine/step-line.js';

function fileAgentObjection(council: Council, c: Commit, discussionId: string, o: AgentObjection): void {
  const { objector, ...rest } = o;
  const checked = objectionPayload({ ...rest, discussion_id: discussionId }, { source: 'agent', objector });
  // Filed OPEN in the same commit as its task, like any other objection.
  const payload = fileObjectionRow(c, checked, new Date(council.now()).toISOString());
  council.queue.append(c, council.now(), {
    task: TASK_KINDS.objection,
    payload,
    priority: payload.urgency,
    from: objector,
    availableAt: council.now(),
  });
}

// Writes the steps computed since the last commit in one commit, the task closed with it when `close`.
function commitSteps(council: Council, item: QueueItem, loaded: Loaded, computed: StepResult, close: boolean): Loaded {
  return council.store.withLock((state): Loaded => {
    const c = council.store.begin(state);
    const { r } = assignDecisionId(c, council.tz, computed);
    // The council objects to its own order: filed through the ordinary objection path, in this
    // same commit, so the review's mark and its objection are written together or not at all.
    if (r.agentObjection) fileAgentObjection(council, c, loaded.d.discussion_id, r.agentObjection);
    // The step that ends the work also closes the task, right after the commit point.
    const done = close ? () => council.queue.close(c, item) : undefined;
    // The discussion ended (DECIDED, ESCALATED, …): the Dashboard is due, refreshed by a later tick. Marked with the
    // commit's own property writes (one setProperties call), from the properties read under the lock.
    const due = close ? () => markDashboardDue(council) : undefined;
    return council.discussions.commitStep(c, loaded, r, done, due);
  });
}

// The lease makes this execution the discussion's only writer: it is loaded once, agents are asked outside
// the lock, and only the commit holds it. A commit costs a few seconds of Apps Script's time (the lock, the
// journal, a write per tab, the flush), so steps that finish within queue.commit_every_seconds of the last commit
// are held and written together: the timeline still moves at least that often, and an execution that dies loses
// at most those steps, which the next claim of the task computes again (nothing of them was written).
export const advanceDiscussion = defineTask(TASK_KINDS.advance, {
  run(item, p, { council, deadline, callsUntil }) {
    council.models.deadline = Math.max(deadline, callsUntil ?? 0);
    const every = council.settings().number('queue.commit_every_seconds') * 1000;
    let l: Loaded | null = null;
    // The steps computed and not yet written, and when the last commit was.
    let held: StepResult | null = null;
    let since = council.now();
    let progressed = false;
    const write = (close: boolean) => {
      if (!l || !held) return;
      l = commitSteps(council, item, l, held, close);
      held = null;
      council.models.held = { tokens: 0, cost: 0 };
      since = council.now();
      progressed = true;
    };
    for (;;) {
      if (council.now() >= deadline) {
        write(false);
        return { kind: 'requeue', progressed };
      }
      if (!l) l = council.discussions.load(p.discussion_id, p.row);
      const env = council.env();
      const current = held ? applyStep(l.d, held) : l.d;
      const step = planStep(current, env);
      if (step.kind === 'idle') {
        if (!held) return { kind: 'done' };
        // Not reached while planStep is deterministic (the step that ends the work is written below); held steps
        // are never dropped all the same.
        write(true);
        return { kind: 'finished' };
      }
      let computed: StepResult;
      try {
        computed = runStep(current, step, env);
      } catch (e) {
        // What was computed before the failure is kept.
        write(false);
        throw e;
      }
      if (held && !mergeable(held, computed)) write(false);
      held = held ? mergeSteps(held, computed) : computed;
      // Said as each step ends, before its commit (which may wait for the next steps): the execution's log shows the
      // council at work, and `kaigi run` prints it as it comes.
      ports().host.log(stepLine(p.discussion_id, computed));
      council.models.held = {
        tokens: held.messages.reduce((a, m) => a + m.metadata.tokens_consumed, 0),
        cost: held.messages.reduce((a, m) => a + (m.metadata.cost_usd ?? 0), 0),
      };
      const last = planStep(applyStep(current, computed), env).kind === 'idle';
      if (last) {
        // The step that ends the discussion: its commit also marks the Dashboard due.
        write(true);
        return { kind: 'finished' };
      }
      if (council.now() - since >= every) write(false);
    }
  },
});
