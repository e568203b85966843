// The work queue's time-outs through the built file: a task whose execution is killed holding it is re-delivered one
// priority higher after its lease, and the second time in a row a person is told in the Inbox, once.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { council, decline, ok, settle, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';

const LEASE = 300_000;

// A tick killed well after its claim was committed (the discussion's first phase is under way): at the first row
// the commit after the claim's writes, so that commit never lands, whatever the calls before it.
async function killedTick(rt: Runtime): Promise<void> {
  let locks = 0;
  const onCall = (_n: number, op: string) => {
    if (op === 'lock.acquire') locks++;
    if (locks >= 2 && op === 'rg.setValues') throw new Error('killed after the claim');
  };
  const r = await rt.run('tick', [], { kind: 'trigger', onCall });
  expect(r.ok).toBe(false);
  expect(r.killed).toBe(true);
}

const warnings = (rt: Runtime) => records(rt, 'inbox').filter((r) => /lost its execution twice/.test(String(r.title)));

describe('lease expiry', () => {
  it('re-delivers one priority higher, warns after the second expiry, and the discussion still ends', async () => {
    const rt = await council();
    await start(rt, decline('tanaka', 'LOW'));
    await killedTick(rt);
    const claimed = records(rt, 'queue')[0];
    expect(claimed).toMatchObject({ status: 'processing', priority: 'LOW' });
    rt.clock.advance(LEASE + 1000);
    await killedTick(rt);
    expect(records(rt, 'queue')[0]).toMatchObject({ status: 'processing', priority: 'MEDIUM' });
    expect(String(records(rt, 'queue')[0].last_error)).toMatch(/^lease expired \(1\)/);
    expect(warnings(rt)).toEqual([]);
    rt.clock.advance(LEASE + 1000);
    await killedTick(rt);
    expect(records(rt, 'queue')[0]).toMatchObject({ priority: 'HIGH' });
    expect(warnings(rt).map((w) => w.title)).toEqual(['Task Q-1 (discussion.advance) lost its execution twice']);
    rt.clock.advance(LEASE + 1000);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('DECIDED');
    expect(warnings(rt)).toHaveLength(1);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });
});
