// Every kind of answer states its length and is sent a cap with room above it: at least 1.5 × the 95th percentile of
// realistic answers of the kind, whether the model keeps to the stated length or not, in either language.
import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../../src/core/provider.js';
import { lengthLine } from '../../../src/core/prompts/answer-lengths.js';
import { estimateTokens } from '../../../src/core/prompts/tokens.js';
import { DEFAULT_OUTPUT_CAPS } from '../../../src/core/providers/model-table.js';
import { schemaFor } from '../../../src/core/providers/schema.js';
import { Settings } from '../../../src/core/settings.js';
import { factsOf, realisticAnswer } from '../../../tools/realistic-answer.js';

const KINDS: Expectation[] = [
  'SITUATION_REPORT',
  'SPECIALIST_OPINION',
  'FEEDBACK_RESPONSE',
  'PERSPECTIVE_POSITIVE',
  'PERSPECTIVE_NEGATIVE',
  'PERSPECTIVE_HUMAN',
  'GOVERNANCE_ETHICS',
  'GOVERNANCE_LEGAL',
  'DECISION',
  'LEARNING',
  'REFLECTION',
];
const ALLOW = new Settings({}).get('actions.allow_list');
const METRICS = ['appointments', 'contacts', 'overtime_hours'];
const SEEDS = 200;

// The 95th percentile of the output tokens of realistic answers to a kind's schema, told the kind's length or not.
function p95(kind: Expectation, lang: 'ja' | 'en', told: boolean): number {
  const schema = schemaFor(kind, 'anthropic', ALLOW, METRICS);
  const prompt = `${lang === 'ja' ? 'ですます' : 'plain'}\n${told ? lengthLine(kind, lang) : ''}`;
  const facts = { ...factsOf(prompt), speakers: ['psychology'], metrics: METRICS, today: '2026-01-15' };
  expect(facts.lang).toBe(lang);
  const sizes: number[] = [];
  for (let seed = 1; seed <= SEEDS; seed++)
    sizes.push(estimateTokens(JSON.stringify(realisticAnswer(schema, facts, seed))));
  sizes.sort((a, b) => a - b);
  return sizes[Math.ceil(0.95 * SEEDS) - 1];
}

describe('answer lengths and caps', () => {
  for (const kind of KINDS)
    it(`${kind}: its task states a length, and its cap is ≥ 1.5 × the p95 of realistic answers`, () => {
      expect(lengthLine(kind, 'ja')).toMatch(/^長さ：回答全体で約\d+字/);
      expect(lengthLine(kind, 'en')).toMatch(/^Length: about \d+ words in all/);
      const cap = DEFAULT_OUTPUT_CAPS[kind];
      expect(cap, kind).toBeGreaterThan(0);
      for (const lang of ['ja', 'en'] as const)
        for (const told of [true, false])
          expect(cap, `${kind} ${lang} told ${told}`).toBeGreaterThanOrEqual(1.5 * p95(kind, lang, told));
    });

  it('reads a stated length as a model would: told one, the answers are shorter', () => {
    expect(p95('SPECIALIST_OPINION', 'ja', true)).toBeLessThan(p95('SPECIALIST_OPINION', 'ja', false));
  });
});
