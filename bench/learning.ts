// The learning benchmark (issue 13): the council with and without memory, a plain vote of its Phase 2
// answers, a random action and memory that never forgets, on the simulated team over many seeds, plus ablations.
// Runs the pure core in-process (tools/council-sim.ts) in worker threads, one per core.
import os from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { defaultAgents } from '../src/core/discussion/default-council.js';
import { type SimOptions, type SimResult, simulateCouncil } from '../tools/council-sim.js';
import { type BudgetLine, budgetJobs, budgetReport } from './learning-by-k.js';
import { type WorldsReport, worldJobs, worldsReport } from './learning-worlds.js';
import { type StatedReport, statedReport } from './learning-stated.js';
import {
  type Bin,
  bootstrapDiff,
  brier,
  confirmedRate,
  conclusive,
  ece,
  monotone,
  reliability,
  round3,
  type Scored,
} from './stats.js';

// Seeds the council's rules were never tuned on (tuning used seeds 1–10 only), a year each: a drifting member changes
// halfway. KAIGI_LEARNING_SEEDS=1-10 runs the tuning seeds instead (never the reported figures).
const SEEDS = seedsOf(process.env.KAIGI_LEARNING_SEEDS ?? '101-112');
const ABLATION_SEEDS = SEEDS.slice(0, 3);

function seedsOf(spec: string): number[] {
  const [from, to] = spec.split('-').map(Number);
  return Array.from({ length: (to || from) - from + 1 }, (_, i) => from + i);
}
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
  oracle: { policy: 'oracle' },
  bandit: { policy: 'bandit' },
};

function ablations(): Record<string, Omit<SimOptions, 'seed' | 'days'>> {
  const agents = defaultAgents();
  const group = (g: string) => agents.filter((a) => a.group === g).map((a) => a.agent_id);
  const out: Record<string, Omit<SimOptions, 'seed' | 'days'>> = {
    'full council': { policy: 'council' },
    'without Phase 3 (balancers)': { policy: 'council', without: group('balancer') },
    'without Phase 4 (governance)': { policy: 'council', without: group('governance') },
    'without feedback rounds': { policy: 'council', settings: { 'confidence.max_feedback_rounds': '0' } },
    'learned weights off': { policy: 'council', settings: { 'learning.reliability_weights': 'false' } },
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

// A council without memory recalls nothing and takes about half as long as one with it: the longer jobs go first, so
// the workers finish together instead of one running the last long year alone.
const weight = (j: Job) => (j.settings?.['memory.enabled'] === 'false' ? 1 : 2);

// The results come back in the order of `jobs` whatever order the workers finish in, so every pooled figure (sums of
// scores included) is the same from run to run.
async function runJobs(jobs: Job[], workerFile: string): Promise<Done[]> {
  if (!jobs.length) return [];
  const queue = jobs.map((job, at) => ({ job, at })).sort((a, b) => weight(b.job) - weight(a.job));
  const done: Done[] = new Array(jobs.length);
  const n = Math.max(1, Math.min(os.cpus().length, jobs.length));
  await Promise.all(
    Array.from({ length: n }, async () => {
      const w = new Worker(workerFile);
      try {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const { job, at } = next;
          done[at] = await new Promise<Done>((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
            w.postMessage(job);
          });
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
  verdicts: (Scored & { drifted: boolean; flip: boolean; best: boolean; decided: number })[];
  opinions: { agent: string; confidence: number; computed: number; right: boolean }[];
  discussions: number;
  tokens: number;
}

function pool(done: Done[], key: string): Arm {
  const arm: Arm = { verdicts: [], opinions: [], discussions: 0, tokens: 0 };
  for (const d of done.filter((x) => x.job.key === key)) {
    for (const v of d.result.verdicts)
      arm.verdicts.push({
        cluster: `${d.job.seed}:${v.member}`,
        verdict: v.verdict,
        drifted: v.drifted,
        flip: v.flip,
        best: v.best,
        decided: v.decided,
      });
    arm.opinions.push(...d.result.opinions);
    arm.discussions += d.result.discussions;
    arm.tokens += d.result.tokens;
  }
  return arm;
}

const perDiscussion = (a: Arm) => Math.round(a.tokens / (a.discussions || 1));
// The opinions scored at the confidence the council computed for them.
const computed = (xs: Arm['opinions']) => xs.map((o) => ({ confidence: o.computed, right: o.right }));

// How often an order held the member's hidden best action (read from the hidden table for this report only), over
// every reviewed order and per quarter of the year by the day it was decided; and the confirmed rate with and
// without it.
interface BestActionRate {
  all: number;
  quarters: number[];
  confirmed_with: number;
  confirmed_without: number;
}

function bestActionRate(a: Arm): BestActionRate {
  const share = (vs: Arm['verdicts']) => round3(vs.filter((v) => v.best).length / (vs.length || 1));
  const quarter = (q: number) => a.verdicts.filter((v) => Math.min(3, Math.floor((v.decided / DAYS) * 4)) === q);
  return {
    all: share(a.verdicts),
    quarters: [0, 1, 2, 3].map((q) => share(quarter(q))),
    confirmed_with: round3(confirmedRate(a.verdicts.filter((v) => v.best))),
    confirmed_without: round3(confirmedRate(a.verdicts.filter((v) => !v.best))),
  };
}

export interface AblationLine {
  name: string;
  confirmed_rate: number;
  verdicts: number;
  tokens_per_discussion: number;
}

// bins_per_agent and stated_bins_monotone_agents: each agent's stated and computed bins, memory arm.
export interface LearningResult extends StatedReport, WorldsReport {
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
  oracle_rate: number;
  bandit_rate: number;
  // (memory − no memory) / (oracle − no memory): the share of the room above no memory that memory takes.
  gap_closed: number;
  // On the confidence the council computes for an opinion (stated confidence recalibrated, docs/learning.md), as
  // weighed.
  brier_per_agent: Record<string, { memory: number; no_memory: number }>;
  ece_memory: number;
  ece_no_memory: number;
  reliability_computed: { memory: Bin[]; no_memory: Bin[] };
  bins_monotone_memory: boolean;
  best_action_rate: Record<string, BestActionRate>;
  tokens_memory: number;
  tokens_no_memory: number;
  // Every arm at an equal budget of k actions an order (learning-by-k.ts): at the default extra-action cost, and
  // under by_cost["0"] at no cost.
  extra_action_cost: number;
  by_k: Record<string, BudgetLine>;
  by_cost: Record<string, Record<string, BudgetLine>>;
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
  // KAIGI_LEARNING_QUICK=1 (tuning): memory, no memory and the ceiling and the bandit only, no ablations.
  const quick = process.env.KAIGI_LEARNING_QUICK === '1';
  for (const [key, o] of Object.entries(ARMS))
    if (!quick || ['memory', 'no_memory', 'oracle', 'bandit'].indexOf(key) >= 0)
      for (const seed of SEEDS) jobs.push({ key, seed, days: DAYS, ...o });
  const abl = quick ? {} : ablations();
  for (const [key, o] of Object.entries(abl))
    for (const seed of ABLATION_SEEDS) if (key !== 'full council') jobs.push({ key, seed, days: DAYS, ...o });
  jobs.push(...budgetJobs(SEEDS, DAYS), ...worldJobs(SEEDS, DAYS));
  const done = await runJobs(jobs, workerFile);
  const arms = Object.fromEntries(Object.keys(ARMS).map((k) => [k, pool(done, k)]));
  const { memory, no_memory, vote, random, no_forgetting, oracle, bandit } = arms;
  const rate = (a: Arm) => round3(confirmedRate(a.verdicts));
  const ci = (a: Arm, b: Arm, seed: number) =>
    bootstrapDiff(a.verdicts, b.verdicts, 2000, seed).map(round3) as [number, number];
  const drifted = (a: Arm) => a.verdicts.filter((v) => v.drifted);
  const flips = memory.verdicts.filter((v) => v.flip && v.verdict !== 'inconclusive');
  const kept = memory.verdicts.filter((v) => !v.flip && v.verdict !== 'inconclusive');
  const byAgent: Record<string, { memory: number; no_memory: number }> = {};
  const perAgent: Record<string, { memory: number; no_memory: number }> = {};
  const of = (x: Arm, a: string) => x.opinions.filter((o) => o.agent === a);
  for (const a of [...new Set(memory.opinions.map((o) => o.agent))].sort()) {
    byAgent[a] = { memory: round3(brier(of(memory, a))), no_memory: round3(brier(of(no_memory, a))) };
    perAgent[a] = {
      memory: round3(brier(computed(of(memory, a)))),
      no_memory: round3(brier(computed(of(no_memory, a)))),
    };
  }
  const binsComputed = {
    memory: reliability(computed(memory.opinions)),
    no_memory: reliability(computed(no_memory.opinions)),
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
    oracle_rate: rate(oracle),
    bandit_rate: rate(bandit),
    gap_closed: round3((rate(memory) - rate(no_memory)) / (rate(oracle) - rate(no_memory) || 1)),
    brier_per_agent: perAgent,
    ece_memory: round3(ece(binsComputed.memory)),
    ece_no_memory: round3(ece(binsComputed.no_memory)),
    reliability_computed: binsComputed,
    bins_monotone_memory: monotone(binsComputed.memory),
    best_action_rate: Object.fromEntries(
      Object.entries(arms)
        .filter(([, a]) => a.verdicts.length)
        .map(([k, a]) => [k, bestActionRate(a)]),
    ),
    tokens_memory: perDiscussion(memory),
    tokens_no_memory: perDiscussion(no_memory),
    ...budgetReport((key) => pool(done, key)),
    ...worldsReport((key) => pool(done, key)),
    ...statedReport(memory.opinions),
    seeds: SEEDS,
    ablation_seeds: ABLATION_SEEDS,
    wall_ms: Date.now() - started,
    workers: Math.min(os.cpus().length, jobs.length),
  };
  return { learning, ablations: lines };
}
