// The learning benchmark's report on the console: the arms, calibration, tokens, the targets and the ablations.
import type { AblationLine, LearningResult } from './learning.js';
import type { BudgetLine } from './learning-by-k.js';
import { printStated } from './learning-stated.js';
import type { Bin } from './stats.js';

function printBriers(by: Record<string, { memory: number; no_memory: number }>): void {
  for (const [a, b] of Object.entries(by))
    console.log(`    ${a.padEnd(16)} memory ${b.memory.toFixed(3)}  no memory ${b.no_memory.toFixed(3)}`);
}

function printBins(r: { memory: Bin[]; no_memory: Bin[] }): void {
  r.memory.forEach((b, i) => {
    const c = r.no_memory[i];
    console.log(
      `    ${b.from.toFixed(1)}–${b.to.toFixed(1)}: ${b.mean_confidence.toFixed(2)} → ${b.right_rate.toFixed(2)} (${b.n}) | ${c.mean_confidence.toFixed(2)} → ${c.right_rate.toFixed(2)} (${c.n})`,
    );
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function printLearning(l: LearningResult, lines: AblationLine[]): void {
  console.log(
    `\nLearning: simulated team of 24, ${l.days} days × ${l.seeds.length} seeds, in-process (${l.workers} workers, ${(l.wall_ms / 1000).toFixed(0)} s)`,
  );
  console.log(
    '  (targets: ≥ 200 verdicts an arm, memory − no memory interval above 0, memory ≥ vote, Brier lower, pooled and per agent)',
  );
  console.log(`  memory:        ${pct(l.confirmed_rate_memory)} confirmed of ${l.verdicts_memory} verdicts`);
  console.log(`  no memory:     ${pct(l.confirmed_rate_no_memory)} of ${l.verdicts_no_memory}`);
  console.log(`  memory − no memory, 95 % interval: [${l.diff_ci95.join(', ')}]`);
  console.log(`  vote of Phase 2 answers: ${pct(l.vote_baseline_rate)} of ${l.verdicts_vote}`);
  console.log(`  council − vote, 95 % interval: [${l.council_minus_vote_ci95.join(', ')}]`);
  console.log(`  random allowed action: ${pct(l.random_baseline_rate)} of ${l.verdicts_random}`);
  console.log(`  memory that never forgets: ${pct(l.no_forgetting_rate)}`);
  console.log(
    `  drifting members after the change (${l.drifted.verdicts} verdicts): memory ${pct(l.drifted.memory)}, never forgets ${pct(l.drifted.no_forgetting)}, no memory ${pct(l.drifted.no_memory)}; forgetting − not, 95 %: [${l.drifted_forgetting_minus_not_ci95.join(', ')}]`,
  );
  console.log(
    `  flips (decision ≠ first-answer majority): ${pct(l.flips.rate)} of decisions, ${pct(l.flips.success)} confirmed; kept majority ${pct(l.flips.kept_success)}`,
  );
  console.log(`  Brier: memory ${l.brier_memory}, no memory ${l.brier_no_memory}`);
  printBriers(l.brier_by_agent);
  console.log('  reliability (confidence bin: mean stated → share right, n), memory | no memory');
  printBins(l.reliability);
  console.log(`  tokens per discussion: ${JSON.stringify(l.tokens_per_discussion)}`);
  console.log(
    `  oracle (order + hidden best): ${pct(l.oracle_rate)}; bandit (Thompson per member): ${pct(l.bandit_rate)}; gap closed ${l.gap_closed}`,
  );
  console.log('  computed confidence (recalibrated) — Brier per agent, memory | no memory');
  printBriers(l.brier_per_agent);
  console.log('  computed confidence bins (mean → share right, n), memory | no memory');
  printBins(l.reliability_computed);
  console.log(`  ECE: memory ${l.ece_memory}, no memory ${l.ece_no_memory}`);
  printStated(l);
  console.log('  orders holding the hidden best action (all; by quarter; confirmed with | without it):');
  for (const [k, b] of Object.entries(l.best_action_rate))
    console.log(
      `    ${k.padEnd(14)} ${pct(b.all)}; ${b.quarters.map(pct).join(' ')}; ${pct(b.confirmed_with)} | ${pct(b.confirmed_without)}`,
    );
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  // The target: each agent's calibration improves, not only the pooled score.
  const agents = Object.values(l.brier_per_agent);
  const better = agents.filter((b) => b.memory < b.no_memory).length;
  const diff = l.confirmed_rate_memory - l.confirmed_rate_no_memory;
  console.log(
    `  targets (issue 26): memory − no memory ≥ 0.05 ${met(diff >= 0.05)} (${diff.toFixed(3)}); interval above 0 ${met(l.diff_ci95[0] > 0)}; memory ≥ bandit ${met(l.confirmed_rate_memory >= l.bandit_rate)}; gap closed ≥ ½ ${met(l.gap_closed >= 0.5)}; Brier better for ${better} of ${agents.length} agents ${met(better >= 6)}; tokens ≤ 1.10× ${met(l.tokens_memory <= 1.1 * l.tokens_no_memory)} (${l.tokens_memory} vs ${l.tokens_no_memory}); bins monotone ${met(l.bins_monotone_memory)}; ECE ≤ 0.10 ${met(l.ece_memory <= 0.1)}; memory ≥ vote ${met(l.confirmed_rate_memory >= l.vote_baseline_rate)}; ≤ 5 min ${met(l.wall_ms <= 300_000)}`,
  );
  const budget = (name: string, by: Record<string, BudgetLine>) => {
    for (const [k, b] of Object.entries(by))
      console.log(
        `  k = ${k}, ${name}: memory ${pct(b.memory)}, no memory ${pct(b.no_memory)}, bandit ${pct(b.bandit)}, oracle ${pct(b.oracle)}; memory − no memory 95 % [${b.diff_ci95.join(', ')}]; gap closed ${b.gap_closed}; tokens ${b.tokens_memory} vs ${b.tokens_no_memory}`,
      );
  };
  console.log('\nEqual action budgets (every arm k actions an order)');
  budget(`extra action cost ${l.extra_action_cost}`, l.by_k);
  for (const [cost, by] of Object.entries(l.by_cost)) budget(`extra action cost ${cost}`, by);
  budget(`second world, extra action cost ${l.extra_action_cost}`, l.second_world);
  const w = (x: LearningResult['trust_family']['main_world']) =>
    `weights on ${pct(x.weights_on)} (${x.verdicts_on}), off ${pct(x.weights_off)} (${x.verdicts_off}), on − off 95 % [${x.diff_ci95.join(', ')}]`;
  const t = l.trust_family;
  console.log(`  learned weights, trust family: ${w(t)}; main world: ${w(t.main_world)}; default off ${t.default_off}`);
  console.log(`\nAblations (${l.ablation_seeds.length} seeds × ${l.days} days; memory on)`);
  console.log(
    `  ${'council'.padEnd(30)} ${'confirmed'.padStart(9)} ${'verdicts'.padStart(8)} ${'tokens/disc.'.padStart(12)}`,
  );
  for (const x of lines)
    console.log(
      `  ${x.name.padEnd(30)} ${pct(x.confirmed_rate).padStart(9)} ${String(x.verdicts).padStart(8)} ${String(x.tokens_per_discussion).padStart(12)}`,
    );
}
