// Per-day ids stay unique whatever the clock did, and name the day they were given on: a day counts on, never restarts.
import { describe, expect, it } from 'vitest';
import { addDays, DISCUSSION_ID, decisionId, discussionId, nextDaily } from '../../../../src/core/discussion/ids.js';

describe('nextDaily', () => {
  it('starts each new day at 1 and counts on within it', () => {
    const first = nextDaily(null, '2026-11-26');
    expect(first).toMatchObject({ day: '2026-11-26', seq: 1 });
    const second = nextDaily(first, '2026-11-26');
    expect(discussionId(second)).toBe('DISC-2026-11-26-002');
    expect(nextDaily(second, '2026-11-27')).toMatchObject({ day: '2026-11-27', seq: 1 });
  });

  it('names the day it is given on after the clock went back, and counts on within a day that already has ids', () => {
    // A run's simulated clock gave ids on 11-26 and 12-03, then real time came back to 11-26 (kaigi serve).
    let n = nextDaily(null, '2026-11-26');
    n = nextDaily(n, '2026-12-03');
    const given = [discussionId(n)];
    for (const today of ['2026-11-26', '2026-11-30', '2026-11-30', '2026-12-03', '2026-12-04']) {
      n = nextDaily(n, today);
      given.push(discussionId(n));
    }
    expect(given).toEqual([
      'DISC-2026-12-03-001',
      'DISC-2026-11-26-002',
      'DISC-2026-11-30-001',
      'DISC-2026-11-30-002',
      'DISC-2026-12-03-002',
      'DISC-2026-12-04-001',
    ]);
  });

  it('a sequence saved before it kept its days goes on after its last day for the days it cannot know', () => {
    const saved = { day: '2026-12-03', seq: 4 };
    // Before 12-03 it cannot tell which numbers were given: unique over dated.
    expect(decisionId(nextDaily(saved, '2026-11-26'))).toBe('DEC-2026-12-03-005');
    expect(decisionId(nextDaily(saved, '2026-12-03'))).toBe('DEC-2026-12-03-005');
    expect(decisionId(nextDaily(saved, '2026-12-05'))).toBe('DEC-2026-12-05-001');
  });

  it('remembers a bounded number of days and never repeats an id', () => {
    let n = nextDaily(null, '2026-01-01');
    const seen = new Set([discussionId(n)]);
    // Forward a day at a time for a hundred days, then back to the start of the year.
    for (let i = 1; i < 100; i++) {
      n = nextDaily(n, addDays('2026-01-01', i));
      seen.add(discussionId(n));
    }
    expect(Object.keys(n.days!).length).toBeLessThanOrEqual(40);
    n = nextDaily(n, '2026-01-02');
    expect(seen.has(discussionId(n))).toBe(false);
    expect(JSON.stringify(n).length).toBeLessThan(1200);
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
