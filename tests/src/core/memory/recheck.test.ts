// An inconclusive decision is looked at once more when late KPI arrives within outcome.recheck_days, never twice.
import { describe, expect, it } from 'vitest';
import { dueRechecks, recheckNote, recheckReady, type OutcomeLine } from '../../../../src/core/memory/recheck.js';

const line = (o: Partial<OutcomeLine>): OutcomeLine => ({
  outcome_id: 'OUT-1',
  decision_id: 'DEC-1',
  verdict: 'inconclusive',
  evaluated_day: '2026-06-01',
  notes: 'no data: no KPI rows for contacts (2026-05-25 – 2026-06-01)',
  ...o,
});

describe('dueRechecks', () => {
  it('takes an inconclusive decision again on a later day within the recheck days', () => {
    const rows = [line({})];
    expect(dueRechecks(rows, '2026-06-01', 7)).toEqual([]);
    expect(dueRechecks(rows, '2026-06-02', 7)).toEqual(rows);
    expect(dueRechecks(rows, '2026-06-08', 7)).toEqual(rows);
    expect(dueRechecks(rows, '2026-06-09', 7)).toEqual([]);
    expect(dueRechecks(rows, '2026-06-02', 0)).toEqual([]);
  });
  it('never takes a confirmed or rejected decision', () => {
    expect(dueRechecks([line({ verdict: 'confirmed' }), line({ verdict: 'rejected' })], '2026-06-02', 7)).toEqual([]);
  });
  it('takes a decision once: after its recheck row it is never due again, whatever that row says', () => {
    const first = line({});
    const again = line({ outcome_id: 'OUT-2', evaluated_day: '2026-06-03', notes: recheckNote(first) });
    expect(again.notes).toBe('recheck of OUT-1 (2026-06-01)');
    expect(dueRechecks([first, again], '2026-06-04', 7)).toEqual([]);
    expect(dueRechecks([first, { ...again, verdict: 'inconclusive' }], '2026-06-05', 7)).toEqual([]);
    expect(dueRechecks([again], '2026-06-05', 7)).toEqual([]);
  });
});

describe('recheckReady', () => {
  const measured = [{ metric: 'contacts', baseline: 5, predicted: 6, actual: 6, error: 0, points: 7 }];
  it('is ready once KPI for every window has arrived, not while one is still empty', () => {
    expect(recheckReady({ measured, noData: [] })).toBe(true);
    expect(recheckReady({ measured, noData: [{ metric: 'contacts', from: '2026-05-25', to: '2026-06-01' }] })).toBe(
      false,
    );
    expect(recheckReady({ measured: [], noData: [] })).toBe(false);
  });
});
