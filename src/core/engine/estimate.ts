// The tokens a discussion is expected to take before it starts: every planned prompt, inputs bounded.
import { buildPreamble } from '../prompts/prompt-preamble.js';
import { buildUserText, taskText } from '../prompts/prompt-user.js';
import type { Expectation } from '../provider.js';
import { costUsd, roundUsd, type Price } from '../providers/model-table.js';
import { schemaFor } from '../providers/schema.js';
import { findVendor } from '../providers/vendor-registry.js';
import { estimateTokens } from '../prompts/tokens.js';
import type { Message } from '../discussion/messages.js';
import type { AgentDef, Discussion } from '../types.js';
import { active, expectOf } from './plan.js';
import { context } from './requests.js';
import type { EngineEnv } from './types.js';

// What one answer costs as output, and again as its digest in each later prompt that shows it, by agent group. The
// rule-based agents write long, fixed-shape answers (measured on the demo council: tests/src/core/estimate.test.ts
// keeps them honest). A model's answers were measured on the demo council answered at real length by the local
// model server's realistic mode (npm run bench -- --only realistic); real models vary, so this is a forecast, not a
// bound.
type Sizes = Record<AgentDef['group'], { answer: number; digest: number }>;
const RULES: Sizes = {
  specialist: { answer: 180, digest: 35 },
  balancer: { answer: 180, digest: 110 },
  governance: { answer: 120, digest: 60 },
  decider: { answer: 600, digest: 100 },
};
// Measured on the demo discussion in Japanese by the realistic bench (outputs as the server counted them, digests as
// the decider's request carried them), 2026-11-26.
const MODEL: Sizes = {
  specialist: { answer: 1450, digest: 130 },
  balancer: { answer: 970, digest: 120 },
  governance: { answer: 360, digest: 30 },
  decider: { answer: 1960, digest: 100 },
};

function sizesOf(model: string): Sizes {
  return model === 'rules' || model.indexOf('rules:') === 0 ? RULES : MODEL;
}

// Tokens of each answer schema, counted once: the demo council's seventeen prompts share eight.
const schemaTokenCounts = new WeakMap<object, number>();

// The answer's JSON Schema goes with every call and counts as input; the rule-based agents are sent none.
function schemaTokens(
  model: string,
  expect: Expectation,
  allowList: readonly string[],
  metrics: readonly string[] = [],
): number {
  const vendor = findVendor(model.split(':')[0]);
  if (!vendor) return 0;
  const schema = schemaFor(expect, vendor.wire, allowList, metrics);
  let n = schemaTokenCounts.get(schema);
  if (n === undefined) {
    n = estimateTokens(JSON.stringify(schema));
    schemaTokenCounts.set(schema, n);
  }
  return n;
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

// Phases 1–5 as planned from the Agents tab: who is asked, for what, and whose answers each one is shown.
function plan(env: EngineEnv): { agent: AgentDef; expect: Expectation; shown: AgentDef[] }[] {
  const first = env.agents.filter((a) => a.active && a.phases.indexOf(1) >= 0).slice(0, 1);
  const p2 = active(env, 'specialist', 2);
  const p34 = active(env, 'balancer', 3).concat(active(env, 'governance', 4));
  const decider = env.agents.filter((a) => a.group === 'decider' && a.active).slice(0, 1);
  return [
    ...first.map((agent) => ({ agent, expect: 'SITUATION_REPORT' as Expectation, shown: [] })),
    ...p2.map((agent) => ({ agent, expect: 'SPECIALIST_OPINION' as Expectation, shown: first })),
    ...p34.map((agent) => ({ agent, expect: expectOf(agent), shown: first.concat(p2) })),
    ...decider.map((agent) => ({ agent, expect: 'DECISION' as Expectation, shown: first.concat(p2, p34) })),
  ];
}

// modelOf names the provider:model an agent's prompt goes to (the app resolves defaults); the agent's own setting
// otherwise. Each prompt is the preamble as built now, the agent's role and own part, its answer schema, and the
// digests of the answers it will be shown, at the sizes measured for their groups.
export function estimateDiscussion(
  d: Discussion,
  env: EngineEnv,
  modelOf: (agent: AgentDef) => string = (a) => a.model || env.settings.raw('provider.default'),
): Estimate {
  const ctx = context(d, env, { earlier: [], summary: null });
  const data = estimateTokens(buildPreamble(ctx));
  // After the order, governance agents on a model read it again (the agent review, src/core/engine/review.ts).
  const review = active(env, 'governance', 4)
    .filter((agent) => sizesOf(modelOf(agent)) === MODEL)
    .map((agent) => ({ agent, expect: expectOf(agent), shown: plan(env).map((p) => p.agent) }));
  // The user text is the same for every prompt, its task the same for every prompt of an expectation.
  const user = buildUserText(ctx);
  const byExpect: Partial<Record<Expectation, number>> = {};
  const userTokens = (expect: Expectation): number =>
    (byExpect[expect] ??= estimateTokens(user + taskText(ctx, expect)));
  const perPrompt = plan(env)
    .concat(review)
    .map((p) => {
      const model = modelOf(p.agent);
      const size = sizesOf(model);
      const shown = p.shown.reduce((a, x) => a + sizesOf(modelOf(x))[x.group].digest, 0);
      return {
        agent_id: p.agent.agent_id,
        model,
        input:
          data +
          estimateTokens(env.promptOf(p.agent)) +
          userTokens(p.expect) +
          schemaTokens(model, p.expect, ctx.allowList, ctx.metrics) +
          shown,
        output: size[p.agent.group].answer,
      };
    });
  const tokens = perPrompt.reduce((a, p) => a + p.input + p.output, 0);
  const limit = env.settings.number('limits.max_tokens_per_discussion');
  return { tokens, limit, prompts: perPrompt.length, data, over: tokens > limit, perPrompt };
}

// The estimate split by model and priced from the same table messages are costed with (per 1,000 tokens); a model
// without a price costs 0, as its messages do.
export function costByModel(
  e: Estimate,
  priceOf: (model: string) => Price | null,
): { cost_usd: number; byModel: ModelCost[] } {
  const by: Record<string, ModelCost> = {};
  const order: string[] = [];
  for (const p of e.perPrompt) {
    if (!by[p.model]) {
      by[p.model] = { model: p.model, prompts: 0, tokens: 0, cost_usd: 0 };
      order.push(p.model);
    }
    const m = by[p.model];
    m.prompts += 1;
    m.tokens += p.input + p.output;
    m.cost_usd += costUsd(priceOf(p.model), p.input, p.output);
  }
  const byModel = order.map((k) => ({ ...by[k], cost_usd: roundUsd(by[k].cost_usd) }));
  return { cost_usd: roundUsd(byModel.reduce((a, m) => a + m.cost_usd, 0)), byModel };
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
  return { tokens, cost_usd: roundUsd(cost), by_phase };
}
