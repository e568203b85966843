// A whole discussion on a runtime whose cache loses entries early, as Google allows: the same decision and messages as
// with a faithful cache, the change stamp, status and gate caches read again where they were lost, the chain intact.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { ok, settle, start, START, statuses } from '../../council-helpers.js';
import { newRuntime, records } from '../../helpers.js';

async function decided(rt: Runtime): Promise<{ status: string; messages: string[] }> {
  ok(await rt.run('setup', [], { kind: 'menu' }));
  ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
  await start(rt);
  await settle(rt);
  const [id] = Object.keys(statuses(rt));
  // What is read through the API while the cache keeps losing what it was given.
  for (let i = 0; i < 5; i++) ok(await rt.run('getDiscussion', [id], { kind: 'server' }));
  expect((ok(await rt.run('verifyAudit', [], { kind: 'editor' })) as { ok: boolean }).ok).toBe(true);
  return {
    status: statuses(rt)[id],
    messages: records(rt, 'messages').map((m) => `${m.message_id} ${m.speaker} ${m.message_type}`),
  };
}

describe('cache entries lost early', () => {
  it('change no decision, no message and no audited row', async () => {
    const faithful = await decided(newRuntime({ startAt: START }));
    const lossy = newRuntime({ startAt: START, cacheMiss: { rate: 0.5, seed: 3 } });
    const got = await decided(lossy);
    expect(lossy.cacheMisses.injected).toBeGreaterThan(0);
    expect(got).toEqual(faithful);
    expect(got.status).toBe('DECIDED');
  }, 120_000);
});
