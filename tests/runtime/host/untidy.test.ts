// The runtime's harsher modes: cache entries lost early, untidy triggers, and locks handed out in random order.
import { describe, expect, it } from 'vitest';
import { CacheStore, EarlyMisses } from '../../../runtime/host/cache-store.js';
import { Clock } from '../../../runtime/host/clock.js';
import { LockManager } from '../../../runtime/host/locks.js';
import { ExecClock } from '../../../runtime/host/time-model.js';
import { TriggerStore } from '../../../runtime/host/triggers.js';
import { gas, withRuntime } from '../../helpers.js';

describe('cache entries lost early', () => {
  it('misses about the rate of reads of live entries, the same ones for the same seed, and counts them', () => {
    const reads = (seed: number) => {
      const misses = new EarlyMisses(0.25, seed);
      const c = new CacheStore(() => 0, misses);
      const hits: boolean[] = [];
      for (let i = 0; i < 400; i++) {
        c.put({ k: 'v' }, 600);
        hits.push(c.get('k') === 'v');
      }
      return { hits, injected: misses.injected };
    };
    const a = reads(3);
    expect(a.injected).toBe(a.hits.filter((h) => !h).length);
    expect(a.injected).toBeGreaterThan(60);
    expect(a.injected).toBeLessThan(140);
    expect(reads(3)).toEqual(a);
    expect(reads(4).hits).not.toEqual(a.hits);
    // Off by default: nothing is lost before its time.
    const tidy = new CacheStore(() => 0);
    tidy.put({ k: 'v' }, 600);
    for (let i = 0; i < 100; i++) expect(tidy.get('k')).toBe('v');
  });

  it("reach the script's CacheService when the runtime asks for them", async () => {
    await withRuntime(
      async (rt) => {
        const got = await gas(
          rt,
          `var c = CacheService.getScriptCache(); var n = 0;
          for (var i = 0; i < 50; i++) { c.put('k', 'v', 600); if (c.get('k') === null) n++; } return n;`,
        );
        expect(got).toBe(rt.cacheMisses.injected);
        expect(got).toBeGreaterThan(0);
      },
      { cacheMiss: { rate: 0.3, seed: 9 } },
    );
  });
});

describe('untidy triggers', () => {
  const every = { handler: 'tick', eventType: 'CLOCK' as const, source: 'CLOCK' as const, everyMs: 10 * 60_000 };

  it('skips or doubles a recurring firing, never skips a one-shot, and places after() up to the lateness it is given', () => {
    const store = new TriggerStore();
    store.delays = { seed: 5, afterMaxMs: 10 * 60_000, untidy: 0.2 };
    const recurring = store.create(every, 'o', 0, () => 0);
    const plans = Array.from({ length: 300 }, () => store.plan(recurring));
    expect(plans.filter((p) => p === 'skip').length).toBe(store.untidy.skips);
    expect(plans.filter((p) => p === 'double').length).toBe(store.untidy.doubles);
    expect(store.untidy.skips).toBeGreaterThan(30);
    expect(store.untidy.doubles).toBeGreaterThan(30);
    const oneShot = store.create(
      { handler: 'tickSoon', eventType: 'CLOCK', source: 'CLOCK', afterMs: 1000 },
      'o',
      0,
      () => 0,
    );
    expect(Array.from({ length: 200 }, () => store.plan(oneShot))).not.toContain('skip');
    for (let i = 0; i < 60; i++)
      store.create({ handler: `h${i}`, eventType: 'CLOCK', source: 'CLOCK', afterMs: 1000 }, `u${i}`, 0, () => 0);
    const lates = store.triggers.filter((t) => t.afterMs !== undefined).map((t) => t.nextAt! - t.slotAt!);
    expect(Math.max(...lates)).toBeGreaterThan(3 * 60_000);
    expect(Math.max(...lates)).toBeLessThanOrEqual(10 * 60_000);
    expect(store.untidy.late).toBe(lates.filter((l) => l > 3 * 60_000).length);
  });

  it('starts triggers due together side by side, and fires a doubled one twice', async () => {
    await withRuntime(
      async (rt) => {
        await gas(
          rt,
          `for (var i = 0; i < 4; i++) ScriptApp.newTrigger('h' + i).timeBased().everyMinutes(10).create(); return 1;`,
        );
        rt.clock.advance(11 * 60_000);
        const runs = await rt.fireDueTriggers();
        const u = rt.triggers.untidy;
        expect(runs.length).toBe(4 - u.skips + u.doubles);
        expect(u.overlaps).toBe(runs.length - 1);
        expect(u.skips + u.doubles).toBeGreaterThan(0);
      },
      { triggerDelays: { seed: 2, afterMaxMs: 10 * 60_000, untidy: 0.3 } },
    );
  });
});

describe('locks in random order', () => {
  async function order(random: boolean, seed: number): Promise<number[]> {
    const locks = new LockManager();
    if (random) locks.randomOrder(seed);
    const clock = new Clock();
    const holder = new ExecClock(clock);
    await locks.acquire('script', 0, 0, holder);
    const served: number[] = [];
    const waits = [1, 2, 3, 4, 5, 6].map((exec) => {
      const c = new ExecClock(clock);
      return locks.acquire('script', exec, 60_000, c).then((ok) => {
        expect(ok).toBe(true);
        served.push(exec);
        locks.release('script', exec, c);
      });
    });
    locks.release('script', 0, holder);
    await Promise.all(waits);
    return served;
  }

  it('serves every waiter, first come first served by default, in a seeded order when asked', async () => {
    expect(await order(false, 1)).toEqual([1, 2, 3, 4, 5, 6]);
    const shuffled = await order(true, 11);
    expect(shuffled.slice().sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(shuffled).not.toEqual([1, 2, 3, 4, 5, 6]);
    expect(await order(true, 11)).toEqual(shuffled);
  });
});
