// An order's success criteria name one of the member's KPI series, and a model is told how the forecast is scored.
import { describe, expect, it } from 'vitest';
import { phaseRequests } from '../../../../src/core/engine.js';
import { answerErrors } from '../../../../src/core/discussion/messages.js';
import { schemaFor } from '../../../../src/core/providers/schema.js';
import { registry } from '../../../../src/core/providers/vendor-registry.js';
import { decision } from '../answers.js';
import { newDiscussion, runToRest, testEnv } from '../env.js';

const ALLOW = ['PRAISE_INCREASE', 'ONE_ON_ONE'];
const METRICS = ['appointments', 'contacts'];
const withMetric = (metric: string) => {
  const d = decision();
  const { weight_assignment: _w, votes: _v, ...deliberation } = d.deliberation;
  const criteria = d.order.monitoring.success_criteria.map((c) => ({ ...c, metric }));
  return { deliberation, order: { ...d.order, monitoring: { ...d.order.monitoring, success_criteria: criteria } } };
};

describe('success criteria', () => {
  it("accept only the member's KPI series when they are known, and any name when none is", () => {
    expect(answerErrors('DECISION', withMetric('contacts'), ALLOW, METRICS)).toBeNull();
    expect(answerErrors('DECISION', withMetric('連絡数'), ALLOW, METRICS)).toMatch(
      /order\.monitoring\.success_criteria\.0\.metric/,
    );
    expect(answerErrors('DECISION', withMetric('連絡数'), ALLOW, [])).toBeNull();
  });

  it('reach every vendor as an enum, with the forecast explained', () => {
    for (const v of registry.all) {
      const text = JSON.stringify(schemaFor('DECISION', v.wire, ALLOW, METRICS));
      expect(text, v.name).toMatch(/"enum":\["appointments","contacts"\]/);
      expect(text, v.name).toContain('a point forecast: within 30 %');
      expect(text, v.name).toContain('Executors who carry the order out');
    }
  });

  it("are given the member's series by the engine, and the rule-based decider names one of them", () => {
    const env = testEnv();
    const run = runToRest(newDiscussion(), env);
    const [dec] = phaseRequests(run.d, env, 5);
    expect(dec.context.metrics).toEqual([
      'appointments',
      'contacts',
      'login_streak',
      'overtime_hours',
      'praise_count_last_7d',
    ]);
    const order = run.d.final_decision as { monitoring: { success_criteria: { metric: string }[] } };
    for (const c of order.monitoring.success_criteria) expect(dec.context.metrics).toContain(c.metric);
  });
});
