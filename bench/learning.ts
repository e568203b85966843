// The learning benchmark (SPEC §15, issue 13): the council with and without memory, a plain vote of its Phase 2
// answers, a random action and memory that never forgets, on the simulated team over many seeds, plus ablations.
// Runs the pure core in-process (tools/council-sim.ts) in worker threads, one per core.
import os from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { defaultAgents } from '../src/core/council.js';
import { type SimOptions, type SimResult, simulateCouncil } from '../tools/council-sim.js';
import {
  type Bin,
  bootstrapDiff,
  brier,
  confirmedRate,
  conclusive,
  reliability,
  round3,
  type Scored,
} from './stats.js';

// Seeds the council's rules were never tuned on (tuning used 1–5), a year each: a drifting member changes halfway.
const SEEDS = Array.from({ length: 12 }, (_, i) => 101 + i);
const ABLATION_SEEDS = SEEDS.slice(0, 3);
const DAYS = 360;

const NO_FORGETTING = {
  'retrieval.half_life_days': '0',
  'retrieval.weights': '{"similarity":1,"recency":0,"confidence":0.2}',
  'learning.decay_days': '0',
};

const ARMS: Record<string, Omit<SimOptions, 'seed' | 'days'>> = {
  memory: { policy: 'council' },
  no_memory: { policy: 'council', settings: { 'memory.enabled': 'false' } },
  vote: { policy: 'vote' },
  random: { policy: 'random' },
  no_forgetting: { policy: 'council', settings: NO_FORGETTING },
};

function ablations(): Record<string, Omit<SimOptions, 'seed' | 'days'>> {
  const agents = defaultAgents();
  const group = (g: string) => agents.filter((a) => a.group === g).map((a) => a.agent_id);
  const out: Record<string, Omit<SimOptions, 'seed' | 'days'>> = {
    'full council': { policy: 'council' },
    'without Phase 3 (balancers)': { policy: 'council', without: group('balancer') },
    'without Phase 4 (governance)': { policy: 'council', without: group('governance') },
    'without feedback rounds': { policy: 'council', settings: { 'confidence.max_feedback_rounds': '0' } },
  };
  // The analyst also gives Phase 1's facts, which every discussion needs: only Phase 2's voices are left out.
  for (const a of agents.filter((x) => x.group === 'specialist' && x.phases.indexOf(1) < 0))
    out[`without ${a.agent_id}`] = { policy: 'council', without: [a.agent_id] };
  return out;
}

interface Job extends SimOptions {
  key: string;
}

interface Done {
  job: Job;
  result: SimResult;
}

// In a worker thread: run each job it is sent and post the result back.
export function serveLearningJobs(): void {
  parentPort?.on('message', (job: Job) => parentPort?.postMessage({ job, result: simulateCouncil(job) }));
}

async function runJobs(jobs: Job[], workerFile: string): Promise<Done[]> {
  if (!jobs.length) return [];
  const queue = jobs.slice();
  const done: Done[] = [];
  const n = Math.max(1, Math.min(os.cpus().length, jobs.length));
  await Promise.all(
    Array.from({ length: n }, async () => {
      const w = new Worker(workerFile);
      try {
        for (let job = queue.shift(); job; job = queue.shift()) {
          const j = job;
          done.push(
            await new Promise<Done>((resolve, reject) => {
              w.once('message', resolve);
              w.once('error', reject);
              w.postMessage(j);
            }),
          );
          w.removeAllListeners('error');
        }
      } finally {
        await w.terminate();
      }
    }),
  );
  return done;
}

interface Arm {
  verdicts: (Scored & { drifted: boolean; flip: boolean })[];
  opinions: { agent: string; confidence: number; right: boolean }[];
  discussions: number;
  tokens: number;
}

function pool(done: Done[], key: string): Arm {
  const arm: Arm = { verdicts: [], opinions: [], discussions: 0, tokens: 0 };
  for (const d of done.filter((x) => x.job.key === key)) {
    for (const v of d.result.verdicts)
      arm.verdicts.push({ cluster: `${d.job.seed}:${v.member}`, verdict: v.verdict, drifted: v.drifted, flip: v.flip });
    arm.opinions.push(...d.result.opinions);
    arm.discussions += d.result.discussions;
    arm.tokens += d.result.tokens;
  }
  return arm;
}

const perDiscussion = (a: Arm) => Math.round(a.tokens / (a.discussions || 1));

export interface AblationLine {
  name: string;
  confirmed_rate: number;
  verdicts: number;
  tokens_per_discussion: number;
}

export interface LearningResult {
  confirmed_rate_memory: number;
  confirmed_rate_no_memory: number;
  days: number;
  verdicts_memory: number;
  verdicts_no_memory: number;
  diff_ci95: [number, number];
  vote_baseline_rate: number;
  brier_memory: number;
  brier_no_memory: number;
  random_baseline_rate: number;
  council_minus_vote_ci95: [number, number];
  verdicts_vote: number;
  verdicts_random: number;
  no_forgetting_rate: number;
  drifted: { memory: number; no_memory: number; no_forgetting: number; verdicts: number };
  drifted_forgetting_minus_not_ci95: [number, number];
  flips: { rate: number; success: number; kept_success: number; flips: number };
  tokens_per_discussion: Record<string, number>;
  brier_by_agent: Record<string, { memory: number; no_memory: number }>;
  reliability: { memory: Bin[]; no_memory: Bin[] };
  seeds: number[];
  ablation_seeds: number[];
  wall_ms: number;
  workers: number;
}

export async function learningBench(
  workerFile: string,
): Promise<{ learning: LearningResult; ablations: AblationLine[] }> {
  const started = Date.now();
  const jobs: Job[] = [];
  for (const [key, o] of Object.entries(ARMS)) for (const seed of SEEDS) jobs.push({ key, seed, days: DAYS, ...o });
  const abl = ablations();
  for (const [key, o] of Object.entries(abl))
    for (const seed of ABLATION_SEEDS) if (key !== 'full council') jobs.push({ key, seed, days: DAYS, ...o });
  const done = await runJobs(jobs, workerFile);
  const arms = Object.fromEntries(Object.keys(ARMS).map((k) => [k, pool(done, k)]));
  const { memory, no_memory, vote, random, no_forgetting } = arms;
  const rate = (a: Arm) => round3(confirmedRate(a.verdicts));
  const ci = (a: Arm, b: Arm, seed: number) =>
    bootstrapDiff(a.verdicts, b.verdicts, 2000, seed).map(round3) as [number, number];
  const drifted = (a: Arm) => a.verdicts.filter((v) => v.drifted);
  const flips = memory.verdicts.filter((v) => v.flip && v.verdict !== 'inconclusive');
  const kept = memory.verdicts.filter((v) => !v.flip && v.verdict !== 'inconclusive');
  const byAgent: Record<string, { memory: number; no_memory: number }> = {};
  for (const a of [...new Set(memory.opinions.map((o) => o.agent))].sort())
    byAgent[a] = {
      memory: round3(brier(memory.opinions.filter((o) => o.agent === a))),
      no_memory: round3(brier(no_memory.opinions.filter((o) => o.agent === a))),
    };
  // The full council's ablation line is the memory arm on the ablation seeds.
  const full = pool(
    done.filter((d) => ABLATION_SEEDS.indexOf(d.job.seed) >= 0),
    'memory',
  );
  const lines: AblationLine[] = Object.keys(abl).map((name) => {
    const a = name === 'full council' ? full : pool(done, name);
    return {
      name,
      confirmed_rate: rate(a),
      verdicts: conclusive(a.verdicts),
      tokens_per_discussion: perDiscussion(a),
    };
  });
  const learning: LearningResult = {
    confirmed_rate_memory: rate(memory),
    confirmed_rate_no_memory: rate(no_memory),
    days: DAYS,
    verdicts_memory: conclusive(memory.verdicts),
    verdicts_no_memory: conclusive(no_memory.verdicts),
    diff_ci95: ci(memory, no_memory, 1),
    vote_baseline_rate: rate(vote),
    brier_memory: round3(brier(memory.opinions)),
    brier_no_memory: round3(brier(no_memory.opinions)),
    random_baseline_rate: rate(random),
    council_minus_vote_ci95: ci(memory, vote, 2),
    verdicts_vote: conclusive(vote.verdicts),
    verdicts_random: conclusive(random.verdicts),
    no_forgetting_rate: rate(no_forgetting),
    drifted: {
      memory: round3(confirmedRate(drifted(memory))),
      no_memory: round3(confirmedRate(drifted(no_memory))),
      no_forgetting: round3(confirmedRate(drifted(no_forgetting))),
      verdicts: conclusive(drifted(memory)),
    },
    drifted_forgetting_minus_not_ci95: bootstrapDiff(drifted(memory), drifted(no_forgetting), 2000, 3).map(round3) as [
      number,
      number,
    ],
    flips: {
      flips: flips.length,
      rate: round3(flips.length / (flips.length + kept.length || 1)),
      success: round3(confirmedRate(flips)),
      kept_success: round3(confirmedRate(kept)),
    },
    tokens_per_discussion: Object.fromEntries(Object.entries(arms).map(([k, a]) => [k, perDiscussion(a)])),
    brier_by_agent: byAgent,
    reliability: { memory: reliability(memory.opinions), no_memory: reliability(no_memory.opinions) },
    seeds: SEEDS,
    ablation_seeds: ABLATION_SEEDS,
    wall_ms: Date.now() - started,
    workers: Math.min(os.cpus().length, jobs.length),
  };
  return { learning, ablations: lines };
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
  for (const [a, b] of Object.entries(l.brier_by_agent))
    console.log(`    ${a.padEnd(16)} memory ${b.memory.toFixed(3)}  no memory ${b.no_memory.toFixed(3)}`);
  console.log('  reliability (confidence bin: mean stated → share right, n), memory | no memory');
  l.reliability.memory.forEach((b, i) => {
    const c = l.reliability.no_memory[i];
    console.log(
      `    ${b.from.toFixed(1)}–${b.to.toFixed(1)}: ${b.mean_confidence.toFixed(2)} → ${b.right_rate.toFixed(2)} (${b.n}) | ${c.mean_confidence.toFixed(2)} → ${c.right_rate.toFixed(2)} (${c.n})`,
    );
  });
  console.log(`  tokens per discussion: ${JSON.stringify(l.tokens_per_discussion)}`);
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  // SPEC §15 asks that each agent's calibration improves, not only the pooled score.
  const agents = Object.values(l.brier_by_agent);
  const better = agents.filter((b) => b.memory < b.no_memory).length;
  console.log(
    `  targets: ≥ 200 verdicts ${met(Math.min(l.verdicts_memory, l.verdicts_no_memory) >= 200)}; interval above 0 ${met(l.diff_ci95[0] > 0)}; memory ≥ vote ${met(l.confirmed_rate_memory >= l.vote_baseline_rate)}; Brier lower with memory ${met(l.brier_memory < l.brier_no_memory)} (pooled), ${better} of ${agents.length} agents ${met(better === agents.length)}`,
  );
  console.log(`\nAblations (${l.ablation_seeds.length} seeds × ${l.days} days; memory on)`);
  console.log(
    `  ${'council'.padEnd(30)} ${'confirmed'.padStart(9)} ${'verdicts'.padStart(8)} ${'tokens/disc.'.padStart(12)}`,
  );
  for (const x of lines)
    console.log(
      `  ${x.name.padEnd(30)} ${pct(x.confirmed_rate).padStart(9)} ${String(x.verdicts).padStart(8)} ${String(x.tokens_per_discussion).padStart(12)}`,
    );
}
