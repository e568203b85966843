// The learning benchmark at equal action budgets: memory, no memory, the bandit and the oracle each run at k = 1
// and k = 3 actions an order, on a team where each extra action costs the member attention, and at no cost.
import type { SimOptions } from '../tools/council-sim.js';
import type { WorldName } from '../tools/simulated-world.js';
import { bootstrapDiff, confirmedRate, round3, type Scored } from './stats.js';

// Each action beyond the first lowers every action's effect by this share: a member's attention is finite.
export const EXTRA_ACTION_COST = 0.15;
const BUDGETS = [1, 3];
const COSTS = [0, EXTRA_ACTION_COST];

const ARMS: Record<string, Omit<SimOptions, 'seed' | 'days'>> = {
  memory: { policy: 'council' },
  no_memory: { policy: 'council', settings: { 'memory.enabled': 'false' } },
  bandit: { policy: 'bandit' },
  oracle: { policy: 'oracle' },
};

export interface BudgetLine {
  memory: number;
  no_memory: number;
  bandit: number;
  oracle: number;
  diff_ci95: [number, number];
  gap_closed: number;
  tokens_memory: number;
  tokens_no_memory: number;
}

// The main world's keys are as they were before other worlds; another world's name its keys.
const keyOf = (cost: number, k: number, arm: string, world: WorldName) =>
  `by_k:${world === 'main' ? '' : `${world}:`}${cost}:${k}:${arm}`;

// The jobs: every arm at every budget and cost, on the same seeds as the main arms, in the main world unless told.
export function budgetJobs(
  seeds: readonly number[],
  days: number,
  world: WorldName = 'main',
  costs: readonly number[] = COSTS,
): (SimOptions & { key: string })[] {
  const jobs: (SimOptions & { key: string })[] = [];
  const w = world === 'main' ? {} : { world };
  for (const cost of costs)
    for (const k of BUDGETS)
      for (const [arm, o] of Object.entries(ARMS))
        for (const seed of seeds)
          jobs.push({ key: keyOf(cost, k, arm, world), seed, days, k, extraActionCost: cost, ...w, ...o });
  return jobs;
}

export interface Pooled {
  verdicts: Scored[];
  tokens: number;
  discussions: number;
}

// One budget's line from the pooled arms: the rates, memory − no memory's interval, the share of the gap to the
// oracle that memory closes, and the tokens a discussion.
export function budgetLine(of: (arm: string) => Pooled): BudgetLine {
  const rate = (a: string) => round3(confirmedRate(of(a).verdicts));
  const tokens = (a: string) => Math.round(of(a).tokens / (of(a).discussions || 1));
  const [m, n, o] = [rate('memory'), rate('no_memory'), rate('oracle')];
  return {
    memory: m,
    no_memory: n,
    bandit: rate('bandit'),
    oracle: o,
    diff_ci95: bootstrapDiff(of('memory').verdicts, of('no_memory').verdicts, 2000, 4).map(round3) as [number, number],
    gap_closed: round3((m - n) / (o - n || 1)),
    tokens_memory: tokens('memory'),
    tokens_no_memory: tokens('no_memory'),
  };
}

// `by_k` at the default cost, and `by_cost["0"]` the same at no cost, keyed by k.
export function budgetReport(pool: (key: string) => Pooled): {
  extra_action_cost: number;
  by_k: Record<string, BudgetLine>;
  by_cost: Record<string, Record<string, BudgetLine>>;
} {
  const at = (cost: number) => budgetsAt(pool, cost, 'main');
  return { extra_action_cost: EXTRA_ACTION_COST, by_k: at(EXTRA_ACTION_COST), by_cost: { '0': at(0) } };
}

// One world's lines at one cost, keyed by k.
export function budgetsAt(pool: (key: string) => Pooled, cost: number, world: WorldName): Record<string, BudgetLine> {
  return Object.fromEntries(BUDGETS.map((k) => [String(k), budgetLine((arm) => pool(keyOf(cost, k, arm, world)))]));
}
