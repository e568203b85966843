// One worker execution: claim queued work under the lock with a lease, run its task handler, record the result.
import { scriptZone } from '../../store/records.js';
import { effectiveUserEmail } from '../../store/services.js';
import { openBound } from '../../store/spreadsheet.js';
import { parseState, queueSettled } from '../../store/store-format.js';
import { allScriptProperties, removeWorkerTriggers } from '../../store/triggers.js';
import { withPropertySnapshot } from '../../store/property-reads.js';
import { anyWaiting } from '../../core/api/api-log-inbox.js';
import { BusyError, RequeueError } from '../../core/errors.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import type { QueueItem } from '../../core/queue.js';
import { parseClaim } from '../../core/trigger-plan.js';
import { drainApiLog } from '../api/api-log.js';
import { Council } from '../sheet-council.js';
import { dashboardDueAt, refreshDueDashboard } from '../surfaces/dashboard.js';
import { tellSettingProblems, unknownTaskNotice } from '../notices.js';
import { findTask } from '../tasks/registry.js';
import type { Claimed, ClaimStep, Finished, WorkQueue } from './work-queue.js';
import { ports } from '../../ports.js';

export interface TickReport {
  ran: boolean;
  processed: number;
  failed: number;
  reason: string;
  // The type of every task this execution took, in order (a task handed on is named by its first type).
  tasks: string[];
  // Whether this execution refreshed the Dashboard (due since a discussion ended).
  dashboard: boolean;
}

// An item no handler knows fails like any other, and a person hears of its type once, not once per attempt.
function unknownType(item: QueueItem): Finished {
  return { kind: 'failed', error: `unknown task type "${item.type}"`, notice: unknownTaskNotice(item) };
}

// The backstop fires every few minutes all day, so an idle one must cost almost nothing (a time-driven trigger's
// runtime counts against the daily quota): one Script Properties read, before the spreadsheet is opened, Settings read
// or the lock taken. The store's state (KAIGI_STATE) is written in the same commit as every enqueue, so a queue head
// past the queue's committed tail means every item is done or dead. Anything else — no state yet, a dead commit's
// journal, live items — takes the full path, which is where problems are reported.
function queueIsIdle(state: string | undefined): boolean {
  if (!state) return false;
  return queueSettled(parseState(state, PROPERTY_KEYS.state));
}

// Workers that belong to someone other than the claimed owner retire (src/core/trigger-plan.ts: the hand-over).
// Only recurring workers go: a nudge an editor scheduled for work they enqueued still runs it.
function retireIfNotOwner(claim: string | undefined): void {
  const c = parseClaim(claim);
  if (!c) return;
  const me = effectiveUserEmail();
  if (me && c.owner !== me) removeWorkerTriggers();
}

export function runTick(): TickReport {
  const props = allScriptProperties();
  retireIfNotOwner(props[PROPERTY_KEYS.workers]);
  const due = dashboardDueAt(props);
  const dashboardDue = due !== null && due <= ports().clock.now();
  // API Log rows that authenticated calls left in the inbox are work too: the same read shows them.
  const logWaiting = anyWaiting(props, PROPERTY_KEYS.apiLogInbox);
  if (queueIsIdle(props[PROPERTY_KEYS.state]) && !dashboardDue && !logWaiting)
    return { ran: true, processed: 0, failed: 0, reason: 'idle', tasks: [], dashboard: false };
  // Every property read from here on comes from one read until a write or the lock changes it (property-reads.ts).
  return withPropertySnapshot(() => runWork(dashboardDue, due), props);
}

// The queued work, the Dashboard if due, the notices and the API Log inbox, until the tick's budget is spent.
function runWork(dashboardDue: boolean, due: number | null): TickReport {
  const council = new Council(openBound(), scriptZone());
  const deadline = council.now() + council.settings().number('queue.tick_budget_seconds') * 1000;
  const { processed, failed, tasks, busy } = workQueue(council, deadline);
  // The housekeeping below takes the lock too: with the lock that busy, it waits for a tick that finds it free.
  if (busy) return { ran: true, processed, failed, reason: 'lock busy', tasks, dashboard: false };
  // The Dashboard after the work, if it fell due before this execution began and there is time left.
  const dashboard = dashboardDue && council.now() < deadline;
  if (dashboard) refreshDueDashboard(council, due as number);
  // Settings rows that fell back to their defaults, told once each, after the work so a notice never delays it.
  tellSettingProblems(council.store, council.settings());
  // The rows authenticated web API calls left in the inbox, in as many drains as they take, with the per-minute
  // summaries of refused calls (an idle tick stays at one property read, so those wait for a tick with work).
  drainApiLog(council.store, council.settings().number('api.log_digest_rows'), () => council.now() < deadline);
  return {
    ran: true,
    processed,
    failed,
    reason: council.now() >= deadline ? 'time budget spent' : 'queue empty',
    tasks,
    dashboard,
  };
}

// With live items queued, the configuration is read before the claim, outside the lock, so that a discussion's log
// row is written in the claim's own commit (one lock, one flush where there were two: discussion-open.ts atClaim). It
// is read from the configuration cache (one call, as settings() above already made it) unless a tab changed. A
// configuration that cannot be read is not this step's to report: the claimed task builds it again, fails with the
// error, and the queue's failed → retried → dead → Inbox path tells a person.
function prepareEnv(council: Council): void {
  if (council.hasEnv() || queueSettled(council.store.readState())) return;
  try {
    council.env();
  } catch (e) {
    if (!(e instanceof Error)) throw e;
  }
}

export interface Worked {
  processed: number;
  failed: number;
  tasks: string[];
  // Whether `stopAfter` ended the work (rather than an empty queue or the deadline).
  stopped: boolean;
  // Whether the work ended because the script lock stayed busy past its wait (LockService's 30 s).
  busy?: boolean;
}

// Claims and runs queued work until the queue has nothing due, the deadline passes, or `stopAfter` says the item just
// finished was the one the caller waited for (a web request carrying its own discussion: src/app/queue/work-now.ts).
export function workQueue(
  council: Council,
  deadline: number,
  stopAfter?: (item: QueueItem, outcome: Finished) => boolean,
  callsUntil?: number,
): Worked {
  let processed = 0;
  let failed = 0;
  const tasks: string[] = [];
  while (council.now() < deadline) {
    // A task's first step may be written in the claim's own commit (a discussion's log row: work-queue.ts ClaimStep).
    // Read within the budget's check, so a tick whose budget is left claims, however long the reading took.
    prepareEnv(council);
    let claimed: ReturnType<WorkQueue['claimNext']>;
    try {
      claimed = council.queue.claimNext((type) => !!findTask(type), claimStep(council));
    } catch (e) {
      // Other executions held the lock all the while this one waited: they are at work, and what is queued stays
      // queued for them or the next tick. A worker that throws here would only be reported as a failed execution.
      if (e instanceof BusyError) return { processed, failed, tasks, stopped: false, busy: true };
      throw e;
    }
    if (!claimed) break;
    tasks.push(claimed.item.type);
    const { item, outcome, busy } = runClaimed(council, claimed, deadline, callsUntil);
    if (outcome.kind === 'failed') failed++;
    else processed++;
    if (busy) return { processed, failed, tasks, stopped: false, busy: true };
    if (stopAfter?.(item, outcome)) return { processed, failed, tasks, stopped: true };
  }
  return { processed, failed, tasks, stopped: false };
}

// A task's first step in the claim's own commit, where its handler has one (TaskHandler.atClaim).
export function claimStep(council: Council): ClaimStep {
  return (item, inProgress, commit, items) =>
    findTask(item.type)?.atClaim?.(item, { council, inProgress, items, commit }) ?? null;
}

// A claimed item's work, its handlers in turn while a handler hands it on, and its result recorded.
export function runClaimed(
  council: Council,
  claimed: Claimed,
  deadline: number,
  callsUntil?: number,
): { item: QueueItem; outcome: Finished; busy?: boolean } {
  let item = claimed.item;
  let outcome: Finished;
  if (claimed.malformed)
    outcome = findTask(item.type) ? { kind: 'failed', error: claimed.malformed } : unknownType(item);
  else {
    try {
      outcome = claimed.outcome ?? { kind: 'continue', item };
      // A handler may hand the item on as another type (discussion.open becomes discussion.advance).
      while (outcome.kind === 'continue') {
        item = outcome.item;
        const handler = findTask(item.type);
        outcome = handler
          ? handler.run(item, { council, inProgress: claimed.inProgress, deadline, callsUntil })
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
  try {
    council.queue.finish(item, outcome);
  } catch (e) {
    // The lock stayed busy past its wait again: the item keeps its claim until the lease runs out, and is then
    // claimed afresh (its steps are idempotent). The execution stops quietly rather than fail as a whole.
    if (!(e instanceof BusyError)) throw e;
    return { item, outcome, busy: true };
  }
  return { item, outcome };
}
