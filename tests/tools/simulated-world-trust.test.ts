// The trust family: one specialist's cue shows in most slumps of half the team whatever caused them (misleading
// there), and keeps the main world's chance elsewhere, so an agent's reliability differs by member.
import { describe, expect, it } from 'vitest';
import { HIDDEN, mainWorld, P_SPURIOUS } from '../../tools/simulated-world.js';
import { P_MISLEADING, trustWorld } from '../../tools/simulated-world-trust.js';
import { SimulatedTeam } from '../../tools/simulated-team.js';

describe('the trust family', () => {
  it('raises long hours for Teams 1–2 and missing praise for Teams 3–4, and no other cue', () => {
    const w = trustWorld(180);
    for (const i of [0, 1, 4, 5]) {
      expect(w.spurious(i, 'overtime')).toBe(P_MISLEADING);
      expect(w.spurious(i, 'praise')).toBe(P_SPURIOUS);
    }
    for (const i of [2, 3, 6, 7]) {
      expect(w.spurious(i, 'praise')).toBe(P_MISLEADING);
      expect(w.spurious(i, 'overtime')).toBe(P_SPURIOUS);
    }
    for (const i of [0, 3]) for (const c of ['habit', 'conversion']) expect(w.spurious(i, c)).toBe(P_SPURIOUS);
  });

  it('keeps the main world’s hidden table: only the cues differ', () => {
    const [t, m] = [trustWorld(180), mainWorld(180)];
    for (const id of Object.keys(HIDDEN))
      for (const d of [0, 179, 180, 359]) {
        expect(t.hiddenOn(id, d)).toEqual(m.hiddenOn(id, d));
        expect(t.chances(id, d, ['REST_RECOMMENDATION', 'PRAISE_INCREASE'])).toEqual(
          m.chances(id, d, ['REST_RECOMMENDATION', 'PRAISE_INCREASE']),
        );
      }
  });

  it('shows long hours in the KPI far more often for a Team 1 member whose best is not rest', () => {
    // aoki (Team 1) responds to praise: long hours are never the cause of its slumps.
    const longHours = (world: 'main' | 'trust', id: string) => {
      const team = new SimulatedTeam({ seed: 5, driftDay: 180, world }, '2026-03-02');
      let n = 0;
      for (let d = 0; d < 360; d++)
        n += team
          .step(() => [])
          .rows.filter((r) => r.member_id === id && r.metric === 'overtime_hours' && r.value >= 2.8).length;
      return n;
    };
    expect(HIDDEN.aoki.best).toBe('PRAISE_INCREASE');
    expect(longHours('trust', 'aoki')).toBeGreaterThan(3 * Math.max(1, longHours('main', 'aoki')));
  });
});
