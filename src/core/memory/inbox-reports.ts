// The scheduled and earned Inbox items: a weekly status_report and an agent's reliability milestone.
import type { Verdict } from './outcomes.js';
import { write, type ReviewOp, type SeqName } from './review-ops.js';
import type { Settings } from '../settings.js';
import type { InboxItem } from '../types.js';

// An agent's record against reviewed outcomes (review-plan.ts AgentStats), as far as a milestone reads it.
export interface AgentRecord {
  hits: number;
  misses: number;
  // The accuracy threshold this agent was last named at in a milestone: said once per threshold.
  milestone?: number;
}

export interface MilestoneRule {
  accuracy: number;
  minVerdicts: number;
}

export function milestoneRuleOf(s: Settings): MilestoneRule {
  return { accuracy: s.number('inbox.milestone_accuracy'), minVerdicts: s.number('inbox.milestone_min_verdicts') };
}

// An agent's reliability: the share of its reviewed calls that were right, null before any. One function, so a
// learned reliability can take its place without touching the milestone rule.
function agentReliability(r: AgentRecord): number | null {
  const n = r.hits + r.misses;
  return n > 0 ? r.hits / n : null;
}

export interface ItemWorld {
  now: number;
  lang: 'ja' | 'en';
  next: (name: SeqName) => number;
}

// An Inbox item as an unread row, audited as the agent that writes it.
export function inboxOp(inbox: InboxItem, w: { now: number }, payload: Record<string, unknown>): ReviewOp {
  const at = new Date(w.now);
  return write(
    'inbox',
    'append',
    0,
    { ...inbox, status: 'unread', response: '', created_at: at, updated_at: at },
    { actor: inbox.from_agent, event: 'inbox', tab: 'Inbox', row_key: inbox.inbox_id, payload },
  );
}

// Agents whose reliability has risen to the threshold with enough calls behind it, each named once for that
// threshold (recorded in its record; falling back under it and rising again is not news). Returns the records
// with the mark and the Inbox items.
export function milestones<R extends AgentRecord>(
  stats: Record<string, R>,
  rule: MilestoneRule,
  discussionId: string,
  w: ItemWorld,
): { stats: Record<string, R>; ops: ReviewOp[] } {
  const out: Record<string, R> = { ...stats };
  const ops: ReviewOp[] = [];
  for (const agent of Object.keys(stats).sort()) {
    const r = stats[agent];
    const rel = agentReliability(r);
    if (rel === null || r.hits + r.misses < rule.minVerdicts || rel < rule.accuracy) continue;
    if (r.milestone !== undefined && r.milestone >= rule.accuracy) continue;
    out[agent] = { ...r, milestone: rule.accuracy };
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    const n = r.hits + r.misses;
    const inbox: InboxItem = {
      inbox_id: `INB-${w.next('inbox')}`,
      from_agent: agent,
      type: 'milestone',
      priority: 'low',
      title: w.lang === 'ja' ? `${agent}: 的中率 ${pct(rel)}` : `${agent}: right ${pct(rel)} of the time`,
      body:
        w.lang === 'ja'
          ? `レビュー済みの ${n} 件で ${r.hits} 件正しく、的中率が ${pct(rule.accuracy)} に達しました。`
          : `Right in ${r.hits} of ${n} reviewed decisions: its accuracy has reached ${pct(rule.accuracy)}.`,
      discussion_id: discussionId,
    };
    ops.push(inboxOp(inbox, w, { title: inbox.title, reliability: Math.round(rel * 1000) / 1000, n }));
  }
  return { stats: out, ops };
}

// What a status report counts over its window.
export interface ReportRows {
  // Discussions created in the window: status and what they spent.
  discussions: { at: number; status: string; tokens: number; cost: number }[];
  // Outcomes evaluated in the window.
  outcomes: { at: number; verdict: Verdict | string; flip: boolean | '' }[];
}

// Whether a report is due: every `days` days (0: never), the first as soon as there is something to report.
export function statusReportDue(last: number | null, now: number, days: number): boolean {
  return days > 0 && (last === null || now - last >= days * 86400000);
}

// The status report over [from, now): decisions, verdict rates, flips and budget; null when the window holds nothing.
export function statusReport(
  rows: ReportRows,
  from: number,
  days: number,
  w: ItemWorld,
): { inbox: InboxItem; op: ReviewOp } | null {
  const inWindow = (x: { at: number }) => x.at >= from && x.at < w.now;
  const ds = rows.discussions.filter(inWindow);
  const os = rows.outcomes.filter(inWindow);
  if (!ds.length && !os.length) return null;
  const decided = ds.filter((d) => d.status === 'DECIDED' || d.status === 'CLOSED').length;
  const escalated = ds.filter((d) => d.status === 'ESCALATED').length;
  const count = (v: string) => os.filter((o) => o.verdict === v).length;
  const rate = (k: number) => (os.length ? `${Math.round((k / os.length) * 100)}%` : '–');
  const flips = os.filter((o) => o.flip === true);
  const flipsConfirmed = flips.filter((o) => o.verdict === 'confirmed').length;
  const tokens = ds.reduce((s, d) => s + d.tokens, 0);
  const cost = Math.round(ds.reduce((s, d) => s + d.cost, 0) * 100) / 100;
  const [c, r, i] = [count('confirmed'), count('rejected'), count('inconclusive')];
  const ja = w.lang === 'ja';
  const lines = ja
    ? [
        `直近 ${days} 日: 議論 ${ds.length} 件（決定 ${decided}、エスカレーション ${escalated}）`,
        `判定 ${os.length} 件: 確認 ${c}（${rate(c)}）、否定 ${r}（${rate(r)}）、保留 ${i}（${rate(i)}）`,
        `多数意見を覆した決定 ${flips.length} 件（うち確認 ${flipsConfirmed}）`,
        `使用トークン ${tokens}、費用 $${cost}`,
      ]
    : [
        `Last ${days} days: ${ds.length} discussions (${decided} decided, ${escalated} escalated)`,
        `${os.length} verdicts: ${c} confirmed (${rate(c)}), ${r} rejected (${rate(r)}), ${i} inconclusive (${rate(i)})`,
        `${flips.length} decisions overturned the first majority (${flipsConfirmed} of them confirmed)`,
        `${tokens} tokens, $${cost} spent`,
      ];
  const inbox: InboxItem = {
    inbox_id: `INB-${w.next('inbox')}`,
    from_agent: 'decider',
    type: 'status_report',
    priority: 'low',
    title: ja ? `定期報告（${days} 日間）` : `Status report (${days} days)`,
    body: lines.join('\n'),
    discussion_id: '',
  };
  const op = inboxOp(inbox, w, {
    title: inbox.title,
    discussions: ds.length,
    verdicts: { confirmed: c, rejected: r, inconclusive: i },
    flips: flips.length,
    tokens,
    cost_usd: cost,
  });
  return { inbox, op };
}
