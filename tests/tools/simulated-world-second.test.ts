// The second world's hidden structure: a best action that changes every month, noisy KPI with missing days (rows
// absent, not zero), and members who respond to two actions only when both are in force together.
import { describe, expect, it } from 'vitest';
import { HIDDEN, P_BEST, P_OTHER } from '../../tools/simulated-world.js';
import { secondWorld, secondWorldPlans } from '../../tools/simulated-world-second.js';
import { SimulatedTeam } from '../../tools/simulated-team.js';

const IDS = Object.keys(HIDDEN);
const SEED = 3;

describe('the second world', () => {
  const world = secondWorld(SEED, IDS);
  const plans = secondWorldPlans(SEED, IDS);
  const rotating = IDS.filter((id) => !plans[id].pair);
  const pairs = IDS.filter((id) => plans[id].pair);

  it('changes a rotating member’s best action at every month and holds it within the month', () => {
    expect(rotating).toHaveLength(18);
    for (const id of rotating)
      for (let m = 0; m < 11; m++) {
        const best = world.hiddenOn(id, 30 * m).best;
        expect(world.hiddenOn(id, 30 * m + 29).best).toBe(best);
        expect(world.hiddenOn(id, 30 * (m + 1)).best).not.toBe(best);
        expect(world.bestOf(id, 30 * m)).toEqual([best]);
      }
    // Rotations of two and of three actions both occur, from the seed.
    expect(new Set(rotating.map((id) => plans[id].rotation.length))).toEqual(new Set([2, 3]));
  });

  it('lifts a pair member only when both actions of its pair are in force', () => {
    expect(pairs).toEqual(['doi', 'hara', 'kubo', 'noda', 'tani', 'yoshida']);
    for (const id of pairs) {
      const [a, b] = plans[id].rotation;
      expect(world.bestOf(id, 100)).toEqual([a, b]);
      expect(Math.max(...world.chances(id, 100, [a]))).toBe(P_OTHER);
      expect(Math.max(...world.chances(id, 100, [b, 'SKILL_TRAINING']))).toBe(
        b === 'SKILL_TRAINING' ? P_BEST : P_OTHER,
      );
      expect(Math.max(...world.chances(id, 100, [a, b]))).toBe(P_BEST);
    }
    const team = new SimulatedTeam({ seed: SEED, driftDay: 180, world: 'second' }, '2026-03-02');
    const [a, b] = plans.doi.rotation;
    expect(team.holdsBest('doi', 10, [{ action_type: a }])).toBe(false);
    expect(team.holdsBest('doi', 10, [{ action_type: b }, { action_type: a }])).toBe(true);
  });

  it('leaves about a tenth of member-days without rows, never a row of zeros for them', () => {
    const team = new SimulatedTeam({ seed: SEED, driftDay: 180, world: 'second' }, '2026-03-02');
    let absent = 0;
    for (let d = 0; d < 120; d++) {
      const { rows } = team.step(() => []);
      const seen = new Set(rows.map((r) => r.member_id));
      absent += IDS.length - seen.size;
      for (const id of seen) expect(rows.filter((r) => r.member_id === id)).toHaveLength(5);
    }
    expect(absent / (120 * IDS.length)).toBeGreaterThan(0.07);
    expect(absent / (120 * IDS.length)).toBeLessThan(0.13);
    // The main world records every day.
    const main = new SimulatedTeam({ seed: SEED, driftDay: 180 }, '2026-03-02');
    expect(new Set(main.step(() => []).rows.map((r) => r.member_id)).size).toBe(IDS.length);
  });

  it('is the same world for the same seed, and another for another seed', () => {
    expect(secondWorldPlans(SEED, IDS)).toEqual(plans);
    expect(secondWorldPlans(SEED + 1, IDS)).not.toEqual(plans);
  });
});
