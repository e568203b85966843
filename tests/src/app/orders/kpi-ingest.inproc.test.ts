// KPI rows in, in-process: a batch is checked whole, written in one audited commit, a repeat is a duplicate, a
// conflicting value is refused unless the batch replaces, and a bad row writes nothing.
import { describe, expect, it } from 'vitest';
import { checkKpi, recordKpi } from '../../../../src/app/orders/kpi-ingest.js';
import { ConflictError, ValidationError } from '../../../../src/core/errors.js';
import { addMetric, kaigi } from '../inproc.js';

const row = (value: number, date = '2026-01-14') => ({ member_id: 'tanaka', date, metric: 'visits', value });

describe('KPI ingestion in-process', () => {
  it('records a batch once, counts a repeat as duplicates and writes a date cell for the day', () => {
    const k = kaigi();
    addMetric(k, 'visits');
    const before = k.records('kpi').length;
    const r = recordKpi(k.council(), [row(3), row(4, '2026-01-13')], { actor: 'crm' });
    expect(r).toEqual({ accepted: 2, duplicates: 0, replaced: 0 });
    const added = k.records('kpi').slice(before);
    expect(added.map((x) => [x.member_id, x.metric, x.value])).toEqual([
      ['tanaka', 'visits', 3],
      ['tanaka', 'visits', 4],
    ]);
    // Midnight of the day in the spreadsheet's zone (Tokyo, UTC+9).
    expect((added[0].date as Date).toISOString()).toBe('2026-01-13T15:00:00.000Z');
    expect(recordKpi(k.council(), [row(3)], { actor: 'crm' })).toEqual({ accepted: 0, duplicates: 1, replaced: 0 });
    expect(k.records('audit').filter((a) => a.event === 'kpi_recorded').length).toBeGreaterThan(0);
  });

  it('refuses a conflicting value unless the batch replaces, and a bad row whole', () => {
    const k = kaigi();
    addMetric(k, 'visits');
    recordKpi(k.council(), [row(3)], { actor: 'crm' });
    const rows = k.records('kpi').length;
    expect(() => recordKpi(k.council(), [row(5)], { actor: 'crm' })).toThrow(ConflictError);
    expect(recordKpi(k.council(), [row(5)], { actor: 'crm', replace: true })).toMatchObject({ replaced: 1 });
    expect(k.records('kpi')).toHaveLength(rows);
    expect(() => recordKpi(k.council(), [row(6, '2026-01-12'), { ...row(1), value: 'x' }], { actor: 'crm' })).toThrow(
      ValidationError,
    );
    expect(k.records('kpi')).toHaveLength(rows);
    const check = checkKpi(k.council(), [{ ...row(1), member_id: 'nobody' }], false);
    expect(check.plan === null || check.issues.length > 0).toBe(true);
  });
});
