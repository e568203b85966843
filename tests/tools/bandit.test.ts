// The bandit arm's Thompson sampling: the top k allowed actions by one posterior draw each.
import { describe, expect, it } from 'vitest';
import { thompsonTop } from '../../tools/bandit.js';
import { seededRandom } from '../../tools/seeded-random.js';

const ALLOW = ['A', 'B', 'C', 'D'];

describe('thompsonTop', () => {
  it('gives k distinct allowed actions', () => {
    const rand = seededRandom(7);
    for (const k of [1, 3]) {
      const top = thompsonTop(ALLOW, {}, rand, k);
      expect(top).toHaveLength(k);
      expect(new Set(top).size).toBe(k);
      for (const a of top) expect(ALLOW).toContain(a);
    }
  });

  it('puts an action with a strong record first, then the untried one before those that always failed', () => {
    const rand = seededRandom(3);
    const record: Record<string, [number, number]> = { C: [300, 0], A: [0, 300], D: [0, 300] };
    const tops = Array.from({ length: 50 }, () => thompsonTop(ALLOW, record, rand, 2).join());
    // A draw is a draw: B's flat posterior beats C's now and then, but A and D (300 failures) never get in.
    expect(tops.filter((t) => t === 'C,B').length).toBeGreaterThanOrEqual(45);
    expect(tops.filter((t) => t.indexOf('A') >= 0 || t.indexOf('D') >= 0)).toEqual([]);
  });
});
