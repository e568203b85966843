// A call's token usage as each vendor reports it, read into one shape: totals, and the parts priced apart.
import type { TokenUsage } from '../provider.js';
import { at, num } from './vendors.js';

// Only the parts a call had: an answer without caching or thinking carries no zero fields.
function withParts(tokensIn: number, tokensOut: number, parts: Omit<TokenUsage, 'tokensIn' | 'tokensOut'>): TokenUsage {
  const u: TokenUsage = { tokensIn, tokensOut };
  if (parts.cachedIn) u.cachedIn = parts.cachedIn;
  if (parts.cacheWriteIn) u.cacheWriteIn = parts.cacheWriteIn;
  if (parts.thinkingOut) u.thinkingOut = parts.thinkingOut;
  return u;
}

// Chat Completions' `usage` (OpenAI and the servers that speak it): prompt_tokens counts the cached ones
// (prompt_tokens_details.cached_tokens), completion_tokens the reasoning ones (completion_tokens_details).
export function chatCompletionsUsage(usage: unknown): TokenUsage {
  return withParts(num(at(usage, 'prompt_tokens')), num(at(usage, 'completion_tokens')), {
    cachedIn: num(at(at(usage, 'prompt_tokens_details'), 'cached_tokens')),
    thinkingOut: num(at(at(usage, 'completion_tokens_details'), 'reasoning_tokens')),
  });
}

// Anthropic's `usage`: input_tokens leaves out the tokens read from and written to the cache, so they are added to
// the prompt's total; output_tokens counts any thinking, which Anthropic does not report apart.
export function anthropicUsage(usage: unknown): TokenUsage {
  const read = num(at(usage, 'cache_read_input_tokens'));
  const wrote = num(at(usage, 'cache_creation_input_tokens'));
  return withParts(num(at(usage, 'input_tokens')) + read + wrote, num(at(usage, 'output_tokens')), {
    cachedIn: read,
    cacheWriteIn: wrote,
  });
}

// Gemini's `usageMetadata`: promptTokenCount counts the cached tokens (cachedContentTokenCount), but
// candidatesTokenCount leaves out the thinking (thoughtsTokenCount), which is billed as output: it is added.
export function geminiUsage(usageMetadata: unknown): TokenUsage {
  const thoughts = num(at(usageMetadata, 'thoughtsTokenCount'));
  return withParts(
    num(at(usageMetadata, 'promptTokenCount')),
    num(at(usageMetadata, 'candidatesTokenCount')) + thoughts,
    {
      cachedIn: num(at(usageMetadata, 'cachedContentTokenCount')),
      thinkingOut: thoughts,
    },
  );
}

// Two calls' usage summed (an answer and its repair call, say): a part either had is kept.
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return withParts(a.tokensIn + b.tokensIn, a.tokensOut + b.tokensOut, {
    cachedIn: (a.cachedIn ?? 0) + (b.cachedIn ?? 0),
    cacheWriteIn: (a.cacheWriteIn ?? 0) + (b.cacheWriteIn ?? 0),
    thinkingOut: (a.thinkingOut ?? 0) + (b.thinkingOut ?? 0),
  });
}
