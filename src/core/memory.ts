// Memory: learnings and cases, how verdicts move them, what agents learn and reflect after an outcome.
import { z } from 'zod';
import { label } from './labels.js';
import { type Verdict, VERDICTS } from './outcomes.js';
import type { ContentOf, Message } from './messages.js';
import type { Discussion } from './types.js';

export interface Learning {
  row: number;
  learning_id: string;
  scope: 'individual' | 'shared' | 'case';
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
}

export interface LearningRules {
  initial: number;
  confirmStep: number;
  rejectStep: number;
  deactivateBelow: number;
  promoteAfter: number;
}

// A case row's context cell: which decision, about whom, what was done and, once reviewed, the verdict. The cell
// can be edited by a person, so it is read through this schema; keys it does not know are kept.
const CaseContextSchema = z.looseObject({
  discussion_id: z.string(),
  decision_id: z.string(),
  member: z.string(),
  metric: z.string().default(''),
  actions: z.array(z.string()),
  verdict: z.enum([...VERDICTS, '']),
});

export type CaseContext = z.output<typeof CaseContextSchema>;

// The case in a context cell, or null when the cell holds no case (not JSON, or JSON of another shape).
export function parseCaseContext(text: string): CaseContext | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const r = CaseContextSchema.safeParse(v);
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

// A verdict moves the confidence of every learning applied in the decision (SPEC §8.5).
export function applyVerdict(l: Learning, verdict: Verdict, r: LearningRules): Learning {
  if (verdict === 'inconclusive') return l;
  const confidence = Math.max(
    0,
    Math.min(1, Math.round((l.confidence + (verdict === 'confirmed' ? r.confirmStep : -r.rejectStep)) * 1000) / 1000),
  );
  const times_successful = l.times_successful + (verdict === 'confirmed' ? 1 : 0);
  const promoted = l.scope === 'individual' && times_successful >= r.promoteAfter;
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
): { scope: 'individual' | 'shared'; agent_id: string; category: string; content: string; context: string }[] {
  const order = orderOf(d);
  if (!order || verdict === 'inconclusive') return [];
  const chosen = order.actions.map((a) => a.action_type);
  const situation = situationText(d);
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

export interface ReflectionContent {
  agent_id: string;
  self_score: number;
  reasoning: string;
  went_well: string;
  to_improve: string;
  next_actions: string[];
}

// Each agent that spoke scores itself against the verdict: advice carried out and confirmed scores high.
export function reflect(d: Discussion, verdict: Verdict, lang: 'ja' | 'en'): ReflectionContent[] {
  const order = orderOf(d);
  const chosen = order ? order.actions.map((a) => a.action_type) : [];
  const t = (ja: string, en: string) => (lang === 'ja' ? ja : en);
  const speakers: string[] = [];
  for (const m of d.messages)
    if (m.speaker !== 'system' && m.speaker !== 'human' && speakers.indexOf(m.speaker) < 0) speakers.push(m.speaker);
  return speakers.map((agent) => {
    const op = d.messages.find((m: Message) => m.speaker === agent && m.message_type === 'SPECIALIST_OPINION');
    const rec = op ? (op.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type : '';
    const adopted = rec !== '' && chosen.indexOf(rec) >= 0;
    let score = verdict === 'confirmed' ? 7 : verdict === 'rejected' ? 4 : 5;
    if (rec)
      score += adopted
        ? verdict === 'confirmed'
          ? 2
          : verdict === 'rejected'
            ? -2
            : 0
        : verdict === 'rejected'
          ? 1
          : -1;
    if (op?.metadata.default_opinion) score = 2;
    score = Math.max(1, Math.min(10, score));
    const improve = op?.metadata.default_opinion
      ? t('期限内に使える回答を返す', 'Return a usable answer in time')
      : verdict === 'rejected' && adopted
        ? t(`${rec} が効かなかった状況の見極め`, `Tell apart situations where ${rec} does not work`)
        : verdict === 'inconclusive'
          ? t('判定に足るデータ期間を見込む', 'Allow for enough data to judge')
          : t('根拠となるデータを増やす', 'Back the advice with more data');
    return {
      agent_id: agent,
      self_score: score,
      reasoning: t(
        `判定は ${verdict}、推奨 ${rec || '-'} は${adopted ? '採用' : '不採用'}`,
        `Verdict ${verdict}; recommendation ${rec || '-'} ${adopted ? 'adopted' : 'not adopted'}`,
      ),
      went_well:
        verdict === 'confirmed' && adopted
          ? t(`${rec} の提案が成果につながった`, `Recommending ${rec} paid off`)
          : t('議論に必要な視点を出せた', 'Contributed a needed view'),
      to_improve: improve,
      next_actions: [
        improve,
        verdict === 'rejected'
          ? t('似た事例で否定された施策を避ける', 'Avoid actions rejected in similar cases')
          : t('似た事例で確認された施策を参照する', 'Refer to actions confirmed in similar cases'),
      ],
    };
  });
}

// Seed 003 §12.5: when an agent writes to a person instead of staying quiet. A condition speaks once,
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

// `text` gives a point's words where the history keeps only its key (src/core/reflection-history.ts).
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
