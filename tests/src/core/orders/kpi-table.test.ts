// KPI rows from CSV or TSV: the KPI tab's columns, quoted fields, problems named by line and column.
import { describe, expect, it } from 'vitest';
import { checkRows } from '../../../../src/core/orders/kpi-input.js';
import { parseKpiTable, tableIssueOf } from '../../../../src/core/orders/kpi-table.js';

describe('KPI tables', () => {
  it('reads a CSV with a header in any column order, quotes and numbers', () => {
    const t = parseKpiTable(
      'member_id,date,metric,value,note\r\ntanaka,2026-01-14,contacts,7,"a, ""quoted"" note"\n\nsuzuki,2026-01-14,contacts,-1.5e1,\n',
      true,
    );
    expect(t.issues).toEqual([]);
    expect(t.rows).toEqual([
      {
        line: 2,
        row: { member_id: 'tanaka', date: '2026-01-14', metric: 'contacts', value: 7, note: 'a, "quoted" note' },
      },
      { line: 4, row: { member_id: 'suzuki', date: '2026-01-14', metric: 'contacts', value: -15 } },
    ]);
  });

  it('reads pasted TSV rows without a header in the KPI tab order', () => {
    const t = parseKpiTable('2026-01-14\ttanaka\tcontacts\t7\t=1+2', false);
    expect(t.rows).toEqual([
      { line: 1, row: { date: '2026-01-14', member_id: 'tanaka', metric: 'contacts', value: 7, note: '=1+2' } },
    ]);
  });

  it('refuses a header without the KPI columns, naming line 1 and the column', () => {
    expect(parseKpiTable('member,date,metric,value\n', true).issues).toEqual([
      { line: 1, column: 'member', message: expect.stringMatching(/^not a KPI column/) },
      { line: 1, column: 'member_id', message: 'missing from the header' },
    ]);
  });

  it('names a bad row by its line and column', () => {
    const t = parseKpiTable(
      'date,member_id,metric,value\n2026-01-14,tanaka,contacts,7\n2026-01-15,tanaka,contacts,seven\n',
      true,
    );
    const checked = checkRows(
      t.rows.map((r) => r.row),
      ['tanaka'],
    );
    expect(checked.issues.map((i) => tableIssueOf(i, t.rows))).toEqual([
      { line: 3, column: 'value', message: 'must be a number' },
    ]);
  });
});
