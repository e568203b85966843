// The Queue tab as a work queue: enqueue with dedupe, claim under the lock with a lease, and record the result.
import { rowsOf } from '../../../sheets-schema/index.js';
import { queueItem, queueRow } from '../../store/records.js';
import type { Commit, Store, StoreState } from '../../store/store.js';
import { queueSettled } from '../../store/store-format.js';
import {
  advanceHead,
  backoffMs,
  findDuplicate,
  inProgressCount,
  leaseExpired,
  leaseExpiries,
  leaseLive,
  pickNext,
  type QueueItem,
  reclaimedAfterExpiry,
} from '../../core/queue.js';
import type { Priority } from '../../core/types.js';
import { payloadRow, TASK_KINDS, type TaskKind } from '../../core/queue-tasks.js';
import type { ClockPort } from '../../ports.js';
import type { Configuration } from '../discussions/configuration.js';
import { type Notice, Notices } from '../notices.js';

// done/requeue are written by finish(); finished and converted were already written by the last commit.
export type Outcome =
  | { kind: 'done' }
  | { kind: 'requeue'; progressed: boolean; notBefore?: number }
  | { kind: 'converted' }
  | { kind: 'finished' }
  | { kind: 'continue'; item: QueueItem };

// A failure may carry a notice for a person (told once per condition, whichever attempt it is).
export type Finished = Outcome | { kind: 'failed'; error: string; notice?: Notice };

// An item as read, with its payload cell as stored (an overflow pointer stays a pointer when unchanged).
type Stored = QueueItem & { rawPayload?: string; resolvedPayload?: string };

export interface Claimed {
  item: QueueItem;
  malformed: string | null;
  inProgress: number;
  // What a task's first step made of the item when it ran in the claim's own commit (see ClaimStep).
  outcome?: Outcome;
}

// A task's first step, run under the claim's lock and written in the claim's commit, which it finishes with the
// item's row as the commit point: one commit where a claim and the step would take two. Null when the step does
// not apply; a step that throws is not taken there (the claim is written alone and the task's run meets the
// error again, where it is recorded), so that a bad item never blocks the queue.
export type ClaimStep = (item: QueueItem, inProgress: number, c: Commit, items: QueueItem[]) => Outcome | null;

const queueCols = rowsOf('queue');
const PAYLOAD = queueCols.index('payload_json');

export class WorkQueue {
  private readonly notices: Notices;
  // The queue as this execution's last claim read it.
  private seen: QueueItem[] = [];

  constructor(
    private readonly store: Store,
    private readonly config: Configuration,
    readonly owner: string,
    private readonly clock: ClockPort,
  ) {
    this.notices = new Notices(store);
  }

  read(state: StoreState): QueueItem[] {
    const head = Math.max(2, state.queueHead);
    const raw = this.store.readTail(state, 'queue', head);
    const resolved = this.store.resolveOverflow(raw.map((r) => [r[PAYLOAD]]));
    return raw.map((r, i) => {
      const logical = r.slice();
      logical[PAYLOAD] = resolved[i][0];
      const item = queueItem(logical, head + i);
      return { ...item, rawPayload: String(r[PAYLOAD]), resolvedPayload: String(resolved[i][0]) } as Stored;
    });
  }

  write(c: Commit, item: QueueItem, marker: boolean): void {
    const values = queueRow(item);
    const q = item as Stored;
    if (q.rawPayload !== undefined && q.resolvedPayload === values[PAYLOAD]) values[PAYLOAD] = q.rawPayload;
    if (marker) c.setMarker('queue', item.row, values, `Queue:${item.id}`);
    else c.updateAfter('queue', item.row, values, `Queue:${item.id}`);
    // The head is the first row that may still be live: an item at the head that ends moves it on in the same
    // commit, so the next tick's idle check (one property read) sees an idle queue without claiming anything.
    if ((item.status === 'done' || item.status === 'dead') && c.state.queueHead === item.row)
      c.state.queueHead = item.row + 1;
  }

  enqueue<P extends object>(
    task: TaskKind<P>,
    payload: P,
    priority: Priority,
    dedupeKey = '',
    from = 'human',
  ): { id: string; duplicate: boolean } {
    return this.store.withLock((state) => {
      const items = dedupeKey ? this.read(state) : [];
      const now = this.clock.now();
      const c = this.store.begin(state);
      const dup = findDuplicate(items, dedupeKey);
      if (dup) {
        this.write(c, { ...dup, payload: payloadRow(task, payload), priority, updated_at: now }, true);
        c.audit({
          actor: from,
          event: 'enqueue_replaced',
          tab: 'Queue',
          row_key: dup.id,
          payload: { type: task.type, dedupe_key: dedupeKey },
        });
        c.run(new Date(now).toISOString());
        return { id: dup.id, duplicate: true };
      }
      const id = this.append(c, now, { task, payload, priority, from, dedupeKey, availableAt: now }, true);
      c.run(new Date(now).toISOString());
      return { id, duplicate: false };
    });
  }

  // A new item written by a commit that is already under the lock (a discussion's step that schedules follow-up
  // work in the same commit, so the step and its follow-up are written together or not at all).
  append<P extends object>(
    c: Commit,
    now: number,
    o: {
      task: TaskKind<P>;
      payload: P;
      priority: Priority;
      from: string;
      dedupeKey?: string;
      availableAt: number;
    },
    // The commit's final write (a commit of its own), or one row among the commit's others.
    marker = false,
  ): string {
    const id = `Q-${c.nextSeq('queue')}`;
    const item: QueueItem = {
      row: 0,
      id,
      type: o.task.type,
      from: o.from,
      to: 'council',
      priority: o.priority,
      payload: payloadRow(o.task, o.payload),
      status: 'queued',
      attempts: 0,
      available_at: o.availableAt,
      lease_owner: '',
      lease_until: 0,
      dedupe_key: o.dedupeKey ?? '',
      created_at: now,
      updated_at: now,
      last_error: '',
    };
    const placed = marker
      ? c.setMarker('queue', 'append', queueRow(item), `Queue:${id}`)
      : c.appendOne('queue', queueRow(item), `Queue:${id}`);
    c.audit({
      actor: o.from,
      event: 'enqueue',
      tab: 'Queue',
      row_key: id,
      payload: { type: o.task.type, priority: o.priority, row: placed.row },
    });
    return id;
  }

  // Claims the next item under the lock; an item whose type no handler knows is claimed to be marked failed.
  claimNext(known: (type: string) => boolean, step?: ClaimStep): Claimed | null {
    const s = this.config.settings();
    // The committed state says whether anything is left past the head: a queue whose every item is done (the last
    // commit moved the head past them, see close) is not read again under the lock.
    const committed = this.store.readState();
    if (queueSettled(committed)) return null;
    return this.store.withLock((state) => {
      const items = this.read(state);
      this.seen = items;
      const now = this.clock.now();
      const item = pickNext(items, now, {
        maxInProgress: s.number('limits.max_concurrent_discussions'),
        maxAttempts: s.number('queue.max_attempts'),
      });
      const head = advanceHead(items, state.queueHead);
      if (!item) {
        if (head !== state.queueHead) this.store.writeState({ ...state, queueHead: head });
        return null;
      }
      const malformed = item.payloadError ?? (known(item.type) ? null : `unknown task type "${item.type}"`);
      const counted = (claimed: QueueItem) => inProgressCount(items.map((i) => (i.id === claimed.id ? claimed : i)));
      const first =
        malformed || !step ? undefined : (claimed: QueueItem, c: Commit) => step(claimed, counted(claimed), c, items);
      const { claimed, outcome } = this.take(state, item, now, head, first);
      return { item: claimed, malformed, inProgress: counted(claimed), outcome };
    });
  }

  // One item by id, for an execution that enqueued work to do itself (the daily review): held under a lease as a
  // tick holds what it claims, so that should the execution die, a tick takes the item up once the lease runs out.
  // Null when it is not free, or another execution holds an item of the same dedupe key (that one does the work).
  claim(id: string): QueueItem | null {
    return this.store.withLock((state) => {
      const items = this.read(state);
      const now = this.clock.now();
      const item = items.find((i) => i.id === id);
      if (!item || (item.status !== 'queued' && !leaseExpired(item, now))) return null;
      const others = items.filter((i) => i.id !== id && i.dedupe_key === item.dedupe_key);
      if (item.dedupe_key && others.some((i) => leaseLive(i, now))) return null;
      return this.take(state, item, now, state.queueHead).claimed;
    });
  }

  // A task that the execution queueing it goes on to run (a request that waits for its discussion), claimed in the
  // enqueue's own commit `c` with its first step (ClaimStep), when the queue held nothing live before it: the task
  // is what a claim would take next, and one lock and one flush do what an enqueue and a claim did in two. `item`
  // is the new row as the commit placed it. Null when the step does not apply or throws: the caller then writes
  // the enqueue alone, in a fresh commit (this one may hold part of the step), and the task is claimed as usual.
  claimQueued(c: Commit, item: QueueItem, step: ClaimStep): Claimed | null {
    const claimed = this.leased(item, item.attempts + 1, item.created_at);
    let outcome: Outcome | null = null;
    try {
      outcome = step(claimed, 0, c, []);
    } catch {
      outcome = null;
    }
    if (!outcome) return null;
    // What close() moves the head past once the discussion ends: the queue as this claim knows it.
    this.seen = [claimed];
    return { item: claimed, malformed: null, inProgress: 0, outcome };
  }

  // `item` as held by this execution under a lease.
  private leased(item: QueueItem, attempts: number, now: number): QueueItem {
    return {
      ...item,
      status: 'processing',
      attempts,
      lease_owner: this.owner,
      lease_until: now + this.config.settings().number('queue.lease_seconds') * 1000,
      updated_at: now,
      payload:
        item.payload && item.type === TASK_KINDS.advance.type ? { ...item.payload, started: true } : item.payload,
    };
  }

  // Writes `item` as claimed by this execution, under a lease, in a commit of its own (under the caller's lock), or
  // lets the task's first step write it in that commit (ClaimStep).
  private take(
    state: StoreState,
    item: QueueItem,
    now: number,
    head: number,
    first?: (claimed: QueueItem, c: Commit) => Outcome | null,
  ): { claimed: QueueItem; outcome?: Outcome } {
    const expired = leaseExpired(item, now);
    const picked = expired ? reclaimedAfterExpiry(item, now) : item;
    const claimed = this.leased(picked, item.attempts + 1, now);
    const begin = () => {
      const c = this.store.begin(state);
      c.state.queueHead = head;
      // The second time in a row an execution died holding it, a person hears of it (once: the count only grows).
      if (expired && leaseExpiries(picked) === 2) this.tellExpired(c, picked);
      return c;
    };
    if (first) {
      // A commit that is never run writes nothing (begin works on a copy of the state).
      const c = begin();
      let outcome: Outcome | null = null;
      try {
        outcome = first(claimed, c);
      } catch {
        outcome = null;
      }
      if (outcome) {
        c.run(new Date(now).toISOString());
        return { claimed, outcome };
      }
    }
    const c = begin();
    this.write(c, claimed, true);
    c.run(new Date(now).toISOString());
    return { claimed };
  }

  // Marks the item done after the commit point of `c`, a commit that ends its work, and moves the queue's head past
  // it when every item before it was done as this execution last read them (done and dead stay so: a head moved on
  // stale statuses stops short at worst, never past an item that is not done).
  close(c: Commit, item: QueueItem): void {
    const done: QueueItem = {
      ...item,
      status: 'done',
      lease_owner: '',
      lease_until: 0,
      updated_at: this.clock.now(),
      last_error: '',
    };
    this.write(c, done, false);
    const items = this.seen.map((i) => (i.id === item.id ? done : i));
    c.state.queueHead = Math.max(c.state.queueHead, advanceHead(items, c.state.queueHead));
  }

  finish(item: QueueItem, outcome: Finished): void {
    if (outcome.kind === 'converted' || outcome.kind === 'finished' || outcome.kind === 'continue') return;
    const maxAttempts = this.config.settings().number('queue.max_attempts');
    this.store.withLock((state) => {
      const now = this.clock.now();
      const c = this.store.begin(state);
      const raw = this.store.readRows('queue', item.row, 1)[0];
      const current: QueueItem =
        queueCols.read(raw).id === item.id
          ? ({
              ...queueItem(raw, item.row),
              payload: item.payload,
              rawPayload: String(raw[PAYLOAD]),
              resolvedPayload: (item as Stored).resolvedPayload,
            } as Stored)
          : item;
      // Another execution took the item over after our lease ran out: leave it to that execution.
      if (current.lease_owner !== this.owner) return;
      const released = { ...current, lease_owner: '', lease_until: 0, updated_at: now };
      let told: (() => void) | null = null;
      let next: QueueItem;
      if (outcome.kind === 'done') next = { ...released, status: 'done', last_error: '' };
      else if (outcome.kind === 'requeue')
        next = {
          ...released,
          status: 'queued',
          available_at: Math.max(now, outcome.notBefore ?? now),
          attempts: outcome.progressed ? 0 : current.attempts,
          // Progress made: an earlier lease expiry is history, not a pattern to warn about.
          last_error: outcome.progressed ? '' : current.last_error,
        };
      else {
        const dead = current.attempts >= maxAttempts;
        next = {
          ...released,
          status: dead ? 'dead' : 'failed',
          available_at: now + backoffMs(current.attempts),
          last_error: outcome.error.slice(0, 2000),
        };
        // A failure that carries its own notice was told (once) already; the item's death adds nothing new.
        if (outcome.notice) told = this.notices.within(c, outcome.notice);
        else if (dead) this.tellDead(c, current, outcome.error);
      }
      this.write(c, next, true);
      c.run(new Date(now).toISOString());
      if (told) told();
    });
  }

  // A task whose executions keep dying (the 6-minute limit, a crash) will likely die again: say which, early.
  private tellExpired(c: Commit, item: QueueItem): void {
    this.notices.write(c, {
      title: `Task ${item.id} (${item.type}) lost its execution twice`,
      body: `${item.last_error}. It is re-delivered at priority ${item.priority}; if it keeps timing out, look for work that takes longer than an execution may run.`,
      priority: 'normal',
      discussion_id: String(item.payload?.discussion_id ?? ''),
    });
  }

  // A dead task is a person's problem: one Inbox row says which and why (an item dies once, so no memory is needed).
  private tellDead(c: Commit, item: QueueItem, error: string): void {
    this.notices.write(c, {
      title: `Task ${item.id} (${item.type}) is dead`,
      body: `After ${item.attempts} attempts: ${error.slice(0, 1500)}`,
      discussion_id: String(item.payload?.discussion_id ?? ''),
    });
  }
}
