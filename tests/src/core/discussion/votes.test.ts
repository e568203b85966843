// Kaigi's count of the specialists' opinions: votes highest first, summing to 1, with the margin of the first; a
// substitute's answer given under an absent agent's name counts once when the substitute also spoke for itself.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../src/core/discussion/messages.js';
import { preferVotes, weighOpinions } from '../../../../src/core/discussion/votes.js';

const BANDS = { heavy: 0.9, reference: 0.7, crosscheck: 0.5, feedback: 0.3 };

function opinion(speaker: string, action: string, confidence: number, substitute?: string): Message {
  return {
    message_id: `M-${speaker}`,
    discussion_id: 'DISC-2026-01-15-001',
    phase: 2,
    speaker,
    message_type: 'SPECIALIST_OPINION',
    timestamp: '2026-01-15T00:00:00Z',
    content: {
      analysis: 'a',
      evidence: ['e'],
      hypothesis: 'h',
      recommendation: {
        action_type: action,
        target: 't',
        description: 'd',
        intensity: 'low',
        timing: '',
        duration_days: 7,
      },
      confidence,
    },
    metadata: {
      processing_time_ms: 0,
      model_used: 'm',
      tokens_consumed: 0,
      fallback_level: substitute ? 2 : 0,
      step_key: `k/${speaker}`,
      ...(substitute ? { substitute } : {}),
    },
  } as Message;
}

describe('weighOpinions', () => {
  it('sorts the votes by score, makes them sum to 1 and gives the margin between the first two', () => {
    const w = weighOpinions(
      [
        opinion('a', 'ONE_ON_ONE', 0.6),
        opinion('b', 'PRAISE_INCREASE', 0.8),
        opinion('c', 'PRAISE_INCREASE', 0.75),
        opinion('d', 'REST_RECOMMENDATION', 0.5),
      ],
      {},
      BANDS,
    );
    const scores = w.votes.map((v) => v.score);
    expect(w.votes[0].action_type).toBe('PRAISE_INCREASE');
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(scores.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 1);
    expect(w.margin).toBeCloseTo(scores[0] - scores[1], 2);
    // A directive's preferred action moves the vote, and the scores still sum to 1.
    const preferred = preferVotes(w, ['ONE_ON_ONE'], 0.5);
    expect(preferred.votes[0].action_type).toBe('ONE_ON_ONE');
    expect(preferred.votes.reduce((x, v) => x + v.score, 0)).toBeCloseTo(1, 1);
  });

  it('counts a substitute’s view once: no vote under the absent agent’s name when the substitute spoke itself', () => {
    const twice = weighOpinions(
      [opinion('coaching', 'SKILL_TRAINING', 0.7), opinion('psychology', 'SKILL_TRAINING', 0.7, 'coaching')],
      {},
      BANDS,
    );
    expect(twice.weights.map((x) => x.agent_id)).toEqual(['coaching']);
    // A substitute that gave no opinion of its own: the answer it gave for the absent agent is a vote.
    const once = weighOpinions([opinion('psychology', 'SKILL_TRAINING', 0.7, 'coaching')], {}, BANDS);
    expect(once.weights.map((x) => x.agent_id)).toEqual(['psychology']);
  });
});
