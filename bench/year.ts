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
}

interface YearMonth {
  month: number;
  discussions: number;
  own_ms_per_discussion: number;
  round_trips_per_discussion: number;
  // The month's longest day of review: the daily review's executions and the ticks after it, modelled.
  review_ms: number;
  review_longest_execution_ms: number;
  review_days_in_budget: number;
  review_days: number;
  verify_ms: number;
  verify_wall_ms: number;
  verify_ok: boolean;
  cells: number;
  cell_share: number;
  archive_cells: number;
}

export interface YearResult {
  size: YearSize;
  fast_path: string;
  months: YearMonth[];
  lost: number;
  lost_by_kind: Record<string, number>;
  own_ratio_last_to_first: number;
  wall_ms: number;
}

const YEAR_DEFAULTS: YearSize = {
  months: 12,
  month_days: 365 / 12,
  per_day: 20,
  real_per_month: 3,
  // A tenth of Settings api.rate_limit_per_minute (60).
  api_per_minute: 6,
  members: 20,
};

const FAST_PATH =
  "bulk discussions are copies of the month's last real one (rows, audit events with digests taken again, chain " +
  'extended) written straight into the workbook; API traffic is written as API Log rows with their batch event; ' +
  'the measured discussions, the KPI feed (POST /kpi), the daily review, the archive run and verifyAudit run the ' +
  'built file in the runtime';

function values(wb: Workbook | undefined, tab: TabKey, cols: readonly string[]): unknown[][] {
  const s = wb?.sheetByName(tabByKey(tab).name);
  if (!wb || !s) return [];
  const last = wb.lastRow(s);
  if (last < 2) return [];
  const m = rowsOf(tab) as unknown as { index(c: string): number };
  return cols.map((c) => wb.getValues(s, 2, m.index(c) + 1, last - 1, 1).map((r) => r[0]));
}

// Records that should exist and are in neither the spreadsheet nor the archive.
function lostRecords(
  rt: Runtime,
  expect: { discussions: Set<string>; orders: Set<string>; apiRows: number; kpiRows: number },
): Record<string, number> {
  const archiveId = rt.scriptProperties.get(PROPERTY_KEYS.archiveId);
  const archive = archiveId ? rt.spreadsheet(archiveId) : undefined;
  const ids = (tab: TabKey, col: string) =>
    new Set([...values(rt.workbook, tab, [col]), ...values(archive, tab, [col])].flat().map(String));
  const missing = (want: Set<string>, have: Set<string>) => [...want].filter((x) => !have.has(x)).length;
  const count = (wb: Workbook | undefined, tab: TabKey) =>
    values(wb, tab, [tabByKey(tab).columns[0].key])[0]?.length ?? 0;
  const auditRows = count(rt.workbook, 'audit') + count(archive, 'audit');
  return {
    discussions: missing(expect.discussions, ids('discussions', 'discussion_id')),
    orders: missing(expect.orders, ids('orders', 'order_id')),
    audit: Math.max(0, readState(rt).audit.seq - auditRows),
    api_log: Math.max(0, expect.apiRows - count(rt.workbook, 'api_log') - count(archive, 'api_log')),
    kpi: Math.max(0, expect.kpiRows - count(rt.workbook, 'kpi') - count(archive, 'kpi')),
  };
}

export async function yearBench(startAt: number, size: YearSize = YEAR_DEFAULTS): Promise<YearResult> {
  const t0 = Date.now();
  const rt = new Runtime({ startAt });
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    const members = await addMembers(rt, size.members);
    const admin = must(await rt.run('createApiClient', [{ name: 'crm', role: 'admin' }], { kind: 'server' })) as {
      token: string;
    };
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
      expect.kpiRows += await postKpi(rt, admin.token, members, day);
      expect.apiRows += 1;
      // The month's first days carry its measured discussions, one a day.
      const firstOfMonth = Math.ceil(m * size.month_days);
      const real = d - firstOfMonth < size.real_per_month ? 1 : 0;
      for (let i = 0; i < Math.min(real, size.per_day); i++) {
        const seq = readState(rt).audit.seq;
        const r = await measuredDiscussion(rt);
        expect.discussions.add(r.id);
        for (const o of r.orders) expect.orders.add(o);
        measured = { own: measured.own + r.own_ms, trips: measured.trips + r.round_trips, n: measured.n + 1 };
        template = captureTemplate(rt, seq);
      }
      if (!template) throw new Error('no real discussion ran before the bulk: real_per_month must be at least 1');
      const bulk = cloneDiscussions(rt, template, day, rt.clock.now() + 60_000, size.per_day - real);
      for (const id of bulk.discussions) expect.discussions.add(id);
      for (const o of bulk.orders) expect.orders.add(o);
      month.discussions += real + bulk.discussions.length;
      // The day's API calls, the day before this morning's 10:00 (JST), one client polling.
      expect.apiRows += apiTraffic(rt, dayStart - DAY_MS, 24 * 60, size.api_per_minute, 'crm');
      // The daily review at 06:00 the next morning (JST), on the day's grown workbook.
      rt.clock.advanceTo(Math.max(rt.clock.now(), dayStart + 20 * 3600_000));
      const review = await reviewDay(rt);
      month.review_days++;
      if (!review.failed && !review.left && review.longest_ms <= EXECUTION_LIMIT_MS) month.review_days_in_budget++;
      month.review_ms = Math.max(month.review_ms, review.ms);
      month.review_longest_execution_ms = Math.max(month.review_longest_execution_ms, review.longest_ms);
      const lastOfMonth = d === days - 1 || Math.min(size.months - 1, Math.floor((d + 1) / size.month_days)) !== m;
      if (!lastOfMonth) continue;
      const w0 = performance.now();
      const verify = await rt.run('verifyAudit', [], { kind: 'editor' });
      const report = must(verify) as { ok: boolean; problem?: { detail: string } };
      if (!report.ok) console.error(`year: verifyAudit in month ${m + 1}: ${report.problem?.detail}`);
      const archiveId = rt.scriptProperties.get(PROPERTY_KEYS.archiveId);
      const cells = rt.workbook.totalCells();
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
        archive_cells: archiveId ? (rt.spreadsheet(archiveId)?.totalCells() ?? 0) : 0,
      });
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
      fast_path: FAST_PATH,
      months,
      lost,
      lost_by_kind,
      own_ratio_last_to_first:
        Math.round(((months[months.length - 1]?.own_ms_per_discussion ?? 0) / first) * 100) / 100,
      wall_ms: Date.now() - t0,
    };
  } finally {
    await rt.close();
  }
}

function emptyMonth(m: number): YearMonth {
  return {
    month: m + 1,
    discussions: 0,
    own_ms_per_discussion: 0,
    round_trips_per_discussion: 0,
    review_ms: 0,
    review_longest_execution_ms: 0,
    review_days_in_budget: 0,
    review_days: 0,
    verify_ms: 0,
    verify_wall_ms: 0,
    verify_ok: false,
    cells: 0,
    cell_share: 0,
    archive_cells: 0,
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
      `  month ${String(m.month).padStart(2)}: ${m.discussions} discussions, own ${(m.own_ms_per_discussion / 1000).toFixed(2)} s and ${m.round_trips_per_discussion} round trips a discussion; review longest day ${(m.review_ms / 1000).toFixed(1)} s (${m.review_days_in_budget}/${m.review_days} days in budget); verifyAudit ${(m.verify_ms / 1000).toFixed(1)} s modelled, ${m.verify_wall_ms} ms wall, ${m.verify_ok ? 'intact' : 'BROKEN'}; cells ${m.cells} (${(m.cell_share * 100).toFixed(1)} %), archive ${m.archive_cells}`,
    );
  console.log(
    `  month ${r.months.length} / month 1 own time: ${r.own_ratio_last_to_first} (target ≤ 1.2); lost ${r.lost} ${JSON.stringify(r.lost_by_kind)}; ${Math.round(r.wall_ms / 1000)} s wall`,
  );
}
