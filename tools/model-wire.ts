// The OpenAI, Anthropic and Gemini wire formats, as the local model server reads requests and writes answers.

import { estimateTokens } from '../src/core/prompts/tokens.js';

export type Vendor = 'openai' | 'anthropic' | 'gemini';

export type Json = Record<string, any>;

export function vendorOf(path: string): Vendor {
  if (path.endsWith(':generateContent')) return 'gemini';
  if (path.endsWith('/messages')) return 'anthropic';
  return 'openai';
}

export function schemaOf(vendor: Vendor, body: Json): any {
  // The tool the request forces (a round of calls may offer several and name one), else the first.
  if (vendor === 'anthropic') {
    const tools: Json[] = Array.isArray(body.tools) ? body.tools : [];
    const chosen = body.tool_choice?.name;
    return (tools.find((t) => t.name === chosen) ?? tools[0])?.input_schema;
  }
  if (vendor === 'gemini') return body.generationConfig?.responseSchema ?? body.generationConfig?.responseJsonSchema;
  return body.response_format?.json_schema?.schema;
}

// A message's or a system prompt's text: a string, or the text of each block of a list of blocks (other blocks as
// their JSON), so a request split into several blocks (a preamble sent first, say) reads whole.
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((b: Json) => (typeof b?.text === 'string' ? b.text : JSON.stringify(b))).join('\n');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

export function textsOf(vendor: Vendor, body: Json): { system: string; user: string } {
  if (vendor === 'anthropic')
    return {
      system: textOf(body.system ?? []),
      user: (body.messages ?? []).map((m: Json) => textOf(m.content)).join('\n'),
    };
  if (vendor === 'gemini')
    return {
      system: textOf(body.systemInstruction?.parts ?? []),
      user: (body.contents ?? []).map((c: Json) => textOf(c.parts ?? [])).join('\n'),
    };
  const msgs: Json[] = body.messages ?? [];
  const of = (system: boolean) =>
    msgs
      .filter((m) => (m.role === 'system' || m.role === 'developer') === system)
      .map((m) => textOf(m.content))
      .join('\n');
  return { system: of(true), user: of(false) };
}

// A length-only pattern, as OpenAI's strict dialect writes minLength and maxLength: ^[\s\S]{m,n}$.
export const LENGTH_PATTERN = /^\^\[\\s\\S\]\{(\d+),(\d*)\}\$$/;

// A vendor's schema as plain JSON Schema: Gemini's OpenAPI subset has upper-case types, nullable and int64 counts as
// strings; the OpenAI and Anthropic schemas already are JSON Schema.
export function asJsonSchema(vendor: Vendor, schema: any): any {
  if (vendor !== 'gemini' || !schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) {
    if (k === 'nullable' || k === 'propertyOrdering') continue;
    if (k === 'type') out.type = String(v).toLowerCase();
    else if (k === 'properties')
      out.properties = Object.fromEntries(Object.entries(v as Json).map(([p, x]) => [p, asJsonSchema(vendor, x)]));
    else if (k === 'items') out.items = asJsonSchema(vendor, v);
    else if (k === 'anyOf') out.anyOf = (v as Json[]).map((x) => asJsonSchema(vendor, x));
    else if (['minItems', 'maxItems', 'minLength', 'maxLength'].indexOf(k) >= 0) out[k] = Number(v);
    else out[k] = v;
  }
  return schema.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

// Tokens as an answer reports them: input counts every prompt token, cached ones included; cacheRead and cacheWrite,
// when given, say how many of them were read from or written to the vendor's prompt cache.
export interface WireUsage {
  input: number;
  output: number;
  // Tokens a model that thinks first spent thinking, billed as output (Gemini reports them apart).
  thinking?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

// `cut`: the answer stopped at the request's output cap, reported with the vendor's own stop reason.
export function envelope(vendor: Vendor, text: string, model: string, usage: WireUsage, cut = false): Json {
  if (vendor === 'anthropic') {
    let input: unknown = text;
    try {
      input = JSON.parse(text);
    } catch {
      // Malformed output stays a string in the tool input, as a confused model's would.
    }
    return {
      id: 'msg_local',
      type: 'message',
      role: 'assistant',
      model,
      stop_reason: cut ? 'max_tokens' : 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_local', name: 'answer', input }],
      // Anthropic's input_tokens are the tokens after the last cache breakpoint only.
      usage: {
        input_tokens: usage.input - (usage.cacheRead ?? 0) - (usage.cacheWrite ?? 0),
        output_tokens: usage.output,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
      },
    };
  }
  if (vendor === 'gemini') {
    return {
      candidates: [
        { content: { role: 'model', parts: [{ text }] }, finishReason: cut ? 'MAX_TOKENS' : 'STOP', index: 0 },
      ],
      usageMetadata: {
        promptTokenCount: usage.input,
        candidatesTokenCount: usage.output,
        ...(usage.thinking ? { thoughtsTokenCount: usage.thinking } : {}),
        totalTokenCount: usage.input + usage.output + (usage.thinking ?? 0),
        ...(usage.cacheRead === undefined ? {} : { cachedContentTokenCount: usage.cacheRead }),
      },
      modelVersion: model,
    };
  }
  return {
    id: 'chatcmpl-local',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null },
        finish_reason: cut ? 'length' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      ...(usage.cacheRead === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cacheRead } }),
    },
  };
}

// The output cap a request carries, in each vendor's field; null when it sends none.
export function capOf(vendor: Vendor, body: Json): number | null {
  const n =
    vendor === 'gemini'
      ? body.generationConfig?.maxOutputTokens
      : vendor === 'anthropic'
        ? body.max_tokens
        : (body.max_completion_tokens ?? body.max_tokens);
  return typeof n === 'number' && n > 0 ? n : null;
}

// The first `cap` tokens of a text (the estimate's tokens): what a model had written when it hit its cap.
export function cutTo(text: string, cap: number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(text.slice(0, mid)) <= cap) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}
