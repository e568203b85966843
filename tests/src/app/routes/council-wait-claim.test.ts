// POST /tasks with wait_seconds on an idle queue: the enqueue and the claim that opens the discussion are one commit,
// and a request killed anywhere around that commit leaves one discussion, which still reaches its decision.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { webEvent } from '../../../../runtime/web-events.js';
import { council, ok, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, post } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

function request(rt: Runtime, token: string, opts: { killAtCall?: number; onCall?: (n: number, op: string) => void }) {
  const body = JSON.stringify({ token, ...TRIGGER, idempotency_key: 'c-1', wait_seconds: 60 });
  const e = webEvent({ path: '/tasks' }, { contents: body, type: 'application/json' });
  return rt.run('doPost', [e], { kind: 'webapp', ...opts });
}

describe('POST /tasks with wait_seconds on an idle queue', () => {
  it('queues, claims and opens the discussion in one commit: two flushes from request to decision', async () => {
    const rt = await council();
    const t = await clients(rt);
    const r = await request(rt, t.coordinator, {});
    expect(r.ok).toBe(true);
    expect(JSON.parse(r.output?.content ?? '{}').state).toBe('DECIDED');
    // One commit opens the discussion with its task, one decides it.
    expect(r.counts.byOp['ss.flush']).toBe(2);
    expect(r.counts.byService.lock).toBe(4);
    expect(records(rt, 'queue').map((q) => [q.id, q.type, q.status])).toEqual([['Q-1', 'discussion.advance', 'done']]);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('killed before, inside or after that commit: one discussion, decided, the audit chain whole', async () => {
    // Where the commit is: the request's first lock and the flush after it.
    const probe = await council();
    const ops: string[] = [];
    await request(probe, (await clients(probe)).coordinator, { onCall: (_n, op) => ops.push(op) });
    const lock = ops.indexOf('lock.acquire') + 1;
    const flush = ops.indexOf('ss.flush', lock) + 1;
    const release = ops.indexOf('lock.release', flush) + 1;
    expect(0 < lock && lock < flush && flush < release).toBe(true);
    for (const at of [lock, lock + 2, flush, flush + 1, release + 1]) {
      const rt = await council();
      const t = await clients(rt);
      const killed = await request(rt, t.coordinator, { killAtCall: at });
      expect([at, killed.killed]).toEqual([at, true]);
      // The client sends the call again; what the first one committed, if anything, is answered or carried on.
      const again = await post(rt, '/tasks', t.coordinator, { ...TRIGGER, idempotency_key: 'c-1', wait_seconds: 60 });
      expect([at, again.task_id]).toEqual([at, 'Q-1']);
      await rt.runTriggers(() => Object.values(statuses(rt)).join() === 'DECIDED', { maxClockMs: 3_600_000 });
      expect([at, Object.values(statuses(rt))]).toEqual([at, ['DECIDED']]);
      expect([at, records(rt, 'queue').length]).toEqual([at, 1]);
      expect([at, ok(await rt.run('verifyAudit')).ok]).toEqual([at, true]);
    }
  });
});
