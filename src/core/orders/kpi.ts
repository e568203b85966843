// Reading the KPI data: a member's series per metric, recent change, runs of decline, team context.
import type { KpiRow } from '../types.js';

export interface Point {
  date: string;
  value: number;
}

export function series(rows: readonly KpiRow[], member: string, metric: string): Point[] {
  const points = indexOf(rows).get(`${member}\u0000${metric}`);
  return points ? points.slice() : [];
}

// Every series of a KPI table at once, kept per table: a discussion's prompts and rules ask for dozens of series of the
// same rows, and a filter over all rows for each made the learning bench's year of discussions several times slower.
// The rows are readonly by type; a table that grew or shrank (its length or ends changed) is indexed afresh.
interface KpiIndex {
  length: number;
  first: KpiRow | undefined;
  last: KpiRow | undefined;
  points: Map<string, Point[]>;
}
const indexes = new WeakMap<readonly KpiRow[], KpiIndex>();

function indexOf(rows: readonly KpiRow[]): Map<string, Point[]> {
  const known = indexes.get(rows);
  if (known && known.length === rows.length && known.first === rows[0] && known.last === rows[rows.length - 1])
    return known.points;
  const points = new Map<string, Point[]>();
  for (const r of rows) {
    if (typeof r.value !== 'number' || !Number.isFinite(r.value)) continue;
    const key = `${r.member_id}\u0000${r.metric}`;
    let list = points.get(key);
    if (!list) points.set(key, (list = []));
    list.push({ date: r.date, value: r.value });
  }
  // A stable sort: equal dates keep their row order, as the filter-then-sort this replaces did.
  for (const list of points.values()) list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  indexes.set(rows, { length: rows.length, first: rows[0], last: rows[rows.length - 1], points });
  return points;
}

export function metricsOf(rows: readonly KpiRow[], member: string): string[] {
  const out: string[] = [];
  for (const r of rows) if (r.member_id === member && out.indexOf(r.metric) < 0) out.push(r.metric);
  return out.sort();
}

// Number of consecutive day-over-day falls ending at the latest point.
export function declineRun(s: readonly Point[]): number {
  let n = 0;
  for (let i = s.length - 1; i > 0 && s[i].value < s[i - 1].value; i--) n++;
  return n;
}

export interface Change {
  from: number;
  to: number;
  ratio: number;
  days: number;
}

// A decline the watcher acts on: at least `minDays` falls in a row, together at least `minDrop` of the start value.
// A run is known by its first day of falling (`start`): the same decline seen again on a later day has the same
// start, while a fall after a recovery starts a new run.
export interface Decline {
  run: number;
  change: Change;
  start: string;
  last: string;
}

export function declineOf(s: readonly Point[], minDays: number, minDrop: number): Decline | null {
  const run = declineRun(s);
  const change = recentChange(s, run);
  if (run < minDays || !change || -change.ratio < minDrop) return null;
  return { run, change, start: s[s.length - run].date, last: s[s.length - 1].date };
}

// Change over the latest run of `days` falls (or over the last `days` days when given).
export function recentChange(s: readonly Point[], days: number): Change | null {
  if (s.length < 2 || days < 1) return null;
  const start = s[Math.max(0, s.length - 1 - days)];
  const end = s[s.length - 1];
  return {
    from: start.value,
    to: end.value,
    ratio: start.value === 0 ? 0 : (end.value - start.value) / start.value,
    days: Math.min(days, s.length - 1),
  };
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

export function windowMean(s: readonly Point[], from: number, to: number): number {
  return mean(s.slice(Math.max(0, s.length - to), Math.max(0, s.length - from)).map((p) => p.value));
}

export function latest(s: readonly Point[]): number | null {
  return s.length ? s[s.length - 1].value : null;
}

export function maxOf(s: readonly Point[]): number | null {
  return s.length ? Math.max(...s.map((p) => p.value)) : null;
}

export function pct(ratio: number): string {
  const v = Math.round(ratio * 100);
  return `${v > 0 ? '+' : ''}${v}%`;
}

export interface TeamTrend {
  members: number;
  falling: number;
  meanChange: number;
}

// How the rest of the team moved on a metric over the same window.
export function teamTrend(rows: readonly KpiRow[], metric: string, except: string, days: number): TeamTrend {
  const ids: string[] = [];
  for (const r of rows)
    if (r.metric === metric && r.member_id !== except && ids.indexOf(r.member_id) < 0) ids.push(r.member_id);
  const changes = ids.map((id) => recentChange(series(rows, id, metric), days)).filter((c): c is Change => c !== null);
  return {
    members: changes.length,
    falling: changes.filter((c) => c.ratio < 0).length,
    meanChange: mean(changes.map((c) => c.ratio)),
  };
}
