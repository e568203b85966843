// The daily review as a pure plan: one confirmed review written in commit order (outcome, learnings, reflections,
// notice, column M), from plain data with no sheet and no runtime.
import { describe, expect, it } from 'vitest';
import { planReview } from '../../../../src/core/memory/review-plan.js';
import { pointKey } from '../../../../src/core/memory/reflection-history.js';
import { DISC } from '../env.js';
import {
  DEC,
  AT,
  SITUATION_JA,
  SPEAKERS,
  kpi,
  assessed,
  CASE_CTX,
  memory,
  world,
  withEmbeddings,
  shape,
  writes,
} from '../review-fixtures.js';

describe('planReview', () => {
  it('writes a confirmed review in one commit order: outcome, learnings, reflections, notice, column M', () => {
    const a = assessed(kpi(10, 12));
    const mem = memory();
    const before = JSON.stringify(mem);
    const { commit, memory: after } = planReview(a, withEmbeddings(a), mem, world());
    expect(JSON.stringify(mem)).toBe(before);
    expect(commit.decision_id).toBe(DEC);
    expect(shape(commit.ops)).toEqual([
      'append outcomes:0 outcome OUT-4',
      'after learnings:2 learning_updated LRN-1',
      'after learnings:3 learning_updated LRN-2',
      // Its tenth success: the promotion is proposed to a person (learning.auto_promote is false by default).
      'append inbox:0 inbox INB-1',
      'after learnings:4 learning_updated LRN-3',
      'after learnings:6 case_verdict LRN-5',
      'append learnings:0 learning LRN-11',
      'append learnings:0 learning LRN-12',
      'append learnings:0 learning LRN-13',
      'append learnings:0 learning LRN-14',
      'append learnings:0 learning LRN-15',
      'append reflections:0 reflection REF-21',
      'append inbox:0 inbox INB-2',
      'append reflections:0 reflection REF-22',
      'append inbox:0 inbox INB-3',
      ...SPEAKERS.slice(2).map((_, i) => `append reflections:0 reflection REF-${23 + i}`),
      `audit status ${DISC}`,
      `marker discussions:12 log_row_updated ${DISC}`,
    ]);
    const [outcome] = writes(commit.ops, 'outcomes');
    expect(outcome).toEqual({
      kind: 'write',
      tab: 'outcomes',
      at: 'append',
      row: 0,
      owner: 'Outcomes:OUT-4',
      values: {
        outcome_id: 'OUT-4',
        decision_id: DEC,
        discussion_id: DISC,
        evaluated_at: AT,
        metrics_json: JSON.stringify(a.order.monitoring),
        baseline_json: '[{"metric":"contacts","baseline":10}]',
        observed_json: '[{"metric":"contacts","predicted":12,"actual":12,"error":0}]',
        prediction_error: 0,
        verdict: 'confirmed',
        data_points: 7,
        notes: '',
        order_status: 'PENDING',
        // Most rule-based specialists first recommended the action the decider chose.
        first_majority: 'GOAL_ADJUSTMENT',
        flip: false,
        // Whether the actions helped, beside the forecast: +20 % against +20 %.
        effect: 'worked',
        effect_change: 0.2,
        effect_target: 0.2,
      },
      audit: {
        actor: 'kaigi',
        event: 'outcome',
        tab: 'Outcomes',
        row_key: 'OUT-4',
        payload: { verdict: 'confirmed', error: 0, effect: 'worked' },
      },
    });
    // The review never moves an order: only a report does (src/app/orders/orders.ts).
    expect(writes(commit.ops, 'orders')).toEqual([]);
    // Up by 0.1 × (1 − c) on a confirmed use (0.5 → 0.55, 0.7 → 0.73, 0.22 → 0.298); the tenth success proposes the promotion to a person (the learning stays the agent's
    // until one approves, src/app/steer/promotion.ts); the case gets its verdict.
    const moves = writes(commit.ops, 'learnings').filter((w) => w.at === 'after');
    const row = (over: Record<string, unknown>) => ({
      scope: 'individual',
      agent_id: 'analyst',
      is_active: true,
      success_rate: 1,
      evidence_count: 1,
      promotion: '',
      ...over,
    });
    expect(moves.map((w) => [w.row, w.values, w.audit.payload])).toEqual([
      [
        2,
        row({ confidence: 0.55, times_successful: 1 }),
        { verdict: 'confirmed', confidence: 0.55, active: true, scope: 'individual' },
      ],
      [
        3,
        row({
          agent_id: 'coaching',
          confidence: 0.73,
          times_successful: 10,
          success_rate: 0.833,
          promotion: 'proposed INB-1',
        }),
        { verdict: 'confirmed', confidence: 0.73, active: true, scope: 'individual', proposed: 'INB-1' },
      ],
      [
        4,
        row({ confidence: 0.298, times_successful: 1 }),
        { verdict: 'confirmed', confidence: 0.298, active: true, scope: 'individual' },
      ],
      [
        6,
        { context: JSON.stringify({ ...CASE_CTX, verdict: 'confirmed' }) },
        { verdict: 'confirmed', confidence: 0.5, active: true, scope: 'case' },
      ],
    ]);
    const fresh = writes(commit.ops, 'learnings').filter((w) => w.at === 'append');
    expect(fresh[0]).toEqual({
      kind: 'write',
      tab: 'learnings',
      at: 'append',
      row: 0,
      owner: 'Learnings:LRN-11',
      values: {
        learning_id: 'LRN-11',
        scope: 'individual',
        agent_id: 'analyst',
        category: 'GOAL_ADJUSTMENT',
        content: `「${SITUATION_JA}」で 目標の調整 は効果があった`,
        context: JSON.stringify({ discussion_id: DISC, verdict: 'confirmed' }),
        confidence: 0.5,
        times_applied: 0,
        times_successful: 0,
        is_active: true,
        source: 'OUT-4 rules',
        embedding: 'E0',
        embedding_model: 'kaigi-ngram-v1:256',
        created_at: AT,
        last_applied_at: '',
        success_rate: 0,
        evidence_count: 1,
        promotion: '',
      },
      audit: {
        actor: 'kaigi',
        event: 'learning',
        tab: 'Learnings',
        row_key: 'LRN-11',
        payload: { scope: 'individual', agent_id: 'analyst', verdict: 'confirmed' },
      },
    });
    expect(fresh.map((w) => [w.values.agent_id, w.values.embedding])).toEqual([
      ['analyst', 'E0'],
      ['coaching', 'E1'],
      ['sales_strategy', 'E2'],
      ['behavioral_econ', 'E3'],
      ['', 'E4'],
    ]);
    // Adopted and confirmed scores 9, not adopted 6, no recommendation 7.
    const reflections = writes(commit.ops, 'reflections');
    expect(reflections.map((w) => [w.values.agent_id, w.values.self_score])).toEqual([
      ['analyst', 9],
      ['psychology', 6],
      ['neuroscience', 6],
      ['coaching', 9],
      ['sales_strategy', 9],
      ['behavioral_econ', 9],
      ['organization', 6],
      ['wellbeing', 6],
      ['positive', 7],
      ['devils_advocate', 7],
      ['human_view', 7],
      ['ethics', 7],
      ['legal', 7],
      ['decider', 7],
    ]);
    expect(reflections[0].values).toEqual({
      reflection_id: 'REF-21',
      agent_id: 'analyst',
      discussion_id: DISC,
      self_score: 9,
      // The rules' reflection names the agent's record before this verdict (2 of 3 right in the fixture).
      reasoning: '判定は confirmed、推奨 GOAL_ADJUSTMENT は採用。これまでの的中 2/3（67%）',
      went_well: 'GOAL_ADJUSTMENT の提案が成果につながった',
      to_improve: '根拠となるデータを増やす',
      next_actions_json: JSON.stringify(['根拠となるデータを増やす', '似た事例で確認された施策を参照する']),
      created_at: AT,
      source: 'rules',
    });
    expect(reflections[0].audit).toEqual({
      actor: 'analyst',
      event: 'reflection',
      tab: 'Reflections',
      row_key: 'REF-21',
      payload: { self_score: 9, source: 'rules' },
    });
    // Analyst's fifth high score in a row is a milestone; psychology's 9 → 8 → 6 is a struggle.
    const notice = (inbox_id: string, from: string, type: string, priority: string, body: string) => ({
      kind: 'write',
      tab: 'inbox',
      at: 'append',
      row: 0,
      values: {
        inbox_id,
        from_agent: from,
        type,
        priority,
        title: `${from}: ${type}`,
        body,
        discussion_id: DISC,
        status: 'unread',
        response: '',
        created_at: AT,
        updated_at: AT,
      },
      audit: { actor: from, event: 'inbox', tab: 'Inbox', row_key: inbox_id, payload: { title: `${from}: ${type}` } },
    });
    const [proposal, ...notices] = writes(commit.ops, 'inbox');
    expect(proposal.values).toMatchObject({
      inbox_id: 'INB-1',
      from_agent: 'coaching',
      type: 'proposal',
      title: 'LRN-2 を共有知見に昇格する提案',
      body: '「c」は 10 回成功しました（適用 12 回、成功率 83%、確信度 0.73）。承認すると全エージェントが参照します。',
    });
    expect(proposal.audit.payload).toEqual({ title: 'LRN-2 を共有知見に昇格する提案', learning_id: 'LRN-2' });
    expect(notices).toEqual([
      notice('INB-2', 'analyst', 'milestone', 'normal', 'five high self scores in a row'),
      notice('INB-3', 'psychology', 'struggle', 'high', 'self score fell three times in a row (9 → 8 → 6)'),
    ]);
    const ops = commit.ops;
    expect(ops[ops.length - 2]).toEqual({
      kind: 'audit',
      actor: 'kaigi',
      event: 'status',
      tab: 'Discussion Log',
      row_key: DISC,
      payload: { from: 'DECIDED', to: 'CLOSED' },
    });
    expect(ops[ops.length - 1]).toEqual({
      kind: 'write',
      tab: 'discussions',
      at: 'marker',
      row: 12,
      owner: `Discussion Log:${DISC}`,
      values: { status: 'CLOSED', closed_at: AT, outcome_evaluated: 'confirmed' },
      audit: {
        actor: 'kaigi',
        event: 'log_row_updated',
        tab: 'Discussion Log',
        row_key: DISC,
        payload: { status: 'CLOSED' },
      },
    });
    // Stats: a specialist is right when its advice was chosen and confirmed; Brier on its stated confidence.
    expect(commit.properties.agentStats).toEqual({
      analyst: { hits: 3, misses: 1, brier: 0.5 + (0.85 - 1) ** 2, n: 4 },
      psychology: { hits: 0, misses: 1, brier: 0.75 ** 2, n: 1 },
      neuroscience: { hits: 0, misses: 1, brier: 0.68 ** 2, n: 1 },
      coaching: { hits: 1, misses: 0, brier: (0.8 - 1) ** 2, n: 1 },
      sales_strategy: { hits: 1, misses: 0, brier: (0.7 - 1) ** 2, n: 1 },
      behavioral_econ: { hits: 1, misses: 0, brier: (0.66 - 1) ** 2, n: 1 },
      organization: { hits: 0, misses: 1, brier: 0.58 ** 2, n: 1 },
      wellbeing: { hits: 0, misses: 1, brier: 0.6 ** 2, n: 1 },
    });
    expect(commit.properties.flipStats).toEqual({
      decisions: 5,
      flips: 1,
      flips_confirmed: 0,
      flips_rejected: 1,
      kept_confirmed: 3,
      kept_rejected: 0,
    });
    expect(commit.properties.nextActions.analyst).toEqual([
      'y',
      '根拠となるデータを増やす',
      '似た事例で確認された施策を参照する',
    ]);
    expect(Object.keys(commit.properties.nextActions).sort()).toEqual(SPEAKERS.slice().sort());
    expect(commit.properties.reflectionHistory.analyst).toEqual([
      { self_score: 8, to_improve: 'a' },
      { self_score: 8, to_improve: 'b' },
      { self_score: 9, to_improve: 'c' },
      { self_score: 8, to_improve: 'd' },
      // A point is kept as its key (src/core/memory/reflection-history.ts), never its words.
      { self_score: 9, to_improve: pointKey('根拠となるデータを増やす') },
    ]);
    // The last five are kept: analyst's oldest went; psychology had two.
    expect(commit.properties.reflectionHistory.psychology).toEqual([
      { self_score: 9, to_improve: 'a' },
      { self_score: 8, to_improve: 'b' },
      { self_score: 6, to_improve: pointKey('根拠となるデータを増やす') },
    ]);
    // What the next decision of the same review starts from.
    expect(after.properties).toEqual(commit.properties);
    expect(after.learnings.map((l) => [l.learning_id, l.scope, l.confidence, l.times_successful, l.is_active])).toEqual(
      [
        ['LRN-1', 'individual', 0.55, 1, true],
        // Proposed, not promoted: it stays the agent's until a person approves.
        ['LRN-2', 'individual', 0.73, 10, true],
        ['LRN-3', 'individual', 0.298, 1, true],
        ['LRN-4', 'individual', 0.5, 0, true],
        ['LRN-5', 'case', 0.5, 0, true],
        ['LRN-6', 'case', 0.5, 0, true],
        ['LRN-7', 'case', 0.5, 0, true],
      ],
    );
  });

  it('writes "no data" and a blank error when the review window holds no KPI row', () => {
    const a = assessed(kpi(10, 12, 0));
    const { commit } = planReview(a, withEmbeddings(a), memory(), world());
    const [outcome] = writes(commit.ops, 'outcomes');
    expect(outcome.values).toMatchObject({
      verdict: 'inconclusive',
      prediction_error: '',
      data_points: 0,
      observed_json: '[{"metric":"contacts","predicted":12,"actual":null,"error":null}]',
    });
    expect(String(outcome.values.notes)).toMatch(
      /^no data: no KPI rows for contacts \(\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}\)$/,
    );
    expect(outcome.audit?.payload).toEqual({ verdict: 'inconclusive', error: null, effect: 'unclear' });
    expect(outcome.values).toMatchObject({ effect: 'unclear', effect_change: '', effect_target: '' });
  });
});
