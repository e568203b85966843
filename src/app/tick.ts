// One worker execution: claim queued work under the lock with a lease, run it, record the result.
import { Council, type Outcome } from './council.js';
import { scriptZone } from '../adapters/gas/records.js';
import { openBound } from '../adapters/gas/spreadsheet.js';

export interface TickReport {
  ran: boolean;
  processed: number;
  failed: number;
  reason: string;
}

export function runTick(): TickReport {
  const council = new Council(openBound(), scriptZone());
  const started = Date.now();
  const budget = council.settings().number('queue.tick_budget_seconds') * 1000;
  const deadline = started + budget;
  let processed = 0;
  let failed = 0;
  let reason = 'queue empty';
  while (Date.now() < deadline) {
    const claimed = council.claimNext();
    if (!claimed) break;
    const { malformed, inProgress } = claimed;
    let item = claimed.item;
    let outcome: Outcome | { kind: 'failed'; error: string };
    if (malformed) outcome = { kind: 'failed', error: malformed };
    else {
      try {
        if (item.type === 'discussion.open') {
          outcome = council.open(item, inProgress);
          if (outcome.kind === 'continue') {
            item = outcome.item;
            outcome = council.advance(item, deadline);
          }
        } else if (item.type === 'discussion.advance') outcome = council.advance(item, deadline);
        else if (item.type === 'objection.process') outcome = council.objection(item);
        else if (item.type === 'memory.reembed') outcome = council.reembed(deadline);
        else outcome = council.resolution(item);
      } catch (e) {
        // A retry wait that would outlast this execution gives the work back to the queue, not a failure.
        const err = e as Error & { retryAt?: number };
        outcome =
          err.name === 'RequeueError'
            ? { kind: 'requeue', progressed: false, notBefore: err.retryAt }
            : { kind: 'failed', error: err.message || String(e) };
      }
    }
    council.finish(item, outcome);
    if (outcome.kind === 'failed') failed++;
    else processed++;
  }
  if (Date.now() >= deadline) reason = 'time budget spent';
  return { ran: true, processed, failed, reason };
}
