// Checking a decision against reality on its review date: prediction error and verdict.
import { addDays } from '../discussion/ids.js';
import type { SuccessCriterion } from '../discussion/messages.js';
import { mean, series } from '../orders/kpi.js';
import type { ReadsSetting } from '../setting-def.js';
import type { KpiRow } from '../types.js';
import { type EffectResult, effectOf } from './effect.js';
import { metricTable } from '../orders/metric-table.js';
import { VERDICTS } from '../discussion/vocab.js';

export { VERDICTS };
export type Verdict = (typeof VERDICTS)[number];

export interface Thresholds {
  confirmMaxError: number;
  rejectMinError: number;
  minDataPoints: number;
  // outcome.effect_min_share, and each metric's good direction from the metric table (absent: 0.5, and the
  // criterion's own direction).
  effectShare?: number;
  good?: (metric: string) => 'up' | 'down' | null;
}

// `actual` and `error` are null when the review window holds no KPI row for the metric: there is nothing to measure,
// which is not the same as an actual of 0 (a worst-case error of 1 would count as a rejected forecast).
interface Measured {
  metric: string;
  baseline: number;
  predicted: number;
  actual: number | null;
  error: number | null;
  points: number;
}

export interface Evaluation {
  verdict: Verdict;
  // The mean error over the metrics that had data; null when none had any.
  error: number | null;
  points: number;
  measured: Measured[];
  // The metrics with no KPI row in their review window, and that window, for the Outcomes row's notes.
  noData: { metric: string; from: string; to: string }[];
  // Whether the actions helped: the change against the baseline, signed by each metric's good direction.
  effect: EffectResult;
}

// The verdict thresholds as Settings holds them, with the effect's share and the metric table's
// good directions.
export function thresholdsOf(
  s: ReadsSetting<'outcome.confirm_max_error' | 'outcome.reject_min_error' | 'outcome.min_data_points', number> &
    ReadsSetting<'outcome.effect_min_share', number> &
    ReadsSetting<'kpi.metrics', unknown[]>,
): Thresholds {
  const table = metricTable(s.get('kpi.metrics'));
  return {
    confirmMaxError: s.get('outcome.confirm_max_error'),
    rejectMinError: s.get('outcome.reject_min_error'),
    minDataPoints: s.get('outcome.min_data_points'),
    effectShare: s.get('outcome.effect_min_share'),
    good: (metric) => table.find((m) => m.name === metric)?.good ?? null,
  };
}

// The effect is measured from where the member stood at the decision, the mean of the last days before it: a window
// of a week before a decision about a fall holds days from before the fall, and against that mean a full recovery
// reads as no change. The forecast keeps the whole baseline window.
const STOOD_DAYS = 3;

// Relative error |predicted − actual| / |actual|, with both-zero a match and a non-zero guess against zero the worst.
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
  // Where the member stood when the council decided: the last days of each baseline window (the effect's baseline).
  const stood: number[] = [];
  const noData: Evaluation['noData'] = [];
  for (const c of criteria) {
    const s = series(kpi, member, c.metric);
    const before = s.filter((p) => p.date < decisionDay && p.date >= addDays(decisionDay, -c.window_days));
    const after = s.filter(
      (p) => p.date > decisionDay && p.date <= reviewDay && p.date > addDays(reviewDay, -c.window_days),
    );
    const baseline = mean(before.map((p) => p.value));
    stood.push(mean(before.slice(-STOOD_DAYS).map((p) => p.value)));
    const predicted = c.direction === 'increase' ? baseline * (1 + c.target_change) : baseline * (1 - c.target_change);
    const actual = after.length ? mean(after.map((p) => p.value)) : null;
    if (actual === null) {
      // The days the review looked at: after the decision, and within the criterion's window before the review.
      const first = addDays(decisionDay, 1);
      const windowStart = addDays(reviewDay, 1 - c.window_days);
      noData.push({ metric: c.metric, from: [first, windowStart].sort()[1], to: reviewDay });
    }
    measured.push({
      metric: c.metric,
      baseline,
      predicted,
      actual,
      error: actual === null ? null : relativeError(predicted, actual),
      points: Math.min(before.length, after.length),
    });
  }
  const points = measured.length ? Math.min(...measured.map((m) => m.points)) : 0;
  const errors = measured.map((m) => m.error).filter((e): e is number => e !== null);
  const error = errors.length ? Math.round(mean(errors) * 1000) / 1000 : null;
  let verdict: Verdict =
    error === null
      ? 'inconclusive'
      : error <= t.confirmMaxError
        ? 'confirmed'
        : error >= t.rejectMinError
          ? 'rejected'
          : 'inconclusive';
  if (points < t.minDataPoints) verdict = 'inconclusive';
  const effect = effectOf(
    measured.map((m, i) => ({
      ...m,
      baseline: stood[i],
      direction: criteria[i].direction,
      target_change: criteria[i].target_change,
    })),
    { share: t.effectShare ?? 0.5, minPoints: t.minDataPoints, good: t.good ?? (() => null) },
  );
  return { verdict, error, points, measured, noData, effect };
}
