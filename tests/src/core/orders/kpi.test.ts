// series(): a member's points of one metric in date order, from a KPI table that may grow between calls.
import { describe, expect, it } from 'vitest';
import { series } from '../../../../src/core/orders/kpi.js';
import type { KpiRow } from '../../../../src/core/types.js';

const row = (member_id: string, metric: string, date: string, value: number): KpiRow =>
  ({ member_id, metric, date, value }) as KpiRow;

describe('series', () => {
  it('keeps only the member and metric asked for, finite values, in date order', () => {
    const rows = [
      row('m1', 'contacts', '2026-01-03', 3),
      row('m1', 'contacts', '2026-01-01', 1),
      row('m2', 'contacts', '2026-01-02', 9),
      row('m1', 'logins', '2026-01-02', 5),
      row('m1', 'contacts', '2026-01-02', Number.NaN),
    ];
    expect(series(rows, 'm1', 'contacts')).toEqual([
      { date: '2026-01-01', value: 1 },
      { date: '2026-01-03', value: 3 },
    ]);
    expect(series(rows, 'm3', 'contacts')).toEqual([]);
  });

  it('sees rows added to the same table after an earlier call', () => {
    const rows = [row('m1', 'contacts', '2026-01-01', 1)];
    expect(series(rows, 'm1', 'contacts')).toHaveLength(1);
    rows.push(row('m1', 'contacts', '2026-01-02', 2));
    expect(series(rows, 'm1', 'contacts').map((p) => p.value)).toEqual([1, 2]);
    rows.shift();
    rows.push(row('m1', 'contacts', '2026-01-03', 3));
    expect(series(rows, 'm1', 'contacts').map((p) => p.value)).toEqual([2, 3]);
  });

  it('gives a copy: changing what it returned changes no later answer', () => {
    const rows = [row('m1', 'contacts', '2026-01-01', 1)];
    series(rows, 'm1', 'contacts').push({ date: '2026-01-09', value: 9 });
    expect(series(rows, 'm1', 'contacts')).toHaveLength(1);
  });
});
