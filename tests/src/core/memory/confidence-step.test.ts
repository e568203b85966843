// The learning arithmetic: a diminishing step up to 0.95, a proportional step down to 0.05, +0.02 when inconclusive.
import { describe, expect, it } from 'vitest';
import { stepConfidence } from '../../../../src/core/memory/confidence-step.js';

const steps = { confirmStep: 0.1, rejectStep: 0.15, inconclusiveStep: 0.02, ceiling: 0.95, floor: 0.05 };

describe('stepConfidence', () => {
  it('adds 0.1 × (1 − c) on success, so each success adds less than the one before', () => {
    expect(stepConfidence(0.5, 'confirmed', steps)).toBe(0.55);
    expect(stepConfidence(0.8, 'confirmed', steps)).toBe(0.82);
    let c = 0.5;
    let last = 1;
    for (let i = 0; i < 10; i++) {
      const next = stepConfidence(c, 'confirmed', steps);
      expect(next - c).toBeLessThan(last);
      last = next - c;
      c = next;
    }
  });
  it('never passes the cap of 0.95, however many successes', () => {
    let c = 0.5;
    for (let i = 0; i < 200; i++) c = stepConfidence(c, 'confirmed', steps);
    expect(c).toBe(0.95);
    expect(stepConfidence(0.94, 'inconclusive', steps)).toBe(0.95);
    expect(stepConfidence(1, 'confirmed', steps)).toBe(0.95);
  });
  it('takes 0.15 × c on failure and never falls below the floor of 0.05', () => {
    expect(stepConfidence(0.5, 'rejected', steps)).toBe(0.425);
    expect(stepConfidence(0.9, 'rejected', steps)).toBe(0.765);
    let c = 0.5;
    for (let i = 0; i < 200; i++) c = stepConfidence(c, 'rejected', steps);
    expect(c).toBe(0.05);
    expect(stepConfidence(0, 'rejected', steps)).toBe(0.05);
  });
  it('adds 0.02 when the outcome is inconclusive', () => {
    expect(stepConfidence(0.5, 'inconclusive', steps)).toBe(0.52);
    expect(stepConfidence(0.05, 'inconclusive', steps)).toBe(0.07);
  });
});
