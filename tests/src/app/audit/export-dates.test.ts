// kaigi export and exportTab in sheets kept in another time zone than the script's: a date column is the calendar
// day the sheet shows (never a UTC instant a day early), a datetime is the sheet's wall clock with its offset.
import { describe, expect, it } from 'vitest';
import { ok, settle, start } from '../../../council-helpers.js';
import { newRuntime, records } from '../../../helpers.js';

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

async function decided(zone: string, startAt: number) {
  const rt = newRuntime({ startAt, spreadsheetTimeZone: zone });
  // A spreadsheet already in use keeps its zone at setup (an empty one takes the script's, Asia/Tokyo).
  rt.workbook.setValues(rt.workbook.sheets[0], 1, 1, 1, 1, [['Team notes']]);
  ok(await rt.run('setup', [], { kind: 'menu' }));
  ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
  await start(rt);
  await settle(rt);
  return rt;
}

describe('export dates', () => {
  for (const [zone, startAt, offsets] of [
    // 09:00 on 26 November in Auckland (+13:00 in summer): still the 25th in UTC.
    ['Pacific/Auckland', Date.UTC(2026, 10, 25, 20, 0, 0), ['+13:00']],
    // 20:30 on 25 November in New York (-05:00): already the 26th in UTC and in Tokyo.
    ['America/New_York', Date.UTC(2026, 10, 26, 1, 30, 0), ['-05:00']],
  ] as const) {
    it(`writes date columns as the sheet's day and datetimes with its offset in ${zone}`, async () => {
      const rt = await decided(zone, startAt);
      const orders = ok(await rt.run('exportTab', ['Orders'], { kind: 'editor' })).rows as Record<string, unknown>[];
      expect(orders.length).toBeGreaterThan(0);
      // The day the cell shows, as the order's own text names it.
      const shown = records(rt, 'orders').map((r) => r.review_date);
      for (const [i, o] of orders.entries()) {
        expect(o.review_date).toMatch(DAY_RE);
        const cell = shown[i] as Date;
        const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(cell);
        expect(o.review_date).toBe(day);
      }
      const [log] = ok(await rt.run('exportTab', ['Discussion Log'], { kind: 'editor' })).rows as Record<
        string,
        unknown
      >[];
      const created = String(log.created_at);
      expect(created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
      expect(offsets).toContain(created.slice(-6));
      // The same instant as the cell.
      expect(Date.parse(created)).toBe((records(rt, 'discussions')[0].created_at as Date).getTime());
      // The sheet's own calendar day, which is not the UTC one at these hours.
      const local = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(Date.parse(created)));
      expect(created.slice(0, 10)).toBe(local);
      expect(created.slice(0, 10)).not.toBe(new Date(Date.parse(created)).toISOString().slice(0, 10));
    });
  }

  it('names the real tabs when a tab is unknown', async () => {
    const rt = newRuntime();
    ok(await rt.run('setup', [], { kind: 'menu' }));
    const r = await rt.run('exportTab', ['Order'], { kind: 'editor' });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(/^no tab named "Order"; the tabs are .*Orders \(/);
    expect(r.error?.message).toContain('Discussion Log (議論ログ)');
  });
});
