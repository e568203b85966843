// Every arm's order at an equal budget of k actions: the council's own order cut or filled by the vote, the oracle's
// best action plus the next k − 1, the bandit's top k; without k each arm orders as it always did.
import { describe, expect, it } from 'vitest';
import type { Discussion } from '../../src/core/types.js';
import { voteRanking } from '../../src/core/memory/first-answers.js';
import { atBudget, baselineActions, type SimOrder } from '../../tools/council-sim-baseline.js';

const ALLOW = ['GOAL_ADJUSTMENT', 'ONE_ON_ONE', 'PEER_SUPPORT', 'PRAISE_INCREASE', 'REST_RECOMMENDATION'];

const opinion = (speaker: string, action_type: string, confidence: number) => ({
  phase: 2,
  message_type: 'SPECIALIST_OPINION',
  speaker,
  metadata: {},
  content: { confidence, recommendation: { action_type, details: `${speaker}: ${action_type}` } },
});

// Two vote for rest, two for praise (praise more confident), one for a one-on-one.
const messages = [
  opinion('a', 'REST_RECOMMENDATION', 0.5),
  opinion('b', 'PRAISE_INCREASE', 0.7),
  opinion('c', 'REST_RECOMMENDATION', 0.5),
  opinion('d', 'PRAISE_INCREASE', 0.7),
  opinion('e', 'ONE_ON_ONE', 0.9),
  opinion('a', 'GOAL_ADJUSTMENT', 0.9), // a later answer of the same agent: not a first answer
];

const discussion = () => ({ messages, final_decision: null }) as unknown as Discussion;
const order = (...types: string[]) =>
  ({
    decision_id: 'd1',
    actions: types.map((action_type) => ({ action_type, description: 'order' })),
  }) as unknown as SimOrder;
const typesOf = (xs: SimOrder['actions']) => xs.map((x) => x.action_type);
const noDraw = () => [] as string[];

describe('voteRanking', () => {
  it('ranks the first answers by votes, then summed confidence', () => {
    expect(voteRanking(messages as never)).toEqual(['PRAISE_INCREASE', 'REST_RECOMMENDATION', 'ONE_ON_ONE']);
  });
});

describe('atBudget', () => {
  it('cuts an order to its first k actions', () => {
    expect(atBudget(['A', 'B', 'C'], ['D'], ['A', 'B', 'C', 'D'], 1)).toEqual(['A']);
  });

  it('fills a short order from the preferences, then the allow-list, each action once and only allowed ones', () => {
    expect(atBudget(['B'], ['B', 'X', 'D'], ['A', 'B', 'C', 'D'], 3)).toEqual(['B', 'D', 'A']);
  });
});

describe('baselineActions at a budget of k', () => {
  it('cuts the council’s three best bets to one, keeping its first', () => {
    const d = discussion();
    const got = baselineActions(
      d,
      order('ONE_ON_ONE', 'PEER_SUPPORT', 'GOAL_ADJUSTMENT'),
      { policy: 'council', k: 1 },
      ALLOW,
      [],
      noDraw,
      Math.random,
    );
    expect(typesOf(got)).toEqual(['ONE_ON_ONE']);
    expect(typesOf((d.final_decision as unknown as SimOrder).actions)).toEqual(['ONE_ON_ONE']);
  });

  it('fills the council’s one-action order to three with the vote’s next choices', () => {
    const got = baselineActions(
      discussion(),
      order('REST_RECOMMENDATION'),
      { policy: 'council', k: 3 },
      ALLOW,
      [],
      noDraw,
      Math.random,
    );
    expect(typesOf(got)).toEqual(['REST_RECOMMENDATION', 'PRAISE_INCREASE', 'ONE_ON_ONE']);
    expect(got[0].description).toBe('order');
  });

  it('gives the oracle the best action plus the order’s next k − 1', () => {
    const arm = { policy: 'oracle' as const, k: 3 };
    const got = baselineActions(
      discussion(),
      order('REST_RECOMMENDATION'),
      arm,
      ALLOW,
      ['GOAL_ADJUSTMENT'],
      noDraw,
      Math.random,
    );
    expect(typesOf(got)).toEqual(['GOAL_ADJUSTMENT', 'REST_RECOMMENDATION', 'PRAISE_INCREASE']);
    const one = baselineActions(
      discussion(),
      order('REST_RECOMMENDATION'),
      { policy: 'oracle', k: 1 },
      ALLOW,
      ['GOAL_ADJUSTMENT'],
      noDraw,
      Math.random,
    );
    expect(typesOf(one)).toEqual(['GOAL_ADJUSTMENT']);
  });

  it('gives the bandit its Thompson top k', () => {
    const draw = (k: number) => ['PEER_SUPPORT', 'ONE_ON_ONE', 'GOAL_ADJUSTMENT'].slice(0, k);
    expect(
      typesOf(
        baselineActions(discussion(), order('ONE_ON_ONE'), { policy: 'bandit', k: 3 }, ALLOW, [], draw, Math.random),
      ),
    ).toEqual(['PEER_SUPPORT', 'ONE_ON_ONE', 'GOAL_ADJUSTMENT']);
    expect(
      typesOf(baselineActions(discussion(), order('ONE_ON_ONE'), { policy: 'bandit' }, ALLOW, [], draw, Math.random)),
    ).toEqual(['PEER_SUPPORT']);
  });

  it('without k, the oracle widens the order by the best action as before', () => {
    const got = baselineActions(
      discussion(),
      order('REST_RECOMMENDATION', 'ONE_ON_ONE'),
      { policy: 'oracle' },
      ALLOW,
      ['GOAL_ADJUSTMENT'],
      noDraw,
      Math.random,
    );
    expect(typesOf(got)).toEqual(['REST_RECOMMENDATION', 'ONE_ON_ONE', 'GOAL_ADJUSTMENT']);
  });

  it('gives the oracle a pair that works only together, in its order: both at k = 3, its first half at k = 1', () => {
    const pair = ['PEER_SUPPORT', 'GOAL_ADJUSTMENT'];
    const at = (k?: number) =>
      typesOf(
        baselineActions(
          discussion(),
          order('REST_RECOMMENDATION'),
          { policy: 'oracle', k },
          ALLOW,
          pair,
          noDraw,
          Math.random,
        ),
      );
    expect(at(3)).toEqual(['PEER_SUPPORT', 'GOAL_ADJUSTMENT', 'REST_RECOMMENDATION']);
    expect(at(1)).toEqual(['PEER_SUPPORT']);
    expect(at()).toEqual(['REST_RECOMMENDATION', 'PEER_SUPPORT', 'GOAL_ADJUSTMENT']);
  });
});
