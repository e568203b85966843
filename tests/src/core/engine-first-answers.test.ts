// The decision records the specialists' first-answer majority and whether the order flipped it, from the record.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/discussion/messages.js';
import { runObjection } from '../../../src/core/orders/objections.js';
import { ScriptedProvider, type ScriptEntry } from '../../../src/core/providers/scripted.js';
import { check, decision, human, negative, opinion, positive, reviewScript, situation } from './answers.js';
import { DISC, NOW_ISO, newDiscussion, runToRest, SPECIALISTS, testEnv } from './env.js';

type Phase2 = Record<string, [string, number] | 'fails'>;

// A whole discussion: the specialists' Phase 2 answers as given ('fails': no answer, and organization's substitute
// is a balancer, so a default opinion is recorded), then the decider's order of `actions`.
function decided(phase2: Phase2, actions: string[]) {
  const script: ScriptEntry[] = [
    { agent: 'analyst', expect: 'SITUATION_REPORT', phase: 1, content: situation() },
    ...SPECIALISTS.map((a): ScriptEntry => {
      const given = phase2[a];
      if (given === 'fails') return { agent: a, expect: 'SPECIALIST_OPINION', phase: 2, status: 500 };
      return { agent: a, expect: 'SPECIALIST_OPINION', phase: 2, content: opinion(given[0], given[1]) };
    }),
    { agent: 'positive', expect: 'PERSPECTIVE_POSITIVE', phase: 3, content: positive() },
    { agent: 'devils_advocate', expect: 'PERSPECTIVE_NEGATIVE', phase: 3, content: negative() },
    { agent: 'human_view', expect: 'PERSPECTIVE_HUMAN', phase: 3, content: human() },
    { agent: 'ethics', expect: 'GOVERNANCE_ETHICS', phase: 4, content: check() },
    { agent: 'legal', expect: 'GOVERNANCE_LEGAL', phase: 4, content: check() },
    // The decider's own deliberation lists votes only for what it chose: Kaigi never takes the majority from there.
    { agent: 'decider', expect: 'DECISION', phase: 5, content: decision(actions) },
    ...reviewScript(),
  ];
  const p = new ScriptedProvider(script);
  const run = runToRest(newDiscussion(), testEnv({ provider: p }));
  p.assertDone();
  expect(run.d.status).toBe('DECIDED');
  const delib = run.d.messages.find((m) => m.message_type === 'DECISION_DELIBERATION') as Message;
  return { d: run.d, delib };
}

// Five of eight specialists first recommend GOAL_ADJUSTMENT.
const FIVE_OF_EIGHT: Phase2 = {
  analyst: ['GOAL_ADJUSTMENT', 0.8],
  psychology: ['GOAL_ADJUSTMENT', 0.7],
  neuroscience: ['GOAL_ADJUSTMENT', 0.6],
  coaching: ['GOAL_ADJUSTMENT', 0.8],
  sales_strategy: ['GOAL_ADJUSTMENT', 0.9],
  behavioral_econ: ['PRAISE_INCREASE', 0.9],
  organization: ['PRAISE_INCREASE', 0.9],
  wellbeing: ['REST_RECOMMENDATION', 0.9],
};

describe('first answers at the decision', () => {
  it('records the majority on the deliberation, not flipped when the order keeps it', () => {
    const { d, delib } = decided(FIVE_OF_EIGHT, ['GOAL_ADJUSTMENT', 'ONE_ON_ONE']);
    expect(delib.metadata.first_answers).toEqual({ majority: 'GOAL_ADJUSTMENT', votes: 5, of: 8, flip: false });
    // Only the deliberation carries it.
    expect(d.messages.filter((m) => m.metadata.first_answers).map((m) => m.message_type)).toEqual([
      'DECISION_DELIBERATION',
    ]);
  });

  it('records a flip when the order leaves the majority out', () => {
    const { delib } = decided(FIVE_OF_EIGHT, ['PRAISE_INCREASE', 'REST_RECOMMENDATION']);
    expect(delib.metadata.first_answers).toEqual({ majority: 'GOAL_ADJUSTMENT', votes: 5, of: 8, flip: true });
  });

  it('breaks a tie by stated confidence and leaves a default opinion out', () => {
    // Three REST_RECOMMENDATION (2.7 stated in all) against three PRAISE_INCREASE (1.5): the tie goes to rest, though
    // PRAISE_INCREASE comes first alphabetically. organization fails: its default opinion (the allow-list's first
    // action, PRAISE_INCREASE) would have made praise the majority had it counted.
    const tie: Phase2 = {
      analyst: ['REST_RECOMMENDATION', 0.9],
      psychology: ['REST_RECOMMENDATION', 0.9],
      neuroscience: ['REST_RECOMMENDATION', 0.9],
      coaching: ['PRAISE_INCREASE', 0.5],
      sales_strategy: ['PRAISE_INCREASE', 0.5],
      behavioral_econ: ['PRAISE_INCREASE', 0.5],
      organization: 'fails',
      wellbeing: ['MESSAGE_TIMING', 0.7],
    };
    const { d, delib } = decided(tie, ['PRAISE_INCREASE']);
    const org = d.messages.find((m) => m.speaker === 'organization' && m.phase === 2) as Message;
    expect(org.metadata.default_opinion).toBe(true);
    expect((org.content as { recommendation: { action_type: string } }).recommendation.action_type).toBe(
      'PRAISE_INCREASE',
    );
    expect(delib.metadata.first_answers).toEqual({ majority: 'REST_RECOMMENDATION', votes: 3, of: 7, flip: true });
    expect(decided(tie, ['REST_RECOMMENDATION']).delib.metadata.first_answers?.flip).toBe(false);
  });

  it('records it again when an objection leaves the original order standing', () => {
    const { d } = decided(FIVE_OF_EIGHT, ['GOAL_ADJUSTMENT']);
    const p = new ScriptedProvider([{ agent: 'decider', content: decision(['GOAL_ADJUSTMENT']) }, ...reviewScript()]);
    const env = testEnv({ provider: p });
    env.nextDecisionId();
    const { result } = runObjection(
      d,
      {
        discussion_id: DISC,
        objection_id: 'OBJ-1',
        source: 'agent',
        objector: 'ethics',
        reason: 'too much pressure',
        alternative: 'praise instead',
        evidence: [],
        urgency: 'LOW',
      },
      env,
      NOW_ISO,
    );
    expect(result.messages.map((m) => [m.message_type, m.content.status ?? '', m.metadata.first_answers])).toEqual([
      ['OBJECTION', '', undefined],
      ['ACKNOWLEDGEMENT', 'OBJECTION_ACCEPTED', undefined],
      ['DECISION_DELIBERATION', '', { majority: 'GOAL_ADJUSTMENT', votes: 5, of: 8, flip: false }],
      ['ACKNOWLEDGEMENT', 'ORIGINAL_ORDER_KEPT', undefined],
    ]);
  });
});
