// Statistics for the learning benchmark: confirmed rates, a paired cluster bootstrap of a difference, Brier scores
// and reliability bins. Plain functions over plain records, so they are tested in-process.
import { seededRandom } from '../tools/seeded-random.js';

export interface Scored {
  // The cluster a verdict belongs to: one simulated member under one seed. Verdicts of one member are not
  // independent (the same hidden responses), so the bootstrap resamples members, not verdicts.
  cluster: string;
  verdict: string;
}

export interface Stated {
  confidence: number;
  right: boolean;
}

// Confirmed over confirmed and rejected: an inconclusive verdict says nothing either way.
export function confirmedRate(vs: readonly Scored[]): number {
  let c = 0;
  let n = 0;
  for (const v of vs) {
    if (v.verdict === 'inconclusive') continue;
    n++;
    if (v.verdict === 'confirmed') c++;
  }
  return n ? c / n : 0;
}

export function conclusive(vs: readonly Scored[]): number {
  return vs.filter((v) => v.verdict !== 'inconclusive').length;
}

interface Tally {
  c: number;
  n: number;
}

function tallies(vs: readonly Scored[]): Map<string, Tally> {
  const m = new Map<string, Tally>();
  for (const v of vs) {
    if (v.verdict === 'inconclusive') continue;
    const t = m.get(v.cluster) ?? { c: 0, n: 0 };
    t.n++;
    if (v.verdict === 'confirmed') t.c++;
    m.set(v.cluster, t);
  }
  return m;
}

// The 95 % percentile interval of rate(a) − rate(b) by a paired cluster bootstrap: each resample draws clusters
// (the same member and seed in both arms) with replacement and recomputes both pooled rates.
export function bootstrapDiff(
  a: readonly Scored[],
  b: readonly Scored[],
  resamples = 2000,
  seed = 1,
): [number, number] {
  const ta = tallies(a);
  const tb = tallies(b);
  const keys = [...new Set([...ta.keys(), ...tb.keys()])].sort();
  if (!keys.length) return [0, 0];
  const zero: Tally = { c: 0, n: 0 };
  const rand = seededRandom(seed);
  const diffs: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let ca = 0;
    let na = 0;
    let cb = 0;
    let nb = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[Math.floor(rand() * keys.length)];
      const x = ta.get(k) ?? zero;
      const y = tb.get(k) ?? zero;
      ca += x.c;
      na += x.n;
      cb += y.c;
      nb += y.n;
    }
    diffs.push((na ? ca / na : 0) - (nb ? cb / nb : 0));
  }
  diffs.sort((x, y) => x - y);
  const at = (q: number) => diffs[Math.min(diffs.length - 1, Math.max(0, Math.floor(q * diffs.length)))];
  return [at(0.025), at(0.975)];
}

// Mean squared error of stated confidence against being right (0 is perfect, 0.25 is a constant 0.5).
export function brier(xs: readonly Stated[]): number {
  if (!xs.length) return 0;
  return xs.reduce((a, x) => a + (x.confidence - (x.right ? 1 : 0)) ** 2, 0) / xs.length;
}

export interface Bin {
  from: number;
  to: number;
  n: number;
  mean_confidence: number;
  right_rate: number;
}

// Reliability bins: in a calibrated agent, the share right in each bin is close to the bin's mean confidence.
export function reliability(xs: readonly Stated[], bins = 5): Bin[] {
  const out: Bin[] = [];
  for (let i = 0; i < bins; i++) {
    const from = i / bins;
    const to = (i + 1) / bins;
    const inBin = xs.filter(
      (x) => x.confidence >= from && (x.confidence < to || (i === bins - 1 && x.confidence <= 1)),
    );
    out.push({
      from,
      to,
      n: inBin.length,
      mean_confidence: round3(inBin.reduce((a, x) => a + x.confidence, 0) / (inBin.length || 1)),
      right_rate: round3(inBin.filter((x) => x.right).length / (inBin.length || 1)),
    });
  }
  return out;
}

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

// Expected calibration error: the bins' gaps between mean confidence and share right, weighted by their counts.
export function ece(bins: readonly Bin[]): number {
  const n = bins.reduce((a, b) => a + b.n, 0);
  if (!n) return 0;
  return bins.reduce((a, b) => a + (b.n / n) * Math.abs(b.mean_confidence - b.right_rate), 0);
}

// Whether the share right never falls as stated confidence rises, over the bins that hold at least `min` opinions.
export function monotone(bins: readonly Bin[], min = 20): boolean {
  const used = bins.filter((b) => b.n >= min);
  return used.every((b, i) => i === 0 || b.right_rate >= used[i - 1].right_rate);
}
