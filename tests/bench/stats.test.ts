// The learning benchmark's statistics on data whose answers are known: rates, the paired cluster bootstrap,
// Brier scores and reliability bins.
import { describe, expect, it } from 'vitest';
import { bootstrapDiff, brier, conclusive, confirmedRate, reliability } from '../../bench/stats.js';

const verdicts = (cluster: string, confirmed: number, rejected: number, inconclusive = 0) => [
  ...Array.from({ length: confirmed }, () => ({ cluster, verdict: 'confirmed' })),
  ...Array.from({ length: rejected }, () => ({ cluster, verdict: 'rejected' })),
  ...Array.from({ length: inconclusive }, () => ({ cluster, verdict: 'inconclusive' })),
];

describe('confirmedRate', () => {
  it('is confirmed over confirmed and rejected; inconclusive verdicts say nothing', () => {
    const vs = verdicts('a', 3, 1, 5);
    expect(confirmedRate(vs)).toBe(0.75);
    expect(conclusive(vs)).toBe(4);
    expect(confirmedRate([])).toBe(0);
  });
});

describe('bootstrapDiff', () => {
  const many = (rate: number, prefix: string) =>
    Array.from({ length: 40 }, (_, i) =>
      verdicts(`${prefix}${i}`, Math.round(10 * rate), 10 - Math.round(10 * rate)),
    ).flat();

  it('lies above 0 when one arm is clearly better, and is repeatable', () => {
    const ci = bootstrapDiff(many(0.6, 'm'), many(0.3, 'm'));
    expect(ci[0]).toBeGreaterThan(0);
    expect(ci[0]).toBeLessThanOrEqual(0.3);
    expect(ci[1]).toBeGreaterThanOrEqual(0.3);
    expect(bootstrapDiff(many(0.6, 'm'), many(0.3, 'm'))).toEqual(ci);
  });

  it('straddles 0 when the arms differ by member noise alone', () => {
    // Half the members do well in both arms and half badly: the same rate, so the interval holds 0.
    const arm = Array.from({ length: 40 }, (_, i) => verdicts(`m${i}`, i % 2 ? 8 : 2, i % 2 ? 2 : 8)).flat();
    const [lo, hi] = bootstrapDiff(arm, arm);
    expect(lo).toBeLessThanOrEqual(0);
    expect(hi).toBeGreaterThanOrEqual(0);
  });

  it('resamples members, not verdicts: members unlike each other make a wider interval', () => {
    // Arm A: ten members, half doing very well and half very badly; arm B: all middling. Counting each verdict
    // as independent would understate how much the result rests on which members there are.
    const a = Array.from({ length: 10 }, (_, i) => verdicts(`m${i}`, i % 2 ? 45 : 5, i % 2 ? 5 : 45)).flat();
    const b = Array.from({ length: 10 }, (_, i) => verdicts(`m${i}`, 25, 25)).flat();
    const byMember = bootstrapDiff(a, b);
    const byVerdict = bootstrapDiff(
      a.map((v, i) => ({ ...v, cluster: `a${i}` })),
      b.map((v, i) => ({ ...v, cluster: `a${i}` })),
    );
    expect(byMember[1] - byMember[0]).toBeGreaterThan(2 * (byVerdict[1] - byVerdict[0]));
    expect(bootstrapDiff([], [])).toEqual([0, 0]);
  });
});

describe('brier and reliability', () => {
  it('scores 0 for certain right answers, 1 for certain wrong ones, 0.25 for a constant 0.5', () => {
    expect(brier([{ confidence: 1, right: true }])).toBe(0);
    expect(brier([{ confidence: 1, right: false }])).toBe(1);
    expect(
      brier([
        { confidence: 0.5, right: true },
        { confidence: 0.5, right: false },
      ]),
    ).toBe(0.25);
    expect(brier([])).toBe(0);
  });

  it('bins stated confidence and reports the share right in each bin', () => {
    const xs = [
      { confidence: 0.1, right: false },
      { confidence: 0.3, right: true },
      { confidence: 0.35, right: false },
      { confidence: 0.9, right: true },
      { confidence: 1, right: true },
    ];
    const bins = reliability(xs);
    expect(bins.map((b) => b.n)).toEqual([1, 2, 0, 0, 2]);
    expect(bins[1]).toEqual({ from: 0.2, to: 0.4, n: 2, mean_confidence: 0.325, right_rate: 0.5 });
    expect(bins[4].right_rate).toBe(1);
  });
});
