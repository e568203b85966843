// The learning lifecycle in the review: a near-duplicate learning merges into the one it repeats, and a learning
// with enough successes is proposed to a person for shared (unless learning.auto_promote promotes it at once).
import { decodeVector, isVectorCell } from './embedding.js';
import { successRate, type Learning, type LearningRules } from './memory.js';
import { stepConfidence } from './confidence-step.js';
import { inboxOp, type ItemWorld } from './inbox-reports.js';
import { write, type ReviewOp } from './review-ops.js';
import type { InboxItem } from '../types.js';

// The world a lifecycle step writes into: the commit's clock, counters and language.
export type LifecycleWorld = ItemWorld;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.sqrt(dot(a, a) * dot(b, b));
  return n > 0 ? dot(a, b) / n : 0;
}

// The verdict a rule-written learning's context records, '' when it records none (a model's free text).
function verdictOf(context: string): string {
  try {
    const v = JSON.parse(context) as unknown;
    return v && typeof v === 'object' && typeof (v as { verdict?: unknown }).verdict === 'string'
      ? (v as { verdict: string }).verdict
      : '';
  } catch {
    return '';
  }
}

// The active individual learning of the same agent that a new one repeats, the most similar at or above
// `minSimilarity`, with its similarity; null when none does. Only vectors of the same model are compared. The
// category must match, and where both contexts record a verdict, the verdict too: "X worked" and "X did not work"
// read alike to an embedding, and merging them would strengthen the opposite of what was learned.
export function mergeTarget(
  item: { scope: string; agent_id: string; category: string; context: string },
  embedding: string,
  learnings: readonly Learning[],
  embeddingModel: string,
  minSimilarity: number,
): { target: Learning; similarity: number } | null {
  // A cell in no stored format (not embedded yet, or edited by hand) is never compared.
  const dims = Number(embeddingModel.slice(embeddingModel.lastIndexOf(':') + 1));
  if (item.scope !== 'individual' || !(dims > 0) || !isVectorCell(embedding, dims)) return null;
  const v = decodeVector(embedding, dims);
  const verdict = verdictOf(item.context);
  let best: { target: Learning; similarity: number } | null = null;
  for (const l of learnings) {
    if (l.scope !== 'individual' || !l.is_active || l.agent_id !== item.agent_id) continue;
    if (l.category !== item.category || l.embedding_model !== embeddingModel || !isVectorCell(l.embedding, dims))
      continue;
    const was = verdictOf(l.context);
    if (verdict && was && verdict !== was) continue;
    const sim = cosine(v, decodeVector(l.embedding, dims));
    if (sim >= minSimilarity && (!best || sim > best.similarity)) best = { target: l, similarity: sim };
  }
  return best;
}

// The learning's row as the lifecycle leaves it: every column the review may have moved, so a second update of the
// same row in one commit (each starts from the row as stored) keeps the first one's changes.
export function lifecycleValues(l: Learning) {
  return {
    scope: l.scope,
    agent_id: l.agent_id,
    confidence: l.confidence,
    times_successful: l.times_successful,
    success_rate: successRate(l.times_applied, l.times_successful),
    is_active: l.is_active,
    evidence_count: l.evidence_count ?? 1,
    promotion: l.promotion ?? '',
  };
}

// A new learning merged into `target`: one more piece of evidence and the confidence a confirmation adds.
export function mergeOp(
  target: Learning,
  similarity: number,
  merged: { content: string; outcomeId: string },
  rules: LearningRules,
): { op: ReviewOp; learning: Learning } {
  const learning: Learning = {
    ...target,
    evidence_count: (target.evidence_count ?? 1) + 1,
    confidence: stepConfidence(target.confidence, 'confirmed', rules),
  };
  const op = write('learnings', 'after', target.row, lifecycleValues(learning), {
    actor: 'kaigi',
    event: 'learning_merged',
    tab: 'Learnings',
    row_key: target.learning_id,
    payload: {
      similarity: Math.round(similarity * 1000) / 1000,
      outcome_id: merged.outcomeId,
      content: merged.content,
      evidence_count: learning.evidence_count,
      confidence: learning.confidence,
    },
  });
  return { op, learning };
}

// Whether a learning has earned a proposal: individual, active, enough successes, never proposed before (a person's
// "no" stands; a proposal still open is not asked twice).
export function duePromotion(l: Learning, rules: LearningRules): boolean {
  return (
    !rules.autoPromote &&
    l.scope === 'individual' &&
    l.is_active &&
    l.times_successful >= rules.promoteAfter &&
    !l.promotion
  );
}

// The Inbox proposal for a learning that earned promotion, from the agent that owns it; the learning's promotion
// cell names the item, which is how a person's answer finds the learning (src/app/steer/promotion.ts).
export function promotionProposal(
  l: Learning,
  discussionId: string,
  w: LifecycleWorld,
): { inbox: InboxItem; promotion: string; op: ReviewOp } {
  const rate = Math.round(successRate(l.times_applied, l.times_successful) * 100);
  const inbox: InboxItem = {
    inbox_id: `INB-${w.next('inbox')}`,
    from_agent: l.agent_id,
    type: 'proposal',
    priority: 'normal',
    title:
      w.lang === 'ja' ? `${l.learning_id} を共有知見に昇格する提案` : `Promote ${l.learning_id} to a shared learning`,
    body:
      w.lang === 'ja'
        ? `「${l.content}」は ${l.times_successful} 回成功しました（適用 ${l.times_applied} 回、成功率 ${rate}%、確信度 ${l.confidence}）。承認すると全エージェントが参照します。`
        : `"${l.content}" succeeded ${l.times_successful} times (applied ${l.times_applied}, success rate ${rate}%, confidence ${l.confidence}). Approved, every agent will draw on it.`,
    discussion_id: discussionId,
  };
  const op = inboxOp(inbox, w, { title: inbox.title, learning_id: l.learning_id });
  return { inbox, promotion: `proposed ${inbox.inbox_id}`, op };
}
