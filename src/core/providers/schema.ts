// JSON Schema for structured output, generated from the zod message schemas; each vendor module shapes it further.
import { z } from 'zod';
import { CONTENT_SCHEMAS, LEARNING_SCHEMA, type MessageType } from '../messages.js';
import type { Expectation } from '../provider.js';
import { findVendor, type Vendor } from './vendor-registry.js';
import type { SchemaShaper } from './vendors.js';

export type { Vendor };

// The keywords Kaigi reads or rewrites are named; any other keyword zod emits passes through untouched.
export interface JsonSchema {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  pattern?: string;
  minItems?: number | string;
  maxItems?: number | string;
  nullable?: boolean;
  propertyOrdering?: string[];
  [keyword: string]: unknown;
}

// zod's JSON Schema output is plain JSON: the keywords above keep their JSON Schema meaning.
function toJson(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
}

function base(expect: Expectation): JsonSchema {
  if (expect === 'LEARNING') return toJson(LEARNING_SCHEMA);
  if (expect === 'DECISION')
    return toJson(
      z.object({ deliberation: CONTENT_SCHEMAS.DECISION_DELIBERATION, order: CONTENT_SCHEMAS.EXECUTION_ORDER }),
    );
  return toJson(CONTENT_SCHEMAS[expect as MessageType]);
}

// Type lists become anyOf, action types become an enum of the allow-list.
function normalise(s: JsonSchema, allowList: readonly string[], key = ''): JsonSchema {
  if (Array.isArray(s.type)) {
    const { type, ...rest } = s;
    return { anyOf: (type as unknown[]).map((t) => normalise({ ...rest, type: t }, allowList, key)) };
  }
  const out: JsonSchema = { ...s };
  delete out.$schema;
  delete out.propertyNames;
  if (out.type === 'object' && out.properties) {
    const props: Record<string, JsonSchema> = {};
    for (const k of Object.keys(out.properties)) props[k] = normalise(out.properties[k], allowList, k);
    out.properties = props;
    out.additionalProperties = false;
  }
  if (out.items) out.items = normalise(out.items, allowList, key);
  if (out.anyOf) out.anyOf = out.anyOf.map((x) => normalise(x, allowList, key));
  if ((key === 'action_type' || key === 'selected_action_types') && out.type === 'string') {
    delete out.pattern;
    out.enum = allowList.slice();
  }
  return out;
}

// The vendor is a module (HttpProvider passes its own) or a registered name; the module decides the dialect.
export function schemaFor(
  expect: Expectation,
  vendor: Vendor | SchemaShaper,
  allowList: readonly string[],
): JsonSchema {
  const shaper = typeof vendor === 'string' ? findVendor(vendor)?.wire : vendor;
  if (!shaper) throw new Error(`unknown vendor: ${vendor}`);
  return shaper.shapeSchema(normalise(base(expect), allowList));
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
