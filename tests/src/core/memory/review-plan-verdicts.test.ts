// The daily review's plan on other verdicts: a rejected review, orders reported any way, an inconclusive review,
// memory carried between decisions, and the first-answer majority and flip in Outcomes.
import { describe, expect, it } from 'vitest';
import {
  assessReview,
  planReview,
  type Assessment,
  type ReviewMemory,
} from '../../../../src/core/memory/review-plan.js';
import type { Discussion } from '../../../../src/core/types.js';
import { DISC } from '../env.js';
import {
  DEC,
  AT,
  T,
  D,
  kpi,
  DUE,
  assessed,
  CASE_CTX,
  memory,
  world,
  withEmbeddings,
  writes,
} from '../review-fixtures.js';

// A learning's row as the review writes it back when it stays the agent's own.
function kept(over: Record<string, unknown>) {
  return { scope: 'individual', agent_id: 'analyst', is_active: true, evidence_count: 1, promotion: '', ...over };
}

describe('planReview', () => {
  it('lowers confidence on a rejected review, deactivates below the floor, and tells a person of a struggle', () => {
    const a = assessed(kpi(10, 6));
    const { commit } = planReview(a, withEmbeddings(a), memory(), world({ inbox: 4 }));
    const moves = writes(commit.ops, 'learnings').filter((w) => w.at === 'after');
    // Down by 0.15 × c on a rejected use: 0.5 → 0.425; 0.7 → 0.595 (no success, no promotion); 0.22 → 0.187 < 0.2
    // is deactivated.
    expect(moves.map((w) => [w.row, w.values])).toEqual([
      [2, kept({ confidence: 0.425, times_successful: 0, success_rate: 0 })],
      [3, kept({ agent_id: 'coaching', confidence: 0.595, times_successful: 9, success_rate: 0.75 })],
      [4, kept({ confidence: 0.187, times_successful: 0, success_rate: 0, is_active: false })],
      [6, { context: JSON.stringify({ ...CASE_CTX, verdict: 'rejected' }) }],
    ]);
    expect(writes(commit.ops, 'learnings').filter((w) => w.at === 'append')).toHaveLength(5);
    // Adopted and rejected scores 2, not adopted 5, no recommendation 4.
    expect(writes(commit.ops, 'reflections').map((w) => w.values.self_score)).toEqual([
      2, 5, 5, 2, 2, 2, 5, 5, 4, 4, 4, 4, 4, 4,
    ]);
    // Analyst 9 → 8 → 2 falls three times in a row. Psychology (9, 8, then 5) too.
    expect(writes(commit.ops, 'inbox').map((w) => w.values)).toEqual([
      {
        inbox_id: 'INB-5',
        from_agent: 'analyst',
        type: 'struggle',
        priority: 'high',
        title: 'analyst: struggle',
        body: 'self score fell three times in a row (9 → 8 → 2)',
        discussion_id: DISC,
        status: 'unread',
        response: '',
        created_at: AT,
        updated_at: AT,
      },
      {
        inbox_id: 'INB-6',
        from_agent: 'psychology',
        type: 'struggle',
        priority: 'high',
        title: 'psychology: struggle',
        body: 'self score fell three times in a row (9 → 8 → 5)',
        discussion_id: DISC,
        status: 'unread',
        response: '',
        created_at: AT,
        updated_at: AT,
      },
    ]);
    expect(commit.ops[commit.ops.length - 1]).toMatchObject({
      at: 'marker',
      values: { status: 'CLOSED', closed_at: AT, outcome_evaluated: 'rejected' },
    });
    // Right now means the advice was not chosen: psychology and the others not adopted score a hit.
    expect(commit.properties.agentStats).toEqual({
      analyst: { hits: 2, misses: 2, brier: 0.5 + (0.85 - 0) ** 2, n: 4 },
      psychology: { hits: 1, misses: 0, brier: (0.75 - 1) ** 2, n: 1 },
      neuroscience: { hits: 1, misses: 0, brier: (0.68 - 1) ** 2, n: 1 },
      coaching: { hits: 0, misses: 1, brier: 0.8 ** 2, n: 1 },
      sales_strategy: { hits: 0, misses: 1, brier: 0.7 ** 2, n: 1 },
      behavioral_econ: { hits: 0, misses: 1, brier: 0.66 ** 2, n: 1 },
      organization: { hits: 1, misses: 0, brier: (0.58 - 1) ** 2, n: 1 },
      wellbeing: { hits: 1, misses: 0, brier: (0.6 - 1) ** 2, n: 1 },
    });
    expect(commit.properties.nextActions.psychology).toEqual([
      '根拠となるデータを増やす',
      '似た事例で否定された施策を避ける',
    ]);
  });

  it('evaluates the outcome whatever the orders were reported as, and says so in Outcomes', () => {
    const withOrders = (...statuses: string[]): Assessment => ({
      ...assessed(kpi(10, 12)),
      orders: statuses.map((status, i) => ({ row: 7 + i, order_id: `${DEC}-A${i + 1}`, status })),
    });
    const reported = (...statuses: string[]) => {
      const a = withOrders(...statuses);
      const { commit } = planReview(a, withEmbeddings(a), memory(), world());
      const [outcome] = writes(commit.ops, 'outcomes');
      expect(writes(commit.ops, 'orders')).toEqual([]);
      return [outcome.values.verdict, outcome.values.order_status];
    };
    expect(reported('DONE')).toEqual(['confirmed', 'DONE']);
    expect(reported('PENDING', 'PENDING')).toEqual(['confirmed', 'PENDING']);
    expect(reported('DONE', 'IN_PROGRESS')).toEqual(['confirmed', 'IN_PROGRESS']);
    expect(reported('DONE', 'FAILED')).toEqual(['confirmed', 'FAILED']);
    expect(reported('ACKNOWLEDGED')).toEqual(['confirmed', 'ACKNOWLEDGED']);
  });

  it('closes an inconclusive review with the small inconclusive step (+0.02), learning nothing, scoring no agent', () => {
    const a = assessed(kpi(10, 12, 4));
    const mem = memory();
    const { commit, memory: after } = planReview(a, withEmbeddings(a), mem, world());
    expect(writes(commit.ops, 'learnings').map((w) => [w.at, w.row, w.values])).toEqual([
      ['after', 2, kept({ confidence: 0.52, times_successful: 0, success_rate: 0 })],
      ['after', 3, kept({ agent_id: 'coaching', confidence: 0.72, times_successful: 9, success_rate: 0.75 })],
      ['after', 4, kept({ confidence: 0.24, times_successful: 0, success_rate: 0 })],
      ['after', 6, { context: JSON.stringify({ ...CASE_CTX, verdict: 'inconclusive' }) }],
    ]);
    expect(commit.properties.agentStats).toEqual(mem.properties.agentStats);
    // An inconclusive verdict still counts the decision (kept, here), never as confirmed or rejected.
    expect(commit.properties.flipStats).toEqual({ ...mem.properties.flipStats, decisions: 5 });
    expect(commit.ops[commit.ops.length - 1]).toMatchObject({ values: { outcome_evaluated: 'inconclusive' } });
    expect(after.learnings[0]).toEqual({ ...mem.learnings[0], confidence: 0.52 });
  });

  it('carries memory from one decision to the next and refuses embeddings that do not match the learnings', () => {
    const a = assessed(kpi(10, 12));
    const first = planReview(a, withEmbeddings(a), memory(), world());
    const second = planReview(a, withEmbeddings(a), first.memory, world());
    const move = writes(second.commit.ops, 'learnings').find((w) => w.row === 2);
    // 0.5 → 0.55 → 0.595: each success adds a tenth of what is left to 1.
    expect(move?.values).toMatchObject({ confidence: 0.595, times_successful: 2 });
    expect(second.commit.properties.agentStats.analyst).toEqual({
      hits: 4,
      misses: 1,
      brier: 0.5 + (0.85 - 1) ** 2 + (0.85 - 1) ** 2,
      n: 5,
    });
    expect(() => planReview(a, { ...withEmbeddings(a), embeddings: ['E0'] }, memory(), world())).toThrow(
      '5 new learnings came with 1 embeddings',
    );
  });

  it('records the first-answer majority and flip in Outcomes, and counts a confirmed flip and a rejected kept decision', () => {
    const outcome = (a: Assessment, mem: ReviewMemory) => {
      const { commit } = planReview(a, withEmbeddings(a), mem, world());
      const [row] = writes(commit.ops, 'outcomes');
      return {
        row: [row.values.first_majority, row.values.flip, row.values.verdict],
        stats: commit.properties.flipStats,
      };
    };
    // Five specialists first recommended PRAISE_INCREASE, and the order (GOAL_ADJUSTMENT) left it out: a flip. The
    // deliberation carries no first_answers, as in a discussion decided before Kaigi recorded them: the review
    // recomputes them from the opinions.
    const praise = ['psychology', 'neuroscience', 'organization', 'wellbeing', 'coaching'];
    const flipped: Discussion = {
      ...D,
      messages: D.messages.map((m) => {
        if (m.message_type === 'DECISION_DELIBERATION') {
          const { first_answers: _, ...metadata } = m.metadata;
          return { ...m, metadata };
        }
        if (m.message_type !== 'SPECIALIST_OPINION' || praise.indexOf(m.speaker) < 0) return m;
        const c = m.content as { recommendation: Record<string, unknown> };
        return { ...m, content: { ...c, recommendation: { ...c.recommendation, action_type: 'PRAISE_INCREASE' } } };
      }),
    };
    expect(flipped.messages.some((m) => m.metadata.first_answers)).toBe(false);
    const confirmedFlip = assessReview(DUE, flipped, 12, kpi(10, 12), T)!;
    const none: ReviewMemory = { ...memory(), properties: { ...memory().properties, flipStats: undefined } };
    const first = outcome(confirmedFlip, none);
    expect(first).toEqual({
      row: ['PRAISE_INCREASE', true, 'confirmed'],
      stats: { decisions: 1, flips: 1, flips_confirmed: 1, flips_rejected: 0, kept_confirmed: 0, kept_rejected: 0 },
    });
    // The rule-based council's own decision kept its majority, and the review rejects it.
    const after = { ...none, properties: { ...none.properties, flipStats: first.stats } };
    expect(outcome(assessed(kpi(10, 6)), after)).toEqual({
      row: ['GOAL_ADJUSTMENT', false, 'rejected'],
      stats: { decisions: 2, flips: 1, flips_confirmed: 1, flips_rejected: 0, kept_confirmed: 0, kept_rejected: 1 },
    });
    // No counted first answer (every opinion a default): blank in Outcomes, and not counted.
    const defaults: Discussion = {
      ...D,
      messages: D.messages.map((m) =>
        m.message_type === 'SPECIALIST_OPINION' ? { ...m, metadata: { ...m.metadata, default_opinion: true } } : m,
      ),
    };
    expect(outcome(assessReview(DUE, defaults, 12, kpi(10, 12), T)!, after)).toEqual({
      row: ['', '', 'confirmed'],
      stats: first.stats,
    });
  });
});
