// Checking a decision against reality on its review date (seed 003 §17.1): prediction error and verdict.
import { addDays } from './ids.js';
import type { SuccessCriterion } from './messages.js';
import { mean, series } from './kpi.js';
import type { Settings } from './settings.js';
import type { KpiRow } from './types.js';

export const VERDICTS = ['confirmed', 'rejected', 'inconclusive'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Thresholds {
  confirmMaxError: number;
  rejectMinError: number;
  minDataPoints: number;
}

interface Measured {
  metric: string;
  baseline: number;
  predicted: number;
  actual: number;
  error: number;
  points: number;
}

export interface Evaluation {
  verdict: Verdict;
  error: number;
  points: number;
  measured: Measured[];
}

// The verdict thresholds as Settings holds them (SPEC §8.3).
export function thresholdsOf(s: Settings): Thresholds {
  return {
    confirmMaxError: s.number('outcome.confirm_max_error'),
    rejectMinError: s.number('outcome.reject_min_error'),
    minDataPoints: s.number('outcome.min_data_points'),
  };
}

// Relative error as the seed defines it, with both-zero a match and a non-zero guess against zero the worst.
function relativeError(predicted: number, actual: number): number {
  if (actual === 0) return predicted === 0 ? 0 : 1;
  return Math.abs(predicted - actual) / Math.abs(actual);
}

// The baseline is the window before the decision; the actual value is the window ending on the review date.
export function evaluate(
  member: string,
  criteria: SuccessCriterion[],
  decisionDay: string,
  reviewDay: string,
  kpi: readonly KpiRow[],
  t: Thresholds,
): Evaluation {
  const measured: Measured[] = [];
  for (const c of criteria) {
    const s = series(kpi, member, c.metric);
    const before = s.filter((p) => p.date < decisionDay && p.date >= addDays(decisionDay, -c.window_days));
    const after = s.filter(
      (p) => p.date > decisionDay && p.date <= reviewDay && p.date > addDays(reviewDay, -c.window_days),
    );
    const baseline = mean(before.map((p) => p.value));
    const actual = mean(after.map((p) => p.value));
    const predicted = c.direction === 'increase' ? baseline * (1 + c.target_change) : baseline * (1 - c.target_change);
    measured.push({
      metric: c.metric,
      baseline,
      predicted,
      actual,
      error: after.length ? relativeError(predicted, actual) : 1,
      points: Math.min(before.length, after.length),
    });
  }
  const points = measured.length ? Math.min(...measured.map((m) => m.points)) : 0;
  const error = measured.length ? mean(measured.map((m) => m.error)) : 1;
  let verdict: Verdict =
    error <= t.confirmMaxError ? 'confirmed' : error >= t.rejectMinError ? 'rejected' : 'inconclusive';
  if (points < t.minDataPoints) verdict = 'inconclusive';
  return { verdict, error: Math.round(error * 1000) / 1000, points, measured };
}
