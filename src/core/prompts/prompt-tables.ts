// The data tables every prompt shares, in their compact form: the member's KPI by date, and the team beside them.
import { mean, metricsOf, series } from '../orders/kpi.js';
import { memoOnRows } from '../orders/kpi-index.js';
import type { KpiRow, Member } from '../types.js';

const num = (n: number) => String(Math.round(n * 100) / 100);

// The most metric columns a table in a prompt carries. The council reads only the metric table's metrics (Settings
// kpi.metrics), which people keep; this cap is the second line: a table that grew past it would grow every prompt of
// every discussion, so the columns past it are left out (in name order), and the table says how many.
export const MAX_METRIC_COLUMNS = 12;

function capped(metrics: string[]): { shown: string[]; left: number } {
  return { shown: metrics.slice(0, MAX_METRIC_COLUMNS), left: Math.max(0, metrics.length - MAX_METRIC_COLUMNS) };
}
// A cell of a comma-separated table: commas and line breaks would make a new column or row, so they become spaces.
const cell = (s: unknown) => String(s ?? '').replace(/[,\r\n]+/g, ' ');

// One row per date and a column per metric, the last `days` dates the member has data for: the same numbers as one
// row per date and metric, in about a fifth of the tokens.
// Every prompt of a discussion shows the same table: it is built once per KPI table, member and days.
export function kpiTable(rows: readonly KpiRow[], member: string, days: number): string {
  return memoOnRows(rows, `kpiTable\u0000${member}\u0000${days}`, () => buildKpiTable(rows, member, days));
}

function buildKpiTable(rows: readonly KpiRow[], member: string, days: number): string {
  const cap = capped(metricsOf(rows, member));
  const metrics = cap.shown;
  const byDate: Record<string, Record<string, number>> = {};
  for (const metric of metrics) for (const p of series(rows, member, metric)) (byDate[p.date] ??= {})[metric] = p.value;
  const dates = Object.keys(byDate).sort().slice(-days);
  if (!dates.length) return '';
  const lines = [['date'].concat(metrics).join(',')];
  for (const d of dates)
    lines.push([d].concat(metrics.map((m) => (m in byDate[d] ? num(byDate[d][m]) : ''))).join(','));
  if (cap.left) lines.push(`(${cap.left} more metrics left out)`);
  return lines.join('\n');
}

// Each member's mean of each metric over their last seven dates, and the team's mean: what "compared with the team"
// means in a prompt. Members come from the Members tab; KPI rows of anyone else are left out.
// The tables built from a KPI table, by the members they were built for: every prompt of a discussion (and its
// forecast, and a review's learning request, which reads other rows) shows the same team table.
export function teamTable(rows: readonly KpiRow[], members: readonly Member[]): string {
  const built = memoOnRows(rows, 'teamTable', () => [] as { members: readonly Member[]; m: number; table: string }[]);
  const hit = built.find((b) => b.members === members && b.m === members.length);
  if (hit) return hit.table;
  const table = buildTeamTable(rows, members);
  // A few member lists at most: an execution reads its members once.
  if (built.length >= 4) built.shift();
  built.push({ members, m: members.length, table });
  return table;
}

function buildTeamTable(rows: readonly KpiRow[], members: readonly Member[]): string {
  if (!members.length) return '';
  // One pass for the metrics (series() is indexed per table): the table is built for every prompt of a discussion.
  const ids = new Set(members.map((m) => m.member_id));
  const metrics: string[] = [];
  for (const r of rows) if (ids.has(r.member_id) && metrics.indexOf(r.metric) < 0) metrics.push(r.metric);
  metrics.sort();
  const cap = capped(metrics);
  metrics.splice(0, metrics.length, ...cap.shown);
  const header = ['member_id', 'name', 'team'].concat(metrics);
  const lines = [header.join(',')];
  const sums: number[][] = metrics.map(() => []);
  for (const m of members) {
    const values = metrics.map((metric, i) => {
      const s = series(rows, m.member_id, metric).slice(-7);
      if (!s.length) return '';
      const v = mean(s.map((p) => p.value));
      sums[i].push(v);
      return num(v);
    });
    lines.push([m.member_id, m.name, m.team].map(cell).concat(values).join(','));
  }
  lines.push(['(team)', '', ''].concat(sums.map((xs) => (xs.length ? num(mean(xs)) : ''))).join(','));
  if (cap.left) lines.push(`(${cap.left} more metrics left out)`);
  return lines.join('\n');
}
