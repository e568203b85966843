// What each model takes and costs: the capability table, the output caps by agent group, default prices.
import type { Expectation, TokenUsage } from '../provider.js';
import type { ReadsSetting } from '../setting-def.js';
import type { AgentDef } from '../types.js';
import { hasOwn } from '../json-guard.js';

// Prices per 1,000 tokens in USD. cached_input is what a prompt token read from the vendor's cache costs, cache_write
// what one written to it costs (Anthropic only); both optional, so a table written before them still reads.
export interface Price {
  input: number;
  output: number;
  cached_input?: number;
  cache_write?: number;
}

// When the prices below were read from the vendors' pricing pages (Settings provider.prices_taken says it beside the
// table): list prices per million tokens, standard tier, prompts under 200k tokens where a vendor charges more above.
const TAKEN = '2026-11';
export const PRICES_TAKEN = `as published, taken ${TAKEN}`;

// Each billing vendor's default model (its module's defaultModel; tests/src/core/model-table.test.ts checks they
// agree and renders this table into docs/providers.md), why it is the default, and where and when its price was read.
export interface VendorDefault {
  model: string;
  why: string;
  pricing: string;
  taken: string;
}

export const VENDOR_DEFAULTS: Record<string, VendorDefault> = {
  openai: {
    model: 'gpt-4.1-mini',
    why:
      'current and cheap, with strict structured outputs; it takes each agent’s temperature and does not think first, ' +
      'so no reasoning tokens are paid for or waited on inside UrlFetchApp’s 60 s (gpt-5-mini refuses a temperature ' +
      'and would add up to 8,000 reasoning tokens an answer)',
    pricing: 'https://platform.openai.com/docs/pricing',
    taken: TAKEN,
  },
  anthropic: {
    model: 'claude-haiku-4-5',
    why: 'the current Haiku: claude-3-5-haiku-latest was retired on 2026-02-19',
    pricing: 'https://platform.claude.com/docs/en/about-claude/pricing',
    taken: TAKEN,
  },
  gemini: {
    model: 'gemini-2.5-flash',
    why: 'the current Flash: gemini-2.0-flash is deprecated. It thinks first: its thinking tokens are billed as output',
    pricing: 'https://ai.google.dev/gemini-api/docs/pricing',
    taken: TAKEN,
  },
};

// Per 1,000 tokens: every default model of every vendor (provider.default_models), and the others each vendor
// lists, so a model without an entry has a dearest model of its vendor to be priced at; retired models are left out.
// OpenAI: cached input is the cache-read price. Anthropic: cached_input a cache hit, cache_write a 5-minute cache
// write. Gemini: context caching.
export const DEFAULT_PRICES: Record<string, Price> = {
  'openai:gpt-4o-mini': { input: 0.00015, output: 0.0006, cached_input: 0.000075 },
  'openai:gpt-4o': { input: 0.0025, output: 0.01, cached_input: 0.00125 },
  'openai:gpt-4.1': { input: 0.002, output: 0.008, cached_input: 0.0005 },
  'openai:gpt-4.1-mini': { input: 0.0004, output: 0.0016, cached_input: 0.0001 },
  'openai:gpt-4.1-nano': { input: 0.0001, output: 0.0004, cached_input: 0.000025 },
  'openai:gpt-5': { input: 0.00125, output: 0.01, cached_input: 0.000125 },
  'openai:gpt-5-mini': { input: 0.00025, output: 0.002, cached_input: 0.000025 },
  'openai:gpt-5-nano': { input: 0.00005, output: 0.0004, cached_input: 0.000005 },
  'openai:o3': { input: 0.002, output: 0.008, cached_input: 0.0005 },
  'openai:o4-mini': { input: 0.0011, output: 0.0044, cached_input: 0.000275 },
  'openai:o1': { input: 0.015, output: 0.06, cached_input: 0.0075 },
  'anthropic:claude-haiku-4-5': { input: 0.001, output: 0.005, cached_input: 0.0001, cache_write: 0.00125 },
  'anthropic:claude-sonnet-4-6': { input: 0.003, output: 0.015, cached_input: 0.0003, cache_write: 0.00375 },
  'anthropic:claude-sonnet-4-5': { input: 0.003, output: 0.015, cached_input: 0.0003, cache_write: 0.00375 },
  'anthropic:claude-sonnet-4': { input: 0.003, output: 0.015, cached_input: 0.0003, cache_write: 0.00375 },
  'anthropic:claude-opus-4-6': { input: 0.005, output: 0.025, cached_input: 0.0005, cache_write: 0.00625 },
  'anthropic:claude-opus-4-5': { input: 0.005, output: 0.025, cached_input: 0.0005, cache_write: 0.00625 },
  'anthropic:claude-opus-4-1': { input: 0.015, output: 0.075, cached_input: 0.0015, cache_write: 0.01875 },
  'gemini:gemini-2.0-flash': { input: 0.0001, output: 0.0004, cached_input: 0.000025 },
  'gemini:gemini-2.5-flash-lite': { input: 0.0001, output: 0.0004, cached_input: 0.00001 },
  'gemini:gemini-2.5-flash': { input: 0.0003, output: 0.0025, cached_input: 0.00003 },
  'gemini:gemini-2.5-pro': { input: 0.00125, output: 0.01, cached_input: 0.000125 },
};

// The Settings price table over the defaults: a workbook whose table predates a default model's entry still prices it.
export function pricesOf(
  s: ReadsSetting<'provider.prices_per_1k_tokens_usd', Record<string, Price>>,
): Record<string, Price> {
  return { ...DEFAULT_PRICES, ...s.get('provider.prices_per_1k_tokens_usd') };
}

// The parts of an answer's usage its vendor prices apart (see TokenUsage): an AgentResponse can be passed as it is.
export type UsageParts = Omit<TokenUsage, 'tokensIn' | 'tokensOut'>;

const part = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
const rate = (r: unknown, otherwise: number): number => (typeof r === 'number' && Number.isFinite(r) ? r : otherwise);

// What an answer of `tokensIn` prompt and `tokensOut` output tokens costs at a price per 1,000 tokens, in USD: the one
// cost formula of messages, room answers, reflections and estimates, by the vendors' rules. Of the prompt, tokens
// read from the cache cost cached_input and tokens written to it cache_write (each the input price where the table
// has none), the rest input. Every output token costs output, thinking included: thinkingOut is inside tokensOut (as
// OpenAI's reasoning and Anthropic's thinking tokens are; Gemini's are added to it by usage.ts). A total smaller than
// its parts is taken as the parts, so a part is never free. No price (the rules, a local model) costs 0.
export function costUsd(
  price: Price | null | undefined,
  tokensIn: number,
  tokensOut: number,
  parts: UsageParts = {},
): number {
  if (!price) return 0;
  const read = part(parts.cachedIn);
  const wrote = part(parts.cacheWriteIn);
  const plain = Math.max(0, tokensIn - read - wrote);
  const out = Math.max(tokensOut, part(parts.thinkingOut));
  return (
    (plain * price.input +
      read * rate(price.cached_input, price.input) +
      wrote * rate(price.cache_write, price.input) +
      out * price.output) /
    1000
  );
}

// A cost as records keep it: to the millionth of a dollar.
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

// A model's price, and the entry it was read from when the model has none of its own (stand_in).
export interface ModelPrice {
  price: Price;
  stand_in: string | null;
}

// A dated release (claude-sonnet-4-5-20250929, gpt-4o-2024-08-06) or -latest of a model in the table is that model.
const RELEASE = /^-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

const dearer = (a: Price, b: Price): boolean => a.output > b.output || (a.output === b.output && a.input > b.input);

// What a provider:model costs: its entry, or its release's; else the dearest model of its vendor in the table, so a
// budget never counts a priced vendor's model as free (the council tells a person once that it did so). A vendor
// with no entry at all (rules, a local openai-compatible server) has no price, and its answers cost nothing.
export function modelPrice(prices: Record<string, Price>, model: string): ModelPrice | null {
  if (hasOwn(prices, model)) return { price: prices[model], stand_in: null };
  const release = Object.keys(prices).find((k) => model.indexOf(k) === 0 && RELEASE.test(model.slice(k.length)));
  if (release) return { price: prices[release], stand_in: null };
  const colon = model.indexOf(':');
  if (colon <= 0) return null;
  const vendor = model.slice(0, colon + 1);
  let best: string | null = null;
  for (const k of Object.keys(prices))
    if (k.indexOf(vendor) === 0 && isPrice(prices[k]) && (best === null || dearer(prices[k], prices[best]))) best = k;
  return best === null ? null : { price: prices[best], stand_in: best };
}

// A table entry a person wrote: only one with numeric input and output prices can stand in for another model.
function isPrice(p: unknown): p is Price {
  const x = p as Price;
  return !!x && typeof x === 'object' && typeof x.input === 'number' && typeof x.output === 'number';
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

// By model name or the start of one (the longest match wins, field by field): every model of the price table matches
// a row, and every row a priced model (tests/src/core/model-table.test.ts). The cache minimums are the documented
// ones: OpenAI caches prompts of 1,024 tokens and more; Anthropic's prompt-caching page gives 1,024 for Claude
// Sonnet 4 / 4.5 and Opus 4 / 4.1, 2,048 for Sonnet 4.6, 4,096 for Haiku 4.5 and Opus 4.5 / 4.6; Google's caching
// page gives 2,048 for Gemini 2.5 Flash and 2.5 Pro (it gave 1,024 and 4,096 earlier in 2025). Gemini 2.5 Flash and
// Pro think before answering, and their thinking counts toward maxOutputTokens; 2.5 Flash-Lite and 2.0 Flash do not
// unless asked to.
export const DEFAULT_CAPABILITIES: Record<string, ModelCapability> = {
  'gpt-4o': { cache_min_tokens: 1024 },
  'gpt-4.1': { cache_min_tokens: 1024 },
  o1: REASONING,
  o3: REASONING,
  'o4-mini': REASONING,
  'gpt-5': REASONING,
  'claude-sonnet-4': { cache_min_tokens: 1024 },
  'claude-sonnet-4-6': { cache_min_tokens: 2048 },
  'claude-opus-4': { cache_min_tokens: 1024 },
  'claude-opus-4-5': { cache_min_tokens: 4096 },
  'claude-opus-4-6': { cache_min_tokens: 4096 },
  'claude-haiku-4-5': { cache_min_tokens: 4096 },
  'gemini-2.5-flash': { cache_min_tokens: 2048, reasoning_tokens: 8000 },
  'gemini-2.5-pro': { cache_min_tokens: 2048, reasoning_tokens: 8000 },
  'gemini-2.5-flash-lite': { reasoning_tokens: 0 },
  'gemini-2.0-flash': { reasoning_tokens: 0 },
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

// Output tokens an agent may write in one answer: by the kind of answer, else by the agent's group. Each kind's cap
// is at least 1.5 × the 95th percentile of realistic answers of that kind in Japanese, the longer language (a token a
// character), which tests/src/core/answer-caps.test.ts checks; a room answer (up to 2,000 characters) has its own.
// An agent's own max_output_tokens (the Agents tab) comes first.
export const DEFAULT_OUTPUT_CAPS: Record<string, number> = {
  SITUATION_REPORT: 2400,
  SPECIALIST_OPINION: 2600,
  FEEDBACK_RESPONSE: 1100,
  PERSPECTIVE_POSITIVE: 1400,
  PERSPECTIVE_NEGATIVE: 1900,
  PERSPECTIVE_HUMAN: 1900,
  GOVERNANCE_ETHICS: 800,
  GOVERNANCE_LEGAL: 800,
  DECISION: 4100,
  LEARNING: 1600,
  REFLECTION: 1400,
  specialist: 2600,
  balancer: 1900,
  governance: 800,
  decider: 4100,
  room: 2500,
};

// The cap when neither the agent nor the Settings map names one.
const FALLBACK_CAP = 1500;

export function outputCap(agent: AgentDef, expect: Expectation, caps: Record<string, number>): number {
  if (agent.max_output_tokens && agent.max_output_tokens > 0) return Math.floor(agent.max_output_tokens);
  const byKind = expect === 'ROOM_ANSWER' ? (caps.ROOM_ANSWER ?? caps.room) : caps[expect];
  const n = Number(byKind ?? caps[agent.group] ?? FALLBACK_CAP);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : FALLBACK_CAP;
}
