// The learning lifecycle in the review plan (docs/learning-lifecycle.md): a near-duplicate merges (audited), a
// promotion waits for a person unless learning.auto_promote, and the milestone and weekly status report follow their
// rules.
import { describe, expect, it } from 'vitest';
import { embedOffline, encodeVector } from '../../../../src/core/memory/embedding.js';
import { milestones, statusReport, statusReportDue } from '../../../../src/core/memory/inbox-reports.js';
import type { Learning } from '../../../../src/core/memory/memory.js';
import { learningRulesOf } from '../../../../src/core/memory/review-learnings.js';
import { duePromotion, mergeTarget } from '../../../../src/core/memory/review-lifecycle.js';
import { planReview, type AgentStats } from '../../../../src/core/memory/review-plan.js';
import { Settings } from '../../../../src/core/settings.js';
import { DISC } from '../env.js';
import { assessed, kpi, memory, SITUATION, world, writes } from '../review-fixtures.js';

const MODEL = 'kaigi-ngram-v1:256';
const cell = (text: string) => encodeVector(embedOffline(text, 256));
const WORKED = `「${SITUATION}」で GOAL_ADJUSTMENT は効果があった`;
const RULES = learningRulesOf(new Settings({}));

function learning(over: Partial<Learning>): Learning {
  return {
    row: 20,
    learning_id: 'LRN-9',
    scope: 'individual',
    agent_id: 'analyst',
    category: 'GOAL_ADJUSTMENT',
    content: WORKED,
    context: JSON.stringify({ discussion_id: 'DISC-2026-01-01-001', verdict: 'confirmed' }),
    confidence: 0.5,
    times_applied: 0,
    times_successful: 0,
    is_active: true,
    source: 'OUT-1 rules',
    embedding: cell(WORKED),
    embedding_model: MODEL,
    evidence_count: 1,
    promotion: '',
    ...over,
  };
}

describe('learning lifecycle', () => {
  it('merges a new learning into the active one of the same agent it repeats, audited, instead of a new row', () => {
    const a = assessed(kpi(10, 12));
    const mem = memory();
    mem.learnings.push(learning({}));
    const items = [
      {
        scope: 'individual' as const,
        agent_id: 'analyst',
        category: 'GOAL_ADJUSTMENT',
        content: WORKED,
        context: JSON.stringify({ discussion_id: DISC, verdict: 'confirmed' }),
      },
      // Another agent's learning of the same words is its own row.
      {
        scope: 'individual' as const,
        agent_id: 'coaching',
        category: 'GOAL_ADJUSTMENT',
        content: WORKED,
        context: JSON.stringify({ discussion_id: DISC, verdict: 'confirmed' }),
      },
    ];
    const { commit, memory: after } = planReview(
      a,
      { items, source: 'rules', embeddings: items.map((x) => cell(x.content)) },
      mem,
      world(),
    );
    const rows = writes(commit.ops, 'learnings');
    const merged = rows.find((w) => w.row === 20)!;
    expect(merged.at).toBe('after');
    expect(merged.values).toMatchObject({ evidence_count: 2, confidence: 0.55, scope: 'individual' });
    expect(merged.audit).toMatchObject({ event: 'learning_merged', row_key: 'LRN-9' });
    expect(merged.audit.payload).toMatchObject({ outcome_id: 'OUT-4', evidence_count: 2, confidence: 0.55 });
    expect(Number(merged.audit.payload.similarity)).toBeGreaterThanOrEqual(0.85);
    expect(rows.filter((w) => w.at === 'append').map((w) => w.values.agent_id)).toEqual(['coaching']);
    expect(after.learnings.find((l) => l.learning_id === 'LRN-9')).toMatchObject({ evidence_count: 2 });
  });

  it('never merges the opposite verdict, another category, an inactive row, or below the threshold', () => {
    const failed = `「${SITUATION}」で GOAL_ADJUSTMENT は効果がなかった`;
    const item = { scope: 'individual', agent_id: 'analyst', category: 'GOAL_ADJUSTMENT' };
    const rejected = { ...item, context: JSON.stringify({ verdict: 'rejected' }) };
    // Close in words, so only the verdict keeps them apart.
    expect(mergeTarget(rejected, cell(failed), [learning({})], MODEL, 0.5)).toBeNull();
    const confirmed = { ...item, context: JSON.stringify({ verdict: 'confirmed' }) };
    expect(mergeTarget(confirmed, cell(WORKED), [learning({ category: 'PRAISE_INCREASE' })], MODEL, 0.85)).toBeNull();
    expect(mergeTarget(confirmed, cell(WORKED), [learning({ is_active: false })], MODEL, 0.85)).toBeNull();
    expect(mergeTarget(confirmed, cell('全く別の話題について'), [learning({})], MODEL, 0.85)).toBeNull();
    expect(mergeTarget(confirmed, cell(WORKED), [learning({})], MODEL, 0.85)?.target.learning_id).toBe('LRN-9');
    // Vectors of another model are never compared.
    expect(mergeTarget(confirmed, cell(WORKED), [learning({ embedding_model: 'x:256' })], MODEL, 0.85)).toBeNull();
  });

  it('proposes a promotion once, and promotes at once only with learning.auto_promote', () => {
    const ready = learning({ times_applied: 12, times_successful: 10 });
    expect(duePromotion(ready, RULES)).toBe(true);
    expect(duePromotion({ ...ready, promotion: 'proposed INB-3' }, RULES)).toBe(false);
    expect(duePromotion({ ...ready, promotion: 'declined INB-3 by lead@example.com' }, RULES)).toBe(false);
    expect(duePromotion({ ...ready, times_successful: 9 }, RULES)).toBe(false);
    const auto = learningRulesOf(new Settings({ 'learning.auto_promote': 'true' }));
    expect(duePromotion(ready, auto)).toBe(false);
    const a = assessed(kpi(10, 12));
    const { commit } = planReview(a, { items: [], source: 'rules', embeddings: [] }, memory(), {
      ...world(),
      rules: auto,
    });
    const lrn2 = writes(commit.ops, 'learnings').find((w) => w.row === 3)!;
    expect(lrn2.values).toMatchObject({ scope: 'shared', agent_id: '', promotion: '' });
    expect(lrn2.audit.event).toBe('learning_promoted');
    expect(writes(commit.ops, 'inbox').some((w) => w.values.type === 'proposal')).toBe(false);
  });

  it('reads a renamed setting from its former row', () => {
    expect(learningRulesOf(new Settings({ 'learning.promote_after_successes': '4' })).promoteAfter).toBe(4);
    const both = { 'learning.promote_after_successes': '4', 'learning.auto_promote_count': '6' };
    expect(learningRulesOf(new Settings(both)).promoteAfter).toBe(6);
  });

  it('names an agent in a milestone once when its accuracy rises to the threshold with enough calls', () => {
    const w = world();
    const rule = { accuracy: 0.7, minVerdicts: 10 };
    const stats: Record<string, AgentStats> = {
      analyst: { hits: 7, misses: 3, brier: 1, n: 10 },
      coaching: { hits: 7, misses: 2, brier: 1, n: 9 },
      legal: { hits: 6, misses: 4, brier: 1, n: 10 },
    };
    const first = milestones(stats, rule, DISC, w);
    expect(writes(first.ops, 'inbox').map((o) => [o.values.from_agent, o.values.type])).toEqual([
      ['analyst', 'milestone'],
    ]);
    expect(first.stats.analyst.milestone).toBe(0.7);
    expect(first.stats.coaching.milestone).toBeUndefined();
    // Said once: the next review with the mark names nobody; a higher threshold is news again.
    expect(milestones(first.stats, rule, DISC, w).ops).toEqual([]);
    expect(milestones(first.stats, { accuracy: 0.65, minVerdicts: 10 }, DISC, w).ops).toEqual([]);
    const higher = { ...first.stats, analyst: { ...first.stats.analyst, hits: 9, misses: 1 } };
    expect(milestones(higher, { accuracy: 0.9, minVerdicts: 10 }, DISC, w).ops).toHaveLength(1);
  });

  it('writes a status report every inbox.status_report_days with decisions, verdict rates, flips and budget', () => {
    const DAY = 86_400_000;
    const now = Date.parse('2026-02-01T00:30:00Z');
    expect(statusReportDue(null, now, 7)).toBe(true);
    expect(statusReportDue(now - 6 * DAY, now, 7)).toBe(false);
    expect(statusReportDue(now - 7 * DAY, now, 7)).toBe(true);
    expect(statusReportDue(null, now, 0)).toBe(false);
    const w = { ...world(), now, lang: 'en' as const };
    const rows = {
      discussions: [
        { at: now - DAY, status: 'CLOSED', tokens: 1000, cost: 0.25 },
        { at: now - 2 * DAY, status: 'ESCALATED', tokens: 500, cost: 0.125 },
        // Before the window: not counted.
        { at: now - 8 * DAY, status: 'CLOSED', tokens: 9000, cost: 9 },
      ],
      outcomes: [
        { at: now - DAY, verdict: 'confirmed', flip: true },
        { at: now - DAY, verdict: 'rejected', flip: false },
        { at: now - 3 * DAY, verdict: 'inconclusive', flip: '' as const },
        { at: now - 2 * DAY, verdict: 'confirmed', flip: false },
      ],
    };
    const r = statusReport(rows, now - 7 * DAY, 7, w)!;
    expect(r.inbox).toMatchObject({ type: 'status_report', priority: 'low', from_agent: 'decider' });
    expect(r.inbox.body.split('\n')).toEqual([
      'Last 7 days: 2 discussions (1 decided, 1 escalated)',
      '4 verdicts: 2 confirmed (50%), 1 rejected (25%), 1 inconclusive (25%)',
      '1 decisions overturned the first majority (1 of them confirmed)',
      '1500 tokens, $0.38 spent',
    ]);
    expect(r.op.kind === 'write' && r.op.audit.payload).toMatchObject({ discussions: 2, flips: 1, tokens: 1500 });
    // A quiet week says nothing.
    expect(statusReport({ discussions: [], outcomes: [] }, now - 7 * DAY, 7, w)).toBeNull();
  });
});
