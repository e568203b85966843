// The metric table (Settings kpi.metrics): each KPI metric's name, labels, kind, good direction, range and whether a
// swing of it is watched. KPI rows are checked against it at every door, and only its metrics reach prompts.
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import { quoteInput } from '../api/input-echo.js';

const METRIC_KINDS = ['count', 'hours', 'rate', 'score', 'streak'] as const;

const metricTableSchema = lazy(() =>
  z.array(
    z.strictObject({
      name: z.string().trim().min(1).max(64),
      label_ja: z.string().max(64),
      label_en: z.string().max(64),
      kind: z.enum(METRIC_KINDS),
      good: z.enum(['up', 'down']),
      min: z.number().finite(),
      max: z.number().finite(),
      watched: z.boolean(),
    }),
  ),
);
export type MetricDef = z.infer<ReturnType<typeof metricTableSchema>>[number];

// The demo team's metrics, which a new workbook starts with. Counters that only climb while things go well
// (a login streak, praise counted over 7 days) are not watched: their swings are no news.
export const DEFAULT_METRICS: readonly MetricDef[] = [
  {
    name: 'contacts',
    label_ja: '連絡数',
    label_en: 'Contacts',
    kind: 'count',
    good: 'up',
    min: 0,
    max: 500,
    watched: true,
  },
  {
    name: 'appointments',
    label_ja: 'アポ数',
    label_en: 'Appointments',
    kind: 'count',
    good: 'up',
    min: 0,
    max: 200,
    watched: true,
  },
  {
    name: 'login_streak',
    label_ja: 'ログイン連続日数',
    label_en: 'Login streak',
    kind: 'streak',
    good: 'up',
    min: 0,
    max: 3660,
    watched: false,
  },
  {
    name: 'praise_count_last_7d',
    label_ja: '直近7日の称賛数',
    label_en: 'Praise (last 7 days)',
    kind: 'count',
    good: 'up',
    min: 0,
    max: 1000,
    watched: false,
  },
  {
    name: 'overtime_hours',
    label_ja: '残業時間',
    label_en: 'Overtime (h)',
    kind: 'hours',
    good: 'down',
    min: 0,
    max: 24,
    watched: true,
  },
];

// A metric found in the KPI tab but missing from the table (a workbook from before the table): it joins with the
// range it was observed in, widened (from 0, or twice the lowest when negative, to twice the highest) so the next
// ordinary value is not refused; its direction and kind are guesses a person should check, and it is not watched.
export function observedMetric(name: string, values: readonly number[]): MetricDef {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  return {
    name,
    label_ja: name,
    label_en: name,
    kind: 'score',
    good: 'up',
    min: lo < 0 ? lo * 2 : 0,
    max: hi > 0 ? hi * 2 : 1,
    watched: false,
  };
}

// A KPI row's problems against the table and the calendar, each naming its field: a metric the table lacks, a value
// outside the metric's range, a day after today (in the sheet's zone) or before the earliest accepted day.
export function metricIssues(
  row: { date: string; metric: string; value: number },
  i: number,
  bounds: { metrics: readonly MetricDef[]; today: string; earliest: string },
): { field: string; code: string; message: string }[] {
  const out: { field: string; code: string; message: string }[] = [];
  const def = bounds.metrics.find((m) => m.name === row.metric);
  if (!def)
    out.push({
      field: `rows[${i}].metric`,
      code: 'unknown_metric',
      message: `${quoteInput(row.metric, 'that metric')} is not in the metric table (Settings kpi.metrics: ${bounds.metrics.map((m) => m.name).join(', ')})`,
    });
  else if (row.value < def.min || row.value > def.max)
    out.push({
      field: `rows[${i}].value`,
      code: 'out_of_range',
      message: `${row.value} is outside ${row.metric}'s range ${def.min}–${def.max} (Settings kpi.metrics)`,
    });
  if (row.date > bounds.today)
    out.push({
      field: `rows[${i}].date`,
      code: 'future_date',
      message: `${row.date} is after today (${bounds.today} in the sheet's time zone)`,
    });
  else if (bounds.earliest && row.date < bounds.earliest)
    out.push({
      field: `rows[${i}].date`,
      code: 'too_early',
      message: `${row.date} is before the earliest accepted day ${bounds.earliest} (Settings kpi.earliest_date)`,
    });
  return out;
}

// Settings kpi.metrics as stored; a value of another shape falls back to the default table (and is reported as a
// setting problem by the settings check, like any unreadable row), never to no table at all.
export function metricTable(raw: unknown): MetricDef[] {
  const parsed = metricTableSchema().safeParse(raw);
  return parsed.success ? parsed.data : DEFAULT_METRICS.slice();
}

// The table of a Settings reader, parsed once per stored text: every prompt, claim check and KPI row reads it, and
// JSON settings are otherwise parsed afresh for each caller. Callers must not change what they are given.
let last: { raw: string; table: readonly MetricDef[] } | null = null;
export function metricTableOf(s: { raw(key: 'kpi.metrics'): string }): readonly MetricDef[] {
  const raw = s.raw('kpi.metrics');
  if (last?.raw !== raw) {
    let value: unknown = null;
    try {
      value = JSON.parse(raw);
    } catch {
      // Not JSON: the default table, as for any other shape.
    }
    last = { raw, table: metricTable(value) };
  }
  return last.table;
}
