// The year bench: a year of use on the runtime's clock — discussions, orders, the KPI feed, API traffic, the daily
// review and the archive — reporting per month Kaigi's own time per discussion, verifyAudit's time, the cells, and
// the records lost. The bulk takes a fast path (year-clone.ts, year-api-log.ts); what is measured runs for real.
import { Runtime } from '../runtime/runtime.js';
import type { Workbook } from '../runtime/host/workbook.js';
import { rowsOf, type TabKey, tabByKey } from '../sheets-schema/index.js';
import { SHEETS_CELL_LIMIT } from '../src/core/audit/retention-plan.js';
import { PROPERTY_KEYS } from '../src/core/property-keys.js';
import { must } from './discussion.js';
import { apiTraffic } from './year-api-log.js';
import { readState } from './year-audit.js';
import { captureTemplate, cloneDiscussions, type Template } from './year-clone.js';
import {
  addMembers,
  DAY_MS,
  dueDashboard,
  EXECUTION_LIMIT_MS,
  measuredDiscussion,
  postKpi,
  reviewDay,
  tokyoDay,
} from './year-day.js';

export interface YearSize {
  months: number;
  // Days in a month (a year is 12 × 365 / 12).
  month_days: number;
  per_day: number;
  // Discussions a month that run the real path, measured; the rest of the day's are the fast path's copies.
  real_per_month: number;
  api_per_minute: number;
  members: number;
  // The real daily review runs every review_every-th day of a month and on its last (1: every day).
  review_every: number;
}

interface YearMonth {
  month: number;
  days: number;
  discussions: number;
  own_ms_per_discussion: number;
  round_trips_per_discussion: number;
  // The month's longest Dashboard refresh a measured decision made due, in a tick of its own at its due time (the
  // backstop's): reported apart, as it reads whole tabs and serves every decision of a burst, not one discussion.
  dashboard_ms: number;
  // The month's longest day of review: the daily review's executions and the ticks after it, modelled.
  review_ms: number;
  review_longest_execution_ms: number;
  review_days_in_budget: number;
  review_days: number;
  // The review's executions that failed or ran out of Apps Script's six minutes, by day (yyyy-mm-dd: what stopped).
  review_stopped: string[];
  verify_ms: number;
  verify_wall_ms: number;
  verify_ok: boolean;
  cells: number;
  cell_share: number;
  // Cells of every archive spreadsheet together, how many there are, and the fullest one's share of its limit.
  archive_cells: number;
  archives: number;
  archive_max_share: number;
}

export interface YearResult {
  size: YearSize;
  fast_path: string;
  months: YearMonth[];
  lost: number;
  lost_by_kind: Record<string, number>;
  own_ratio_last_to_first: number;
  wall_ms: number;
  // Where the wall time went: set-up, the KPI feed, the measured discussions, the bulk's copies and API Log rows,
  // the real reviews (with their ticks and archive runs), verifyAudit.
  wall_by_part_ms: Record<WallPart, number>;
}

type WallPart = 'set_up' | 'kpi' | 'measured' | 'bulk' | 'api' | 'review' | 'verify';

// Runs `fn`, adding its wall time to `part`.
async function timed<T>(wall: Record<WallPart, number>, part: WallPart, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    wall[part] += performance.now() - t0;
  }
}

const YEAR_DEFAULTS: YearSize = {
  months: 12,
  month_days: 365 / 12,
  per_day: 20,
  real_per_month: 3,
  // A tenth of Settings api.rate_limit_per_minute (60).
  api_per_minute: 6,
  members: 20,
  // A week's decisions at a time: a real review costs seconds of wall time here (its reads of whole tabs, a commit per
  // decision, the archive run after it), and 365 of them would take most of an hour.
  review_every: 7,
};

// What runs on the fast path and what for real, as the output says it.
function fastPath(size: YearSize): string {
  const reviews =
    size.review_every > 1
      ? `the daily review runs for real every ${size.review_every}th day of a month and on its last, reviewing every ` +
        'decision due since the one before (on the days between no review runs, so each real review does up to ' +
        `${size.review_every} days' work); `
      : 'the daily review runs for real every day; ';
  return (
    "bulk discussions are copies of the month's last real one (rows, audit events with digests taken again, chain " +
    'extended) written straight into the workbook; API traffic is written as API Log rows with their batch event; ' +
    reviews +
    'the measured discussions, the KPI feed (POST /kpi), the reviews, the archive runs after them and verifyAudit ' +
    'run the built file in the runtime'
  );
}

function values(wb: Workbook | undefined, tab: TabKey, cols: readonly string[]): unknown[][] {
  const s = wb?.sheetByName(tabByKey(tab).name);
  if (!wb || !s) return [];
  const last = wb.lastRow(s);
  if (last < 2) return [];
  const m = rowsOf(tab) as unknown as { index(c: string): number };
  return cols.map((c) => wb.getValues(s, 2, m.index(c) + 1, last - 1, 1).map((r) => r[0]));
}

// Every archive spreadsheet in order (the KAIGI_ARCHIVES list; before it, the one KAIGI_ARCHIVE_ID names).
function archives(rt: Runtime): Workbook[] {
  const raw = rt.scriptProperties.get(PROPERTY_KEYS.archives);
  const one = rt.scriptProperties.get(PROPERTY_KEYS.archiveId);
  const ids = raw ? (JSON.parse(raw) as { archives: { id: string }[] }).archives.map((a) => a.id) : one ? [one] : [];
  return ids.map((id) => rt.spreadsheet(id)).filter((wb): wb is Workbook => wb !== undefined);
}

// Records that should exist and are in neither the spreadsheet nor any archive.
function lostRecords(
  rt: Runtime,
  expect: { discussions: Set<string>; orders: Set<string>; apiRows: number; kpiRows: number },
): Record<string, number> {
  const books = [rt.workbook, ...archives(rt)];
  const ids = (tab: TabKey, col: string) => new Set(books.flatMap((wb) => values(wb, tab, [col]).flat()).map(String));
  const missing = (want: Set<string>, have: Set<string>) => [...want].filter((x) => !have.has(x)).length;
  const count = (tab: TabKey) =>
    books.reduce((n, wb) => n + (values(wb, tab, [tabByKey(tab).columns[0].key])[0]?.length ?? 0), 0);
  return {
    discussions: missing(expect.discussions, ids('discussions', 'discussion_id')),
    orders: missing(expect.orders, ids('orders', 'order_id')),
    audit: Math.max(0, readState(rt).audit.seq - count('audit')),
    api_log: Math.max(0, expect.apiRows - count('api_log')),
    kpi: Math.max(0, expect.kpiRows - count('kpi')),
  };
}

// `progress`: told a line at each month's end (the bench's stderr), so a run of minutes shows where it is.
export async function yearBench(
  startAt: number,
  size: YearSize = YEAR_DEFAULTS,
  progress?: (line: string) => void,
): Promise<YearResult> {
  const t0 = Date.now();
  const wall: Record<WallPart, number> = { set_up: 0, kpi: 0, measured: 0, bulk: 0, api: 0, review: 0, verify: 0 };
  const rt = new Runtime({ startAt });
  try {
    const { members, admin } = await timed(wall, 'set_up', async () => {
      must(await rt.run('setup', [], { kind: 'menu' }));
      must(await rt.run('seedDemoData', [], { kind: 'menu' }));
      return {
        members: await addMembers(rt, size.members),
        admin: must(await rt.run('createApiClient', [{ name: 'crm', role: 'admin' }], { kind: 'server' })) as {
          token: string;
        },
      };
    });
    const expect = {
      discussions: new Set<string>(),
      orders: new Set<string>(),
      apiRows: 0,
      kpiRows: values(rt.workbook, 'kpi', ['member_id'])[0]?.length ?? 0,
    };
    const months: YearMonth[] = [];
    const days = Math.round(size.months * size.month_days);
    let template: Template | null = null;
    let month = emptyMonth(0);
    let measured = { own: 0, trips: 0, n: 0 };
    for (let d = 0; d < days; d++) {
      const m = Math.min(size.months - 1, Math.floor(d / size.month_days));
      const dayStart = startAt + d * DAY_MS;
      rt.clock.advanceTo(Math.max(rt.clock.now(), dayStart));
      const day = tokyoDay(rt.clock.now());
      expect.kpiRows += await timed(wall, 'kpi', () => postKpi(rt, admin.token, members, day));
      expect.apiRows += 1;
      month.days++;
      // The month's first days carry its measured discussions, one a day.
      const firstOfMonth = Math.ceil(m * size.month_days);
      const real = d - firstOfMonth < size.real_per_month ? 1 : 0;
      for (let i = 0; i < Math.min(real, size.per_day); i++) {
        // A refresh the day's reviews or API calls left due runs first, in its own tick, as the backstop would run it.
        month.dashboard_ms = Math.max(month.dashboard_ms, await timed(wall, 'measured', () => dueDashboard(rt)));
        const seq = readState(rt).audit.seq;
        const r = await timed(wall, 'measured', () => measuredDiscussion(rt));
        expect.discussions.add(r.id);
        for (const o of r.orders) expect.orders.add(o);
        measured = { own: measured.own + r.own_ms, trips: measured.trips + r.round_trips, n: measured.n + 1 };
        template = captureTemplate(rt, seq);
        month.dashboard_ms = Math.max(month.dashboard_ms, await timed(wall, 'measured', () => dueDashboard(rt)));
      }
      const t = template;
      if (!t) throw new Error('no real discussion ran before the bulk: real_per_month must be at least 1');
      const bulk = await timed(wall, 'bulk', async () =>
        cloneDiscussions(rt, t, day, rt.clock.now() + 60_000, size.per_day - real),
      );
      for (const id of bulk.discussions) expect.discussions.add(id);
      for (const o of bulk.orders) expect.orders.add(o);
      month.discussions += real + bulk.discussions.length;
      // The day's API calls, the day before this morning's 10:00 (JST), one client polling.
      expect.apiRows += await timed(wall, 'api', async () =>
        apiTraffic(rt, dayStart - DAY_MS, 24 * 60, size.api_per_minute, 'crm'),
      );
      const lastOfMonth = d === days - 1 || Math.min(size.months - 1, Math.floor((d + 1) / size.month_days)) !== m;
      // The daily review at 06:00 the next morning (JST), on the day's grown workbook: every review_every-th day of
      // the month and its last, each reviewing every decision due since the last (the fast path's other days).
      if (lastOfMonth || (d - firstOfMonth + 1) % size.review_every === 0) {
        rt.clock.advanceTo(Math.max(rt.clock.now(), dayStart + 20 * 3600_000));
        const review = await timed(wall, 'review', () => reviewDay(rt));
        month.review_days++;
        if (!review.failed && !review.left && review.longest_ms <= EXECUTION_LIMIT_MS) month.review_days_in_budget++;
        month.review_ms = Math.max(month.review_ms, review.ms);
        month.review_longest_execution_ms = Math.max(month.review_longest_execution_ms, review.longest_ms);
        for (const x of review.stopped) month.review_stopped.push(`${day}: ${x}`);
      }
      if (!lastOfMonth) continue;
      const w0 = performance.now();
      const verify = await timed(wall, 'verify', () => rt.run('verifyAudit', [], { kind: 'editor' }));
      const report = must(verify) as { ok: boolean; problem?: { detail: string } };
      if (!report.ok) console.error(`year: verifyAudit in month ${m + 1}: ${report.problem?.detail}`);
      const cells = rt.workbook.totalCells();
      const kept = archives(rt);
      months.push({
        ...month,
        month: m + 1,
        own_ms_per_discussion: Math.round(measured.own / Math.max(1, measured.n)),
        round_trips_per_discussion: Math.round((measured.trips / Math.max(1, measured.n)) * 10) / 10,
        verify_ms: verify.endedAt - verify.startedAt,
        verify_wall_ms: Math.round(performance.now() - w0),
        verify_ok: report.ok,
        cells,
        cell_share: Math.round((cells / SHEETS_CELL_LIMIT) * 1000) / 1000,
        archive_cells: kept.reduce((n, wb) => n + wb.totalCells(), 0),
        archives: kept.length,
        archive_max_share:
          Math.round((Math.max(0, ...kept.map((wb) => wb.totalCells())) / SHEETS_CELL_LIMIT) * 1000) / 1000,
      });
      const done = months[months.length - 1];
      progress?.(
        `year: month ${done.month} at ${Math.round((Date.now() - t0) / 1000)} s wall (review ${Math.round(wall.review / 1000)} s, ` +
          `verifyAudit ${Math.round(wall.verify / 1000)} s so far; this month's verifyAudit ${done.verify_wall_ms} ms, ${done.verify_ok ? 'intact' : 'BROKEN'})`,
      );
      month = emptyMonth(m + 1);
      measured = { own: 0, trips: 0, n: 0 };
    }
    // One more tick appends the API Log rows the last calls left waiting in the inbox, as the backstop would.
    must(await rt.run('tick', [], { kind: 'trigger' }));
    const lost_by_kind = lostRecords(rt, expect);
    const lost = Object.values(lost_by_kind).reduce((a, b) => a + b, 0) + months.filter((x) => !x.verify_ok).length;
    const first = months[0]?.own_ms_per_discussion || 1;
    return {
      size,
      fast_path: fastPath(size),
      months,
      lost,
      lost_by_kind,
      own_ratio_last_to_first:
        Math.round(((months[months.length - 1]?.own_ms_per_discussion ?? 0) / first) * 100) / 100,
      wall_ms: Date.now() - t0,
      wall_by_part_ms: Object.fromEntries(Object.entries(wall).map(([k, v]) => [k, Math.round(v)])) as Record<
        WallPart,
        number
      >,
    };
  } finally {
    await rt.close();
  }
}

function emptyMonth(m: number): YearMonth {
  return {
    month: m + 1,
    days: 0,
    discussions: 0,
    own_ms_per_discussion: 0,
    round_trips_per_discussion: 0,
    dashboard_ms: 0,
    review_ms: 0,
    review_longest_execution_ms: 0,
    review_days_in_budget: 0,
    review_days: 0,
    review_stopped: [],
    verify_ms: 0,
    verify_wall_ms: 0,
    verify_ok: false,
    cells: 0,
    cell_share: 0,
    archive_cells: 0,
    archives: 0,
    archive_max_share: 0,
  };
}

// The size from the environment (KAIGI_BENCH_YEAR_MONTHS, _MONTH_DAYS, _PER_DAY, _REAL, _API_PER_MINUTE), else a year.
export function yearSize(env: Record<string, string | undefined>): YearSize {
  const n = (k: string, d: number) => (env[k] !== undefined && env[k] !== '' ? Number(env[k]) : d);
  return {
    months: n('KAIGI_BENCH_YEAR_MONTHS', YEAR_DEFAULTS.months),
    month_days: n('KAIGI_BENCH_YEAR_MONTH_DAYS', YEAR_DEFAULTS.month_days),
    per_day: n('KAIGI_BENCH_YEAR_PER_DAY', YEAR_DEFAULTS.per_day),
    real_per_month: n('KAIGI_BENCH_YEAR_REAL', YEAR_DEFAULTS.real_per_month),
    api_per_minute: n('KAIGI_BENCH_YEAR_API_PER_MINUTE', YEAR_DEFAULTS.api_per_minute),
    members: YEAR_DEFAULTS.members,
    review_every: Math.max(1, n('KAIGI_BENCH_YEAR_REVIEW_EVERY', YEAR_DEFAULTS.review_every)),
  };
}

export function printYear(r: YearResult): void {
  const s = r.size;
  console.log(
    `\nA year of use: ${s.months} months of ${s.month_days.toFixed(1)} days, ${s.per_day} discussions a day (${s.real_per_month} a month on the real path), ${s.api_per_minute} API calls a minute, KPI for ${s.members} members`,
  );
  console.log(`  fast path: ${r.fast_path}`);
  for (const m of r.months)
    console.log(
      `  month ${String(m.month).padStart(2)}: ${m.discussions} discussions, own ${(m.own_ms_per_discussion / 1000).toFixed(2)} s and ${m.round_trips_per_discussion} round trips a discussion; review longest day ${(m.review_ms / 1000).toFixed(1)} s (${m.review_days_in_budget}/${m.review_days} real reviews in budget, ${m.days} days); verifyAudit ${(m.verify_ms / 1000).toFixed(1)} s modelled, ${m.verify_wall_ms} ms wall, ${m.verify_ok ? 'intact' : 'BROKEN'}; cells ${m.cells} (${(m.cell_share * 100).toFixed(1)} %), archive ${m.archive_cells} in ${m.archives} (fullest ${(m.archive_max_share * 100).toFixed(1)} %)`,
    );
  console.log(
    `  month ${r.months.length} / month 1 own time: ${r.own_ratio_last_to_first} (target ≤ 1.2); lost ${r.lost} ${JSON.stringify(r.lost_by_kind)}; ${Math.round(r.wall_ms / 1000)} s wall`,
  );
  console.log(
    `  wall by part: ${Object.entries(r.wall_by_part_ms)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
      .join(', ')}`,
  );
}
