// The KPI table's index: each member's metrics and dates, each metric's members, and values derived from the rows,
// kept per table and made afresh when the table changes.
import { describe, expect, it } from 'vitest';
import { metricsOf, teamTrend } from '../../../../src/core/orders/kpi.js';
import { datesOf, memoOnRows } from '../../../../src/core/orders/kpi-index.js';
import type { KpiRow } from '../../../../src/core/types.js';

const row = (member_id: string, metric: string, date: string, value: number): KpiRow =>
  ({ member_id, metric, date, value }) as KpiRow;

describe('kpi index', () => {
  it("lists a member's metrics and dates sorted, once each, rows without a value included", () => {
    const rows = [
      row('m1', 'logins', '2026-01-03', 1),
      row('m1', 'contacts', '2026-01-01', Number.NaN),
      row('m2', 'praise', '2026-01-02', 1),
      row('m1', 'contacts', '2026-01-03', 2),
    ];
    expect(metricsOf(rows, 'm1')).toEqual(['contacts', 'logins']);
    expect(datesOf(rows, 'm1')).toEqual(['2026-01-01', '2026-01-03']);
    expect(datesOf(rows, 'm3')).toEqual([]);
    // A copy each time: a caller sorting or filling its list leaves the index as it was.
    datesOf(rows, 'm1').push('2027-01-01');
    expect(datesOf(rows, 'm1')).toEqual(['2026-01-01', '2026-01-03']);
  });

  it("takes the team's members of a metric in the order of their first row, leaving one out", () => {
    const rows = [
      row('b', 'contacts', '2026-01-01', 10),
      row('a', 'contacts', '2026-01-01', 10),
      row('c', 'contacts', '2026-01-01', 10),
      row('b', 'contacts', '2026-01-02', 5),
      row('a', 'contacts', '2026-01-02', 20),
      row('c', 'contacts', '2026-01-02', 10),
    ];
    expect(teamTrend(rows, 'contacts', 'c', 1)).toEqual({ members: 2, falling: 1, meanChange: 0.25 });
  });

  it('computes a derived value once per table and key, and again once the table grew or shrank', () => {
    const rows = [row('m1', 'contacts', '2026-01-01', 1)];
    let calls = 0;
    const count = () => memoOnRows(rows, 'n', () => ++calls);
    expect([count(), count()]).toEqual([1, 1]);
    expect(memoOnRows(rows, 'other', () => 'x')).toBe('x');
    rows.push(row('m1', 'contacts', '2026-01-02', 2));
    expect(count()).toBe(2);
    expect(metricsOf(rows, 'm1')).toEqual(['contacts']);
    rows.push(row('m1', 'logins', '2026-01-02', 2));
    expect(metricsOf(rows, 'm1')).toEqual(['contacts', 'logins']);
    rows.shift();
    expect(datesOf(rows, 'm1')).toEqual(['2026-01-02']);
  });
});
