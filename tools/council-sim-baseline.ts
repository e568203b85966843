// The learning benchmark's baseline arms (tools/council-sim.ts): the council's order replaced by one action, or
// widened by the member's hidden best action (the oracle, the only arm that reads the hidden table), and every arm's
// order cut or filled to an equal budget of k actions.
import type { ContentOf } from '../src/core/discussion/messages.js';
import { firstAnswers, voteRanking } from '../src/core/memory/first-answers.js';
import type { orderOf } from '../src/core/memory/memory.js';
import type { Discussion } from '../src/core/types.js';
import type { Policy } from './council-sim-result.js';

export type SimOrder = NonNullable<ReturnType<typeof orderOf>>;

// An order at a budget of k actions: its own actions first, in its own order (cut to k), then filled from the
// preferences after them, then the allow-list; only allowed actions, each once.
export function atBudget(
  own: readonly string[],
  then: readonly string[],
  allow: readonly string[],
  k: number,
): string[] {
  const out: string[] = [];
  for (const a of [...own, ...then, ...allow])
    if (out.length < k && allow.indexOf(a) >= 0 && out.indexOf(a) < 0) out.push(a);
  return out;
}

// The baselines keep the council's own record and monitoring, and carry out other actions. `best` is what carries
// the member's hidden best: one action, or a pair that works only together (oracle only). `draw(k)` is the bandit's
// Thompson top k; `pick` the arm's random source. Without `k` each arm orders as it always did: the vote, the bandit
// and random one action, the oracle the order plus the best. With `k`: the council its own order cut or filled by
// the vote, the bandit its top k, the oracle the best (in its order, so a pair cut to k = 1 keeps its first half)
// and the order's (then the vote's) next k − 1.
export function baselineActions(
  d: Discussion,
  order: SimOrder,
  arm: { policy: Policy; k?: number },
  allow: string[],
  best: readonly string[],
  draw: (k: number) => string[],
  pick: () => number,
): SimOrder['actions'] {
  const { policy, k } = arm;
  const first = firstAnswers(d.messages);
  const ops = d.messages
    .filter((m) => m.message_type === 'SPECIALIST_OPINION')
    .map((m) => (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation);
  const own = order.actions.map((x) => x.action_type);
  // The order's own action where it has one (the oracle and the budgets keep them), else a specialist's.
  const kept = (type: string) =>
    k || policy === 'oracle' ? order.actions.find((x) => x.action_type === type) : undefined;
  const like = (type: string) =>
    kept(type) ?? ops.find((r) => r.action_type === type) ?? { ...order.actions[0], action_type: type };
  let types: string[];
  if (k && (policy === 'council' || policy === 'oracle')) {
    const ranking = voteRanking(d.messages);
    types = policy === 'oracle' ? atBudget(best, [...own, ...ranking], allow, k) : atBudget(own, ranking, allow, k);
  } else if (policy === 'oracle') types = own.concat(best.filter((b) => own.indexOf(b) < 0));
  else if (policy === 'bandit') types = draw(k ?? 1);
  else if (policy === 'vote') types = [first?.majority ?? allow[0]];
  else types = [allow[Math.floor(pick() * allow.length)]];
  const actions = types.map(like);
  d.final_decision = { ...order, actions } as unknown as Record<string, unknown>;
  return actions;
}
