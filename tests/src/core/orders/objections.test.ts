// Objections and a person's resolution of an escalation: judgement, revised orders, E005.
import { describe, expect, it } from 'vitest';
import { judge, runObjection, runResolution, type ObjectionInput } from '../../../../src/core/orders/objections.js';
import type { Provider } from '../../../../src/core/provider.js';
import { RulesProvider } from '../../../../src/core/providers/rules.js';
import { ScriptedProvider } from '../../../../src/core/providers/scripted.js';
import type { AgentDef } from '../../../../src/core/types.js';
import { decision, situation, storedOrder } from '../answers.js';
import { DISC, NOW_ISO, newDiscussion, runToRest, step, testEnv, TODAY } from '../env.js';

const rules = new RulesProvider(() => Date.parse(NOW_ISO));
const only =
  (p: Provider, ids: string[]) =>
  (a: AgentDef): Provider =>
    ids.indexOf(a.agent_id) >= 0 ? p : rules;

// Decided by the rule-based council: DEC-…-001, GOAL_ADJUSTMENT at low intensity.
const decided = runToRest(newDiscussion(), testEnv({ lang: 'ja' })).d;
const FIRST = `DEC-${TODAY}-001`;
const SECOND = `DEC-${TODAY}-002`;

const objection = (o: Partial<ObjectionInput> = {}): ObjectionInput => ({
  discussion_id: DISC,
  objection_id: 'OBJ-1',
  source: 'human',
  objector: 'manager',
  reason: 'he is exhausted',
  alternative: 'let him rest first',
  evidence: ['overtime 2.5 h a day'],
  urgency: 'LOW',
  ...o,
});

// An env whose next decision id follows the one already issued.
function envAfterFirst(provider?: Provider | ((a: AgentDef) => Provider)) {
  const env = testEnv({ provider });
  env.nextDecisionId();
  return env;
}

describe('judge', () => {
  const env = testEnv();
  it('accepts governance objections and the analyst’s data errors, re-analysing the latter', () => {
    expect(judge(objection({ objector: 'legal', source: 'agent' }), env)).toEqual({
      accepted: true,
      reanalyse: false,
      why: 'Objections from governance always reopen the decision',
    });
    expect(judge(objection({ objector: 'analyst', source: 'agent', kind: 'data_error' }), env)).toEqual({
      accepted: true,
      reanalyse: true,
      why: 'A data error: re-analyse, then reopen',
    });
    // The analyst objecting on other grounds is judged like anyone.
    expect(judge(objection({ objector: 'analyst', source: 'agent', kind: 'risk' }), env).accepted).toBe(false);
  });

  it('judges by an agent’s rule only what the engine filed as that agent, never a person or client of that name', () => {
    for (const source of ['human', 'api'] as const) {
      expect(judge(objection({ objector: 'legal', source }), env).accepted).toBe(false);
      expect(judge(objection({ objector: 'analyst', source, kind: 'data_error' }), env)).toMatchObject({
        accepted: false,
        reanalyse: false,
      });
    }
  });

  it('accepts urgency, an allowed alternative or several pieces of evidence, and rejects the rest', () => {
    expect(judge(objection({ urgency: 'CRITICAL' }), env).why).toBe('Accepted: urgency Critical');
    expect(judge(objection({ urgency: 'HIGH' }), env).why).toBe('Accepted: urgency High');
    expect(judge(objection({ urgency: 'MEDIUM' }), env).accepted).toBe(false);
    expect(judge(objection({ alternative: 'REST_RECOMMENDATION then ONE_ON_ONE' }), env).why).toBe(
      'Accepted: the alternative (One-on-one, Rest recommendation) is an allowed action',
    );
    expect(judge(objection({ evidence: ['a', 'b'] }), env).why).toBe('Accepted: several pieces of evidence');
    expect(judge(objection(), env)).toEqual({
      accepted: false,
      reanalyse: false,
      why: 'Rejected: too little evidence, and the alternative names no allowed action',
    });
  });
});

describe('runObjection', () => {
  it('rejects an objection when there is no decision yet', () => {
    const open = step(newDiscussion(), testEnv({ lang: 'ja' })).d;
    const { result, objection: row } = runObjection(open, objection({ urgency: 'HIGH' }), testEnv(), NOW_ISO);
    expect(result.messages.map((m) => [m.phase, m.speaker, m.message_type, m.content.status])).toEqual([
      [5, 'manager', 'OBJECTION', undefined],
      [5, 'decider', 'ACKNOWLEDGEMENT', 'OBJECTION_REJECTED'],
    ]);
    expect(row).toMatchObject({
      status: 'REJECTED',
      decision_id: '',
      resolution: 'There is no decision to object to (status IN_PROGRESS)',
      resolved_by: 'decider',
      resolved_at: NOW_ISO,
    });
    expect(result.transitions).toEqual([]);
  });

  it('leaves the decision standing when the objection is rejected', () => {
    const { result, objection: row } = runObjection(decided, objection(), testEnv(), NOW_ISO);
    expect(result.status).toBe('DECIDED');
    expect(result.transitions).toEqual([]);
    expect(result.messages[0].content).toEqual({
      reason: 'he is exhausted',
      alternative: 'let him rest first',
      target_decision: FIRST,
      evidence: ['overtime 2.5 h a day'],
      urgency: 'LOW',
    });
    expect(row).toMatchObject({ status: 'REJECTED', decision_id: FIRST, evidence: 'overtime 2.5 h a day' });
  });

  it('reopens an accepted objection: the decider revises the order, which replaces the old one', () => {
    const p = new ScriptedProvider([
      { agent: 'decider', expect: 'DECISION', content: decision(['REST_RECOMMENDATION']) },
    ]);
    const { result, objection: row } = runObjection(
      decided,
      objection({ urgency: 'HIGH' }),
      envAfterFirst(only(p, ['decider'])),
      NOW_ISO,
    );
    p.assertDone();
    expect(p.requests[0].context.objection).toEqual({
      reason: 'he is exhausted',
      alternative: 'let him rest first',
      evidence: ['overtime 2.5 h a day'],
      objector: 'manager',
    });
    expect(p.requests[0].user).toContain('<data name="objection">');
    expect(result.transitions).toEqual([
      { from: 'DECIDED', to: 'VOTING' },
      { from: 'VOTING', to: 'DECIDED' },
    ]);
    expect(result.messages.map((m) => [m.phase, m.speaker, m.message_type])).toEqual([
      [5, 'manager', 'OBJECTION'],
      [5, 'decider', 'ACKNOWLEDGEMENT'],
      [5, 'decider', 'DECISION_DELIBERATION'],
      [6, 'decider', 'EXECUTION_ORDER'],
    ]);
    expect(result.cancelDecision).toBe(FIRST);
    expect(result.orders.map((o) => o.order_id)).toEqual([`${SECOND}-A1`]);
    expect(row).toMatchObject({
      status: 'ACCEPTED',
      resolution: `Accepted: urgency High; revised order ${SECOND} replaces ${FIRST}`,
    });
  });

  it('keeps the original order when the decider chooses the same actions again', () => {
    const same = decision(['GOAL_ADJUSTMENT']);
    same.order.actions[0].intensity = 'low';
    const p = new ScriptedProvider([{ agent: 'decider', content: same }]);
    const { result, objection: row } = runObjection(
      decided,
      objection({ objector: 'ethics', source: 'agent' }),
      envAfterFirst(only(p, ['decider'])),
      NOW_ISO,
    );
    const note = `After reconsideration the original order (${FIRST}) stands: chose GOAL_ADJUSTMENT`;
    expect(result.messages.map((m) => [m.phase, m.message_type, m.content.status])).toEqual([
      [5, 'OBJECTION', undefined],
      [5, 'ACKNOWLEDGEMENT', 'OBJECTION_ACCEPTED'],
      [5, 'DECISION_DELIBERATION', undefined],
      [6, 'ACKNOWLEDGEMENT', 'ORIGINAL_ORDER_KEPT'],
    ]);
    expect(result.messages[3].content.note).toBe(note);
    expect([result.status, result.finalDecision, result.cancelDecision, result.orders]).toEqual([
      'DECIDED',
      undefined,
      undefined,
      [],
    ]);
    expect(row.resolution).toBe(`Objections from governance always reopen the decision; ${note}`);
  });

  it('re-analyses the data before deciding again on the analyst’s data error', () => {
    const p = new ScriptedProvider([
      { agent: 'analyst', expect: 'SITUATION_REPORT', phase: 1, content: situation('corrected data') },
      { agent: 'decider', content: decision(['ONE_ON_ONE']) },
    ]);
    const { result } = runObjection(
      decided,
      objection({ objector: 'analyst', source: 'agent', kind: 'data_error' }),
      envAfterFirst(only(p, ['analyst', 'decider'])),
      NOW_ISO,
    );
    p.assertDone();
    expect(result.messages.map((m) => [m.phase, m.speaker, m.message_type])).toEqual([
      [5, 'analyst', 'OBJECTION'],
      [5, 'decider', 'ACKNOWLEDGEMENT'],
      [1, 'analyst', 'SITUATION_REPORT'],
      [5, 'decider', 'DECISION_DELIBERATION'],
      [6, 'decider', 'EXECUTION_ORDER'],
    ]);
    expect(result.messages[2].metadata.step_key).toBe(`${DISC}/1/analyst/2`);
    // The decider sees the corrected report.
    expect(p.requests[1].context.earlier.filter((m) => m.message_type === 'SITUATION_REPORT')).toHaveLength(2);
  });

  it('escalates an accepted objection the decider cannot answer on a non-urgent discussion', () => {
    const p = new ScriptedProvider([{ agent: 'decider', status: 500 }]);
    const { result, objection: row } = runObjection(
      { ...decided, priority: 'LOW' },
      objection({ evidence: ['a', 'b'] }),
      envAfterFirst(only(p, ['decider'])),
      NOW_ISO,
    );
    expect(result.status).toBe('ESCALATED');
    expect(result.messages.map((m) => m.metadata.error_code ?? '')).toEqual(['', '', 'E003']);
    expect(row).toMatchObject({
      status: 'ACCEPTED',
      resolution: 'Accepted: several pieces of evidence; escalated to a person',
    });
  });

  it('E005: when processing fails, the original order runs provisionally and is flagged for review', () => {
    const p = new ScriptedProvider([{ agent: 'decider', throws: new Error('provider crashed mid-call') }]);
    const { result, objection: row } = runObjection(
      decided,
      objection({ urgency: 'CRITICAL' }),
      envAfterFirst(only(p, ['decider'])),
      NOW_ISO,
    );
    const text =
      'Objection processing failed; the original order runs provisionally and is flagged for review: provider crashed mid-call';
    expect(
      result.messages.map((m) => [m.speaker, m.message_type, m.metadata.error_code, m.metadata.fallback_level]),
    ).toEqual([
      ['manager', 'OBJECTION', undefined, 0],
      ['system', 'ERROR', 'E005', 5],
    ]);
    expect(result.messages[1].content).toEqual({ error_code: 'E005', message: text });
    expect([result.status, result.transitions, result.executionStatus, result.notes]).toEqual([
      'DECIDED',
      [],
      'PROVISIONAL',
      ['E005 review needed: OBJ-1'],
    ]);
    expect(result.inbox).toEqual([
      {
        from_agent: 'decider',
        type: 'question',
        priority: 'high',
        title: `E005 ${DISC}`,
        body: text,
        discussion_id: DISC,
      },
    ]);
    expect(row).toMatchObject({ status: 'REJECTED', resolution: text, resolved_by: 'system' });
  });
});

describe('runResolution', () => {
  // Escalated: the decider of a MEDIUM discussion gave no answer.
  const before = runToRest(newDiscussion({ priority: 'MEDIUM' }), testEnv({ lang: 'ja' })).d;
  const down = new ScriptedProvider([{ agent: 'decider', network: 'offline' }]);
  const escalated = runToRest(
    { ...before, status: 'VOTING', final_decision: null, messages: before.messages.slice(0, -2) },
    testEnv({ provider: only(down, ['decider']) }),
  ).d;

  it('only resolves an ESCALATED discussion', () => {
    expect(escalated.status).toBe('ESCALATED');
    expect(() => runResolution(decided, { discussion_id: DISC, action: 'reject', by: 'boss' }, testEnv())).toThrow(
      `${DISC} is DECIDED; only an ESCALATED discussion can be resolved`,
    );
  });

  it('rejects: closes the discussion and cancels execution', () => {
    const r = runResolution(escalated, { discussion_id: DISC, action: 'reject', by: 'boss' }, testEnv());
    expect(r.messages.map((m) => [m.phase, m.speaker, m.content])).toEqual([
      [6, 'human', { status: 'REJECTED', note: 'by boss' }],
    ]);
    expect([r.status, r.closedAt, r.executionStatus]).toEqual(['CLOSED', NOW_ISO, 'CANCELLED']);
  });

  it('approves with an edited order, which becomes the decision', () => {
    const r = runResolution(
      escalated,
      { discussion_id: DISC, action: 'approve', by: 'boss', order: storedOrder(decision(['PEER_SUPPORT'])) },
      testEnv(),
    );
    expect(r.messages.map((m) => [m.phase, m.speaker, m.message_type])).toEqual([
      [5, 'human', 'ACKNOWLEDGEMENT'],
      [6, 'human', 'EXECUTION_ORDER'],
    ]);
    expect(r.transitions).toEqual([{ from: 'ESCALATED', to: 'DECIDED' }]);
    expect(r.finalDecision?.decision_id).toBe(FIRST);
    expect(r.orders.map((o) => [o.order_id, (o.action as { action_type: string }).action_type])).toEqual([
      [`${FIRST}-A1`, 'PEER_SUPPORT'],
    ]);
  });

  it('returns to Phase 5 with guidance the decider is given', () => {
    const p = new ScriptedProvider([{ agent: 'decider', content: decision(['SKILL_TRAINING']) }]);
    const r = runResolution(
      escalated,
      { discussion_id: DISC, action: 'return', by: 'boss', guidance: 'prefer training' },
      testEnv({ provider: only(p, ['decider']) }),
    );
    expect(p.requests[0].context.guidance).toBe('prefer training');
    expect(p.requests[0].user).toContain('<data name="human_guidance">\nprefer training\n</data>');
    expect(r.messages[0].content).toEqual({
      status: 'RETURNED_TO_PHASE_5',
      note: 'by boss',
      guidance: 'prefer training',
    });
    expect(r.transitions).toEqual([
      { from: 'ESCALATED', to: 'VOTING' },
      { from: 'VOTING', to: 'DECIDED' },
    ]);
  });
});
