// A commit writes the blocks of one tab that follow on from each other with one setValues, and never reorders writes.
import { describe, expect, it } from 'vitest';
import { joinRuns } from '../../../src/store/commit.js';

const b = (tab: 'orders' | 'audit' | 'queue', row: number, n = 1) => ({
  tab,
  row,
  rows: Array.from({ length: n }, (_, i) => [`${tab}${row + i}`]),
});

describe('joinRuns', () => {
  it('joins rows appended one by one into one block', () => {
    expect(joinRuns([b('orders', 5), b('orders', 6), b('orders', 7, 2)])).toEqual([
      { tab: 'orders', row: 5, rows: [['orders5'], ['orders6'], ['orders7'], ['orders8']] },
    ]);
  });

  it('joins a tab’s runs across other tabs’ blocks, keeping the tabs in their first order', () => {
    const out = joinRuns([b('orders', 5), b('queue', 3), b('orders', 6), b('audit', 10)]);
    expect(out.map((x) => [x.tab, x.row, x.rows.length])).toEqual([
      ['orders', 5, 2],
      ['queue', 3, 1],
      ['audit', 10, 1],
    ]);
  });

  it('never merges two writes of the same row, so the later one lands last', () => {
    const later = { tab: 'queue' as const, row: 3, rows: [['later']] };
    const out = joinRuns([b('queue', 3), b('queue', 4), later]);
    expect(out).toHaveLength(2);
    expect(out[1]).toBe(later);
    expect(out[0].rows).toEqual([['queue3'], ['queue4']]);
  });

  it('leaves blocks with a gap apart', () => {
    expect(joinRuns([b('orders', 5), b('orders', 7)])).toHaveLength(2);
  });
});
