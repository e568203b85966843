// Building requests: what an agent is shown of the record, its context, and the request it is sent.
import type { Message } from '../discussion/messages.js';
import { digestLines } from '../prompts/digest.js';
import { metricsOf } from '../orders/kpi.js';
import { summarize } from '../prompts/prompt.js';
import { buildPreamble, buildShared } from '../prompts/prompt-preamble.js';
import { earlierText, wholeAnswer } from '../prompts/whole-answers.js';
import { LEARNING_ROLE } from '../prompts/prompt-tasks.js';
import { buildUserText, taskText } from '../prompts/prompt-user.js';
import { estimateTokens } from '../prompts/tokens.js';
import type { AgentContext, AgentRequest, Expectation } from '../provider.js';
import type { AgentDef, Discussion } from '../types.js';
import { evidenceForRediscussion } from '../orders/watch-plan.js';
import { boundExtra, boundMember, boundMemory, boundMessages, boundNotes, boundTrigger, inputLimit } from './inputs.js';
import { active, bands, expectOf, latestComputed } from './plan.js';
import { preferVotes, weighOpinions } from '../discussion/votes.js';
import { recordFor, reliabilities, statedRecordFor, teamRateFor } from './learned.js';
import type { EngineEnv } from './types.js';
import {
  allowedFor,
  type Directive,
  directivesFor,
  directivesTo,
  directiveText,
  preferredBy,
} from '../discussion/directives.js';
import { metricTableOf } from '../orders/metric-table.js';

// The directives in force for this discussion (its member's and everyone's).
export function inForce(d: Discussion, env: EngineEnv): Directive[] {
  return directivesFor(d, env.directives?.() ?? []);
}

// What the council may order here: the allow-list less the actions a directive in force bans.
function allowListOf(d: Discussion, env: EngineEnv): string[] {
  return allowedFor(env.settings.get('actions.allow_list'), inForce(d, env));
}

export interface Visible {
  earlier: Message[];
  summary: string | null;
}

// Later phases read each earlier answer as its digest (src/core/prompts/digest.ts). Only when the digests themselves
// would take more than a quarter of limits.max_tokens_per_discussion are the oldest summarised, one line each, keeping
// the newest digests that fit: the limit counts what is sent, not the length of answers nobody is sent.
export function visible(d: Discussion, env: EngineEnv, filter: (m: Message) => boolean): Visible {
  const earlier = d.messages.filter(filter);
  const room = Math.floor(env.settings.number('limits.max_tokens_per_discussion') / 4);
  if (!overflows(earlier, room)) return { earlier, summary: null };
  let keep = earlier.length;
  while (keep > 1 && overflows(earlier.slice(earlier.length - keep), room)) keep--;
  return { earlier: earlier.slice(earlier.length - keep), summary: summarize(earlier.slice(0, earlier.length - keep)) };
}

export function overflows(messages: readonly Message[], room: number): boolean {
  return estimateTokens(digestLines(messages).join('\n')) > room;
}

const WRITTEN_BY_PEOPLE: readonly string[] = ['OBJECTION', 'ACKNOWLEDGEMENT'];

// What an agent is told. Every input from outside the council's own reasoning (the trigger, the member's row, each
// earlier message, an objection, guidance) enters bounded, so one long memo cannot multiply the tokens
// of every prompt; the record keeps the whole value, and the prompt names where.
export function context(d: Discussion, env: EngineEnv, v: Visible, extra: Partial<AgentContext> = {}): AgentContext {
  const s = env.settings;
  const limit = inputLimit(s);
  return {
    lang: env.lang,
    discussion_id: d.discussion_id,
    today: env.today,
    priority: d.priority,
    trigger: boundTrigger(d, limit),
    member: boundMember(env.members.find((m) => m.member_id === d.trigger.target_user_id) ?? null, limit),
    team: env.members,
    kpi: env.kpi,
    // Evidence the watcher added while the decision was not yet carried out is part of any later deliberation.
    dataNotes: env.dataNotes.concat(boundNotes(d, evidenceForRediscussion(d.notes), limit)),
    // A model's answer reaches later prompts as its digest, already short; a person's objection or guidance is shown
    // as written, so it is the one bounded here.
    earlier: v.earlier.map((m) => (WRITTEN_BY_PEOPLE.indexOf(m.message_type) >= 0 ? boundMessages([m], limit)[0] : m)),
    summary: v.summary,
    allowList: allowListOf(d, env),
    weights: s.get('confidence.weights'),
    bands: bands(s),
    computed: latestComputed(d),
    reviewDays: s.number('outcome.review_days'),
    targetChange: s.number('outcome.target_change'),
    windowDays: s.number('outcome.window_days'),
    metricNotes: s.get('kpi.metric_descriptions'),
    goodWays: Object.fromEntries(metricTableOf(s).map((m) => [m.name, m.good])),
    metrics: metricsOf(env.kpi, d.trigger.target_user_id),
    ...boundExtra(d, extra, limit),
  };
}

export function request(
  d: Discussion,
  env: EngineEnv,
  agent: AgentDef,
  phase: number,
  expect: Expectation,
  base: AgentContext,
): AgentRequest {
  const attempt = d.messages.filter((m) => m.speaker === agent.agent_id && m.phase === phase).length + 1;
  const mem = { ...recalled(d, env, agent, phase, expect), directives: directivesOf(d, env, agent) };
  const room = Math.floor(env.settings.number('limits.max_tokens_per_discussion') / 4);
  const ctx = {
    ...base,
    memory: boundMemory(mem, inputLimit(env.settings)),
    whole: wholeFor(expect, base.earlier, room),
    peers: agent.group !== 'governance' && agent.group !== 'balancer',
    // Whoever states a confidence reads how its stated confidence has fared, so it can state one in line with it.
    ...(expect === 'SPECIALIST_OPINION' ? { statedRecord: statedRecordFor(env, agent.agent_id) } : {}),
  };
  return {
    key: `${d.discussion_id}/${phase}/${agent.agent_id}/${attempt}`,
    agent,
    phase,
    expect,
    context: ctx,
    preamble: buildPreamble(ctx),
    shared: buildShared(ctx),
    task: taskText(ctx, expect),
    system: env.promptOf(agent),
    user: buildUserText(ctx),
  };
}

// Which earlier answers a call reads whole: the decider weighs the whole debate, every opinion, perspective and
// governance check whole (the situation report as its digest: the decider reads the KPI itself). Everyone else judges
// from the digests: the balancers reading the two strongest opinions whole as well cost 2,400 tokens a discussion at
// real lengths (the realistic bench, 2026-12-07), a sixth of the 35,000 a discussion is given.
// The answers are read whole while they fit a quarter of limits.max_tokens_per_discussion (the room the digests have,
// see visible()): the opinions first, then the perspectives, then the rest.
function wholeFor(expect: Expectation, earlier: readonly Message[], room: number): readonly string[] {
  if (expect === 'DECISION') {
    const debate = earlier.filter((m) => m.phase >= 2).map((m) => m.message_id);
    if (estimateTokens(earlierText(earlier, debate)) <= room) return debate;
    const rank = (m: Message) => (m.phase === 2 ? 0 : m.phase === 3 ? 1 : 2);
    const lines = digestLines(earlier);
    let used = estimateTokens(lines.join('\n'));
    const whole: string[] = [];
    for (const i of earlier
      .map((_, i) => i)
      .filter((i) => earlier[i].phase >= 2)
      .sort((a, b) => rank(earlier[a]) - rank(earlier[b]) || a - b)) {
      const extra = estimateTokens(wholeAnswer(earlier[i], lines[i])) - estimateTokens(lines[i]);
      if (used + extra > room) continue;
      used += extra;
      whole.push(earlier[i].message_id);
    }
    return whole;
  }
  return [];
}

// The directives an agent reads, whether memory is on or off: people's words are not memory.
function directivesOf(d: Discussion, env: EngineEnv, agent: AgentDef) {
  return directivesTo(agent.agent_id, inForce(d, env)).map((x) => ({
    id: x.id,
    content: directiveText(x, env.lang),
    priority: x.priority,
  }));
}

// Recall that pays for itself: learnings and cases go where a recommendation or the decision is made. Phase 1
// summarises the facts of the KPI table only and the balancers and governance judge the proposals in front of them:
// they keep people's directives, not the retrieved text or their reflections' next actions (a canned line for the rules
// provider, measured at 40 tokens a call and no change to any verdict). A feedback answer follows the agent's own
// opinion, which already had its recall; it keeps its next actions. The decider reads the member's record from
// verdicts, which holds every verdict for the member, so the cases about the same member would say it twice: it gets
// the others.
function recalled(d: Discussion, env: EngineEnv, agent: AgentDef, phase: number, expect: Expectation) {
  const mem = env.memoryFor(agent, d);
  if (phase <= 1 || phase === 3 || phase === 4 || expect === 'FEEDBACK_RESPONSE')
    return { ...mem, learnings: [], cases: [], nextActions: expect === 'FEEDBACK_RESPONSE' ? mem.nextActions : [] };
  if (expect === 'DECISION' && recordFor(d, env).length) {
    const member = d.trigger.target_user_id;
    return { ...mem, cases: mem.cases.filter((c) => !c.member || c.member !== member) };
  }
  // A specialist reads its own learnings and the cases; the shared learnings restate cases (an action, a situation,
  // a verdict) for the whole team, so they go once, to the decider, rather than to each of eight specialists.
  if (expect === 'SPECIALIST_OPINION') return { ...mem, learnings: mem.learnings.filter((l) => l.scope !== 'shared') };
  return mem;
}

// The requests a phase made, rebuilt from the record as it stood before that phase (for replay).
export function phaseRequests(d: Discussion, env: EngineEnv, phase: number): AgentRequest[] {
  const before: Discussion = { ...d, messages: d.messages.filter((m) => m.phase < phase) };
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
  if (phase === 3) return make(pick('balancer', 3), expectOf, (m) => m.phase <= 2);
  if (phase === 4) return make(pick('governance', 4), expectOf, (m) => m.phase <= 2);
  return make(
    env.agents.filter((a) => a.group === 'decider' && a.active),
    () => 'DECISION',
    () => true,
    weighingOf(before, env),
  );
}

// The decider is given Kaigi's count: each specialist's band, learned reliability and weight, and each action type's
// score; and what was tried for the member and how it fared, as data.
export function weighingOf(d: Discussion, env: EngineEnv): Partial<AgentContext> {
  const learned = env.settings.get('learning.reliability_weights');
  const weighed = weighOpinions(d.messages, latestComputed(d), bands(env.settings), reliabilities(d, env), learned);
  // A directive's preferred actions are weighed up by code, so every decider, rules or model, sees them first.
  const prefer = preferredBy(inForce(d, env), allowListOf(d, env));
  return {
    weighing: preferVotes(weighed, prefer, env.settings.number('directives.prefer_weight')),
    memberRecord: recordFor(d, env),
    teamRate: teamRateFor(env),
  };
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
    preamble: buildPreamble(ctx),
    shared: buildShared(ctx),
    task: taskText(ctx, 'LEARNING'),
    // The learning call has its own role: the decider's prompt asks for an order, this call for learnings.
    system: LEARNING_ROLE[env.lang === 'ja' ? 0 : 1],
    user: buildUserText(ctx),
  };
}

// After an outcome each agent that spoke is asked, on its own model and in its own role, to reflect: it reads its own
// answers and the decision (not the whole record: the prompt stays the size of one answer's context) and the outcome.
export function reflectionRequest(
  d: Discussion,
  env: EngineEnv,
  agent: AgentDef,
  outcome: NonNullable<AgentContext['outcome']>,
): AgentRequest {
  const own = (m: Message) =>
    m.speaker === agent.agent_id || m.message_type === 'DECISION_DELIBERATION' || m.message_type === 'EXECUTION_ORDER';
  // Its own answers whole: a reflection is on what the agent said, not on a digest of it.
  const seen = visible(d, env, own);
  const whole = seen.earlier.filter((m) => m.speaker === agent.agent_id).map((m) => m.message_id);
  const ctx = { ...context(d, env, seen), outcome, whole };
  return {
    key: `${d.discussion_id}/review/${agent.agent_id}/reflection`,
    agent,
    phase: 6,
    expect: 'REFLECTION',
    context: ctx,
    preamble: buildPreamble(ctx),
    shared: buildShared(ctx),
    task: taskText(ctx, 'REFLECTION'),
    system: env.promptOf(agent),
    user: buildUserText(ctx),
  };
}
