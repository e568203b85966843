// The agent API (/agent/…, docs/api.md) through the built file: its request bodies in, its answers out
// ({status: accepted | rejected, message}, {success}, {agentName, role, status, …}), its errors in its own JSON.
import { describe, expect, it } from 'vitest';
import { seedResultAnswer, seedStatusAnswer, seedTaskAnswer } from '../../../../src/core/api/seed-api.js';
import { council, messages, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { type Answer, clients, get, post } from './api-helpers.js';

const TASK = {
  taskId: 'crm-task-0001',
  taskType: 'kpi_decline',
  prompt: 'Contacts fell 30% this week: what should tanaka do next?',
  context: { target_user_id: 'tanaka', metric: 'contacts' },
};

// The queued task an agent API answer's message names.
function taskOf(a: Answer): string {
  return /task (Q-\d+)/.exec(String(a.message))![1];
}

function discussionOf(a: Answer): string {
  return /discussion (DISC-[\d-]+)/.exec(String(a.message))![1];
}

describe('the agent API', () => {
  it('accepts an agent API task once per taskId, as a discussion of its taskType about context.target_user_id', async () => {
    const rt = await council();
    const t = await clients(rt);
    const first = await post(rt, '/agent/tasks', t.coordinator, TASK);
    expect(seedTaskAnswer().strict().parse(first)).toEqual(first);
    expect(first.status).toBe('accepted');
    const again = await post(rt, '/agent/tasks', t.coordinator, TASK);
    expect(again.status).toBe('accepted');
    expect(taskOf(again)).toBe(taskOf(first));
    const disc = discussionOf(first);
    const view = await get(rt, `/tasks/${taskOf(first)}`, t.viewer);
    expect(view.discussion_id).toBe(disc);
    // taskType is the trigger type, the member comes from the context, prompt and context are the trigger's context.
    expect(view.trigger).toMatchObject({
      type: 'kpi_decline',
      target_user_id: 'tanaka',
      context: { metric: 'contacts', prompt: TASK.prompt, task_id: TASK.taskId },
    });
    await rt.runTriggers(() => statuses(rt)[disc] === 'DECIDED', { maxClockMs: 3600_000 });
    expect(statuses(rt)[disc]).toBe('DECIDED');
    // A taskId that is no safe cell value is kept by its hash: never a formula in the Queue.
    const odd = await post(rt, '/agent/tasks', t.coordinator, { ...TASK, taskId: '=HYPERLINK("x")' });
    expect(odd.status).toBe('accepted');
    expect(JSON.stringify(records(rt, 'queue').map((r) => r.dedupe_key))).not.toContain('HYPERLINK');
  });

  it('rejects a task the council declines, and answers a body the agent API does not take with its error JSON', async () => {
    const rt = await council();
    const t = await clients(rt);
    const declined = await post(rt, '/agent/tasks', t.coordinator, { ...TASK, taskType: 'code_generation' });
    expect(declined).toEqual({ status: 'rejected', message: expect.stringContaining('code_generation') });
    const stranger = await post(rt, '/agent/tasks', t.coordinator, {
      ...TASK,
      context: { target_user_id: 'nobody' },
    });
    expect(stranger.status).toBe('rejected');
    const missing = await post(rt, '/agent/tasks', t.coordinator, { taskId: 'x', prompt: 'p' });
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('taskType') });
    expect(Object.keys(missing.error).sort()).toEqual(['code', 'details', 'message']);
    const noMember = await post(rt, '/agent/tasks', t.coordinator, { ...TASK, context: { metric: 'contacts' } });
    expect(noMember.error.details[0].field).toBe('context.target_user_id');
    // The agent API's role rule: only a coordinator assigns tasks; a token is who the client is.
    expect((await post(rt, '/agent/tasks', t.worker, TASK)).error.code).toBe('forbidden');
    expect((await post(rt, '/agent/tasks', undefined, TASK)).error.code).toBe('unauthorized');
    expect(records(rt, 'queue').filter((r) => r.type === 'discussion.open')).toHaveLength(0);
  });

  it('takes a result on the taskId the task was sent with, from any worker, and answers {success}', async () => {
    const rt = await council();
    const t = await clients(rt);
    const first = await post(rt, '/agent/tasks', t.coordinator, TASK);
    const disc = discussionOf(first);
    await rt.runTriggers(() => statuses(rt)[disc] === 'DECIDED', { maxClockMs: 3600_000 });
    const path = `/agent/tasks/${TASK.taskId}/result`;
    const done = await post(rt, path, t.worker, { status: 'in_progress', result: { called: true } });
    expect(seedResultAnswer().strict().parse(done)).toEqual({ success: true });
    const finished = await post(rt, path, t.worker, { status: 'completed', result: { booked: 'Friday' } });
    expect(finished).toEqual({ success: true });
    const orders = (await get(rt, `/tasks/${disc}`, t.viewer)).orders as Answer[];
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((o) => o.status === 'DONE')).toBe(true);
    expect(String(orders[0].last_report)).toContain('Friday');
    // Kaigi's own ids work too; the same status again is answered as it stands, with no new message; an id never sent
    // is the agent API's 404.
    const acks = () => messages(rt, disc).filter((m) => m.message_type === 'ACKNOWLEDGEMENT').length;
    const before = acks();
    expect(await post(rt, `/agent/tasks/${taskOf(first)}/result`, t.worker, { status: 'completed' })).toEqual({
      success: true,
    });
    expect(acks()).toBe(before);
    const unknown = await post(rt, '/agent/tasks/never-sent/result', t.worker, { status: 'completed' });
    expect(unknown).toMatchObject({ status: 404, error: { code: 'task_not_found' } });
    const bad = await post(rt, path, t.worker, { status: 'done' });
    expect(bad).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
    expect((await post(rt, path, t.viewer, { status: 'completed' })).error.code).toBe('forbidden');
  });

  it('says the council’s state as the agent API’s one agent, with the caller’s tools', async () => {
    const rt = await council();
    const t = await clients(rt);
    const idle = await get(rt, '/agent/status', t.viewer);
    expect(seedStatusAnswer().strict().parse(idle)).toEqual(idle);
    expect(idle).toMatchObject({ agentName: 'kaigi', role: 'council' });
    expect(['idle', 'error']).toContain(idle.status);
    const full = await get(rt, '/status', t.worker);
    const worker = await get(rt, '/agent/status', t.worker);
    expect(worker.availableTools).toEqual(full.availableTools);
    expect((await get(rt, '/agent/status')).error.code).toBe('unauthorized');
  });
});
