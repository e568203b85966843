// The council end to end through the built file: six phases within 40 Sheets round trips, and at most 10
// discussions in progress among concurrent executions. Different data, feedback rounds, the message and token
// limits and TIMEOUT run in-process in council.inproc.test.ts.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import {
  council,
  type Message,
  messages,
  ok,
  setSetting,
  settle,
  start,
  statuses,
  view,
} from '../../council-helpers.js';
import { queuedOnLock, records } from '../../helpers.js';
import { expectedFormula as oracle } from './confidence-oracle.js';

const round2 = (x: number) => Math.round(x * 100) / 100;

// The computed confidence over what this runtime's workbook holds (confidence-oracle.ts); no outcomes yet, so no
// agent stats.
function expectedFormula(rt: Runtime, member: string, opinions: Message[], speaker: string): number {
  expect(rt.scriptProperties.get('KAIGI_AGENT_STATS')).toBeFalsy();
  const w = { kpi: records(rt, 'kpi'), settings: records(rt, 'settings'), now: rt.clock.now() };
  return oracle(w, member, opinions, speaker);
}

describe('a full discussion on the rules provider', () => {
  it('runs six phases with all fourteen agents and issues an allow-listed order', async () => {
    const rt = await council();
    const from = rt.executions.length;
    await start(rt);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('DECIDED');
    // The target: at most 40 Sheets round trips for the whole discussion, request to decision. The Dashboard refresh
    // it makes due runs in a later execution of its own, shared by every discussion that ends meanwhile: it is
    // counted apart, and it must not be missing.
    const runs = rt.executions.slice(from);
    const refresh = (r: (typeof runs)[number]) =>
      r.fn === 'tick' && (r.value as { tasks: string[]; dashboard: boolean }).dashboard;
    const trips = runs.filter((r) => !refresh(r)).reduce((a, r) => a + r.counts.roundTrips, 0);
    expect(trips).toBeLessThanOrEqual(40);
    const refreshes = runs.filter(refresh);
    expect(refreshes.length).toBe(1);
    console.log(`round trips: discussion ${trips}, Dashboard refresh ${refreshes[0].counts.roundTrips}`);
    const ms = messages(rt, id);
    // The sidebar reads it through getDiscussion: the same messages, in the stored order.
    expect((await view(rt, id)).messages.map((m: Message) => m.message_id)).toEqual(ms.map((m) => m.message_id));
    const speakers = new Set(ms.map((m) => m.speaker));
    expect(speakers.size).toBe(14);
    expect(new Set(ms.map((m) => m.phase))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    // Phase 2 specialists answer independently: each saw only Phase 1.
    const p2 = ms.filter((m) => m.phase === 2 && m.message_type === 'SPECIALIST_OPINION');
    expect(p2.length).toBe(8);
    // Each formula figure is the computed confidence over this discussion's own inputs, not the stated one.
    for (const m of p2)
      expect({ speaker: m.speaker, formula: m.metadata.formula_confidence }).toEqual({
        speaker: m.speaker,
        formula: expectedFormula(rt, 'tanaka', p2, m.speaker),
      });
    // 30 fresh days of data: the formula gives the four who agree on GOAL_ADJUSTMENT the consensus share (0.796),
    // the others none (0.646); with memory on and no verdict yet, every opinion reports and is weighed at even odds,
    // the formula's figure kept beside it (re-pinned 2026-11-27).
    const formula = { analyst: 0.796, psychology: 0.646, neuroscience: 0.646, coaching: 0.796 };
    const rest = { sales_strategy: 0.796, behavioral_econ: 0.796, organization: 0.646, wellbeing: 0.646 };
    expect(Object.fromEntries(p2.map((m) => [m.speaker, m.metadata.formula_confidence]))).toEqual({
      ...formula,
      ...rest,
    });
    for (const m of p2) expect([m.speaker, m.metadata.computed_confidence]).toEqual([m.speaker, 0.5]);
    for (const m of p2) expect(m.metadata.stated_confidence).toBe(m.content.confidence);
    // The demo's example: contacts 12 → 5 and little praise point psychology to recognition.
    const report = ms.find((m) => m.message_type === 'SITUATION_REPORT')!;
    expect(report.content.summary).toMatch(/12 → 5（-58%）/);
    const psych = p2.find((m) => m.speaker === 'psychology')!;
    expect(psych.content.hypothesis).toMatch(/承認不足/);
    expect(psych.content.recommendation.action_type).toBe('PRAISE_INCREASE');
    expect(psych.content.evidence.join(' ')).toMatch(/praise_count_last_7d: 2/);
    const order = ms.find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect(order.content.decision_id).toMatch(/^DEC-2026-01-15-001$/);
    const deliberation = ms.find((m) => m.message_type === 'DECISION_DELIBERATION')!;
    const weights = deliberation.content.weight_assignment as { agent_id: string; weight: number }[];
    expect(weights.map((w) => w.agent_id)).toEqual(p2.map((m) => m.speaker));
    // One vote per specialist for what it recommended, scored by the weights assigned above.
    const types = [...new Set(p2.map((m) => m.content.recommendation.action_type as string))].sort();
    expect(deliberation.content.votes).toEqual(
      types.map((t) => {
        const agents = p2.filter((m) => m.content.recommendation.action_type === t).map((m) => m.speaker);
        const score = weights.filter((w) => agents.indexOf(w.agent_id) >= 0).reduce((a, w) => a + w.weight, 0);
        return { action_type: t, agents, score: round2(score) };
      }),
    );
    expect(
      deliberation.content.votes.map((v: { action_type: string; agents: string[] }) => [v.action_type, v.agents]),
    ).toEqual([
      ['GOAL_ADJUSTMENT', ['analyst', 'coaching', 'sales_strategy', 'behavioral_econ']],
      ['MESSAGE_TIMING', ['neuroscience']],
      ['ONE_ON_ONE', ['organization']],
      ['PRAISE_INCREASE', ['psychology']],
      ['REST_RECOMMENDATION', ['wellbeing']],
    ]);
    // Tanaka's first discussion with memory on: the order is filled to three by the vote (re-pinned 2026-11-27).
    const chosen = ['GOAL_ADJUSTMENT', 'PRAISE_INCREASE', 'MESSAGE_TIMING'];
    expect(deliberation.content.selected_action_types).toEqual(chosen);
    expect(order.content.actions.map((a: { action_type: string }) => a.action_type)).toEqual(chosen);
    // Orders rows, one per action, with the review date and criteria.
    const orders = records(rt, 'orders');
    expect(orders.length).toBe(order.content.actions.length);
    expect([orders[0].order_id, orders[0].decision_id, orders[0].discussion_id]).toEqual([
      `${order.content.decision_id}-A1`,
      order.content.decision_id,
      id,
    ]);
    expect(orders[0].status).toBe('PENDING');
    // The log row is exactly A–N and J holds the full array while it fits.
    const log = records(rt, 'discussions')[0];
    expect([log.discussion_id, log.status, log.priority]).toEqual([id, 'DECIDED', 'HIGH']);
    const j = String(log.messages_json);
    expect(j.length <= 50000 ? JSON.parse(j).length : JSON.parse(j).count).toBe(ms.length);
    expect(JSON.parse(String(log.final_decision_json)).decision_id).toBe(order.content.decision_id);
    const audit = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(audit.ok).toBe(true);
  });
});

describe('limits', () => {
  it('keeps at most limits.max_concurrent_discussions in progress; triggers past it wait OPEN, then all are decided', async () => {
    const rt = await council();
    // Four, not the default ten: the burst below is then six ticks, which all get the script lock within
    // LockService's 30 s (each claim opens its discussion in the same commit, about 2.5 s on Apps Script's clock, so a
    // burst of twelve would keep its last ticks waiting past it; they give their claim back, which proves nothing).
    const MAX = 4;
    const N = MAX + 2;
    await setSetting(rt, 'limits.max_concurrent_discussions', String(MAX));
    const members = ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'];
    for (let i = 0; i < N; i++)
      await start(rt, {
        type: 'kpi_decline',
        source: 'human',
        target_user_id: members[i % 5],
        context: { metric: 'contacts', n: i },
        priority: 'MEDIUM',
      });
    // Each execution takes one step and stops there (a one-second budget is spent by the claim). The ticks queue on
    // the script lock the test holds, so they claim in turn before any of them finishes its step: each claims one of
    // the opens (a finished step's next one, older, would otherwise come first).
    await setSetting(rt, 'queue.tick_budget_seconds', '1');
    const runs = await queuedOnLock(rt, N, () =>
      Promise.all(Array.from({ length: N }, () => rt.run('tick', [], { kind: 'trigger' }))),
    );
    for (const r of runs) expect(r.ok, r.error?.message).toBe(true);
    const now = Object.values(statuses(rt));
    // MAX in progress. The other two are OPEN, or still queued: a tick that waited too long behind the others'
    // commits for the script lock gave its claim back, to be tried again.
    const gaveBack = runs.filter((r) => (r.value as { failed: number }).failed > 0).length;
    expect(now.filter((s) => s === 'IN_PROGRESS').length).toBe(MAX);
    expect(now.filter((s) => s === 'OPEN').length).toBe(2 - gaveBack);
    // The audit trail shows the queue at work: never more than MAX in progress, and the discussions opened while MAX
    // were in progress waited OPEN until a slot came free.
    let live = 0;
    let peak = 0;
    const waited: string[] = [];
    for (const r of records(rt, 'audit')) {
      if (r.event === 'log_row' && live >= MAX) waited.push(String(r.row_key));
      if (r.event !== 'status') continue;
      const p = JSON.parse(String(r.payload_json));
      if (p.from === 'OPEN' && p.to === 'IN_PROGRESS') live++;
      if (p.to === 'DECIDED') live--;
      peak = Math.max(peak, live);
    }
    expect(peak).toBe(MAX);
    expect(waited.length).toBe(2 - gaveBack);
    await setSetting(rt, 'queue.tick_budget_seconds', '270');
    await settle(rt);
    expect(Object.values(statuses(rt)).filter((s) => s === 'DECIDED').length).toBe(N);
    // No queue item was processed twice: every discussion has one set of messages, ids unique.
    const ids = messages(rt).map((m) => m.message_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of Object.keys(statuses(rt)))
      expect(messages(rt, id).filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
  });
});
