// Per-day ids stay unique and in order whatever the clock did: a day already passed by a later one never restarts.
import { describe, expect, it } from 'vitest';
import { DISCUSSION_ID, decisionId, discussionId, nextDaily } from '../../../../src/core/discussion/ids.js';

describe('nextDaily', () => {
  it('starts each new day at 1 and counts on within it', () => {
    const first = nextDaily(null, '2026-11-26');
    expect(first).toEqual({ day: '2026-11-26', seq: 1 });
    const second = nextDaily(first, '2026-11-26');
    expect(discussionId(second)).toBe('DISC-2026-11-26-002');
    expect(nextDaily(second, '2026-11-27')).toEqual({ day: '2026-11-27', seq: 1 });
  });

  it('never goes back to an earlier day: after DISC-2026-12-03-001, 2026-11-26 gets DISC-2026-12-03-002', () => {
    // A run fast-forwarded the clock to the review date, then real time came back (kaigi serve).
    const ahead = { day: '2026-12-03', seq: 1 };
    const next = nextDaily(ahead, '2026-11-26');
    expect(discussionId(next)).toBe('DISC-2026-12-03-002');
    expect(discussionId(next) > discussionId(ahead)).toBe(true);
    // Each id after it is new and sorts after the one before, until real time passes the day.
    const ids = [ahead];
    for (const today of ['2026-11-26', '2026-11-30', '2026-12-03', '2026-12-04', '2026-12-04'])
      ids.push(nextDaily(ids[ids.length - 1], today));
    const text = ids.map(decisionId);
    expect(text).toEqual([
      'DEC-2026-12-03-001',
      'DEC-2026-12-03-002',
      'DEC-2026-12-03-003',
      'DEC-2026-12-03-004',
      'DEC-2026-12-04-001',
      'DEC-2026-12-04-002',
    ]);
    expect([...text].sort()).toEqual(text);
  });
});

describe('DISCUSSION_ID', () => {
  it('accepts every id discussionId makes, past sequence 999 too, and nothing else', () => {
    for (const seq of [1, 42, 999, 1000])
      expect(DISCUSSION_ID.test(discussionId({ day: '2026-11-27', seq }))).toBe(true);
    for (const bad of ['DEC-2026-11-27-001', 'DISC-2026-11-27-01', 'DISC-2026-11-27', 'xDISC-2026-11-27-001'])
      expect(DISCUSSION_ID.test(bad), bad).toBe(false);
  });
});
