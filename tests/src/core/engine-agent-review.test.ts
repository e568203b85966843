// The agent review after Phase 6 with the rule-based council: nothing found, a legal objection that
// reopens and ends with a new order, the per-discussion limit, an ethics and a data-error finding.
import { describe, expect, it } from 'vitest';
import { agentObjections, applyStep, planStep, runStep, type AgentObjection } from '../../../src/core/engine.js';
import type { ContentOf } from '../../../src/core/discussion/messages.js';
import { DEFAULT_METRICS } from '../../../src/core/orders/metric-table.js';
import { demoKpi } from '../../../src/core/demo-data.js';
import { runObjection } from '../../../src/core/orders/objections.js';
import type { AgentRequest, Provider } from '../../../src/core/provider.js';
import { RulesProvider } from '../../../src/core/providers/rules.js';
import type { Discussion } from '../../../src/core/types.js';
import { DISC, NOW_ISO, newDiscussion, runToRest, testEnv, TODAY } from './env.js';

type Order = ContentOf<'EXECUTION_ORDER'>;
type Answer = { deliberation: unknown; order: { actions: Order['actions']; monitoring: Order['monitoring'] } };

// The rule-based council whose decider's order is changed by `edit` (as a model's order might differ from the rules').
function deciderEdits(edit: (a: Answer, r: AgentRequest) => void): Provider {
  const rules = new RulesProvider(() => Date.parse(NOW_ISO));
  return {
    name: 'rules',
    respond(reqs) {
      return rules.respond(reqs).map((res, i) => {
        if (reqs[i].expect === 'DECISION' && res.ok) edit(res.content as Answer, reqs[i]);
        return res;
      });
    },
  };
}

// The decider raises the daily goal well above anything the member reached, whatever was said before.
const raisesGoal = deciderEdits((a) => {
  a.order.actions = a.order.actions.map((x) =>
    x.action_type === 'GOAL_ADJUSTMENT' ? { ...x, new_goal: { metric: 'contacts', value: 40 } } : x,
  );
});

// A decider that raises the quota in every action of every order, the revised one too.
const alwaysRaises = deciderEdits((a) => {
  a.order.actions = a.order.actions.map((x) => ({ ...x, description: `${x.description}; raise the quota` }));
});

const reviewNotes = (d: Discussion) => d.notes.filter((n) => n.startsWith('agent review'));

// Runs the queued objection the way objection.process does.
function object(d: Discussion, o: AgentObjection, env: ReturnType<typeof testEnv>, id = 'OBJ-1') {
  const { objector, ...rest } = o;
  const { result, objection } = runObjection(
    d,
    { ...rest, discussion_id: DISC, objection_id: id, source: 'agent', objector },
    env,
    NOW_ISO,
  );
  return { d: applyStep(d, result), objection };
}

describe('the agent review of the final order', () => {
  it('finds nothing in the demo order: no objection, one note, no message of its own', () => {
    const run = runToRest(newDiscussion(), testEnv());
    // The review runs within the decision step: decided and reviewed in one commit.
    expect(run.steps).toEqual(['start', 'phase2', 'phase34', 'decide']);
    expect(run.results[3].agentObjection).toBeUndefined();
    expect(run.results[3].messages.map((m) => m.message_type)).toEqual(['DECISION_DELIBERATION', 'EXECUTION_ORDER']);
    expect(reviewNotes(run.d)).toEqual([`agent review DEC-${TODAY}-001: no objection from ethics, legal, analyst`]);
    expect(planStep(run.d, testEnv())).toEqual({ kind: 'idle', reason: 'DECIDED' });
  });

  it('legal objects when it passed Phase 4 only conditionally and the final order raises the goal; it reopens', () => {
    const env = testEnv({ provider: raisesGoal });
    const run = runToRest(newDiscussion(), env);
    const p4 = run.d.messages.find((m) => m.message_type === 'GOVERNANCE_LEGAL');
    expect(p4?.content).toMatchObject({ check_result: 'PASS' });
    expect(String(p4?.content.notes)).toMatch(/needs watching, but no recommended action adds load/);
    const filed = run.results[3].agentObjection as AgentObjection;
    expect(filed).toMatchObject({ objector: 'legal', kind: 'legal', urgency: 'HIGH' });
    expect(filed.reason).toMatch(/Overtime runs at about 50 h a month .* Goal adjustment: new goal contacts 40/);
    expect(filed.alternative).toBe('Replace it with actions that add no load (Rest recommendation, One-on-one)');
    expect(agentObjections(run.d)).toBe(1);
    const after = object(run.d, filed, env);
    // Governance objections always reopen: VOTING, then a revised order or the original kept with reasons.
    expect(after.objection.status).toBe('ACCEPTED');
    expect(after.objection.resolution).toMatch(/^Objections from governance always reopen the decision; /);
    const objMsg = after.d.messages.find((m) => m.message_type === 'OBJECTION');
    expect(objMsg).toMatchObject({ speaker: 'legal', phase: 5 });
    expect(after.d.status).toBe('DECIDED');
    // The rule-based decider leaves out the type the objection names: a revised order without the raised goal.
    const orders = after.d.messages.filter((m) => m.message_type === 'EXECUTION_ORDER');
    expect(orders).toHaveLength(2);
    expect(after.d.final_decision?.decision_id).toBe(`DEC-${TODAY}-002`);
    const types = (after.d.final_decision as unknown as Order).actions.map((x) => x.action_type);
    expect(types).not.toContain('GOAL_ADJUSTMENT');
    expect(after.objection.resolution).toMatch(/revised order DEC-2026-01-15-002 replaces DEC-2026-01-15-001$/);
  });

  it('stops at limits.agent_objections_per_discussion: the re-decision is reviewed but files nothing', () => {
    const env = testEnv({ provider: alwaysRaises });
    const run = runToRest(newDiscussion(), env);
    const after = object(run.d, run.results[3].agentObjection as AgentObjection, env);
    const second = String(after.d.final_decision?.decision_id);
    expect(second).not.toBe(`DEC-${TODAY}-001`);
    // The revised order raises the quota again; legal would object, but one agent objection is the limit.
    expect(planStep(after.d, env).kind).toBe('agent_review');
    const r = runStep(after.d, planStep(after.d, env), env);
    expect(r.agentObjection).toBeUndefined();
    const d = applyStep(after.d, r);
    expect(reviewNotes(d).pop()).toMatch(
      new RegExp(`^agent review ${second}: legal would object \\(legal\\) but the limit of 1 agent objection`),
    );
    expect(agentObjections(d)).toBe(1);
    expect(planStep(d, env)).toEqual({ kind: 'idle', reason: 'DECIDED' });
    // With a limit of 2 the same re-decision files a second objection.
    const env2 = testEnv({ provider: alwaysRaises, settings: { 'limits.agent_objections_per_discussion': 2 } });
    expect(runStep(after.d, { kind: 'agent_review' }, env2).agentObjection).toMatchObject({ objector: 'legal' });
  });

  // A person reads the objection: each action by its label in the discussion's language, no enum value.
  it.each(['en', 'ja'] as const)('words the legal objection with labels, not enum values (%s)', (lang) => {
    const run = runToRest(newDiscussion(), testEnv({ provider: raisesGoal, lang }));
    const filed = run.results[3].agentObjection as AgentObjection;
    const text = [filed.reason, filed.alternative, ...filed.evidence].join('\n');
    expect(text).not.toMatch(/[A-Z]+_[A-Z_]+|\b(HIGH|LOW|PRIVATE|PUBLIC)\b/);
    expect(text).toContain(lang === 'ja' ? '目標の調整' : 'Goal adjustment');
    expect(filed.alternative).toContain(lang === 'ja' ? '休息の勧め、1on1' : 'Rest recommendation, One-on-one');
  });

  it('is not done after the fact once an order was reported on', () => {
    const run = runToRest(newDiscussion(), testEnv({ provider: raisesGoal }));
    const old = { ...run.d, notes: [], execution_status: 'IN_PROGRESS' };
    expect(planStep(old, testEnv())).toEqual({ kind: 'idle', reason: 'DECIDED' });
    expect(planStep({ ...old, execution_status: 'PENDING' }, testEnv()).kind).toBe('agent_review');
  });

  it('ethics objects to public praise for a member whose recognition preference is PRIVATE', () => {
    const env = testEnv({
      provider: deciderEdits((a) => {
        a.order.actions[0] = {
          ...a.order.actions[0],
          description: 'Praise him publicly in the team meeting',
        };
      }),
    });
    // The demo target's preference is PUBLIC; a member who prefers PRIVATE is the case here.
    env.members = env.members.map((m) =>
      m.member_id === newDiscussion().trigger.target_user_id
        ? { ...m, profile: { ...m.profile, recognition_preference: 'PRIVATE' } }
        : m,
    );
    const run = runToRest(newDiscussion(), env);
    expect(run.results[3].agentObjection).toMatchObject({ objector: 'ethics', kind: 'ethics' });
    expect(run.results[3].agentObjection?.reason).toMatch(/prefers to be recognised in private/);
  });

  it('the analyst objects (data_error) when the success criteria rely on a metric Phase 1 flagged as missing', () => {
    // A trigger on a metric with a single data point: Phase 1 flags it as insufficient, and the order (whose success
    // criteria may only name a series the member has) still measures success by it.
    // Grounding lets it through only because the metric is in the table and one day is made enough (below, by default
    // such a discussion ends ESCALATED as no data before any phase).
    const table = [...DEFAULT_METRICS, { ...DEFAULT_METRICS[0], name: 'deals_closed' }];
    const env = testEnv({
      kpi: demoKpi(TODAY).concat([{ date: TODAY, member_id: 'tanaka', metric: 'deals_closed', value: 2 }]),
      settings: { 'kpi.metrics': table, 'grounding.min_baseline_days': 1 },
    });
    const base = newDiscussion();
    const d0 = { ...base, trigger: { ...base.trigger, context: { ...base.trigger.context, metric: 'deals_closed' } } };
    const run = runToRest(d0, env);
    const p1 = run.d.messages.find((m) => m.message_type === 'SITUATION_REPORT');
    expect(p1?.content.data_points).toContainEqual({
      metric: 'deals_closed',
      value: 'insufficient data',
      change: '',
      note: '1 data points',
    });
    const filed = run.results[3].agentObjection as AgentObjection;
    expect(filed).toMatchObject({ objector: 'analyst', kind: 'data_error' });
    const after = object(run.d, filed, env);
    // The analyst's data error reopens after re-analysis: a new situation report precedes the new decision.
    expect(after.objection.resolution).toMatch(/^A data error: re-analyse, then reopen; /);
    expect(after.d.messages.filter((m) => m.message_type === 'SITUATION_REPORT')).toHaveLength(2);
  });

  it('with the default grounding the same discussion ends ESCALATED as no data, with no order', () => {
    const env = testEnv({
      kpi: demoKpi(TODAY).concat([{ date: TODAY, member_id: 'tanaka', metric: 'deals_closed', value: 2 }]),
    });
    const base = newDiscussion();
    const d0 = { ...base, trigger: { ...base.trigger, context: { ...base.trigger.context, metric: 'deals_closed' } } };
    const run = runToRest(d0, env);
    expect(run.d.status).toBe('ESCALATED');
    expect(run.d.final_decision).toBeNull();
    expect(run.results.flatMap((r) => r.orders)).toEqual([]);
    expect(run.d.messages.map((m) => m.message_type)).toEqual(['ERROR']);
    expect(run.d.notes.join()).toMatch(/no data \(unknown_metric\): "deals_closed" is not in the metric table/);
  });
});
