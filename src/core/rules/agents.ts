// The rule-based council: each agent reasons from the trigger and the KPI/Members data, no network.
// This file routes an expected answer to its agent group; each group's reasoning lives in its own module.
import type { AgentContext, Expectation } from '../provider.js';
import { human, negative, positive } from './balancers.js';
import { decide, learning } from './decider.js';
import { facts } from './facts.js';
import { governance } from './governance.js';
import type { L } from './shared.js';
import { situationReport } from './situation.js';
import { feedbackResponse, specialistOpinion } from './specialists.js';

const langOf =
  (ctx: AgentContext): L =>
  (ja, en) =>
    ctx.lang === 'ja' ? ja : en;

// The rule-based answer for one agent and one expected message type.
export function ruleAnswer(agentId: string, expect: Expectation, ctx: AgentContext): unknown {
  const t = langOf(ctx);
  const f = facts(ctx);
  switch (expect) {
    case 'SITUATION_REPORT':
      return situationReport(ctx, f, t);
    case 'SPECIALIST_OPINION':
      return specialistOpinion(agentId, ctx, f, t);
    case 'FEEDBACK_RESPONSE':
      return feedbackResponse(agentId, ctx, f, t);
    case 'PERSPECTIVE_POSITIVE':
      return positive(f, t);
    case 'PERSPECTIVE_NEGATIVE':
      return negative(ctx, t);
    case 'PERSPECTIVE_HUMAN':
      return human(f, t);
    case 'GOVERNANCE_ETHICS':
      return governance(ctx, 'ethics', t, f);
    case 'GOVERNANCE_LEGAL':
      return governance(ctx, 'legal', t, f);
    case 'DECISION':
      return decide(ctx, t);
    case 'LEARNING':
      return learning(ctx);
    default:
      throw new Error(`the rules provider has no answer of type ${expect}`);
  }
}
