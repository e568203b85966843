// The discussion phases before the decision: the situation report, specialists, feedback, balancers and governance.
import { computeConfidence } from '../discussion/confidence.js';
import { datesOf } from '../orders/kpi-index.js';
import type { ContentOf } from '../discussion/messages.js';
import type { AgentRequest } from '../provider.js';
import type { Discussion } from '../types.js';
import { ask, expectedType } from './ask.js';
import type { Builder } from './builder.js';
import { active, expectOf, feedbackRounds, latestFeedbackFigure } from './plan.js';
import { context, request, visible } from './requests.js';
import { curveFor, UNPROVEN_CONFIDENCE, unproven } from './learned.js';
import { recalibrate } from '../memory/isotonic.js';
import type { EngineEnv } from './types.js';
import { contradictions, textsOf } from '../orders/claims.js';
import { metricTableOf } from '../orders/metric-table.js';
import { parseInstant } from '../instant.js';

type Computed = { computed_confidence: number; formula_confidence?: number; contradicted?: Contradicted[] };
type Contradicted = { metric: string; claimed: string; actual: string; from: number; to: number };

// The answer's claims about the member's metrics, checked against the KPI data (src/core/orders/claims.ts): each
// one the data contradicts is named in the metadata and costs grounding.contradiction_penalty of computed confidence.
function checked(d: Discussion, env: EngineEnv, content: unknown, c: Computed): Computed {
  const text = textsOf(content).join('\n');
  const found = contradictions(text, env.kpi, d.trigger.target_user_id, metricTableOf(env.settings));
  if (!found.length) return c;
  const cost = env.settings.number('grounding.contradiction_penalty') * found.length;
  const less = (x: number) => Math.max(0, Math.round((x - cost) * 100) / 100);
  return {
    ...c,
    computed_confidence: less(c.computed_confidence),
    ...(c.formula_confidence === undefined ? {} : { formula_confidence: less(c.formula_confidence) }),
    contradicted: found.slice(0, 10).map((x) => ({
      metric: x.metric,
      claimed: x.direction,
      actual: x.actual,
      from: x.from,
      to: x.to,
    })),
  };
}

function computedFor(
  d: Discussion,
  env: EngineEnv,
  agent: string,
  opinion: ContentOf<'SPECIALIST_OPINION'>,
  all: { speaker: string; type: string }[],
  bonus = 0,
): Computed {
  const target = d.trigger.target_user_id;
  // From the KPI table's index (kpi-index.ts): a scan of every row for each opinion was a twentieth of the bench.
  const days = datesOf(env.kpi, target);
  const age = days.length
    ? Math.max(0, Math.round((parseInstant(env.today) - parseInstant(days[days.length - 1])) / 86400000))
    : 30;
  // Once the agent has a record, its computed confidence is its stated one recalibrated on past verdicts: how often
  // it has been right when it said this much (src/core/memory/isotonic.ts).
  const curve = curveFor(env, agent);
  if (curve) return { computed_confidence: recalibrate(curve, opinion.confidence) };
  const others = all.filter((o) => o.speaker !== agent);
  const agree = others.filter((o) => o.type === opinion.recommendation.action_type).length;
  const formula = computeConfidence(
    {
      data_recency: Math.max(0, 1 - age / 7),
      data_completeness: Math.min(1, days.length / 30 + bonus),
      historical_accuracy: env.historicalAccuracy(agent),
      sample_size: Math.min(1, days.length / 30),
      expert_consensus: others.length ? agree / Math.max(1, Math.min(others.length, 4)) : 0,
    },
    env.settings.get('confidence.weights'),
  );
  // Memory on and no verdict yet: how often this is right is unknown, so the council reports and weighs even odds;
  // the formula's figure is kept beside it and still decides the feedback round (learned.ts, plan.ts).
  return unproven(env)
    ? { computed_confidence: UNPROVEN_CONFIDENCE, formula_confidence: formula }
    : { computed_confidence: formula };
}

export function phase2(d: Discussion, env: EngineEnv, b: Builder, agents: string[]): void {
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
      ? { computed_confidence: 0 }
      : checked(
          d,
          env,
          a.content,
          computedFor(d, env, a.agent.agent_id, a.content as ContentOf<'SPECIALIST_OPINION'>, all),
        );
    b.answer(a, 2, 'SPECIALIST_OPINION', computed);
  }
  if (answers.length && answers.every((a) => a.isDefault))
    b.note('fallback level 3: the specialist group gave no usable opinion; continuing without it');
}

// Before the first verdict the computed confidence reads even odds, so the question names the formula's figure.
function feedbackQuestion(env: EngineEnv, c: number): string {
  const ja = env.lang === 'ja';
  if (unproven(env))
    return ja
      ? `推奨を裏付けるデータが少ないため（信頼度の要素式で ${c}）、追加データを示してください。`
      : `The data behind your recommendation are thin (the confidence formula gives ${c}); give the additional data behind it.`;
  return ja
    ? `計算上の信頼度が ${c} と低いため、推奨を裏付ける追加データを示してください。`
    : `Your computed confidence is low (${c}); give the additional data behind your recommendation.`;
}

export function feedback(d: Discussion, env: EngineEnv, b: Builder, agents: string[]): void {
  const defs = env.agents.filter((a) => agents.indexOf(a.agent_id) >= 0);
  const requests: AgentRequest[] = [];
  for (const a of defs) {
    const question = feedbackQuestion(env, latestFeedbackFigure(d)[a.agent_id]);
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
        ? { computed_confidence: 0 }
        : checked(
            d,
            env,
            a.content,
            computedFor(d, env, a.agent.agent_id, op.content as ContentOf<'SPECIALIST_OPINION'>, all, bonus),
          );
    b.answer(a, 2, 'FEEDBACK_RESPONSE', computed);
  }
}

export function phase34(d: Discussion, env: EngineEnv, b: Builder, agents: string[]): void {
  const v = visible(d, env, (m) => m.phase <= 2);
  const defs = env.agents.filter((a) => agents.indexOf(a.agent_id) >= 0);
  const answers = ask(
    env,
    defs.map((a) => ({
      ...request(d, env, a, a.group === 'governance' ? 4 : 3, expectOf(a), context(d, env, v)),
      round: defs.map(expectOf),
    })),
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
    b.escalate(4, 'E004', text, { from_agent: 'ethics', type: 'anomaly_alert', priority: 'urgent' });
  }
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
