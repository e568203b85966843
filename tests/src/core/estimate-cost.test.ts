// The estimate split by model and priced from the price table, and the running totals per phase for the log row.
import { describe, expect, it } from 'vitest';
import { costByModel, estimateDiscussion, spentOf } from '../../../src/core/engine/estimate.js';
import type { Message } from '../../../src/core/discussion/messages.js';
import { newDiscussion, testEnv } from './env.js';

describe('costByModel', () => {
  it('labels each planned prompt with its model and prices input and output per 1,000 tokens', () => {
    const env = testEnv({ lang: 'ja' });
    // The deciders on one model, everyone else on another.
    const e = estimateDiscussion(newDiscussion(), env, (a) =>
      a.group === 'decider' ? 'anthropic:claude' : 'openai:gpt-4o-mini',
    );
    expect(e.perPrompt.length).toBe(e.prompts);
    expect(e.perPrompt.reduce((a, p) => a + p.input + p.output, 0)).toBe(e.tokens);
    const prices: Record<string, { input: number; output: number }> = {
      'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
    };
    const c = costByModel(e, (m) => prices[m] ?? null);
    expect(c.byModel.map((m) => m.model)).toEqual(['openai:gpt-4o-mini', 'anthropic:claude']);
    const [mini, claude] = c.byModel;
    expect(claude).toEqual({ model: 'anthropic:claude', prompts: 1, tokens: expect.any(Number), cost_usd: 0 });
    expect(mini.prompts + claude.prompts).toBe(e.prompts);
    expect(mini.tokens + claude.tokens).toBe(e.tokens);
    const minis = e.perPrompt.filter((p) => p.model === 'openai:gpt-4o-mini');
    const expected = minis.reduce((a, p) => a + (p.input * 0.15 + p.output * 0.6) / 1000, 0);
    expect(mini.cost_usd).toBeCloseTo(expected, 6);
    expect(c.cost_usd).toBe(mini.cost_usd);
  });
});

describe('spentOf', () => {
  it('totals tokens and cost overall and per phase, readable in a cell', () => {
    const m = (phase: number, tokens: number, cost?: number) =>
      ({ phase, metadata: { tokens_consumed: tokens, cost_usd: cost } }) as unknown as Message;
    const s = spentOf([m(1, 1234, 0.0012), m(2, 5000, 0.004), m(2, 678, 0.006), m(3, 10)]);
    expect(s.tokens).toBe(6922);
    expect(s.cost_usd).toBe(0.0112);
    expect(s.by_phase).toBe('P1 1,234 tok $0.0012 | P2 5,678 tok $0.0100 | P3 10 tok $0.0000');
    expect(spentOf([])).toEqual({ tokens: 0, cost_usd: 0, by_phase: '' });
  });
});
