// What the requests a model server recorded show: which answer each asked for, the repeat bounds of the schemas
// sent, and whether the decider's request carries every specialist's opinion. Reads any vendor's request as it comes.
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
  metadata?: { default_opinion?: boolean };
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

// The characters of a hypothesis that must reach the decider: its first 40, as a digest would still quote them.
const START_CHARS = 40;

// Whether every decider request (phase 5, the DECISION schema) contains, for each Phase 2 specialist opinion of the
// record (default opinions aside), its recommended action type and the start of its hypothesis. A loose test: the
// action types are in every request's allow-list block too, so the hypothesis start carries the weight.
export function deciderSeesAll(requests: readonly SentRequest[], record: readonly RecordedMessage[]): boolean {
  const opinions = record.filter(
    (m) => m.phase === 2 && m.message_type === 'SPECIALIST_OPINION' && !m.metadata?.default_opinion,
  );
  const deciders = requests.filter((r) => kindOf(r).kind === 'decision');
  if (!deciders.length || !opinions.length) return false;
  return deciders.every((r) => {
    const text = sentText(r);
    return opinions.every((m) => {
      const start = String(m.content?.hypothesis ?? '')
        .slice(0, START_CHARS)
        .trim();
      const quoted = JSON.stringify(start).slice(1, -1);
      const action = String(m.content?.recommendation?.action_type ?? '');
      return !!start && !!action && text.includes(action) && (text.includes(start) || text.includes(quoted));
    });
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
