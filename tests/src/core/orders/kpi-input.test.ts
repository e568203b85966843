// The KPI row schema and batch plan: every bad row named as rows[i].field, duplicates and conflicts told apart.
import { describe, expect, it } from 'vitest';
import { checkRows, isCalendarDay, planKpi, type StoredKpi } from '../../../../src/core/orders/kpi-input.js';

const MEMBERS = ['tanaka', 'suzuki'];
const row = (over: Record<string, unknown> = {}) => ({
  member_id: 'tanaka',
  date: '2026-01-14',
  metric: 'contacts',
  value: 7,
  ...over,
});

describe('KPI rows in', () => {
  it('accepts good rows and keeps a formula-looking note as text', () => {
    const r = checkRows([row(), row({ member_id: 'suzuki', note: '=HYPERLINK("x")' })], MEMBERS);
    expect(r.issues).toEqual([]);
    expect(r.rows[1].note).toBe('=HYPERLINK("x")');
  });

  it('names each bad row and field, and returns no rows when any is bad', () => {
    const r = checkRows(
      [
        row(),
        row({ value: 'seven' }),
        row({ date: '2026-02-30' }),
        row({ metric: '  ' }),
        row({ member_id: 'yamada' }),
        row({ vlaue: 3 }),
        'not a row',
      ],
      MEMBERS,
    );
    expect(r.rows).toEqual([]);
    expect(r.issues.map((i) => i.field)).toEqual([
      'rows[1].value',
      'rows[2].date',
      'rows[3].metric',
      'rows[4].member_id',
      'rows[5].vlaue',
      'rows[6]',
    ]);
    expect(r.issues[3]).toMatchObject({ code: 'unknown_member', message: '"yamada" is not a member (Members tab)' });
  });

  it('knows a calendar day', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-1-14')).toBe(false);
  });

  it('plans appends, duplicates, conflicts and replacements', () => {
    const stored: StoredKpi[] = [{ row: 5, member_id: 'tanaka', date: '2026-01-14', metric: 'contacts', value: 7 }];
    const same = planKpi([row()], stored, false);
    expect(same).toMatchObject({ append: [], duplicates: [0], conflicts: [] });
    const differ = planKpi([row({ metric: 'praise' }), row({ value: 9 })], stored, false);
    expect(differ.append).toHaveLength(1);
    expect(differ.conflicts).toEqual([
      {
        index: 1,
        message: expect.stringMatching(
          /^rows\[1\] \(tanaka, 2026-01-14, contacts\): 9 differs from the stored 7 \(KPI row 5\)/,
        ),
      },
    ]);
    const replaced = planKpi([row({ value: 9 })], stored, true);
    expect(replaced.conflicts).toEqual([]);
    expect(replaced.replace).toEqual([{ index: 0, stored: stored[0], row: row({ value: 9 }) }]);
    const twice = planKpi(
      [row({ date: '2026-01-15' }), row({ date: '2026-01-15' }), row({ date: '2026-01-15', value: 1 })],
      stored,
      true,
    );
    expect(twice.append).toHaveLength(1);
    expect(twice.duplicates).toEqual([1]);
    expect(twice.conflicts[0].message).toMatch(/rows\[2\].*differs from rows\[0\]'s 7 in the same batch/);
  });
});
