// The learning benchmark's other worlds: the equal-budget lines in the second world (a monthly best action, noisy
// KPI with missing days, pairs that work only together), and learned reliability weights on and off in the trust
// family (one specialist's cue misleading for half the team) and in the main world.
import { DEFAULT_SETTINGS } from '../src/core/settings.js';
import type { SimOptions } from '../tools/council-sim.js';
import type { WorldName } from '../tools/simulated-world.js';
import { type BudgetLine, budgetJobs, budgetsAt, EXTRA_ACTION_COST, type Pooled } from './learning-by-k.js';
import { bootstrapDiff, confirmedRate, conclusive, round3 } from './stats.js';

const WEIGHTS = 'learning.reliability_weights';

interface WeightsLine {
  weights_on: number;
  weights_off: number;
  // (on − off), 95 % bootstrap interval over members as clusters.
  diff_ci95: [number, number];
  verdicts_on: number;
  verdicts_off: number;
}

export interface WorldsReport {
  // Keyed by k ("1", "3"), at the default extra-action cost: the same keys as by_k.
  second_world: Record<string, BudgetLine>;
  // Weights on and off in the trust family; `default_off` is the setting's default as shipped; `main_world` the
  // same comparison in the main world. The council orders as the product does, at the default extra-action cost.
  trust_family: WeightsLine & { default_off: boolean; main_world: WeightsLine };
}

const trustKey = (world: WorldName, on: boolean) => `weights:${world}:${on ? 'on' : 'off'}`;

// The jobs: the four arms at k = 1 and 3 in the second world, and the council with weights on and off in the trust
// family and in the main world, on the same seeds as the main arms.
export function worldJobs(seeds: readonly number[], days: number): (SimOptions & { key: string })[] {
  const jobs = budgetJobs(seeds, days, 'second', [EXTRA_ACTION_COST]);
  for (const world of ['trust', 'main'] as const)
    for (const on of [true, false])
      for (const seed of seeds)
        jobs.push({
          key: trustKey(world, on),
          seed,
          days,
          policy: 'council',
          extraActionCost: EXTRA_ACTION_COST,
          ...(world === 'main' ? {} : { world }),
          settings: { [WEIGHTS]: String(on) },
        });
  return jobs;
}

function weightsLine(pool: (key: string) => Pooled, world: WorldName, seed: number): WeightsLine {
  const [on, off] = [pool(trustKey(world, true)).verdicts, pool(trustKey(world, false)).verdicts];
  return {
    weights_on: round3(confirmedRate(on)),
    weights_off: round3(confirmedRate(off)),
    diff_ci95: bootstrapDiff(on, off, 2000, seed).map(round3) as [number, number],
    verdicts_on: conclusive(on),
    verdicts_off: conclusive(off),
  };
}

export function worldsReport(pool: (key: string) => Pooled): WorldsReport {
  return {
    second_world: budgetsAt(pool, EXTRA_ACTION_COST, 'second'),
    trust_family: {
      ...weightsLine(pool, 'trust', 5),
      default_off: DEFAULT_SETTINGS.find((d) => d.key === WEIGHTS)?.value === 'false',
      main_world: weightsLine(pool, 'main', 6),
    },
  };
}
