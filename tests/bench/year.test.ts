// The year bench at a tiny size: two months of three days, two discussions a day (one a month on the real path), a
// trickle of API calls: the report's shape per month, the audit intact over the copied bulk, and nothing lost.
import { expect, it } from 'vitest';
import { yearBench } from '../../bench/year.js';

const START = Date.UTC(2026, 0, 15, 1, 0, 0);

it('reports each month and loses nothing over a tiny year', async () => {
  const r = await yearBench(START, {
    months: 2,
    month_days: 3,
    per_day: 2,
    real_per_month: 1,
    api_per_minute: 1,
    members: 8,
    // The real review on the second day and the last of each month: the first day's decisions wait for it.
    review_every: 2,
  });
  expect(r.months.map((m) => m.month)).toEqual([1, 2]);
  for (const m of r.months) {
    expect(Object.keys(m)).toEqual(
      expect.arrayContaining([
        'month',
        'discussions',
        'own_ms_per_discussion',
        'round_trips_per_discussion',
        'dashboard_ms',
        'review_ms',
        'verify_ms',
        'cells',
        'cell_share',
        'archive_cells',
      ]),
    );
    expect(m.discussions).toBe(6);
    expect(m.own_ms_per_discussion).toBeGreaterThan(0);
    expect(m.round_trips_per_discussion).toBeGreaterThan(0);
    // The measured decision made the Dashboard due: its refresh ran in a tick of its own and was timed apart.
    expect(m.dashboard_ms).toBeGreaterThan(0);
    expect(m.verify_ok).toBe(true);
    expect(m.days).toBe(3);
    expect(m.review_days).toBe(2);
    expect(m.review_days_in_budget).toBe(m.review_days);
    expect(m.cell_share).toBeCloseTo(m.cells / 10_000_000, 3);
  }
  // The workbook grew by the copies and the API Log rows.
  expect(r.months[1].cells).toBeGreaterThan(r.months[0].cells);
  expect(r.lost_by_kind).toEqual({ discussions: 0, orders: 0, audit: 0, api_log: 0, kpi: 0 });
  expect(r.lost).toBe(0);
}, 300_000);
