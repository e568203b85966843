// A spreadsheet in another time zone than the script's: days in cells do not shift, the audit verifies,
// also for a discussion and its daily review across New York's switch to summer time.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { ok, setSetting, statuses } from '../../council-helpers.js';
import { newRuntime, records } from '../../helpers.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
// New York springs forward at 2026-03-08 07:00Z (01:59:59 EST, then 03:00 EDT). Three minutes before it, it is
// 15:57 on 8 March in Tokyo (the script's zone) and 19:57 on 8 March in Auckland.
const SWITCH = Date.UTC(2026, 2, 8, 7, 0, 0);
// Setting up and seeding the team take minutes on Apps Script's clock (runtime/host/time-model.ts): they start
// earlier, and the discussion starts three minutes before the switch.
const START = SWITCH - 15 * 60_000;

// One day's label as a cell shows it in the sheet's own zone: 'YYYY/MM/DD h:mm:ss' (runtime/host/values.ts).
function shown(rt: Runtime, tab: string, col: number): string[] {
  const wb = rt.workbook;
  const sheet = wb.sheetByName(tab)!;
  const last = wb.lastRow(sheet);
  return last < 2 ? [] : wb.getDisplayValues(sheet, 2, col, last - 1, 1).map((r) => r[0]);
}

function columnOf(rt: Runtime, tab: string, name: string): number {
  const sheet = rt.workbook.sheetByName(tab)!;
  return rt.workbook.getValues(sheet, 1, 1, 1, sheet.maxCols)[0].indexOf(name) + 1;
}

const tokyoDay = (t: number) => new Date(t + 9 * HOUR).toISOString().slice(0, 10);

// A team that already keeps its spreadsheet in `zone`, then installs Kaigi with the script in Asia/Tokyo.
async function team(zone: string, startAt = START): Promise<Runtime> {
  const rt = newRuntime({ startAt, spreadsheetTimeZone: zone });
  // The spreadsheet is theirs already: something in it, typed by a person.
  rt.workbook.setValues(rt.workbook.sheets[0], 1, 1, 2, 2, [
    ['Team notes', ''],
    ['2026-03-01', 'kick-off'],
  ]);
  const report = ok(await rt.run('setup', [], { kind: 'menu' }));
  // Kept, and said so: changing it would move every date the people typed.
  expect(report.timeZone).toMatchObject({ spreadsheet: zone, script: 'Asia/Tokyo', set: false });
  expect(report.timeZone.note).toContain(`${zone} kept`);
  ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
  // Each step in a commit of its own, so that the clock moving with every call carries the discussion's messages
  // across the switch (steps held together would share one instant: the rule-based agents answer at once).
  await setSetting(rt, 'queue.commit_every_seconds', '0');
  expect(await rt.evaluate('return SpreadsheetApp.getActive().getSpreadsheetTimeZone();')).toMatchObject({
    value: zone,
  });
  return rt;
}

// Ticks with the clock moving 2 s per service call, so one discussion's steps fall on both sides of the switch.
async function tickAcross(rt: Runtime): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const active = Object.values(statuses(rt)).some((s) => s === 'OPEN' || s === 'IN_PROGRESS' || s === 'VOTING');
    const queued = records(rt, 'queue').some((r) => r.status === 'queued' || r.status === 'processing');
    if (!active && !queued && i > 0) return;
    ok(await rt.run('tick', [], { kind: 'trigger', onCall: () => rt.clock.advance(2000) }));
    rt.clock.advance(60_000);
  }
  throw new Error('the discussion did not settle in 40 ticks');
}

async function verified(rt: Runtime): Promise<void> {
  const audit = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
  expect(audit).toMatchObject({ ok: true });
}

describe.each(['America/New_York', 'Pacific/Auckland'])('a spreadsheet in %s, the script in Asia/Tokyo', (zone) => {
  it('KPI days, a typed KPI date, review dates and the daily review do not shift; the audit verifies', async () => {
    const rt = await team(zone);
    // The seeded 30 days end yesterday on the script's calendar, each at midnight in the sheet's zone.
    const kpiDays = shown(rt, 'KPI', columnOf(rt, 'KPI', 'date'));
    expect(kpiDays.every((d) => d.endsWith(' 0:00:00'))).toBe(true);
    const days = [...new Set(kpiDays.map((d) => d.slice(0, 10)))].sort();
    expect(days.length).toBe(30);
    expect(days[29]).toBe(tokyoDay(START - DAY).replace(/-/g, '/'));
    // Today's contacts, typed by a person as text: midnight of 8 March in the sheet's zone (for Auckland, still
    // 7 March in Tokyo). The watcher reads it as 8 March and opens a discussion about it.
    const kpi = rt.workbook.sheetByName('KPI')!;
    const row = rt.workbook.lastRow(kpi) + 1;
    rt.workbook.setValues(kpi, row, 1, 1, 5, [['2026-03-08', 'tanaka', 'contacts', 4, '']]);
    // Close enough to the switch that a discussion (about three minutes of calls at 2 s each) runs across it.
    rt.clock.advanceTo(SWITCH - 100_000);
    const watch = ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    expect(watch.opened.map((o: { member: string }) => o.member)).toContain('tanaka');

    // The discussion starts before New York's switch and is decided after it.
    await tickAcross(rt);
    const log = records(rt, 'discussions').find((r) => r.trigger_target_user === 'tanaka')!;
    expect(log.status).toBe('DECIDED');
    expect(JSON.parse(String(log.trigger_context_json)).context.last_date).toBe('2026-03-08');
    const stamps = records(rt, 'messages').map((m) => Date.parse(String(m.timestamp)));
    expect(Math.min(...stamps)).toBeLessThan(SWITCH);
    expect(Math.max(...stamps)).toBeGreaterThan(SWITCH);
    expect((log.created_at as Date).getTime()).toBeLessThan(SWITCH);
    await verified(rt);

    // The order's review date: 7 days on the script's calendar, shown as that day at midnight in the sheet.
    const orders = records(rt, 'orders');
    const orderRow = orders.findIndex((o) => o.discussion_id === log.discussion_id);
    expect(orders[orderRow].status).toBe('PENDING');
    const reviewDay = '2026-03-15';
    expect(shown(rt, 'Orders', columnOf(rt, 'Orders', 'review_date'))[orderRow]).toBe('2026/03/15 0:00:00');

    // The daily review at 09:00 in Tokyo: not on the day before the review date, on the review date it is.
    rt.clock.advanceTo(Date.parse(`${reviewDay}T09:00:00+09:00`) - DAY);
    const before = ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect(before.evaluated).toEqual([]);
    rt.clock.advanceTo(Date.parse(`${reviewDay}T09:00:00+09:00`));
    const on = ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect(on.evaluated.map((e: { discussion_id: string }) => e.discussion_id)).toEqual([log.discussion_id]);
    expect(statuses(rt)[String(log.discussion_id)]).toBe('CLOSED');
    await verified(rt);
  });
});

describe('the hour Auckland repeats when its summer time ends (2026-04-05 02:00-03:00)', () => {
  it('no date Kaigi writes falls inside it, so every audited row reads back as hashed', async () => {
    // 02:00 NZDT is 13:00Z and 02:00 NZST is 14:00Z: the wall clock 02:00-03:00 names two instants, and a cell
    // holding 02:05 gives back 13:05Z (runtime/host/values.ts). Kaigi opens a discussion at 14:05Z.
    const repeatEnds = Date.UTC(2026, 3, 4, 15, 0, 0);
    const rt = await team('Pacific/Auckland', Date.UTC(2026, 3, 4, 14, 5, 0));
    const watch = ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    expect(watch.opened.map((o: { member: string }) => o.member)).toContain('tanaka');
    await tickAcross(rt);
    const log = records(rt, 'discussions').find((r) => r.trigger_target_user === 'tanaka')!;
    expect(log.status).toBe('DECIDED');
    // Written at about 14:05Z, it moved to the nearer edge of the repeated hour: the end of it.
    expect((log.created_at as Date).toISOString()).toBe(new Date(repeatEnds).toISOString());
    await verified(rt);
  });
});

describe('setup on a new spreadsheet', () => {
  it("sets the spreadsheet's zone to the script's, and says so", async () => {
    const rt = newRuntime({ startAt: START, spreadsheetTimeZone: 'America/New_York' });
    const first = ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(first.timeZone).toMatchObject({ spreadsheet: 'Asia/Tokyo', script: 'Asia/Tokyo', set: true });
    expect(first.timeZone.note).toContain('was America/New_York');
    expect(rt.workbook.timeZone).toBe('Asia/Tokyo');
    const again = ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(again.timeZone).toMatchObject({ spreadsheet: 'Asia/Tokyo', set: false });
  });
});
