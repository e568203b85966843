// JSON Schema for structured output, generated from the zod message schemas; each vendor module shapes it further.
import { z } from 'zod';
import { answerSchema } from '../messages.js';
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
  minLength?: number | string;
  maxLength?: number | string;
  nullable?: boolean;
  propertyOrdering?: string[];
  [keyword: string]: unknown;
}

// zod's JSON Schema output is plain JSON: the keywords above keep their JSON Schema meaning.
function toJson(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
}

// Type lists become anyOf and every object is closed; every constraint zod emitted stays for the vendor to shape.
function normalise(s: JsonSchema): JsonSchema {
  if (Array.isArray(s.type)) {
    const { type, ...rest } = s;
    return { anyOf: (type as unknown[]).map((t) => normalise({ ...rest, type: t })) };
  }
  const out: JsonSchema = { ...s };
  delete out.$schema;
  if (out.type === 'object' && out.properties) {
    const props: Record<string, JsonSchema> = {};
    for (const k of Object.keys(out.properties)) props[k] = normalise(out.properties[k]);
    out.properties = props;
    out.additionalProperties = false;
  }
  if (out.items) out.items = normalise(out.items);
  if (out.anyOf) out.anyOf = out.anyOf.map((x) => normalise(x));
  return out;
}

// The JSON Schema of an answer, before any vendor's dialect: exactly the zod schema the answer is checked against.
function answerJsonSchema(expect: Expectation, allowList: readonly string[]): JsonSchema {
  return normalise(toJson(answerSchema(expect, allowList)));
}

// The vendor is a module (HttpProvider passes its own) or a registered name; the module decides the dialect, and
// throws rather than send a schema that leaves out a constraint the answer will be checked against.
export function schemaFor(
  expect: Expectation,
  vendor: Vendor | SchemaShaper,
  allowList: readonly string[],
): JsonSchema {
  const shaper = typeof vendor === 'string' ? findVendor(vendor)?.wire : vendor;
  if (!shaper) throw new Error(`unknown vendor: ${vendor}`);
  return shaper.shapeSchema(answerJsonSchema(expect, allowList));
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
