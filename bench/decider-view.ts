// What the requests a model server recorded show: which answer each asked for, the repeat bounds of the schemas
// sent, and whether the decider's request carries every answer of the debate whole. Reads any vendor's request as it comes.
import { MARK } from '../tools/realistic-answer.js';
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
  metadata?: { default_opinion?: boolean; computed_confidence?: number; substitute?: string };
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

const flat = (v: unknown) => String(v).replace(/\s+/g, ' ').trim();

// Every string of a value, flattened as the decider's view writes it.
function texts(v: unknown): string[] {
  if (typeof v === 'string') return [flat(v)];
  if (Array.isArray(v)) return v.flatMap(texts);
  if (v && typeof v === 'object') return Object.values(v).flatMap(texts);
  return [];
}

// What the decider's request shows of the debate, checked against the record.
export interface DeciderView {
  // Marks the realistic server put inside the Phase 2 answers (tools/realistic-answer.ts MARK), and how many of them
  // the decider's request holds.
  marks_total: number;
  marks_found: number;
  // Every text of every Phase 2–4 answer whole in the request.
  answers_whole: boolean;
  // Answers a substitute gave, and how many the request names as such.
  substitutes: number;
  substitutes_marked: number;
  // The votes table: highest score first, scores summing to 1 (to rounding).
  votes_sorted: boolean;
}

export function deciderView(requests: readonly SentRequest[], record: readonly RecordedMessage[]): DeciderView {
  const decider = requests.filter((r) => kindOf(r).kind === 'decision').pop();
  const text = decider ? sentText(decider) : '';
  const answers = record.filter((m) => m.phase >= 2 && m.phase <= 4 && !m.metadata?.default_opinion);
  const opinions = answers.filter((m) => m.phase === 2);
  const marks = opinions.flatMap((m) => JSON.stringify(m.content).match(MARK) ?? []);
  const subs = answers.filter((m) => m.metadata?.substitute);
  const block = /<data name="weights_and_votes_computed_by_kaigi">\n([\s\S]*?)\n<\/data>/.exec(text)?.[1] ?? '';
  const votes = block
    .split('\n')
    .slice(block.split('\n').findIndex((l) => l.startsWith('action_type,score')) + 1)
    .filter((l) => l.trim())
    .map((l) => Number(l.split(',')[1]));
  const sum = votes.reduce((a, x) => a + x, 0);
  return {
    marks_total: marks.length,
    marks_found: marks.filter((k) => text.includes(k)).length,
    answers_whole:
      !!decider && answers.length > 0 && answers.every((m) => texts(m.content).every((t) => text.includes(t))),
    substitutes: subs.length,
    substitutes_marked: subs.filter((m) => text.includes(`substitute-answer-by-${m.metadata!.substitute}`)).length,
    votes_sorted: votes.length > 0 && votes.every((x, i) => i === 0 || x <= votes[i - 1]) && Math.abs(sum - 1) <= 0.02,
  };
}

// Whether the decider's request holds every answer of Phases 2–4 whole, and every mark inside them.
export function deciderSeesAll(requests: readonly SentRequest[], record: readonly RecordedMessage[]): boolean {
  const v = deciderView(requests, record);
  return v.answers_whole && v.marks_found === v.marks_total;
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
