// A request that waits for its own task: its execution runs the queue itself, up to the wait, instead of leaving the
// work to a one-shot trigger that Apps Script fires late (after(ms) is only a minimum: a minute or more is usual).
import { queueSettled } from '../../adapters/gas/store-format.js';
import type { QueueItem } from '../../core/queue.js';
import type { Council } from '../sheet-council.js';
import type { OwnWork } from '../routes/route.js';
import { nudge } from '../discussions/requests.js';
import { workQueue } from './tick.js';
import type { Finished } from './work-queue.js';

// The queue's work, highest priority first as a tick takes it, until the task `taskId` finishes or the wait is spent.
// Whatever is left — the task, or work queued behind it — gets the one-shot trigger as an unwaited call would.
export function workOwnTask(council: Council, taskId: string, waitSeconds: number): OwnWork {
  const s = council.settings();
  const limit = Math.max(
    0,
    Math.min(waitSeconds, s.number('api.max_wait_seconds'), s.number('queue.tick_budget_seconds')),
  );
  let finished = false;
  if (limit > 0) {
    // Its discussion is what this execution will run: the configuration is read now, outside the lock, so the claim
    // can open it in the same commit (discussion-open.ts).
    council.env();
    const now = Date.now();
    const stop = (item: QueueItem, outcome: Finished) => {
      if (item.id !== taskId) return false;
      finished = outcome.kind === 'finished' || outcome.kind === 'done';
      return true;
    };
    // No new step after the wait; a round of model calls under way may end within the tick budget (one round is at
    // most UrlFetchApp's 60 s), so the answer comes within the wait plus one round.
    const worked = workQueue(council, now + limit * 1000, stop, now + s.number('queue.tick_budget_seconds') * 1000);
    if (!worked.stopped) finished = false;
  }
  if (!finished || !queueSettled(council.store.readState())) nudge(council);
  return { finished, waited_up_to: limit };
}
