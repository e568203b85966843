// The work queue's rules: what may be claimed next, leases, retries, and duplicates.
import { PRIORITY_RANK, type Priority, type QUEUE_STATUSES } from './types.js';
import { TASK_KINDS } from './queue-tasks.js';

type QueueStatus = (typeof QUEUE_STATUSES)[number];

export interface QueueItem {
  row: number;
  id: string;
  type: string;
  from: string;
  to: string;
  priority: Priority;
  payload: Record<string, unknown> | null;
  payloadError?: string;
  status: QueueStatus;
  attempts: number;
  available_at: number;
  lease_owner: string;
  lease_until: number;
  dedupe_key: string;
  created_at: number;
  updated_at: number;
  last_error: string;
}

export interface Limits {
  maxInProgress: number;
  maxAttempts: number;
}

function discussionOf(i: QueueItem): string {
  return i.payload && typeof i.payload.discussion_id === 'string' ? i.payload.discussion_id : '';
}

export function isStarted(i: QueueItem): boolean {
  return (
    i.type === TASK_KINDS.advance.type &&
    !!i.payload &&
    i.payload.started === true &&
    (i.status === 'queued' || i.status === 'processing')
  );
}

export function inProgressCount(items: readonly QueueItem[]): number {
  return items.filter(isStarted).length;
}

// An item an execution holds now: processing, its lease not yet run out.
export function leaseLive(i: QueueItem, now: number): boolean {
  return i.status === 'processing' && i.lease_until > now;
}

// An item whose execution died holding it (a timed-out delivery is re-delivered one priority higher).
export function leaseExpired(i: QueueItem, now: number): boolean {
  return i.status === 'processing' && i.lease_until <= now;
}

const RAISED: Record<Priority, Priority> = { LOW: 'MEDIUM', MEDIUM: 'HIGH', HIGH: 'CRITICAL', CRITICAL: 'CRITICAL' };

function raisedPriority(p: Priority): Priority {
  return RAISED[p];
}

// How many times in a row the item's lease ran out, as its last_error records it.
const EXPIRED = /^lease expired \((\d+)\)/;

export function leaseExpiries(i: QueueItem): number {
  const m = EXPIRED.exec(i.last_error);
  return m ? Number(m[1]) : 0;
}

// The item as it is claimed again after its lease ran out: one priority higher, the count of expiries in its
// last_error (a person is warned from the second one on: WorkQueue.claimNext).
export function reclaimedAfterExpiry(i: QueueItem, now: number): QueueItem {
  const n = leaseExpiries(i) + 1;
  return {
    ...i,
    priority: raisedPriority(i.priority),
    last_error: `lease expired (${n}): ${i.lease_owner || 'an execution'} held it until ${new Date(i.lease_until).toISOString()} and did not finish; re-delivered at ${new Date(now).toISOString()}`,
  };
}

const rankAt = (i: QueueItem, now: number) =>
  PRIORITY_RANK[leaseExpired(i, now) ? raisedPriority(i.priority) : i.priority];

// Highest priority first, then oldest; never two live leases on one discussion; at most N started.
export function pickNext(items: readonly QueueItem[], now: number, limits: Limits): QueueItem | null {
  const busy: string[] = [];
  for (const i of items) if (leaseLive(i, now) && discussionOf(i)) busy.push(discussionOf(i));
  const started = inProgressCount(items);
  const ready = items.filter((i) => {
    const claimable =
      (i.status === 'queued' || (i.status === 'failed' && i.attempts < limits.maxAttempts) || leaseExpired(i, now)) &&
      i.available_at <= now;
    if (!claimable) return false;
    if (discussionOf(i) && busy.indexOf(discussionOf(i)) >= 0) return false;
    if (
      i.type === TASK_KINDS.advance.type &&
      i.payload &&
      i.payload.started !== true &&
      started >= limits.maxInProgress
    )
      return false;
    return true;
  });
  ready.sort((a, b) => rankAt(a, now) - rankAt(b, now) || a.created_at - b.created_at || a.row - b.row);
  return ready[0] ?? null;
}

// An active item with the same key is replaced by the newer one (the newest wins).
export function findDuplicate(items: readonly QueueItem[], dedupeKey: string): QueueItem | null {
  if (!dedupeKey) return null;
  return items.find((i) => i.dedupe_key === dedupeKey && i.status === 'queued') ?? null;
}

export function backoffMs(attempts: number): number {
  return Math.min(3600_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

// The first row that is not finished: rows before it never need reading again.
export function advanceHead(items: readonly QueueItem[], head: number): number {
  const sorted = items.slice().sort((a, b) => a.row - b.row);
  let h = head;
  for (const i of sorted) {
    if (i.row < h) continue;
    if (i.row === h && (i.status === 'done' || i.status === 'dead')) h++;
    else break;
  }
  return h;
}

// The one-shot nudge trigger's delay from queue.nudge_delay_ms. ScriptApp's after() takes a non-negative int of ms,
// and a nudge sooner than a second only races the request that queued the work: a smaller value is raised to the
// minimum, a fraction is cut to whole ms, and a value that is no number gives the minimum.
export const MIN_NUDGE_DELAY_MS = 1000;

export function nudgeDelay(ms: number): number {
  return Number.isFinite(ms) ? Math.max(MIN_NUDGE_DELAY_MS, Math.floor(ms)) : MIN_NUDGE_DELAY_MS;
}
