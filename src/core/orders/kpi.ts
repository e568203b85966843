// Reading the KPI data: a member's series per metric, recent change, runs of decline, team context.
import type { KpiRow } from '../types.js';
import { kpiIndex, kpiLists, type Point } from './kpi-index.js';

export type { Point } from './kpi-index.js';

export function series(rows: readonly KpiRow[], member: string, metric: string): Point[] {
  const points = kpiIndex(rows).points.get(String(member))?.get(String(metric));
  return points ? points.slice() : [];
}

export function metricsOf(rows: readonly KpiRow[], member: string): string[] {
  return (kpiLists(rows).metrics.get(member) ?? []).slice();
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
  const ids = (kpiLists(rows).members.get(metric) ?? []).filter((id) => id !== except);
  const changes = ids.map((id) => recentChange(series(rows, id, metric), days)).filter((c): c is Change => c !== null);
  return {
    members: changes.length,
    falling: changes.filter((c) => c.ratio < 0).length,
    meanChange: mean(changes.map((c) => c.ratio)),
  };
}
