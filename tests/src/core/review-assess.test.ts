// The daily review's first steps as pure functions: which decisions are due, which one a run takes up next within its
// budget, the verdict from the KPI windows, and the learnings taken from a model or the rules.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../src/core/discussion/ids.js';
import { ScriptedProvider } from '../../../src/core/providers/scripted.js';
import { askForLearnings, newLearnings } from '../../../src/core/memory/review-learnings.js';
import { assessReview, dueDecisions, nextReview } from '../../../src/core/memory/review-plan.js';
import { DISC, testEnv, TODAY } from './env.js';
import { DEC, REVIEW, T, SITUATION_JA, D, kpi, DUE, assessed } from './review-fixtures.js';

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
      noData: [],
      // +20 % against a target of +20 %: it worked, as forecast.
      effect: {
        effect: 'worked',
        change: 0.2,
        target: 0.2,
        lines: [{ metric: 'contacts', from: 10, to: 12, change: 0.2, target: 0.2, effect: 'worked' }],
      },
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

  it('measures from the day the decision was taken when its id names a later day (a clock that went back)', () => {
    // Given on TODAY, after ids of TODAY + 3 were drawn on a clock that ran ahead: the id names TODAY + 3.
    const later = `DEC-${addDays(TODAY, 3)}-002`;
    const relabelled = JSON.parse(JSON.stringify(D).split(DEC).join(later)) as typeof D;
    const a = assessReview({ ...DUE, decision_id: later }, relabelled, 12, kpi(10, 12), T);
    expect(a?.order.monitoring.review_date).toBe(REVIEW);
    expect(a?.ev).toEqual(assessed(kpi(10, 12)).ev);
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
      content: `「${SITUATION_JA}」で 目標の調整 は効果があった`,
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
        content: `「${SITUATION_JA}」への 目標の調整 は効果があった`,
        context,
      },
    ]);
    // Too few points for the effect (and the forecast): nothing is learned.
    expect(newLearnings(assessed(kpi(10, 12, 3)), 'ja', null)).toEqual({ items: [], source: 'rules' });
  });

  it("takes a model's valid learnings, awaiting approval (a shared one the decider's own), and falls back on an invalid answer", () => {
    const content = {
      learnings: [
        { scope: 'shared', agent_id: 'coaching', category: 'GOAL', content: 'lower goals help', context: 'slumps' },
        { scope: 'individual', agent_id: 'analyst', category: 'DATA', content: 'check streaks', context: '' },
      ],
    };
    const good = new ScriptedProvider([{ agent: 'decider', expect: 'LEARNING', content }], { model: 'm1' });
    const a = assessed(kpi(10, 12));
    const answer = askForLearnings(a, testEnv({ lang: 'ja', provider: good }));
    expect(answer).toEqual({ learnings: content.learnings, model: 'scripted:m1', agent: 'decider' });
    expect(good.requests.map((r) => r.context.outcome)).toEqual([
      {
        verdict: 'confirmed',
        error: 0,
        measured: { effect: a.ev.effect, forecast: { verdict: 'confirmed', metrics: a.ev.measured } },
      },
    ]);
    // A model read untrusted text: what it wrote is individual and waits for a coordinator (N1).
    expect(newLearnings(a, 'ja', answer)).toEqual({
      items: [
        { ...content.learnings[0], scope: 'individual', agent_id: 'decider', awaiting: true },
        { ...content.learnings[1], awaiting: true },
      ],
      source: 'scripted:m1',
    });
    const bad = new ScriptedProvider([{ expect: 'LEARNING', content: { learnings: [{ scope: 'team' }] } }]);
    expect(askForLearnings(a, testEnv({ lang: 'ja', provider: bad }))).toBeNull();
    expect(bad.remaining()).toEqual([]);
    // An unclear effect asks no model: an empty script would throw if it were called.
    const none = new ScriptedProvider([]);
    expect(askForLearnings(assessed(kpi(10, 12, 3)), testEnv({ lang: 'ja', provider: none }))).toBeNull();
    expect(none.calls).toEqual([]);
  });
});

describe('nextReview', () => {
  const due = ['DEC-A', 'DEC-B', 'DEC-C'].map((id) => ({
    decision_id: id,
    discussion_id: `DISC-of-${id}`,
    orders: [],
  }));
  const at = (now: number, slowestMs: number) => ({ now, deadline: 270_000, slowestMs });

  it('takes the due decisions in order, the first whenever the deadline has not come', () => {
    expect(nextReview(due, 0, at(269_999, 0))?.decision_id).toBe('DEC-A');
    expect(nextReview(due, 2, at(100_000, 20_000))?.decision_id).toBe('DEC-C');
    expect(nextReview(due, 3, at(0, 0))).toBeNull();
  });

  it('stops between decisions when one as slow as the slowest so far would pass the deadline', () => {
    expect(nextReview(due, 1, at(249_999, 20_000))?.decision_id).toBe('DEC-B');
    expect(nextReview(due, 1, at(250_000, 20_000))).toBeNull();
    expect(nextReview(due, 0, at(270_000, 0))).toBeNull();
  });
});
