// Schema-valid answers for every expectation, and the script of a whole discussion, for the scripted provider.
import { orderFromAnswer, type ContentOf, type OrderAnswer } from '../../../src/core/discussion/messages.js';
import type { ScriptEntry } from '../../../src/core/providers/scripted.js';
import { SPECIALISTS, TODAY } from './env.js';

export function situation(summary = 'contacts fell 12 → 5 over four days'): ContentOf<'SITUATION_REPORT'> {
  return {
    summary,
    data_points: [{ metric: 'contacts', value: 5, change: '-58%', note: 'four falls in a row' }],
    severity: 'HIGH',
  };
}

export function opinion(
  action_type: string,
  confidence = 0.8,
  intensity: 'low' | 'medium' | 'high' = 'medium',
): ContentOf<'SPECIALIST_OPINION'> {
  return {
    analysis: `analysis recommending ${action_type}`,
    evidence: ['contacts: 12 → 5'],
    hypothesis: 'motivation dropped',
    confidence,
    recommendation: {
      action_type,
      target: 'tanaka',
      description: `do ${action_type}`,
      intensity,
      timing: '09:30',
      duration_days: 7,
    },
  };
}

export const feedbackAnswer = (answer = 'contacts 12, 10, 8, 6, 5'): ContentOf<'FEEDBACK_RESPONSE'> => ({
  answer,
  source_data: ['kpi'],
});
export const positive = (): ContentOf<'PERSPECTIVE_POSITIVE'> => ({
  viewpoint: 'a strong record',
  opportunity: 'praise',
});
export const negative = (): ContentOf<'PERSPECTIVE_NEGATIVE'> => ({
  risk: 'pressure',
  concern: 'overtime',
  counter_proposal: 'rest',
});
export const human = (): ContentOf<'PERSPECTIVE_HUMAN'> => ({ reality_check: 'tired', human_insight: 'needs a talk' });
export const check = (
  check_result: 'PASS' | 'FAIL' = 'PASS',
  concerns: string[] = [],
): ContentOf<'GOVERNANCE_ETHICS'> => ({
  check_result,
  concerns,
  notes: check_result === 'PASS' ? 'no issue' : 'blocked',
});

export interface DecisionContent {
  deliberation: ContentOf<'DECISION_DELIBERATION'>;
  order: OrderAnswer;
}

// A decider's answer: the order names no decision id (the engine gives it) and its review as days ahead.
export function decision(actions: string[] = ['PRAISE_INCREASE'], reviewInDays = 7): DecisionContent {
  return {
    deliberation: {
      summary_of_opinions: { consensus_points: ['recognition is missing'], conflicting_points: [] },
      weight_assignment: [{ agent_id: 'psychology', weight: 0.9, band: 'reference' }],
      votes: actions.map((a) => ({ action_type: a, agents: ['psychology'], score: 1 })),
      dissenting_opinions: [],
      selected_action_types: actions,
      rationale: `chose ${actions.join(', ')}`,
    },
    order: {
      target_agents: ['buddy'],
      actions: actions.map((a) => ({
        action_type: a,
        target: 'tanaka',
        description: `do ${a}`,
        intensity: 'medium' as const,
        timing: '09:30',
        duration_days: 7,
      })),
      monitoring: {
        metrics: ['contacts'],
        review_in_days: reviewInDays,
        success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
      },
    },
  };
}

// The order the engine stores for a decision made on TODAY: its decision id, and the date the review days lead to.
export function storedOrder(d: DecisionContent, decisionId = `DEC-${TODAY}-001`): ContentOf<'EXECUTION_ORDER'> {
  return orderFromAnswer(d.order, decisionId, TODAY);
}

// A whole discussion in the order the engine asks: analyst, the eight specialists, balancers, governance, decider.
export function fullScript(types: Record<string, string> = {}, finalActions = ['PRAISE_INCREASE']): ScriptEntry[] {
  return [
    { agent: 'analyst', expect: 'SITUATION_REPORT', phase: 1, content: situation() },
    ...SPECIALISTS.map(
      (a): ScriptEntry => ({
        agent: a,
        expect: 'SPECIALIST_OPINION',
        phase: 2,
        content: opinion(types[a] ?? 'PRAISE_INCREASE'),
      }),
    ),
    { agent: 'positive', expect: 'PERSPECTIVE_POSITIVE', phase: 3, content: positive() },
    { agent: 'devils_advocate', expect: 'PERSPECTIVE_NEGATIVE', phase: 3, content: negative() },
    { agent: 'human_view', expect: 'PERSPECTIVE_HUMAN', phase: 3, content: human() },
    { agent: 'ethics', expect: 'GOVERNANCE_ETHICS', phase: 4, content: check() },
    { agent: 'legal', expect: 'GOVERNANCE_LEGAL', phase: 4, content: check() },
    { agent: 'decider', expect: 'DECISION', phase: 5, content: decision(finalActions) },
    ...reviewScript(),
  ];
}

// After Phase 6, ethics and legal on a model read the order itself (the agent review): both pass here.
export function reviewScript(): ScriptEntry[] {
  return [
    { agent: 'ethics', expect: 'GOVERNANCE_ETHICS', phase: 6, content: check() },
    { agent: 'legal', expect: 'GOVERNANCE_LEGAL', phase: 6, content: check() },
  ];
}
