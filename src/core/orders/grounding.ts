// What the council can know before it deliberates: a discussion about a metric needs that metric in the table and
// enough days of it for the member in the baseline window. Without them it is refused at the door (a person or a
// client starting it) or escalated as "no data" (the watcher or the queue opened it): never a confident guess.
import { addDays } from '../discussion/ids.js';
import type { KpiRow, Trigger } from '../types.js';

export interface GroundingGap {
  // The metric the trigger is about ('' when it names none and the member has no data at all).
  metric: string;
  code: 'unknown_metric' | 'no_data' | 'too_few_days';
  message: string;
  // The metrics the member has data for, for the message and the form.
  metrics: string[];
}

export interface GroundingBounds {
  // The metric table's names.
  table: readonly string[];
  today: string;
  minDays: number;
  windowDays: number;
}

// The metric a trigger is about: its context's `metric`, when it names one.
function triggerMetric(t: Pick<Trigger, 'context'>): string {
  const m = t.context?.metric;
  return typeof m === 'string' ? m.trim() : '';
}

// Days in the window (the `windowDays` days up to and including today) with a value of `metric` for the member, or
// of any metric when `metric` is ''.
function daysWith(kpi: readonly KpiRow[], member: string, metric: string, b: GroundingBounds): number {
  const from = addDays(b.today, -b.windowDays);
  const days = new Set<string>();
  for (const r of kpi)
    if (r.member_id === member && (!metric || r.metric === metric) && r.date > from && r.date <= b.today)
      if (typeof r.value === 'number' && Number.isFinite(r.value)) days.add(r.date);
  return days.size;
}

export function groundingGap(
  t: Pick<Trigger, 'context' | 'target_user_id'>,
  kpi: readonly KpiRow[],
  b: GroundingBounds,
): GroundingGap | null {
  const member = t.target_user_id;
  const metric = triggerMetric(t);
  const metrics = [...new Set(kpi.filter((r) => r.member_id === member).map((r) => r.metric))].filter(
    (m) => b.table.indexOf(m) >= 0,
  );
  const have = metrics.length ? metrics.join(', ') : 'none';
  if (metric && b.table.indexOf(metric) < 0)
    return {
      metric,
      code: 'unknown_metric',
      metrics,
      message: `"${metric}" is not in the metric table (Settings kpi.metrics: ${b.table.join(', ')}); ${member} has data for: ${have}`,
    };
  if (metric && metrics.indexOf(metric) < 0)
    return {
      metric,
      code: 'no_data',
      metrics,
      message: `${member} has no ${metric} data; metrics with data: ${have}`,
    };
  const days = daysWith(kpi, member, metric, b);
  if (days >= b.minDays) return null;
  const what = metric || 'KPI';
  return {
    metric,
    code: days ? 'too_few_days' : 'no_data',
    metrics,
    message: `${member} has ${what} data on ${days} of the ${b.windowDays} days up to ${b.today}; the council needs ${b.minDays} (Settings grounding.min_baseline_days); metrics with data: ${have}`,
  };
}
