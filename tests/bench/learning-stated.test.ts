// Stated and computed confidence per agent on opinions whose answers are known: the bins, which are in order, and
// how many agents' stated bins are.
import { describe, expect, it } from 'vitest';
import { type ScoredOpinion, statedReport } from '../../bench/learning-stated.js';

// n opinions of `agent` stated at `stated` (computed at `computed`), `right` of them right.
const ops = (agent: string, stated: number, computed: number, n: number, right: number): ScoredOpinion[] =>
  Array.from({ length: n }, (_, i) => ({ agent, confidence: stated, computed, right: i < right }));

describe('statedReport', () => {
  const r = statedReport([
    // In order by both: 0.3 right 30 %, 0.7 right 70 %.
    ...ops('good', 0.3, 0.3, 20, 6),
    ...ops('good', 0.7, 0.7, 20, 14),
    // Inverted at the top by what it stated (0.9 right 40 % under 0.5's 60 %), in order by what was computed.
    ...ops('proud', 0.5, 0.65, 30, 18),
    ...ops('proud', 0.9, 0.45, 30, 12),
    // A bin of 5 is too thin to count against the order.
    ...ops('thin', 0.5, 0.5, 40, 24),
    ...ops('thin', 0.9, 0.9, 5, 0),
  ]);

  it('bins each agent by what it stated and by what was computed', () => {
    expect(Object.keys(r.bins_per_agent)).toEqual(['good', 'proud', 'thin']);
    const proud = r.bins_per_agent.proud;
    expect(proud.stated[4]).toMatchObject({ n: 30, mean_confidence: 0.9, right_rate: 0.4 });
    expect(proud.computed[3]).toMatchObject({ n: 30, mean_confidence: 0.65, right_rate: 0.6 });
  });

  it('tells which agents are in order, bins of at least 20 opinions only, and counts the stated ones', () => {
    const m = Object.fromEntries(
      Object.entries(r.bins_per_agent).map(([a, b]) => [a, [b.stated_monotone, b.computed_monotone]]),
    );
    expect(m).toEqual({ good: [true, true], proud: [false, true], thin: [true, true] });
    expect(r.stated_bins_monotone_agents).toBe(2);
    expect(r.bins_per_agent.thin.stated_bins_tested).toBe(1);
    expect(r.bins_per_agent.good.stated_bins_tested).toBe(2);
  });
});
