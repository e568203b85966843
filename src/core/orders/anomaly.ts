// The watcher's anomaly rule: a member's latest value of a metric more than `sigma` standard
// deviations from their own mean over the days before it, when that window holds enough values.
import type { KpiRow } from '../types.js';
import { mean, type Point, series } from './kpi.js';
import type { MetricDef } from './metric-table.js';
import { parseInstant } from '../instant.js';

export interface AnomalyRule {
  sigma: number;
  windowDays: number;
  minPoints: number;
}

export interface Anomaly {
  member: string;
  metric: string;
  // Which way the swing went for the member: 'bad' against the metric's good direction, 'good' with it.
  direction: 'bad' | 'good';
  date: string;
  value: number;
  mean: number;
  sd: number;
  // Values in the window the mean and deviation came from.
  points: number;
}

const DAY = 86_400_000;
const round = (n: number) => Math.round(n * 100) / 100;

function daysBefore(day: string, n: number): string {
  return new Date(parseInstant(`${day}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);
}

// The latest point against the `windowDays` days before it (population deviation). A window whose values are all
// equal has no spread: any other value is off it, the same value is not.
export function anomalyOf(
  s: readonly Point[],
  rule: AnomalyRule,
): Omit<Anomaly, 'member' | 'metric' | 'direction'> | null {
  if (!s.length) return null;
  const last = s[s.length - 1];
  const from = daysBefore(last.date, rule.windowDays);
  const window = s.filter((p) => p.date >= from && p.date < last.date).map((p) => p.value);
  if (window.length < rule.minPoints) return null;
  const m = mean(window);
  const sd = Math.sqrt(mean(window.map((v) => (v - m) ** 2)));
  const off = Math.abs(last.value - m);
  if (sd === 0 ? off === 0 : off <= rule.sigma * sd) return null;
  return { date: last.date, value: last.value, mean: m, sd, points: window.length };
}

// Every member × watched metric of the table the KPI rows hold, in member then metric order, each with its direction.
// A metric the table does not watch (a counter such as a login streak, whose swings are no news) is left out.
export function anomalies(
  rows: readonly KpiRow[],
  rule: AnomalyRule,
  table: readonly Pick<MetricDef, 'name' | 'good' | 'watched'>[],
): Anomaly[] {
  const watched = new Map(table.filter((m) => m.watched).map((m) => [m.name, m.good]));
  const pairs: Record<string, { member: string; metric: string }> = {};
  for (const r of rows)
    if (watched.has(r.metric)) pairs[`${r.member_id}\n${r.metric}`] = { member: r.member_id, metric: r.metric };
  const out: Anomaly[] = [];
  for (const k of Object.keys(pairs).sort()) {
    const { member, metric } = pairs[k];
    const a = anomalyOf(series(rows, member, metric), rule);
    if (!a) continue;
    const up = a.value > a.mean;
    const direction = up === (watched.get(metric) === 'up') ? 'good' : 'bad';
    out.push({ member, metric, direction, ...a });
  }
  return out;
}

// The Monday of a day's week (YYYY-MM-DD): a good swing is told at most once a week per member and metric.
export function weekOf(day: string): string {
  const t = parseInstant(`${day}T00:00:00Z`);
  const dow = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - dow * DAY).toISOString().slice(0, 10);
}

// What a person reads of an alert's member and metric: the member's name and the metric's label in each language
// (ids are codes to a person, and a Japanese page would show them as English).
export interface Shown {
  name: string;
  label_ja: string;
  label_en: string;
}

type Titled = { member: string; metric: string; date: string };

// A good swing's Inbox titles, by the week, so a re-run (or another good day that week) finds the row it wrote.
export function milestoneTitles(a: Titled, shown: Shown): { ja: string; en: string } {
  const week = weekOf(a.date);
  return {
    ja: `KPI の好転: ${shown.name}さん / ${shown.label_ja} / ${week} の週`,
    en: `KPI milestone: ${shown.name} / ${shown.label_en} / week of ${week}`,
  };
}

export function milestoneBody(a: Anomaly, shown: Shown, lang: 'ja' | 'en'): string {
  return lang === 'ja'
    ? `${shown.name}さんの${shown.label_ja}は ${a.date} に ${a.value} で、直前 ${a.points} 点の平均 ${round(a.mean)} から良い方向に大きく動きました。`
    : `${shown.name}'s ${shown.label_en} was ${a.value} on ${a.date}, far from the mean ${round(a.mean)} of the ${a.points} values before it, and the good way.`;
}

// How an anomaly is told in the Inbox. The title names the member, the metric and the day, so a re-run finds the row
// it wrote (in either language) and tells nothing twice.
export function anomalyTitles(a: Titled, shown: Shown): { ja: string; en: string } {
  return {
    ja: `KPI の外れ値: ${shown.name}さん / ${shown.label_ja} / ${a.date}`,
    en: `KPI outlier: ${shown.name} / ${shown.label_en} / ${a.date}`,
  };
}

// The titles earlier releases wrote, with the member's id and the metric's name: a re-run after an upgrade finds
// those rows too and does not tell the same day again.
export function idTitles(a: Titled & { direction: string }): { ja: string; en: string } {
  if (a.direction === 'good') {
    const week = weekOf(a.date);
    return {
      ja: `KPI の好転: ${a.member} / ${a.metric} / ${week} の週`,
      en: `KPI milestone: ${a.member} / ${a.metric} / week of ${week}`,
    };
  }
  return {
    ja: `KPI の外れ値: ${a.member} / ${a.metric} / ${a.date}`,
    en: `KPI outlier: ${a.member} / ${a.metric} / ${a.date}`,
  };
}

export function anomalyBody(a: Anomaly, shown: Shown, sigma: number, lang: 'ja' | 'en'): string {
  const dev = a.sd === 0 ? '∞' : String(round(Math.abs(a.value - a.mean) / a.sd));
  return lang === 'ja'
    ? `${shown.name}さんの${shown.label_ja}は ${a.date} に ${a.value} で、直前 ${a.points} 点の平均 ${round(a.mean)}（標準偏差 ${round(a.sd)}）から ${dev}σ 離れています（基準 ${sigma}σ）。`
    : `${shown.name}'s ${shown.label_en} was ${a.value} on ${a.date}, ${dev} σ from the mean ${round(a.mean)} (σ ${round(a.sd)}) of the ${a.points} values before it (threshold ${sigma} σ).`;
}
