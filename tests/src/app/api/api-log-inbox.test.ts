// Issue 25: an authenticated call's API Log row waits in a Script Property of its own, with no lock; the next tick
// appends the waiting rows in one commit, in the order the calls came; a drain killed at each kind of service call
// it makes leaves every row once — never lost, never twice; and a call that finds api.log_waiting_rows waiting
// appends them when the lock is free, and leaves them waiting, without waiting itself, when it is not.
import { describe, expect, it } from 'vitest';
import { ExecClock } from '../../../../runtime/host/time-model.js';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, decline, ok, start } from '../../../council-helpers.js';
import { appendApiLog, records } from '../../../helpers.js';
import { token } from '../rooms-helpers.js';

const waiting = (rt: Runtime) => Object.keys(rt.scriptProperties.all()).filter((k) => k.startsWith('KAIGI_APILOG_Q_'));
const batches = (rt: Runtime) => records(rt, 'audit').filter((r) => r.event === 'api_log_batch');

async function calls(rt: Runtime, viewer: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    rt.clock.advance(1000);
    const r = await rt.doGet({ path: i % 2 ? '/status' : '/orders', token: viewer });
    expect(JSON.parse(r.body).status).toBe(200);
    expect(r.result.counts.byService.lock ?? 0).toBe(0);
  }
}

describe('the API log inbox', () => {
  it('keeps rows out of the sheet and the lock until a tick appends them in call order, audited once', async () => {
    const rt = await council();
    const viewer = await token(rt, 'runner', 'worker');
    await calls(rt, viewer, 7);
    expect(records(rt, 'api_log')).toEqual([]);
    expect(waiting(rt)).toHaveLength(7);
    await appendApiLog(rt);
    const rows = records(rt, 'api_log');
    expect(rows.map((r) => r.call)).toEqual([
      'GET /orders',
      'GET /status',
      'GET /orders',
      'GET /status',
      'GET /orders',
      'GET /status',
      'GET /orders',
    ]);
    const times = rows.map((r) => (r.time as Date).getTime());
    expect(times).toEqual(times.slice().sort((a, b) => a - b));
    expect(waiting(rt)).toEqual([]);
    expect(batches(rt)).toHaveLength(1);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
    // An idle tick after it stays idle: nothing waits.
    const idle = ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(idle.reason).toBe('idle');
  });

  it('is appended by the call that finds api.log_waiting_rows waiting', async () => {
    const rt = await council();
    const viewer = await token(rt, 'runner', 'worker');
    await rt.callServer('updateSetting', { key: 'api.log_waiting_rows', value: 3 });
    await calls(rt, viewer, 2);
    expect(records(rt, 'api_log')).toEqual([]);
    rt.clock.advance(1000);
    const third = await rt.doGet({ path: '/status', token: viewer });
    expect(third.result.counts.byService.lock).toBe(2);
    expect(records(rt, 'api_log')).toHaveLength(3);
    expect(waiting(rt)).toEqual([]);
  });

  it('leaves the rows waiting, and does not wait, when the call that would append them finds the lock held', async () => {
    const rt = await council();
    const viewer = await token(rt, 'runner', 'worker');
    await rt.callServer('updateSetting', { key: 'api.log_waiting_rows', value: 3 });
    await calls(rt, viewer, 2);
    // Another execution (a tick committing, say) holds the script lock while the third call ends.
    const holder = new ExecClock(rt.clock);
    await rt.locks.acquire('script', 900_200, 0, holder);
    rt.clock.advance(1000);
    const third = await rt.doGet({ path: '/status', token: viewer });
    rt.locks.release('script', 900_200, holder);
    const answer = JSON.parse(third.body);
    expect(answer.status).toBe(200);
    // Its row is in the inbox, so the answer does not say it went unrecorded; nothing waited for the lock.
    expect(answer.api_log).toBeUndefined();
    expect(third.result.endedAt - third.result.startedAt).toBeLessThan(5000);
    expect(records(rt, 'api_log')).toEqual([]);
    expect(waiting(rt)).toHaveLength(3);
    await appendApiLog(rt);
    expect(records(rt, 'api_log')).toHaveLength(3);
  });

  it('never loses nor repeats a row when the draining tick is killed at any kind of service call', {
    timeout: 300_000,
  }, async () => {
    const rt = await council();
    const viewer = await token(rt, 'runner', 'worker');
    await calls(rt, viewer, 4);
    const base = rt.snapshot();
    const ops: string[] = [];
    ok(await rt.run('tick', [], { kind: 'trigger', onCall: (_n, op) => ops.push(op) }));
    const want = records(rt, 'api_log').map((r) => JSON.stringify(r));
    expect(want).toHaveLength(4);
    // Killed at the first call of each kind the drain makes (reads, the lock, journal and commit properties, the
    // sheet's writes, the flush, the inbox's deletes, the cache, the release), and at the last call of each kind
    // that writes (part of the rows written, part of the inbox deleted, the commit's last property, the last cache
    // write): every step kind once, not each repeat of a read or write between them.
    const writes = ['props.set', 'props.delete', 'rg.setValues', 'cache.put'];
    const kills = ops
      .map((op, i) => (ops.indexOf(op) === i || (ops.lastIndexOf(op) === i && writes.indexOf(op) >= 0) ? i + 1 : 0))
      .filter((k) => k > 0);
    expect(kills.length).toBeGreaterThanOrEqual(new Set(ops).size);
    for (const k of kills) {
      rt.restore(base);
      const r = await rt.run('tick', [], { kind: 'trigger', killAtCall: k });
      const at = `kill at call ${k} (${ops[k - 1]})`;
      expect(r.killed, at).toBe(true);
      await appendApiLog(rt);
      expect(
        records(rt, 'api_log').map((x) => JSON.stringify(x)),
        at,
      ).toEqual(want);
      expect(waiting(rt), at).toEqual([]);
      expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok, at).toBe(true);
    }
  });

  it('takes no lock for the log in a tick with work and nothing waiting, and one when a refused minute ended', async () => {
    const rt = await council();
    const viewer = await token(rt, 'runner', 'worker');
    await calls(rt, viewer, 1);
    rt.clock.advance(61_000);
    await appendApiLog(rt);
    expect(waiting(rt)).toHaveLength(0);
    // A discussion to work on, no row waiting, every row in a batch: every lock the tick takes is a commit's.
    await start(rt);
    rt.clock.advance(61_000);
    const worked = await appendApiLog(rt);
    expect(worked.counts.byService.lock).toBe(2 * (worked.counts.byOp['ss.flush'] ?? 0));
    // A refused call's minute has ended: the next tick with work writes its summary, under a lock of its own.
    await rt.doGet({ path: '/status', token: 'not-a-token' });
    await start(rt, { ...decline('sato'), source: 'human' });
    rt.clock.advance(61_000);
    await appendApiLog(rt);
    expect(records(rt, 'api_log').some((r) => r.client === 'unauthenticated')).toBe(true);
  });
});
