// after(ms) and daily triggers fire late by a seeded amount: never early, repeatable for one seed.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRIGGER_DELAYS, type Runtime } from '../../../runtime/runtime.js';
import { gas, withRuntime } from '../../helpers.js';

// 10:00 in Tokyo (the script's time zone).
const START = Date.UTC(2026, 0, 15, 1, 0, 0);
const HOUR = 3600_000;
const TOKYO = 9 * HOUR;

async function afterTriggers(rt: Runtime, n: number): Promise<number[]> {
  const before = rt.clock.now();
  await gas(
    rt,
    `for (var i = 0; i < ${n}; i++) ScriptApp.newTrigger('getApiKeyStatus').timeBased().after(60000).create();`,
  );
  // How late each fires past its asked-for minute, measured from when the snippet started.
  return rt.triggers.triggers.map((t) => t.nextAt! - (t.slotAt ?? before + 60_000));
}

describe('late triggers', () => {
  it('fires after(ms) between ms and ms + the most lateness later, and not at ms itself', async () => {
    await withRuntime(
      async (rt) => {
        const late = await afterTriggers(rt, 10);
        for (const ms of late) {
          expect(ms).toBeGreaterThanOrEqual(0);
          expect(ms).toBeLessThan(DEFAULT_TRIGGER_DELAYS.afterMaxMs);
        }
        // The default is pessimistic: most are late by more than a few seconds, some by more than a minute.
        expect(late.filter((ms) => ms > 5000).length).toBeGreaterThan(5);
        expect(late.some((ms) => ms > 60_000)).toBe(true);
        // Not due at the asked-for time; due once its lateness has passed.
        const t = rt.triggers.triggers[late.indexOf(Math.max(...late))];
        rt.clock.advanceTo(t.slotAt!);
        await rt.fireDueTriggers();
        expect(t.fired).toBe(false);
        rt.clock.advanceTo(t.nextAt!);
        await rt.fireDueTriggers();
        expect(t.fired).toBe(true);
      },
      { startAt: START },
    );
  });

  it('draws the same lateness for the same seed, other lateness for another seed, none when told', async () => {
    const draw = (seed: number) => withRuntime((rt) => afterTriggers(rt, 5), { triggerDelays: { seed } });
    const a = await draw(42);
    expect(await draw(42)).toEqual(a);
    expect(await draw(43)).not.toEqual(a);
    expect(await withRuntime((rt) => afterTriggers(rt, 3), { triggerDelays: { afterMaxMs: 0 } })).toEqual([0, 0, 0]);
  });

  it('fires a daily trigger at a random minute inside its hour, a new minute each day', async () => {
    const run = (seed: number) =>
      withRuntime(
        async (rt) => {
          await gas(rt, "ScriptApp.newTrigger('getApiKeyStatus').timeBased().everyDays(1).atHour(6).create();");
          const fired: number[] = [];
          for (let day = 0; day < 6; day++) {
            rt.clock.advanceTo(rt.triggers.nextDueTime()!);
            for (const r of await rt.fireDueTriggers()) fired.push(r.startedAt);
          }
          return fired;
        },
        { startAt: START, triggerDelays: { seed } },
      );
    const fired = await run(7);
    expect(fired.length).toBe(6);
    const local = fired.map((t) => new Date(t + TOKYO));
    // One a day, on consecutive local days, never before 06:00 nor after 06:59.
    local.forEach((d, i) => {
      expect(d.getUTCDate()).toBe(16 + i);
      expect(d.getUTCHours()).toBe(6);
    });
    const minutes = local.map((d) => d.getUTCMinutes());
    expect(new Set(minutes).size).toBeGreaterThan(3);
    expect(minutes.some((m) => m > 0)).toBe(true);
    // The same seed fires at the same minutes.
    expect((await run(7)).map((t) => new Date(t + TOKYO).getUTCMinutes())).toEqual(minutes);
  });

  it('schedules a daily trigger whose hour has begun for the next day', async () => {
    await withRuntime(
      async (rt) => {
        await gas(rt, "ScriptApp.newTrigger('getApiKeyStatus').timeBased().everyDays(1).atHour(10).create();");
        const d = new Date(rt.triggers.nextDueTime()! + TOKYO);
        expect([d.getUTCDate(), d.getUTCHours()]).toEqual([16, 10]);
      },
      { startAt: START + 10 * 60_000 },
    );
  });
});
