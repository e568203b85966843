// Tasks over the web API: queued once per idempotency key with the discussion id reserved at once, and found again
// by task id (Q-n) or discussion id (DISC-…), also before the discussion has opened.
import { AuditRows } from '../../store/repositories/audit-rows.js';
import { QueueRows } from '../../store/repositories/queue-rows.js';
import { dayOf, queueRow } from '../../store/records.js';
import type { Commit } from '../../store/store.js';
import { queueSettled } from '../../store/store-format.js';
import { props } from '../../store/services.js';
import { TASK_ID } from '../../core/api/api-schemas.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import { discussionId } from '../../core/discussion/ids.js';
import type { QueueItem } from '../../core/queue.js';
import { payloadRow, type TaskKind } from '../../core/queue-tasks.js';
import type { Priority } from '../../core/types.js';
import type { Council } from '../sheet-council.js';
import { nudge } from '../discussions/requests.js';
import type { Claimed, ClaimStep } from '../queue/work-queue.js';

// The audit event that says which task holds a reserved discussion id, found by the id as its row key.
const RESERVED = 'discussion_reserved';

export interface EnqueueRequest<P extends object> {
  task: TaskKind<P>;
  payload: P;
  priority: Priority;
  // Namespaced per client by the caller; empty for a task that may be queued any number of times.
  dedupeKey: string;
  // Who asks (`api:CLIENT`): the queue row's sender and the actor of its audit events.
  actor: string;
  // The route or tool, for the audit event.
  call: string;
  // Allocate the discussion id now (payload.discussion_id), so the answer can name it; discussion.open uses it.
  reserveDiscussion: boolean;
  // A key that only stands for a re-sent call (an MCP JSON-RPC id, which a client's next session numbers from 0
  // again) dedupes within this many ms of the task it names; a client's idempotency key has no such limit.
  dedupeWithinMs?: number;
  // An API client's budget (src/app/api/api-budget.ts), under the lock: `check` before anything is recorded (it
  // throws 429 budget_exceeded), `hold` once the discussion is queued. A repeated call is answered before either.
  budget?: { check: () => void; hold: (discussion: string) => void };
  // A record filed in the same commit as the task (an objection's OPEN row); the payload queued is what it returns.
  file?: (c: Commit, payload: P) => P;
  // The caller runs the work in its own execution and schedules the one-shot trigger itself if work is left.
  noNudge?: boolean;
  // With noNudge: the task's first step (tick.ts claimStep), so that the caller's task is claimed in the enqueue's
  // own commit when nothing else is queued (WorkQueue.claimQueued).
  claimWith?: ClaimStep;
}

export interface Enqueued {
  task_id: string;
  discussion_id: string;
  duplicate: boolean;
  // The task as claimed by this execution in the enqueue's commit, its first step taken (claimWith).
  claimed?: Claimed;
}

function readQueueRow(council: Council, row: number): QueueItem {
  return new QueueRows(council.store).at(row);
}

// The committed queue row holding a dedupe key: one search of that column, whatever is finished.
function rowWithKey(council: Council, key: string): QueueItem | null {
  return new QueueRows(council.store).withKey(key);
}

// Under one lock: the first task with this key answers again (nothing is written), else the task is queued with
// its discussion id reserved from the same per-day sequence discussion.open uses, in one commit.
export function enqueueOnce<P extends object>(council: Council, req: EnqueueRequest<P>): Enqueued {
  const out = council.store.withLock((state): Enqueued => {
    if (req.dedupeKey) {
      const dup = rowWithKey(council, req.dedupeKey);
      const fresh = dup && (req.dedupeWithinMs === undefined || dup.created_at >= council.now() - req.dedupeWithinMs);
      if (dup && fresh)
        return { task_id: dup.id, discussion_id: String(dup.payload?.discussion_id ?? ''), duplicate: true };
    }
    if (req.budget) req.budget.check();
    const now = council.now();
    const done = (c: Commit, q: { item: QueueItem; disc: string }, claimed?: Claimed): Enqueued => {
      // The state after the commit and the budget's hold in one property write.
      props.batch(() => {
        c.run(new Date(now).toISOString());
        if (req.budget) req.budget.hold(q.disc);
      });
      return { task_id: q.item.id, discussion_id: q.disc, duplicate: false, ...(claimed ? { claimed } : {}) };
    };
    // The caller's own task, claimed in this commit when nothing else is live in the queue (a claim would take it
    // next); otherwise, or when its first step does not apply, the enqueue is a commit of its own.
    if (req.claimWith && queueSettled(state)) {
      const c = council.store.begin(state, req.actor);
      const queued = writeEnqueue(council, c, req, now);
      const claimed = council.queue.claimQueued(c, queued.item, req.claimWith);
      if (claimed) return done(c, queued, claimed);
    }
    const c = council.store.begin(state, req.actor);
    return done(c, writeEnqueue(council, c, req, now));
  });
  if (!out.duplicate && !req.noNudge) nudge(council);
  return out;
}

// The queue row and its audit events, in `c`: the row is the commit's final write until a claim's step replaces it.
function writeEnqueue<P extends object>(
  council: Council,
  c: Commit,
  req: EnqueueRequest<P>,
  now: number,
): { item: QueueItem; disc: string } {
  const id = `Q-${c.nextSeq('queue')}`;
  const filed = req.file ? req.file(c, req.payload) : req.payload;
  const payload: Record<string, unknown> = { ...payloadRow(req.task, filed), actor: req.actor };
  let disc = '';
  if (req.reserveDiscussion) {
    disc = discussionId(c.nextDaily('disc', dayOf(now, council.tz)));
    payload.discussion_id = disc;
  }
  const item: QueueItem = {
    row: 0,
    id,
    type: req.task.type,
    from: req.actor,
    to: 'council',
    priority: req.priority,
    payload,
    status: 'queued',
    attempts: 0,
    available_at: now,
    lease_owner: '',
    lease_until: 0,
    dedupe_key: req.dedupeKey,
    created_at: now,
    updated_at: now,
    last_error: '',
  };
  const placed = c.setMarker('queue', 'append', queueRow(item), `Queue:${id}`);
  c.audit({
    actor: req.actor,
    event: 'enqueue',
    tab: 'Queue',
    row_key: id,
    payload: { type: req.task.type, priority: req.priority, row: placed.row, call: req.call },
  });
  if (disc)
    c.audit({ actor: req.actor, event: RESERVED, tab: '', row_key: disc, payload: { task_id: id, row: placed.row } });
  return { item: { ...item, row: placed.row }, disc };
}

// A queued task by its id. Every task takes the next number of one sequence and appends one row in the same commit,
// and Queue rows are never removed, so Q-n is on row n + 1: that row is read and checked (one read); a workbook where
// it is not (rows added by hand, an older layout) is searched.
function taskById(council: Council, id: string): QueueItem {
  const queue = new QueueRows(council.store);
  const guess = Number(id.slice(2)) + 1;
  if (guess >= 2 && guess <= queue.last()) {
    const item = queue.at(guess);
    if (item.id === id) return item;
  }
  const [row] = queue.rowsWith('id', id);
  if (!row) throw new NotFoundError(`task ${id} was not found in the Queue`, 'task_not_found');
  return queue.at(row);
}

// The task that holds a reserved discussion id not yet in the Discussion Log (its reservation's audit event).
export function taskOfReserved(council: Council, discussion: string): QueueItem | null {
  for (const r of new AuditRows(council.store).about(discussion)) {
    if (r.event !== RESERVED) continue;
    const p = JSON.parse(String(r.payload_json)) as { task_id?: string; row?: number };
    const item = p.row ? readQueueRow(council, p.row) : null;
    // The reservation names the row the task was written to; a task found elsewhere is looked up by its id.
    return item && item.id === p.task_id ? item : p.task_id ? taskById(council, p.task_id) : null;
  }
  return null;
}

// The discussion a task id or discussion id is about, and the task when one is known.
export function locate(council: Council, id: string): { item: QueueItem | null; discussion_id: string } {
  if (!TASK_ID.test(id)) return { item: null, discussion_id: id };
  const item = taskById(council, id);
  return { item, discussion_id: String(item.payload?.discussion_id ?? '') };
}

// The task a client's idempotency key (an agent API taskId) was queued under: the caller's own key first, else the one
// client's key it is (any client may report on a task, as by its Q-n id); a key two other clients used is a 409.
export function taskByKey(council: Council, client: string, key: string): QueueItem {
  const own = rowWithKey(council, `api:${client}:key:${key}`);
  if (own) return own;
  const rows = new QueueRows(council.store).rowsMatchingKey(`^api:.+:key:${key.replace(/\./g, '\\.')}$`);
  const items = rows.map((r) => readQueueRow(council, r)).filter((i) => i.dedupe_key.endsWith(`:key:${key}`));
  if (!items.length) throw new NotFoundError(`no task was sent with the id ${key}`, 'task_not_found');
  if (items.length > 1)
    throw new ConflictError(
      `the task id ${key} was sent by more than one client; report on it by its Kaigi task id (Q-n) instead`,
      'task_id_ambiguous',
    );
  return items[0];
}
