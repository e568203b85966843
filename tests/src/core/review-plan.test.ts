// The daily review as a pure plan: due orders, verdicts, confidence moves, promotion and deactivation, column M,
// reflections, notices and agent stats, from plain data with no sheet and no runtime.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../src/core/ids.js';
import type { Learning } from '../../../src/core/memory.js';
import { thresholdsOf } from '../../../src/core/outcomes.js';
import { ScriptedProvider } from '../../../src/core/providers/scripted.js';
import { Settings } from '../../../src/core/settings.js';
import { askForLearnings, learningRulesOf, newLearnings } from '../../../src/core/review-learnings.js';
import type { TabKey } from '../../../sheets-schema/index.js';
import type { ReviewOp, SeqName } from '../../../src/core/review-ops.js';
import {
  assessReview,
  dueDecisions,
  planReview,
  type Assessment,
  type ReviewMemory,
  type ReviewWorld,
} from '../../../src/core/review-plan.js';
import type { Discussion, KpiRow } from '../../../src/core/types.js';
import { DISC, newDiscussion, runToRest, testEnv, TODAY } from './env.js';

const DEC = `DEC-${TODAY}-001`;
const REVIEW = addDays(TODAY, 7);
const NOW = Date.parse(`${REVIEW}T00:30:00.000Z`);
const AT = new Date(NOW);
const SETTINGS = new Settings({});
const T = thresholdsOf(SETTINGS);
const RULES = learningRulesOf(SETTINGS);
const SITUATION = 'kpi_decline tanaka contacts 田中さんの連絡数が3日連続低下';
const SPEAKERS = [
  'analyst',
  'psychology',
  'neuroscience',
  'coaching',
  'sales_strategy',
  'behavioral_econ',
  'organization',
  'wellbeing',
  'positive',
  'devils_advocate',
  'human_view',
  'ethics',
  'legal',
  'decider',
];

// The rule-based council decides GOAL_ADJUSTMENT for tanaka's contacts, review in 7 days (+20 %, 7-day windows).
// Analyst's and coaching's opinions carry the learnings they were given.
function decided(): Discussion {
  const d = runToRest(newDiscussion(), testEnv({ lang: 'ja' })).d;
  const given: Record<string, string[]> = { analyst: ['LRN-1', 'LRN-3'], coaching: ['LRN-2'] };
  return {
    ...d,
    messages: d.messages.map((m) =>
      m.message_type === 'SPECIALIST_OPINION' && given[m.speaker]
        ? { ...m, metadata: { ...m.metadata, learnings: given[m.speaker] } }
        : m,
    ),
  };
}
const D = decided();

// Seven days of contacts before the decision at `before`, and `after` for the days up to the review.
function kpi(before: number, after: number, afterDays = 7): KpiRow[] {
  const rows: KpiRow[] = [];
  for (let i = 1; i <= 7; i++)
    rows.push({ date: addDays(TODAY, -i), member_id: 'tanaka', metric: 'contacts', value: before });
  for (let i = 1; i <= afterDays; i++)
    rows.push({ date: addDays(TODAY, i), member_id: 'tanaka', metric: 'contacts', value: after });
  // Another member and another metric never count.
  rows.push({ date: addDays(TODAY, 1), member_id: 'sato', metric: 'contacts', value: 100 });
  rows.push({ date: addDays(TODAY, 1), member_id: 'tanaka', metric: 'calls', value: 100 });
  return rows;
}

const DUE = { decision_id: DEC, discussion_id: DISC, orders: [{ row: 7, order_id: `${DEC}-A1`, status: 'PENDING' }] };

function assessed(rows: KpiRow[]): Assessment {
  const a = assessReview(DUE, D, 12, rows, T);
  if (!a) throw new Error('not assessed');
  return a;
}

function learning(over: Partial<Learning> & Pick<Learning, 'row' | 'learning_id'>): Learning {
  return {
    scope: 'individual',
    agent_id: 'analyst',
    category: 'GOAL_ADJUSTMENT',
    content: 'c',
    context: '',
    confidence: 0.5,
    times_applied: 1,
    times_successful: 0,
    is_active: true,
    source: 'OUT-1 rules',
    embedding: 'E',
    embedding_model: 'kaigi-ngram-v1:256',
    ...over,
  };
}

const CASE_CTX = {
  discussion_id: DISC,
  decision_id: DEC,
  member: 'tanaka',
  metric: 'contacts',
  actions: ['GOAL_ADJUSTMENT'],
};

function memory(): ReviewMemory {
  return {
    learnings: [
      learning({ row: 2, learning_id: 'LRN-1' }),
      learning({ row: 3, learning_id: 'LRN-2', agent_id: 'coaching', confidence: 0.7, times_successful: 9 }),
      learning({ row: 4, learning_id: 'LRN-3', confidence: 0.3 }),
      learning({ row: 5, learning_id: 'LRN-4', agent_id: 'psychology' }),
      learning({
        row: 6,
        learning_id: 'LRN-5',
        scope: 'case',
        agent_id: '',
        context: JSON.stringify({ ...CASE_CTX, verdict: '' }),
      }),
      learning({
        row: 8,
        learning_id: 'LRN-6',
        scope: 'case',
        agent_id: '',
        context: JSON.stringify({ ...CASE_CTX, decision_id: 'DEC-2026-01-01-001', verdict: '' }),
      }),
      learning({ row: 9, learning_id: 'LRN-7', scope: 'case', agent_id: '', context: 'not json' }),
    ],
    properties: {
      agentStats: { analyst: { hits: 2, misses: 1, brier: 0.5, n: 3 } },
      reflectionHistory: {
        analyst: [
          { self_score: 7, to_improve: 'z' },
          { self_score: 8, to_improve: 'a' },
          { self_score: 8, to_improve: 'b' },
          { self_score: 9, to_improve: 'c' },
          { self_score: 8, to_improve: 'd' },
        ],
        psychology: [
          { self_score: 9, to_improve: 'a' },
          { self_score: 8, to_improve: 'b' },
        ],
      },
      nextActions: { analyst: ['x', 'y'] },
      flipStats: { decisions: 4, flips: 1, flips_confirmed: 0, flips_rejected: 1, kept_confirmed: 2, kept_rejected: 0 },
    },
  };
}

// Counters as a commit keeps them: the next number of each sequence.
function world(start: Partial<Record<SeqName, number>> = {}): ReviewWorld {
  const counters: Record<SeqName, number> = { outcome: 3, learning: 10, reflection: 20, inbox: 0, ...start };
  return { rules: RULES, lang: 'ja', now: NOW, embeddingModel: 'kaigi-ngram-v1:256', next: (n) => ++counters[n] };
}

function withEmbeddings(a: Assessment) {
  const learned = newLearnings(a, 'ja', null);
  return { ...learned, embeddings: learned.items.map((_, i) => `E${i}`) };
}

// A compact line per op, to assert the whole order of a commit at once.
function shape(ops: ReviewOp[]): string[] {
  return ops.map((o) =>
    o.kind === 'audit'
      ? `audit ${o.event} ${o.row_key}`
      : `${o.at} ${o.tab}:${o.row} ${o.audit.event} ${o.audit.row_key}`,
  );
}

type WriteTo<K extends TabKey> = Extract<ReviewOp, { kind: 'write'; tab: K }>;

function writes<K extends TabKey>(ops: ReviewOp[], tab: K): WriteTo<K>[] {
  return ops.filter((o): o is WriteTo<K> => o.kind === 'write' && o.tab === tab);
}

describe('dueDecisions', () => {
  it('groups the orders whose review date has come by decision, in tab order, whatever was reported', () => {
    const line = (row: number, decision: string, status: string, day: string) => ({
      row,
      order_id: `${decision}-A${row}`,
      decision_id: decision,
      discussion_id: `DISC-of-${decision}`,
      status,
      review_day: day,
    });
    expect(
      dueDecisions(
        [
          line(2, 'DEC-A', 'PENDING', REVIEW),
          line(3, 'DEC-B', 'DONE', '2026-01-01'),
          line(4, 'DEC-C', 'PENDING', addDays(REVIEW, 1)),
          line(5, 'DEC-D', 'IN_PROGRESS', '2026-01-02'),
          line(6, 'DEC-A', 'ACKNOWLEDGED', REVIEW),
          line(7, 'DEC-E', 'CANCELLED', '2026-01-01'),
          line(8, 'DEC-F', 'FAILED', '2026-01-01'),
          line(9, 'DEC-G', 'DONE', '2026-01-01'),
        ],
        REVIEW,
        // DEC-G already has its Outcomes row.
        ['DEC-G'],
      ),
    ).toEqual([
      {
        decision_id: 'DEC-A',
        discussion_id: 'DISC-of-DEC-A',
        orders: [
          { row: 2, order_id: 'DEC-A-A2', status: 'PENDING' },
          { row: 6, order_id: 'DEC-A-A6', status: 'ACKNOWLEDGED' },
        ],
      },
      {
        decision_id: 'DEC-B',
        discussion_id: 'DISC-of-DEC-B',
        orders: [{ row: 3, order_id: 'DEC-B-A3', status: 'DONE' }],
      },
      {
        decision_id: 'DEC-D',
        discussion_id: 'DISC-of-DEC-D',
        orders: [{ row: 5, order_id: 'DEC-D-A5', status: 'IN_PROGRESS' }],
      },
      {
        decision_id: 'DEC-F',
        discussion_id: 'DISC-of-DEC-F',
        orders: [{ row: 8, order_id: 'DEC-F-A8', status: 'FAILED' }],
      },
    ]);
  });
});

describe('assessReview', () => {
  it('confirms when the review window reaches the predicted +20 %', () => {
    const a = assessed(kpi(10, 12));
    expect(a.ev).toEqual({
      verdict: 'confirmed',
      error: 0,
      points: 7,
      measured: [{ metric: 'contacts', baseline: 10, predicted: 12, actual: 12, error: 0, points: 7 }],
    });
    expect(a.log_row).toBe(12);
    expect(a.order.decision_id).toBe(DEC);
  });

  it('rejects when the error passes 0.5, and is inconclusive between the thresholds or on too few points', () => {
    // |12 − 6| / 6 = 1
    expect(assessed(kpi(10, 6)).ev).toMatchObject({ verdict: 'rejected', error: 1, points: 7 });
    // |12 − 15| / 15 = 0.2 ≤ 0.3 still confirms; |12 − 8| / 8 = 0.5 rejects; |12 − 9| / 9 = 0.333 is between.
    expect(assessed(kpi(10, 15)).ev).toMatchObject({ verdict: 'confirmed', error: 0.2 });
    expect(assessed(kpi(10, 8)).ev).toMatchObject({ verdict: 'rejected', error: 0.5 });
    expect(assessed(kpi(10, 9)).ev).toMatchObject({ verdict: 'inconclusive', error: 0.333 });
    // Four points after the decision: a perfect match is still inconclusive.
    expect(assessed(kpi(10, 12, 4)).ev).toMatchObject({ verdict: 'inconclusive', error: 0, points: 4 });
  });

  it('skips a discussion that is no longer DECIDED on this decision', () => {
    expect(assessReview(DUE, { ...D, status: 'VOTING' }, 12, kpi(10, 12), T)).toBeNull();
    expect(assessReview({ ...DUE, decision_id: `DEC-${TODAY}-002` }, D, 12, kpi(10, 12), T)).toBeNull();
    expect(assessReview(DUE, { ...D, final_decision: null }, 12, kpi(10, 12), T)).toBeNull();
  });
});

describe('newLearnings and askForLearnings', () => {
  it('extracts one learning per adopted specialist and a shared one by rule, and none when inconclusive', () => {
    const learned = newLearnings(assessed(kpi(10, 12)), 'ja', null);
    expect(learned.source).toBe('rules');
    const context = JSON.stringify({ discussion_id: DISC, verdict: 'confirmed' });
    const individual = (agent_id: string) => ({
      scope: 'individual',
      agent_id,
      category: 'GOAL_ADJUSTMENT',
      content: `「${SITUATION}」で GOAL_ADJUSTMENT は効果があった`,
      context,
    });
    expect(learned.items).toEqual([
      individual('analyst'),
      individual('coaching'),
      individual('sales_strategy'),
      individual('behavioral_econ'),
      {
        scope: 'shared',
        agent_id: '',
        category: 'GOAL_ADJUSTMENT',
        content: `「${SITUATION}」への GOAL_ADJUSTMENT は効果があった`,
        context,
      },
    ]);
    expect(newLearnings(assessed(kpi(10, 9)), 'ja', null)).toEqual({ items: [], source: 'rules' });
  });

  it("takes a model's valid learnings (a shared one belongs to no agent) and falls back on an invalid answer", () => {
    const content = {
      learnings: [
        { scope: 'shared', agent_id: 'coaching', category: 'GOAL', content: 'lower goals help', context: 'slumps' },
        { scope: 'individual', agent_id: 'analyst', category: 'DATA', content: 'check streaks', context: '' },
      ],
    };
    const good = new ScriptedProvider([{ agent: 'decider', expect: 'LEARNING', content }], { model: 'm1' });
    const a = assessed(kpi(10, 12));
    const answer = askForLearnings(a, testEnv({ lang: 'ja', provider: good }));
    expect(answer).toEqual({ learnings: content.learnings, model: 'scripted:m1' });
    expect(good.requests.map((r) => r.context.outcome)).toEqual([
      { verdict: 'confirmed', error: 0, measured: a.ev.measured },
    ]);
    expect(newLearnings(a, 'ja', answer)).toEqual({
      items: [{ ...content.learnings[0], agent_id: '' }, content.learnings[1]],
      source: 'scripted:m1',
    });
    const bad = new ScriptedProvider([{ expect: 'LEARNING', content: { learnings: [{ scope: 'team' }] } }]);
    expect(askForLearnings(a, testEnv({ lang: 'ja', provider: bad }))).toBeNull();
    expect(bad.remaining()).toEqual([]);
    // An inconclusive verdict asks no model: an empty script would throw if it were called.
    const none = new ScriptedProvider([]);
    expect(askForLearnings(assessed(kpi(10, 9)), testEnv({ lang: 'ja', provider: none }))).toBeNull();
    expect(none.calls).toEqual([]);
  });
});

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
      'after learnings:4 learning_updated LRN-3',
      'after learnings:6 case_verdict LRN-5',
      'append learnings:0 learning LRN-11',
      'append learnings:0 learning LRN-12',
      'append learnings:0 learning LRN-13',
      'append learnings:0 learning LRN-14',
      'append learnings:0 learning LRN-15',
      'append reflections:0 reflection REF-21',
      'append inbox:0 inbox INB-1',
      'append reflections:0 reflection REF-22',
      'append inbox:0 inbox INB-2',
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
      },
      audit: {
        actor: 'kaigi',
        event: 'outcome',
        tab: 'Outcomes',
        row_key: 'OUT-4',
        payload: { verdict: 'confirmed', error: 0 },
      },
    });
    // The review never moves an order: only a report does (src/app/orders.ts).
    expect(writes(commit.ops, 'orders')).toEqual([]);
    // +0.1 on a confirmed use; the tenth success promotes an individual learning to shared; the case gets its verdict.
    const moves = writes(commit.ops, 'learnings').filter((w) => w.at === 'after');
    expect(moves.map((w) => [w.row, w.values, w.audit.payload])).toEqual([
      [
        2,
        { scope: 'individual', agent_id: 'analyst', confidence: 0.6, times_successful: 1, is_active: true },
        { verdict: 'confirmed', confidence: 0.6, active: true, scope: 'individual' },
      ],
      [
        3,
        { scope: 'shared', agent_id: '', confidence: 0.8, times_successful: 10, is_active: true },
        { verdict: 'confirmed', confidence: 0.8, active: true, scope: 'shared' },
      ],
      [
        4,
        { scope: 'individual', agent_id: 'analyst', confidence: 0.4, times_successful: 1, is_active: true },
        { verdict: 'confirmed', confidence: 0.4, active: true, scope: 'individual' },
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
        content: `「${SITUATION}」で GOAL_ADJUSTMENT は効果があった`,
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
      reasoning: '判定は confirmed、推奨 GOAL_ADJUSTMENT は採用',
      went_well: 'GOAL_ADJUSTMENT の提案が成果につながった',
      to_improve: '根拠となるデータを増やす',
      next_actions_json: JSON.stringify(['根拠となるデータを増やす', '似た事例で確認された施策を参照する']),
      created_at: AT,
    });
    expect(reflections[0].audit).toEqual({
      actor: 'analyst',
      event: 'reflection',
      tab: 'Reflections',
      row_key: 'REF-21',
      payload: { self_score: 9 },
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
    expect(writes(commit.ops, 'inbox')).toEqual([
      notice('INB-1', 'analyst', 'milestone', 'normal', 'five high self scores in a row'),
      notice('INB-2', 'psychology', 'struggle', 'high', 'self score fell three times in a row (9 → 8 → 6)'),
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
      { self_score: 9, to_improve: '根拠となるデータを増やす' },
    ]);
    // The last five are kept: analyst's oldest went; psychology had two.
    expect(commit.properties.reflectionHistory.psychology).toEqual([
      { self_score: 9, to_improve: 'a' },
      { self_score: 8, to_improve: 'b' },
      { self_score: 6, to_improve: '根拠となるデータを増やす' },
    ]);
    // What the next decision of the same review starts from.
    expect(after.properties).toEqual(commit.properties);
    expect(after.learnings.map((l) => [l.learning_id, l.scope, l.confidence, l.times_successful, l.is_active])).toEqual(
      [
        ['LRN-1', 'individual', 0.6, 1, true],
        ['LRN-2', 'shared', 0.8, 10, true],
        ['LRN-3', 'individual', 0.4, 1, true],
        ['LRN-4', 'individual', 0.5, 0, true],
        ['LRN-5', 'case', 0.5, 0, true],
        ['LRN-6', 'case', 0.5, 0, true],
        ['LRN-7', 'case', 0.5, 0, true],
      ],
    );
  });

  it('lowers confidence on a rejected review, deactivates below the floor, and tells a person of a struggle', () => {
    const a = assessed(kpi(10, 6));
    const { commit } = planReview(a, withEmbeddings(a), memory(), world({ inbox: 4 }));
    const moves = writes(commit.ops, 'learnings').filter((w) => w.at === 'after');
    // −0.15 on a rejected use: 0.5 → 0.35; 0.7 → 0.55 (no success, no promotion); 0.3 → 0.15 < 0.2 is deactivated.
    expect(moves.map((w) => [w.row, w.values])).toEqual([
      [2, { scope: 'individual', agent_id: 'analyst', confidence: 0.35, times_successful: 0, is_active: true }],
      [3, { scope: 'individual', agent_id: 'coaching', confidence: 0.55, times_successful: 9, is_active: true }],
      [4, { scope: 'individual', agent_id: 'analyst', confidence: 0.15, times_successful: 0, is_active: false }],
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

  it('closes an inconclusive review without moving confidence, learning, or scoring the agents', () => {
    const a = assessed(kpi(10, 12, 4));
    const mem = memory();
    const { commit, memory: after } = planReview(a, withEmbeddings(a), mem, world());
    expect(writes(commit.ops, 'learnings').map((w) => [w.at, w.row, w.values])).toEqual([
      ['after', 2, { scope: 'individual', agent_id: 'analyst', confidence: 0.5, times_successful: 0, is_active: true }],
      [
        'after',
        3,
        { scope: 'individual', agent_id: 'coaching', confidence: 0.7, times_successful: 9, is_active: true },
      ],
      ['after', 4, { scope: 'individual', agent_id: 'analyst', confidence: 0.3, times_successful: 0, is_active: true }],
      ['after', 6, { context: JSON.stringify({ ...CASE_CTX, verdict: 'inconclusive' }) }],
    ]);
    expect(commit.properties.agentStats).toEqual(mem.properties.agentStats);
    // An inconclusive verdict still counts the decision (kept, here), never as confirmed or rejected.
    expect(commit.properties.flipStats).toEqual({ ...mem.properties.flipStats, decisions: 5 });
    expect(commit.ops[commit.ops.length - 1]).toMatchObject({ values: { outcome_evaluated: 'inconclusive' } });
    expect(after.learnings[0]).toEqual(mem.learnings[0]);
  });

  it('carries memory from one decision to the next and refuses embeddings that do not match the learnings', () => {
    const a = assessed(kpi(10, 12));
    const first = planReview(a, withEmbeddings(a), memory(), world());
    const second = planReview(a, withEmbeddings(a), first.memory, world());
    const move = writes(second.commit.ops, 'learnings').find((w) => w.row === 2);
    expect(move?.values).toMatchObject({ confidence: 0.7, times_successful: 2 });
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
