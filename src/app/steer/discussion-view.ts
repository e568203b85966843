// One discussion for the sidebar: the decision and why first, then phases against their targets, then the timeline.
import { ACTIVE_STATUSES } from '../../core/discussion/vocab.js';
import { APPLIED_NOTE } from '../../core/discussion/directives.js';
import { rowsOf } from '../../../sheets-schema/index.js';
import { phaseProgress } from '../../core/api/api-progress.js';
import { briefMessage } from '../../core/prompts/prompt.js';
import type { ContentOf, Message } from '../../core/discussion/messages.js';
import type { Council } from '../sheet-council.js';
import { queueActivity } from './busy.js';
import { type OutcomeView, outcomeView } from './outcome-view.js';
import { type OrderChoices, orderChoices } from './order-choices.js';
import { typeLabel } from './labels.js';
import { membersFromRows } from '../../store/records.js';
import { speakerName } from '../../core/labels.js';
import { plainCell, text } from './plain.js';

const logCols = rowsOf('discussions');
const orderCols = rowsOf('orders');
const ACTIVE = ACTIVE_STATUSES;
const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

interface PhaseView {
  phase: number;
  messages: number;
  seconds: number;
  target_seconds: number | null;
  over_target: boolean;
  state: 'done' | 'running' | 'waiting';
}

interface MessageView {
  message_id: string;
  phase: number;
  speaker: string;
  speaker_name_ja: string;
  speaker_name_en: string;
  type: string;
  type_label_ja: string;
  type_label_en: string;
  brief: string;
  timestamp: string;
  model: string;
  tokens: number;
  cost_usd: number;
  tokens_so_far: number;
  cost_so_far: number;
  processing_ms: number;
  stated: number | null;
  computed: number | null;
  fallback_level: number;
  error_code: string;
  // Claims of the message the KPI data contradicts (src/core/orders/claims.ts).
  contradicted: { metric: string; claimed: string; actual: string; from: number; to: number }[];
  note: string;
}

interface DecisionSummary {
  decision_id: string;
  decided_by: string;
  actions: ContentOf<'EXECUTION_ORDER'>['actions'];
  intensity: string;
  target: string;
  // The target member's name (their id when the Members tab no longer has them): what the page shows.
  target_name: string;
  target_agents: string[];
  review_date: string;
  execution_status: string;
  vote: { action_type: string; agents: string[]; score: number }[];
  selected: string[];
  rationale: string;
  dissent: { agent_id: string; opinion: string }[];
  governance: { agent_id: string; type: string; result: string; concerns: string[] }[];
}

export interface DiscussionView {
  discussion_id: string;
  status: string;
  priority: string;
  trigger: { type: string; source: string; target_user_id: string };
  created_at: string;
  closed_at: string;
  busy: boolean;
  phases: PhaseView[];
  messages: MessageView[];
  decision: Record<string, unknown> | null;
  summary: DecisionSummary | null;
  orders: { order_id: string; action_type: string; status: string; last_report: string; updated_at: string }[];
  estimate: { tokens: number; cost_usd: number } | null;
  spent: { tokens: number; cost_usd: number; by_phase: string };
  notes: string[];
  // The directives its decisions applied, as the record's notes name them ("DIR-3 ban GOAL_ADJUSTMENT").
  directives: string[];
  // Once the review measured the decision: its verdict, numbers and what memory learned (else null).
  outcome: OutcomeView | null;
  // While it is ESCALATED: what the person resolving it may pick in the order form (else null).
  order_form: OrderChoices | null;
}

// Phases as GET /tasks/{id} reports them (src/core/api/api-progress.ts, the timing `kaigi run --json` measures), in the
// sidebar's three states: a current phase is running, a pending or skipped one is waiting.
function phases(c: Council, d: { status: string; messages: Message[] }): PhaseView[] {
  const targets = c.settings().get('phase.target_seconds');
  const progress = phaseProgress(
    d.status,
    d.messages.map((m) => ({
      phase: m.phase,
      speaker: m.speaker,
      timestamp: m.timestamp,
      processing_ms: m.metadata.processing_time_ms,
    })),
    targets,
  );
  return progress.map((p) => ({
    phase: p.phase,
    messages: p.messages,
    seconds: round(p.ms / 1000, 1),
    target_seconds: p.target_seconds,
    over_target: p.over_target,
    state: p.state === 'current' ? 'running' : p.state === 'done' ? 'done' : 'waiting',
  }));
}

function summary(
  messages: Message[],
  order: Record<string, unknown> | null,
  d: { execution_status: string; trigger: { target_user_id: string } },
): DecisionSummary | null {
  const last = (type: string) => messages.filter((m) => m.message_type === type).pop();
  const delib = last('DECISION_DELIBERATION');
  const checks = ['GOVERNANCE_ETHICS', 'GOVERNANCE_LEGAL'].map((t) => last(t)).filter((m): m is Message => !!m);
  // Nothing decided or judged yet: no summary. An escalation by governance has its reason in the checks.
  if (!order && !delib && !checks.length) return null;
  const o = order as ContentOf<'EXECUTION_ORDER'> | null;
  const dc = delib ? (delib.content as ContentOf<'DECISION_DELIBERATION'>) : null;
  const orderMsg = messages.filter((m) => m.message_type === 'EXECUTION_ORDER').pop();
  const intensities = (o?.actions ?? []).map((a) => a.intensity).filter((x, i, all) => all.indexOf(x) === i);
  return {
    decision_id: o ? String(o.decision_id) : '',
    decided_by: orderMsg ? orderMsg.speaker : '',
    actions: o?.actions ?? [],
    intensity: intensities.join(', '),
    target: d.trigger.target_user_id,
    target_name: d.trigger.target_user_id,
    target_agents: o?.target_agents ?? [],
    review_date: o?.monitoring?.review_date ?? '',
    execution_status: d.execution_status,
    vote: dc?.votes ?? [],
    selected: dc?.selected_action_types ?? [],
    rationale: dc?.rationale ?? '',
    dissent: dc?.dissenting_opinions ?? [],
    governance: checks.map((m) => {
      const g = m.content as ContentOf<'GOVERNANCE_ETHICS'>;
      return { agent_id: m.speaker, type: m.message_type, result: g.check_result, concerns: g.concerns };
    }),
  };
}

// The current decision's orders: appended together, so one text search finds them and one read spans them.
function orders(c: Council, decision: string): DiscussionView['orders'] {
  if (!decision) return [];
  const rows = c.discussions.orderRows(decision);
  if (!rows.length) return [];
  const from = Math.min(...rows);
  const block = c.store.readRows('orders', from, Math.max(...rows) - from + 1);
  return c.store
    .resolveOverflow(rows.map((r) => block[r - from]))
    .map((v) => orderCols.read(v))
    .map((o) => {
      let action = '';
      try {
        action = String((JSON.parse(text(o.action_json)) as { action_type?: string }).action_type ?? '');
      } catch {
        action = '';
      }
      return {
        order_id: text(o.order_id),
        action_type: action,
        status: text(o.status),
        last_report: text(o.last_report),
        updated_at: text(o.updated_at),
      };
    });
}

function num(v: unknown): number | null {
  return v === '' || v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
}

// The summary's target member by name, read from the Members tab only when there is a summary to show.
function named(c: Council, s: DecisionSummary | null): DecisionSummary | null {
  if (!s?.target) return s;
  const m = membersFromRows(c.store.readConfig('members')).find((x) => x.member_id === s.target);
  return m?.name ? { ...s, target_name: m.name } : s;
}

// One discussion's view: plain data only, since google.script.run cannot carry Dates.
export function discussionView(c: Council, id: string): DiscussionView {
  const l = c.loadDiscussion(id);
  const d = l.d;
  const names: Record<string, { ja: string; en: string }> = { human: { ja: '人間', en: 'Person' } };
  for (const a of c.config.agents()) names[a.agent_id] = { ja: a.name_ja, en: a.name_en };
  let tokens = 0;
  let cost = 0;
  const messages = d.messages.map((m): MessageView => {
    tokens += m.metadata.tokens_consumed;
    cost += m.metadata.cost_usd ?? 0;
    const label = typeLabel(m.message_type);
    return {
      message_id: m.message_id,
      phase: m.phase,
      speaker: m.speaker,
      speaker_name_ja: names[m.speaker]?.ja || speakerName([], m.speaker, 'ja'),
      speaker_name_en: names[m.speaker]?.en || speakerName([], m.speaker, 'en'),
      type: m.message_type,
      type_label_ja: label.ja,
      type_label_en: label.en,
      brief: briefMessage(m),
      timestamp: m.timestamp,
      model: m.metadata.model_used,
      tokens: m.metadata.tokens_consumed,
      cost_usd: m.metadata.cost_usd ?? 0,
      tokens_so_far: tokens,
      cost_so_far: round(cost, 6),
      processing_ms: m.metadata.processing_time_ms,
      note: m.metadata.note ?? '',
      stated: m.metadata.stated_confidence ?? null,
      computed: m.metadata.computed_confidence ?? null,
      fallback_level: m.metadata.fallback_level,
      error_code: m.metadata.error_code ?? '',
      contradicted: m.metadata.contradicted ?? [],
    };
  });
  const active = ACTIVE.indexOf(d.status) >= 0;
  // Budget columns (added at the end of the log row) are read by name: a workbook without them shows no estimate.
  const row = logCols.read(l.resolved) as Record<string, unknown>;
  const estTokens = num(row.estimate_tokens);
  const estCost = num(row.estimate_cost_usd);
  const spentTokens = num(row.spent_tokens);
  const spentCost = num(row.spent_cost_usd);
  const busy = active || queueActivity(c.store).discussions.indexOf(d.discussion_id) >= 0;
  return {
    discussion_id: d.discussion_id,
    status: d.status,
    priority: d.priority,
    trigger: { type: d.trigger.type, source: d.trigger.source, target_user_id: d.trigger.target_user_id },
    created_at: text(plainCell(d.created_at)),
    closed_at: text(plainCell(d.closed_at)),
    busy,
    phases: phases(c, d),
    messages,
    decision: d.final_decision,
    summary: named(c, summary(d.messages, d.final_decision, d)),
    orders: orders(c, d.final_decision ? String(d.final_decision.decision_id ?? '') : ''),
    estimate: estTokens === null && estCost === null ? null : { tokens: estTokens ?? 0, cost_usd: estCost ?? 0 },
    spent: {
      tokens: spentTokens ?? tokens,
      cost_usd: spentCost ?? round(cost, 6),
      by_phase: text(row.spent_by_phase),
    },
    notes: d.notes,
    directives: d.notes
      .filter((n) => n.startsWith(APPLIED_NOTE))
      .flatMap((n) => n.slice(APPLIED_NOTE.length).split('; '))
      .filter((x, i, all) => x !== '' && all.indexOf(x) === i),
    outcome: d.outcome_evaluated ? outcomeView(c, d.discussion_id) : null,
    order_form: d.status === 'ESCALATED' ? orderChoices(c) : null,
  };
}
