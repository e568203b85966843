// The shape of a queue task handler: one module per task type, listed once in the registry.
import type { QueueItem } from '../../core/queue.js';
import type { Commit } from '../../adapters/gas/store.js';
import type { Council } from '../sheet-council.js';
import type { Outcome } from '../queue/work-queue.js';

interface TaskContext {
  council: Council;
  // Discussions in progress when the item was claimed (counted again under the lock where it matters).
  inProgress: number;
  // The execution's time budget: work past it goes back to the queue.
  deadline: number;
  // When a round of model calls must end at the latest, if later than `deadline`: a request that waits for its
  // discussion stops taking steps at its wait, but a round may run on within the execution's tick budget.
  callsUntil?: number;
}

export interface TaskHandler {
  type: string;
  run(item: QueueItem, ctx: TaskContext): Outcome;
  // The task's first step, written in the commit that claims the item (work-queue.ts ClaimStep): `items` is the
  // queue as read under the claim's lock; the step's last write is the item's row, the commit's point.
  atClaim?(
    item: QueueItem,
    ctx: { council: Council; inProgress: number; items: QueueItem[]; commit: Commit },
  ): Outcome | null;
}
