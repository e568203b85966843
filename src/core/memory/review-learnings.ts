// What a reviewed decision teaches: the model's learnings when it gives valid ones, else the rule-based extraction.
import { forLearning } from './effect-learning.js';
import { learningRequest } from '../engine.js';
import type { EngineEnv } from '../engine.js';
import {
  applyVerdict,
  extractLearnings,
  type Learning,
  type LearningRules,
  parseCaseContext,
  type SituationNames,
} from './memory.js';
import type { LearningContent } from '../discussion/messages.js';
import type { AgentRequest, AgentResponse } from '../provider.js';
import { validationErrors } from '../providers/http.js';
import { write, type ReviewOp, type SeqName } from './review-ops.js';
import type { Assessment, ModelReflection } from './review-types.js';
import {
  duePromotion,
  lifecycleValues,
  mergeOp,
  mergeTarget,
  promotionProposal,
  type LifecycleWorld,
} from './review-lifecycle.js';
import type { Settings } from '../settings.js';
import { inboxOp } from './inbox-reports.js';
import type { InboxItem } from '../types.js';

// A learning about to be written, before it has an id, a confidence or an embedding.
interface NewLearning {
  scope: 'individual' | 'shared';
  agent_id: string;
  category: string;
  content: string;
  context: string;
  // The provider:model that wrote it when that is not the Learned's source (an agent's own reflection).
  source?: string;
  // A model wrote it: it waits, inactive, for a coordinator's approval before any prompt reads it.
  awaiting?: boolean;
}

// The model's valid answer to the learning schema, with the model that gave it and the agent it was asked of.
export interface LearningAnswer {
  learnings: LearningContent['learnings'];
  model: string;
  agent: string;
}

export interface Learned {
  items: NewLearning[];
  // `rules`, or the provider:model that filled the schema; written into each new learning's source.
  source: string;
  // The agents' own model reflections, for the review to write (src/core/memory/review-reflections.ts); absent: none.
  reflections?: ModelReflection[];
}

export function learningRulesOf(s: Settings): LearningRules {
  return {
    initial: s.number('learning.initial_confidence'),
    confirmStep: s.number('learning.confirm_step'),
    rejectStep: s.number('learning.reject_step'),
    inconclusiveStep: s.number('learning.inconclusive_step'),
    ceiling: s.number('learning.confidence_cap'),
    floor: s.number('learning.confidence_floor'),
    deactivateBelow: s.number('learning.deactivate_below'),
    promoteAfter: s.number('learning.auto_promote_count'),
    autoPromote: s.get('learning.auto_promote'),
    mergeSimilarity: s.number('learning.merge_similarity'),
  };
}

// Asks the decider's provider to fill the learning schema. It calls a model, so the app runs it outside the lock.
// An inconclusive verdict teaches nothing; an invalid or failed answer leaves the rules to extract (null).
export function askForLearnings(forecast: Assessment, env: EngineEnv): LearningAnswer | null {
  const req = learningRequestOf(forecast, env);
  if (!req) return null;
  const [res] = env.providerFor(req.agent).respond([req]);
  return learningAnswerOf(req, res);
}

// The learning call's request, or null when there is nothing to learn (an unclear effect). What works is learned from
// the effect; the model is shown the forecast's measures beside it.
export function learningRequestOf(forecast: Assessment, env: EngineEnv): AgentRequest | null {
  const { ev } = forLearning(forecast);
  if (ev.verdict === 'inconclusive') return null;
  const measured = { effect: ev.effect, forecast: { verdict: forecast.ev.verdict, metrics: ev.measured } };
  return learningRequest(forecast.discussion, env, { verdict: ev.verdict, error: ev.error, measured });
}

// The learnings in a valid answer to the learning request, else null (the rules extract instead).
export function learningAnswerOf(req: AgentRequest, res: AgentResponse): LearningAnswer | null {
  if (!res.ok || validationErrors(req, res.content)) return null;
  return { learnings: (res.content as LearningContent).learnings, model: res.model, agent: req.agent.agent_id };
}

// Written by a model (provider:model), not by Kaigi's rules, which read nobody's free text.
const byModel = (source: string): boolean =>
  source !== 'rules' && source.indexOf('rules:') !== 0 && source.indexOf('rules ') !== 0;

// The learnings to write: the model's, or the rule-based fallback. An agent whose own model reflected keeps its lesson
// as its individual learning, with that model as source; the decider's or the rules' individual learnings for it are
// left out, so one decision teaches an agent one thing. What a model wrote read untrusted text (an executor's report,
// a client's trigger), so it starts individual (a shared one as the learning call's agent's own) and awaiting a
// coordinator's approval: no prompt reads it before, and sharing it goes through promotion like any other.
export function newLearnings(
  forecast: Assessment,
  lang: 'ja' | 'en',
  answer: LearningAnswer | null,
  reflections: ModelReflection[] = [],
  names: SituationNames = {},
): Learned {
  const a = forLearning(forecast);
  const base: Learned = answer
    ? {
        items: answer.learnings.map((x) => ({
          ...x,
          agent_id: x.scope === 'shared' ? '' : x.agent_id,
          awaiting: byModel(answer.model),
        })),
        source: answer.model,
      }
    : { items: extractLearnings(a.discussion, a.ev.verdict, lang, names), source: 'rules' };
  // A shared learning a model wrote becomes the learning call's agent's own (after the reflections' lessons have
  // taken their agents' places, so it is not mistaken for one of them).
  const ownedBy = (l: Learned): Learned => ({
    ...l,
    items: l.items.map((x) =>
      x.awaiting && x.scope === 'shared' ? { ...x, scope: 'individual', agent_id: answer?.agent ?? x.agent_id } : x,
    ),
  });
  if (!reflections.length) return ownedBy(base);
  // An inconclusive verdict teaches nothing (as the rules and the learning call have it): the reflection is kept,
  // its lesson is not.
  const lessons = a.ev.verdict === 'inconclusive' ? [] : reflections.filter((r) => r.answer);
  const own = lessons.map((r) => r.agent_id);
  const context = JSON.stringify({ discussion_id: a.discussion_id, verdict: a.ev.verdict });
  return ownedBy({
    source: base.source,
    reflections,
    items: base.items
      .filter((x) => x.scope !== 'individual' || own.indexOf(x.agent_id) < 0)
      .concat(
        lessons.map((r) => ({
          scope: 'individual' as const,
          agent_id: r.agent_id,
          category: r.answer!.category,
          content: r.answer!.lesson,
          context,
          source: r.source,
          awaiting: byModel(r.source),
        })),
      ),
  });
}

// Learnings applied in the decision move with the verdict; the decision's case records it. Both are written
// after the commit point, so a replay never moves a confidence twice. A learning that reaches its successes is
// promoted at once (learning.auto_promote) or proposed to a person in the Inbox.
export function moveLearnings(
  forecast: Assessment,
  learnings: readonly Learning[],
  rules: LearningRules,
  w: LifecycleWorld,
): { ops: ReviewOp[]; learnings: Learning[] } {
  const a = forLearning(forecast);
  const verdict = a.ev.verdict;
  const applied = new Set<string>();
  for (const m of a.discussion.messages) for (const x of m.metadata.learnings ?? []) applied.add(x);
  const ops: ReviewOp[] = [];
  const moved = learnings.map((l) => {
    // A case whose context holds no case belongs to no decision (the daily review names it to a person).
    const ctx = l.scope === 'case' ? parseCaseContext(l.context) : null;
    const isCase = ctx !== null && ctx.decision_id === a.decision_id;
    if (!applied.has(l.learning_id) && !isCase) return l;
    if (isCase) {
      const next = { ...l, context: JSON.stringify({ ...ctx, verdict }) };
      ops.push(
        write(
          'learnings',
          'after',
          l.row,
          { context: next.context },
          {
            actor: 'kaigi',
            event: 'case_verdict',
            tab: 'Learnings',
            row_key: l.learning_id,
            payload: { verdict, confidence: next.confidence, active: next.is_active, scope: next.scope },
          },
        ),
      );
      return next;
    }
    let next = applyVerdict(l, verdict, rules);
    const proposal = duePromotion(next, rules) ? promotionProposal(next, a.discussion_id, w) : null;
    if (proposal) next = { ...next, promotion: proposal.promotion };
    const promoted = l.scope !== next.scope;
    ops.push(
      write('learnings', 'after', l.row, lifecycleValues(next), {
        actor: 'kaigi',
        event: promoted ? 'learning_promoted' : 'learning_updated',
        tab: 'Learnings',
        row_key: l.learning_id,
        payload: {
          verdict,
          confidence: next.confidence,
          active: next.is_active,
          scope: next.scope,
          ...(proposal ? { proposed: proposal.inbox.inbox_id } : {}),
        },
      }),
    );
    if (proposal) ops.push(proposal.op);
    return next;
  });
  return { ops, learnings: moved };
}

// New learnings as Learnings rows, with the embeddings computed for them before the lock. One that repeats an active
// learning of the same agent (learning.merge_similarity) strengthens that row instead.
export function newLearningOps(
  a: Assessment,
  outcomeId: string,
  learned: Learned & { embeddings: string[] },
  learnings: Learning[],
  w: {
    rules: LearningRules;
    now: number;
    lang: 'ja' | 'en';
    embeddingModel: string;
    next: (name: SeqName) => number;
  },
): ReviewOp[] {
  if (learned.embeddings.length !== learned.items.length)
    throw new Error(`${learned.items.length} new learnings came with ${learned.embeddings.length} embeddings`);
  // One Inbox proposal for every learning a model wrote from this verdict: approved, they become active.
  const awaiting = learned.items.some((f) => f.awaiting) ? `INB-${w.next('inbox')}` : '';
  const written: { id: string; f: NewLearning }[] = [];
  const ops = learned.items.map((f, i) => {
    // An unapproved learning never strengthens an approved one: it is its own row until a person answers.
    const hit = f.awaiting
      ? null
      : mergeTarget(f, learned.embeddings[i], learnings, w.embeddingModel, w.rules.mergeSimilarity);
    if (hit) {
      const m = mergeOp(hit.target, hit.similarity, { content: f.content, outcomeId }, w.rules);
      learnings[learnings.indexOf(hit.target)] = m.learning;
      return m.op;
    }
    const id = `LRN-${w.next('learning')}`;
    if (f.awaiting) written.push({ id, f });
    return write(
      'learnings',
      'append',
      0,
      {
        learning_id: id,
        scope: f.scope,
        agent_id: f.agent_id,
        category: f.category,
        content: f.content,
        context: f.context,
        confidence: w.rules.initial,
        times_applied: 0,
        times_successful: 0,
        is_active: !f.awaiting,
        source: `${outcomeId} ${f.source ?? learned.source}`,
        embedding: learned.embeddings[i],
        embedding_model: w.embeddingModel,
        created_at: new Date(w.now),
        last_applied_at: '',
        success_rate: 0,
        evidence_count: 1,
        promotion: f.awaiting ? `awaiting ${awaiting}` : '',
      },
      {
        actor: 'kaigi',
        event: 'learning',
        tab: 'Learnings',
        row_key: id,
        payload: {
          scope: f.scope,
          agent_id: f.agent_id,
          verdict: a.ev.verdict,
          ...(f.awaiting ? { awaiting: awaiting } : {}),
        },
      },
      `Learnings:${id}`,
    );
  });
  if (awaiting) ops.push(approvalOp(awaiting, a.discussion_id, written, w));
  return ops;
}

// The Inbox proposal that model-written learnings wait on, listing each with the agent it is for.
function approvalOp(
  id: string,
  discussionId: string,
  written: { id: string; f: NewLearning }[],
  w: { now: number; lang: 'ja' | 'en' },
): ReviewOp {
  const ja = w.lang === 'ja';
  const lines = written.map(({ id: lid, f }) => `${lid} (${f.agent_id}): ${f.content}`).join('\n');
  const inbox: InboxItem = {
    inbox_id: id,
    from_agent: 'kaigi',
    type: 'proposal',
    priority: 'normal',
    title: ja
      ? `モデルが書いた知見 ${written.length} 件の承認`
      : `Approve ${written.length} learning${written.length === 1 ? '' : 's'} a model wrote`,
    body: ja
      ? `${discussionId} の結果からモデルが書いた知見です。承認するまでどのエージェントも参照しません。\n${lines}`
      : `Learnings a model wrote from the outcome of ${discussionId}. No agent reads them until they are approved.\n${lines}`,
    discussion_id: discussionId,
  };
  return inboxOp(inbox, w, { learnings: written.map((x) => x.id) });
}
