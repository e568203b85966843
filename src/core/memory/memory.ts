// Memory: learnings and cases, how verdicts move them, what agents learn after an outcome and when they tell a person.
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import type { LEARNING_SCOPES } from '../discussion/vocab.js';
import { label, triggerLabel } from '../labels.js';
import { DEFAULT_TRIGGER_TYPES } from '../trigger-defaults.js';
import { type Verdict, VERDICTS } from './outcomes.js';
import type { ContentOf } from '../discussion/messages.js';
import type { Discussion } from '../types.js';
import { stepConfidence, type ConfidenceSteps } from './confidence-step.js';

export interface Learning {
  row: number;
  learning_id: string;
  scope: (typeof LEARNING_SCOPES)[number];
  agent_id: string;
  category: string;
  content: string;
  context: string;
  confidence: number;
  times_applied: number;
  times_successful: number;
  is_active: boolean;
  source: string;
  embedding: string;
  embedding_model: string;
  // Milliseconds; 0 when the cell is empty (a learning never applied has no last_applied_at).
  created_at?: number;
  last_applied_at?: number;
  // Reviewed decisions that taught it: 1 when written, one more for each similar learning merged into it.
  evidence_count?: number;
  // '' until proposed; then `proposed INB-…`, `approved INB-… by …` or `declined INB-… by …` (review-lifecycle.ts).
  promotion?: string;
}

export interface LearningRules extends ConfidenceSteps {
  initial: number;
  deactivateBelow: number;
  promoteAfter: number;
  // Promote at once (true) or propose the promotion to a person in the Inbox (false, the default).
  autoPromote: boolean;
  // A new learning at least this similar to an active one of the same agent merges into it (review-lifecycle.ts).
  mergeSimilarity: number;
}

// The success rate: times_successful / times_applied, 0 while never applied; three decimals as the sheet shows it.
export function successRate(applied: number, successful: number): number {
  return applied > 0 ? Math.round((successful / applied) * 1000) / 1000 : 0;
}

// A case row's context cell: which decision, about whom, what was done and, once reviewed, the verdict. The cell
// can be edited by a person, so it is read through this schema; keys it does not know are kept.
const caseContextSchema = lazy(() =>
  z.looseObject({
    discussion_id: z.string(),
    decision_id: z.string(),
    member: z.string(),
    metric: z.string().default(''),
    actions: z.array(z.string()),
    verdict: z.enum([...VERDICTS, '']),
  }),
);

export type CaseContext = z.output<ReturnType<typeof caseContextSchema>>;

// The case in a context cell, or null when the cell holds no case (not JSON, or JSON of another shape).
export function parseCaseContext(text: string): CaseContext | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const r = caseContextSchema().safeParse(v);
  return r.success ? r.data : null;
}

// What an agent is given from memory: learnings and cases with their ids, its own next actions, directives.
export interface AgentMemory {
  learnings: { id: string; scope: string; content: string; confidence: number }[];
  cases: {
    id: string;
    content: string;
    actions: string[];
    verdict: string;
    similarity: number;
    recency?: number;
    member?: string;
  }[];
  nextActions: string[];
  directives: { id: string; content: string; priority: string }[];
}

export const EMPTY_MEMORY: AgentMemory = { learnings: [], cases: [], nextActions: [], directives: [] };

// A verdict moves the confidence of every learning applied in the decision (confidence-step.ts).
export function applyVerdict(l: Learning, verdict: Verdict, r: LearningRules): Learning {
  const confidence = stepConfidence(l.confidence, verdict, r);
  const times_successful = l.times_successful + (verdict === 'confirmed' ? 1 : 0);
  // Without auto-promotion it stays individual here; the review proposes it to a person (review-lifecycle.ts).
  const promoted = r.autoPromote && l.scope === 'individual' && times_successful >= r.promoteAfter;
  return {
    ...l,
    confidence,
    times_successful,
    is_active: confidence >= r.deactivateBelow,
    scope: promoted ? 'shared' : l.scope,
    agent_id: promoted ? '' : l.agent_id,
  };
}

// A situation as facts Kaigi can vouch for: the trigger's type, the member's id and the metric's name. Never the
// trigger's free text: a case or learning built from it would carry whatever was written there (an injected
// instruction included) into every later discussion that retrieves it. Not its numbers either: they differ from one
// slump to the next and would only pull a case and the situation it matches apart in retrieval.
export function situationText(d: Discussion): string {
  const ctx = d.trigger.context as Record<string, unknown>;
  const word = (v: unknown) => (typeof v === 'string' && /^[A-Za-z][A-Za-z0-9_.-]{0,40}$/.test(v) ? v : '');
  return [word(d.trigger.type), word(d.trigger.target_user_id), word(ctx.metric)].filter(Boolean).join(' ');
}

// The names a person knows the situation by: the member's name from the Members tab and the trigger type's label
// from Settings triggers.types. Either absent: the member's id, and the type's label in the default Settings.
export interface SituationNames {
  member?: string;
  trigger?: string;
}

// A name goes into a learning only as one short line: a Members cell is a person's text, and a learning is read back
// into later prompts.
const shortName = (v: unknown): string =>
  typeof v === 'string' && v.trim().length > 0 && v.length <= 60 && !/[\r\n\t"「」<>{}]/.test(v) ? v.trim() : '';

// The situation as a learning states it to a person: the member by name, the metric by its label and the trigger
// type by its label ("田中 太郎's contacts (KPI decline)"), where situationText keeps the codes the embedding and
// recall match on.
function situationPhrase(d: Discussion, lang: 'ja' | 'en', names: SituationNames = {}): string {
  const ctx = d.trigger.context as Record<string, unknown>;
  const word = (v: unknown) => (typeof v === 'string' && /^[A-Za-z][A-Za-z0-9_.-]{0,40}$/.test(v) ? v : '');
  const member = word(d.trigger.target_user_id) ? shortName(names.member) || word(d.trigger.target_user_id) : '';
  const metric = word(ctx.metric) ? label('metric', word(ctx.metric), lang) : '';
  const type = word(d.trigger.type);
  const trigger = type ? shortName(names.trigger) || triggerLabel(DEFAULT_TRIGGER_TYPES, type, lang) : '';
  return aboutPhrase(member, metric, trigger, lang);
}

// "田中 太郎の連絡数（KPI の低下）" / "Tanaka's contacts (KPI decline)": whichever parts are known.
export function aboutPhrase(member: string, metric: string, trigger: string, lang: 'ja' | 'en'): string {
  const about =
    lang === 'ja'
      ? [member, metric].filter(Boolean).join('の')
      : member && metric
        ? `${member}'s ${metric}`
        : member || metric;
  if (!trigger) return about;
  return lang === 'ja' ? `${about}（${trigger}）` : `${about} (${trigger})`;
}

export function orderOf(d: Discussion): ContentOf<'EXECUTION_ORDER'> | null {
  return d.final_decision ? (d.final_decision as unknown as ContentOf<'EXECUTION_ORDER'>) : null;
}

// The context a case learning stores: whose case, which metric, which actions; the verdict comes later.
export function caseContext(d: Discussion, o: ContentOf<'EXECUTION_ORDER'>): CaseContext {
  return {
    discussion_id: d.discussion_id,
    decision_id: o.decision_id,
    member: d.trigger.target_user_id,
    metric: String(d.trigger.context.metric ?? ''),
    actions: o.actions.map((a) => a.action_type),
    verdict: '',
  };
}

export function caseText(d: Discussion): string {
  const o = orderOf(d);
  return `${situationText(d)} → ${o ? o.actions.map((a) => a.action_type).join(', ') : 'no decision'}`;
}

// Rule-based extraction after an outcome: one learning per specialist whose advice was carried out, and a shared one.
export function extractLearnings(
  d: Discussion,
  verdict: Verdict,
  lang: 'ja' | 'en',
  names: SituationNames = {},
): { scope: 'individual' | 'shared'; agent_id: string; category: string; content: string; context: string }[] {
  const order = orderOf(d);
  if (!order || verdict === 'inconclusive') return [];
  const chosen = order.actions.map((a) => a.action_type);
  const situation = situationPhrase(d, lang, names);
  // Action types by their label: a learning is read by a person (and by the agents) in the workbook's language.
  const named = (type: string) => label('action_type', type, lang);
  const word =
    verdict === 'confirmed'
      ? lang === 'ja'
        ? '効果があった'
        : 'worked'
      : lang === 'ja'
        ? '効果がなかった'
        : 'did not work';
  const out: ReturnType<typeof extractLearnings> = [];
  for (const m of d.messages.filter((x) => x.message_type === 'SPECIALIST_OPINION' && !x.metadata.default_opinion)) {
    const rec = (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type;
    if (chosen.indexOf(rec) < 0) continue;
    out.push({
      scope: 'individual',
      agent_id: m.speaker,
      category: rec,
      content:
        lang === 'ja' ? `「${situation}」で ${named(rec)} は${word}` : `${named(rec)} ${word} for "${situation}"`,
      context: JSON.stringify({ discussion_id: d.discussion_id, verdict }),
    });
  }
  out.push({
    scope: 'shared',
    agent_id: '',
    category: chosen.join('+'),
    content:
      lang === 'ja'
        ? `「${situation}」への ${chosen.map(named).join('、')} は${word}`
        : `${chosen.map(named).join(', ')} ${word} for "${situation}"`,
    context: JSON.stringify({ discussion_id: d.discussion_id, verdict }),
  });
  return out;
}

// When an agent writes to a person instead of staying quiet. A condition speaks once,
// when it starts to hold, not again at every later reflection while it lasts.
function condition(
  h: { self_score: number; to_improve: string }[],
  text: (point: string) => string,
): { type: 'struggle' | 'milestone'; reason: string } | null {
  const last = h.slice(-3);
  if (
    last.length === 3 &&
    last[1].self_score <= last[0].self_score &&
    last[2].self_score <= last[1].self_score &&
    last[2].self_score < last[0].self_score
  ) {
    return {
      type: 'struggle',
      reason: `self score fell three times in a row (${last.map((x) => x.self_score).join(' → ')})`,
    };
  }
  if (last.length === 3 && last.every((x) => x.to_improve === last[0].to_improve))
    return { type: 'struggle', reason: `the same point to improve three times: ${text(last[0].to_improve)}` };
  if (h.length >= 5 && h.slice(-5).every((x) => x.self_score >= 8))
    return { type: 'milestone', reason: 'five high self scores in a row' };
  return null;
}

// `text` gives a point's words where the history keeps only its key (src/core/memory/reflection-history.ts).
export function shouldNotify(
  history: { self_score: number; to_improve: string }[],
  text: (point: string) => string = (p) => p,
): { type: 'struggle' | 'milestone'; reason: string } | null {
  const now = condition(history, text);
  if (!now) return null;
  const before = condition(history.slice(0, -1), text);
  return before && before.type === now.type && before.reason === now.reason ? null : now;
}

// A case about someone else says less about this person than their own history: it counts this much.
const OTHER_MEMBER = 0.25;

// Case memory makes the rule-based agents prefer what worked in similar cases and avoid what did not. A case counts
// by its similarity, discounted by its age (recency, 1 when new: after a member changes, the recent verdicts win)
// and, when it is about another member than `member`, by OTHER_MEMBER.
export function caseAdjustment(action: string, cases: AgentMemory['cases'], member = ''): number {
  let adj = 0;
  for (const c of cases) {
    if (c.actions.indexOf(action) < 0) continue;
    const other = member !== '' && !!c.member && c.member !== member;
    const w = c.similarity * (c.recency ?? 1) * (other ? OTHER_MEMBER : 1);
    if (c.verdict === 'confirmed') adj += w;
    if (c.verdict === 'rejected') adj -= w;
  }
  return adj;
}
