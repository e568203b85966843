// Computed confidence: a weighted sum of data factors, and the bands the decider uses.

export interface ConfidenceFactors {
  data_recency: number;
  data_completeness: number;
  historical_accuracy: number;
  sample_size: number;
  expert_consensus: number;
}

export type Weights = ConfidenceFactors;

export interface Bands {
  heavy: number;
  reference: number;
  crosscheck: number;
  feedback: number;
}

export type Band = 'heavy' | 'reference' | 'crosscheck' | 'feedback' | 'note';

const clamp = (x: number) => Math.max(0, Math.min(1, x));

export function computeConfidence(f: ConfidenceFactors, w: Weights): number {
  const total = w.data_recency + w.data_completeness + w.historical_accuracy + w.sample_size + w.expert_consensus;
  const sum =
    w.data_recency * clamp(f.data_recency) +
    w.data_completeness * clamp(f.data_completeness) +
    w.historical_accuracy * clamp(f.historical_accuracy) +
    w.sample_size * clamp(f.sample_size) +
    w.expert_consensus * clamp(f.expert_consensus);
  return Math.round((total > 0 ? sum / total : 0) * 1000) / 1000;
}

export function bandOf(c: number, b: Bands): Band {
  if (c >= b.heavy) return 'heavy';
  if (c >= b.reference) return 'reference';
  if (c >= b.crosscheck) return 'crosscheck';
  if (c >= b.feedback) return 'feedback';
  return 'note';
}

// How much a vote counts: heavy 1, reference 0.75, cross-check 0.5, feedback 0.25, note 0.1.
export const BAND_WEIGHT: Record<Band, number> = {
  heavy: 1,
  reference: 0.75,
  crosscheck: 0.5,
  feedback: 0.25,
  note: 0.1,
};
