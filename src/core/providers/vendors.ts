// What a model vendor module registers, and the helpers every vendor's wire format shares (URLs, repair, retries).
import type { AgentRequest, TokenUsage } from '../provider.js';
import type { ReadsSetting } from '../setting-def.js';
import type { Capability } from './model-table.js';
import type { JsonSchema } from './json-schema.js';
import { parseInstant } from '../instant.js';

export interface WireRequest {
  url: string;
  method: 'post';
  contentType: 'application/json';
  headers: Record<string, string>;
  payload: string;
}

export interface Call {
  req: AgentRequest;
  // Calls in this call's round (sent together): a cache breakpoint pays only when another call reads it.
  roundSize?: number;
  model: string;
  // The answer's output cap in tokens (the agent's, and what the model may spend thinking) and what the model takes.
  maxTokens: number;
  capability: Capability;
  repair?: { previous: string; errors: string };
}

// One text of a call and what it is: instructions (Kaigi's own words and its configuration) or data (fenced, and
// possibly written by anyone: a trigger, a member row, a model's answer, a person's objection).
export interface PromptPart {
  kind: 'instructions' | 'data';
  text: string;
}

// A call's texts in the order they are sent, the most shared first so vendors can cache the prefix: the preamble
// (every call of the discussion), the shared data (every call of the phase), the task and role (this agent), then
// the agent's own data. An empty one is left out. Each vendor sends instructions as its system message where it can
// and data only in user turns, so no untrusted text ever reaches a system message.
export function promptParts(req: AgentRequest): PromptPart[] {
  const role = [req.task ?? '', req.system].filter((t) => t !== '').join('\n\n');
  const parts: PromptPart[] = [
    { kind: 'instructions', text: req.preamble ?? '' },
    { kind: 'data', text: req.shared ?? '' },
    { kind: 'instructions', text: role },
    { kind: 'data', text: req.user },
  ];
  return parts.filter((p) => p.text !== '');
}

// The first instructions (the system message of a vendor that has one, at the top), and everything after them as
// the user turn's blocks in order: vendors whose system prompt cannot sit between messages (Anthropic, Gemini)
// send the agent's role and task after the shared data, in the user turn, so the data prefix is shared by every
// agent of a phase.
export function systemAndTurn(req: AgentRequest): { system: string; turn: string[] } {
  const parts = promptParts(req);
  const head = parts[0]?.kind === 'instructions' ? parts.shift()!.text : '';
  return { system: head, turn: parts.map((p) => p.text) };
}

// A call with its answer's JSON Schema, already in the vendor's dialect, and the schema's name.
export interface StructuredCall extends Call {
  schema: JsonSchema;
  schemaName: string;
  // Every answer asked for in this call's round (its own included), by schema name and in that order: a vendor that
  // caches the tools as part of a prompt's prefix (Anthropic) offers them all, so the round's calls share one prefix.
  round?: { name: string; expect: string; schema: JsonSchema }[];
}

// The answer's text, and its usage with the parts a vendor prices apart (src/core/providers/usage.ts reads them).
export interface Parsed extends TokenUsage {
  text?: string;
  error?: string;
  // The answer stopped at the output cap, in the vendor's words (finish_reason length, stop_reason max_tokens,
  // finishReason MAX_TOKENS): it is cut, whatever text came with it.
  cut?: string;
}

export interface SchemaShaper {
  // Turns the generic schema (objects closed, action types an enum) into what this vendor's structured output accepts.
  shapeSchema(s: JsonSchema): JsonSchema;
}

// A vendor's wire format, as narrow as a model interface can be (compare openai-agents-js Model.getResponse):
// one request out, one 2xx body back. Retries, repair policy and validation stay in HttpProvider.
export interface WireFormat extends SchemaShaper {
  build(call: StructuredCall, key: string, baseUrl: string): WireRequest;
  // Reads a 2xx answer; anything unreadable is an error the caller treats as an unusable answer.
  parse(body: string): Parsed;
}

// Everything Kaigi knows about one vendor; src/core/providers/vendor-registry.ts lists them.
export interface VendorModule<N extends string = string> {
  readonly name: N;
  readonly wire: WireFormat;
  // Script Property holding the key, and the environment variable the command line reads it from.
  readonly keyProperty: string;
  readonly envKey: string;
  // Used when Settings give no base URL; empty when the vendor has no endpoint of its own.
  readonly defaultBaseUrl: string;
  readonly defaultModel: string;
  // Where Settings keep its base URL: its entry in the provider.base_urls map, or the shared provider.base_url row.
  readonly baseUrlSetting: 'provider.base_urls' | 'provider.base_url';
  // What a call cannot be made without.
  readonly needs: { readonly key: boolean; readonly baseUrl: boolean };
  // The vendor bills prompt tokens read from its cache for less, so a round's first call goes alone to write the
  // cache the others read (src/core/providers/http.ts). Not for a server of unknown kind: a local server's prefix cache
  // lives in one slot, and what a gateway caches is its own.
  readonly warmsCache: boolean;
}

// Keeps the name a literal type, so the registry can derive the Vendor union from its list.
export function defineVendor<const N extends string>(v: VendorModule<N>): VendorModule<N> {
  return v;
}

// The base URL Settings give a vendor: the shared row, or the vendor's entry in the map.
type BaseUrlSettings = ReadsSetting<'provider.base_url', string> &
  ReadsSetting<'provider.base_urls', Record<string, string>>;

export function settingsBaseUrl(v: VendorModule, s: BaseUrlSettings): string {
  if (v.baseUrlSetting === 'provider.base_url') return s.get('provider.base_url');
  return s.get('provider.base_urls')[v.name] ?? '';
}

// Why a call cannot be made with this key and base URL, or null when it can.
export function missingFor(v: VendorModule, x: { key: string; baseUrl: string }): string | null {
  if (v.needs.key && !x.key) return 'no API key is set';
  if (v.needs.baseUrl && !x.baseUrl) return `no base URL is set (Settings: ${v.baseUrlSetting})`;
  return null;
}

// A copy of s holding only the keywords a vendor accepts, in s's order (the order reaches the wire). Any other keyword
// is a constraint the answer will be checked against that this vendor would not be told of, so it is an error, unless
// `ignorable` names it: a keyword whose absence only lets through what the answer's check accepts anyway.
export function keepOnly(
  s: JsonSchema,
  keywords: readonly string[],
  dialect: string,
  ignorable: readonly string[] = [],
): JsonSchema {
  const out: JsonSchema = {};
  for (const k of Object.keys(s)) {
    if (keywords.indexOf(k) >= 0) out[k] = s[k];
    else if (ignorable.indexOf(k) < 0) throw new Error(`${dialect} cannot express the JSON Schema keyword "${k}"`);
  }
  return out;
}

// Appended when an answer was cut at its cap and is asked again with a larger one.
export function briefText(lang: 'ja' | 'en'): string {
  return lang === 'ja'
    ? '（前回の回答は長さの上限で途切れました。各欄を要点だけに絞り、短く答え直してください。）'
    : '(Your previous answer was cut off at the length limit. Answer again, shorter: keep each field to its point.)';
}

export function repairText(errors: string, lang: 'ja' | 'en'): string {
  return lang === 'ja'
    ? `直前の JSON はスキーマに合いませんでした：${errors}\nスキーマに合う JSON だけを返し直してください。`
    : `Your previous JSON did not match the schema: ${errors}\nReturn corrected JSON that matches the schema, and nothing else.`;
}

// Appends a path to a base URL that may carry a query (Azure-style deployments put api-version there).
export function join(base: string, path: string): string {
  const q = base.indexOf('?');
  const head = (q < 0 ? base : base.slice(0, q)).replace(/\/+$/, '');
  return head + path + (q < 0 ? '' : base.slice(q));
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

// A field of a parsed JSON value, or undefined when the value is not an object: answers are read without trusting them.
export function at(v: unknown, key: string): unknown {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
}

// The first element of a JSON array, or undefined.
export function first(v: unknown): unknown {
  return Array.isArray(v) ? v[0] : undefined;
}

// A parsed body, or the error every vendor reports for one that is not JSON.
export function readJson(body: string): { ok: true; value: unknown } | { ok: false; parsed: Parsed } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false, parsed: { tokensIn: 0, tokensOut: 0, error: 'the response body is not JSON' } };
  }
}

// Retried: 408, 429, 500, 502, 503, 504, 529 (Anthropic's "overloaded") and network errors; never 400, 401, 403 or 422.
export function retryable(code: number): boolean {
  return code === 408 || code === 429 || code === 500 || code === 502 || code === 503 || code === 504 || code === 529;
}

// The wait a Google error body asks for: Gemini gives a 429 no Retry-After header but a google.rpc.RetryInfo detail,
// {"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"37s"}]}}, its delay a
// protobuf Duration ("37s", "1.5s"). Null for any other body: the body is the server's, read without trusting it.
export function retryInfoMs(body: string): number | null {
  let j: unknown;
  try {
    j = JSON.parse(body);
  } catch {
    return null;
  }
  // Some Google endpoints wrap the error in a one-element array.
  const details = at(at(Array.isArray(j) ? j[0] : j, 'error'), 'details');
  if (!Array.isArray(details)) return null;
  for (const d of details) {
    const type = at(d, '@type');
    if (typeof type !== 'string' || !/(^|\/)google\.rpc\.RetryInfo$/.test(type)) continue;
    const delay = at(d, 'retryDelay');
    const m = typeof delay === 'string' ? /^(\d{1,9}(?:\.\d{1,9})?)s$/.exec(delay.trim()) : null;
    if (m) return Math.ceil(Number(m[1]) * 1000);
  }
  return null;
}

// Wait before attempt n+1: Retry-After when the server gives one, else the wait its error body asked for (hintMs,
// from retryInfoMs), else 2 × 2^(n-1) s plus jitter.
export function retryDelayMs(
  attempt: number,
  retryAfter: string | undefined,
  baseSeconds: number,
  jitterMs: number,
  rand: number,
  now: number,
  hintMs: number | null = null,
): number {
  if (retryAfter) {
    const s = Number(retryAfter);
    if (Number.isFinite(s) && s >= 0) return s * 1000;
    const t = parseInstant(retryAfter);
    if (!Number.isNaN(t)) return Math.max(0, t - now);
  }
  if (hintMs !== null) return hintMs;
  return baseSeconds * 1000 * 2 ** (attempt - 1) + Math.floor(rand * jitterMs);
}
