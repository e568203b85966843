// OpenAI: Chat Completions with a strict json_schema response format; the openai-compatible vendor speaks it too.
import { vendorKeyProperty } from '../../property-keys.js';
import type { JsonSchema } from '../json-schema.js';
import {
  at,
  defineVendor,
  first,
  join,
  keepOnly,
  num,
  readJson,
  repairText,
  systemTexts,
  type Parsed,
  type StructuredCall,
  type WireFormat,
  type WireRequest,
} from '../vendors.js';

const KEEP = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  'description',
  'pattern',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
];

// Strict mode has no minLength or maxLength (see "Supported schemas" in OpenAI's Structured Outputs guide) but has
// pattern: a pattern of that many characters of any kind says the same, counted in code points as JSON Schema counts.
function lengthAsPattern(s: JsonSchema): JsonSchema {
  if (s.minLength === undefined && s.maxLength === undefined) return s;
  const { minLength, maxLength, ...rest } = s;
  if (rest.pattern !== undefined) throw new Error('OpenAI strict mode cannot express a pattern and a length together');
  return {
    ...rest,
    pattern: `^[\\s\\S]{${Number(minLength ?? 0)},${maxLength === undefined ? '' : Number(maxLength)}}$`,
  };
}

// Strict mode: every property required, optional ones nullable, no keyword it cannot express.
function strict(s: JsonSchema): JsonSchema {
  const out = keepOnly(lengthAsPattern(s), KEEP, 'OpenAI strict mode');
  if (out.type === 'object' && out.properties) {
    const required: string[] = out.required ?? [];
    const props: Record<string, JsonSchema> = {};
    for (const k of Object.keys(out.properties)) {
      const p = strict(out.properties[k]);
      props[k] = required.indexOf(k) >= 0 ? p : { anyOf: [p, { type: 'null' }] };
    }
    out.properties = props;
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (out.items) out.items = strict(out.items);
  if (out.anyOf) out.anyOf = out.anyOf.map(strict);
  return out;
}

function build(call: StructuredCall, key: string, base: string): WireRequest {
  const r = call.req;
  // The shared preamble first: OpenAI caches the longest prompt prefix it has seen (1,024 tokens and more).
  const messages: unknown[] = systemTexts(r).map((content) => ({ role: 'system', content }));
  messages.push({ role: 'user', content: r.user });
  if (call.repair)
    messages.push(
      { role: 'assistant', content: call.repair.previous },
      { role: 'user', content: repairText(call.repair.errors, r.context.lang) },
    );
  const headers: Record<string, string> = {};
  // Gateways without auth take no header; Azure OpenAI wants its key as api-key.
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
      // A reasoning model takes no temperature, and its cap as max_completion_tokens (Settings
      // provider.model_capabilities).
      ...(call.capability.temperature ? { temperature: r.agent.temperature } : {}),
      [call.capability.token_field ?? 'max_tokens']: call.maxTokens,
      response_format: {
        type: 'json_schema',
        json_schema: { name: call.schemaName, strict: true, schema: call.schema },
      },
    }),
  };
}

// { choices: [{ message: { content, refusal } }], usage: { prompt_tokens, completion_tokens } }
function parse(body: string): Parsed {
  const read = readJson(body);
  if (!read.ok) return read.parsed;
  const u = at(read.value, 'usage');
  const tokensIn = num(at(u, 'prompt_tokens'));
  const tokensOut = num(at(u, 'completion_tokens'));
  const msg = at(first(at(read.value, 'choices')), 'message');
  const refusal = at(msg, 'refusal');
  if (refusal) return { tokensIn, tokensOut, error: `the model refused: ${String(refusal).slice(0, 200)}` };
  const content = at(msg, 'content');
  if (typeof content !== 'string') return { tokensIn, tokensOut, error: 'no message content in the answer' };
  return { text: content, tokensIn, tokensOut };
}

// Chat Completions, shared with every server that speaks it (see openai-compatible.ts).
export const chatCompletions: WireFormat = { shapeSchema: strict, build, parse };

export const openai = defineVendor({
  name: 'openai',
  wire: chatCompletions,
  keyProperty: vendorKeyProperty('openai'),
  envKey: 'OPENAI_API_KEY',
  defaultBaseUrl: 'https://api.openai.com/v1',
  defaultModel: 'gpt-4o-mini',
  baseUrlSetting: 'provider.base_urls',
  needs: { key: true, baseUrl: false },
});
