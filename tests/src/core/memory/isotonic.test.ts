// Recalibration: pool-adjacent-violators gives a non-decreasing fit; too few opinions leave the stated figure.
import { describe, expect, it } from 'vitest';
import {
  BINS,
  calibrationCurve,
  isotonicFit,
  MIN_CALIBRATION,
  recalibrate,
  teamCurve,
} from '../../../../src/core/memory/isotonic.js';

describe('isotonic recalibration', () => {
  it('pools adjacent violators into a non-decreasing fit', () => {
    expect(isotonicFit([0.2, 0.6, 0.4, 0.8], [1, 1, 1, 1])).toEqual([0.2, 0.5, 0.5, 0.8]);
    for (const x of isotonicFit([0.9, 0.1], [3, 1])) expect(x).toBeCloseTo(0.7, 9);
  });

  it('maps a higher stated confidence never lower, toward how often the agent was right', () => {
    // An agent that says 0.8 and is right a quarter of the time, and says 0.3 and is right two times in three.
    const bins: [number, number][] = Array.from({ length: BINS }, () => [0, 0]);
    bins[8] = [10, 40];
    bins[3] = [20, 30];
    const curve = calibrationCurve(bins)!;
    for (let i = 1; i < curve.length; i++) expect(curve[i]).toBeGreaterThanOrEqual(curve[i - 1]);
    expect(recalibrate(curve, 0.8)).toBeLessThan(0.5);
    for (let x = 0; x < 1; x += 0.05)
      expect(recalibrate(curve, x + 0.05)).toBeGreaterThanOrEqual(recalibrate(curve, x));
  });

  it('is the identity with too little data', () => {
    const bins: [number, number][] = Array.from({ length: BINS }, () => [0, 0]);
    bins[8] = [0, MIN_CALIBRATION - 1];
    expect(calibrationCurve(bins)).toBeNull();
    expect(recalibrate(null, 0.73)).toBe(0.73);
  });

  it("reads the team's curve until an agent has its own, and 0.5 before any verdict", () => {
    const empty = (): [number, number][] => Array.from({ length: BINS }, () => [0, 0]);
    expect(teamCurve([])).toEqual(Array(BINS).fill(0.5));
    expect(recalibrate(teamCurve([empty()]), 0.9)).toBe(0.5);
    // The team, when it says 0.85, is right four times in five; when it says 0.25, one time in five.
    const a = empty();
    a[8] = [80, 100];
    a[2] = [20, 100];
    const team = teamCurve([a, empty()]);
    for (let i = 1; i < BINS; i++) expect(team[i]).toBeGreaterThanOrEqual(team[i - 1]);
    expect(recalibrate(team, 0.85)).toBeGreaterThan(0.65);
    expect(recalibrate(team, 0.25)).toBeLessThan(0.35);
    // A new agent reads the team's curve; one with a record of its own (wrong whenever it says 0.85) leans toward it.
    expect(calibrationCurve(empty(), team)).toEqual(team);
    const own = empty();
    own[8] = [0, 40];
    const mine = calibrationCurve(own, team)!;
    expect(recalibrate(mine, 0.85)).toBeLessThan(recalibrate(team, 0.85) - 0.2);
  });
});
