// The equal-budget part of the learning benchmark: which runs it asks for, and how a budget's line is computed.
import { describe, expect, it } from 'vitest';
import { budgetJobs, budgetLine, budgetReport, EXTRA_ACTION_COST } from '../../bench/learning-by-k.js';

const pooled = (confirmed: number, rejected: number, tokens = 0) => ({
  verdicts: [
    ...Array.from({ length: confirmed }, (_, i) => ({ cluster: `c${i % 10}`, verdict: 'confirmed' })),
    ...Array.from({ length: rejected }, (_, i) => ({ cluster: `c${i % 10}`, verdict: 'rejected' })),
  ],
  tokens,
  discussions: 10,
});

describe('budgetJobs', () => {
  it('runs every arm at k = 1 and k = 3, at no cost and at the default cost, on every seed', () => {
    const jobs = budgetJobs([101, 102], 360);
    expect(jobs).toHaveLength(2 * 2 * 4 * 2);
    const memory3 = jobs.filter((j) => j.key === `by_k:${EXTRA_ACTION_COST}:3:memory`);
    expect(memory3.map((j) => [j.seed, j.k, j.extraActionCost, j.policy])).toEqual([
      [101, 3, 0.15, 'council'],
      [102, 3, 0.15, 'council'],
    ]);
    const noMemory = jobs.find((j) => j.key === 'by_k:0:1:no_memory');
    expect(noMemory?.settings).toEqual({ 'memory.enabled': 'false' });
    expect(noMemory?.extraActionCost).toBe(0);
  });
});

describe('budgetLine', () => {
  it('reports the rates, the share of the gap to the oracle memory closes, and tokens a discussion', () => {
    const arms: Record<string, ReturnType<typeof pooled>> = {
      memory: pooled(60, 40, 2500),
      no_memory: pooled(40, 60, 2000),
      bandit: pooled(20, 80),
      oracle: pooled(80, 20),
    };
    const line = budgetLine((a) => arms[a]);
    expect(line).toMatchObject({ memory: 0.6, no_memory: 0.4, bandit: 0.2, oracle: 0.8, gap_closed: 0.5 });
    expect(line.tokens_memory).toBe(250);
    expect(line.tokens_no_memory).toBe(200);
    expect(line.diff_ci95[0]).toBeLessThanOrEqual(0.2);
    expect(line.diff_ci95[1]).toBeGreaterThanOrEqual(0.2);
  });

  it('keys by_k by budget at the default cost and by_cost["0"] at no cost', () => {
    const seen: string[] = [];
    const r = budgetReport((key) => {
      seen.push(key);
      return pooled(1, 1);
    });
    expect(Object.keys(r.by_k)).toEqual(['1', '3']);
    expect(Object.keys(r.by_cost['0'])).toEqual(['1', '3']);
    expect(r.extra_action_cost).toBe(0.15);
    expect(seen).toContain('by_k:0.15:3:oracle');
    expect(seen).toContain('by_k:0:1:bandit');
  });
});
