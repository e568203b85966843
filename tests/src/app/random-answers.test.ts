// End to end against a model server that answers every request with a random valid instance of the schema it was
// sent: the demo runs to CLOSED with fallback level 0 on every message, in each vendor's wire format.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { addDays } from '../../../src/core/discussion/ids.js';
import { MAX_DAYS } from '../../../src/core/discussion/messages.js';
import type { Behavior, Recorded } from '../../../tools/model-server.js';
import { localModelServer } from '../../model-server-hooks.js';
import { council, messages, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';

const models = localModelServer();

const WIRES = [
  { provider: 'openai', key: 'KAIGI_KEY_OPENAI', path: '/v1' },
  { provider: 'anthropic', key: 'KAIGI_KEY_ANTHROPIC', path: '/v1' },
  { provider: 'gemini', key: 'KAIGI_KEY_GEMINI', path: '/v1beta' },
] as const;

// A governance check that fails holds the decision for a person (E004, the fallback ladder's level 5): a verdict, not
// a fallback. The level-0 runs draw governance answers that pass, still at random from the schema.
const passes = (v: { check_result?: string }) => v.check_result !== 'FAIL';

// The demo as `kaigi run --demo --until closed` runs it: the trigger, the triggers until the discussion is decided or
// stops, then each daily review until it closes (a review may lie up to MAX_DAYS ahead).
async function demo(rt: Runtime, wire: (typeof WIRES)[number], plan: Behavior): Promise<Recorded[]> {
  rt.scriptProperties.set({
    [wire.key]: 'placeholder-cred-tests',
    KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
      provider: wire.provider,
      model: 'any',
      base_url: models.base() + wire.path,
    }),
  });
  models.allow(rt);
  const from = models.server.requests.length;
  models.server.plan = () => plan;
  await start(rt);
  const status = () => Object.values(statuses(rt))[0] ?? '';
  const open = () => ['', 'OPEN', 'IN_PROGRESS', 'VOTING'].indexOf(status()) >= 0;
  await rt.runTriggers(() => !open(), { maxFirings: 2000, maxClockMs: 3 * 24 * 3600_000 });
  for (let day = 0; status() === 'DECIDED' && day <= MAX_DAYS + 1; day++) {
    const review = rt.triggers.triggers.find((t) => t.handler === 'dailyReview' && t.nextAt !== null);
    if (!review) break;
    rt.clock.advanceTo(review.nextAt!);
    await rt.fireDueTriggers();
    await rt.runTriggers(() => records(rt, 'queue').every((q) => q.status !== 'queued'), { maxFirings: 50 });
  }
  models.server.plan = () => ({});
  return models.server.requests.slice(from);
}

// Each message's first row in the Messages tab: its fallback level and error code, read by column name.
function levels(rt: Runtime): { type: string; speaker: string; level: number; error: string }[] {
  return records(rt, 'messages')
    .filter((r) => Number(r.chunk) === 0)
    .map((r) => ({
      type: String(r.message_type),
      speaker: String(r.speaker),
      level: Number(r.fallback_level),
      error: String(r.error_code),
    }));
}

// The requests that carry a repair prompt (an answer before them was refused), named by their schema.
const repaired = (reqs: Recorded[]) =>
  reqs
    .filter((r) => /did not match the schema|スキーマに合いませんでした/.test(r.user))
    .map((r) => `${r.vendor} ${JSON.stringify(r.schema).length} chars of schema: ${r.user.slice(-300)}`);

describe('a model server answering random valid instances of the sent schema', () => {
  for (const wire of WIRES)
    it(`${wire.provider}: the demo closes with fallback level 0 on every message`, async () => {
      const rt = await council();
      const reqs = await demo(rt, wire, { fault: 'random', accept: passes });
      expect(Object.values(statuses(rt))).toEqual(['CLOSED']);
      // Every call went to the server in this wire format and was answered at once: no refusal, no repair.
      expect(reqs.length).toBeGreaterThanOrEqual(15);
      expect(new Set(reqs.map((r) => r.vendor))).toEqual(new Set([wire.provider]));
      expect(repaired(reqs)).toEqual([]);
      const all = levels(rt);
      expect(all.length).toBeGreaterThanOrEqual(16);
      expect(all.filter((m) => m.level !== 0 || m.error !== '')).toEqual([]);
      // The order the model gave in days holds the date Kaigi computed from the day of the decision (in Tokyo, the
      // script's time zone); the outcome was measured.
      const order = messages(rt).find((m) => m.message_type === 'EXECUTION_ORDER')!;
      const { review_in_days, review_date } = order.content.monitoring;
      const row = records(rt, 'messages').find((r) => r.message_id === order.message_id)!;
      const decidedOn = new Date(Date.parse(String(row.timestamp)) + 9 * 3600_000).toISOString().slice(0, 10);
      expect(review_in_days).toBeGreaterThanOrEqual(1);
      expect(review_date).toBe(addDays(decidedOn, review_in_days));
      // One Orders row per action and executor.
      const executors = new Set(order.content.target_agents as string[]).size;
      expect(records(rt, 'orders').length).toBe(order.content.actions.length * executors);
      expect(records(rt, 'outcomes').length).toBe(1);
    }, 300_000);

  it('with no condition on the draw, the only level above 0 is a failed governance check held for a person', async () => {
    const rt = await council();
    const reqs = await demo(rt, WIRES[0], { fault: 'random' });
    expect(repaired(reqs)).toEqual([]);
    const raised = levels(rt).filter((m) => m.level !== 0);
    for (const m of raised) expect([m.level, m.error]).toEqual([5, 'E004']);
    expect(raised.every((m) => m.type === 'ERROR' || m.type.startsWith('GOVERNANCE_'))).toBe(true);
    expect(['CLOSED', 'ESCALATED']).toContain(Object.values(statuses(rt))[0]);
  }, 300_000);
});
