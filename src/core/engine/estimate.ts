// The tokens a discussion is expected to take before it starts (SPEC §4.7): every planned prompt, inputs bounded.
import { buildUserText } from '../prompt.js';
import { estimateTokens } from '../tokens.js';
import type { AgentDef, Discussion } from '../types.js';
import { active } from './plan.js';
import { context } from './requests.js';
import type { EngineEnv } from './types.js';

// What one answer costs as output, and again each time a later prompt shows it among the earlier messages.
// Measured on the demo council's rule-based answers (tests/src/core/estimate.test.ts keeps them honest); a model's
// answers vary, so the estimate is a forecast, not a bound.
const ANSWER_TOKENS = 180;
const SHOWN_MESSAGE_TOKENS = 250;

export interface Estimate {
  tokens: number;
  limit: number;
  prompts: number;
  // Tokens of the data every prompt carries: the bounded trigger, the member, the KPI, the allow-list.
  data: number;
  over: boolean;
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

export function estimateDiscussion(d: Discussion, env: EngineEnv): Estimate {
  const data = estimateTokens(buildUserText(context(d, env, { earlier: [], summary: null }), 'SPECIALIST_OPINION'));
  const prompts = plan(env);
  let tokens = 0;
  for (const p of prompts)
    tokens += estimateTokens(env.promptOf(p.agent)) + data + p.shown * SHOWN_MESSAGE_TOKENS + ANSWER_TOKENS;
  // The decider answers with a deliberation and an order.
  if (prompts.length) tokens += ANSWER_TOKENS;
  const limit = env.settings.number('limits.max_tokens_per_discussion');
  return { tokens, limit, prompts: prompts.length, data, over: tokens > limit };
}
