// Confidence in order, per agent: each agent's reliability bins of the confidence it stated and of the one the
// council computed for it, and how many agents' stated bins are in order (pooled bins can hide one agent's inversion).
import { type Bin, monotone, reliability } from './stats.js';

export interface ScoredOpinion {
  agent: string;
  confidence: number;
  computed: number;
  right: boolean;
}

interface AgentBins {
  stated: Bin[];
  computed: Bin[];
  stated_monotone: boolean;
  computed_monotone: boolean;
  // How many stated bins hold enough opinions to be compared: with fewer than two the order is not tested at all.
  stated_bins_tested: number;
}

export interface StatedReport {
  bins_per_agent: Record<string, AgentBins>;
  stated_bins_monotone_agents: number;
}

// The bins `monotone` compares: those with at least this many opinions.
const MIN_BIN = 20;

export function statedReport(opinions: readonly ScoredOpinion[]): StatedReport {
  const out: Record<string, AgentBins> = {};
  for (const agent of [...new Set(opinions.map((o) => o.agent))].sort()) {
    const own = opinions.filter((o) => o.agent === agent);
    const stated = reliability(own);
    const computed = reliability(own.map((o) => ({ confidence: o.computed, right: o.right })));
    out[agent] = {
      stated,
      computed,
      stated_monotone: monotone(stated, MIN_BIN),
      computed_monotone: monotone(computed, MIN_BIN),
      stated_bins_tested: stated.filter((b) => b.n >= MIN_BIN).length,
    };
  }
  return {
    bins_per_agent: out,
    stated_bins_monotone_agents: Object.values(out).filter((a) => a.stated_monotone).length,
  };
}

// One line an agent: its stated bins (mean stated → share right, n), in order or not.
export function printStated(r: StatedReport): void {
  const agents = Object.keys(r.bins_per_agent);
  console.log(
    `  stated confidence per agent, memory (bin: mean stated → share right, n); in order for ${r.stated_bins_monotone_agents} of ${agents.length}`,
  );
  for (const [agent, a] of Object.entries(r.bins_per_agent)) {
    const bins = a.stated
      .filter((b) => b.n)
      .map((b) => `${b.mean_confidence.toFixed(2)}→${b.right_rate.toFixed(2)} (${b.n})`)
      .join('  ');
    console.log(`    ${agent.padEnd(16)} ${a.stated_monotone ? 'in order' : 'NOT in order'}: ${bins}`);
  }
}
