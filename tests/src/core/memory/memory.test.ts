// Pure memory rules: verdicts from the forecast's error, confidence lifecycle, and when agents write to people.
import { describe, expect, it } from 'vitest';
import { applyVerdict, shouldNotify, type Learning } from '../../../../src/core/memory/memory.js';
import { evaluate } from '../../../../src/core/memory/outcomes.js';

const T = { confirmMaxError: 0.3, rejectMinError: 0.5, minDataPoints: 5 };
const kpi = (values: number[], start = '2026-01-01') =>
  values.map((v, i) => ({
    date: `2026-01-${String(Number(start.slice(8)) + i).padStart(2, '0')}`,
    member_id: 'm',
    metric: 'contacts',
    value: v,
  }));

describe('evaluate', () => {
  const crit = [{ metric: 'contacts', direction: 'increase' as const, target_change: 0.2, window_days: 7 }];
  it('confirms a recovery that meets the prediction and rejects one that misses it', () => {
    // Seven days before the decision on the 8th average 10; the prediction is 12.
    const before = [10, 10, 10, 10, 10, 10, 10, 10];
    expect(
      evaluate('m', crit, '2026-01-08', '2026-01-15', kpi(before.concat([12, 12, 12, 12, 12, 12, 12])), T),
    ).toMatchObject({ verdict: 'confirmed', error: 0, points: 7 });
    const missed = evaluate('m', crit, '2026-01-08', '2026-01-15', kpi(before.concat([6, 6, 6, 6, 6, 6, 6])), T);
    expect(missed.verdict).toBe('rejected');
    expect(missed.error).toBeCloseTo(1, 5);
    expect(
      evaluate('m', crit, '2026-01-08', '2026-01-15', kpi(before.concat([8.5, 8.5, 8.5, 8.5, 8.5, 8.5, 8.5])), T)
        .verdict,
    ).toBe('inconclusive');
  });
  it('is inconclusive below the minimum sample size', () => {
    expect(
      evaluate('m', crit, '2026-01-08', '2026-01-11', kpi([10, 10, 10, 10, 10, 10, 10, 10, 12, 12, 12]), T),
    ).toMatchObject({ verdict: 'inconclusive', points: 3 });
  });
});

describe('learning lifecycle', () => {
  const base: Learning = {
    row: 2,
    learning_id: 'LRN-1',
    scope: 'individual',
    agent_id: 'psychology',
    category: 'PRAISE_INCREASE',
    content: 'x',
    context: '{}',
    confidence: 0.5,
    times_applied: 3,
    times_successful: 0,
    is_active: true,
    source: '',
    embedding: '',
    embedding_model: '',
  };
  const r = {
    initial: 0.5,
    confirmStep: 0.1,
    rejectStep: 0.15,
    inconclusiveStep: 0.02,
    ceiling: 0.95,
    floor: 0.05,
    deactivateBelow: 0.2,
    promoteAfter: 10,
    autoPromote: true,
    mergeSimilarity: 0.85,
  };
  it('rises with confirmed use, falls with rejected use, and is deactivated (kept) below 0.2', () => {
    expect(applyVerdict(base, 'confirmed', r).confidence).toBe(0.55);
    expect(applyVerdict(base, 'inconclusive', r)).toEqual({ ...base, confidence: 0.52 });
    let l = base;
    for (let i = 0; i < 6; i++) l = applyVerdict(l, 'rejected', r);
    expect(l).toMatchObject({ is_active: false, learning_id: 'LRN-1' });
    expect(l.confidence).toBeLessThan(0.2);
  });
  it('promotes an individual learning to shared at ten successes', () => {
    const l = applyVerdict({ ...base, times_successful: 9 }, 'confirmed', r);
    expect(l).toMatchObject({ scope: 'shared', agent_id: '', times_successful: 10 });
  });
});

describe('agent → person messages', () => {
  it('speaks when the self score falls three times in a row or the same point recurs, once per condition', () => {
    expect(
      shouldNotify([
        { self_score: 7, to_improve: 'a' },
        { self_score: 6, to_improve: 'b' },
        { self_score: 5, to_improve: 'c' },
      ])?.type,
    ).toBe('struggle');
    expect(
      shouldNotify([
        { self_score: 7, to_improve: 'a' },
        { self_score: 7, to_improve: 'a' },
      ]),
    ).toBeNull();
    const same = [
      { self_score: 5, to_improve: 'x' },
      { self_score: 6, to_improve: 'x' },
      { self_score: 7, to_improve: 'x' },
    ];
    expect(shouldNotify(same)?.reason).toMatch(/same point to improve/);
    expect(shouldNotify(same.concat([{ self_score: 7, to_improve: 'x' }]))).toBeNull();
  });
});
