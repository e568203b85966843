// Objections, escalations and the queue through the built file's entry points (fileObjection, resolveEscalation,
// tickSoon), a tab renamed in the workbook, and a queue row typed by hand; the use cases themselves, every failure
// code and fallback level included, run in-process in objections.inproc.test.ts.
import { describe, expect, it } from 'vitest';
import { council, messages, ok, plantOpenTask, settle, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { decided as decidedOnce } from './prepared.js';

// A DECIDED discussion about tanaka (the watcher's request), made once for the file and restored for each test.
const decided = () =>
  decidedOnce({
    type: 'kpi_decline',
    source: 'watcher',
    target_user_id: 'tanaka',
    context: { metric: 'contacts' },
    priority: 'HIGH',
  });

describe('objections', () => {
  it('lets the decider reject a weak general objection, with its reason', async () => {
    const { rt, id } = await decided();
    ok(
      await rt.run(
        'fileObjection',
        [{ discussion_id: id, reason: 'なんとなく不安', alternative: '様子を見る', urgency: 'LOW' }],
        { kind: 'server' },
      ),
    );
    await settle(rt);
    const obj = records(rt, 'objections')[0];
    expect(obj.source).toBe('human');
    expect(obj.status).toBe('REJECTED');
    expect(String(obj.resolution)).toMatch(/却下/);
    expect(messages(rt, id).filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
  });
});

describe('escalations and failure codes', () => {
  it('E002: unreadable KPI data is retried three times, then the council, having no data, escalates to a person', async () => {
    const rt = await council();
    rt.workbook.renameSheet(rt.workbook.sheetByName('KPI')!.id, 'KPI (old)');
    await start(rt);
    await settle(rt);
    // Without the data the council does not decide: no situation report, no order, a person told why.
    expect(messages(rt).find((m) => m.message_type === 'SITUATION_REPORT')).toBeUndefined();
    const error = messages(rt).find((m) => m.message_type === 'ERROR')!;
    expect(error.content.error_code).toBe('E002');
    expect(error.content.message).toMatch(/KPI data could not be read after 3 attempts/);
    expect(Object.values(statuses(rt))).toEqual(['ESCALATED']);
    expect(records(rt, 'orders')).toEqual([]);
  });

  it('refuses to resolve a discussion that is not escalated, naming its state, and queues nothing', async () => {
    const { rt, id } = await decided();
    const r = await rt.run('resolveEscalation', [{ discussion_id: id, action: 'reject' }], { kind: 'server' });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toBe(`${id} is DECIDED; only an ESCALATED discussion can be resolved`);
    await settle(rt);
    expect(statuses(rt)[id]).toBe('DECIDED');
    expect(records(rt, 'queue').filter((q) => q.type === 'escalation.resolve')).toEqual([]);
  });
});

describe('the queue', () => {
  it('skips a malformed item with its error, retries it, then marks it dead and tells a person', async () => {
    const rt = await council();
    await plantOpenTask(rt, 'Q-bad', '{not json');
    await start(rt);
    for (let i = 0; i < 6; i++) {
      ok(await rt.run('tick', [], { kind: 'trigger' }));
      rt.clock.advance(3600_000);
    }
    const dead = records(rt, 'queue').find((r) => r.id === 'Q-bad')!;
    expect(dead.status).toBe('dead');
    expect(dead.attempts).toBe(3);
    expect(String(dead.last_error)).toMatch(/malformed payload_json/);
    expect(records(rt, 'inbox').filter((r) => String(r.title).indexOf('Q-bad') >= 0).length).toBe(1);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });

  it('answers a repeated start with the same idempotency key once (the first wins) and schedules a one-shot trigger', async () => {
    const rt = await council();
    const t = {
      type: 'kpi_decline',
      source: 'watcher',
      target_user_id: 'tanaka',
      context: { metric: 'contacts', v: 1 },
      priority: 'MEDIUM',
      idempotency_key: 'k1',
    };
    const a = ok(await rt.run('startDiscussion', [t], { kind: 'server' }));
    const b = ok(
      await rt.run('startDiscussion', [{ ...t, context: { metric: 'contacts', v: 2 } }], { kind: 'server' }),
    );
    expect(b).toEqual({ task_id: a.task_id, discussion_id: a.discussion_id, duplicate: true });
    const queue = records(rt, 'queue');
    expect(queue.length).toBe(1);
    expect(JSON.parse(String(queue[0].payload_json)).trigger.context.v).toBe(1);
    expect(rt.triggers.triggers.filter((x) => x.handler === 'tickSoon').length).toBe(1);
    // after(ms) is a minimum: the runtime fires one-shot triggers late, as Apps Script may.
    rt.clock.advanceTo(rt.triggers.triggers.find((x) => x.handler === 'tickSoon')!.nextAt!);
    const fired = await rt.fireDueTriggers();
    expect(fired.map((f) => f.fn)).toContain('tickSoon');
    expect(rt.triggers.triggers.filter((x) => x.handler === 'tickSoon').length).toBe(0);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });
});
