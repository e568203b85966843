// The main simulated world's hidden table (what each member responds to), the draws every world shares, and the
// small interface a world answers the simulated team through, so another world can change the hidden structure only.

export interface Hidden {
  // The action that lifts this member out of a slump most often, and one that sometimes does.
  best: string;
  second: string;
  // Members whose best action changes on the drift day: what memory learned about them before goes stale.
  drift?: { best: string; second: string };
}

// Written once, before the council's memory and retrieval were tuned against this team; never changed to reach a
// target. Each action is someone's best; some have a cue in the KPI (tools/simulated-team.ts), some have none.
export const HIDDEN: Readonly<Record<string, Hidden>> = {
  aoki: { best: 'PRAISE_INCREASE', second: 'ONE_ON_ONE' },
  baba: { best: 'GOAL_ADJUSTMENT', second: 'MESSAGE_TIMING' },
  chiba: { best: 'MESSAGE_TIMING', second: 'GOAL_ADJUSTMENT' },
  doi: { best: 'ONE_ON_ONE', second: 'PRAISE_INCREASE' },
  endo: { best: 'PEER_SUPPORT', second: 'ONE_ON_ONE', drift: { best: 'SKILL_TRAINING', second: 'PEER_SUPPORT' } },
  fujii: { best: 'REST_RECOMMENDATION', second: 'ONE_ON_ONE' },
  goto: { best: 'SKILL_TRAINING', second: 'GOAL_ADJUSTMENT' },
  hara: {
    best: 'PRAISE_INCREASE',
    second: 'PEER_SUPPORT',
    drift: { best: 'REST_RECOMMENDATION', second: 'ONE_ON_ONE' },
  },
  ishii: { best: 'GOAL_ADJUSTMENT', second: 'SKILL_TRAINING' },
  jinno: { best: 'MESSAGE_TIMING', second: 'REST_RECOMMENDATION' },
  kato: { best: 'ONE_ON_ONE', second: 'GOAL_ADJUSTMENT', drift: { best: 'MESSAGE_TIMING', second: 'ONE_ON_ONE' } },
  kubo: { best: 'PEER_SUPPORT', second: 'PRAISE_INCREASE' },
  maeda: { best: 'REST_RECOMMENDATION', second: 'MESSAGE_TIMING' },
  mori: { best: 'SKILL_TRAINING', second: 'ONE_ON_ONE' },
  nagai: { best: 'PRAISE_INCREASE', second: 'GOAL_ADJUSTMENT' },
  noda: { best: 'GOAL_ADJUSTMENT', second: 'ONE_ON_ONE', drift: { best: 'PEER_SUPPORT', second: 'GOAL_ADJUSTMENT' } },
  ota: { best: 'MESSAGE_TIMING', second: 'PEER_SUPPORT' },
  saito: { best: 'ONE_ON_ONE', second: 'REST_RECOMMENDATION' },
  sano: { best: 'PEER_SUPPORT', second: 'SKILL_TRAINING' },
  tani: {
    best: 'REST_RECOMMENDATION',
    second: 'PRAISE_INCREASE',
    drift: { best: 'GOAL_ADJUSTMENT', second: 'ONE_ON_ONE' },
  },
  ueda: { best: 'SKILL_TRAINING', second: 'MESSAGE_TIMING' },
  wada: { best: 'ONE_ON_ONE', second: 'PEER_SUPPORT' },
  yano: {
    best: 'PRAISE_INCREASE',
    second: 'REST_RECOMMENDATION',
    drift: { best: 'ONE_ON_ONE', second: 'PRAISE_INCREASE' },
  },
  yoshida: { best: 'GOAL_ADJUSTMENT', second: 'PRAISE_INCREASE' },
};

// Daily chance that a slump starts to lift while an order holding the action is in force; the strongest action in
// force counts.
export const P_BEST = 0.5;
export const P_SECOND = 0.2;
export const P_OTHER = 0.03;
// Each cue a slump did not cause shows by chance with this probability.
export const P_SPURIOUS = 0.12;
// The daily noise on contacts: a sum of two uniforms times this, about ±1 contact.
const NOISE = 1.5;

// A uniform number from (seed, member, day, draw): the same draw in every arm, whatever the council decided, so two
// arms differ only where their decisions made the members differ (common random numbers).
export function uniform(seed: number, member: number, day: number, draw: number): number {
  let h = (seed * 0x9e3779b1) ^ (member * 0x85ebca77) ^ (day * 0xc2b2ae3d) ^ (draw * 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

export type WorldName = 'main' | 'second' | 'trust';

// What a world decides for the simulated team; the team's slumps, cues' shapes and KPI rows are the same in every
// world. `id` is the member's id and `i` its place in the team.
export interface World {
  // What the member responds to on day d: its best action (whose cue shows when a slump starts) and second.
  hiddenOn(id: string, d: number): { best: string; second: string };
  // What an order must hold to carry the member's best: one action, or a pair that works only together.
  bestOf(id: string, d: number): string[];
  // Each distinct action's daily chance to lift the member's slump, before the cost of extra actions.
  chances(id: string, d: number, actions: readonly string[]): number[];
  // The chance that a cue the slump did not cause shows for member i.
  spurious(i: number, cue: string): number;
  // Whether member i's rows are absent on day d (a day nobody recorded, not a day of zeros).
  missing(i: number, d: number): boolean;
  noise: number;
  // Whether the member's best action changes on the drift day (the drifted verdicts of the report).
  drifting(id: string): boolean;
}

// The main world: a fixed best and second per member, and for drifting members another pair from `driftDay`.
export function mainWorld(driftDay: number): World {
  const hiddenOn = (id: string, d: number) => {
    const h = HIDDEN[id];
    return h.drift && d >= driftDay ? h.drift : h;
  };
  return {
    hiddenOn,
    bestOf: (id, d) => [hiddenOn(id, d).best],
    chances: (id, d, actions) => {
      const h = hiddenOn(id, d);
      return actions.map((a) => (a === h.best ? P_BEST : a === h.second ? P_SECOND : P_OTHER));
    },
    spurious: () => P_SPURIOUS,
    missing: () => false,
    noise: NOISE,
    drifting: (id) => !!HIDDEN[id].drift,
  };
}
