// The learning benchmark's other worlds: which runs it asks for, and the shape of `second_world` and `trust_family`.
import { describe, expect, it } from 'vitest';
import { EXTRA_ACTION_COST } from '../../bench/learning-by-k.js';
import { worldJobs, worldsReport } from '../../bench/learning-worlds.js';

const pooled = (confirmed: number, rejected: number) => ({
  verdicts: [
    ...Array.from({ length: confirmed }, (_, i) => ({ cluster: `c${i % 10}`, verdict: 'confirmed' })),
    ...Array.from({ length: rejected }, (_, i) => ({ cluster: `c${i % 10}`, verdict: 'rejected' })),
  ],
  tokens: 1000,
  discussions: 10,
});

describe('worldJobs', () => {
  it('runs the four arms at k = 1 and 3 in the second world, and weights on and off in two worlds, on every seed', () => {
    const jobs = worldJobs([1, 2], 360);
    expect(jobs).toHaveLength(2 * 4 * 2 + 2 * 2 * 2);
    const second = jobs.filter((j) => j.world === 'second');
    expect(second).toHaveLength(16);
    expect(new Set(second.map((j) => j.extraActionCost))).toEqual(new Set([EXTRA_ACTION_COST]));
    expect(new Set(second.map((j) => j.k))).toEqual(new Set([1, 3]));
    const trust = jobs.filter((j) => j.key.startsWith('weights:trust:'));
    expect(trust.map((j) => [j.world, j.settings?.['learning.reliability_weights']])).toEqual([
      ['trust', 'true'],
      ['trust', 'true'],
      ['trust', 'false'],
      ['trust', 'false'],
    ]);
    // The main world's comparison runs in the main world: no world named, as every other main-world job.
    expect(jobs.filter((j) => j.key.startsWith('weights:main:')).every((j) => j.world === undefined)).toBe(true);
  });
});

describe('worldsReport', () => {
  it('gives second_world the keys of by_k, and trust_family weights on and off with their interval', () => {
    const seen: string[] = [];
    const r = worldsReport((key) => {
      seen.push(key);
      return key.endsWith(':on') ? pooled(60, 40) : pooled(50, 50);
    });
    expect(Object.keys(r.second_world)).toEqual(['1', '3']);
    for (const line of Object.values(r.second_world))
      expect(Object.keys(line).sort()).toEqual(
        [
          'bandit',
          'diff_ci95',
          'gap_closed',
          'memory',
          'no_memory',
          'oracle',
          'tokens_memory',
          'tokens_no_memory',
        ].sort(),
      );
    expect(seen).toContain(`by_k:second:${EXTRA_ACTION_COST}:3:oracle`);
    const t = r.trust_family;
    expect(t).toMatchObject({ weights_on: 0.6, weights_off: 0.5, verdicts_on: 100, verdicts_off: 100 });
    expect(t.diff_ci95[0]).toBeLessThanOrEqual(0.1);
    expect(t.diff_ci95[1]).toBeGreaterThanOrEqual(0.1);
    expect(typeof t.default_off).toBe('boolean');
    expect(t.default_off).toBe(true);
    expect(t.main_world).toMatchObject({ weights_on: 0.6, weights_off: 0.5 });
  });
});
