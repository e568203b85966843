// One worker execution: claim queued work under the lock with a lease, run its task handler, record the result.
import { scriptZone } from '../adapters/gas/records.js';
import { openBound } from '../adapters/gas/spreadsheet.js';
import { RequeueError } from '../core/errors.js';
import { Council } from './council.js';
import { findTask } from './tasks/registry.js';
import type { Finished } from './work-queue.js';

export interface TickReport {
  ran: boolean;
  processed: number;
  failed: number;
  reason: string;
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
    if (claimed.malformed) outcome = { kind: 'failed', error: claimed.malformed };
    else {
      try {
        outcome = { kind: 'continue', item };
        // A handler may hand the item on as another type (discussion.open becomes discussion.advance).
        while (outcome.kind === 'continue') {
          item = outcome.item;
          const handler = findTask(item.type);
          if (!handler) throw new Error(`unknown task type "${item.type}"`);
          outcome = handler.run(item, { council, inProgress: claimed.inProgress, deadline });
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
  return { ran: true, processed, failed, reason: Date.now() >= deadline ? 'time budget spent' : 'queue empty' };
}
