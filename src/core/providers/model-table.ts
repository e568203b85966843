// What each model takes and costs (SPEC §7.4): the capability table, the output caps by agent group, default prices.
import type { Expectation } from '../provider.js';
import type { Settings } from '../settings.js';
import type { AgentDef } from '../types.js';

// Prices per 1,000 tokens in USD. cached_input is what a prompt token read from the vendor's cache costs, cache_write
// what one written to it costs (Anthropic only); both optional, so a table written before them still reads.
export interface Price {
  input: number;
  output: number;
  cached_input?: number;
  cache_write?: number;
}

// The default models' prices, from the vendors' pricing pages as published in 2025 (OpenAI gpt-4o-mini $0.15 / $0.60
// per million, cached $0.075; Anthropic Claude Haiku 3.5 $0.80 / $4, cache hits $0.08, 5-minute cache writes $1;
// Google Gemini 2.0 Flash $0.10 / $0.40, cached $0.025). Check them against the pages before relying on a budget.
export const DEFAULT_PRICES: Record<string, Price> = {
  'openai:gpt-4o-mini': { input: 0.00015, output: 0.0006, cached_input: 0.000075 },
  'anthropic:claude-3-5-haiku-latest': { input: 0.0008, output: 0.004, cached_input: 0.00008, cache_write: 0.001 },
  'gemini:gemini-2.0-flash': { input: 0.0001, output: 0.0004, cached_input: 0.000025 },
};

// The Settings price table over the defaults: a workbook whose table predates a default model's entry still prices it.
export function pricesOf(s: Settings): Record<string, Price> {
  return { ...DEFAULT_PRICES, ...s.get<Record<string, Price>>('provider.prices_per_1k_tokens_usd') };
}

// What one model takes. A field left out means what most models do: a temperature, the vendor's own cap field, no
// thinking before the answer, and caching from 1,024 tokens (the smallest documented minimum).
export interface ModelCapability {
  // false: the model refuses a temperature (OpenAI's reasoning models), so none is sent.
  temperature?: boolean;
  // The Chat Completions field that carries the output cap: reasoning models take max_completion_tokens only.
  token_field?: 'max_tokens' | 'max_completion_tokens';
  // Tokens a model that thinks before answering may spend on it, added to the agent's cap: the vendor counts them as
  // output, and a cap they use up leaves no answer.
  reasoning_tokens?: number;
  // The shortest prompt prefix the vendor caches, in tokens: a cache breakpoint on a shorter block caches nothing.
  cache_min_tokens?: number;
}

const REASONING: ModelCapability = {
  temperature: false,
  token_field: 'max_completion_tokens',
  reasoning_tokens: 8000,
  cache_min_tokens: 1024,
};

// By model name or the start of one (the longest match wins, field by field). The cache minimums are the documented
// ones: OpenAI caches prompts of 1,024 tokens and more; Anthropic's prompt-caching page gives 1,024 for Claude
// Sonnet 3.7 / 4 / 4.5 and Opus 4 / 4.1, 2,048 for Haiku 3 / 3.5 and Sonnet 4.6, 4,096 for Haiku 4.5 and Opus 4.5 /
// 4.6; Google's caching page gives 2,048 for Gemini 2.5 Flash and 2.5 Pro (it gave 1,024 and 4,096 earlier in 2025).
// Gemini 2.5 models think before answering, and their thinking counts toward maxOutputTokens.
export const DEFAULT_CAPABILITIES: Record<string, ModelCapability> = {
  'gpt-4o': { cache_min_tokens: 1024 },
  'gpt-4.1': { cache_min_tokens: 1024 },
  o1: REASONING,
  o3: REASONING,
  'o4-mini': REASONING,
  'gpt-5': REASONING,
  'claude-3-haiku': { cache_min_tokens: 2048 },
  'claude-3-5-haiku': { cache_min_tokens: 2048 },
  'claude-3-7-sonnet': { cache_min_tokens: 1024 },
  'claude-sonnet-4': { cache_min_tokens: 1024 },
  'claude-sonnet-4-6': { cache_min_tokens: 2048 },
  'claude-opus-4': { cache_min_tokens: 1024 },
  'claude-opus-4-5': { cache_min_tokens: 4096 },
  'claude-opus-4-6': { cache_min_tokens: 4096 },
  'claude-haiku-4-5': { cache_min_tokens: 4096 },
  'gemini-2.5-flash': { cache_min_tokens: 2048, reasoning_tokens: 8000 },
  'gemini-2.5-pro': { cache_min_tokens: 2048, reasoning_tokens: 8000 },
};

// A model's capabilities resolved: every field set.
export interface Capability {
  temperature: boolean;
  token_field?: 'max_tokens' | 'max_completion_tokens';
  reasoning_tokens: number;
  cache_min_tokens: number;
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;

// A model's capabilities from a table: every key its name starts with (as given, as vendor:model, or after a gateway's
// "vendor/" prefix), applied shortest first so the most specific entry has the last word on each field. A field of
// the wrong kind (the table is a person's JSON) is passed over.
export function capabilityOf(table: Record<string, ModelCapability>, vendor: string, model: string): Capability {
  const names = [model, `${vendor}:${model}`, model.slice(model.lastIndexOf('/') + 1)];
  const keys = Object.keys(table)
    .filter((k) => k !== '' && names.some((n) => n.indexOf(k) === 0))
    .sort((a, b) => a.length - b.length);
  const out: Capability = { temperature: true, reasoning_tokens: 0, cache_min_tokens: 1024 };
  for (const k of keys) {
    const c = (table[k] ?? {}) as Record<string, unknown>;
    if (typeof c.temperature === 'boolean') out.temperature = c.temperature;
    if (c.token_field === 'max_tokens' || c.token_field === 'max_completion_tokens') out.token_field = c.token_field;
    out.reasoning_tokens = count(c.reasoning_tokens) ?? out.reasoning_tokens;
    out.cache_min_tokens = count(c.cache_min_tokens) ?? out.cache_min_tokens;
  }
  return out;
}

// Output tokens an agent may write in one answer, by its group; a room answer (up to 2,000 characters, a token a
// character in Japanese) has its own. An agent's own max_output_tokens (the Agents tab) comes first.
export const DEFAULT_OUTPUT_CAPS: Record<string, number> = {
  specialist: 1200,
  balancer: 900,
  governance: 900,
  decider: 3000,
  room: 2500,
};

// The cap when neither the agent nor the Settings map names one.
const FALLBACK_CAP = 1500;

export function outputCap(agent: AgentDef, expect: Expectation, caps: Record<string, number>): number {
  if (agent.max_output_tokens && agent.max_output_tokens > 0) return Math.floor(agent.max_output_tokens);
  const byKind = expect === 'ROOM_ANSWER' ? caps.room : undefined;
  const n = Number(byKind ?? caps[agent.group] ?? FALLBACK_CAP);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : FALLBACK_CAP;
}
