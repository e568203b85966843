// The shape of a queue task handler: one module per task type (defineTask), listed once in the registry.
import type { QueueItem } from '../../core/queue.js';
import { parsePayload, type TaskKind } from '../../core/queue-tasks.js';
import type { Commit } from '../../store/store.js';
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

interface ClaimContext {
  council: Council;
  inProgress: number;
  items: QueueItem[];
  commit: Commit;
}

// A task as the registry holds them all alike: the payload is parsed by the task itself.
export interface TaskHandler {
  type: string;
  run(item: QueueItem, ctx: TaskContext): Outcome;
  // The task's first step, written in the commit that claims the item (work-queue.ts ClaimStep): `items` is the
  // queue as read under the claim's lock; the step's last write is the item's row, the commit's point.
  atClaim?(item: QueueItem, ctx: ClaimContext): Outcome | null;
}

// A task's handler as its module writes it: given the item's payload parsed by the kind's schema.
interface TypedTask<P> {
  run(item: QueueItem, payload: P, ctx: TaskContext): Outcome;
  atClaim?(item: QueueItem, payload: P, ctx: ClaimContext): Outcome | null;
}

// Keeps each handler's payload type checked against its kind's schema (src/core/queue-tasks.ts) while the registry
// holds them all alike. A payload that does not parse throws a ValidationError, which fails the item like any error.
export function defineTask<P>(kind: TaskKind<P>, task: TypedTask<P>): TaskHandler {
  const first = task.atClaim;
  return {
    type: kind.type,
    run: (item, ctx) => task.run(item, parsePayload(kind, item), ctx),
    ...(first ? { atClaim: (item: QueueItem, ctx: ClaimContext) => first(item, parsePayload(kind, item), ctx) } : {}),
  };
}
