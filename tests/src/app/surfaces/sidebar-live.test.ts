// The live sidebar's server side: the busy flag the page polls on, phases against their targets, running sums.
import { describe, expect, it } from 'vitest';
import { council, ok, settle, start, statuses, surveillance } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import type { Runtime } from '../../../../runtime/runtime.js';

async function server(rt: Runtime, fn: string, ...args: unknown[]): Promise<any> {
  return rt.callServer(fn, ...args);
}

describe('getSidebarData and getDiscussion while a discussion runs', () => {
  it('is busy while anything is queued or running, and idle once the discussion is decided', async () => {
    const rt = await council();
    const idle = await server(rt, 'getSidebarData');
    expect(idle).toMatchObject({ busy: false, inbox_unread: 0, discussions: [] });
    const decider = idle.agents.find((a: { agent_id: string }) => a.agent_id === 'decider');
    expect(decider.name_ja).toBeTruthy();
    expect(decider.name_en).toBeTruthy();
    await start(rt);
    // Queued, not yet opened: the list is busy so the page keeps polling.
    expect((await server(rt, 'getSidebarData')).busy).toBe(true);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('DECIDED');
    const v = await server(rt, 'getDiscussion', id);
    expect(v.busy).toBe(false);
    expect(v.phases.map((p: { state: string }) => p.state)).toEqual(['done', 'done', 'done', 'done', 'done', 'done']);
    // Each phase against Settings phase.target_seconds, with its measured seconds.
    expect(v.phases.map((p: { target_seconds: number }) => p.target_seconds)).toEqual([5, 30, 15, 10, 20, 0]);
    for (const p of v.phases) {
      expect(p.messages).toBeGreaterThan(0);
      expect(p.seconds).toBeGreaterThanOrEqual(0);
      expect(p.over_target).toBe(p.target_seconds > 0 && p.seconds > p.target_seconds);
    }
    const list = await server(rt, 'getSidebarData');
    expect(list.busy).toBe(false);
    expect(list.discussions.map((d: { id: string }) => d.id)).toEqual([id]);
    expect((await server(rt, 'getSidebarData', { status: 'CLOSED' })).discussions).toEqual([]);
    await expect(server(rt, 'getSidebarData', { status: 'NOPE' })).rejects.toThrow(/status must be one of/);
  });

  it('shows an escalated discussion waiting at its phase, busy again once a resolution is queued', async () => {
    const rt = await council();
    await start(rt, surveillance());
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('ESCALATED');
    const v = await server(rt, 'getDiscussion', id);
    expect(v.busy).toBe(false);
    expect(v.phases.filter((p: { state: string }) => p.state === 'running').length).toBe(1);
    expect(v.summary.governance.some((g: { result: string }) => g.result === 'FAIL')).toBe(true);
    expect(v.summary.decision_id).toBe('');
    expect((await server(rt, 'getSidebarData')).inbox_unread).toBe(1);
    await server(rt, 'resolveEscalation', { discussion_id: id, action: 'reject' });
    expect((await server(rt, 'getDiscussion', id)).busy).toBe(true);
    expect((await server(rt, 'getSidebarData')).busy).toBe(true);
    await settle(rt);
    const closed = await server(rt, 'getDiscussion', id);
    expect([closed.status, closed.busy]).toEqual(['CLOSED', false]);
  });

  it('gives message cards with display names, readable types, running token and cost sums, the decision and why', async () => {
    const rt = await council();
    await start(rt);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    const v = await server(rt, 'getDiscussion', id);
    const agents = records(rt, 'agents');
    let tokens = 0;
    let cost = 0;
    for (const m of v.messages) {
      tokens += m.tokens;
      cost += m.cost_usd;
      expect(m.tokens_so_far).toBe(tokens);
      expect(m.cost_so_far).toBeCloseTo(cost, 6);
      const a = agents.find((x) => x.agent_id === m.speaker);
      if (a) expect([m.speaker_name_ja, m.speaker_name_en]).toEqual([a.name_ja, a.name_en]);
      expect(m.type_label_en).not.toBe(m.type);
    }
    expect(tokens).toBeGreaterThan(0);
    // Spent so far: the log row's budget columns when present (a retry may spend without a message), else the sum.
    expect(v.spent.tokens).toBeGreaterThanOrEqual(tokens);
    expect(v.estimate === null || typeof v.estimate.tokens === 'number').toBe(true);
    const report = v.messages.find((m: { type: string }) => m.type === 'SITUATION_REPORT');
    expect([report.type_label_ja, report.type_label_en]).toEqual(['状況報告', 'Situation report']);
    const s = v.summary;
    expect(s.decision_id).toBe(v.decision.decision_id);
    expect(s.actions).toEqual(v.decision.actions);
    expect(s.review_date).toBe(v.decision.monitoring.review_date);
    expect(s.target).toBe(v.trigger.target_user_id);
    expect(s.execution_status).toBe('PENDING');
    expect(s.vote.length).toBeGreaterThan(0);
    expect(s.governance.map((g: { type: string }) => g.type)).toEqual(['GOVERNANCE_ETHICS', 'GOVERNANCE_LEGAL']);
    expect(s.governance.every((g: { result: string }) => g.result === 'PASS')).toBe(true);
    // The orders of the decision, with their status and last report.
    expect(v.orders.length).toBe(v.decision.actions.length);
    expect(v.orders[0]).toMatchObject({ status: 'PENDING', last_report: '' });
    ok(
      await rt.run('reportOrder', [{ discussion_id: id, status: 'ACKNOWLEDGED', report: '=IMPORTXML("x","//a")' }], {
        kind: 'server',
      }),
    );
    const after = await server(rt, 'getDiscussion', id);
    expect(after.orders[0]).toMatchObject({ status: 'ACKNOWLEDGED', last_report: '=IMPORTXML("x","//a")' });
    expect(after.summary.execution_status).toBe('ACKNOWLEDGED');
  });

  it('reads only what it needs: a few Sheets round trips per call', async () => {
    const rt = await council();
    await start(rt);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    // Warm the configuration cache as the page's first call does.
    ok(await rt.run('getDiscussion', [id], { kind: 'server' }));
    const list = await rt.run('getSidebarData', [], { kind: 'server' });
    const one = await rt.run('getDiscussion', [id], { kind: 'server' });
    ok(list);
    ok(one);
    console.log(`round trips: getSidebarData ${list.counts.roundTrips}, getDiscussion ${one.counts.roundTrips}`);
    expect(list.counts.roundTrips).toBeLessThanOrEqual(4);
    expect(one.counts.roundTrips).toBeLessThanOrEqual(6);
  });
});
