// After a reviewed outcome each agent that spoke reflects with its own model, in the same round as the
// decider's learning call; an agent on the rules provider, or whose model gave no usable answer, gets the canned one.
import { reflectionRequest } from '../engine.js';
import type { EngineEnv } from '../engine.js';
import { answerErrors } from '../discussion/messages.js';
import type { AgentRequest, AgentResponse, Provider } from '../provider.js';
import { BUDGET_NOTE, BudgetProvider } from '../providers/budget.js';
import { costUsd } from '../providers/model-table.js';
import { recommendationOf, speakersOf, type AgentRecord, type ReflectionContent } from './reflection-rules.js';
import type { ReflectionAnswer } from './reflection-schema.js';
import { learningAnswerOf, learningRequestOf, type LearningAnswer } from './review-learnings.js';
import type { Assessment, ModelReflection } from './review-types.js';
import type { AgentDef } from '../types.js';

// What the calls after an outcome cost, added to the day's budget in the review's commit.
export interface Spent {
  tokens: number;
  cost: number;
}

export interface AfterOutcome {
  learning: LearningAnswer | null;
  reflections: ModelReflection[];
  spent: Spent;
}

// The requests for the agents that reflect on a model: those that spoke, are still active, and are not on rules. One
// the day's budget sent back to rules is not asked; its row says so (`skipped`).
function reflectionRequests(
  a: Assessment,
  env: EngineEnv,
  record: AgentRecord,
  providerOf: (agent: AgentDef) => Provider,
): { out: AgentRequest[]; skipped: ModelReflection[] } {
  const { ev, discussion: d } = a;
  const out: AgentRequest[] = [];
  const skipped: ModelReflection[] = [];
  for (const id of speakersOf(d)) {
    const agent = env.agents.find((x) => x.agent_id === id && x.active);
    if (!agent) continue;
    const p = providerOf(agent);
    if (p instanceof BudgetProvider)
      skipped.push({ agent_id: id, source: agent.model || 'default model', answer: null, problem: BUDGET_NOTE });
    if (p.name === env.rules.name) continue;
    const { rec, adopted } = recommendationOf(d, id);
    const r = record[id];
    out.push(
      reflectionRequest(d, env, agent, {
        verdict: ev.verdict,
        error: ev.error,
        measured: ev.measured,
        ...(rec ? { your_recommendation: { action_type: rec, carried_out: adopted } } : {}),
        your_record: { right: r?.hits ?? 0, wrong: r?.misses ?? 0 },
      }),
    );
  }
  return { out, skipped };
}

// Every call after an outcome in one round: each provider is sent its requests at once (one fetchAll for a council
// on one vendor), so the reflections add no round to the review's time. Keys name the discussion, the agent and the
// step, and a decision whose commit did not happen is asked again whole on the next run.
export function askAfterOutcome(a: Assessment, env: EngineEnv, record: AgentRecord = {}): AfterOutcome {
  const learning = learningRequestOf(a, env);
  // Each agent's provider is looked up once: in the app a lookup reads Script Properties (the override, the day's
  // usage, the key), a cost per call that fourteen agents would otherwise pay twice per decision.
  const providers: Record<string, Provider> = {};
  const providerOf = (agent: AgentDef) => (providers[agent.agent_id] ??= env.providerFor(agent));
  const { out: reflections, skipped } = reflectionRequests(a, env, record, providerOf);
  const all = (learning ? [learning] : []).concat(reflections);
  const byProvider = new Map<Provider, AgentRequest[]>();
  for (const r of all) {
    const p = providerOf(r.agent);
    byProvider.set(p, (byProvider.get(p) ?? []).concat([r]));
  }
  const responses: Record<string, AgentResponse> = {};
  byProvider.forEach((reqs, p) => p.respond(reqs).forEach((res) => (responses[res.key] = res)));
  const spent: Spent = { tokens: 0, cost: 0 };
  for (const r of all) {
    const res = responses[r.key];
    if (!res) throw new Error(`no answer came for ${r.key}`);
    spent.tokens += Math.max(0, Math.round(res.tokensIn + res.tokensOut));
    spent.cost += costUsd(env.priceOf(res.model), res.tokensIn, res.tokensOut, res);
  }
  return {
    learning: learning ? learningAnswerOf(learning, responses[learning.key]) : null,
    reflections: skipped.concat(
      reflections.map((r) => {
        const res = responses[r.key];
        const problem = res.ok
          ? answerErrors('REFLECTION', res.content, [])
          : `${res.error?.code ?? 'failed'}: ${res.error?.message ?? 'no answer'}`;
        return {
          agent_id: r.agent.agent_id,
          source: res.model,
          answer: problem ? null : (res.content as ReflectionAnswer),
          problem: problem ?? '',
        };
      }),
    ),
    spent,
  };
}

// The reflection a row records: the model's words when it gave a usable answer, else the canned one, whose source
// says which model failed and why (a person reading the tab sees the fallback, never a silent one).
export function reflectionOf(
  canned: ReflectionContent,
  model: ModelReflection | undefined,
): ReflectionContent & { source: string } {
  if (model?.answer) {
    const x = model.answer;
    return {
      agent_id: canned.agent_id,
      self_score: x.self_score,
      reasoning: x.score_reasoning,
      went_well: x.what_went_well.join('\n'),
      to_improve: x.what_to_improve.join('\n'),
      next_actions: x.next_actions,
      source: model.source,
    };
  }
  if (model) return { ...canned, source: `rules (fallback: ${model.source} ${model.problem})`.slice(0, 500) };
  return { ...canned, source: 'rules' };
}
