// A request that waits for its own task: its execution runs the queue itself, up to the wait, instead of leaving the
// work to a one-shot trigger that Apps Script fires late (after(ms) is only a minimum: a minute or more is usual).
import { queueSettled } from '../../store/store-format.js';
import type { QueueItem } from '../../core/queue.js';
import type { Council } from '../sheet-council.js';
import type { OwnWork } from '../routes/route.js';
import { nudge } from '../discussions/requests.js';
import { claimStep, runClaimed, workQueue } from './tick.js';
import type { Claimed, ClaimStep, Finished } from './work-queue.js';

// Seconds the caller may work: the wait asked for, within api.max_wait_seconds and the tick budget.
function ownLimit(council: Council, waitSeconds: number): number {
  const s = council.settings();
  return Math.max(0, Math.min(waitSeconds, s.number('api.max_wait_seconds'), s.number('queue.tick_budget_seconds')));
}

// The step that claims the caller's task in the commit that queues it (WorkQueue.claimQueued), when the wait allows
// work. Its discussion is what this execution will run: the configuration is read now, outside the lock, so the
// claim can open it in the same commit (discussion-open.ts).
export function ownTaskStep(council: Council, waitSeconds: number): ClaimStep | null {
  if (ownLimit(council, waitSeconds) <= 0) return null;
  council.env();
  return claimStep(council);
}

// The queue's work, highest priority first as a tick takes it, until the task `taskId` finishes or the wait is spent.
// `claimed`: the task as the enqueue's commit claimed it (nothing else was queued), run first.
// Whatever is left — the task, or work queued behind it — gets the one-shot trigger as an unwaited call would.
export function workOwnTask(council: Council, taskId: string, waitSeconds: number, claimed?: Claimed): OwnWork {
  const s = council.settings();
  const limit = ownLimit(council, waitSeconds);
  let finished = false;
  if (limit > 0) {
    council.env();
    const own = claimed && claimed.item.id === taskId ? claimed : null;
    // The wait counts from before the claim, as it did when the claim was the first step of the work below: a task
    // claimed in its enqueue's commit counts from that commit's start.
    const now = own ? Math.min(council.now(), own.item.created_at) : council.now();
    const stop = (item: QueueItem, outcome: Finished) => {
      if (item.id !== taskId) return false;
      finished = outcome.kind === 'finished' || outcome.kind === 'done';
      return true;
    };
    // No new step after the wait; a round of model calls under way may end within the tick budget (one round is at
    // most UrlFetchApp's 60 s), so the answer comes within the wait plus one round.
    const deadline = now + limit * 1000;
    const callsUntil = now + s.number('queue.tick_budget_seconds') * 1000;
    const first = own ? runClaimed(council, own, deadline, callsUntil) : null;
    if (!first || !stop(first.item, first.outcome)) {
      const worked = workQueue(council, deadline, stop, callsUntil);
      if (!worked.stopped) finished = false;
    }
  }
  if (!finished || !queueSettled(council.store.readState())) nudge(council);
  return { finished, waited_up_to: limit };
}
