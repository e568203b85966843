// One worker execution: claim queued work under the lock with a lease, run its task handler, record the result.
import { scriptZone } from '../adapters/gas/records.js';
import { openBound } from '../adapters/gas/spreadsheet.js';
import { RequeueError } from '../core/errors.js';
import type { QueueItem } from '../core/queue.js';
import { Council } from './council.js';
import { tellSettingProblems, unknownTaskNotice } from './notices.js';
import { findTask } from './tasks/registry.js';
import type { Finished } from './work-queue.js';

export interface TickReport {
  ran: boolean;
  processed: number;
  failed: number;
  reason: string;
}

// An item no handler knows fails like any other, and a person hears of its type once, not once per attempt.
function unknownType(item: QueueItem): Finished {
  return { kind: 'failed', error: `unknown task type "${item.type}"`, notice: unknownTaskNotice(item) };
}

export function runTick(): TickReport {
  const council = new Council(openBound(), scriptZone());
  const deadline = Date.now() + council.settings().number('queue.tick_budget_seconds') * 1000;
  let processed = 0;
  let failed = 0;
  while (Date.now() < deadline) {
    const claimed = council.queue.claimNext((type) => !!findTask(type));
    if (!claimed) break;
    let item = claimed.item;
    let outcome: Finished;
    if (claimed.malformed)
      outcome = findTask(item.type) ? { kind: 'failed', error: claimed.malformed } : unknownType(item);
    else {
      try {
        outcome = { kind: 'continue', item };
        // A handler may hand the item on as another type (discussion.open becomes discussion.advance).
        while (outcome.kind === 'continue') {
          item = outcome.item;
          const handler = findTask(item.type);
          outcome = handler
            ? handler.run(item, { council, inProgress: claimed.inProgress, deadline })
            : unknownType(item);
        }
      } catch (e) {
        // A retry wait that would outlast this execution gives the work back to the queue, not a failure.
        outcome =
          e instanceof RequeueError
            ? { kind: 'requeue', progressed: false, notBefore: e.retryAt }
            : { kind: 'failed', error: (e as Error).message || String(e) };
      }
    }
    council.queue.finish(item, outcome);
    if (outcome.kind === 'failed') failed++;
    else processed++;
  }
  // Settings rows that fell back to their defaults, told once each, after the work so a notice never delays it.
  tellSettingProblems(council.store, council.settings());
  return { ran: true, processed, failed, reason: Date.now() >= deadline ? 'time budget spent' : 'queue empty' };
}
