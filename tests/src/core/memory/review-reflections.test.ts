// Reflections after a reviewed outcome: each agent's own model writes its reflection and lesson (the REFLECTION
// schema), an invalid answer falls back to the rules with a record of why, and the rules' text follows the verdict
// and the agent's record.
import { describe, expect, it } from 'vitest';
import type { Provider } from '../../../../src/core/provider.js';
import { BUDGET_NOTE, BudgetProvider } from '../../../../src/core/providers/budget.js';
import { RulesProvider } from '../../../../src/core/providers/rules.js';
import { ScriptedProvider } from '../../../../src/core/providers/scripted.js';
import { reflect } from '../../../../src/core/memory/reflection-rules.js';
import { newLearnings } from '../../../../src/core/memory/review-learnings.js';
import { planReview } from '../../../../src/core/memory/review-plan.js';
import { askAfterOutcome } from '../../../../src/core/memory/review-reflections.js';
import { testEnv } from '../env.js';
import { D, assessed, kpi, memory, world, writes } from '../review-fixtures.js';

const ANSWER = {
  self_score: 8,
  score_reasoning: 'My GOAL_ADJUSTMENT forecast of +20 % met a measured +20 %.',
  what_went_well: ['Read the seven-day slump as a goal too far away'],
  what_to_improve: ['Say how long the recovery should take'],
  next_actions: ['Give a recovery window with each goal change'],
  lesson: 'For tanaka, a nearer goal brought contacts back within a week.',
  category: 'GOAL_ADJUSTMENT',
};

// Analyst and coaching answer on a model; everyone else, the decider's learning call included, on the rules.
function councilWith(model: ScriptedProvider) {
  const rules = new RulesProvider(() => 0);
  const on = ['analyst', 'coaching'];
  return testEnv({ lang: 'ja', provider: (a): Provider => (on.indexOf(a.agent_id) >= 0 ? model : rules) });
}

describe('reflections written by each agent’s own model', () => {
  it('asks only the agents on a model, in their own role, with their own answers, the outcome and their record', () => {
    const model = new ScriptedProvider(
      [
        { agent: 'analyst', expect: 'REFLECTION', content: ANSWER, tokensIn: 900, tokensOut: 100 },
        { agent: 'coaching', expect: 'REFLECTION', content: { ...ANSWER, self_score: 42 }, tokensIn: 800 },
      ],
      { model: 'm-a', order: 'per-agent' },
    );
    const env = councilWith(model);
    const a = assessed(kpi(10, 12));
    const asked = askAfterOutcome(a, env, memory().properties.agentStats);
    model.assertDone();
    const [analyst, coaching] = model.requests;
    expect(analyst.key).toBe(`${D.discussion_id}/review/analyst/reflection`);
    expect(analyst.system).toBe(env.promptOf(env.agents.find((x) => x.agent_id === 'analyst')!));
    expect(analyst.context.outcome).toEqual({
      verdict: 'confirmed',
      error: 0,
      measured: a.ev.measured,
      your_recommendation: { action_type: 'GOAL_ADJUSTMENT', carried_out: true },
      your_record: { right: 2, wrong: 1 },
    });
    expect(coaching.context.outcome?.your_record).toEqual({ right: 0, wrong: 0 });
    // Bounded: its own answers and the decision, not the other specialists' opinions.
    const speakers = new Set(analyst.context.earlier.map((m) => m.speaker));
    expect([...speakers].sort()).toEqual(['analyst', 'decider']);
    expect(analyst.user).toContain('your_record');
    expect(asked.reflections).toEqual([
      { agent_id: 'analyst', source: 'scripted:m-a', answer: ANSWER, problem: '' },
      { agent_id: 'coaching', source: 'scripted:m-a', answer: null, problem: expect.stringMatching(/self_score/) },
    ]);
    // The rules' learning call is counted too (its estimate), with both model calls.
    expect(asked.spent.tokens).toBeGreaterThanOrEqual(900 + 100 + 800);
    expect(asked.learning?.model).toBe('rules:default');
  });

  it('writes the model’s reflection and lesson (source provider:model), and the rules’ on an invalid answer, saying why', () => {
    const model = new ScriptedProvider(
      [
        { agent: 'analyst', expect: 'REFLECTION', content: ANSWER },
        { agent: 'coaching', expect: 'REFLECTION', content: { ...ANSWER, lesson: '' } },
      ],
      { model: 'm-a', order: 'per-agent' },
    );
    const a = assessed(kpi(10, 12));
    const asked = askAfterOutcome(a, councilWith(model), {});
    const learned = newLearnings(a, 'ja', asked.learning, asked.reflections);
    // The analyst's own lesson replaces the rules' individual learning for it; coaching keeps the rules' one.
    const individual = learned.items.filter((x) => x.scope === 'individual');
    expect(individual.filter((x) => x.agent_id === 'analyst')).toEqual([
      {
        scope: 'individual',
        agent_id: 'analyst',
        category: 'GOAL_ADJUSTMENT',
        content: ANSWER.lesson,
        context: JSON.stringify({ discussion_id: D.discussion_id, verdict: 'confirmed' }),
        source: 'scripted:m-a',
        // A model wrote it: inactive until a coordinator approves (src/app/steer/promotion.ts).
        awaiting: true,
      },
    ]);
    expect(individual.filter((x) => x.agent_id === 'coaching').map((x) => x.source)).toEqual([undefined]);
    const embeddings = learned.items.map((_, i) => `E${i}`);
    const { commit } = planReview(a, { ...learned, embeddings }, memory(), world());
    const lessons = writes(commit.ops, 'learnings').filter((w) => w.values.content === ANSWER.lesson);
    expect(lessons.map((w) => [w.values.agent_id, w.values.source, w.values.is_active])).toEqual([
      ['analyst', 'OUT-4 scripted:m-a', false],
    ]);
    expect(String(lessons[0].values.promotion)).toMatch(/^awaiting INB-\d+$/);
    const rows = writes(commit.ops, 'reflections');
    const of = (agent: string) => rows.find((w) => w.values.agent_id === agent)!.values;
    expect(of('analyst')).toMatchObject({
      self_score: 8,
      reasoning: ANSWER.score_reasoning,
      went_well: ANSWER.what_went_well[0],
      to_improve: ANSWER.what_to_improve[0],
      next_actions_json: JSON.stringify(ANSWER.next_actions),
      source: 'scripted:m-a',
    });
    expect(of('coaching').reasoning).toBe('判定は confirmed、推奨 GOAL_ADJUSTMENT は採用。これが最初の判定');
    expect(of('coaching').source).toMatch(/^rules \(fallback: scripted:m-a invalid answer: lesson/);
    expect(of('psychology').source).toBe('rules');
    // The audit says which it was, and the agent's next actions are the model's.
    expect(rows.find((w) => w.values.agent_id === 'coaching')!.audit.payload).toMatchObject({
      source: expect.stringMatching(/^rules \(fallback/),
    });
    expect(commit.properties.nextActions.analyst.slice(-1)).toEqual(ANSWER.next_actions.slice(-1));
  });

  it('keeps the reflection but not its lesson when the verdict is inconclusive', () => {
    const model = new ScriptedProvider([{ agent: 'analyst', expect: 'REFLECTION', content: ANSWER }], {
      model: 'm-a',
      order: 'per-agent',
    });
    const rules = new RulesProvider(() => 0);
    const env = testEnv({ lang: 'ja', provider: (a) => (a.agent_id === 'analyst' ? model : rules) });
    // Three days after the decision: too few points for the forecast and for the effect.
    const a = assessed(kpi(10, 12, 3));
    expect([a.ev.verdict, a.ev.effect.effect]).toEqual(['inconclusive', 'unclear']);
    const asked = askAfterOutcome(a, env, {});
    expect(asked.learning).toBeNull();
    expect(asked.reflections.map((r) => r.answer?.lesson)).toEqual([ANSWER.lesson]);
    expect(newLearnings(a, 'ja', null, asked.reflections).items).toEqual([]);
  });

  it('asks no model for an agent the day’s budget sent back to the rules, and its row says so', () => {
    const rules = new RulesProvider(() => 0);
    const spent = new BudgetProvider(rules);
    const env = testEnv({ lang: 'ja', provider: (a) => (a.agent_id === 'analyst' ? spent : rules) });
    const a = assessed(kpi(10, 12));
    const asked = askAfterOutcome(a, env, {});
    expect(asked.reflections).toEqual([
      { agent_id: 'analyst', source: expect.any(String), answer: null, problem: BUDGET_NOTE },
    ]);
    const learned = newLearnings(a, 'ja', asked.learning, asked.reflections);
    const { commit } = planReview(a, { ...learned, embeddings: learned.items.map(() => 'E') }, memory(), world());
    const row = writes(commit.ops, 'reflections').find((w) => w.values.agent_id === 'analyst')!;
    expect(row.values.source).toMatch(/^rules \(fallback: .* daily model budget spent/);
  });

  it('asks no model when every agent is on the rules', () => {
    const a = assessed(kpi(10, 12));
    expect(askAfterOutcome(a, testEnv({ lang: 'ja' }), {}).reflections).toEqual([]);
  });
});

describe('the rules’ canned reflection', () => {
  it('follows the verdict and the agent’s record, in Japanese and in English', () => {
    const reasoning = (verdict: 'confirmed' | 'rejected', lang: 'ja' | 'en', hits: number, misses: number) =>
      reflect(D, verdict, lang, { analyst: { hits, misses } }).find((r) => r.agent_id === 'analyst')!;
    const strong = reasoning('rejected', 'en', 6, 2);
    const weak = reasoning('rejected', 'en', 1, 5);
    expect(strong.reasoning).toBe(
      'Verdict rejected; recommendation GOAL_ADJUSTMENT adopted; record so far 6 of 8 right (75 %)',
    );
    expect(strong.went_well).toBe('Advice in line with a record of 75 % right');
    expect(weak.went_well).toBe('Contributed a needed view, on a record of only 17 % right');
    expect(reasoning('confirmed', 'en', 6, 2).went_well).toBe('Recommending GOAL_ADJUSTMENT paid off');
    expect(reasoning('confirmed', 'ja', 1, 5).reasoning).toBe(
      '判定は confirmed、推奨 GOAL_ADJUSTMENT は採用。これまでの的中 1/6（17%）',
    );
    expect(reasoning('rejected', 'ja', 1, 5).went_well).toBe('的中率 17% と低いなか、議論に必要な視点は出せた');
    // The score and the point to improve follow the verdict only: the history compares points.
    expect(strong.self_score).toBe(weak.self_score);
    expect(strong.to_improve).toBe(weak.to_improve);
  });
});
