// POST /tasks with wait_seconds through the built file: the request's own execution carries the discussion to its
// decision and answers with it, no trigger needed; a wait that runs out answers 202 and leaves the rest to a trigger.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, ok, setSetting, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, get, post } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

// One-shot triggers (the nudge) scheduled and not yet fired.
const nudges = (rt: Runtime) => rt.triggers.triggers.filter((t) => t.handler === 'tickSoon' && !t.fired);

describe('POST /tasks with wait_seconds', () => {
  it('runs the discussion in the request and answers with it decided, as GET /tasks/{id} shows it', async () => {
    const rt = await council();
    const t = await clients(rt);
    const before = nudges(rt).length;
    const answer = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: 'w-1', wait_seconds: 60 });
    expect(answer.status).toBe(200);
    expect(answer.task_id).toBe('Q-1');
    expect(answer.state).toBe('DECIDED');
    expect(answer.decision.decision_id).toMatch(/^DEC-/);
    expect(answer.orders.length).toBeGreaterThan(0);
    expect(answer.phases.map((p: { state: string }) => p.state)).toEqual(Array(6).fill('done'));
    // Decided in the request's execution: the Log says so with no trigger fired, and no one-shot trigger was left.
    expect(statuses(rt)[answer.discussion_id]).toBe('DECIDED');
    expect(records(rt, 'queue').map((q) => [q.id, q.status])).toEqual([['Q-1', 'done']]);
    expect(nudges(rt).length).toBe(before);
    // What GET answers is what the POST answered.
    const { status: _s, ...read } = await get(rt, `/tasks/${answer.task_id}`, t.coordinator);
    const { status: _p, ...posted } = answer;
    expect(read).toEqual(posted);
    // A repeated call gets the first answer as it was (the task is not run again).
    const again = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: 'w-1', wait_seconds: 60 });
    expect(again).toEqual({ status: 202, task_id: 'Q-1', discussion_id: answer.discussion_id });
    expect(records(rt, 'discussions').length).toBe(1);
    // The next tick has only the API Log's waiting rows to write: no task is run again.
    const tick = ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect([tick.processed, tick.tasks]).toEqual([0, []]);
    // And the one after that is idle from its one property read: the ended task moved the queue's head past it.
    expect(ok(await rt.run('tick', [], { kind: 'trigger' })).reason).toBe('idle');
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('answers 202 when the wait runs out, and the one-shot trigger carries the rest', async () => {
    const rt = await council();
    await setSetting(rt, 'api.max_wait_seconds', '1');
    const t = await clients(rt);
    const before = nudges(rt).length;
    const answer = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, wait_seconds: 60 });
    // The wait is held to api.max_wait_seconds: the request stopped after its first step.
    expect(answer).toEqual({ status: 202, task_id: 'Q-1', discussion_id: 'DISC-2026-01-15-001', waited_up_to: 1 });
    expect(statuses(rt)[answer.discussion_id]).toBe('IN_PROGRESS');
    expect(nudges(rt).length).toBe(before + 1);
    await rt.runTriggers(() => statuses(rt)[answer.discussion_id] === 'DECIDED', { maxClockMs: 3600_000 });
    expect((await get(rt, '/tasks/Q-1', t.coordinator)).state).toBe('DECIDED');
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('does the same for the MCP tool start_discussion', async () => {
    const rt = await council();
    const t = await clients(rt);
    const message = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'start_discussion', arguments: { ...TRIGGER, wait_seconds: 60 } },
    };
    const reply = await rt.doPost({ path: '/mcp' }, JSON.stringify({ ...message, token: t.coordinator }));
    const answer = JSON.parse(reply.body).result.structuredContent;
    expect([answer.task_id, answer.state]).toEqual(['Q-1', 'DECIDED']);
    expect(statuses(rt)[answer.discussion_id]).toBe('DECIDED');
  });

  it('refuses a wait that is not a whole number of seconds from 0 to 300, queuing nothing', async () => {
    const rt = await council();
    const t = await clients(rt);
    for (const wait_seconds of [-1, 301, 1.5, '60']) {
      const answer = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, wait_seconds });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.error)).toMatch(/wait_seconds/);
    }
    expect(records(rt, 'queue')).toEqual([]);
  });
});
