// Recalibration of stated confidence: isotonic regression by pool-adjacent-violators over an
// agent's reliability bins, fitted on past verdicts only, so a higher stated confidence never maps lower.

export const BINS = 10;

// Below this many scored opinions an agent's bins say too little: its stated confidence is kept as it is.
export const MIN_CALIBRATION = 20;

// Each bin also counts PRIOR pseudo-opinions right at its centre's rate, so a bin with one or two opinions does not
// jump to 0 or 1 before the pooling smooths it.
const PRIOR = 2;

export function binOf(confidence: number): number {
  return Math.min(BINS - 1, Math.max(0, Math.floor(confidence * BINS)));
}

const centre = (i: number) => (i + 0.5) / BINS;

// Pool-adjacent-violators: the non-decreasing sequence closest (weighted least squares) to the given rates.
export function isotonicFit(rates: readonly number[], weights: readonly number[]): number[] {
  const blocks: { sum: number; w: number; len: number }[] = [];
  rates.forEach((r, i) => {
    blocks.push({ sum: r * weights[i], w: weights[i], len: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1];
      const a = blocks[blocks.length - 2];
      if (a.sum / (a.w || 1) <= b.sum / (b.w || 1)) break;
      blocks.splice(blocks.length - 2, 2, { sum: a.sum + b.sum, w: a.w + b.w, len: a.len + b.len });
    }
  });
  const out: number[] = [];
  for (const b of blocks) for (let i = 0; i < b.len; i++) out.push(b.w ? b.sum / b.w : 0);
  return out;
}

// The fitted share right of each bin from [right, scored] counts; null while there are too few to fit. Given a prior
// curve (the team's), each bin leans on it with PRIOR_CURVE pseudo-opinions instead of on the bin's centre, and the
// agent needs no minimum of its own: with no opinions scored it reads the team's curve.
export function calibrationCurve(bins: readonly [number, number][], prior?: readonly number[] | null): number[] | null {
  const n = bins.reduce((a, b) => a + b[1], 0);
  if (!prior && n < MIN_CALIBRATION) return null;
  const k = prior ? PRIOR_CURVE : PRIOR;
  const at = (i: number) => (prior ? prior[i] : centre(i));
  const weights = bins.map((b) => b[1] + k);
  const rates = bins.map((b, i) => (b[0] + k * at(i)) / (b[1] + k));
  return isotonicFit(rates, weights);
}

// How many opinions' weight the team's curve has in each bin of an agent's own: an agent's bin of a handful of
// opinions stays near the team's figure, one of dozens follows the agent.
const PRIOR_CURVE = 24;

// The team's curve (every agent's bins pooled), the prior of each agent's: until an agent has a record of its own,
// its stated confidence means "how often this team is right when it says this much". It leans on a neutral 0.5 in
// every bin, so before any verdict every opinion reads 0.5: a council that has learned nothing claims nothing, where
// the factor formula would pass its consensus through as 0.8 and more.
export function teamCurve(all: readonly (readonly [number, number][])[]): number[] {
  const pooled: [number, number][] = Array.from({ length: BINS }, (_, i) => [
    all.reduce((a, b) => a + b[i][0], 0),
    all.reduce((a, b) => a + b[i][1], 0),
  ]);
  return calibrationCurve(pooled, NEUTRAL) as number[];
}

const NEUTRAL: readonly number[] = Array.from({ length: BINS }, () => 0.5);

// Stated confidence as "how often this is right": the fitted curve, read linearly between bin centres; the stated
// figure itself while the curve is null (identity, neutral).
export function recalibrate(curve: readonly number[] | null, stated: number): number {
  if (!curve) return stated;
  const x = Math.min(1, Math.max(0, stated)) * BINS - 0.5;
  const i = Math.max(0, Math.min(BINS - 2, Math.floor(x)));
  const t = Math.max(0, Math.min(1, x - i));
  return Math.round((curve[i] * (1 - t) + curve[i + 1] * t) * 1000) / 1000;
}
