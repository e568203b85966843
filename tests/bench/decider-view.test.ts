// What the realistic bench reads from recorded requests: the decider's view of the opinions, and schema bounds.
import { describe, expect, it } from 'vitest';
import { deciderSeesAll, deciderView, kindOf, maxSchemaRepeat, type SentRequest } from '../../bench/decider-view.js';
import { earlierText } from '../../src/core/prompts/whole-answers.js';

const decision = { type: 'object', properties: { deliberation: {}, order: {} } };
const opinion = (speaker: string, hypothesis: string, action: string, meta: Record<string, unknown> = {}) => ({
  message_id: `M-${speaker}`,
  phase: 2,
  message_type: 'SPECIALIST_OPINION',
  speaker,
  content: {
    analysis: `The numbers ⟦mark 1.${speaker.length}⟧ say so.`,
    evidence: ['contacts 12 → 5'],
    hypothesis,
    confidence: 0.8,
    recommendation: { action_type: action, intensity: 'medium' },
  },
  metadata: { computed_confidence: 0.7, ...meta },
});
const record = [
  opinion('psychology', 'Praise fell first, then contacts: recognition is the lever here.', 'PRAISE_INCREASE'),
  opinion('wellbeing', 'Overtime doubled a week before the slump; fatigue explains it.', 'REST_RECOMMENDATION', {
    substitute: 'coaching',
  }),
  opinion('coaching', 'A default opinion', 'ONE_ON_ONE', { default_opinion: true }),
];
// What the engine sends the decider: every answer whole (src/core/prompts/whole-answers.ts), and the votes.
const votes = (rows: string) =>
  `<data name="weights_and_votes_computed_by_kaigi">\nagent_id,band\n\naction_type,score,agents (highest first)\n${rows}\n</data>`;
const full = `${earlierText(record as never, 'all')}\n${votes('PRAISE_INCREASE,0.6,psychology\nREST_RECOMMENDATION,0.4,wellbeing')}`;

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

describe('deciderView', () => {
  it('holds when the decider request holds every answer whole, its marks, the substitute and sorted votes', () => {
    expect(full).toContain('[P2 wellbeing] opinion REST_RECOMMENDATION/medium');
    expect(deciderView([openai(full)], record)).toEqual({
      marks_total: 2,
      marks_found: 2,
      answers_whole: true,
      substitutes: 1,
      substitutes_marked: 1,
      votes_sorted: true,
    });
    expect(deciderSeesAll([openai(full)], record)).toBe(true);
  });

  it('fails when an answer is cut, a mark is missing, votes are unsorted or no decider request was sent', () => {
    expect(deciderSeesAll([openai(full.replace(/Overtime doubled/, 'Overtime'))], record)).toBe(false);
    expect(deciderView([openai(full.replace('⟦mark 1.10⟧', ''))], record).marks_found).toBe(1);
    expect(deciderView([openai(full.replace(' substitute-answer-by-coaching', ''))], record).substitutes_marked).toBe(
      0,
    );
    const unsorted = full.replace('PRAISE_INCREASE,0.6', 'PRAISE_INCREASE,0.3');
    expect(deciderView([openai(unsorted)], record).votes_sorted).toBe(false);
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
