// Facts the rule-based agents reason from: the target member's KPI movements and the team around them.
import {
  declineRun,
  latest,
  maxOf,
  mean,
  pct,
  recentChange,
  series,
  teamTrend,
  windowMean,
  type Change,
  type TeamTrend,
} from '../orders/kpi.js';
import { daysBetween } from '../discussion/ids.js';
import { datesOf } from '../orders/kpi-index.js';
import { label } from '../labels.js';
import type { AgentContext } from '../provider.js';
import { type HealthCue, healthCues, noteText } from './note-cues.js';

export interface Facts {
  member: string;
  name: string;
  metric: string;
  change: Change | null;
  declineDays: number;
  loginStreak: number | null;
  bestStreak: number | null;
  praise: number | null;
  praiseBefore: number | null;
  teamPraise: number;
  overtimeRecent: number;
  overtimeBefore: number;
  conversionRecent: number | null;
  conversionBefore: number | null;
  team: TeamTrend;
  recognition: string;
  contactTime: string;
  points: number;
  daysCovered: number;
  ageDays: number;
  hasData: boolean;
  // Health cues in the manager's words (the trigger's note): long hours, illness, leave, family.
  cues: HealthCue[];
}

export function facts(ctx: AgentContext): Facts {
  const id = ctx.trigger.target_user_id;
  const metric = String(ctx.trigger.context.metric ?? 'contacts');
  const s = series(ctx.kpi, id, metric);
  const run = declineRun(s);
  const login = series(ctx.kpi, id, 'login_streak');
  const praise = series(ctx.kpi, id, 'praise_count_last_7d');
  const overtime = series(ctx.kpi, id, 'overtime_hours');
  const appts = series(ctx.kpi, id, 'appointments');
  const contacts = series(ctx.kpi, id, 'contacts');
  const conv = (from: number, to: number) => {
    const c = windowMean(contacts, from, to);
    return c > 0 ? windowMean(appts, from, to) / c : null;
  };
  const teamPraise = mean(
    (ctx.team.length ? ctx.team : [])
      .filter((m) => m.member_id !== id)
      .map((m) => latest(series(ctx.kpi, m.member_id, 'praise_count_last_7d')) ?? 0),
  );
  // Indexed once per KPI table (kpi-index.ts): a scan of every row for each agent's answer was a tenth of the bench.
  const days = datesOf(ctx.kpi, id);
  const bestFromData = maxOf(login);
  const profile = (ctx.member?.profile ?? {}) as Record<string, unknown>;
  return {
    member: id,
    name: ctx.member?.name ?? id,
    metric,
    change: recentChange(s, Math.max(run, 3)),
    declineDays: run,
    loginStreak: latest(login),
    bestStreak: Math.max(ctx.member?.best_login_streak ?? 0, bestFromData ?? 0) || null,
    praise: latest(praise),
    praiseBefore: praise.length > 7 ? praise[praise.length - 8].value : null,
    teamPraise,
    overtimeRecent: windowMean(overtime, 0, 7),
    overtimeBefore: windowMean(overtime, 7, 21),
    conversionRecent: conv(0, 7),
    conversionBefore: conv(7, 21),
    team: teamTrend(ctx.kpi, metric, id, Math.max(run, 3)),
    recognition: String(profile.recognition_preference ?? 'UNKNOWN'),
    contactTime: String(profile.preferred_contact_time ?? '09:30'),
    points: s.length,
    daysCovered: days.length,
    ageDays: days.length ? Math.max(0, daysBetween(days[days.length - 1], ctx.today)) : 99,
    hasData: s.length > 0,
    cues: healthCues(noteText(ctx.trigger)),
  };
}

// What the metric did, said only as far as the data shows it: a fall with its run of days, a rise, or no change
// (under 5 % either way), never a direction the numbers do not have.
// The metric by its label in the language, as a person reads the sentence (the id stays in data_points).
export const metricWord = (f: Facts, lang: 'ja' | 'en'): string => label('metric', f.metric, lang);

export function changeText(f: Facts, lang: 'ja' | 'en'): string {
  const m = metricWord(f, lang);
  if (!f.change) return lang === 'ja' ? `${m}のデータが不足` : `not enough ${m} data`;
  const { from, to, ratio } = f.change;
  if (ratio <= -0.05)
    return lang === 'ja'
      ? `${m}が ${from} → ${to}（${pct(ratio)}）${f.declineDays ? `、${f.declineDays}日連続低下` : ''}`
      : `${m} went ${from} → ${to} (${pct(ratio)})${f.declineDays ? `, falling ${f.declineDays} days in a row` : ''}`;
  if (ratio >= 0.05)
    return lang === 'ja'
      ? `${m}は ${from} → ${to}（${pct(ratio)}）で上向き`
      : `${m} rose ${from} → ${to} (${pct(ratio)})`;
  return lang === 'ja'
    ? `${m}は ${from} → ${to}（${pct(ratio)}）でほぼ横ばい`
    : `${m} held at about ${to} (${from} → ${to})`;
}

// The health cues by name, for a sentence a person reads.
export function cueText(f: Facts, lang: 'ja' | 'en'): string {
  const ja: Record<HealthCue, string> = {
    long_hours: '長時間労働',
    illness: '体調',
    leave: '休暇・休職',
    family: '家庭の事情',
  };
  const en: Record<HealthCue, string> = {
    long_hours: 'long hours',
    illness: 'illness',
    leave: 'leave',
    family: 'family',
  };
  return f.cues.map((c) => (lang === 'ja' ? ja[c] : en[c])).join(lang === 'ja' ? '、' : ', ');
}
