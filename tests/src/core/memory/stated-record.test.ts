// The record of stated confidence an agent is shown, and the rule for stating a confidence in line with it.
import { describe, expect, it } from 'vitest';
import { inLineWithRecord, statedRecord } from '../../../../src/core/memory/stated-record.js';

const bins = (set: Record<number, [number, number]>) =>
  Array.from({ length: 10 }, (_, i): [number, number] => set[i] ?? [0, 0]);

describe('statedRecord', () => {
  it('shows the bands with at least the minimum of scored opinions, lowest first; none at 0', () => {
    const b = bins({ 3: [10, 20], 5: [2, 4], 8: [30, 60] });
    expect(statedRecord(b, 5)).toEqual([
      { from: 0.3, to: 0.4, right_rate: 0.5, opinions: 20 },
      { from: 0.8, to: 0.9, right_rate: 0.5, opinions: 60 },
    ]);
    expect(statedRecord(b, 0)).toEqual([]);
  });
});

describe('inLineWithRecord', () => {
  it('states a figure as it is with no record', () => {
    expect(inLineWithRecord(0.85, [])).toBe(0.85);
  });

  it('brings an overconfident band down toward its share right, the more the more opinions it holds', () => {
    const few = statedRecord(bins({ 8: [11, 20] }), 5);
    const many = statedRecord(bins({ 8: [110, 200] }), 5);
    expect(inLineWithRecord(0.85, few)).toBeLessThan(0.75);
    expect(inLineWithRecord(0.85, many)).toBeLessThan(inLineWithRecord(0.85, few));
    expect(inLineWithRecord(0.85, many)).toBeGreaterThanOrEqual(0.55);
  });

  it('never states lower for a higher inclination: an inverted top band pools with the one below', () => {
    const r = statedRecord(bins({ 5: [30, 60], 7: [130, 200], 8: [120, 200] }), 5);
    const read = [0.3, 0.55, 0.65, 0.75, 0.8, 0.85, 0.95].map((c) => inLineWithRecord(c, r));
    for (let i = 1; i < read.length; i++) expect(read[i]).toBeGreaterThanOrEqual(read[i - 1]);
    // 0.75 and 0.85 were right 65 % and 60 %: both are stated about the same, near their pooled share right.
    expect(Math.abs(inLineWithRecord(0.85, r) - inLineWithRecord(0.75, r))).toBeLessThanOrEqual(0.01);
  });
});
