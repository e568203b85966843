// Rows read back from the tabs: the KPI tab's rows as the engine sees them.
import { describe, expect, it } from 'vitest';
import { kpiFromRows } from '../../../src/store/records.js';
import { rowsOf } from '../../../sheets-schema/index.js';

const kpi = rowsOf('kpi');

describe('kpiFromRows', () => {
  it('keeps rows with a member, a metric and a number, each cell read by its column, and days as written', () => {
    const rows = [
      kpi.write({ date: '2026-01-15', member_id: 'tanaka', metric: 'contacts', value: 12 }),
      kpi.write({ date: '2026/1/16', member_id: 'tanaka', metric: 'contacts', value: 5 }),
      // A serial day number, as a date cell formatted as a number reads.
      kpi.write({ date: 46037, member_id: 'sato', metric: 'deals', value: 0 }),
      kpi.write({ date: '2026-01-15', member_id: '', metric: 'contacts', value: 3 }),
      kpi.write({ date: '2026-01-15', member_id: 'sato', metric: '', value: 3 }),
      kpi.write({ date: '2026-01-15', member_id: 'sato', metric: 'deals', value: '3' }),
      // A row cut short before its value (a sheet's trailing empty cells) has no number.
      kpi.write({ date: '2026-01-15', member_id: 'sato', metric: 'deals' }).slice(0, kpi.index('value')),
    ];
    expect(kpiFromRows(rows)).toEqual([
      { date: '2026-01-15', member_id: 'tanaka', metric: 'contacts', value: 12 },
      { date: '2026-01-16', member_id: 'tanaka', metric: 'contacts', value: 5 },
      { date: '2026-01-15', member_id: 'sato', metric: 'deals', value: 0 },
    ]);
  });
});
