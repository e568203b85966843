// Each vendor's wire format: the request to send for an agent call, and how to read the answer and its usage.
import type { AgentRequest } from '../provider.js';
import { schemaFor, schemaName, type Vendor } from './schema.js';

export interface WireRequest {
  url: string;
  method: 'post';
  contentType: 'application/json';
  headers: Record<string, string>;
  payload: string;
}

export interface Call {
  req: AgentRequest;
  model: string;
  repair?: { previous: string; errors: string };
}

export interface Parsed {
  text?: string;
  tokensIn: number;
  tokensOut: number;
  error?: string;
}

export const DEFAULT_BASE: Record<Vendor, string> = {
  openai: 'https://api.openai.com/v1',
  'openai-compatible': '',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
};

function repairText(errors: string, lang: 'ja' | 'en'): string {
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

export function build(vendor: Vendor, call: Call, key: string, baseUrl: string): WireRequest {
  const r = call.req;
  const schema = schemaFor(r.expect, vendor, r.context.allowList);
  const name = schemaName(r.expect);
  const lang = r.context.lang;
  const base = baseUrl || DEFAULT_BASE[vendor];
  if (vendor === 'anthropic') {
    const messages: unknown[] = [{ role: 'user', content: r.user }];
    if (call.repair)
      messages.push(
        { role: 'assistant', content: call.repair.previous },
        { role: 'user', content: repairText(call.repair.errors, lang) },
      );
    return {
      url: join(base, '/messages'),
      method: 'post',
      contentType: 'application/json',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      payload: JSON.stringify({
        model: call.model,
        max_tokens: 4096,
        temperature: r.agent.temperature,
        // The long, stable prompt is cached; only the data changes between calls.
        system: [{ type: 'text', text: r.system, cache_control: { type: 'ephemeral' } }],
        messages,
        tools: [{ name, description: `Submit the ${r.expect} answer`, input_schema: schema }],
        tool_choice: { type: 'tool', name },
      }),
    };
  }
  if (vendor === 'gemini') {
    const contents: unknown[] = [{ role: 'user', parts: [{ text: r.user }] }];
    if (call.repair)
      contents.push(
        { role: 'model', parts: [{ text: call.repair.previous }] },
        { role: 'user', parts: [{ text: repairText(call.repair.errors, lang) }] },
      );
    return {
      url: join(base, `/models/${encodeURIComponent(call.model)}:generateContent`),
      method: 'post',
      contentType: 'application/json',
      headers: { 'x-goog-api-key': key },
      payload: JSON.stringify({
        systemInstruction: { parts: [{ text: r.system }] },
        contents,
        generationConfig: {
          temperature: r.agent.temperature,
          responseMimeType: 'application/json',
          responseSchema: schema,
        },
      }),
    };
  }
  const messages: unknown[] = [
    { role: 'system', content: r.system },
    { role: 'user', content: r.user },
  ];
  if (call.repair)
    messages.push(
      { role: 'assistant', content: call.repair.previous },
      { role: 'user', content: repairText(call.repair.errors, lang) },
    );
  const headers: Record<string, string> = {};
  if (key) {
    if (/\.openai\.azure\.com/.test(base)) headers['api-key'] = key;
    else headers.Authorization = `Bearer ${key}`;
  }
  return {
    url: join(base, '/chat/completions'),
    method: 'post',
    contentType: 'application/json',
    headers,
    payload: JSON.stringify({
      model: call.model,
      messages,
      temperature: r.agent.temperature,
      response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
    }),
  };
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

// Reads a 2xx answer; anything unreadable is an error the caller treats as an unusable answer.
export function parse(vendor: Vendor, body: string): Parsed {
  let j: any;
  try {
    j = JSON.parse(body);
  } catch {
    return { tokensIn: 0, tokensOut: 0, error: 'the response body is not JSON' };
  }
  if (vendor === 'anthropic') {
    const u = j.usage ?? {};
    const tokensIn = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
    const tool = Array.isArray(j.content) ? j.content.find((c: { type: string }) => c.type === 'tool_use') : null;
    if (!tool)
      return {
        tokensIn,
        tokensOut: num(u.output_tokens),
        error: `no tool_use block in the answer (stop_reason ${j.stop_reason})`,
      };
    return { text: JSON.stringify(tool.input), tokensIn, tokensOut: num(u.output_tokens) };
  }
  if (vendor === 'gemini') {
    const u = j.usageMetadata ?? {};
    const cand = Array.isArray(j.candidates) ? j.candidates[0] : null;
    const text = cand?.content?.parts?.map((p: { text?: string }) => p.text ?? '').join('');
    if (!text)
      return {
        tokensIn: num(u.promptTokenCount),
        tokensOut: num(u.candidatesTokenCount),
        error: `no text in the answer (finishReason ${cand?.finishReason})`,
      };
    return { text, tokensIn: num(u.promptTokenCount), tokensOut: num(u.candidatesTokenCount) };
  }
  const u = j.usage ?? {};
  const msg = Array.isArray(j.choices) ? j.choices[0]?.message : null;
  if (msg?.refusal)
    return {
      tokensIn: num(u.prompt_tokens),
      tokensOut: num(u.completion_tokens),
      error: `the model refused: ${String(msg.refusal).slice(0, 200)}`,
    };
  if (typeof msg?.content !== 'string')
    return {
      tokensIn: num(u.prompt_tokens),
      tokensOut: num(u.completion_tokens),
      error: 'no message content in the answer',
    };
  return { text: msg.content, tokensIn: num(u.prompt_tokens), tokensOut: num(u.completion_tokens) };
}

// SPEC §7.2: retry 408, 429, 500, 502, 503 and network errors; never 400, 401, 403 or 422.
export function retryable(code: number): boolean {
  return code === 408 || code === 429 || code === 500 || code === 502 || code === 503;
}

// Wait before attempt n+1: Retry-After when the server gives one, else 2 × 2^(n-1) s plus jitter.
export function retryDelayMs(
  attempt: number,
  retryAfter: string | undefined,
  baseSeconds: number,
  jitterMs: number,
  rand: number,
  now: number,
): number {
  if (retryAfter) {
    const s = Number(retryAfter);
    if (Number.isFinite(s) && s >= 0) return s * 1000;
    const t = Date.parse(retryAfter);
    if (!Number.isNaN(t)) return Math.max(0, t - now);
  }
  return baseSeconds * 1000 * 2 ** (attempt - 1) + Math.floor(rand * jitterMs);
}
