// Answer JSON Schemas made once, when the bundle is built, with the allow-list and the member's KPI series as marks a
// run fills in. zod's toJSONSchema walked every answer schema again in each execution's fresh context, where its code
// is never warm: about 11 ms of a discussion's tick for eight schemas (the decision's alone 5.7 ms), for output only
// those two lists change.
import { MESSAGE_TYPES } from '../discussion/vocab.js';
import type { Expectation } from '../provider.js';
import type { JsonSchema } from './json-schema.js';

// Stand-ins no allow-list or KPI series holds: a NUL is not something a person types into a Settings or KPI cell,
// and only these two whole values are replaced.
const ALLOW_MARK = '\u0000allow-list\u0000';
const METRIC_MARK = '\u0000kpi-series\u0000';
const ALLOW_ENUM = `"enum":${JSON.stringify([ALLOW_MARK])}`;
const METRIC_ENUM = `"enum":${JSON.stringify([METRIC_MARK])}`;
const MARKS = new RegExp(`${literal(ALLOW_ENUM)}|${literal(METRIC_ENUM)}`, 'g');

// A text matched as it is.
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Every answer a model is asked for (src/core/provider.ts Expectation), checked by the compiler: a kind missing here
// would take zod's path in every execution.
const KINDS = [...MESSAGE_TYPES, 'DECISION', 'LEARNING', 'REFLECTION', 'ROOM_ANSWER'] as const;
const everyKindListed: [Exclude<Expectation, (typeof KINDS)[number]>] extends [never] ? true : never = true;
void everyKindListed;

// The JSON text of each kind's answer schema; `KIND|kpi` where naming the member's KPI series changes it.
export type AnswerTemplates = Record<string, string>;

type JsonOf = (kind: Expectation, allowList: readonly string[], metrics: readonly string[]) => JsonSchema;

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

// A mark anywhere but as a whole enum (a description quoting the allow-list, a pattern built from it) could not be
// filled in: the build stops rather than ship a schema that differs from zod's.
function checked(kind: string, text: string): string {
  for (const [mark, whole] of [
    [ALLOW_MARK, ALLOW_ENUM],
    [METRIC_MARK, METRIC_ENUM],
  ]) {
    const escaped = JSON.stringify(mark).slice(1, -1);
    if (occurrences(text, escaped) !== occurrences(text, whole))
      throw new Error(`the ${kind} answer schema uses ${JSON.stringify(mark)} other than as a whole enum`);
  }
  return text;
}

// At build time (scripts/build.mjs), from zod's own output: `jsonOf` is the schema module's zod path.
export function makeAnswerTemplates(jsonOf: JsonOf): AnswerTemplates {
  const out: AnswerTemplates = {};
  for (const kind of KINDS) {
    const plain = checked(kind, JSON.stringify(jsonOf(kind, [ALLOW_MARK], [])));
    const withKpi = checked(kind, JSON.stringify(jsonOf(kind, [ALLOW_MARK], [METRIC_MARK])));
    out[kind] = plain;
    if (withKpi !== plain) out[`${kind}|kpi`] = withKpi;
  }
  return out;
}

// A kind's schema with the lists filled in, each as zod's enum holds it (`allowed`, `metrics`: its options, in its
// order, without repeats); null when the templates do not have the kind.
export function fromTemplate(
  templates: AnswerTemplates,
  kind: Expectation,
  allowed: readonly string[],
  metrics: readonly string[],
): JsonSchema | null {
  const text = (metrics.length && templates[`${kind}|kpi`]) || templates[kind];
  if (text === undefined) return null;
  const lists: Record<string, string> = {
    [ALLOW_ENUM]: `"enum":${JSON.stringify(allowed)}`,
    [METRIC_ENUM]: `"enum":${JSON.stringify(metrics)}`,
  };
  // One pass, so a value of one list is never read as the other's mark.
  return JSON.parse(text.replace(MARKS, (whole) => lists[whole])) as JsonSchema;
}
