// The discussion engine: plans the next step from the record alone and runs it through any provider.
import { bandOf, computeConfidence, type Bands, type Weights } from './confidence.js';
import { addDays, messageId } from './ids.js';
import {
  validateContent,
  validateMessage,
  type ContentOf,
  type Message,
  type MessageType,
  type Metadata,
} from './messages.js';
import { buildUserText, summarize } from './prompt.js';
import type { AgentContext, AgentRequest, AgentResponse, Expectation, Provider } from './provider.js';
import type { Settings } from './settings.js';
import { transition } from './state-machine.js';
import type { AgentDef, Discussion, InboxItem, KpiRow, Member, OrderRow, Status } from './types.js';
import type { AgentMemory } from './memory.js';

export type Step =
  | { kind: 'start' }
  | { kind: 'phase2'; agents: string[] }
  | { kind: 'feedback'; agents: string[] }
  | { kind: 'phase34'; agents: string[] }
  | { kind: 'decide' }
  | { kind: 'timeout' }
  | { kind: 'idle'; reason: string };

export interface EngineEnv {
  settings: Settings;
  agents: AgentDef[];
  promptOf: (agent: AgentDef) => string;
  providerFor: (agent: AgentDef) => Provider;
  rules: Provider;
  kpi: KpiRow[];
  members: Member[];
  dataNotes: string[];
  now: () => number;
  today: string;
  isoNow: () => string;
  nextDecisionId: () => string;
  lang: 'ja' | 'en';
  historicalAccuracy: (agentId: string) => number;
  // Price per 1,000 tokens of a provider:model, from Settings; null when unknown.
  priceOf: (model: string) => { input: number; output: number } | null;
  // What memory gives this agent in this discussion (empty when memory is off).
  memoryFor: (agent: AgentDef, d: Discussion) => AgentMemory;
}

export interface StepResult {
  messages: Message[];
  status: Status;
  transitions: { from: Status; to: Status }[];
  closedAt?: string;
  finalDecision?: Record<string, unknown>;
  orders: OrderRow[];
  cancelDecision?: string;
  executionStatus?: string;
  inbox: Omit<InboxItem, 'inbox_id'>[];
  notes: string[];
}

const SYSTEM = 'system';

function active(env: EngineEnv, group: string, phase: number): AgentDef[] {
  return env.agents.filter((a) => a.active && a.group === group && a.phases.indexOf(phase) >= 0);
}

function spoke(d: Discussion, agent: string, phase: number, types: MessageType[]): boolean {
  return d.messages.some((m) => m.speaker === agent && m.phase === phase && types.indexOf(m.message_type) >= 0);
}

function totalTokens(d: Discussion): number {
  return d.messages.reduce((a, m) => a + m.metadata.tokens_consumed, 0);
}

export function latestComputed(d: Discussion): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of d.messages)
    if (
      m.metadata.computed_confidence !== undefined &&
      (m.message_type === 'SPECIALIST_OPINION' || m.message_type === 'FEEDBACK_RESPONSE')
    )
      out[m.speaker] = m.metadata.computed_confidence;
  return out;
}

function feedbackRounds(d: Discussion, agent: string): number {
  return d.messages.filter(
    (m) => m.message_type === 'FEEDBACK_REQUEST' && (m.content as { target_agent: string }).target_agent === agent,
  ).length;
}

function bands(s: Settings): Bands {
  return {
    heavy: s.number('confidence.band_heavy'),
    reference: s.number('confidence.band_reference'),
    crosscheck: s.number('confidence.band_crosscheck'),
    feedback: s.number('confidence.band_feedback'),
  };
}

export function planStep(d: Discussion, env: EngineEnv): Step {
  const s = env.settings;
  const timeoutMs = s.number('limits.discussion_timeout_hours') * 3600_000;
  if (
    (d.status === 'OPEN' || d.status === 'IN_PROGRESS' || d.status === 'VOTING') &&
    env.now() - Date.parse(d.created_at) > timeoutMs
  )
    return { kind: 'timeout' };
  if (d.status === 'OPEN') return { kind: 'start' };
  if (d.status === 'VOTING') return { kind: 'decide' };
  if (d.status !== 'IN_PROGRESS') return { kind: 'idle', reason: d.status };
  if (!d.messages.some((m) => m.phase === 1 && m.message_type === 'SITUATION_REPORT')) return { kind: 'start' };
  const forced = d.messages.length >= s.number('limits.max_messages_per_discussion');
  if (forced) return { kind: 'decide' };
  const specialists = active(env, 'specialist', 2).filter((a) => !spoke(d, a.agent_id, 2, ['SPECIALIST_OPINION']));
  if (specialists.length) return { kind: 'phase2', agents: specialists.map((a) => a.agent_id) };
  const b = bands(s);
  const computed = latestComputed(d);
  const maxRounds = s.number('confidence.max_feedback_rounds');
  const ask = active(env, 'specialist', 2).filter((a) => {
    const c = computed[a.agent_id];
    return c !== undefined && bandOf(c, b) === 'feedback' && feedbackRounds(d, a.agent_id) < maxRounds;
  });
  if (ask.length) return { kind: 'feedback', agents: ask.map((a) => a.agent_id) };
  const p34 = active(env, 'balancer', 3)
    .concat(active(env, 'governance', 4))
    .filter((a) => !d.messages.some((m) => m.speaker === a.agent_id && (m.phase === 3 || m.phase === 4)));
  if (p34.length) return { kind: 'phase34', agents: p34.map((a) => a.agent_id) };
  return { kind: 'decide' };
}

// ---- running a step -------------------------------------------------------------------------

interface Answer {
  agent: AgentDef;
  memory?: AgentMemory;
  content: unknown;
  response: AgentResponse;
  level: number;
  errorCode?: Metadata['error_code'];
  isDefault?: boolean;
  note?: string;
}

function expectedType(e: Expectation): MessageType {
  if (e === 'LEARNING') throw new Error('LEARNING is not a message type');
  return e === 'DECISION' ? 'EXECUTION_ORDER' : e;
}

function valid(e: Expectation, content: unknown, allow: string[], today = ''): string | null {
  try {
    if (e === 'DECISION') {
      const c = content as { deliberation?: unknown; order?: unknown };
      validateContent('DECISION_DELIBERATION', c?.deliberation, allow);
      const order = validateContent('EXECUTION_ORDER', c?.order, allow);
      // A review date has to lie ahead, within the 90 days a measurement window can cover.
      if (today && (order.monitoring.review_date <= today || order.monitoring.review_date > addDays(today, 90))) {
        return `monitoring.review_date ${order.monitoring.review_date} must be after ${today} and within 90 days`;
      }
    } else validateContent(expectedType(e), content, allow);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

function defaultContent(e: Expectation, env: EngineEnv, agent: AgentDef, reason: string): unknown {
  const t = (ja: string, en: string) => (env.lang === 'ja' ? ja : en);
  const note = t(
    `応答が得られなかったため既定の意見を記録（${reason.slice(0, 200)}）`,
    `No usable answer; default opinion recorded (${reason.slice(0, 200)})`,
  );
  switch (e) {
    case 'SITUATION_REPORT':
      return {
        summary: note,
        data_points: [{ metric: 'none', value: 'n/a', change: '', note: '' }],
        severity: 'MEDIUM',
      };
    case 'SPECIALIST_OPINION':
      return {
        analysis: note,
        evidence: ['E001'],
        hypothesis: t('判断保留', 'No judgement'),
        confidence: 0,
        recommendation: {
          action_type: env.settings.get<string[]>('actions.allow_list')[0],
          target: '-',
          description: note,
          intensity: 'low',
          timing: '',
          duration_days: 1,
        },
      };
    case 'FEEDBACK_RESPONSE':
      return { answer: note, source_data: [] };
    case 'PERSPECTIVE_POSITIVE':
      return { viewpoint: note, opportunity: '-' };
    case 'PERSPECTIVE_NEGATIVE':
      return { risk: note, concern: '-', counter_proposal: '-' };
    case 'PERSPECTIVE_HUMAN':
      return { reality_check: note, human_insight: '-' };
    // A governance check that could not run is never a pass.
    case 'GOVERNANCE_ETHICS':
    case 'GOVERNANCE_LEGAL':
      return {
        check_result: 'FAIL',
        concerns: [note],
        notes: t(`${agent.name_ja}の審査を実施できず`, `${agent.name_en} could not review`),
      };
    default:
      throw new Error(`no default for ${e}`);
  }
}

// Asks every agent of one round at once, then walks the fallback ladder per agent (SPEC §4.6).
function ask(env: EngineEnv, requests: AgentRequest[], allowDefault: boolean): Answer[] {
  const allow = env.settings.get<string[]>('actions.allow_list');
  const byProvider = new Map<Provider, AgentRequest[]>();
  for (const r of requests) {
    const p = env.providerFor(r.agent);
    byProvider.set(p, (byProvider.get(p) ?? []).concat([r]));
  }
  const responses = new Map<string, AgentResponse>();
  byProvider.forEach((reqs, p) => p.respond(reqs).forEach((res) => responses.set(res.key, res)));
  return requests.map((r) => {
    const res = responses.get(r.key)!;
    const maxMs = (env.settings.get<Record<string, number>>('phase.max_seconds')[String(r.phase)] ?? 300) * 1000;
    let problem = res.ok ? valid(r.expect, res.content, allow, env.today) : (res.error?.message ?? 'no answer');
    if (!problem && res.ms > maxMs)
      problem = `E001: the answer took ${res.ms} ms, past phase ${r.phase}'s maximum of ${maxMs} ms`;
    const level = Math.max(res.attempts > 1 || res.repaired ? 1 : 0, res.fallbackLevel ?? 0);
    if (!problem)
      return { agent: r.agent, content: res.content, response: res, level, note: res.note, memory: r.context.memory };
    // Level 2: a substitute from the same group answers in the agent's place.
    const sub = env.agents.find(
      (a) => a.agent_id === r.agent.substitute_agent && a.active && a.group === r.agent.group,
    );
    if (sub) {
      const sr = { ...r, agent: sub, system: env.promptOf(sub), key: `${r.key}/substitute` };
      const [sres] = env.providerFor(sub).respond([sr]);
      let sp = sres.ok ? valid(r.expect, sres.content, allow) : (sres.error?.message ?? 'no answer');
      if (!sp && sres.ms > maxMs) sp = `the answer took ${sres.ms} ms, past the phase maximum`;
      if (!sp)
        return {
          agent: r.agent,
          content: sres.content,
          response: sres,
          level: 2,
          note: `answered by substitute ${sub.agent_id}: ${problem}`,
          memory: sr.context.memory,
        };
      problem = `${problem}; substitute ${sub.agent_id}: ${sp}`;
    }
    if (!allowDefault)
      return { agent: r.agent, content: null, response: res, level: 2, errorCode: 'E001', note: problem };
    // Level 3: continue without this opinion; a default opinion marked as such keeps the record complete.
    return {
      agent: r.agent,
      content: defaultContent(r.expect, env, r.agent, problem),
      response: res,
      level: 3,
      errorCode: 'E001',
      isDefault: true,
      note: problem,
    };
  });
}

export interface Visible {
  earlier: Message[];
  summary: string | null;
}

function visible(d: Discussion, env: EngineEnv, filter: (m: Message) => boolean): Visible {
  const earlier = d.messages.filter(filter);
  if (totalTokens(d) > env.settings.number('limits.max_tokens_per_discussion'))
    return { earlier: earlier.slice(-3), summary: summarize(earlier.slice(0, -3)) };
  return { earlier, summary: null };
}

function context(d: Discussion, env: EngineEnv, v: Visible, extra: Partial<AgentContext> = {}): AgentContext {
  const s = env.settings;
  return {
    lang: env.lang,
    discussion_id: d.discussion_id,
    today: env.today,
    priority: d.priority,
    trigger: d.trigger,
    member: env.members.find((m) => m.member_id === d.trigger.target_user_id) ?? null,
    team: env.members,
    kpi: env.kpi,
    dataNotes: env.dataNotes,
    earlier: v.earlier,
    summary: v.summary,
    allowList: s.get<string[]>('actions.allow_list'),
    weights: s.get<Weights>('confidence.weights'),
    bands: bands(s),
    computed: latestComputed(d),
    reviewDays: s.number('outcome.review_days'),
    targetChange: s.number('outcome.target_change'),
    windowDays: s.number('outcome.window_days'),
    ...extra,
  };
}

function request(
  d: Discussion,
  env: EngineEnv,
  agent: AgentDef,
  phase: number,
  expect: Expectation,
  base: AgentContext,
): AgentRequest {
  const attempt = d.messages.filter((m) => m.speaker === agent.agent_id && m.phase === phase).length + 1;
  const ctx = { ...base, memory: env.memoryFor(agent, d) };
  return {
    key: `${d.discussion_id}/${phase}/${agent.agent_id}/${attempt}`,
    agent,
    phase,
    expect,
    context: ctx,
    system: env.promptOf(agent),
    user: buildUserText(ctx, expect),
  };
}

function memoryIds(m: AgentMemory | undefined): { learnings?: string[]; directives?: string[] } {
  if (!m) return {};
  const out: { learnings?: string[]; directives?: string[] } = {};
  const ids = m.learnings.map((l) => l.id).concat(m.cases.map((c) => c.id));
  if (ids.length) out.learnings = ids;
  if (m.directives.length) out.directives = m.directives.map((x) => x.id);
  return out;
}

export class Builder {
  readonly out: StepResult;
  private seq: number;
  constructor(
    private readonly d: Discussion,
    private readonly env: EngineEnv,
  ) {
    this.seq = d.messages.length;
    this.out = { messages: [], status: d.status, transitions: [], orders: [], inbox: [], notes: [] };
  }
  to(status: Status): void {
    const next = transition(this.out.status, status);
    this.out.transitions.push({ from: this.out.status, to: next });
    this.out.status = next;
  }
  add(
    phase: number,
    speaker: string,
    type: MessageType,
    content: unknown,
    meta: Partial<Metadata> & { step_key: string },
  ): Message {
    const allow = this.env.settings.get<string[]>('actions.allow_list');
    const parsed = validateContent(type, content, allow) as Record<string, unknown>;
    const m: Message = validateMessage(
      {
        message_id: messageId(this.d.discussion_id, ++this.seq),
        discussion_id: this.d.discussion_id,
        phase,
        speaker,
        message_type: type,
        timestamp: this.env.isoNow(),
        content: parsed,
        metadata: { processing_time_ms: 0, model_used: 'kaigi', tokens_consumed: 0, fallback_level: 0, ...meta },
      },
      allow,
    );
    this.out.messages.push(m);
    return m;
  }
  answer(a: Answer, phase: number, type: MessageType, extra: Partial<Metadata> = {}): Message {
    const r = a.response;
    const stated =
      typeof (a.content as { confidence?: unknown }).confidence === 'number'
        ? (a.content as { confidence: number }).confidence
        : undefined;
    const meta: Partial<Metadata> & { step_key: string } = {
      ...memoryIds(a.memory),
      step_key: r.key.replace(/\/substitute$/, ''),
      processing_time_ms: Math.max(0, Math.round(r.ms)),
      model_used: r.model,
      tokens_consumed: Math.max(0, Math.round(r.tokensIn + r.tokensOut)),
      fallback_level: a.level,
      ...extra,
    };
    if (stated !== undefined) meta.stated_confidence = stated;
    const price = this.env.priceOf(r.model);
    if (price) meta.cost_usd = Math.round(((r.tokensIn * price.input + r.tokensOut * price.output) / 1000) * 1e6) / 1e6;
    if (a.errorCode) meta.error_code = a.errorCode;
    if (a.isDefault) meta.default_opinion = true;
    if (a.note) meta.note = a.note.slice(0, 1000);
    return this.add(phase, a.agent.agent_id, type, a.content, meta);
  }
  system(phase: number, code: Metadata['error_code'] & string, message: string, level: number): Message {
    return this.add(
      phase,
      SYSTEM,
      'ERROR',
      { error_code: code, message },
      {
        step_key: `${this.d.discussion_id}/${phase}/${SYSTEM}/${this.seq + 1}`,
        fallback_level: level,
        error_code: code,
      },
    );
  }
  note(text: string): void {
    if (this.d.notes.indexOf(text) < 0 && this.out.notes.indexOf(text) < 0) this.out.notes.push(text);
  }
}

function computedFor(
  d: Discussion,
  env: EngineEnv,
  agent: string,
  opinion: ContentOf<'SPECIALIST_OPINION'>,
  all: { speaker: string; type: string }[],
  bonus = 0,
): number {
  const target = d.trigger.target_user_id;
  const days: string[] = [];
  for (const r of env.kpi) if (r.member_id === target && days.indexOf(r.date) < 0) days.push(r.date);
  days.sort();
  const age = days.length
    ? Math.max(0, Math.round((Date.parse(env.today) - Date.parse(days[days.length - 1])) / 86400000))
    : 30;
  const others = all.filter((o) => o.speaker !== agent);
  const agree = others.filter((o) => o.type === opinion.recommendation.action_type).length;
  return computeConfidence(
    {
      data_recency: Math.max(0, 1 - age / 7),
      data_completeness: Math.min(1, days.length / 30 + bonus),
      historical_accuracy: env.historicalAccuracy(agent),
      sample_size: Math.min(1, days.length / 30),
      expert_consensus: others.length ? agree / Math.max(1, Math.min(others.length, 4)) : 0,
    },
    env.settings.get<Weights>('confidence.weights'),
  );
}

function phase2(d: Discussion, env: EngineEnv, b: Builder, agents: string[]): void {
  const v = visible(d, env, (m) => m.phase === 1);
  const defs = env.agents.filter((a) => agents.indexOf(a.agent_id) >= 0);
  const answers = ask(
    env,
    defs.map((a) => request(d, env, a, 2, 'SPECIALIST_OPINION', context(d, env, v))),
    true,
  );
  const all = d.messages
    .filter((m) => m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion)
    .map((m) => ({
      speaker: m.speaker,
      type: (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type,
    }))
    .concat(
      answers
        .filter((a) => !a.isDefault)
        .map((a) => ({
          speaker: a.agent.agent_id,
          type: (a.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type,
        })),
    );
  for (const a of answers) {
    const computed = a.isDefault
      ? 0
      : computedFor(d, env, a.agent.agent_id, a.content as ContentOf<'SPECIALIST_OPINION'>, all);
    b.answer(a, 2, 'SPECIALIST_OPINION', { computed_confidence: computed });
  }
  if (answers.length && answers.every((a) => a.isDefault))
    b.note('fallback level 3: the specialist group gave no usable opinion; continuing without it');
}

function feedback(d: Discussion, env: EngineEnv, b: Builder, agents: string[]): void {
  const defs = env.agents.filter((a) => agents.indexOf(a.agent_id) >= 0);
  const requests: AgentRequest[] = [];
  for (const a of defs) {
    const c = latestComputed(d)[a.agent_id];
    const question =
      env.lang === 'ja'
        ? `計算上の信頼度が ${c} と低いため、推奨を裏付ける追加データを示してください。`
        : `Your computed confidence is low (${c}); give the additional data behind your recommendation.`;
    b.add(
      2,
      'decider',
      'FEEDBACK_REQUEST',
      { question, target_agent: a.agent_id },
      { step_key: `${d.discussion_id}/2/decider→${a.agent_id}/${feedbackRounds(d, a.agent_id) + 1}` },
    );
    const own = d.messages.filter((m) => m.phase === 1 || m.speaker === a.agent_id);
    requests.push(
      request(
        d,
        env,
        a,
        2,
        'FEEDBACK_RESPONSE',
        context(d, env, { earlier: own, summary: null }, { feedbackQuestion: question }),
      ),
    );
  }
  const answers = ask(env, requests, true);
  const all = d.messages
    .filter((m) => m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion)
    .map((m) => ({
      speaker: m.speaker,
      type: (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type,
    }));
  for (const a of answers) {
    const op = d.messages.find((m) => m.speaker === a.agent.agent_id && m.message_type === 'SPECIALIST_OPINION');
    const bonus = 0.2 * (feedbackRounds(d, a.agent.agent_id) + 1);
    const computed =
      a.isDefault || !op
        ? 0
        : computedFor(d, env, a.agent.agent_id, op.content as ContentOf<'SPECIALIST_OPINION'>, all, bonus);
    b.answer(a, 2, 'FEEDBACK_RESPONSE', { computed_confidence: computed });
  }
}

function phase34(d: Discussion, env: EngineEnv, b: Builder, agents: string[]): void {
  const v = visible(d, env, (m) => m.phase <= 2);
  const defs = env.agents.filter((a) => agents.indexOf(a.agent_id) >= 0);
  const types: Record<string, Expectation> = {
    positive: 'PERSPECTIVE_POSITIVE',
    devils_advocate: 'PERSPECTIVE_NEGATIVE',
    human_view: 'PERSPECTIVE_HUMAN',
    ethics: 'GOVERNANCE_ETHICS',
    legal: 'GOVERNANCE_LEGAL',
  };
  const expectOf = (a: AgentDef): Expectation =>
    types[a.agent_id] ?? (a.group === 'governance' ? 'GOVERNANCE_ETHICS' : 'PERSPECTIVE_POSITIVE');
  const answers = ask(
    env,
    defs.map((a) => request(d, env, a, a.group === 'governance' ? 4 : 3, expectOf(a), context(d, env, v))),
    true,
  );
  const failed: string[] = [];
  for (const a of answers) {
    const phase = a.agent.group === 'governance' ? 4 : 3;
    const type = expectedType(expectOf(a.agent));
    const fail = phase === 4 && (a.content as { check_result: string }).check_result === 'FAIL';
    if (fail && !a.errorCode) a.errorCode = 'E004';
    if (fail) a.level = 5;
    b.answer(a, phase, type);
    if (fail) failed.push(`${a.agent.agent_id}: ${((a.content as { concerns: string[] }).concerns || []).join('; ')}`);
  }
  const balancers = answers.filter((a) => a.agent.group === 'balancer');
  if (balancers.length && balancers.every((a) => a.isDefault))
    b.note('fallback level 3: no usable balancer opinion; continuing without the balancer group');
  const governanceDone = active(env, 'governance', 4).every((g) =>
    d.messages.concat(b.out.messages).some((m) => m.speaker === g.agent_id && m.phase === 4),
  );
  const anyFail = d.messages
    .concat(b.out.messages)
    .some((m) => m.phase === 4 && (m.content as { check_result?: string }).check_result === 'FAIL');
  if (governanceDone && anyFail) {
    const text =
      env.lang === 'ja'
        ? `ガバナンスチェック不合格のため決定を保留し、人間に判断を求めます：${failed.join(' / ')}`
        : `Governance check failed; the decision is on hold for a person: ${failed.join(' / ')}`;
    b.system(4, 'E004', text, 5);
    b.to('ESCALATED');
    b.out.inbox.push({
      from_agent: 'ethics',
      type: 'anomaly_alert',
      priority: 'urgent',
      title: `E004 ${d.discussion_id}`,
      body: text,
      discussion_id: d.discussion_id,
    });
  }
}

export interface DecideInput {
  objection?: AgentContext['objection'];
  guidance?: string;
}

function sameActions(a: ContentOf<'EXECUTION_ORDER'>, b: Record<string, unknown> | null): boolean {
  if (!b) return false;
  const key = (o: { actions: { action_type: string; intensity: string }[] }) =>
    o.actions
      .map((x) => `${x.action_type}:${x.intensity}`)
      .sort()
      .join(',');
  return key(a) === key(b as ContentOf<'EXECUTION_ORDER'>);
}

export function decideStep(d: Discussion, env: EngineEnv, b: Builder, input: DecideInput): void {
  if (b.out.status !== 'VOTING') b.to('VOTING');
  const decider = env.agents.find((a) => a.group === 'decider' && a.active);
  const decisionId = env.nextDecisionId();
  const v = visible(d, env, () => true);
  const ctx = context(d, env, v, { decisionId, objection: input.objection, guidance: input.guidance });
  let answer: Answer | null = null;
  if (decider) {
    const [a] = ask(env, [request(d, env, decider, 5, 'DECISION', ctx)], false);
    if (!a.errorCode) answer = a;
    else if (d.priority === 'CRITICAL' || d.priority === 'HIGH') {
      // E003 on an urgent discussion: a rule-based decision (level 4).
      const [r] = env.rules.respond([
        { ...request(d, env, decider, 5, 'DECISION', ctx), key: `${d.discussion_id}/5/decider/rules` },
      ]);
      if (r.ok && !valid('DECISION', r.content, ctx.allowList))
        answer = { agent: decider, content: r.content, response: r, level: 4, errorCode: 'E003', note: a.note };
    }
    if (!answer) {
      const text =
        env.lang === 'ja'
          ? `決裁者から応答がないため人間の判断を求めます（${(a.note ?? '').slice(0, 300)}）`
          : `The decider gave no answer; a person must decide (${(a.note ?? '').slice(0, 300)})`;
      b.system(5, 'E003', text, 5);
      b.to('ESCALATED');
      b.out.inbox.push({
        from_agent: 'decider',
        type: 'struggle',
        priority: 'high',
        title: `E003 ${d.discussion_id}`,
        body: text,
        discussion_id: d.discussion_id,
      });
      return;
    }
  }
  if (!answer) throw new Error('no active decider in the council');
  const c = answer.content as { deliberation: ContentOf<'DECISION_DELIBERATION'>; order: ContentOf<'EXECUTION_ORDER'> };
  const order = { ...c.order, decision_id: decisionId };
  b.answer({ ...answer, content: c.deliberation }, 5, 'DECISION_DELIBERATION');
  const previous = d.final_decision;
  if ((input.objection || input.guidance) && previous && sameActions(order, previous)) {
    const why =
      env.lang === 'ja'
        ? `再検討の結果、原案（${String(previous.decision_id)}）を維持：${c.deliberation.rationale}`
        : `After reconsideration the original order (${String(previous.decision_id)}) stands: ${c.deliberation.rationale}`;
    b.add(
      6,
      'decider',
      'ACKNOWLEDGEMENT',
      { status: 'ORIGINAL_ORDER_KEPT', note: why },
      { step_key: `${d.discussion_id}/6/decider/${d.messages.length + 1}` },
    );
    b.to('DECIDED');
    return;
  }
  const msg = b.answer({ ...answer, content: order }, 6, 'EXECUTION_ORDER');
  recordOrder(d, b, msg);
}

// Turns a stored EXECUTION_ORDER into the decision, its Orders rows, and the cancellation of an earlier one.
export function recordOrder(d: Discussion, b: Builder, msg: Message): void {
  const order = msg.content as ContentOf<'EXECUTION_ORDER'>;
  const previous = d.final_decision;
  b.to('DECIDED');
  b.out.finalDecision = msg.content;
  b.out.executionStatus = 'PENDING';
  if (previous && previous.decision_id !== order.decision_id) b.out.cancelDecision = String(previous.decision_id);
  order.actions.forEach((action, i) =>
    b.out.orders.push({
      order_id: `${order.decision_id}-A${i + 1}`,
      decision_id: order.decision_id,
      discussion_id: d.discussion_id,
      target_agent: order.target_agents[0],
      action,
      status: 'PENDING',
      review_date: order.monitoring.review_date,
      success_criteria: order.monitoring.success_criteria,
    }),
  );
}

export function reanalyse(d: Discussion, env: EngineEnv, b: Builder): void {
  const analyst = env.agents.find((a) => a.active && a.phases.indexOf(1) >= 0);
  if (!analyst) throw new Error('no active phase-1 agent in the council');
  const [a] = ask(
    env,
    [request(d, env, analyst, 1, 'SITUATION_REPORT', context(d, env, { earlier: [], summary: null }))],
    true,
  );
  if (env.dataNotes.length && !a.errorCode) {
    a.errorCode = 'E002';
    a.level = Math.max(a.level, 1);
    a.note = env.dataNotes.join('; ');
  }
  b.answer(a, 1, 'SITUATION_REPORT');
}

export function runStep(d: Discussion, step: Step, env: EngineEnv, input: DecideInput = {}): StepResult {
  const b = new Builder(d, env);
  if (totalTokens(d) > env.settings.number('limits.max_tokens_per_discussion'))
    b.note(`summarised: earlier messages passed ${env.settings.number('limits.max_tokens_per_discussion')} tokens`);
  switch (step.kind) {
    case 'timeout':
      b.to('TIMEOUT');
      b.out.closedAt = env.isoNow();
      b.note(`TIMEOUT: not decided within ${env.settings.number('limits.discussion_timeout_hours')} h`);
      break;
    case 'start':
      if (d.status === 'OPEN') b.to('IN_PROGRESS');
      reanalyse(d, env, b);
      break;
    case 'phase2':
      phase2(d, env, b, step.agents);
      break;
    case 'feedback':
      feedback(d, env, b, step.agents);
      break;
    case 'phase34':
      phase34(d, env, b, step.agents);
      break;
    case 'decide':
      if (d.messages.length >= env.settings.number('limits.max_messages_per_discussion'))
        b.note(`message limit ${env.settings.number('limits.max_messages_per_discussion')} reached: forced to phase 5`);
      decideStep(d, env, b, input);
      break;
    case 'idle':
      break;
  }
  return b.out;
}

// The requests a phase made, rebuilt from the record as it stood before that phase (for replay).
export function phaseRequests(d: Discussion, env: EngineEnv, phase: number): AgentRequest[] {
  const before: Discussion = { ...d, messages: d.messages.filter((m) => m.phase < phase) };
  const old = d.messages.find((m) => m.message_type === 'EXECUTION_ORDER');
  const decisionId = old ? String((old.content as { decision_id: string }).decision_id) : undefined;
  const types: Record<string, Expectation> = {
    positive: 'PERSPECTIVE_POSITIVE',
    devils_advocate: 'PERSPECTIVE_NEGATIVE',
    human_view: 'PERSPECTIVE_HUMAN',
    ethics: 'GOVERNANCE_ETHICS',
    legal: 'GOVERNANCE_LEGAL',
  };
  const pick = (group: string, p: number) => active(env, group, p);
  const make = (
    agents: AgentDef[],
    expect: (a: AgentDef) => Expectation,
    filter: (m: Message) => boolean,
    extra: Partial<AgentContext> = {},
  ) =>
    agents.map((a) =>
      request(before, env, a, phase, expect(a), context(before, env, visible(before, env, filter), extra)),
    );
  if (phase === 1)
    return make(
      env.agents.filter((a) => a.active && a.phases.indexOf(1) >= 0).slice(0, 1),
      () => 'SITUATION_REPORT',
      () => false,
    );
  if (phase === 2)
    return make(
      pick('specialist', 2),
      () => 'SPECIALIST_OPINION',
      (m) => m.phase === 1,
    );
  if (phase === 3)
    return make(
      pick('balancer', 3),
      (a) => types[a.agent_id] ?? 'PERSPECTIVE_POSITIVE',
      (m) => m.phase <= 2,
    );
  if (phase === 4)
    return make(
      pick('governance', 4),
      (a) => types[a.agent_id] ?? 'GOVERNANCE_ETHICS',
      (m) => m.phase <= 2,
    );
  return make(
    env.agents.filter((a) => a.group === 'decider' && a.active),
    () => 'DECISION',
    () => true,
    { decisionId },
  );
}

// After an outcome the decider's model is asked what to learn from the whole discussion and its result.
export function learningRequest(
  d: Discussion,
  env: EngineEnv,
  outcome: NonNullable<AgentContext['outcome']>,
): AgentRequest | null {
  const decider = env.agents.find((a) => a.group === 'decider' && a.active);
  if (!decider) return null;
  const ctx = {
    ...context(
      d,
      env,
      visible(d, env, () => true),
    ),
    outcome,
  };
  return {
    key: `${d.discussion_id}/review/${decider.agent_id}/learning`,
    agent: decider,
    phase: 6,
    expect: 'LEARNING',
    context: ctx,
    system: env.promptOf(decider),
    user: buildUserText(ctx, 'LEARNING'),
  };
}

export function applyStep(d: Discussion, r: StepResult): Discussion {
  const speakers = d.participants.slice();
  for (const m of r.messages) if (speakers.indexOf(m.speaker) < 0 && m.speaker !== SYSTEM) speakers.push(m.speaker);
  return {
    ...d,
    status: r.status,
    messages: d.messages.concat(r.messages),
    participants: speakers,
    closed_at: r.closedAt ?? d.closed_at,
    final_decision: r.finalDecision ?? d.final_decision,
    execution_status: r.executionStatus ?? d.execution_status,
    notes: d.notes.concat(r.notes),
  };
}
