// Computed confidence: the weighted sum, clamping and rounding, and the bands with their vote weights.
import { describe, expect, it } from 'vitest';
import { BAND_WEIGHT, bandOf, computeConfidence, type Weights } from '../../../../src/core/discussion/confidence.js';
import { Settings } from '../../../../src/core/settings.js';

const W = new Settings({}).get('confidence.weights');
const B = { heavy: 0.9, reference: 0.7, crosscheck: 0.5, feedback: 0.3 };
const all = (x: number) => ({
  data_recency: x,
  data_completeness: x,
  historical_accuracy: x,
  sample_size: x,
  expert_consensus: x,
});

describe('computeConfidence', () => {
  it('uses the default weights 0.2 / 0.15 / 0.25 / 0.2 / 0.2', () => {
    expect(W).toEqual({
      data_recency: 0.2,
      data_completeness: 0.15,
      historical_accuracy: 0.25,
      sample_size: 0.2,
      expert_consensus: 0.2,
    });
    expect(computeConfidence(all(1), W)).toBe(1);
    expect(computeConfidence(all(0), W)).toBe(0);
    // Each factor alone gives exactly its weight.
    expect(computeConfidence({ ...all(0), data_recency: 1 }, W)).toBe(0.2);
    expect(computeConfidence({ ...all(0), data_completeness: 1 }, W)).toBe(0.15);
    expect(computeConfidence({ ...all(0), historical_accuracy: 1 }, W)).toBe(0.25);
    expect(computeConfidence({ ...all(0), sample_size: 1 }, W)).toBe(0.2);
    expect(computeConfidence({ ...all(0), expert_consensus: 1 }, W)).toBe(0.2);
  });

  it('weighs a mixed case exactly and rounds to three decimals', () => {
    // 0.2×0.9 + 0.15×0.5 + 0.25×0.6 + 0.2×0.3 + 0.2×0.75 = 0.18 + 0.075 + 0.15 + 0.06 + 0.15
    expect(
      computeConfidence(
        {
          data_recency: 0.9,
          data_completeness: 0.5,
          historical_accuracy: 0.6,
          sample_size: 0.3,
          expert_consensus: 0.75,
        },
        W,
      ),
    ).toBe(0.615);
    // 0.2 × 1/3 = 0.0666… → 0.067
    expect(computeConfidence({ ...all(0), data_recency: 1 / 3 }, W)).toBe(0.067);
  });

  it('clamps factors into [0, 1] and normalises by the weights’ total', () => {
    expect(computeConfidence({ ...all(0.5), data_recency: 7, sample_size: -3 }, W)).toBe(0.5);
    const doubled: Weights = {
      data_recency: 0.4,
      data_completeness: 0.3,
      historical_accuracy: 0.5,
      sample_size: 0.4,
      expert_consensus: 0.4,
    };
    expect(computeConfidence({ ...all(0), historical_accuracy: 1 }, doubled)).toBe(0.25);
    const onlyAccuracy: Weights = { ...all(0), historical_accuracy: 3 };
    expect(computeConfidence({ ...all(0), historical_accuracy: 0.42 }, onlyAccuracy)).toBe(0.42);
    expect(computeConfidence(all(1), all(0))).toBe(0);
  });
});

describe('bandOf', () => {
  it('puts each threshold in the band it opens', () => {
    expect([1, 0.9, 0.899, 0.7, 0.699, 0.5, 0.499, 0.3, 0.299, 0].map((c) => bandOf(c, B))).toEqual([
      'heavy',
      'heavy',
      'reference',
      'reference',
      'crosscheck',
      'crosscheck',
      'feedback',
      'feedback',
      'note',
      'note',
    ]);
  });

  it('follows the bands from the settings, and weighs votes by band', () => {
    expect(bandOf(0.8, { ...B, heavy: 0.8 })).toBe('heavy');
    expect(BAND_WEIGHT).toEqual({ heavy: 1, reference: 0.75, crosscheck: 0.5, feedback: 0.25, note: 0.1 });
  });
});
