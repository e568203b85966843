// What a reviewed decision teaches: the model's learnings when it gives valid ones, else the rule-based extraction.
import { learningRequest } from './engine.js';
import type { EngineEnv } from './engine.js';
import { applyVerdict, extractLearnings, type Learning, type LearningRules, parseCaseContext } from './memory.js';
import type { LearningContent } from './messages.js';
import type { AgentRequest, AgentResponse } from './provider.js';
import { validationErrors } from './providers/http.js';
import { write, type ReviewOp, type SeqName } from './review-ops.js';
import type { Assessment } from './review-plan.js';
import type { ModelReflection } from './review-reflections.js';
import type { Settings } from './settings.js';

// A learning about to be written, before it has an id, a confidence or an embedding.
interface NewLearning {
  scope: 'individual' | 'shared';
  agent_id: string;
  category: string;
  content: string;
  context: string;
  // The provider:model that wrote it when that is not the Learned's source (an agent's own reflection).
  source?: string;
}

// The model's valid answer to the learning schema, with the model that gave it.
export interface LearningAnswer {
  learnings: LearningContent['learnings'];
  model: string;
}

export interface Learned {
  items: NewLearning[];
  // `rules`, or the provider:model that filled the schema; written into each new learning's source.
  source: string;
  // The agents' own model reflections, for the review to write (src/core/review-reflections.ts); absent: none.
  reflections?: ModelReflection[];
}

export function learningRulesOf(s: Settings): LearningRules {
  return {
    initial: s.number('learning.initial_confidence'),
    confirmStep: s.number('learning.confirm_step'),
    rejectStep: s.number('learning.reject_step'),
    deactivateBelow: s.number('learning.deactivate_below'),
    promoteAfter: s.number('learning.promote_after_successes'),
  };
}

// Asks the decider's provider to fill the learning schema. It calls a model, so the app runs it outside the lock.
// An inconclusive verdict teaches nothing; an invalid or failed answer leaves the rules to extract (null).
export function askForLearnings(a: Assessment, env: EngineEnv): LearningAnswer | null {
  const { ev } = a;
  if (ev.verdict === 'inconclusive') return null;
  const req = learningRequest(a.discussion, env, { verdict: ev.verdict, error: ev.error, measured: ev.measured });
  if (!req) return null;
  const [res] = env.providerFor(req.agent).respond([req]);
  return learningAnswerOf(req, res);
}

// The learnings in a valid answer to the learning request, else null (the rules extract instead).
export function learningAnswerOf(req: AgentRequest, res: AgentResponse): LearningAnswer | null {
  if (!res.ok || validationErrors(req, res.content)) return null;
  return { learnings: (res.content as LearningContent).learnings, model: res.model };
}

// The learnings to write: the model's (a shared one belongs to no agent), or the rule-based fallback. An agent whose
// own model reflected keeps its lesson as its individual learning (seed 003 §11), with that model as source; the
// decider's or the rules' individual learnings for it are left out, so one decision teaches an agent one thing.
export function newLearnings(
  a: Assessment,
  lang: 'ja' | 'en',
  answer: LearningAnswer | null,
  reflections: ModelReflection[] = [],
): Learned {
  const base: Learned = answer
    ? {
        items: answer.learnings.map((x) => ({ ...x, agent_id: x.scope === 'shared' ? '' : x.agent_id })),
        source: answer.model,
      }
    : { items: extractLearnings(a.discussion, a.ev.verdict, lang), source: 'rules' };
  if (!reflections.length) return base;
  // An inconclusive verdict teaches nothing (as the rules and the learning call have it): the reflection is kept,
  // its lesson is not.
  const lessons = a.ev.verdict === 'inconclusive' ? [] : reflections.filter((r) => r.answer);
  const own = lessons.map((r) => r.agent_id);
  const context = JSON.stringify({ discussion_id: a.discussion_id, verdict: a.ev.verdict });
  return {
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
        })),
      ),
  };
}

// Learnings applied in the decision move with the verdict; the decision's case records it. Both are written
// after the commit point, so a replay never moves a confidence twice.
export function moveLearnings(
  a: Assessment,
  learnings: readonly Learning[],
  rules: LearningRules,
): { ops: ReviewOp[]; learnings: Learning[] } {
  const verdict = a.ev.verdict;
  const applied = new Set<string>();
  for (const m of a.discussion.messages) for (const x of m.metadata.learnings ?? []) applied.add(x);
  const ops: ReviewOp[] = [];
  const moved = learnings.map((l) => {
    // A case whose context holds no case belongs to no decision (the daily review names it to a person).
    const ctx = l.scope === 'case' ? parseCaseContext(l.context) : null;
    const isCase = ctx !== null && ctx.decision_id === a.decision_id;
    if (!applied.has(l.learning_id) && !isCase) return l;
    const next = isCase ? { ...l, context: JSON.stringify({ ...ctx, verdict }) } : applyVerdict(l, verdict, rules);
    ops.push(
      write(
        'learnings',
        'after',
        l.row,
        isCase
          ? { context: next.context }
          : {
              scope: next.scope,
              agent_id: next.agent_id,
              confidence: next.confidence,
              times_successful: next.times_successful,
              is_active: next.is_active,
            },
        {
          actor: 'kaigi',
          event: isCase ? 'case_verdict' : 'learning_updated',
          tab: 'Learnings',
          row_key: l.learning_id,
          payload: { verdict, confidence: next.confidence, active: next.is_active, scope: next.scope },
        },
      ),
    );
    return next;
  });
  return { ops, learnings: moved };
}

// New learnings as Learnings rows, with the embeddings computed for them before the lock.
export function newLearningOps(
  a: Assessment,
  outcomeId: string,
  learned: Learned & { embeddings: string[] },
  w: { rules: LearningRules; now: number; embeddingModel: string; next: (name: SeqName) => number },
): ReviewOp[] {
  if (learned.embeddings.length !== learned.items.length)
    throw new Error(`${learned.items.length} new learnings came with ${learned.embeddings.length} embeddings`);
  return learned.items.map((f, i) => {
    const id = `LRN-${w.next('learning')}`;
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
        is_active: true,
        source: `${outcomeId} ${f.source ?? learned.source}`,
        embedding: learned.embeddings[i],
        embedding_model: w.embeddingModel,
        created_at: new Date(w.now),
        last_applied_at: '',
      },
      {
        actor: 'kaigi',
        event: 'learning',
        tab: 'Learnings',
        row_key: id,
        payload: { scope: f.scope, agent_id: f.agent_id, verdict: a.ev.verdict },
      },
      `Learnings:${id}`,
    );
  });
}
