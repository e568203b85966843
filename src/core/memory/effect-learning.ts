// What memory learns "what works" from: the effect of a decision (src/core/memory/effect.ts), not its forecast.
import type { Effect } from './effect.js';
import type { Verdict } from './outcomes.js';
import type { Assessment } from './review-types.js';

// What memory learns "what works" from: the effect, in the verdict words the learning code speaks. An action that
// changed nothing did not work either; an unclear effect teaches nothing.
export function learningVerdict(effect: Effect | '' | undefined, forecast: Verdict): Verdict {
  if (!effect) return forecast;
  return effect === 'worked' ? 'confirmed' : effect === 'unclear' ? 'inconclusive' : 'rejected';
}

// The assessment as the learning side reads it: its verdict is the effect's (members' records, best bets, learnings'
// confidence, learned trust); the forecast verdict stays for calibration and each agent's accuracy.
export function forLearning(a: Assessment): Assessment {
  return { ...a, ev: { ...a.ev, verdict: learningVerdict(a.ev.effect?.effect, a.ev.verdict) } };
}
