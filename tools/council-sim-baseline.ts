// The learning benchmark's baseline arms (tools/council-sim.ts): the council's order replaced by one action, or
// widened by the member's hidden best action (the oracle, the only arm that reads the hidden table).
import type { ContentOf } from '../src/core/discussion/messages.js';
import { firstAnswers } from '../src/core/memory/first-answers.js';
import type { orderOf } from '../src/core/memory/memory.js';
import type { Discussion } from '../src/core/types.js';
import type { Policy } from './council-sim-result.js';

export type SimOrder = NonNullable<ReturnType<typeof orderOf>>;

// The baselines keep the council's own record and monitoring, and carry out one action instead. `best` is the
// member's hidden best action (oracle only); `draw` is the bandit's Thompson draw; `pick` the arm's random source.
export function baselineActions(
  d: Discussion,
  order: SimOrder,
  policy: Policy,
  allow: string[],
  best: string,
  draw: () => string,
  pick: () => number,
): SimOrder['actions'] {
  let actions = order.actions;
  const first = firstAnswers(d.messages);
  const ops = d.messages
    .filter((m) => m.message_type === 'SPECIALIST_OPINION')
    .map((m) => (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation);
  const like = (type: string) => ops.find((r) => r.action_type === type) ?? { ...order.actions[0], action_type: type };
  if (policy === 'oracle') {
    actions = order.actions.some((x) => x.action_type === best) ? order.actions : order.actions.concat([like(best)]);
  } else {
    const type =
      policy === 'vote'
        ? (first?.majority ?? allow[0])
        : policy === 'bandit'
          ? draw()
          : allow[Math.floor(pick() * allow.length)];
    actions = [like(type)];
  }
  d.final_decision = { ...order, actions } as unknown as Record<string, unknown>;
  return actions;
}
