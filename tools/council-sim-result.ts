// What a simulated council run is asked and gives back (tools/council-sim.ts), and how its tokens are counted.
import type { OpinionScore } from '../src/core/memory/calibration.js';
import type { Verdict } from '../src/core/memory/outcomes.js';
import type { Discussion } from '../src/core/types.js';
import type { WorldName } from './simulated-world.js';

export type Policy = 'council' | 'vote' | 'random' | 'oracle' | 'bandit';

export interface SimOptions {
  seed: number;
  days: number;
  policy: Policy;
  // Settings rows that differ from the defaults (memory.enabled, retrieval weights, feedback rounds, …).
  settings?: Record<string, string>;
  // Agents switched off for an ablation.
  without?: string[];
  firstDay?: string;
  // Actions an order carries (an equal budget for every arm); absent, each arm orders as it always did.
  k?: number;
  // The simulated team's cost of each action beyond the first (tools/simulated-team.ts); absent, 0.
  extraActionCost?: number;
  // The simulated team's hidden structure (tools/simulated-world.ts); absent, the main world.
  world?: WorldName;
}

export interface SimVerdict {
  day: number;
  member: string;
  verdict: Verdict;
  actions: string[];
  majority: string;
  flip: boolean;
  // Whether the member's best action had changed by the decision (drifting members after the drift day).
  drifted: boolean;
  // For the benchmark's report only (the council never reads the hidden table): whether the order carried out held
  // the member's hidden best action on the day it was decided, and that day.
  best: boolean;
  decided: number;
}

// One discussion as the watcher opened it and the council decided it, for tests/tools/council-sim.test.ts to hold
// against the product's own record of the same run.
export interface SimDiscussion {
  day: number;
  discussion_id: string;
  member: string;
  // As the deliberation ended (DECIDED, ESCALATED or TIMEOUT), and the council's own order (a baseline arm then
  // carries out another action: SimVerdict.actions).
  status: string;
  actions: string[];
  majority: string;
  // The learnings and cases its agents were given, in the order first given (message metadata.learnings).
  recalled: string[];
}

export interface SimResult {
  verdicts: SimVerdict[];
  log: SimDiscussion[];
  opinions: OpinionScore[];
  discussions: number;
  tokens: number;
  // Tokens by phase and message type ("2/SPECIALIST_OPINION"): where a discussion's tokens go, arm against arm.
  tokensBy: Record<string, number>;
  decayed: number;
}

// A discussion's tokens, in all and by phase and message type.
export function countTokens(result: SimResult, messages: Discussion['messages']): void {
  for (const m of messages) {
    const k = `${m.phase}/${m.message_type}`;
    result.tokens += m.metadata.tokens_consumed;
    result.tokensBy[k] = (result.tokensBy[k] ?? 0) + m.metadata.tokens_consumed;
  }
}
