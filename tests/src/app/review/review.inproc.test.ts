// The daily review in-process: nothing is due before an order's review date; on it, the decision is evaluated once
// (an Outcomes row, the discussion CLOSED) and the next run finds nothing due.
import { describe, expect, it } from 'vitest';
import { dueNow, runDailyReview } from '../../../../src/app/review/review.js';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { decline, kaigi, settle, statuses } from '../inproc.js';

const DAY = 86_400_000;

describe('the daily review in-process', () => {
  it('evaluates a decision once, on its review date', () => {
    const k = kaigi();
    const { discussion_id: id } = startDiscussion(decline('tanaka'), k.council());
    settle(k);
    expect(statuses(k)[id]).toBe('DECIDED');
    expect(dueNow(k.council())).toEqual([]);
    const review = new Date(k.records('orders')[0].review_date as Date).getTime();
    expect(review).toBeGreaterThan(Date.now());
    k.advance(review - Date.now() + DAY / 2);
    expect(dueNow(k.council()).map((d) => d.discussion_id)).toEqual([id]);
    const r = runDailyReview(k.council(), Date.now() + 120_000);
    expect([r.evaluated.length, r.left]).toEqual([1, 0]);
    expect(k.records('outcomes').map((o) => o.discussion_id)).toEqual([id]);
    expect(statuses(k)[id]).toBe('CLOSED');
    // The review item was claimed and finished in the same run: nothing of it is left in the queue.
    expect(k.records('queue').filter((q) => q.type === 'review.run' && q.status !== 'done')).toEqual([]);
    expect(runDailyReview(k.council(), Date.now() + 120_000).evaluated).toEqual([]);
    expect(k.records('outcomes')).toHaveLength(1);
  });
});
