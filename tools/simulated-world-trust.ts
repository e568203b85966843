// The trust family: the main world where one specialist's cue is right for some members and misleading for others,
// so an agent's reliability differs by member and learned trust per context has something to learn.
import { mainWorld, P_SPURIOUS, type World } from './simulated-world.js';

// In Teams 1–2 (members 1, 2, 5, 6, …) long hours show in most slumps whatever caused them: the wellbeing reading
// (rest) is right for the members whose best is rest and misleading for the others. In Teams 3–4 the same holds for
// missing praise and the psychology reading. Each member has one misleading cue, and the other cues keep the main
// world's chance. Written once, before any run in this world.
export const MISLEADING_CUE: Readonly<Record<number, string>> = {
  0: 'overtime',
  1: 'overtime',
  2: 'praise',
  3: 'praise',
};
export const P_MISLEADING = 0.7;

export function trustWorld(driftDay: number): World {
  return {
    ...mainWorld(driftDay),
    spurious: (i, cue) => (MISLEADING_CUE[i % 4] === cue ? P_MISLEADING : P_SPURIOUS),
  };
}
