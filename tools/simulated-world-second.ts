// The learning benchmark's second world: the same team and slumps as the main world under another hidden structure.
// A member's best action rotates every month, the KPI is noisier and has missing days, and some members respond to
// two actions only when both are in force together.
import { ACTION_TYPES } from '../src/core/types.js';
import { HIDDEN, P_BEST, P_OTHER, P_SECOND, P_SPURIOUS, uniform, type World } from './simulated-world.js';

// Parameters (docs/learning.md, "The second world"), written once before any run in this world.
// A rotating member's best action changes every MONTH_DAYS days, through two or three actions (even odds, seeded).
const MONTH_DAYS = 30;
// Every PAIR_EVERY-th member (the 4th, 8th, …) responds to its pair only when both actions are in force.
const PAIR_EVERY = 4;
// A member's rows are absent on a day with this chance (nobody recorded the day), and the contacts' noise is this
// wide (the main world's is 1.5).
const P_MISSING = 0.1;
const NOISE = 2.5;

interface Plan {
  // The actions the member's best rotates through, from the month given by `offset`; a pair member's is its pair.
  rotation: string[];
  offset: number;
  pair: boolean;
}

// Each member's plan from the seed: the rotation starts from the main world's best and second (a seeded third for
// half of them) so the cues the specialists read still point somewhere real.
function plansOf(seed: number, ids: readonly string[]): Record<string, Plan> {
  const plans: Record<string, Plan> = {};
  ids.forEach((id, i) => {
    const u = (k: number) => uniform(seed, i, -2, k);
    const h = HIDDEN[id];
    const pair = (i + 1) % PAIR_EVERY === 0;
    const rest = ACTION_TYPES.filter((a) => a !== h.best && a !== h.second);
    const rotation =
      !pair && u(0) < 0.5 ? [h.best, h.second, rest[Math.floor(u(1) * rest.length)]] : [h.best, h.second];
    plans[id] = { rotation, offset: pair ? 0 : Math.floor(u(2) * rotation.length), pair };
  });
  return plans;
}

export function secondWorld(seed: number, ids: readonly string[]): World {
  const plans = plansOf(seed, ids);
  const hiddenOn = (id: string, d: number) => {
    const p = plans[id];
    if (p.pair) return { best: p.rotation[0], second: p.rotation[1] };
    const m = Math.floor(Math.max(0, d) / MONTH_DAYS) + p.offset;
    return { best: p.rotation[m % p.rotation.length], second: p.rotation[(m + 1) % p.rotation.length] };
  };
  return {
    hiddenOn,
    bestOf: (id, d) => (plans[id].pair ? plans[id].rotation.slice() : [hiddenOn(id, d).best]),
    chances: (id, d, actions) => {
      const p = plans[id];
      if (p.pair) {
        const both = p.rotation.every((a) => actions.indexOf(a) >= 0);
        return actions.map((a) => (both && p.rotation.indexOf(a) >= 0 ? P_BEST : P_OTHER));
      }
      const h = hiddenOn(id, d);
      return actions.map((a) => (a === h.best ? P_BEST : a === h.second ? P_SECOND : P_OTHER));
    },
    spurious: () => P_SPURIOUS,
    missing: (i, d) => uniform(seed, i, d, 40) < P_MISSING,
    noise: NOISE,
    drifting: () => false,
  };
}

// For tests and the docs: which members respond only to a pair, and each member's rotation.
export function secondWorldPlans(seed: number, ids: readonly string[]): Readonly<Record<string, Plan>> {
  return plansOf(seed, ids);
}
