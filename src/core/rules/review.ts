// The rule-based review of the council's own order: ethics, legal and the analyst read the final
// order against Phases 1–4 and say what they would object to. The engine files at most one of these.
import type { Action, ContentOf, Message } from '../discussion/messages.js';
import type { Discussion, Member, Priority } from '../types.js';
import { label } from '../labels.js';
import { disclosureConcerns, ethicsConcerns, OVERTIME_LIMIT_MONTHLY, RAISES, WORKDAYS_MONTHLY } from './governance.js';
import { named, type L } from './shared.js';
import { healthCues, LOAD_ACTIONS, noteText } from './note-cues.js';

export interface AgentObjection {
  objector: string;
  kind: 'ethics' | 'legal' | 'data_error';
  reason: string;
  alternative: string;
  evidence: string[];
  urgency: Priority;
}

type Point = ContentOf<'SITUATION_REPORT'>['data_points'][number];

function last(d: Discussion, type: Message['message_type']): Message | undefined {
  return d.messages.filter((m) => m.message_type === type).pop();
}

function pointsOf(d: Discussion): Point[] {
  const m = last(d, 'SITUATION_REPORT');
  return m ? (m.content as ContentOf<'SITUATION_REPORT'>).data_points : [];
}

function numericPoint(points: Point[], metric: string): Point | undefined {
  return points.find((p) => p.metric === metric && typeof p.value === 'number');
}

// The level a metric stood at before the change Phase 1 reports (its value divided by 1 + the change), or null.
function earlierLevel(p: Point | undefined): number | null {
  if (!p) return null;
  const m = /^([+-]?\d+(?:\.\d+)?)%$/.exec(p.change.trim());
  const ratio = m ? Number(m[1]) / 100 : 0;
  return ratio > -1 ? (p.value as number) / (1 + ratio) : null;
}

const level = (before: number | null) => (before === null ? '?' : String(Math.round(before * 100) / 100));
const metricName = (m: string, lang: 'ja' | 'en') => label('metric', m, lang);

const textOf = (a: Action) => `${a.target} ${a.description} ${a.timing} ${a.message_template ?? ''}`;

// An action that adds load: text raising a goal, or a goal set above the level the metric stood at before the decline
// (when Phase 1 gives no such level, the goal counts as raised: when in doubt, FAIL).
function addsLoad(a: Action, points: Point[], t: L): string | null {
  if (RAISES.test(textOf(a))) return `${named(a.action_type, t)}: ${a.description}`;
  if (a.action_type !== 'GOAL_ADJUSTMENT' || !a.new_goal) return null;
  const before = earlierLevel(numericPoint(points, a.new_goal.metric));
  if (before === null || a.new_goal.value > before)
    return t(
      `${named(a.action_type, t)}：新しい目標 ${metricName(a.new_goal.metric, 'ja')} ${a.new_goal.value}（従来 ${level(before)}）`,
      `${named(a.action_type, t)}: new goal ${metricName(a.new_goal.metric, 'en')} ${a.new_goal.value} > ${level(before)}`,
    );
  return null;
}

const PUBLIC =
  /公開|皆の前|全体の前|チームの前|朝礼|全社|public|in front of (the|his|her|their) (team|colleagues)|team meeting|shout-?out/i;

function ethics(order: ContentOf<'EXECUTION_ORDER'>, member: Member | undefined, t: L): AgentObjection | null {
  const found: string[] = [];
  for (const a of order.actions) {
    for (const c of ethicsConcerns(textOf(a), t)) found.push(`${named(a.action_type, t)}: ${c}`);
    const pref = String((member?.profile as Record<string, unknown> | undefined)?.recognition_preference ?? '');
    if (pref === 'PRIVATE' && PUBLIC.test(textOf(a)))
      found.push(
        `${named(a.action_type, t)}: ${t('承認の好みが「非公開」の本人を公の場で称賛する', 'public praise for a member who prefers to be recognised in private')}`,
      );
  }
  if (!found.length) return null;
  return {
    objector: 'ethics',
    kind: 'ethics',
    reason: t(
      `最終指示に倫理上の問題：${found.join('; ')}`,
      `The final order has an ethical problem: ${found.join('; ')}`,
    ),
    alternative: t(
      '問題の要素を除き、本人の自律と好みを尊重した形で実施する（1対1での称賛など）',
      "Drop the flagged element and carry the plan out in a way that respects the member's autonomy and preferences (e.g. praise one to one)",
    ),
    evidence: found,
    urgency: 'HIGH',
  };
}

function legal(d: Discussion, order: ContentOf<'EXECUTION_ORDER'>, allow: string[], t: L): AgentObjection | null {
  const points = pointsOf(d);
  const found: string[] = [];
  for (const a of order.actions)
    for (const c of disclosureConcerns(textOf(a), t)) found.push(`${named(a.action_type, t)}: ${c}`);
  const overtime = numericPoint(points, 'overtime_hours_7d_mean');
  const monthly = overtime ? (overtime.value as number) * WORKDAYS_MONTHLY : 0;
  const load = order.actions.map((a) => addsLoad(a, points, t)).filter((x): x is string => !!x);
  const cues = healthCues(noteText(d.trigger));
  const goals = order.actions.filter((a) => LOAD_ACTIONS.indexOf(a.action_type) >= 0);
  if (cues.length && (load.length || goals.length))
    found.push(
      t(
        `マネージャーのメモに健康面の記述（${cues.join(', ')}）がある中で最終指示が目標を課す：${goals
          .map((a) => a.description)
          .concat(load)
          .join('; ')}`,
        `The manager's note mentions ${cues.join(', ')}, and the final order sets a goal: ${goals
          .map((a) => a.description)
          .concat(load)
          .join('; ')}`,
      ),
    );
  else if (monthly > OVERTIME_LIMIT_MONTHLY && load.length) {
    const p4 = last(d, 'GOVERNANCE_LEGAL');
    const note = p4 ? (p4.content as ContentOf<'GOVERNANCE_LEGAL'>).notes : '';
    found.push(
      t(
        `残業が月${Math.round(monthly)}時間相当（上限${OVERTIME_LIMIT_MONTHLY}時間）の中で最終指示が負荷を増やす：${load.join('; ')}（フェーズ4：${note}）`,
        `Overtime runs at about ${Math.round(monthly)} h a month (limit ${OVERTIME_LIMIT_MONTHLY} h) and the final order adds load: ${load.join('; ')} (Phase 4: ${note})`,
      ),
    );
  }
  if (!found.length) return null;
  const instead = ['REST_RECOMMENDATION', 'ONE_ON_ONE'].filter((x) => allow.indexOf(x) >= 0);
  return {
    objector: 'legal',
    kind: 'legal',
    reason: t(
      `最終指示に法令上の問題：${found.join('; ')}`,
      `The final order has a legal problem: ${found.join('; ')}`,
    ),
    alternative: t(
      `負荷を増やさない施策に替える${instead.length ? `（${instead.map((x) => label('action_type', x, 'ja')).join('、')}）` : ''}`,
      `Replace it with actions that add no load${instead.length ? ` (${instead.map((x) => label('action_type', x, 'en')).join(', ')})` : ''}`,
    ),
    evidence: found,
    urgency: 'HIGH',
  };
}

const MISSING = /不足|欠損|取得できな|missing|insufficient|not enough|no data|unavailable/i;

// A success criterion on a metric Phase 1 flagged as missing or insufficient: a data point of that metric saying so
// instead of a number, or a data note naming it and saying so. A metric Phase 1 just did not mention is no flag.
function analyst(d: Discussion, order: ContentOf<'EXECUTION_ORDER'>, t: L): AgentObjection | null {
  const points = pointsOf(d);
  const notes = points.filter((p) => p.metric === 'data_note').map((p) => String(p.value));
  const flaggedBy = (m: string) =>
    points.some((p) => p.metric === m && typeof p.value !== 'number' && MISSING.test(`${p.value} ${p.note}`)) ||
    notes.some((n) => n.indexOf(m) >= 0 && MISSING.test(n));
  const flagged = order.monitoring.success_criteria
    .map((c) => c.metric)
    .filter((m, i, all) => all.indexOf(m) === i)
    .filter(flaggedBy);
  if (!flagged.length) return null;
  return {
    objector: 'analyst',
    kind: 'data_error',
    reason: t(
      `成功基準の指標 ${flagged.map((m) => metricName(m, 'ja')).join('、')} はフェーズ1でデータ不足と報告済み`,
      `The success criteria rely on ${flagged.map((m) => metricName(m, 'en')).join(', ')}, which Phase 1 reported as missing or insufficient data`,
    ),
    alternative: t(
      '再分析し、データのある指標で成功基準を定める',
      'Re-analyse and set the success criteria on a metric with data',
    ),
    evidence: flagged.map((m) => `success_criteria.metric=${m}`).concat(notes.slice(0, 5)),
    urgency: 'MEDIUM',
  };
}

// Every objection the review finds, governance first; the engine files the first within the limit.
export function reviewOrder(d: Discussion, members: Member[], allow: string[], lang: 'ja' | 'en'): AgentObjection[] {
  const t: L = (ja, en) => (lang === 'ja' ? ja : en);
  const order = d.final_decision as unknown as ContentOf<'EXECUTION_ORDER'> | null;
  if (!order || !Array.isArray(order.actions)) return [];
  const member = members.find((m) => m.member_id === d.trigger.target_user_id);
  return [ethics(order, member, t), legal(d, order, allow, t), analyst(d, order, t)].filter(
    (x): x is AgentObjection => !!x,
  );
}
