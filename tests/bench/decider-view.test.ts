// What the realistic bench reads from recorded requests: the decider's view of the opinions, and schema bounds.
import { describe, expect, it } from 'vitest';
import { deciderSeesAll, kindOf, maxSchemaRepeat, type SentRequest } from '../../bench/decider-view.js';

const decision = { type: 'object', properties: { deliberation: {}, order: {} } };
const opinion = (speaker: string, hypothesis: string, action: string) => ({
  phase: 2,
  message_type: 'SPECIALIST_OPINION',
  speaker,
  content: { hypothesis, recommendation: { action_type: action } },
});
const record = [
  opinion('psychology', 'Praise fell first, then contacts: recognition is the lever here.', 'PRAISE_INCREASE'),
  opinion('wellbeing', 'Overtime doubled a week before the slump; fatigue explains it.', 'REST_RECOMMENDATION'),
  { ...opinion('coaching', 'A default opinion', 'ONE_ON_ONE'), metadata: { default_opinion: true } },
];

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
  const full = JSON.stringify(record.slice(0, 2).map((m) => m.content));

  it('holds when the decider request quotes every opinion (default ones aside) with its action type', () => {
    expect(deciderSeesAll([openai(full)], record)).toBe(true);
  });

  it('fails when an opinion is cut to its action type, or no decider request was sent', () => {
    const cut = `${full.replace(/Overtime doubled/, 'Overtime')}`;
    expect(deciderSeesAll([openai(cut)], record)).toBe(false);
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
