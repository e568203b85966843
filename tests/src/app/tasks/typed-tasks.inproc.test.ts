// Typed queue tasks: every kind has its handler, payloads queued today and by older versions parse, and a payload that
// does not parse fails its item with a clear error (retried, then dead and told), never run half-read.
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../../sheets-schema/index.js';
import { findTask } from '../../../../src/app/tasks/registry.js';
import { ValidationError } from '../../../../src/core/errors.js';
import { parsePayload, TASK_KINDS } from '../../../../src/core/queue-tasks.js';
import { kaigi, settle } from '../inproc.js';

const item = (payload: Record<string, unknown> | null) => ({ id: 'Q-7', payload });

describe('the task registry', () => {
  it('has a handler for every task kind, under the kind’s type', () => {
    for (const kind of Object.values(TASK_KINDS)) expect(findTask(kind.type)?.type).toBe(kind.type);
  });
});

describe('task payloads', () => {
  it('parse as older versions wrote them (fields added since are optional or defaulted)', () => {
    // discussion.open from requestDiscussion: no reserved id, no actor.
    const open = parsePayload(TASK_KINDS.open, item({ trigger: { type: 'kpi_decline' }, priority: 'HIGH' }));
    expect(open.priority).toBe('HIGH');
    // discussion.advance queued after an objection: the id alone.
    expect(parsePayload(TASK_KINDS.advance, item({ discussion_id: 'DISC-2026-01-15-001' })).row).toBeUndefined();
    // room.reply before API clients were charged: no client.
    const reply = { room: 'r', message_id: 'm', agent_id: 'analyst', sender: 'api:crm' };
    expect(parsePayload(TASK_KINDS.roomReply, item(reply))).toEqual(reply);
    // An objection with only what objectionPayload always wrote, and the actor enqueueOnce adds (kept, not refused).
    const o = parsePayload(
      TASK_KINDS.objection,
      item({ discussion_id: 'DISC-2026-01-15-001', source: 'api', objector: 'api:crm', reason: 'r', actor: 'api:crm' }),
    );
    expect(o).toMatchObject({ objection_id: '', alternative: '-', evidence: [], urgency: 'MEDIUM', actor: 'api:crm' });
    expect(parsePayload(TASK_KINDS.reembed, item({}))).toEqual({});
  });

  it('that do not parse are a ValidationError naming the task, the field and the problem', () => {
    const bad = () => parsePayload(TASK_KINDS.resolution, item({ discussion_id: 'DISC-1', action: 'maybe', by: 'x' }));
    expect(bad).toThrow(ValidationError);
    expect(bad).toThrow(/^task Q-7 \(escalation\.resolve\) has a payload that does not parse: action: /);
    try {
      bad();
    } catch (e) {
      expect((e as ValidationError).code).toBe('invalid_task_payload');
      expect((e as ValidationError).fields?.[0].field).toBe('action');
    }
  });
});

describe('a queued task whose payload does not parse', () => {
  it('fails, is retried to queue.max_attempts, then dies with a notice; the handler never runs', () => {
    const k = kaigi();
    const council = k.council();
    // A resolution with an action no version writes, as a hand edit of the Queue tab might leave it.
    const { id } = council.queue.enqueue(
      TASK_KINDS.resolution,
      { discussion_id: 'DISC-2026-01-15-001', action: 'approve', by: 'someone' },
      'HIGH',
    );
    const sheet = k.ports.spreadsheet.getSheetByName('Queue')!;
    const cols = rowsOf('queue');
    const at =
      sheet
        .getDataRange()
        .getValues()
        .findIndex((v) => cols.read(v).id === id) + 1;
    expect(at).toBeGreaterThan(1);
    const bad = JSON.stringify({ discussion_id: 'DISC-2026-01-15-001', action: 'maybe', by: 'someone' });
    sheet.getRange(at, cols.index('payload_json') + 1, 1, 1).setValues([[bad]]);
    settle(k);
    const after = k.records('queue').find((r) => r.id === id)!;
    expect(after.status).toBe('dead');
    expect(Number(after.attempts)).toBe(3);
    expect(String(after.last_error)).toMatch(
      /^task Q-\d+ \(escalation\.resolve\) has a payload that does not parse: action: /,
    );
    expect(k.records('inbox').some((r) => String(r.body).includes('does not parse'))).toBe(true);
  });
});
