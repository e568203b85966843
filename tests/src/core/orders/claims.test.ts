// Claims checked by code: what an answer says a metric did, against what the KPI data shows over the same days. A
// flat metric is never said to move by the rules, and a model's answer that says it moved is marked and pays for it.
import { describe, expect, it } from 'vitest';
import { actualDirection, claimsIn, contradictions } from '../../../../src/core/orders/claims.js';
import { DEFAULT_METRICS } from '../../../../src/core/orders/metric-table.js';
import { demoKpi } from '../../../../src/core/demo-data.js';
import { ScriptedProvider } from '../../../../src/core/providers/scripted.js';
import type { KpiRow } from '../../../../src/core/types.js';
import { feedbackAnswer, fullScript, opinion } from '../answers.js';
import { newDiscussion, runToRest, testEnv, TODAY } from '../env.js';

// The demo's KPI with tanaka's overtime flat at 1.94 h every day.
const FLAT: KpiRow[] = demoKpi(TODAY).map((r) =>
  r.member_id === 'tanaka' && r.metric === 'overtime_hours' ? { ...r, value: 1.94 } : r,
);

describe('claims in an answer', () => {
  it('are read from words in both languages and from the structured form, never from a denial', () => {
    const kinds = (text: string) => claimsIn(text, DEFAULT_METRICS).map((c) => `${c.metric}:${c.direction}`);
    expect(kinds('Overtime is up.')).toEqual(['overtime_hours:up']);
    expect(kinds('残業時間が増加している。')).toEqual(['overtime_hours:up']);
    expect(kinds('contacts 7d: 12 → 5 (down)')).toEqual(['contacts:down']);
    expect(kinds('Contacts held steady.')).toEqual(['contacts:flat']);
    expect(kinds('There is no sign that overtime rose.')).toEqual([]);
    // Two metrics in one sentence, or a metric the table lacks: nothing checkable.
    expect(kinds('Contacts fell while overtime rose.')).toEqual([]);
    expect(kinds('Revenue is up.')).toEqual([]);
  });

  it('are checked against the same days of data', () => {
    expect(actualDirection(FLAT, 'tanaka', 'overtime_hours', 7)).toEqual({ direction: 'flat', from: 1.94, to: 1.94 });
    expect(actualDirection(FLAT, 'tanaka', 'contacts', 7)?.direction).toBe('down');
    expect(contradictions('Overtime is up.', FLAT, 'tanaka', DEFAULT_METRICS)).toEqual([
      expect.objectContaining({ metric: 'overtime_hours', direction: 'up', actual: 'flat', from: 1.94, to: 1.94 }),
    ]);
    expect(contradictions('Contacts fell.', FLAT, 'tanaka', DEFAULT_METRICS)).toEqual([]);
  });
});

describe('claims in a discussion', () => {
  it('the rule-based council never says a flat metric moved', () => {
    const run = runToRest(newDiscussion(), testEnv({ lang: 'en', kpi: FLAT }));
    expect(run.d.messages.filter((m) => m.metadata.contradicted)).toEqual([]);
    for (const m of run.d.messages) {
      const said = claimsIn(JSON.stringify(m.content), DEFAULT_METRICS).filter((c) => c.metric === 'overtime_hours');
      expect(said.filter((c) => c.direction !== 'flat')).toEqual([]);
    }
  });

  it("marks a model's claim the data contradicts, and lowers that opinion's computed confidence", () => {
    const claim = (evidence: string) => {
      const script = fullScript().map((e) =>
        e.agent === 'wellbeing' && e.expect === 'SPECIALIST_OPINION'
          ? { ...e, content: { ...opinion('REST_RECOMMENDATION'), evidence: [evidence] } }
          : e,
      );
      // A lowered confidence may fall in the feedback band: the decider then asks for more data (up to two rounds).
      const more = [1, 2].map(() => ({
        agent: 'wellbeing',
        expect: 'FEEDBACK_RESPONSE' as const,
        content: feedbackAnswer(),
      }));
      const provider = new ScriptedProvider(script.concat(more), { order: 'per-agent' });
      const run = runToRest(newDiscussion(), testEnv({ lang: 'en', kpi: FLAT, provider }));
      return run.d.messages.find((m) => m.speaker === 'wellbeing' && m.message_type === 'SPECIALIST_OPINION')!;
    };
    const wrong = claim('Overtime is up sharply this week.');
    const right = claim('Overtime is flat at 1.94 h.');
    expect(wrong.metadata.contradicted).toEqual([
      { metric: 'overtime_hours', claimed: 'up', actual: 'flat', from: 1.94, to: 1.94 },
    ]);
    expect(right.metadata.contradicted).toBeUndefined();
    // grounding.contradiction_penalty (0.2) off the computed confidence the same answer would have had.
    const penalty = 0.2;
    expect(wrong.metadata.computed_confidence).toBeCloseTo(
      Math.max(0, (right.metadata.formula_confidence ?? right.metadata.computed_confidence)! - penalty),
      2,
    );
  });
});
