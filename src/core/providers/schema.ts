// JSON Schema for structured output, generated from the zod message schemas and shaped for each vendor.
import { z } from 'zod';
import { CONTENT_SCHEMAS, LEARNING_SCHEMA, type MessageType } from '../messages.js';
import type { Expectation } from '../provider.js';

export type Vendor = 'openai' | 'anthropic' | 'gemini' | 'openai-compatible';
type Json = Record<string, any>;

const KEEP_OPENAI = [
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
const KEEP_GEMINI = [
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
  'nullable',
  'propertyOrdering',
];

function base(expect: Expectation): Json {
  if (expect === 'LEARNING') return z.toJSONSchema(LEARNING_SCHEMA, { io: 'input' }) as Json;
  if (expect === 'DECISION') {
    return z.toJSONSchema(
      z.object({ deliberation: CONTENT_SCHEMAS.DECISION_DELIBERATION, order: CONTENT_SCHEMAS.EXECUTION_ORDER }),
      { io: 'input' },
    ) as Json;
  }
  return z.toJSONSchema(CONTENT_SCHEMAS[expect as MessageType], { io: 'input' }) as Json;
}

// Type lists become anyOf, action types become an enum of the allow-list.
function normalise(s: Json, allowList: readonly string[], key = ''): Json {
  if (Array.isArray(s.type)) {
    const { type, ...rest } = s;
    return { anyOf: (type as string[]).map((t) => normalise({ ...rest, type: t }, allowList, key)) };
  }
  const out: Json = { ...s };
  delete out.$schema;
  delete out.propertyNames;
  if (out.type === 'object' && out.properties) {
    const props: Json = {};
    for (const k of Object.keys(out.properties)) props[k] = normalise(out.properties[k], allowList, k);
    out.properties = props;
    out.additionalProperties = false;
  }
  if (out.items) out.items = normalise(out.items, allowList, key);
  if (out.anyOf) out.anyOf = out.anyOf.map((x: Json) => normalise(x, allowList, key));
  if ((key === 'action_type' || key === 'selected_action_types') && out.type === 'string') {
    delete out.pattern;
    out.enum = allowList.slice();
  }
  return out;
}

// OpenAI strict mode: every property required, optional ones nullable, no unknown keywords.
function strict(s: Json): Json {
  const out: Json = {};
  for (const k of Object.keys(s)) if (KEEP_OPENAI.indexOf(k) >= 0) out[k] = s[k];
  if (out.type === 'object' && out.properties) {
    const required: string[] = out.required ?? [];
    const props: Json = {};
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

// Gemini's responseSchema is a subset of OpenAPI 3.0: upper-case types, nullable instead of null, no additionalProperties.
function gemini(s: Json): Json {
  if (s.anyOf && s.anyOf.length === 2 && s.anyOf.some((x: Json) => x.type === 'null')) {
    return { ...gemini(s.anyOf.find((x: Json) => x.type !== 'null')), nullable: true };
  }
  const out: Json = {};
  for (const k of Object.keys(s)) if (KEEP_GEMINI.indexOf(k) >= 0) out[k] = s[k];
  if (typeof out.type === 'string') out.type = out.type.toUpperCase();
  if (out.properties) {
    const props: Json = {};
    for (const k of Object.keys(out.properties)) props[k] = gemini(out.properties[k]);
    out.properties = props;
    out.propertyOrdering = Object.keys(props);
  }
  if (out.items) out.items = gemini(out.items);
  if (out.anyOf) out.anyOf = out.anyOf.map(gemini);
  if (out.minItems !== undefined) out.minItems = String(out.minItems);
  if (out.maxItems !== undefined) out.maxItems = String(out.maxItems);
  return out;
}

export function schemaFor(expect: Expectation, vendor: Vendor, allowList: readonly string[]): Json {
  const s = normalise(base(expect), allowList);
  if (vendor === 'gemini') return gemini(s);
  if (vendor === 'anthropic') return s;
  return strict(s);
}

// Strict mode answers optional fields with null; the zod schemas expect them absent.
export function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== null) out[k] = dropNulls(x);
    return out;
  }
  return v;
}

export function schemaName(expect: Expectation): string {
  return expect.toLowerCase();
}
