// Token usage as each vendor reports it: totals that count everything, and the parts priced apart.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, costUsd } from '../../../../src/core/providers/model-table.js';
import { addUsage, anthropicUsage, chatCompletionsUsage, geminiUsage } from '../../../../src/core/providers/usage.js';

describe('each vendor’s usage', () => {
  it('Chat Completions: cached and reasoning tokens are already inside prompt_tokens and completion_tokens', () => {
    const u = chatCompletionsUsage({
      prompt_tokens: 5000,
      completion_tokens: 1800,
      prompt_tokens_details: { cached_tokens: 3072 },
      completion_tokens_details: { reasoning_tokens: 1200 },
    });
    expect(u).toEqual({ tokensIn: 5000, tokensOut: 1800, cachedIn: 3072, thinkingOut: 1200 });
    // A server that reports no details (a local model): totals only, no zero parts.
    expect(chatCompletionsUsage({ prompt_tokens: 10, completion_tokens: 5 })).toEqual({ tokensIn: 10, tokensOut: 5 });
  });

  it('Anthropic: the cache reads and writes are added to input_tokens; thinking is inside output_tokens', () => {
    const u = anthropicUsage({
      input_tokens: 300,
      cache_creation_input_tokens: 4200,
      cache_read_input_tokens: 8000,
      output_tokens: 900,
    });
    expect(u).toEqual({ tokensIn: 12_500, tokensOut: 900, cachedIn: 8000, cacheWriteIn: 4200 });
  });

  it('Gemini: the thinking is added to candidatesTokenCount; the cached tokens are inside promptTokenCount', () => {
    const u = geminiUsage({
      promptTokenCount: 6000,
      cachedContentTokenCount: 2048,
      candidatesTokenCount: 700,
      thoughtsTokenCount: 2500,
      totalTokenCount: 9200,
    });
    expect(u).toEqual({ tokensIn: 6000, tokensOut: 3200, cachedIn: 2048, thinkingOut: 2500 });
    // The vendor's own total: everything was counted.
    expect(u.tokensIn + u.tokensOut).toBe(9200);
  });

  it('reads an answer without usage, or with usage of the wrong kinds, as nothing', () => {
    for (const read of [chatCompletionsUsage, anthropicUsage, geminiUsage]) {
      expect(read(undefined)).toEqual({ tokensIn: 0, tokensOut: 0 });
      expect(read('x')).toEqual({ tokensIn: 0, tokensOut: 0 });
    }
    expect(geminiUsage({ promptTokenCount: '12', thoughtsTokenCount: null })).toEqual({ tokensIn: 0, tokensOut: 0 });
  });

  it('prices each vendor’s answer by its rules through the one formula', () => {
    const haiku = DEFAULT_PRICES['anthropic:claude-haiku-4-5'];
    const u = anthropicUsage({
      input_tokens: 1000,
      cache_creation_input_tokens: 2000,
      cache_read_input_tokens: 3000,
      output_tokens: 400,
    });
    expect(costUsd(haiku, u.tokensIn, u.tokensOut, u)).toBeCloseTo(
      (1000 * 1 + 2000 * 1.25 + 3000 * 0.1 + 400 * 5) / 1e6,
      12,
    );
    const flash = DEFAULT_PRICES['gemini:gemini-2.5-flash'];
    const g = geminiUsage({ promptTokenCount: 1000, candidatesTokenCount: 100, thoughtsTokenCount: 900 });
    expect(costUsd(flash, g.tokensIn, g.tokensOut, g)).toBeCloseTo((1000 * 0.3 + 1000 * 2.5) / 1e6, 12);
  });
});

describe('addUsage', () => {
  it('sums two calls’ usage, keeping every part either had', () => {
    expect(
      addUsage({ tokensIn: 10, tokensOut: 2, cachedIn: 4 }, { tokensIn: 5, tokensOut: 3, thinkingOut: 1 }),
    ).toEqual({
      tokensIn: 15,
      tokensOut: 5,
      cachedIn: 4,
      thinkingOut: 1,
    });
    expect(addUsage({ tokensIn: 1, tokensOut: 1 }, { tokensIn: 1, tokensOut: 1 })).toEqual({
      tokensIn: 2,
      tokensOut: 2,
    });
  });
});
