// The first answers' majority and flips from hand-made messages: who counts, tie-breaks, and the running stats.
import { describe, expect, it } from 'vitest';
import {
  countFlip,
  deliberationOf,
  emptyFlipStats,
  firstAnswers,
  firstAnswersRecord,
  isFlip,
} from '../../../../src/core/memory/first-answers.js';
import type { Message } from '../../../../src/core/discussion/messages.js';
import { opinion } from '../answers.js';
import { DISC, NOW_ISO } from '../env.js';

let seq = 0;
// A stored message as the engine writes it; only phase, speaker, type, content and default_opinion matter here.
function msg(
  speaker: string,
  content: unknown,
  o: { phase?: number; type?: Message['message_type']; isDefault?: boolean } = {},
): Message {
  seq++;
  return {
    message_id: `MSG-${DISC}-${String(seq).padStart(3, '0')}`,
    discussion_id: DISC,
    phase: o.phase ?? 2,
    speaker,
    message_type: o.type ?? 'SPECIALIST_OPINION',
    timestamp: NOW_ISO,
    content: content as Record<string, unknown>,
    metadata: {
      processing_time_ms: 0,
      model_used: 'test',
      tokens_consumed: 0,
      fallback_level: o.isDefault ? 3 : 0,
      step_key: `${DISC}/${o.phase ?? 2}/${speaker}/1`,
      ...(o.isDefault ? { default_opinion: true } : {}),
    },
  };
}
const op = (speaker: string, action: string, confidence = 0.8, o: Parameters<typeof msg>[2] = {}) =>
  msg(speaker, opinion(action, confidence), o);

describe('firstAnswers', () => {
  it('is null without a counted Phase 2 opinion', () => {
    expect(firstAnswers([])).toBeNull();
    expect(firstAnswers([op('psychology', 'PRAISE_INCREASE', 0, { isDefault: true })])).toBeNull();
    // A later phase's message, even one shaped as an opinion, is not a first answer.
    expect(firstAnswers([op('psychology', 'PRAISE_INCREASE', 0.8, { phase: 3 })])).toBeNull();
    expect(isFlip(null, ['PRAISE_INCREASE'])).toBe(false);
    expect(firstAnswersRecord([], ['PRAISE_INCREASE'])).toBeNull();
  });

  it('takes the plurality, counting only each specialist’s first answer and no default opinion', () => {
    const messages = [
      msg('analyst', { summary: 's' }, { phase: 1, type: 'SITUATION_REPORT' }),
      op('analyst', 'GOAL_ADJUSTMENT'),
      op('psychology', 'GOAL_ADJUSTMENT'),
      op('coaching', 'PRAISE_INCREASE'),
      op('wellbeing', 'PRAISE_INCREASE', 0, { isDefault: true }),
      op('organization', 'PRAISE_INCREASE', 0, { isDefault: true }),
      // A second round after an objection: psychology's first answer stands.
      op('psychology', 'PRAISE_INCREASE'),
    ];
    expect(firstAnswers(messages)).toEqual({ majority: 'GOAL_ADJUSTMENT', votes: 2, of: 3 });
    expect(firstAnswersRecord(messages, ['GOAL_ADJUSTMENT', 'ONE_ON_ONE'])).toEqual({
      majority: 'GOAL_ADJUSTMENT',
      votes: 2,
      of: 3,
      flip: false,
    });
    expect(firstAnswersRecord(messages, ['PRAISE_INCREASE'])?.flip).toBe(true);
    // A default opinion is never a first answer, even when a real one follows it.
    expect(firstAnswers([op('coaching', 'ONE_ON_ONE', 0, { isDefault: true }), op('coaching', 'PEER_SUPPORT')])).toBe(
      null,
    );
  });

  it('breaks a tie by summed stated confidence, then alphabetically', () => {
    const tie = [
      op('analyst', 'PRAISE_INCREASE', 0.5),
      op('psychology', 'PRAISE_INCREASE', 0.5),
      op('coaching', 'REST_RECOMMENDATION', 0.9),
      op('wellbeing', 'REST_RECOMMENDATION', 0.2),
    ];
    expect(firstAnswers(tie)).toEqual({ majority: 'REST_RECOMMENDATION', votes: 2, of: 4 });
    const even = [op('analyst', 'REST_RECOMMENDATION', 0.6), op('psychology', 'PRAISE_INCREASE', 0.6)];
    expect(firstAnswers(even)).toEqual({ majority: 'PRAISE_INCREASE', votes: 1, of: 2 });
    expect(firstAnswers(even.slice().reverse())).toEqual({ majority: 'PRAISE_INCREASE', votes: 1, of: 2 });
  });
});

describe('countFlip and deliberationOf', () => {
  const kept = { majority: 'GOAL_ADJUSTMENT', votes: 5, of: 8, flip: false };
  const flip = { ...kept, flip: true };

  it('counts confirmed and rejected flips and kept majorities; inconclusive in decisions and flips only', () => {
    let s = emptyFlipStats();
    s = countFlip(s, flip, 'confirmed');
    s = countFlip(s, kept, 'rejected');
    s = countFlip(s, flip, 'inconclusive');
    s = countFlip(s, kept, 'confirmed');
    s = countFlip(s, kept, 'confirmed');
    // No counted first answer: not a decision the council could have flipped.
    s = countFlip(s, null, 'confirmed');
    expect(s).toEqual({
      decisions: 5,
      flips: 2,
      flips_confirmed: 1,
      flips_rejected: 0,
      kept_confirmed: 2,
      kept_rejected: 1,
    });
    const before = emptyFlipStats();
    countFlip(before, flip, 'confirmed');
    expect(before).toEqual(emptyFlipStats());
    expect(deliberationOf(s)).toEqual({
      decisions: 5,
      flips: 2,
      flip_rate: 0.4,
      flips_confirmed: 1,
      flips_rejected: 0,
      flip_success: 1,
      kept_confirmed: 2,
      kept_rejected: 1,
      kept_success: 0.667,
    });
  });

  it('gives null rates with nothing to divide by, and reads a missing or partial property as zeros', () => {
    const none = {
      decisions: 0,
      flips: 0,
      flip_rate: null,
      flips_confirmed: 0,
      flips_rejected: 0,
      flip_success: null,
      kept_confirmed: 0,
      kept_rejected: 0,
      kept_success: null,
    };
    expect(deliberationOf(null)).toEqual(none);
    expect(deliberationOf(undefined)).toEqual(none);
    expect(deliberationOf({ decisions: 3, flips: 1, flips_rejected: 1 })).toEqual({
      ...none,
      decisions: 3,
      flips: 1,
      flip_rate: 0.333,
      flips_rejected: 1,
      flip_success: 0,
    });
  });
});
