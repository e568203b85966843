// Digest lines are kept per message: the same message reads the same, and one whose content was replaced is read again.
import { describe, expect, it } from 'vitest';
import { digestLines } from '../../../../src/core/prompts/digest.js';
import type { Message } from '../../../../src/core/discussion/messages.js';

const question = (text: string): Message =>
  ({
    message_id: 'MSG-DISC-2026-03-02-001-001',
    discussion_id: 'DISC-2026-03-02-001',
    phase: 2,
    speaker: 'decider',
    message_type: 'FEEDBACK_REQUEST',
    timestamp: '2026-03-02T01:00:00Z',
    content: { question: text, target_agent: 'coaching' },
    metadata: { processing_time_ms: 0, model_used: 'kaigi', tokens_consumed: 0, fallback_level: 0, step_key: 'k' },
  }) as Message;

describe('digestLines', () => {
  it('reads a message again once its content is replaced', () => {
    const m = question('Why now? More text.');
    expect(digestLines([m])).toEqual(['[P2 decider] question to coaching | Why now?']);
    expect(digestLines([m])).toEqual(['[P2 decider] question to coaching | Why now?']);
    m.content = { question: 'Which data? Other text.', target_agent: 'coaching' };
    expect(digestLines([m])).toEqual(['[P2 decider] question to coaching | Which data?']);
  });
});
