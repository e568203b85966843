// The engine's side of grounding: the gap a discussion's data leaves (the same check as the door's), and ending a
// discussion the council cannot know enough about with a person instead of a decision.
import { type GroundingGap, groundingGap } from '../orders/grounding.js';
import { metricTableOf } from '../orders/metric-table.js';
import type { Settings } from '../settings.js';
import type { Discussion, KpiRow, Trigger } from '../types.js';
import type { Builder } from './builder.js';
import type { EngineEnv } from './types.js';

// The gap of a trigger against KPI rows, with Settings' table and window.
export function gapOf(
  t: Pick<Trigger, 'context' | 'target_user_id'>,
  kpi: readonly KpiRow[],
  settings: Settings,
  today: string,
): GroundingGap | null {
  return groundingGap(t, kpi, {
    table: metricTableOf(settings).map((m) => m.name),
    today,
    minDays: settings.number('grounding.min_baseline_days'),
    windowDays: settings.number('grounding.baseline_days'),
  });
}

export function groundingOf(d: Discussion, env: EngineEnv): GroundingGap | null {
  return gapOf(d.trigger, env.kpi, env.settings, env.today);
}

// ESCALATED as "no data" (E002: the data could not be had), with no order; the Inbox says what is missing.
export function noData(env: EngineEnv, b: Builder, gap: GroundingGap): void {
  // Data that could not be read (E002) is why there is none: the person is told so.
  const why = env.dataNotes.length ? ` ${env.dataNotes.join('; ')}` : '';
  const text =
    env.lang === 'ja'
      ? `データがないため評議会は判断しません：${gap.message}${why}`
      : `No data: the council does not decide on data it does not have. ${gap.message}${why}`;
  b.note(`no data (${gap.code}): ${gap.message}`);
  b.escalate(1, 'E002', text.slice(0, 1000), { from_agent: 'analyst', type: 'question', priority: 'normal' });
}
