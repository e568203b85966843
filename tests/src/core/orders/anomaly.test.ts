// The watcher's 2 σ rule: the latest value against the member's own window, only with enough points, every watched
// metric, each swing good or bad by the metric table.
import { describe, expect, it } from 'vitest';
import {
  anomalies,
  anomalyBody,
  anomalyOf,
  anomalyTitles,
  idTitles,
  milestoneTitles,
  weekOf,
} from '../../../../src/core/orders/anomaly.js';
import { DEFAULT_METRICS } from '../../../../src/core/orders/metric-table.js';
import type { KpiRow } from '../../../../src/core/types.js';

const RULE = { sigma: 2, windowDays: 14, minPoints: 7 };
const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
const points = (values: number[]) => values.map((value, i) => ({ date: day(i), value }));
// Fourteen days alternating 9 and 11: mean 10, σ 1.
const STEADY = [9, 11, 9, 11, 9, 11, 9, 11, 9, 11, 9, 11, 9, 11];

describe('the anomaly rule', () => {
  it('flags a value more than 2 σ from the mean of the 14 days before it', () => {
    expect(anomalyOf(points([...STEADY, 12.5]), RULE)).toMatchObject({ value: 12.5, mean: 10, sd: 1, points: 14 });
    expect(anomalyOf(points([...STEADY, 7]), RULE)).toMatchObject({ value: 7 });
    // 2 σ exactly is not more than 2 σ.
    expect(anomalyOf(points([...STEADY, 12]), RULE)).toBeNull();
    expect(anomalyOf(points([...STEADY, 10]), RULE)).toBeNull();
  });

  it('needs at least 7 points in the window, and ignores days before it', () => {
    expect(anomalyOf(points([9, 11, 9, 11, 9, 11, 30]), RULE)).toBeNull();
    expect(anomalyOf(points([9, 11, 9, 11, 9, 11, 9, 30]), RULE)).not.toBeNull();
    // Twenty old values of 100 before the fourteen steady days are outside the window.
    expect(anomalyOf(points([...Array(20).fill(100), ...STEADY, 12.5]), RULE)).toMatchObject({ points: 14, mean: 10 });
    // A 7-day window holds 7 points: enough for 7, not for 8.
    expect(anomalyOf(points([...STEADY, 12.5]), { ...RULE, windowDays: 7 })).toMatchObject({ points: 7 });
    expect(anomalyOf(points([...STEADY, 12.5]), { ...RULE, windowDays: 7, minPoints: 8 })).toBeNull();
  });

  it('follows the thresholds it is given', () => {
    expect(anomalyOf(points([...STEADY, 12.5]), { ...RULE, sigma: 3 })).toBeNull();
    expect(anomalyOf(points([...STEADY, 12.5]), { ...RULE, minPoints: 15 })).toBeNull();
  });

  it('treats a window without spread: a different value is off it, the same is not', () => {
    expect(anomalyOf(points([...Array(10).fill(5), 6]), RULE)).toMatchObject({ sd: 0, value: 6 });
    expect(anomalyOf(points([...Array(10).fill(5), 5]), RULE)).toBeNull();
  });

  it('looks at every member and watched metric, and says which way each swing went', () => {
    const rows: KpiRow[] = [];
    const add = (member: string, metric: string, values: number[]) =>
      values.forEach((value, i) => rows.push({ member_id: member, metric, date: day(i), value }));
    add('tanaka', 'contacts', [...STEADY, 3]);
    add('tanaka', 'overtime_hours', [...STEADY, 14]);
    add('sato', 'contacts', [...STEADY, 16]);
    add('sato', 'overtime_hours', [...STEADY, 2]);
    // A counter nobody watches (its climb is no news) and a metric outside the table are left out.
    add('suzuki', 'login_streak', [...STEADY, 20]);
    add('suzuki', 'praise', [...STEADY, 20]);
    expect(anomalies(rows, RULE, DEFAULT_METRICS).map((a) => `${a.member}/${a.metric}/${a.direction}`)).toEqual([
      'sato/contacts/good',
      'sato/overtime_hours/good',
      'tanaka/contacts/bad',
      'tanaka/overtime_hours/bad',
    ]);
  });

  it('names a good swing by its week, so one week gives one milestone per metric', () => {
    const a = { member: 'tanaka', metric: 'contacts' };
    const shown = { name: '田中 太郎', label_ja: '連絡数', label_en: 'Contacts' };
    // 2026-01-15 is a Thursday; its week began on Monday the 12th, as did the Sunday the 18th's.
    expect(weekOf('2026-01-15')).toBe('2026-01-12');
    expect(milestoneTitles({ ...a, date: '2026-01-15' }, shown)).toEqual(
      milestoneTitles({ ...a, date: '2026-01-18' }, shown),
    );
    expect(milestoneTitles({ ...a, date: '2026-01-19' }, shown)).toEqual({
      ja: 'KPI の好転: 田中 太郎さん / 連絡数 / 2026-01-19 の週',
      en: 'KPI milestone: 田中 太郎 / Contacts / week of 2026-01-19',
    });
  });

  it('titles and tells an outlier by the member’s name and the metric’s label, never their ids', () => {
    const a = { member: 'tanaka', metric: 'contacts', date: '2026-01-14' };
    const shown = { name: '田中 太郎', label_ja: '連絡数', label_en: 'Contacts' };
    expect(anomalyTitles(a, shown)).toEqual({
      ja: 'KPI の外れ値: 田中 太郎さん / 連絡数 / 2026-01-14',
      en: 'KPI outlier: 田中 太郎 / Contacts / 2026-01-14',
    });
    const full = { ...a, direction: 'bad' as const, value: 5, mean: 11, sd: 2, points: 14 };
    expect(anomalyBody(full as never, shown, 3, 'ja')).toMatch(/^田中 太郎さんの連絡数は 2026-01-14 に 5 で/);
    expect(anomalyBody(full as never, shown, 3, 'en')).toMatch(/^田中 太郎's Contacts was 5 on 2026-01-14/);
    // What an earlier release wrote, by ids: found again so an upgrade does not tell the same day twice.
    expect(idTitles(full).en).toBe('KPI outlier: tanaka / contacts / 2026-01-14');
  });
});
