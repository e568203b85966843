// The fallback ladder driven by scripted failures: retry/repair, substitute, default opinion, rules, a person.
import { describe, expect, it } from 'vitest';
import { planStep } from '../../../src/core/engine.js';
import type { Message } from '../../../src/core/discussion/messages.js';
import type { Provider } from '../../../src/core/provider.js';
import { BudgetProvider } from '../../../src/core/providers/budget.js';
import { RulesProvider } from '../../../src/core/providers/rules.js';
import { ScriptedProvider, type ScriptEntry } from '../../../src/core/providers/scripted.js';
import type { AgentDef, Discussion } from '../../../src/core/types.js';
import { check, decision, opinion } from './answers.js';
import { DISC, NOW_ISO, newDiscussion, runToRest, SPECIALISTS, step, testEnv, TODAY } from './env.js';

const rules = new RulesProvider(() => Date.parse(NOW_ISO));
// The scripted provider answers for the named agents (and their stand-ins); rules answer for everyone else.
const only =
  (p: Provider, ids: string[]) =>
  (a: AgentDef): Provider =>
    ids.indexOf(a.agent_id) >= 0 ? p : rules;

// Discussions prepared by the rule-based council (in Japanese: its English legal check trips on "Praise").
const ja = testEnv({ lang: 'ja' });
const started = step(newDiscussion(), ja).d;
const afterPhase2 = step(started, ja).d;
const beforeDecision = step(afterPhase2, ja).d;

function phase2With(entries: ScriptEntry[], ids: string[], maxAttempts = 1) {
  const p = new ScriptedProvider(entries, { maxAttempts });
  const r = step(started, testEnv({ provider: only(p, ids) })).r;
  const of = (id: string) => r.messages.find((m) => m.speaker === id) as Message;
  return { p, r, of };
}

describe('level 1: a retry or the repair call', () => {
  it('stores an answer that needed the repair call at level 1, without an error code', () => {
    const { p, of } = phase2With(
      [
        { agent: 'psychology', text: '{"analysis": ' },
        { agent: 'psychology', text: JSON.stringify(opinion('PRAISE_INCREASE', 0.7)) },
      ],
      ['psychology'],
    );
    p.assertDone();
    expect(of('psychology').metadata).toMatchObject({ fallback_level: 1, stated_confidence: 0.7 });
    expect(of('psychology').metadata.error_code).toBeUndefined();
    expect(of('analyst').metadata.fallback_level).toBe(0);
  });

  it('stores an answer that needed retries at level 1', () => {
    const { p, of } = phase2With(
      [{ status: 503 }, { network: 'socket hang up' }, { content: opinion('PRAISE_INCREASE') }],
      ['psychology'],
      3,
    );
    expect(p.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(of('psychology').metadata.fallback_level).toBe(1);
  });
});

describe('level 2: a substitute from the same group', () => {
  it('has the substitute answer in the agent’s place when the repair fails too', () => {
    const { p, of } = phase2With(
      [
        { agent: 'psychology', text: 'Sure! Here is my analysis' },
        { agent: 'psychology', text: '{"analysis": "x"}' },
        { agent: 'coaching', expect: 'SPECIALIST_OPINION', content: opinion('ONE_ON_ONE') },
        { agent: 'coaching', expect: 'SPECIALIST_OPINION', content: opinion('PEER_SUPPORT', 0.6) },
      ],
      ['psychology', 'coaching'],
    );
    p.assertDone();
    expect(p.calls.map((c) => c.key)).toEqual([
      `${DISC}/2/psychology/1`,
      `${DISC}/2/psychology/1`,
      `${DISC}/2/coaching/1`,
      `${DISC}/2/psychology/1/substitute`,
    ]);
    // The substitute is asked with its own prompt and the same data.
    expect(p.calls[3].system).toMatch(/^# Role\nYou are "Coaching"/);
    expect(p.calls[3].user).toBe(p.calls[0].user);
    const m = of('psychology');
    expect(m.content).toEqual(opinion('PEER_SUPPORT', 0.6));
    expect(m.metadata).toMatchObject({
      fallback_level: 2,
      step_key: `${DISC}/2/psychology/1`,
      model_used: 'scripted:scripted',
    });
    expect(m.metadata.note).toMatch(/^answered by substitute coaching: invalid answer: /);
    expect(m.metadata.error_code).toBeUndefined();
  });

  it('treats an answer past the phase maximum as E001 and asks the substitute', () => {
    const { of } = phase2With(
      [{ agent: 'psychology', content: opinion('PRAISE_INCREASE'), ms: 300_001 }],
      ['psychology'],
    );
    const m = of('psychology');
    expect(m.metadata.fallback_level).toBe(2);
    expect(m.metadata.note).toBe(
      "answered by substitute coaching: E001: the answer took 300001 ms, past phase 2's maximum of 300000 ms",
    );
    expect(m.metadata.model_used).toBe('rules:default');
    // Exactly at the maximum is still in time.
    expect(
      phase2With([{ content: opinion('PRAISE_INCREASE'), ms: 300_000 }], ['psychology']).of('psychology').metadata
        .fallback_level,
    ).toBe(0);
  });
});

describe('level 3: a default opinion, marked, and the discussion goes on (E001)', () => {
  it('records a default opinion when the agent and its substitute both fail', () => {
    const { p, of } = phase2With(
      [
        { agent: 'psychology', status: 400, body: 'bad request' },
        { agent: 'coaching', content: opinion('ONE_ON_ONE') },
        { agent: 'coaching', network: 'timeout' },
      ],
      ['psychology', 'coaching'],
    );
    p.assertDone();
    expect(p.calls.map((c) => c.key)).toEqual([
      `${DISC}/2/psychology/1`,
      `${DISC}/2/coaching/1`,
      `${DISC}/2/psychology/1/substitute`,
    ]);
    const m = of('psychology');
    const why = 'HTTP 400: bad request; substitute coaching: timeout (after 1 attempts)';
    expect(m.metadata).toMatchObject({
      fallback_level: 3,
      error_code: 'E001',
      default_opinion: true,
      computed_confidence: 0,
      stated_confidence: 0,
      note: why,
    });
    expect(m.content).toEqual({
      analysis: `No usable answer; default opinion recorded (${why})`,
      evidence: ['E001'],
      hypothesis: 'No judgement',
      confidence: 0,
      recommendation: {
        action_type: 'PRAISE_INCREASE',
        target: '-',
        description: `No usable answer; default opinion recorded (${why})`,
        intensity: 'low',
        timing: '',
        duration_days: 1,
      },
    });
  });

  it('skips the substitute when it belongs to another group', () => {
    // organization's substitute is human_view, a balancer: no stand-in, straight to the default.
    const { p, of } = phase2With([{ agent: 'organization', status: 500 }], ['organization', 'human_view']);
    expect(p.calls.map((c) => c.key)).toEqual([`${DISC}/2/organization/1`]);
    expect(of('organization').metadata).toMatchObject({
      fallback_level: 3,
      error_code: 'E001',
      note: 'HTTP 500:  (after 1 attempts)',
    });
  });

  it('leaves defaults out of the consensus, and notes a specialist group with no usable opinion', () => {
    const down: ScriptEntry[] = Array.from({ length: 15 }, () => ({ network: 'offline' }));
    const p = new ScriptedProvider(down);
    const env = testEnv({ provider: only(p, [...SPECIALISTS]) });
    const { d, r } = step(started, env);
    p.assertDone();
    expect(
      r.messages.map((m) => [m.metadata.fallback_level, m.metadata.error_code, m.metadata.computed_confidence]),
    ).toEqual(SPECIALISTS.map(() => [3, 'E001', 0]));
    expect(r.notes).toEqual(['fallback level 3: the specialist group gave no usable opinion; continuing without it']);
    // Computed 0 is below the feedback band: nobody is asked again, the discussion moves on.
    expect(planStep(d, env).kind).toBe('phase34');
  });

  it('notes a balancer group with no usable opinion', () => {
    const p = new ScriptedProvider([
      { agent: 'positive', network: 'offline' },
      { agent: 'devils_advocate', network: 'offline' },
      { agent: 'human_view', network: 'offline' },
      { agent: 'human_view', expect: 'PERSPECTIVE_POSITIVE', network: 'offline' },
      { agent: 'positive', expect: 'PERSPECTIVE_NEGATIVE', network: 'offline' },
      { agent: 'positive', expect: 'PERSPECTIVE_HUMAN', network: 'offline' },
    ]);
    const { r } = step(afterPhase2, testEnv({ provider: only(p, ['positive', 'devils_advocate', 'human_view']) }));
    p.assertDone();
    const bal = r.messages.filter((m) => m.phase === 3);
    expect(bal.map((m) => [m.speaker, m.metadata.fallback_level, m.metadata.default_opinion])).toEqual([
      ['positive', 3, true],
      ['devils_advocate', 3, true],
      ['human_view', 3, true],
    ]);
    expect(bal[1].content).toEqual({
      risk: 'No usable answer; default opinion recorded (offline (after 1 attempts); substitute positive: offline (after 1 attempts))',
      concern: '-',
      counter_proposal: '-',
    });
    expect(r.notes).toEqual(['fallback level 3: no usable balancer opinion; continuing without the balancer group']);
    expect(r.status).toBe('IN_PROGRESS');
  });
});

describe('E002: data that could not be read', () => {
  it('marks the situation report and carries the notes to every agent', () => {
    const notes = ['E002: KPI data could not be read after 3 attempts (timeout); continuing without it'];
    const p = new ScriptedProvider([
      {
        agent: 'analyst',
        expect: 'SITUATION_REPORT',
        content: {
          summary: 's',
          data_points: [{ metric: 'none', value: 'n/a', change: '', note: '' }],
          severity: 'LOW',
        },
      },
    ]);
    const { r } = step(newDiscussion(), testEnv({ provider: p, dataNotes: notes }));
    expect(r.messages[0].metadata).toMatchObject({ error_code: 'E002', fallback_level: 1, note: notes[0] });
    expect(p.requests[0].shared).toContain(`<data name="data_notes">\n["${notes[0]}"]\n</data>`);
  });
});

describe('E004: a governance check fails', () => {
  it('holds the decision, escalates and tells a person', () => {
    const p = new ScriptedProvider([
      { agent: 'ethics', content: check('PASS') },
      { agent: 'legal', content: check('FAIL', ['overtime above 45 h']) },
    ]);
    const { d, r } = step(afterPhase2, testEnv({ provider: only(p, ['ethics', 'legal']) }));
    const gov = r.messages.filter((m) => m.phase === 4);
    expect(gov.map((m) => [m.speaker, m.message_type, m.metadata.fallback_level, m.metadata.error_code])).toEqual([
      ['ethics', 'GOVERNANCE_ETHICS', 0, undefined],
      ['legal', 'GOVERNANCE_LEGAL', 5, 'E004'],
      ['system', 'ERROR', 5, 'E004'],
    ]);
    const text = 'Governance check failed; the decision is on hold for a person: legal: overtime above 45 h';
    expect(gov[2].content).toEqual({ error_code: 'E004', message: text });
    expect(r.transitions).toEqual([{ from: 'IN_PROGRESS', to: 'ESCALATED' }]);
    expect(r.inbox).toEqual([
      {
        from_agent: 'ethics',
        type: 'anomaly_alert',
        priority: 'urgent',
        title: `E004 ${DISC}`,
        body: text,
        discussion_id: DISC,
      },
    ]);
    expect(d.participants).not.toContain('system');
    expect(planStep(d, testEnv())).toEqual({ kind: 'idle', reason: 'ESCALATED' });
  });

  it('never takes a governance check that could not run as a pass', () => {
    const p = new ScriptedProvider([
      { agent: 'ethics', status: 500 },
      { agent: 'legal', expect: 'GOVERNANCE_LEGAL', status: 500 },
      { agent: 'legal', expect: 'GOVERNANCE_ETHICS', status: 500 },
      { agent: 'ethics', expect: 'GOVERNANCE_LEGAL', status: 500 },
    ]);
    const { r } = step(afterPhase2, testEnv({ provider: only(p, ['ethics', 'legal']), lang: 'ja' }));
    p.assertDone();
    const gov = r.messages.filter((m) => m.phase === 4);
    expect(
      gov.map((m) => [m.speaker, m.metadata.fallback_level, m.metadata.error_code, m.content.check_result]),
    ).toEqual([
      ['ethics', 5, 'E001', 'FAIL'],
      ['legal', 5, 'E001', 'FAIL'],
      ['system', 5, 'E004', undefined],
    ]);
    expect(gov[0].metadata.default_opinion).toBe(true);
    expect(gov[0].content.notes).toBe('倫理特化の審査を実施できず');
    expect(r.status).toBe('ESCALATED');
  });
});

describe('E003: the decider gives no usable answer', () => {
  const decideWith = (entries: ScriptEntry[], d: Discussion = beforeDecision) => {
    const p = new ScriptedProvider(entries);
    return { p, ...step(d, testEnv({ provider: only(p, ['decider']) })) };
  };

  it('decides by rules on an urgent discussion (level 4)', () => {
    const { d, r } = decideWith([{ agent: 'decider', expect: 'DECISION', status: 500, body: 'overloaded' }]);
    expect(beforeDecision.priority).toBe('HIGH');
    expect(
      r.messages.map((m) => [
        m.phase,
        m.message_type,
        m.metadata.fallback_level,
        m.metadata.error_code,
        m.metadata.model_used,
      ]),
    ).toEqual([
      [5, 'DECISION_DELIBERATION', 4, 'E003', 'rules:default'],
      [6, 'EXECUTION_ORDER', 4, 'E003', 'rules:default'],
    ]);
    expect(r.messages[0].metadata.note).toBe('HTTP 500: overloaded (after 1 attempts)');
    expect(r.messages[0].metadata.step_key).toBe(`${DISC}/5/decider/rules`);
    expect(d.status).toBe('DECIDED');
    expect(d.final_decision?.decision_id).toBe(`DEC-${TODAY}-001`);
  });

  it('escalates to a person when the discussion is not urgent', () => {
    const { d, r } = decideWith([{ agent: 'decider', network: 'connection refused' }], {
      ...beforeDecision,
      priority: 'MEDIUM',
    });
    const text = 'The decider gave no answer; a person must decide (connection refused (after 1 attempts))';
    expect(r.messages.map((m) => [m.speaker, m.message_type, m.metadata.fallback_level, m.content])).toEqual([
      ['system', 'ERROR', 5, { error_code: 'E003', message: text }],
    ]);
    expect(r.transitions).toEqual([
      { from: 'IN_PROGRESS', to: 'VOTING' },
      { from: 'VOTING', to: 'ESCALATED' },
    ]);
    expect(r.inbox).toEqual([
      {
        from_agent: 'decider',
        type: 'struggle',
        priority: 'high',
        title: `E003 ${DISC}`,
        body: text,
        discussion_id: DISC,
      },
    ]);
    expect(d.final_decision).toBeNull();
  });

  it('refuses an order whose review is not 1 to 90 days ahead, or names an action outside the allow-list', () => {
    const now = decideWith([{ agent: 'decider', content: decision(['PRAISE_INCREASE'], 0) }], {
      ...beforeDecision,
      priority: 'LOW',
    });
    expect(now.r.messages[0].content.message).toBe(
      'The decider gave no answer; a person must decide (invalid answer: order.monitoring.review_in_days: Too small: expected number to be >=1)',
    );
    const beyond = decideWith([{ agent: 'decider', content: decision(['PRAISE_INCREASE'], 91) }], {
      ...beforeDecision,
      priority: 'LOW',
    });
    expect(beyond.r.messages[0].content.message).toBe(
      'The decider gave no answer; a person must decide (invalid answer: order.monitoring.review_in_days: Too big: expected number to be <=90)',
    );
    const banned = decideWith([{ agent: 'decider', content: decision(['PAY_CUT']) }], {
      ...beforeDecision,
      priority: 'LOW',
    });
    expect(banned.r.messages[0].content.message).toBe(
      'The decider gave no answer; a person must decide (invalid answer: deliberation.selected_action_types.0: action type PAY_CUT is not in the allow-list; order.actions.0.action_type: action type PAY_CUT is not in the allow-list)',
    );
    // 90 days ahead is the last review allowed: Kaigi computes its date from today.
    const far = decideWith([{ agent: 'decider', content: decision(['PRAISE_INCREASE'], 90) }]);
    expect(far.d.status).toBe('DECIDED');
    expect(far.d.final_decision?.monitoring).toMatchObject({ review_in_days: 90, review_date: '2026-04-15' });
  });
});

describe('level 4: past the daily budget', () => {
  it('answers every agent by rules and marks every message level 4', () => {
    const env = testEnv({ lang: 'ja', provider: new BudgetProvider(rules) });
    const run = runToRest(newDiscussion(), env);
    expect(run.d.status).toBe('DECIDED');
    expect(run.d.messages).toHaveLength(16);
    expect(run.d.messages.every((m) => m.metadata.fallback_level === 4)).toBe(true);
    expect(run.d.messages[0].metadata.note).toBe('daily model budget spent: rule-based answer');
  });
});
