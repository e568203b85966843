// How a verdict moves a learning's confidence: a diminishing step up to a cap, a proportional step down to a floor.
import type { Verdict } from './outcomes.js';

export interface ConfidenceSteps {
  // A success adds confirmStep × (1 − c): the surer a learning already is, the less one more success says.
  confirmStep: number;
  // A failure takes rejectStep × c: a learning held with high confidence loses most when it is wrong.
  rejectStep: number;
  // An unclear outcome still shows the learning was applied and did no visible harm: a small fixed step.
  inconclusiveStep: number;
  // Never fully certain (there is always room to be wrong) and never zero (a learning can come back).
  ceiling: number;
  floor: number;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

// The confidence after one verdict, three decimals as the sheet shows it. A value already past a bound (a person
// typed it) is brought within the bounds.
export function stepConfidence(c: number, verdict: Verdict, s: ConfidenceSteps): number {
  const next =
    verdict === 'confirmed'
      ? c + s.confirmStep * (1 - c)
      : verdict === 'rejected'
        ? c - s.rejectStep * c
        : c + s.inconclusiveStep;
  return r3(Math.min(s.ceiling, Math.max(s.floor, next)));
}
