// The metric table and the calendar at every door of KPI: POST /kpi (and so MCP record_kpi, which is the same
// operation), the sidebar's paste and the CSV import refuse a row outside its metric's range, for a metric the table
// lacks, dated after today in the sheet's zone or before Settings kpi.earliest_date; each names its row (or line) and
// column, and nothing of the batch is written. Setup adopts a workbook's existing metrics into the table.
import { describe, expect, it } from 'vitest';
import { checkKpiTable, recordKpiTable } from '../../../../src/app/orders/kpi-table-in.js';
import { adoptKpiMetrics } from '../../../../src/app/surfaces/metric-adopt.js';
import { ValidationError } from '../../../../src/core/errors.js';
import { metricTable } from '../../../../src/core/orders/metric-table.js';
import { api, client, kaigi, setSetting } from '../inproc.js';

// The workbook's today is 2026-01-15 in Tokyo; the demo's KPI ends the day before.
const ok = { member_id: 'sato', date: '2025-12-01', metric: 'contacts', value: 9 };
const BAD = [
  { ...ok, value: -3 },
  { ...ok, metric: 'revenue_yen', value: 100 },
  { ...ok, metric: 'overtime_hours', value: 30 },
  { ...ok, date: '2026-01-16' },
  { ...ok, date: '1999-12-31' },
];
// Why each of BAD is refused, naming its row as the batch holds it at `i`.
const WHY = [
  (i: number) => `rows[${i}].value: -3 is outside contacts's range 0–500`,
  (i: number) =>
    `rows[${i}].metric: "revenue_yen" is not in the metric table (Settings kpi.metrics: contacts, appointments`,
  (i: number) => `rows[${i}].value: 30 is outside overtime_hours's range 0–24`,
  (i: number) => `rows[${i}].date: 2026-01-16 is after today (2026-01-15 in the sheet's time zone)`,
  (i: number) => `rows[${i}].date: 1999-12-31 is before the earliest accepted day 2000-01-01`,
];

describe('KPI rows against the metric table and the calendar', () => {
  it('POST /kpi refuses each bad row with a 400 naming row and column, and writes nothing of the batch', () => {
    const k = kaigi();
    const token = client(k, 'crm', 'worker');
    const before = k.records('kpi').length;
    BAD.forEach((bad, i) => {
      const r = api(token, 'POST', '/kpi', { rows: [ok, bad] });
      expect(r.status).toBe(400);
      expect(r.error.message).toContain(WHY[i](1));
    });
    expect(k.records('kpi')).toHaveLength(before);
    // Today itself is accepted, and so is the earliest day once Settings move it.
    expect(api(token, 'POST', '/kpi', { rows: [{ ...ok, date: '2026-01-15' }] })).toMatchObject({ accepted: 1 });
    setSetting(k, 'kpi.earliest_date', '2025-12-02');
    expect(api(token, 'POST', '/kpi', { rows: [{ ...ok, date: '2025-12-01' }] }).status).toBe(400);
  });

  it('refuses the rows of the security round (N13): 1e308, and a date in 2999 that would block the real feed', () => {
    const k = kaigi();
    const token = client(k, 'crm', 'worker');
    const before = k.records('kpi').length;
    const huge = api(token, 'POST', '/kpi', { rows: [{ ...ok, value: 1e308 }] });
    expect([huge.status, huge.error.message]).toEqual([400, expect.stringMatching(/rows\[0\]\.value: .* outside/)]);
    const future = api(token, 'POST', '/kpi', { rows: [{ ...ok, date: '2999-01-01' }] });
    expect([future.status, future.error.message]).toEqual([400, expect.stringContaining('2999-01-01 is after today')]);
    expect(k.records('kpi')).toHaveLength(before);
    // The real feed's value for today still goes in.
    expect(api(token, 'POST', '/kpi', { rows: [{ ...ok, date: '2026-01-15' }] })).toMatchObject({ accepted: 1 });
  });

  it("the sidebar's paste names the line and column and commits nothing", () => {
    const k = kaigi();
    const lines = [ok, ...BAD].map((r) => [r.date, r.member_id, r.metric, r.value].join('\t')).join('\n');
    const check = checkKpiTable(k.council(), lines, { header: false });
    expect(check.ok).toBe(false);
    expect(check.rows.map((r) => r.state)).toEqual(['new', 'bad', 'bad', 'bad', 'bad', 'bad']);
    expect(check.issues.map((i) => `${i.line}:${i.column}`)).toEqual([
      '2:value',
      '3:metric',
      '4:value',
      '5:date',
      '6:date',
    ]);
    const before = k.records('kpi').length;
    expect(() => recordKpiTable(k.council(), lines, { header: false, actor: 'lead@example.com' })).toThrow(
      ValidationError,
    );
    expect(k.records('kpi')).toHaveLength(before);
  });

  it('each message says what is wrong', () => {
    const k = kaigi();
    const token = client(k, 'crm', 'worker');
    const r = api(token, 'POST', '/kpi', { rows: BAD });
    expect(r.status).toBe(400);
    const text = r.error.message;
    WHY.forEach((why, i) => expect(text).toContain(why(i)));
  });

  it('setup adds a metric the KPI tab holds but the table lacks, with its observed range widened', () => {
    const k = kaigi();
    const kpi = k.ports.spreadsheet.getSheetByName('KPI')!;
    const at = kpi.getLastRow() + 1;
    kpi.getRange(at, 1, 2, 5).setValues([
      [new Date(Date.UTC(2026, 0, 10)), 'tanaka', 'revenue_yen', 120000, ''],
      [new Date(Date.UTC(2026, 0, 11)), 'tanaka', 'revenue_yen', 80000, ''],
    ]);
    expect(adoptKpiMetrics(k.ports.spreadsheet)).toEqual(['revenue_yen']);
    const table = metricTable(k.council().settings().get('kpi.metrics'));
    expect(table.find((m) => m.name === 'revenue_yen')).toMatchObject({ min: 0, max: 240000, watched: false });
    expect(table.map((m) => m.name).slice(0, 5)).toEqual([
      'contacts',
      'appointments',
      'login_streak',
      'praise_count_last_7d',
      'overtime_hours',
    ]);
    expect(adoptKpiMetrics(k.ports.spreadsheet)).toEqual([]);
  });
});
