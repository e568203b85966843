// The tokens a discussion is expected to take before it starts: every planned prompt, inputs bounded.
import { buildPreamble, buildShared } from '../prompts/prompt-preamble.js';
import { buildUserText, taskText } from '../prompts/prompt-user.js';
import type { Expectation } from '../provider.js';
import { capabilityOf, costUsd, DEFAULT_CAPABILITIES, roundUsd, type Price } from '../providers/model-table.js';
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
// `whole` is the answer as a later prompt shows it whole (src/core/prompts/whole-answers.ts: the decider reads every
// answer so, a balancer the two strongest opinions).
type Sizes = Record<AgentDef['group'], { answer: number; digest: number; whole: number }>;
const RULES: Sizes = {
  specialist: { answer: 180, digest: 35, whole: 150 },
  balancer: { answer: 180, digest: 110, whole: 150 },
  governance: { answer: 120, digest: 60, whole: 100 },
  decider: { answer: 600, digest: 100, whole: 500 },
};
// Measured on the demo discussion in Japanese by the realistic bench (outputs as the server counted them, digests and
// whole answers as the decider's request carried them).
// Remeasured 2026-12-07 once each task stated its length (src/core/prompts/answer-lengths.ts).
const MODEL: Sizes = {
  specialist: { answer: 490, digest: 100, whole: 510 },
  balancer: { answer: 320, digest: 90, whole: 330 },
  governance: { answer: 210, digest: 60, whole: 300 },
  decider: { answer: 700, digest: 100, whole: 700 },
};

// The share of calls asked again (a retry after a transient error, the repair of an invalid answer, a cut answer asked
// again), each resending the prompt and writing a new answer: a forecast counts them at this rate. A guess until the
// record measures it: the realistic bench asks nothing again, real vendors do now and then.
const AGAIN_RATE = 0.05;

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
// `whole` is how many of the shown answers the prompt reads whole (the rest as digests): the debate for the decider.
interface Planned {
  agent: AgentDef;
  expect: Expectation;
  shown: AgentDef[];
  whole: number;
  // Tokens of anything else the prompt is shown (the draft order an agent review reads).
  extra?: number;
}

function plan(env: EngineEnv): Planned[] {
  const first = env.agents.filter((a) => a.active && a.phases.indexOf(1) >= 0).slice(0, 1);
  const p2 = active(env, 'specialist', 2);
  const p3 = active(env, 'balancer', 3);
  const p4 = active(env, 'governance', 4);
  const decider = env.agents.filter((a) => a.group === 'decider' && a.active).slice(0, 1);
  const all = first.concat(p2, p3, p4);
  return [
    ...first.map((agent) => ({ agent, expect: 'SITUATION_REPORT' as Expectation, shown: [], whole: 0 })),
    ...p2.map((agent) => ({ agent, expect: 'SPECIALIST_OPINION' as Expectation, shown: first, whole: 0 })),
    ...p3.map((agent) => ({ agent, expect: expectOf(agent), shown: first.concat(p2), whole: 0 })),
    ...p4.map((agent) => ({ agent, expect: expectOf(agent), shown: first.concat(p2), whole: 0 })),
    // The situation report as its digest, the rest of the debate whole.
    ...decider.map((agent) => ({ agent, expect: 'DECISION' as Expectation, shown: all, whole: all.length - 1 })),
  ];
}

// Tokens a prompt spends on the answers it is shown: the last `whole` of them whole, the rest as digests.
function shownTokens(p: Planned, modelOf: (a: AgentDef) => string): number {
  const size = (x: AgentDef) => sizesOf(modelOf(x))[x.group];
  const digests = p.shown.length - p.whole;
  return p.shown.reduce((a, x, i) => a + (i < digests ? size(x).digest : size(x).whole), p.extra ?? 0);
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
  const data = estimateTokens(buildPreamble(ctx)) + estimateTokens(buildShared(ctx));
  // The balancers and governance are not shown the team's table (src/core/engine/requests.ts).
  const withoutPeers = data - estimateTokens(buildShared(ctx)) + estimateTokens(buildShared({ ...ctx, peers: false }));
  const capabilities = env.settings.get('provider.model_capabilities') ?? DEFAULT_CAPABILITIES;
  // A model that thinks first is taken to think about as long as it then writes, within its budget (billed as output).
  const thinking = (model: string, answer: number): number => {
    const colon = model.indexOf(':');
    if (colon <= 0 || sizesOf(model) === RULES) return 0;
    return Math.min(answer, capabilityOf(capabilities, model.slice(0, colon), model.slice(colon + 1)).reasoning_tokens);
  };
  // After the order, governance agents on a model read it again (the agent review, src/core/engine/review.ts).
  const review = active(env, 'governance', 4)
    .filter((agent) => sizesOf(modelOf(agent)) === MODEL)
    .map((agent) => {
      const decider = plan(env).find((p) => p.expect === 'DECISION')?.agent;
      // It reads the situation report's digest and the draft order: about half the decider's answer.
      const order = decider ? Math.round(sizesOf(modelOf(decider)).decider.answer / 2) : 0;
      return {
        agent,
        expect: expectOf(agent),
        shown: plan(env)
          .slice(0, 1)
          .map((p) => p.agent),
        whole: 0,
        extra: order,
      };
    });
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
      // A model's calls are sometimes made again (retries, repairs, cut answers); the rules' never are.
      const again = size === MODEL ? 1 + AGAIN_RATE : 1;
      const peers = p.agent.group !== 'governance' && p.agent.group !== 'balancer';
      const input =
        (peers ? data : withoutPeers) +
        estimateTokens(env.promptOf(p.agent)) +
        userTokens(p.expect) +
        schemaTokens(model, p.expect, ctx.allowList, ctx.metrics) +
        shownTokens(p, modelOf);
      return {
        agent_id: p.agent.agent_id,
        model,
        input: Math.round(input * again),
        output: Math.round((size[p.agent.group].answer + thinking(model, size[p.agent.group].answer)) * again),
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
