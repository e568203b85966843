// What the requests a model server recorded show: which answer each asked for, the repeat bounds of the schemas
// sent, and whether the decider's request carries every specialist's opinion. Reads any vendor's request as it comes.
import { digestLines } from '../src/core/prompts/digest.js';
import type { Message } from '../src/core/discussion/messages.js';
import { schemaOf, type Vendor } from '../tools/model-wire.js';

export interface SentRequest {
  vendor: Vendor;
  body: any;
  schema: any;
}

// A stored message of the discussion record, as the Messages tab holds it.
export interface RecordedMessage {
  phase: number;
  message_type: string;
  speaker: string;
  content: any;
  metadata?: { default_opinion?: boolean; computed_confidence?: number };
}

// The answer a request asks for, from its schema's properties (Gemini's request names no schema).
const SIGNATURES: [string, string, number][] = [
  ['deliberation', 'decision', 5],
  ['hypothesis', 'specialist_opinion', 2],
  ['source_data', 'feedback_response', 2],
  ['data_points', 'situation_report', 1],
  ['opportunity', 'perspective_positive', 3],
  ['counter_proposal', 'perspective_negative', 3],
  ['human_insight', 'perspective_human', 3],
  ['check_result', 'governance', 4],
  ['learnings', 'learning', 6],
  ['message', 'room_answer', 0],
];

export function kindOf(r: SentRequest): { kind: string; phase: number } {
  const props = r.schema?.properties ?? {};
  const hit = SIGNATURES.find(([key]) => key in props);
  return hit ? { kind: hit[1], phase: hit[2] } : { kind: 'other', phase: 0 };
}

// Every string a request sends, the answer's schema (and the tool around it) left out: what the model reads.
function sentText(r: SentRequest): string {
  const schema = schemaOf(r.vendor, r.body);
  const skip = new Set(['response_format', 'tools', 'tool_choice', 'responseSchema', 'responseJsonSchema']);
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object' && v !== schema)
      for (const [k, x] of Object.entries(v)) if (!skip.has(k)) walk(x);
  };
  walk(r.body);
  return out.join('\n');
}

// Whether every decider request (the DECISION schema) holds, in full, the digest Kaigi makes of each Phase 2 answer
// of the record (src/core/prompts/digest.ts): action, intensity, both confidences, dissent, hypothesis and key evidence. The
// digests are made from the messages before the decision, as the engine made them.
export function deciderSeesAll(requests: readonly SentRequest[], record: readonly RecordedMessage[]): boolean {
  const before = record.filter((m) => m.phase <= 4) as unknown as Message[];
  const lines = digestLines(before).filter(
    (_, i) => before[i].phase === 2 && before[i].message_type === 'SPECIALIST_OPINION',
  );
  const deciders = requests.filter((r) => kindOf(r).kind === 'decision');
  if (!deciders.length || !lines.length) return false;
  return deciders.every((r) => {
    const text = sentText(r);
    return lines.every((line) => text.includes(line));
  });
}

// The largest repeat bound in any schema: a pattern's {n}, {n,m} or {n,} and any maxLength.
export function maxSchemaRepeat(schemas: readonly unknown[]): number {
  let max = 0;
  const walk = (v: unknown, key: string): void => {
    if (key === 'pattern' && typeof v === 'string')
      for (const m of v.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) max = Math.max(max, Number(m[1]), Number(m[2] || 0));
    else if (key === 'maxLength' && Number.isFinite(Number(v))) max = Math.max(max, Number(v));
    else if (Array.isArray(v)) v.forEach((x) => walk(x, ''));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  schemas.forEach((s) => walk(s, ''));
  return max;
}
