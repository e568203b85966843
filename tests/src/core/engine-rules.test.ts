// The engine with the rule-based provider: all six phases to DECIDED, and how the planner picks each step.
import { describe, expect, it } from 'vitest';
import { defaultAgents } from '../../../src/core/discussion/default-council.js';
import { applyStep, latestComputed, mergeable, mergeSteps, planStep, runStep } from '../../../src/core/engine.js';
import { DISC, NOW_ISO, newDiscussion, runToRest, SPECIALISTS, step, testEnv, TODAY } from './env.js';

const COUNCIL = [...SPECIALISTS, 'positive', 'devils_advocate', 'human_view', 'ethics', 'legal', 'decider'] as const;

describe('a discussion with the rule-based council', () => {
  const env = testEnv({ lang: 'ja' });
  const run = runToRest(newDiscussion(), env);
  const d = run.d;

  it('walks start → phase 2 → phases 3–4 → decision, and rests DECIDED', () => {
    expect(run.steps).toEqual(['start', 'phase2', 'phase34', 'decide']);
    expect(run.results.map((r) => r.transitions)).toEqual([
      [{ from: 'OPEN', to: 'IN_PROGRESS' }],
      [],
      [],
      [
        { from: 'IN_PROGRESS', to: 'VOTING' },
        { from: 'VOTING', to: 'DECIDED' },
      ],
    ]);
    // The agent review after Phase 6 runs within the decision step: it reads the demo order, finds nothing and
    // only leaves its note.
    expect(d.notes.filter((n) => n.startsWith('agent review'))).toEqual([
      'agent review DEC-2026-01-15-001: no objection from ethics, legal, analyst',
    ]);
    expect(d.status).toBe('DECIDED');
    expect(planStep(d, env)).toEqual({ kind: 'idle', reason: 'DECIDED' });
  });

  it('records one message per speaker per phase, in council order, with sequential ids', () => {
    expect(d.messages.map((m) => [m.phase, m.speaker, m.message_type])).toEqual([
      [1, 'analyst', 'SITUATION_REPORT'],
      ...SPECIALISTS.map((a) => [2, a, 'SPECIALIST_OPINION']),
      [3, 'positive', 'PERSPECTIVE_POSITIVE'],
      [3, 'devils_advocate', 'PERSPECTIVE_NEGATIVE'],
      [3, 'human_view', 'PERSPECTIVE_HUMAN'],
      [4, 'ethics', 'GOVERNANCE_ETHICS'],
      [4, 'legal', 'GOVERNANCE_LEGAL'],
      [5, 'decider', 'DECISION_DELIBERATION'],
      [6, 'decider', 'EXECUTION_ORDER'],
    ]);
    expect(d.messages.map((m) => m.message_id)).toEqual(
      d.messages.map((_, i) => `MSG-${DISC}-${String(i + 1).padStart(3, '0')}`),
    );
    expect(d.messages.every((m) => m.timestamp === NOW_ISO && m.metadata.model_used === 'rules:default')).toBe(true);
    expect(d.messages.map((m) => m.metadata.fallback_level)).toEqual(d.messages.map(() => 0));
    expect(d.messages.filter((m) => m.metadata.error_code !== undefined)).toEqual([]);
    expect(d.participants).toEqual([...COUNCIL]);
    expect(d.messages.filter((m) => m.phase === 4).map((m) => m.content.check_result)).toEqual(['PASS', 'PASS']);
  });

  it('computes each specialist confidence from recency, completeness, accuracy, sample size and consensus', () => {
    // 30 days of data ending today (recency 1, completeness 1, sample 1), accuracy 0.5:
    // 0.2 + 0.15 + 0.125 + 0.2 + 0.2 × min(1, agreeing others / 4).
    const types = d.messages
      .filter((m) => m.message_type === 'SPECIALIST_OPINION')
      .map((m) => [m.speaker, (m.content.recommendation as { action_type: string }).action_type]);
    expect(types).toEqual([
      ['analyst', 'GOAL_ADJUSTMENT'],
      ['psychology', 'PRAISE_INCREASE'],
      ['neuroscience', 'MESSAGE_TIMING'],
      ['coaching', 'GOAL_ADJUSTMENT'],
      ['sales_strategy', 'GOAL_ADJUSTMENT'],
      ['behavioral_econ', 'GOAL_ADJUSTMENT'],
      ['organization', 'ONE_ON_ONE'],
      ['wellbeing', 'REST_RECOMMENDATION'],
    ]);
    expect(latestComputed(d)).toEqual({
      analyst: 0.825,
      psychology: 0.675,
      neuroscience: 0.675,
      coaching: 0.825,
      sales_strategy: 0.825,
      behavioral_econ: 0.825,
      organization: 0.675,
      wellbeing: 0.675,
    });
  });

  it('orders the leading action with the review date and orders rows the settings give', () => {
    expect(d.final_decision).toMatchObject({
      decision_id: `DEC-${TODAY}-001`,
      target_agents: ['buddy'],
      actions: [{ action_type: 'GOAL_ADJUSTMENT' }],
      monitoring: {
        review_date: '2026-01-22',
        success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
      },
    });
    expect(d.execution_status).toBe('PENDING');
    const last = run.results[3];
    expect(last.orders.map((o) => [o.order_id, o.decision_id, o.target_agent, o.status, o.review_date])).toEqual([
      [`DEC-${TODAY}-001-A1`, `DEC-${TODAY}-001`, 'buddy', 'PENDING', '2026-01-22'],
    ]);
    expect(last.cancelDecision).toBeUndefined();
  });
});

describe('planStep', () => {
  const env = testEnv({ lang: 'ja' });

  it('times out an undecided discussion only after the timeout has passed', () => {
    const created = Date.parse(NOW_ISO);
    const at = (ms: number) => testEnv({ now: () => created + ms });
    const open = newDiscussion();
    expect(planStep(open, at(24 * 3600_000)).kind).toBe('start');
    expect(planStep(open, at(24 * 3600_000 + 1)).kind).toBe('timeout');
    expect(planStep({ ...open, status: 'VOTING' }, at(24 * 3600_000 + 1)).kind).toBe('timeout');
    expect(planStep({ ...open, status: 'DECIDED' }, at(48 * 3600_000))).toEqual({ kind: 'idle', reason: 'DECIDED' });
    const late = at(25 * 3600_000);
    const r = runStep(open, { kind: 'timeout' }, late);
    expect(r.status).toBe('TIMEOUT');
    expect(r.closedAt).toBe('2026-01-16T10:00:00.000Z');
    expect(r.notes).toEqual(['TIMEOUT: not decided within 24 h']);
    expect(r.messages).toEqual([]);
  });

  it('plans from the record alone: OPEN starts, VOTING decides, a finished status idles', () => {
    expect(planStep(newDiscussion(), env)).toEqual({ kind: 'start' });
    expect(planStep(newDiscussion({ status: 'IN_PROGRESS' }), env)).toEqual({ kind: 'start' });
    expect(planStep(newDiscussion({ status: 'VOTING' }), env)).toEqual({ kind: 'decide' });
    for (const s of ['ESCALATED', 'CLOSED', 'TIMEOUT'] as const)
      expect(planStep(newDiscussion({ status: s }), env)).toEqual({ kind: 'idle', reason: s });
  });

  it('asks only the active specialists who have not spoken', () => {
    const agents = defaultAgents().map((a) => (a.agent_id === 'wellbeing' ? { ...a, active: false } : a));
    const e = testEnv({ lang: 'ja', agents });
    const started = step(newDiscussion(), e).d;
    expect(planStep(started, e)).toEqual({ kind: 'phase2', agents: SPECIALISTS.filter((a) => a !== 'wellbeing') });
    const later = applyStep(started, runStep(started, { kind: 'phase2', agents: ['analyst', 'psychology'] }, e));
    expect(planStep(later, e)).toEqual({
      kind: 'phase2',
      agents: ['neuroscience', 'coaching', 'sales_strategy', 'behavioral_econ', 'organization'],
    });
  });

  it('forces the decision once the message limit is reached, and says so', () => {
    const e = testEnv({ lang: 'ja', settings: { 'limits.max_messages_per_discussion': 9 } });
    let d = step(newDiscussion(), e).d;
    d = step(d, e).d;
    expect(d.messages).toHaveLength(9);
    expect(planStep(d, e)).toEqual({ kind: 'decide' });
    const r = runStep(d, planStep(d, e), e);
    // The agent review's note aside.
    const own = (notes: string[]) => notes.filter((n) => !n.startsWith('agent review'));
    expect(own(r.notes)).toEqual(['message limit 9 reached: forced to phase 5']);
    expect(r.status).toBe('DECIDED');
  });

  it('summarises earlier messages once their digests pass a quarter of the token budget', () => {
    const e = testEnv({ lang: 'ja', settings: { 'limits.max_tokens_per_discussion': 1000 } });
    let d = step(newDiscussion(), e).d;
    d = step(d, e).d;
    const r = runStep(d, planStep(d, e), e);
    expect(r.notes).toEqual(['summarised: the digests of earlier messages passed a quarter of 1000 tokens']);
    const again = runStep(applyStep(d, r), { kind: 'decide' }, e);
    // A note is written once per discussion, not at every later step.
    // (the agent review's note of the decision aside).
    expect(applyStep(applyStep(d, r), again).notes.filter((n) => !n.startsWith('agent review'))).toEqual([
      'summarised: the digests of earlier messages passed a quarter of 1000 tokens',
    ]);
  });
});

describe('applyStep', () => {
  it('keeps the system out of the participants and carries the result onto the record', () => {
    const d = newDiscussion({ participants: ['analyst'], notes: ['earlier'] });
    const env = testEnv();
    const b = runStep(d, { kind: 'idle', reason: 'x' }, env);
    expect(applyStep(d, b)).toEqual(d);
    const r = {
      ...b,
      status: 'ESCALATED' as const,
      messages: [
        { ...step(newDiscussion(), testEnv({ lang: 'ja' })).r.messages[0], speaker: 'system' },
        { ...step(newDiscussion(), testEnv({ lang: 'ja' })).r.messages[0], speaker: 'legal' },
      ],
      notes: ['later'],
      closedAt: 'T',
      executionStatus: 'X',
    };
    const after = applyStep(d, r);
    expect(after.participants).toEqual(['analyst', 'legal']);
    expect(after.notes).toEqual(['earlier', 'later']);
    expect([after.status, after.closed_at, after.execution_status, after.messages.length]).toEqual([
      'ESCALATED',
      'T',
      'X',
      2,
    ]);
  });
});

describe('mergeSteps', () => {
  it('folds consecutive steps into one that applies as they do, one after the other', () => {
    const env = testEnv({ lang: 'ja' });
    const { results } = runToRest(newDiscussion(), env);
    expect(results.length).toBeGreaterThan(2);
    const one = results.reduce((a, b) => mergeSteps(a, b));
    const stepwise = results.reduce((d, r) => applyStep(d, r), newDiscussion());
    expect(applyStep(newDiscussion(), one)).toEqual(stepwise);
    // The orders and transitions of every step are kept, in order.
    expect(one.transitions).toEqual(results.flatMap((r) => r.transitions));
    expect(one.orders).toEqual(results.flatMap((r) => r.orders));
    expect(one.status).toBe('DECIDED');
  });

  it('keeps apart two steps that each cancel a decision or each file an objection', () => {
    const r = step(newDiscussion(), testEnv()).r;
    expect(mergeable(r, r)).toBe(true);
    expect(mergeable({ ...r, cancelDecision: 'A' }, { ...r, cancelDecision: 'B' })).toBe(false);
    expect(mergeable({ ...r, cancelDecision: 'A' }, r)).toBe(true);
    expect(mergeSteps({ ...r, cancelDecision: 'A' }, r).cancelDecision).toBe('A');
  });
});

describe('the rule-based council in English', () => {
  // "Praise" once matched the legal check's /raise/ and escalated the English demo (E004).
  it('reaches DECIDED on the demo trigger like the Japanese council', () => {
    const run = runToRest(newDiscussion(), testEnv({ lang: 'en' }));
    expect(run.d.status).toBe('DECIDED');
    expect(run.d.messages.filter((m) => m.phase === 4).map((m) => [m.speaker, m.metadata.error_code ?? null])).toEqual([
      ['ethics', null],
      ['legal', null],
    ]);
  });
});
