// The tokens a discussion is expected to take before it starts (SPEC §4.7): every planned prompt, inputs bounded.
import { buildUserText } from '../prompt.js';
import { estimateTokens } from '../tokens.js';
import type { Message } from '../messages.js';
import type { AgentDef, Discussion } from '../types.js';
import { active } from './plan.js';
import { context } from './requests.js';
import type { EngineEnv } from './types.js';

// What one answer costs as output, and again each time a later prompt shows it among the earlier messages.
// The rule-based agents write long, fixed-shape answers: measured on the demo council (tests/src/core/estimate.test.ts
// keeps them honest). A model asked through a JSON schema answers shorter: measured on the demo council answered by
// the local model server (tests/src/app/start-estimate.test.ts). Real models vary, so the estimate is a forecast,
// not a bound.
const RULES = { answer: 180, shown: 250 };
const MODEL = { answer: 120, shown: 140 };

function sizesOf(model: string): { answer: number; shown: number } {
  return model === 'rules' || model.indexOf('rules:') === 0 ? RULES : MODEL;
}

export interface Estimate {
  tokens: number;
  limit: number;
  prompts: number;
  // Tokens of the data every prompt carries: the bounded trigger, the member, the KPI, the allow-list.
  data: number;
  over: boolean;
  // Each planned prompt: who is asked, on which model (provider:model), its input and its expected answer.
  perPrompt: PromptEstimate[];
}

interface PromptEstimate {
  agent_id: string;
  model: string;
  input: number;
  output: number;
}

export interface ModelCost {
  model: string;
  prompts: number;
  tokens: number;
  cost_usd: number;
}

// Phases 1–5 as planned from the Agents tab: who is asked, and how many earlier messages each one is shown.
function plan(env: EngineEnv): { agent: AgentDef; shown: number }[] {
  const first = env.agents.filter((a) => a.active && a.phases.indexOf(1) >= 0).slice(0, 1);
  const p2 = active(env, 'specialist', 2);
  const p34 = active(env, 'balancer', 3).concat(active(env, 'governance', 4));
  const decider = env.agents.filter((a) => a.group === 'decider' && a.active).slice(0, 1);
  return [
    ...first.map((agent) => ({ agent, shown: 0 })),
    ...p2.map((agent) => ({ agent, shown: first.length })),
    ...p34.map((agent) => ({ agent, shown: first.length + p2.length })),
    ...decider.map((agent) => ({ agent, shown: first.length + p2.length + p34.length })),
  ];
}

// modelOf names the provider:model an agent's prompt goes to (the app resolves defaults); the agent's own setting
// otherwise. It only labels the prompts, so the estimate stays pure.
export function estimateDiscussion(
  d: Discussion,
  env: EngineEnv,
  modelOf: (agent: AgentDef) => string = (a) => a.model || env.settings.raw('provider.default'),
): Estimate {
  const data = estimateTokens(buildUserText(context(d, env, { earlier: [], summary: null }), 'SPECIALIST_OPINION'));
  const prompts = plan(env);
  const perPrompt = prompts.map((p, i) => {
    const model = modelOf(p.agent);
    const size = sizesOf(model);
    return {
      agent_id: p.agent.agent_id,
      model,
      input: estimateTokens(env.promptOf(p.agent)) + data + p.shown * size.shown,
      // The decider (the last prompt) answers with a deliberation and an order.
      output: i === prompts.length - 1 ? 2 * size.answer : size.answer,
    };
  });
  const tokens = perPrompt.reduce((a, p) => a + p.input + p.output, 0);
  const limit = env.settings.number('limits.max_tokens_per_discussion');
  return { tokens, limit, prompts: prompts.length, data, over: tokens > limit, perPrompt };
}

// The estimate split by model and priced from the same table messages are costed with (per 1,000 tokens); a model
// without a price costs 0, as its messages do.
export function costByModel(
  e: Estimate,
  priceOf: (model: string) => { input: number; output: number } | null,
): { cost_usd: number; byModel: ModelCost[] } {
  const by: Record<string, ModelCost> = {};
  const order: string[] = [];
  for (const p of e.perPrompt) {
    if (!by[p.model]) {
      by[p.model] = { model: p.model, prompts: 0, tokens: 0, cost_usd: 0 };
      order.push(p.model);
    }
    const price = priceOf(p.model);
    const m = by[p.model];
    m.prompts += 1;
    m.tokens += p.input + p.output;
    if (price) m.cost_usd += (p.input * price.input + p.output * price.output) / 1000;
  }
  const byModel = order.map((k) => ({ ...by[k], cost_usd: round6(by[k].cost_usd) }));
  return { cost_usd: round6(byModel.reduce((a, m) => a + m.cost_usd, 0)), byModel };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export interface Spent {
  tokens: number;
  cost_usd: number;
  // Readable in the cell: "P1 1,234 tok $0.0012 | P2 5,678 tok $0.0100".
  by_phase: string;
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// What a discussion has used so far, overall and per phase, from its messages' own metadata.
export function spentOf(messages: Message[]): Spent {
  const phases: Record<number, { tokens: number; cost: number }> = {};
  let tokens = 0;
  let cost = 0;
  for (const m of messages) {
    const t = m.metadata.tokens_consumed || 0;
    const c = m.metadata.cost_usd ?? 0;
    tokens += t;
    cost += c;
    const p = (phases[m.phase] = phases[m.phase] ?? { tokens: 0, cost: 0 });
    p.tokens += t;
    p.cost += c;
  }
  const by_phase = Object.keys(phases)
    .map(Number)
    .sort((a, b) => a - b)
    .map((k) => `P${k} ${thousands(phases[k].tokens)} tok $${phases[k].cost.toFixed(4)}`)
    .join(' | ');
  return { tokens, cost_usd: round6(cost), by_phase };
}
