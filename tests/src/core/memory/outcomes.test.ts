// Outcomes (docs/decision-to-outcome.md) and the KPI readings behind them: exact prediction errors, verdict
// thresholds, series maths.
import { describe, expect, it } from 'vitest';
import { demoKpi } from '../../../../src/core/demo-data.js';
import { addDays } from '../../../../src/core/discussion/ids.js';
import {
  declineRun,
  latest,
  maxOf,
  mean,
  metricsOf,
  pct,
  recentChange,
  series,
  teamTrend,
  windowMean,
} from '../../../../src/core/orders/kpi.js';
import type { SuccessCriterion } from '../../../../src/core/discussion/messages.js';
import { evaluate } from '../../../../src/core/memory/outcomes.js';
import { Settings } from '../../../../src/core/settings.js';
import type { KpiRow } from '../../../../src/core/types.js';

const s = new Settings({});
const T = {
  confirmMaxError: s.number('outcome.confirm_max_error'),
  rejectMinError: s.number('outcome.reject_min_error'),
  minDataPoints: s.number('outcome.min_data_points'),
};
const DECISION = '2026-01-08';
const REVIEW = '2026-01-15';

// Seven days of `before` ending the day before the decision, then `after` from the day after it.
function rows(before: number[], after: number[], metric = 'contacts', member = 'm'): KpiRow[] {
  const out: KpiRow[] = [];
  before.forEach((v, i) =>
    out.push({ date: addDays(DECISION, i - before.length), member_id: member, metric, value: v }),
  );
  after.forEach((v, i) => out.push({ date: addDays(DECISION, i + 1), member_id: member, metric, value: v }));
  return out;
}
const seven = (v: number) => [v, v, v, v, v, v, v];
const crit = (o: Partial<SuccessCriterion> = {}): SuccessCriterion => ({
  metric: 'contacts',
  direction: 'increase',
  target_change: 0.2,
  window_days: 7,
  ...o,
});

describe('evaluate', () => {
  it('uses the default thresholds 0.3 / 0.5 / 5', () => {
    expect(T).toEqual({ confirmMaxError: 0.3, rejectMinError: 0.5, minDataPoints: 5 });
  });

  it('measures baseline, prediction and actual over the two windows', () => {
    // A value on the decision day itself and one before the window are outside both windows.
    const kpi = rows([99, ...seven(10)], seven(12)).concat({
      date: DECISION,
      member_id: 'm',
      metric: 'contacts',
      value: 50,
    });
    expect(evaluate('m', [crit()], DECISION, REVIEW, kpi, T)).toEqual({
      verdict: 'confirmed',
      error: 0,
      points: 7,
      measured: [{ metric: 'contacts', baseline: 10, predicted: 12, actual: 12, error: 0, points: 7 }],
      noData: [],
      effect: {
        effect: 'worked',
        change: 0.2,
        target: 0.2,
        lines: [{ metric: 'contacts', from: 10, to: 12, change: 0.2, target: 0.2, effect: 'worked' }],
      },
    });
  });

  it('confirms at exactly the confirm threshold and rejects at exactly the reject threshold', () => {
    // Predicted 13, actual 10: |13 − 10| / 10 = 0.3.
    expect(
      evaluate('m', [crit({ target_change: 0.3 })], DECISION, REVIEW, rows(seven(10), seven(10)), T),
    ).toMatchObject({
      verdict: 'confirmed',
      error: 0.3,
    });
    // Predicted 10, actual 20: 0.5.
    expect(evaluate('m', [crit({ target_change: 0 })], DECISION, REVIEW, rows(seven(10), seven(20)), T)).toMatchObject({
      verdict: 'rejected',
      error: 0.5,
    });
    // Predicted 10, actual 15: 0.333 — between the two.
    expect(evaluate('m', [crit({ target_change: 0 })], DECISION, REVIEW, rows(seven(10), seven(15)), T)).toMatchObject({
      verdict: 'inconclusive',
      error: 0.333,
    });
  });

  it('predicts a fall for a decrease criterion', () => {
    const e = evaluate(
      'm',
      [crit({ metric: 'overtime_hours', direction: 'decrease', target_change: 0.5 })],
      DECISION,
      REVIEW,
      rows(seven(4), seven(3), 'overtime_hours'),
      T,
    );
    // Predicted 2, actual 3: 1/3.
    expect(e.measured[0]).toMatchObject({ baseline: 4, predicted: 2, actual: 3 });
    expect([e.verdict, e.error]).toEqual(['inconclusive', 0.333]);
  });

  it('treats zero against zero as a match and a guess against zero as the worst error', () => {
    expect(evaluate('m', [crit()], DECISION, REVIEW, rows(seven(0), seven(0)), T)).toMatchObject({
      verdict: 'confirmed',
      error: 0,
    });
    expect(evaluate('m', [crit()], DECISION, REVIEW, rows(seven(5), seven(0)), T)).toMatchObject({
      verdict: 'rejected',
      error: 1,
    });
  });

  it('is inconclusive with fewer than five points on either side, and says "no data" when nothing came after', () => {
    expect(evaluate('m', [crit()], DECISION, '2026-01-12', rows(seven(10), seven(12)), T)).toMatchObject({
      verdict: 'inconclusive',
      error: 0,
      points: 4,
    });
    expect(evaluate('m', [crit()], DECISION, REVIEW, rows([10, 10, 10, 10], seven(12)), T)).toMatchObject({
      verdict: 'inconclusive',
      points: 4,
    });
    // No KPI row in the review window: nothing was measured, which is not an actual of 0 with the worst error.
    expect(evaluate('m', [crit()], DECISION, REVIEW, rows(seven(10), []), T)).toMatchObject({
      verdict: 'inconclusive',
      error: null,
      points: 0,
      measured: [{ baseline: 10, predicted: 12, actual: null, error: null, points: 0 }],
      noData: [{ metric: 'contacts', from: '2026-01-09', to: REVIEW }],
    });
    // One metric without data does not drag the other's error: the mean is over what was measured.
    const partly = rows(seven(10), seven(12)).concat(rows(seven(10), [], 'appointments'));
    expect(evaluate('m', [crit(), crit({ metric: 'appointments' })], DECISION, REVIEW, partly, T)).toMatchObject({
      error: 0,
      noData: [{ metric: 'appointments' }],
    });
    expect(evaluate('m', [], DECISION, REVIEW, rows(seven(10), seven(12)), T)).toEqual({
      verdict: 'inconclusive',
      error: null,
      points: 0,
      measured: [],
      noData: [],
      effect: { effect: 'unclear', change: null, target: 0, lines: [] },
    });
  });

  it('averages the errors of several criteria and takes the fewest points', () => {
    const kpi = rows(seven(10), seven(12)).concat(rows(seven(10), [15, 15, 15, 15, 15], 'appointments'));
    const e = evaluate('m', [crit(), crit({ metric: 'appointments', target_change: 0 })], DECISION, REVIEW, kpi, T);
    // contacts 0, appointments |10 − 15| / 15 = 1/3: mean 1/6.
    expect([e.error, e.points, e.verdict]).toEqual([0.167, 5, 'confirmed']);
  });
});

describe('KPI series', () => {
  const kpi = demoKpi('2026-01-15');

  it('reads a member’s metric in date order, skipping other members, metrics and non-numbers', () => {
    const mixed: KpiRow[] = [
      { date: '2026-01-03', member_id: 'm', metric: 'contacts', value: 3 },
      { date: '2026-01-01', member_id: 'm', metric: 'contacts', value: 1 },
      { date: '2026-01-02', member_id: 'x', metric: 'contacts', value: 9 },
      { date: '2026-01-02', member_id: 'm', metric: 'praise', value: 9 },
      { date: '2026-01-02', member_id: 'm', metric: 'contacts', value: Number.NaN },
      { date: '2026-01-04', member_id: 'm', metric: 'contacts', value: '4' as unknown as number },
    ];
    expect(series(mixed, 'm', 'contacts')).toEqual([
      { date: '2026-01-01', value: 1 },
      { date: '2026-01-03', value: 3 },
    ]);
    expect(metricsOf(mixed, 'm')).toEqual(['contacts', 'praise']);
  });

  it('finds the demo fall of 田中さん’s contacts, 12 → 5', () => {
    const c = series(kpi, 'tanaka', 'contacts');
    expect(c).toHaveLength(30);
    expect(c.slice(-5).map((p) => p.value)).toEqual([12, 10, 8, 6, 5]);
    expect(declineRun(c.slice(-5))).toBe(4);
    expect(recentChange(c, 4)).toEqual({ from: 12, to: 5, ratio: -7 / 12, days: 4 });
    expect(pct(-7 / 12)).toBe('-58%');
    expect(latest(c)).toBe(5);
    expect(metricsOf(kpi, 'tanaka')).toEqual([
      'appointments',
      'contacts',
      'login_streak',
      'overtime_hours',
      'praise_count_last_7d',
    ]);
  });

  it('computes runs, changes, windows and extremes exactly', () => {
    const p = (values: number[]) => values.map((value, i) => ({ date: addDays('2026-01-01', i), value }));
    expect([declineRun(p([5, 4, 3, 3, 2, 1])), declineRun(p([1, 2])), declineRun(p([7])), declineRun([])]).toEqual([
      2, 0, 0, 0,
    ]);
    expect(recentChange(p([4, 8]), 10)).toEqual({ from: 4, to: 8, ratio: 1, days: 1 });
    expect(recentChange(p([0, 3]), 1)).toEqual({ from: 0, to: 3, ratio: 0, days: 1 });
    expect([recentChange(p([1]), 1), recentChange(p([1, 2]), 0)]).toEqual([null, null]);
    const s14 = p([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect([windowMean(s14, 0, 7), windowMean(s14, 7, 14), windowMean(s14, 0, 100), windowMean(s14, 20, 30)]).toEqual([
      11, 4, 7.5, 0,
    ]);
    expect([latest([]), maxOf([]), maxOf(p([3, 9, 2]))]).toEqual([null, null, 9]);
    expect([mean([]), mean([1, 2, 4])]).toEqual([0, 7 / 3]);
    expect([pct(0.25), pct(0), pct(-0.004), pct(1.5)]).toEqual(['+25%', '0%', '0%', '+150%']);
  });

  it('summarises how the rest of the team moved', () => {
    const team: KpiRow[] = [];
    const add = (member: string, values: number[]) =>
      values.forEach((value, i) =>
        team.push({ date: addDays('2026-01-01', i), member_id: member, metric: 'contacts', value }),
      );
    add('me', [10, 1]);
    add('a', [10, 5]);
    add('b', [10, 12]);
    add('c', [10, 8]);
    add('solo', [7]);
    // a −50%, b +20%, c −20%; solo has one point and no change.
    const t = teamTrend(team, 'contacts', 'me', 1);
    expect([t.members, t.falling]).toEqual([3, 2]);
    expect(t.meanChange).toBeCloseTo(-0.5 / 3, 12);
  });
});
