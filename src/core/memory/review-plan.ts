// The daily review as a pure plan: a due decision and what memory holds in, every row, audit event and property out.
import { opinionScores, trustEvents } from './calibration.js';
import { countFlip, emptyFlipStats, firstAnswersRecord, type FlipStats } from './first-answers.js';
import { addDays, dayOf as dayOfId } from '../discussion/ids.js';
import { milestones, type MilestoneRule } from './inbox-reports.js';
import { orderOf, shouldNotify, type Learning, type LearningRules } from './memory.js';
import type { ContentOf } from '../discussion/messages.js';
import { executionStatusOf } from '../orders/order-status.js';
import { evaluate, type Thresholds } from './outcomes.js';
import { forLearning } from './effect-learning.js';
import { pointKey, type ReflectionHistory } from './reflection-history.js';
import { reflect } from './reflection-rules.js';
import { suggestionOps, type SuggestWorld } from './prompt-suggestion.js';
import { moveLearnings, newLearningOps, type Learned } from './review-learnings.js';
import { write, type ReviewOp, type SeqName } from './review-ops.js';
import { reflectionOf } from './review-reflections.js';
import { transition } from '../discussion/state-machine.js';
import { emptyTrust, recordVerdict, type TrustState } from './trust.js';
import type { Discussion, InboxItem, KpiRow } from '../types.js';
import type { Assessment, DueDecision } from './review-types.js';

export type { Assessment, DueDecision };

// Each agent's record against reviewed outcomes (Script Property PROPERTY_KEYS.agentStats).
export interface AgentStats {
  hits: number;
  misses: number;
  brier: number;
  n: number;
  // The accuracy threshold of the last milestone that named this agent (src/core/memory/inbox-reports.ts).
  milestone?: number;
}

// The Script Properties the review keeps (PROPERTY_KEYS.agentStats, .reflectionHistory, .nextActions, .flipStats,
// .trust).
export interface ReviewProperties {
  agentStats: Record<string, AgentStats>;
  reflectionHistory: ReflectionHistory;
  nextActions: Record<string, string[]>;
  // Absent until the first review that keeps it (and from callers that predate it): read as zeros.
  flipStats?: FlipStats;
  // Learned trust (PROPERTY_KEYS.trust); absent from callers that predate it: read as a council that learned nothing.
  trust?: TrustState;
}

// An Orders row as the review reads it; review_day is the date cell as YYYY-MM-DD, read in the spreadsheet's zone (the
// day it shows).
export interface OrderLine {
  row: number;
  order_id: string;
  decision_id: string;
  discussion_id: string;
  status: string;
  review_day: string;
}

// One decision's review: written as one commit in this order, then the properties.
export interface ReviewCommit {
  decision_id: string;
  discussion_id: string;
  ops: ReviewOp[];
  properties: ReviewProperties;
}

// What the review reads and changes across decisions: the Learnings rows and the properties.
export interface ReviewMemory {
  learnings: Learning[];
  properties: ReviewProperties;
}

export interface ReviewWorld {
  rules: LearningRules;
  lang: 'ja' | 'en';
  now: number;
  // model:dims of the embeddings the new learnings come with.
  embeddingModel: string;
  // The commit's counters: each call gives the next number of that sequence.
  next: (name: SeqName) => number;
  // When an agent's reliability makes an Inbox milestone (inbox.milestone_*).
  milestone: MilestoneRule;
  // Prompt suggestions when a self-score falls; absent, none is made.
  suggest?: SuggestWorld;
}

// Orders whose review date has come, grouped by decision in the order the tab lists them. The outcome is measured
// whatever the orders' status (only a report moves an order, and an unreported order may still have been carried
// out), except for a decision a replacing one cancelled, and one already evaluated (it has an Outcomes row).
export function dueDecisions(
  orders: readonly OrderLine[],
  today: string,
  evaluated: readonly string[] = [],
): DueDecision[] {
  const byId: Record<string, DueDecision> = {};
  const out: DueDecision[] = [];
  for (const o of orders) {
    if (o.status === 'CANCELLED' || o.review_day > today || evaluated.indexOf(o.decision_id) >= 0) continue;
    let due = byId[o.decision_id];
    if (!due) {
      due = { decision_id: o.decision_id, discussion_id: o.discussion_id, orders: [] };
      byId[o.decision_id] = due;
      out.push(due);
    }
    due.orders.push({ row: o.row, order_id: o.order_id, status: o.status });
  }
  return out;
}

// The day the decision was taken: its id's day, unless its order says it was earlier (the review date less the days
// the decider gave it then). An id's day is later than the day it was given after a clock went back (ids.ts).
function decidedOn(id: string, order: ContentOf<'EXECUTION_ORDER'>): string {
  const day = dayOfId(id);
  const days = order.monitoring.review_in_days;
  if (days === undefined) return day;
  const given = addDays(order.monitoring.review_date, -days);
  return [given, day].sort()[0];
}

// The run's clock as the planner sees it: now, the run's deadline, and the longest one decision has taken so far.
export interface ReviewClock {
  now: number;
  deadline: number;
  slowestMs: number;
}

// The next due decision a run takes up, or null: every one is taken, or the time left would not cover another
// decision as slow as the slowest so far (the first needs only to start before the deadline). A run stops between
// decisions rather than in one, and the decisions it leaves stay due for the next run, in the same order.
export function nextReview(due: readonly DueDecision[], taken: number, clock: ReviewClock): DueDecision | null {
  if (taken >= due.length) return null;
  return clock.now + clock.slowestMs < clock.deadline ? due[taken] : null;
}

// The window before the decision against the window ending on the review date. A discussion that moved on
// (reopened, replaced by another decision) is not reviewed: null. `statuses`: the discussion's states that may be
// measured (a recheck measures a decision its first review already closed).
export function assessReview(
  due: DueDecision,
  discussion: Discussion,
  logRow: number,
  kpi: readonly KpiRow[],
  t: Thresholds,
  statuses: readonly string[] = ['DECIDED'],
): Assessment | null {
  const order = orderOf(discussion);
  if (!order || order.decision_id !== due.decision_id || statuses.indexOf(discussion.status) < 0) return null;
  const ev = evaluate(
    discussion.trigger.target_user_id,
    order.monitoring.success_criteria,
    decidedOn(due.decision_id, order),
    order.monitoring.review_date,
    kpi,
    t,
  );
  return { ...due, discussion, log_row: logRow, order, ev };
}

function copy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

// The Outcomes row, saying what the orders had been reported as when measured (column L's rule); the review never
// moves an order itself. A crash before the commit point leaves the decision due.
export function outcomeOp(
  a: Assessment,
  outcomeId: string,
  at: Date,
  first: ReturnType<typeof firstAnswersRecord>,
): ReviewOp {
  const { ev, order } = a;
  return write(
    'outcomes',
    'append',
    0,
    {
      outcome_id: outcomeId,
      decision_id: a.decision_id,
      discussion_id: a.discussion_id,
      evaluated_at: at,
      metrics_json: JSON.stringify(order.monitoring),
      baseline_json: JSON.stringify(ev.measured.map((m) => ({ metric: m.metric, baseline: m.baseline }))),
      observed_json: JSON.stringify(
        ev.measured.map((m) => ({ metric: m.metric, predicted: m.predicted, actual: m.actual, error: m.error })),
      ),
      // Blank, not 1, when nothing could be measured; the notes say so.
      prediction_error: ev.error ?? '',
      verdict: ev.verdict,
      data_points: ev.points,
      notes: ev.noData.length
        ? `no data: no KPI rows for ${ev.noData.map((n) => `${n.metric} (${n.from} – ${n.to})`).join(', ')}`
        : '',
      order_status: executionStatusOf(a.orders.map((o) => o.status)),
      first_majority: first ? first.majority : '',
      // Blank when no specialist's first answer counted: there was no majority to overturn.
      flip: first ? first.flip : '',
      effect: ev.effect.effect,
      effect_change: ev.effect.change ?? '',
      effect_target: ev.effect.change === null ? '' : ev.effect.target,
    },
    {
      actor: 'kaigi',
      event: 'outcome',
      tab: 'Outcomes',
      row_key: outcomeId,
      payload: { verdict: ev.verdict, error: ev.error, effect: ev.effect.effect },
    },
    `Outcomes:${outcomeId}`,
  );
}

type Reflection = ReturnType<typeof reflectionOf>;

// Each reflection's row, and the Inbox message when its agent's last reflections call for one. The
// history keeps a point's key, not its words: the words come from this reflection.
function reflectionOps(
  a: Assessment,
  reflections: readonly Reflection[],
  before: ReflectionHistory,
  at: Date,
  w: ReviewWorld,
): { ops: ReviewOp[]; history: ReflectionHistory } {
  const ops: ReviewOp[] = [];
  const history = copy(before);
  for (const ref of reflections) {
    const id = `REF-${w.next('reflection')}`;
    ops.push(
      write(
        'reflections',
        'append',
        0,
        {
          reflection_id: id,
          agent_id: ref.agent_id,
          discussion_id: a.discussion_id,
          self_score: ref.self_score,
          reasoning: ref.reasoning,
          went_well: ref.went_well,
          to_improve: ref.to_improve,
          next_actions_json: JSON.stringify(ref.next_actions),
          created_at: at,
          source: ref.source,
        },
        {
          actor: ref.agent_id,
          event: 'reflection',
          tab: 'Reflections',
          row_key: id,
          payload: { self_score: ref.self_score, source: ref.source },
        },
      ),
    );
    const point = pointKey(ref.to_improve);
    const h = (history[ref.agent_id] ?? []).concat([{ self_score: ref.self_score, to_improve: point }]);
    history[ref.agent_id] = h.slice(-5);
    const notify = shouldNotify(history[ref.agent_id], (p) => (p === point ? ref.to_improve : p));
    if (!notify) continue;
    const inbox: InboxItem = {
      inbox_id: `INB-${w.next('inbox')}`,
      from_agent: ref.agent_id,
      type: notify.type,
      priority: notify.type === 'struggle' ? 'high' : 'normal',
      title: `${ref.agent_id}: ${notify.type}`,
      body: notify.reason,
      discussion_id: a.discussion_id,
    };
    ops.push(
      write(
        'inbox',
        'append',
        0,
        { ...inbox, status: 'unread', response: '', created_at: at, updated_at: at },
        { actor: ref.agent_id, event: 'inbox', tab: 'Inbox', row_key: inbox.inbox_id, payload: { title: inbox.title } },
      ),
    );
  }
  return { ops, history };
}

// Historical accuracy and calibration: stated confidence scored against the verdict.
function scoredStats(
  before: Record<string, AgentStats>,
  d: Discussion,
  chosen: string[],
  verdict: Assessment['ev']['verdict'],
): Record<string, AgentStats> {
  const stats = copy(before);
  for (const o of opinionScores(d, chosen, verdict)) {
    const st = (stats[o.agent] ??= { hits: 0, misses: 0, brier: 0, n: 0 });
    if (o.right) st.hits++;
    else st.misses++;
    st.brier += (o.confidence - (o.right ? 1 : 0)) ** 2;
    st.n++;
  }
  return stats;
}

// The discussion closes with its verdict in column M: the commit point. Column L stays as the reports made it.
function closeOps(a: Assessment, at: Date): ReviewOp[] {
  return [
    {
      kind: 'audit',
      actor: 'kaigi',
      event: 'status',
      tab: 'Discussion Log',
      row_key: a.discussion_id,
      payload: { from: 'DECIDED', to: 'CLOSED' },
    },
    write(
      'discussions',
      'marker',
      a.log_row,
      {
        status: transition(a.discussion.status, 'CLOSED'),
        closed_at: at,
        outcome_evaluated: a.ev.verdict,
      },
      {
        actor: 'kaigi',
        event: 'log_row_updated',
        tab: 'Discussion Log',
        row_key: a.discussion_id,
        payload: { status: 'CLOSED' },
      },
      `Discussion Log:${a.discussion_id}`,
    ),
  ];
}

// Everything one decision's review writes. Pure: the same inputs give the same plan, and no input is changed.
export function planReview(
  a: Assessment,
  learned: Learned & { embeddings: string[] },
  memory: ReviewMemory,
  w: ReviewWorld,
): { commit: ReviewCommit; memory: ReviewMemory } {
  const { ev, order, discussion: d } = a;
  const verdict = ev.verdict;
  const at = new Date(w.now);
  const chosen = order.actions.map((x) => x.action_type);
  // Recomputed from the messages, not read from the deliberation's metadata, so decisions recorded before Kaigi kept
  // first_answers are measured the same way.
  const first = firstAnswersRecord(d.messages, chosen);
  const outcomeId = `OUT-${w.next('outcome')}`;
  const ops: ReviewOp[] = [outcomeOp(a, outcomeId, at, first)];
  const moved = moveLearnings(a, memory.learnings, w.rules, w);
  const learnings = moved.learnings;
  ops.push(...moved.ops, ...newLearningOps(a, outcomeId, learned, learnings, w));

  // Reflections, and the agent → human messages (a struggle, a proposal): each agent's own model's, or the rules'
  // (which follow the verdict and the agent's record before it).
  const models = learned.reflections ?? [];
  const reflections = reflect(d, verdict, w.lang, memory.properties.agentStats).map((r) =>
    reflectionOf(
      r,
      models.find((m) => m.agent_id === r.agent_id),
    ),
  );
  const reflected = reflectionOps(a, reflections, memory.properties.reflectionHistory, at, w);
  ops.push(...reflected.ops);
  const history = { before: memory.properties.reflectionHistory, after: reflected.history };
  ops.push(...suggestionOps(reflections, history, a.discussion_id, w));

  // An agent whose reliability rose to the threshold is named in the Inbox (a milestone).
  const marked = milestones(
    scoredStats(memory.properties.agentStats, d, chosen, verdict),
    w.milestone,
    a.discussion_id,
    w,
  );
  ops.push(...marked.ops, ...closeOps(a, at));

  // Each agent keeps the next actions of its last three reflections for its next discussion.
  const nextActions = copy(memory.properties.nextActions);
  for (const ref of reflections)
    nextActions[ref.agent_id] = (nextActions[ref.agent_id] ?? []).concat(ref.next_actions).slice(-3);
  const flipStats = countFlip(memory.properties.flipStats ?? emptyFlipStats(), first, verdict);
  // Learned trust and the member's record learn what works: from the effect, not the forecast.
  const worked = forLearning(a).ev.verdict;
  const before = memory.properties.trust ?? emptyTrust();
  const trust =
    worked === 'inconclusive'
      ? before
      : recordVerdict(before, trustEvents(d, chosen, worked), d.trigger.target_user_id, chosen, worked === 'confirmed');
  const properties = {
    agentStats: marked.stats,
    reflectionHistory: reflected.history,
    nextActions,
    flipStats,
    trust,
  };
  return {
    commit: { decision_id: a.decision_id, discussion_id: a.discussion_id, ops, properties },
    memory: { learnings, properties },
  };
}
