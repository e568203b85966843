// JSON Schema for structured output, generated from the zod message schemas; each vendor module shapes it further.
import { z } from '../zod.js';
import { hasOwn } from '../json-guard.js';
import { answerSchema } from '../discussion/messages.js';
import type { Expectation } from '../provider.js';
import type { JsonSchema } from './json-schema.js';
import { type AnswerTemplates, fromTemplate, makeAnswerTemplates } from './answer-templates.js';
import { findVendor, type Vendor } from './vendor-registry.js';
import type { SchemaShaper } from './vendors.js';

export type { Vendor };

// zod's JSON Schema output is plain JSON: the keywords JsonSchema names keep their JSON Schema meaning.
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
function zodAnswerJsonSchema(
  expect: Expectation,
  allowList: readonly string[],
  metrics: readonly string[],
): JsonSchema {
  return normalise(toJson(answerSchema(expect, allowList, metrics)));
}

// What scripts/build.mjs defines into the bundle: every answer's schema from zod, its two lists left as marks.
export function answerTemplates(): AnswerTemplates {
  return makeAnswerTemplates(zodAnswerJsonSchema);
}

// Set in the bundle by scripts/build.mjs (esbuild's define); absent where the sources run as they are (the tests, the
// tools), which take zod's path.
declare const KAIGI_ANSWER_TEMPLATES: AnswerTemplates | undefined;
const BUILT: AnswerTemplates | null = typeof KAIGI_ANSWER_TEMPLATES === 'object' ? KAIGI_ANSWER_TEMPLATES : null;

// A list as zod's enum of it holds it, and so as its JSON Schema names it: in its order, without repeats.
const enumOptions = new Map<string, readonly string[]>();
function optionsOf(list: readonly string[]): readonly string[] {
  const key = JSON.stringify(list);
  let o = enumOptions.get(key);
  if (!o) enumOptions.set(key, (o = z.enum(list as [string, ...string[]]).options));
  return o;
}

// The same schema from the built templates when there are some. An empty allow-list takes zod's path, which refuses
// it as a configuration problem.
export function answerJsonSchemaFrom(
  templates: AnswerTemplates | null,
  expect: Expectation,
  allowList: readonly string[],
  metrics: readonly string[],
): JsonSchema {
  const built =
    templates && allowList.length
      ? fromTemplate(templates, expect, optionsOf(allowList), metrics.length ? optionsOf(metrics) : [])
      : null;
  return built ?? zodAnswerJsonSchema(expect, allowList, metrics);
}

function answerJsonSchema(expect: Expectation, allowList: readonly string[], metrics: readonly string[]): JsonSchema {
  return answerJsonSchemaFrom(BUILT, expect, allowList, metrics);
}

// A string cut to at most max code points (as JSON Schema counts them), an ellipsis marking the cut.
function clip(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

// A value with every string cut to its schema's maxLength: a rule-based answer quoting a person's or a model's longer
// text still fits the answer schema it is checked against. Everything else is left as it is, for the check to judge.
function fitLengths(v: unknown, s: JsonSchema | undefined): unknown {
  if (!s) return v;
  if (typeof v === 'string') {
    const own = s.type === 'string' ? s : s.anyOf?.find((x) => x.type === 'string');
    return own?.maxLength === undefined ? v : clip(v, Number(own.maxLength));
  }
  if (Array.isArray(v)) return v.map((x) => fitLengths(x, s.items));
  if (v && typeof v === 'object' && s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = fitLengths(x, s.properties[k]);
    return out;
  }
  return v;
}

const shapes: Record<string, JsonSchema> = {};

// An answer with its strings cut to the lengths its schema allows (see fitLengths).
export function fitAnswer(expect: Expectation, answer: unknown, allowList: readonly string[]): unknown {
  const key = `${expect}\n${allowList.join('\n')}`;
  if (!hasOwn(shapes, key)) shapes[key] = answerJsonSchema(expect, allowList, []);
  return fitLengths(answer, shapes[key]);
}

// Each shaper's schemas by expectation, allow-list and metrics. zod's toJSONSchema walks the whole schema each time
// (about 10 ms for a decision's), and one discussion asks for the same few schemas for every call of every round and
// for the forecast: built once per execution. Callers only read them (they are serialised into requests or counted).
const shaped = new Map<SchemaShaper, Record<string, JsonSchema>>();

// The vendor is a module (HttpProvider passes its own) or a registered name; the module decides the dialect, and
// throws rather than send a schema that leaves out a constraint the answer will be checked against.
export function schemaFor(
  expect: Expectation,
  vendor: Vendor | SchemaShaper,
  allowList: readonly string[],
  metrics: readonly string[] = [],
): JsonSchema {
  const shaper = typeof vendor === 'string' ? findVendor(vendor)?.wire : vendor;
  if (!shaper) throw new Error(`unknown vendor: ${vendor}`);
  let mine = shaped.get(shaper);
  if (!mine) {
    mine = {};
    shaped.set(shaper, mine);
  }
  const key = `${expect}\n${allowList.join('\n')}\n|${metrics.join('\n')}`;
  if (!hasOwn(mine, key)) mine[key] = shaper.shapeSchema(answerJsonSchema(expect, allowList, metrics));
  return mine[key];
}

// The largest repeat bound anywhere in a schema: a {n,m} in a pattern, a maxLength or a maxItems (numbers or, as
// Gemini's dialect writes them, strings). llama.cpp and Ollama turn a schema into a grammar and refuse repeat counts
// above about 2,000, so an answer schema stays at or below that for every vendor.
export function maxSchemaRepeat(schema: JsonSchema): number {
  let most = 0;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    if (Array.isArray(v) || !v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if ((k === 'maxLength' || k === 'maxItems') && (typeof x === 'number' || typeof x === 'string'))
        most = Math.max(most, Number(x) || 0);
      else if (k === 'pattern' && typeof x === 'string') {
        const bounds = /\{(\d+)(?:,(\d*))?\}/g;
        for (let m = bounds.exec(x); m; m = bounds.exec(x)) most = Math.max(most, Number(m[1]), Number(m[2] || 0));
      } else visit(x);
    }
  };
  visit(schema);
  return most;
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
