// What the realistic bench reads from recorded requests: the decider's view of the opinions, and schema bounds.
import { describe, expect, it } from 'vitest';
import { deciderSeesAll, kindOf, maxSchemaRepeat, type SentRequest } from '../../bench/decider-view.js';
import { digestLines } from '../../src/core/prompts/digest.js';

const decision = { type: 'object', properties: { deliberation: {}, order: {} } };
const opinion = (speaker: string, hypothesis: string, action: string, computed = 0.7) => ({
  phase: 2,
  message_type: 'SPECIALIST_OPINION',
  speaker,
  content: {
    analysis: 'a',
    evidence: ['contacts 12 → 5'],
    hypothesis,
    confidence: 0.8,
    recommendation: { action_type: action, intensity: 'medium' },
  },
  metadata: { computed_confidence: computed },
});
const record = [
  opinion('psychology', 'Praise fell first, then contacts: recognition is the lever here.', 'PRAISE_INCREASE'),
  opinion('wellbeing', 'Overtime doubled a week before the slump; fatigue explains it.', 'REST_RECOMMENDATION'),
  { ...opinion('coaching', 'A default opinion', 'ONE_ON_ONE'), metadata: { default_opinion: true } },
];
// What the engine sends the decider: one digest line per answer (src/core/prompts/digest.ts).
const full = digestLines(record as never).join('\n');

function openai(user: string, schema: any = decision): SentRequest {
  return {
    vendor: 'openai',
    schema,
    body: {
      messages: [
        { role: 'system', content: 'You are the decider.' },
        { role: 'user', content: user },
      ],
      response_format: { json_schema: { name: 'decision', schema } },
    },
  };
}

describe('deciderSeesAll', () => {
  it('holds when the decider request holds every Phase 2 digest in full', () => {
    expect(full).toContain('[P2 psychology] opinion PRAISE_INCREASE/medium confidence stated 0.8 computed 0.7');
    expect(deciderSeesAll([openai(full)], record)).toBe(true);
  });

  it('fails when a digest is cut or its confidence changed, or no decider request was sent', () => {
    expect(deciderSeesAll([openai(full.replace(/Overtime doubled/, 'Overtime'))], record)).toBe(false);
    expect(deciderSeesAll([openai(full.replace('computed 0.7', 'computed 0.6'))], record)).toBe(false);
    expect(deciderSeesAll([openai(full, { type: 'object', properties: { hypothesis: {} } })], record)).toBe(false);
  });

  it('does not count what only the answer schema says', () => {
    const schema = { ...decision, description: full };
    expect(deciderSeesAll([openai('nothing', schema)], record)).toBe(false);
  });

  it('reads Gemini and Anthropic requests, whose schemas carry no name', () => {
    const gemini: SentRequest = {
      vendor: 'gemini',
      schema: decision,
      body: { contents: [{ parts: [{ text: full }] }], generationConfig: { responseSchema: decision } },
    };
    expect(kindOf(gemini)).toEqual({ kind: 'decision', phase: 5 });
    expect(deciderSeesAll([gemini], record)).toBe(true);
  });
});

it('maxSchemaRepeat: the largest {n,m} of a pattern or maxLength', () => {
  const s = {
    properties: {
      a: { pattern: '^[\\s\\S]{1,1200}$' },
      b: { maxLength: '300' },
      c: { anyOf: [{ pattern: '^\\d{4}-\\d{2}$' }, { type: 'null' }] },
    },
  };
  expect(maxSchemaRepeat([s])).toBe(1200);
  expect(maxSchemaRepeat([{ maxLength: 20000 }, s])).toBe(20000);
});
