// Gemini: generateContent with a JSON response schema in Gemini's OpenAPI 3.0 subset.
import { vendorKeyProperty } from '../../property-keys.js';
import type { JsonSchema } from '../json-schema.js';
import { geminiUsage } from '../usage.js';
import {
  at,
  defineVendor,
  first,
  join,
  keepOnly,
  readJson,
  repairText,
  systemAndTurn,
  type Parsed,
  type StructuredCall,
  type WireRequest,
} from '../vendors.js';

const KEEP = [
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'anyOf',
  'description',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'nullable',
  'propertyOrdering',
];

const isNull = (x: JsonSchema) => x.type === 'null';

// Gemini's responseSchema is a subset of OpenAPI 3.0: upper-case types, nullable instead of null, no additionalProperties
// (see the Schema object of the Gemini API reference: pattern, minLength and maxLength are in it).
function openApi(s: JsonSchema): JsonSchema {
  if (s.anyOf && s.anyOf.length === 2 && s.anyOf.some(isNull)) {
    return { ...openApi(s.anyOf.find((x) => !isNull(x))!), nullable: true };
  }
  // Objects stay open: the answer's check drops a property it does not know, so an extra one is accepted.
  const out = keepOnly(s, KEEP, "Gemini's responseSchema", ['additionalProperties']);
  if (typeof out.type === 'string') out.type = out.type.toUpperCase();
  if (out.properties) {
    const props: Record<string, JsonSchema> = {};
    for (const k of Object.keys(out.properties)) props[k] = openApi(out.properties[k]);
    out.properties = props;
    out.propertyOrdering = Object.keys(props);
  }
  if (out.items) out.items = openApi(out.items);
  if (out.anyOf) out.anyOf = out.anyOf.map(openApi);
  // Counts are int64, which the API's JSON carries as strings.
  for (const k of ['minItems', 'maxItems', 'minLength', 'maxLength'] as const)
    if (out[k] !== undefined) out[k] = String(out[k]);
  return out;
}

function build(call: StructuredCall, key: string, base: string): WireRequest {
  const r = call.req;
  // The system instruction is the preamble (instructions only); the shared data, the role and task and the agent's
  // own data are the user turn's parts, in that order, so every call of a phase shares the longest prefix.
  const { system, turn } = systemAndTurn(r);
  const contents: unknown[] = [{ role: 'user', parts: turn.map((text) => ({ text })) }];
  if (call.repair)
    contents.push(
      { role: 'model', parts: [{ text: call.repair.previous }] },
      { role: 'user', parts: [{ text: repairText(call.repair.errors, r.context.lang) }] },
    );
  return {
    url: join(base, `/models/${encodeURIComponent(call.model)}:generateContent`),
    method: 'post',
    contentType: 'application/json',
    headers: { 'x-goog-api-key': key },
    payload: JSON.stringify({
      // The preamble first: Gemini 2.5 and later cache a common prompt prefix implicitly.
      ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
      contents,
      generationConfig: {
        ...(call.capability.temperature ? { temperature: r.agent.temperature } : {}),
        maxOutputTokens: call.maxTokens,
        responseMimeType: 'application/json',
        responseSchema: call.schema,
      },
    }),
  };
}

// { candidates: [{ content: { parts: [{ text }] }, finishReason }], usageMetadata: { promptTokenCount, candidatesTokenCount } }
function parse(body: string): Parsed {
  const read = readJson(body);
  if (!read.ok) return read.parsed;
  // Thinking is billed as output and reported apart from the answer's tokens: the reader adds it.
  const usage = geminiUsage(at(read.value, 'usageMetadata'));
  const cand = first(at(read.value, 'candidates'));
  const parts = at(at(cand, 'content'), 'parts');
  const text = Array.isArray(parts) ? parts.map((p: unknown) => at(p, 'text') ?? '').join('') : undefined;
  const finish = at(cand, 'finishReason');
  if (finish === 'MAX_TOKENS')
    return { ...usage, cut: 'finishReason MAX_TOKENS', error: 'the answer was cut at its output cap' };
  if (!text) return { ...usage, error: `no text in the answer (finishReason ${String(finish)})` };
  return { text, ...usage };
}

export const gemini = defineVendor({
  name: 'gemini',
  wire: { shapeSchema: openApi, build, parse },
  keyProperty: vendorKeyProperty('gemini'),
  envKey: 'GEMINI_API_KEY',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  defaultModel: 'gemini-2.5-flash',
  baseUrlSetting: 'provider.base_urls',
  needs: { key: true, baseUrl: false },
  warmsCache: true,
});
