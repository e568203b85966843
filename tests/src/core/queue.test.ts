// The queue's rules: priority then age, one live lease per discussion, the in-progress cap, dedupe, backoff.
import { describe, expect, it } from 'vitest';
import {
  advanceHead,
  MIN_NUDGE_DELAY_MS,
  nudgeDelay,
  backoffMs,
  findDuplicate,
  inProgressCount,
  isStarted,
  leaseExpiries,
  pickNext,
  type QueueItem,
  reclaimedAfterExpiry,
} from '../../../src/core/queue.js';

const NOW = 1_000_000;
const LIMITS = { maxInProgress: 10, maxAttempts: 3 };
let row = 1;
function item(o: Partial<QueueItem> = {}): QueueItem {
  row++;
  return {
    row,
    id: `Q${row}`,
    type: 'discussion.open',
    from: 'watcher',
    to: 'council',
    priority: 'MEDIUM',
    payload: {},
    status: 'queued',
    attempts: 0,
    available_at: 0,
    lease_owner: '',
    lease_until: 0,
    dedupe_key: '',
    created_at: 100,
    updated_at: 100,
    last_error: '',
    ...o,
  };
}
const ids = (items: QueueItem[]) => items.map((i) => i.id);
// Claims one after another, as successive ticks would, marking each done.
function drain(items: QueueItem[]): string[] {
  const left = items.map((i) => ({ ...i }));
  const out: string[] = [];
  for (let next = pickNext(left, NOW, LIMITS); next; next = pickNext(left, NOW, LIMITS)) {
    out.push(next.id);
    next.status = 'done';
  }
  return out;
}

describe('pickNext', () => {
  it('takes the highest priority first, then the oldest, then the earliest row', () => {
    const items = [
      item({ id: 'low-old', priority: 'LOW', created_at: 1 }),
      item({ id: 'med-new', priority: 'MEDIUM', created_at: 50 }),
      item({ id: 'crit', priority: 'CRITICAL', created_at: 90 }),
      item({ id: 'med-old', priority: 'MEDIUM', created_at: 10 }),
      item({ id: 'high', priority: 'HIGH', created_at: 99 }),
      item({ id: 'med-old-2', priority: 'MEDIUM', created_at: 10 }),
    ];
    expect(drain(items)).toEqual(['crit', 'high', 'med-old', 'med-old-2', 'med-new', 'low-old']);
  });

  it('waits for available_at and skips finished and exhausted work', () => {
    const items = [
      item({ id: 'later', available_at: NOW + 1 }),
      item({ id: 'now', available_at: NOW, created_at: 500 }),
      item({ id: 'done', status: 'done', priority: 'CRITICAL' }),
      item({ id: 'dead', status: 'dead', priority: 'CRITICAL' }),
      item({ id: 'failed-out', status: 'failed', attempts: 3, priority: 'CRITICAL' }),
      item({ id: 'failed-retry', status: 'failed', attempts: 2, created_at: 600 }),
    ];
    expect(drain(items)).toEqual(['now', 'failed-retry']);
  });

  it('re-claims an expired lease, never a live one, and never two leases on one discussion', () => {
    const live = item({ id: 'live', status: 'processing', lease_until: NOW + 1, payload: { discussion_id: 'D1' } });
    const expired = item({ id: 'expired', status: 'processing', lease_until: NOW, payload: { discussion_id: 'D2' } });
    const sameDisc = item({ id: 'same', priority: 'CRITICAL', payload: { discussion_id: 'D1' } });
    const other = item({ id: 'other', created_at: 1, payload: { discussion_id: 'D3' } });
    // The expired one is re-delivered one priority higher, so before the older item of its old priority.
    expect(pickNext([live, expired, sameDisc, other], NOW, LIMITS)?.id).toBe('expired');
    expect(pickNext([live, sameDisc, other], NOW, LIMITS)?.id).toBe('other');
    expect(pickNext([live, sameDisc], NOW, LIMITS)).toBeNull();
    expect(pickNext([{ ...live, lease_until: NOW }, sameDisc], NOW, LIMITS)?.id).toBe('same');
  });

  it('starts no new discussion past the in-progress cap, but keeps advancing started ones', () => {
    const started = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        item({
          id: `s${i}`,
          type: 'discussion.advance',
          status: 'queued',
          created_at: 500,
          payload: { discussion_id: `S${i}`, started: true },
        }),
      );
    const fresh = item({
      id: 'fresh',
      type: 'discussion.advance',
      priority: 'CRITICAL',
      payload: { discussion_id: 'N', started: false },
    });
    const open = item({ id: 'open', type: 'discussion.open', priority: 'CRITICAL', created_at: 1 });
    expect(pickNext([...started(9), fresh], NOW, LIMITS)?.id).toBe('fresh');
    expect(pickNext([...started(10), fresh], NOW, LIMITS)?.id).toBe('s0');
    expect(pickNext([...started(10), fresh, open], NOW, LIMITS)?.id).toBe('open');
    expect(pickNext([...started(2), fresh], NOW, { ...LIMITS, maxInProgress: 2 })?.id).toBe('s0');
  });
});

describe('in-progress count', () => {
  it('counts started discussion.advance items that are queued or processing', () => {
    const items = [
      item({ type: 'discussion.advance', payload: { started: true } }),
      item({ type: 'discussion.advance', status: 'processing', payload: { started: true } }),
      item({ type: 'discussion.advance', status: 'done', payload: { started: true } }),
      item({ type: 'discussion.advance', status: 'failed', payload: { started: true } }),
      item({ type: 'discussion.advance', payload: { started: false } }),
      item({ type: 'discussion.advance', payload: null }),
      item({ type: 'objection.process', payload: { started: true } }),
    ];
    expect(items.map(isStarted)).toEqual([true, true, false, false, false, false, false]);
    expect(inProgressCount(items)).toBe(2);
  });
});

describe('findDuplicate', () => {
  it('finds the queued item with the same key, so the newer one replaces it', () => {
    const a = item({ id: 'a', dedupe_key: 'watch:tanaka:contacts' });
    const b = item({ id: 'b', dedupe_key: 'watch:sato:contacts' });
    expect(findDuplicate([a, b], 'watch:tanaka:contacts')?.id).toBe('a');
    expect(findDuplicate([a, b], 'watch:ito:contacts')).toBeNull();
    expect(findDuplicate([item({ dedupe_key: '' })], '')).toBeNull();
  });

  it('ignores items already claimed or finished', () => {
    const key = 'k';
    for (const status of ['processing', 'done', 'failed', 'dead'] as const)
      expect(findDuplicate([item({ dedupe_key: key, status })], key)).toBeNull();
    expect(
      ids([
        findDuplicate(
          [item({ id: 'p', dedupe_key: key, status: 'processing' }), item({ id: 'q', dedupe_key: key })],
          key,
        )!,
      ]),
    ).toEqual(['q']);
  });
});

describe('backoffMs', () => {
  it('doubles from one minute and stops at an hour', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map(backoffMs)).toEqual([
      60_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
  });
});

describe('advanceHead', () => {
  it('moves past leading finished rows only', () => {
    const at = (r: number, status: QueueItem['status']) => item({ row: r, status });
    expect(advanceHead([at(2, 'done'), at(3, 'dead'), at(4, 'queued'), at(5, 'done')], 2)).toBe(4);
    expect(advanceHead([at(4, 'done'), at(2, 'done'), at(3, 'done')], 2)).toBe(5);
    expect(advanceHead([at(2, 'failed'), at(3, 'done')], 2)).toBe(2);
    expect(advanceHead([at(2, 'done'), at(5, 'done')], 2)).toBe(3);
    expect(advanceHead([at(2, 'processing'), at(3, 'done')], 3)).toBe(4);
  });
});

describe('an item whose execution died (re-delivered one priority higher)', () => {
  it('is picked before older items of its own priority, as if one priority higher', () => {
    const older = item({ id: 'older', priority: 'HIGH', created_at: 10 });
    const died = item({ id: 'died', status: 'processing', priority: 'MEDIUM', lease_until: NOW - 1, created_at: 50 });
    const fresh = item({ id: 'fresh', priority: 'MEDIUM', created_at: 20 });
    // MEDIUM raised to HIGH, and the older HIGH item still goes first; the died one before the fresh MEDIUM one.
    expect(pickNext([fresh, died, older], NOW, LIMITS)?.id).toBe('older');
    expect(pickNext([fresh, died], NOW, LIMITS)?.id).toBe('died');
    // A live lease is not re-delivered.
    expect(pickNext([{ ...died, lease_until: NOW + 1 }], NOW, LIMITS)).toBeNull();
  });

  it('is claimed one priority higher, counting expiries in a row in last_error', () => {
    const died = item({ status: 'processing', priority: 'LOW', lease_owner: 'exec-1', lease_until: NOW - 1 });
    const once = reclaimedAfterExpiry(died, NOW);
    expect(once.priority).toBe('MEDIUM');
    expect(leaseExpiries(once)).toBe(1);
    expect(once.last_error).toMatch(/^lease expired \(1\): exec-1 held it until /);
    const twice = reclaimedAfterExpiry({ ...once, status: 'processing', lease_until: NOW - 1 }, NOW);
    expect([twice.priority, leaseExpiries(twice)]).toEqual(['HIGH', 2]);
    const top = reclaimedAfterExpiry({ ...twice, priority: 'CRITICAL' }, NOW);
    expect([top.priority, leaseExpiries(top)]).toEqual(['CRITICAL', 3]);
    expect(leaseExpiries(item({ last_error: 'something else' }))).toBe(0);
  });
});

describe('the nudge delay (queue.nudge_delay_ms, fed to after())', () => {
  it('is at least MIN_NUDGE_DELAY_MS, in whole ms; a value that is no number gives the minimum', () => {
    expect(nudgeDelay(2500)).toBe(2500);
    expect(nudgeDelay(1500.7)).toBe(1500);
    for (const v of [-1, 0, 999, Number.NaN, Number.POSITIVE_INFINITY])
      expect(nudgeDelay(v), String(v)).toBe(MIN_NUDGE_DELAY_MS);
    expect(MIN_NUDGE_DELAY_MS).toBe(1000);
  });
});
