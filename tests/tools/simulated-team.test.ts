// The simulated team's cost of extra actions: each action beyond the first lowers the order's chance to lift a slump.
import { describe, expect, it } from 'vitest';
import { orderEffect } from '../../tools/simulated-team.js';

describe('orderEffect', () => {
  it('is the strongest action’s chance when the order holds one action, whatever the cost', () => {
    expect(orderEffect([0.5], 0.15)).toBe(0.5);
    expect(orderEffect([0.03], 0.15)).toBe(0.03);
  });

  it('lowers every action’s effect by the cost for each action beyond the first', () => {
    expect(orderEffect([0.03, 0.5, 0.2], 0.15)).toBeCloseTo(0.5 * 0.7, 10);
    expect(orderEffect([0.2, 0.03], 0.15)).toBeCloseTo(0.2 * 0.85, 10);
  });

  it('costs nothing at cost 0 (the older world: a bigger order is a free lottery ticket)', () => {
    expect(orderEffect([0.03, 0.5, 0.2], 0)).toBe(0.5);
  });

  it('never goes below 0, and an empty order lifts nothing', () => {
    expect(orderEffect([0.5, 0.2, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03], 0.15)).toBe(0);
    expect(orderEffect([], 0.15)).toBe(0);
  });
});
