// The simulated team's cost of extra actions: each action beyond the first lowers the order's chance to lift a slump;
// and the main world stays bit-for-bit what it was before other worlds were added.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACTION_TYPES } from '../../src/core/types.js';
import { orderEffect, SimulatedTeam } from '../../tools/simulated-team.js';

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

describe('the main world', () => {
  // A fixed, arbitrary order schedule; the fingerprints were taken before the worlds were split out of this file.
  const fingerprint = (cost: number) => {
    const t = new SimulatedTeam({ seed: 1, driftDay: 180, extraActionCost: cost }, '2026-03-02');
    const acts = [...ACTION_TYPES];
    const h = createHash('sha256');
    h.update(JSON.stringify(t.members()));
    h.update(JSON.stringify(t.history()));
    for (let d = 0; d < 360; d++) {
      const s = t.step((m) => {
        const x = (m.length * 7 + d * 3) % 11;
        return x < 4 ? [] : x < 8 ? [acts[x % 7]] : [acts[x % 7], acts[(x + 2) % 7], acts[d % 7]];
      });
      h.update(JSON.stringify(s));
      h.update(JSON.stringify(t.ids.map((id) => [t.hiddenOn(id, d), t.drifting(id)])));
    }
    return h.digest('hex').slice(0, 16);
  };

  it('gives the same rows, hidden table and drift for the same seed as before the second world', () => {
    expect(fingerprint(0)).toBe('e304ed07400b9303');
    expect(fingerprint(0.15)).toBe('57874b9f158ae847');
  });
});
