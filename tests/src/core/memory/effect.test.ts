// The effect beside the forecast: a strong recovery against a modest forecast missed the forecast and worked; the
// manager reads "worked" first, and memory learns that it worked (learnings used gain confidence, the case and the
// member's record say so), while the agents' accuracy is still scored on the forecast.
import { describe, expect, it } from 'vitest';
import { effectOf, effectText } from '../../../../src/core/memory/effect.js';
import { learningVerdict } from '../../../../src/core/memory/effect-learning.js';
import { planReview } from '../../../../src/core/memory/review-plan.js';
import { assessed, CASE_CTX, kpi, memory, world, withEmbeddings, writes } from '../review-fixtures.js';

describe('the effect of a decision', () => {
  it('calls 5 → 12 contacts against +20 % worked, while the forecast missed', () => {
    const a = assessed(kpi(5, 12));
    // Predicted 5 × 1.2 = 6, measured 12: |6 − 12| / 12 = 0.5, rejected (an error of 0.5 or more).
    expect([a.ev.verdict, a.ev.error]).toEqual(['rejected', 0.5]);
    expect(a.ev.effect).toMatchObject({ effect: 'worked', change: 1.4, target: 0.2 });
    expect(effectText(a.ev.effect, a.ev.verdict, 'en')).toBe(
      'Worked — better than forecast: +140 % against +20 % (forecast missed)',
    );
    expect(effectText(a.ev.effect, a.ev.verdict, 'ja')).toBe(
      '効果あり — 予測より良い：予測 +20 % に対し +140 %（予測は外れ）',
    );
  });

  it('learns that it worked: learnings used gain confidence, the case records it, the Outcomes row holds both', () => {
    const a = assessed(kpi(5, 12));
    const { commit, memory: after } = planReview(a, withEmbeddings(a), memory(), world({}));
    const moves = writes(commit.ops, 'learnings').filter((w) => w.at === 'after');
    // Up by 0.1 × (1 − c) on a use that worked: 0.5 → 0.55, 0.7 → 0.73, 0.22 → 0.298; the case says confirmed.
    expect(moves.map((w) => [w.row, w.values.confidence ?? w.values.context])).toEqual([
      [2, 0.55],
      [3, 0.73],
      [4, 0.298],
      [6, JSON.stringify({ ...CASE_CTX, verdict: 'confirmed' })],
    ]);
    const [outcome] = writes(commit.ops, 'outcomes');
    expect(outcome.values).toMatchObject({
      verdict: 'rejected',
      effect: 'worked',
      effect_change: 1.4,
      effect_target: 0.2,
    });
    // The member's record (learned trust) counts each action carried out as a success, not a rejection.
    const record = after.properties.trust!.members.tanaka;
    expect(Object.keys(record).length).toBeGreaterThan(0);
    for (const [confirmed, rejected] of Object.values(record)) expect([confirmed > 0, rejected]).toEqual([true, 0]);
    expect(commit.ops[commit.ops.length - 1]).toMatchObject({ values: { outcome_evaluated: 'rejected' } });
  });

  it('a fall stays worse on both counts, and a flat metric is no effect', () => {
    expect(assessed(kpi(10, 6)).ev.effect.effect).toBe('worse');
    expect(assessed(kpi(10, 10)).ev.effect.effect).toBe('no_effect');
    expect(assessed(kpi(10, 12)).ev.effect.effect).toBe('worked');
    // Too few points after the decision: unclear, and memory learns nothing from it.
    const few = assessed(kpi(5, 12, 2)).ev;
    expect(few.effect.effect).toBe('unclear');
    expect(learningVerdict(few.effect.effect, few.verdict)).toBe('inconclusive');
  });

  it('signs the change by the metric table: less overtime is the good way', () => {
    const measure = (before: number, after: number) =>
      effectOf(
        [
          {
            metric: 'overtime_hours',
            baseline: before,
            actual: after,
            points: 7,
            direction: 'decrease',
            target_change: 0.2,
          },
        ],
        { share: 0.5, minPoints: 5, good: (m) => (m === 'overtime_hours' ? 'down' : null) },
      );
    expect(measure(2.5, 1.4)).toMatchObject({ effect: 'worked', change: 0.44 });
    expect(measure(2.5, 3)).toMatchObject({ effect: 'worse', change: -0.2 });
  });

  it('reads a row from before the effect as its forecast verdict alone', () => {
    expect(effectText({ effect: '', change: null, target: 0 }, 'confirmed', 'en')).toBe('forecast confirmed');
    expect(learningVerdict('', 'rejected')).toBe('rejected');
  });
});
