// A specialist's own record of stated confidence against verdicts ("when you said 0.8 you were right 55 % of the
// time"), which it is shown, and the one rule for stating a confidence in line with that record.
import { BINS, isotonicFit } from './isotonic.js';

// One band of stated confidence and how the opinions stated in it fared.
export interface RecordBand {
  from: number;
  to: number;
  right_rate: number;
  opinions: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

// The bands of the agent's reliability bins ([times right, times scored] by stated confidence) that hold at least
// `min` scored opinions, lowest first; none when `min` is 0 or below (the record is not shown).
export function statedRecord(bins: readonly (readonly [number, number])[], min: number): RecordBand[] {
  if (min <= 0) return [];
  const out: RecordBand[] = [];
  bins.forEach(([right, n], i) => {
    if (n >= min) out.push({ from: i / BINS, to: (i + 1) / BINS, right_rate: round2(right / n), opinions: n });
  });
  return out;
}

// How many opinions' weight a band's own middle (the figure as stated) has against the band's share right: a band of
// a few dozen opinions moves a stated figure about half way, one of hundreds almost all of it. A band's record stops
// growing once the agent no longer states figures in it, so a thin band's noise would otherwise be kept for good.
const PSEUDO_OPINIONS = 20;

// The confidence to state, in line with the record: read through the agent's own reliability curve (each band's
// share right, leaning on the band's middle, made non-decreasing so a higher inclination never states lower),
// linearly between band middles, and as the nearest band's figure beyond them. With no record it is stated as it is.
export function inLineWithRecord(confidence: number, record: readonly RecordBand[]): number {
  if (!record.length) return confidence;
  const mids = record.map((b) => (b.from + b.to) / 2);
  const fit = isotonicFit(
    record.map((b, i) => (b.right_rate * b.opinions + PSEUDO_OPINIONS * mids[i]) / (b.opinions + PSEUDO_OPINIONS)),
    record.map((b) => b.opinions + PSEUDO_OPINIONS),
  );
  const last = mids.length - 1;
  if (confidence >= mids[last]) return round2(fit[last]);
  if (confidence <= mids[0]) return round2(fit[0]);
  let i = 0;
  while (confidence > mids[i + 1]) i++;
  const t = (confidence - mids[i]) / (mids[i + 1] - mids[i]);
  return round2(fit[i] * (1 - t) + fit[i + 1] * t);
}
