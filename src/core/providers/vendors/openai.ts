// OpenAI: Chat Completions with a strict json_schema response format; the openai-compatible vendor speaks it too.
import { vendorKeyProperty } from '../../property-keys.js';
import type { JsonSchema } from '../json-schema.js';
import { chatCompletionsUsage } from '../usage.js';
import {
  at,
  defineVendor,
  first,
  join,
  keepOnly,
  readJson,
  repairText,
  promptParts,
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

// OpenAI takes a system message anywhere in the list: the preamble, the shared data (a user message), then the
// role and task (a system message) and the agent's own data. Every call of a discussion shares the first message
// and every call of a phase the second, so OpenAI's prefix cache serves them.
function openaiMessages(call: StructuredCall): unknown[] {
  return promptParts(call.req).map((p) => ({ role: p.kind === 'instructions' ? 'system' : 'user', content: p.text }));
}

// A local server's chat template may take one system message, and only first: every instruction there (with the
// answer's JSON shape, for a server that ignores response_format), every data block in one user message after it.
function compatibleMessages(call: StructuredCall): unknown[] {
  const parts = promptParts(call.req);
  const lang = call.req.context.lang;
  const shape =
    lang === 'ja'
      ? `# 回答の形式\n次の JSON Schema に合う JSON オブジェクトを一つだけ返してください（他の文字は不要）：\n${JSON.stringify(call.schema)}`
      : `# Answer format\nReturn one JSON object matching this JSON Schema, and nothing else:\n${JSON.stringify(call.schema)}`;
  const system = parts
    .filter((p) => p.kind === 'instructions')
    .map((p) => p.text)
    .concat([shape]);
  const data = parts.filter((p) => p.kind === 'data').map((p) => p.text);
  return [
    { role: 'system', content: system.join('\n\n') },
    { role: 'user', content: data.join('\n\n') },
  ];
}

function buildChat(call: StructuredCall, key: string, base: string, compatible: boolean): WireRequest {
  const r = call.req;
  const messages = compatible ? compatibleMessages(call) : openaiMessages(call);
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
      // OpenAI routes requests with the same key to the same cache: one discussion's calls share their prefixes.
      ...(!compatible && r.context.discussion_id ? { prompt_cache_key: r.context.discussion_id } : {}),
      response_format: {
        type: 'json_schema',
        // A grammar-based server enforces the schema as it is; strict is OpenAI's own mode, whose dialect it is not.
        json_schema: { name: call.schemaName, strict: !compatible, schema: call.schema },
      },
    }),
  };
}

// { choices: [{ message: { content, refusal }, finish_reason }], usage: { prompt_tokens, completion_tokens } }
function parse(body: string): Parsed {
  const read = readJson(body);
  if (!read.ok) return read.parsed;
  const usage = chatCompletionsUsage(at(read.value, 'usage'));
  const choice = first(at(read.value, 'choices'));
  const msg = at(choice, 'message');
  const refusal = at(msg, 'refusal');
  if (refusal) return { ...usage, error: `the model refused: ${String(refusal).slice(0, 200)}` };
  if (at(choice, 'finish_reason') === 'length')
    return { ...usage, cut: 'finish_reason length', error: 'the answer was cut at its output cap' };
  const content = at(msg, 'content');
  if (typeof content !== 'string') return { ...usage, error: 'no message content in the answer' };
  return { text: content, ...usage };
}

// OpenAI's Chat Completions with its strict dialect; a server that only speaks the format has its own shapes
// (openai-compatible.ts) and the layout any chat template takes.
const chatCompletions: WireFormat = {
  shapeSchema: strict,
  build: (call, key, base) => buildChat(call, key, base, false),
  parse,
};

export function compatibleChat(shapeSchema: (s: JsonSchema) => JsonSchema): WireFormat {
  return { shapeSchema, build: (call, key, base) => buildChat(call, key, base, true), parse };
}

export const openai = defineVendor({
  name: 'openai',
  wire: chatCompletions,
  keyProperty: vendorKeyProperty('openai'),
  envKey: 'OPENAI_API_KEY',
  defaultBaseUrl: 'https://api.openai.com/v1',
  defaultModel: 'gpt-4.1-mini',
  baseUrlSetting: 'provider.base_urls',
  needs: { key: true, baseUrl: false },
  warmsCache: true,
});
