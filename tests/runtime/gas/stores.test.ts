// PropertiesService, CacheService and LockService: quotas, expiry, eviction and real mutual exclusion.
import { describe, expect, it } from 'vitest';
import { ExecClock } from '../../../runtime/host/time-model.js';
import { gas, gasError, withRuntime } from '../../helpers.js';

describe('PropertiesService', () => {
  it('stores strings per store and rejects a property over 8,000 B (key and value, in UTF-8)', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `
        var p = PropertiesService.getScriptProperties();
        p.setProperty('a', 'x'); p.setProperties({ b: 2 });
        PropertiesService.getUserProperties().setProperty('u', 'user');
        p.setProperty('max', new Array(8000 - 3 + 1).join('x'));
        return [p.getProperty('a'), p.getProperty('b'), p.getProperty('none'), p.getKeys().sort(), PropertiesService.getUserProperties().getProperty('a')];`,
      );
      expect(out).toEqual(['x', '2', null, ['a', 'b', 'max'], null]);
      // 9,000 B: under the 9 KB Apps Script documents, over what it keeps in practice.
      expect(
        await gasError(rt, "PropertiesService.getScriptProperties().setProperty('big', new Array(9001).join('x'));"),
      ).toBe('Argument too large: value');
      // The key counts: 'max' with the same value plus one byte fails.
      expect(
        await gasError(rt, "PropertiesService.getScriptProperties().setProperty('max', new Array(7999).join('x'));"),
      ).toBe('Argument too large: value');
      // Multi-byte text counts in bytes: 2,667 characters of three bytes each, with the key, pass 8,000 B.
      expect(
        await gasError(rt, "PropertiesService.getScriptProperties().setProperty('ja', new Array(2668).join('あ'));"),
      ).toBe('Argument too large: value');
      // A call with one value too large stores none of its values.
      expect(
        await gasError(
          rt,
          "PropertiesService.getScriptProperties().setProperties({ ok: 'y', big: new Array(8001).join('x') });",
        ),
      ).toBe('Argument too large: value');
      expect(rt.scriptProperties.get('big')).toBeNull();
      expect(rt.scriptProperties.get('ok')).toBeNull();
    });
  });

  it('refuses to grow a store past 500 KB', async () => {
    await withRuntime(async (rt) => {
      const msg = await gasError(
        rt,
        `
        var p = PropertiesService.getScriptProperties();
        for (var i = 0; i < 70; i++) p.setProperty('k' + i, new Array(7900).join('x'));`,
      );
      expect(msg).toBe('You have exceeded the property storage quota. Please remove some properties and try again.');
      expect(rt.scriptProperties.all()).not.toHaveProperty('k69');
    });
  });
});

describe('CacheService', () => {
  it('expires values on the runtime clock and caps TTL at 6 hours', async () => {
    await withRuntime(async (rt) => {
      await gas(
        rt,
        "CacheService.getScriptCache().put('k', 'v', 60); CacheService.getScriptCache().putAll({ a: '1', b: '2' });",
      );
      expect(await gas(rt, "return CacheService.getScriptCache().getAll(['k', 'a', 'zz']);")).toEqual({
        k: 'v',
        a: '1',
      });
      rt.clock.advance(61_000);
      expect(
        await gas(rt, "return [CacheService.getScriptCache().get('k'), CacheService.getScriptCache().get('a')];"),
      ).toEqual([null, '1']);
      expect(await gasError(rt, "CacheService.getScriptCache().put('k', 'v', 21601);")).toBe(
        'Invalid argument: expirationInSeconds',
      );
      expect(await gasError(rt, "CacheService.getScriptCache().put('k', new Array(100 * 1024 + 2).join('x'));")).toBe(
        'Argument too large: value',
      );
    });
  });

  it('counts the 100 KB per value in UTF-8 bytes: Japanese text is refused near 34,000 characters', async () => {
    await withRuntime(async (rt) => {
      // 'あ' is 3 bytes: 34,133 of them are 102,399 bytes and fit; 34,134 are 102,402 bytes and do not.
      const put = (n: number) =>
        `var v = new Array(${n + 1}).join('あ'); CacheService.getScriptCache().put('ja', v); return CacheService.getScriptCache().get('ja').length;`;
      expect(await gas(rt, put(34_133))).toBe(34_133);
      expect(await gasError(rt, put(34_134))).toBe('Argument too large: value');
      expect(
        await gasError(rt, `CacheService.getScriptCache().putAll({ ok: 'x', ja: new Array(34135).join('あ') });`),
      ).toBe('Argument too large: value');
      expect(await gas(rt, "return CacheService.getScriptCache().get('ok');")).toBeNull();
    });
  });

  it('evicts by put order in batches of 100 beyond 1,000: a value read often still goes first if put first', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `
        var c = CacheService.getScriptCache();
        for (var i = 0; i < 1000; i++) c.put('k' + i, String(i));
        // Read over and over, then put again: the read does not keep k0, the second put moves k5 to the end.
        for (var r = 0; r < 50; r++) c.get('k0');
        c.put('k5', 'again');
        c.put('extra', 'x');
        var left = c.getAll(['k0', 'k1', 'k5', 'k99', 'k100', 'k101', 'k999', 'extra']);
        return [left, Object.keys(c.getAll(Array.apply(null, Array(1000)).map(function (_, i) { return 'k' + i; }))).length];`,
      );
      // 1,001 items: the 100 oldest puts (k0 … k100 but k5, put again) went at once; 900 of the k keys are left.
      expect(out).toEqual([{ k5: 'again', k101: '101', k999: '999', extra: 'x' }, 900]);
    });
  });

  it('has no document cache in a web app', async () => {
    await withRuntime(async (rt) => {
      expect(await gas(rt, 'return CacheService.getDocumentCache() === null;', { kind: 'webapp' })).toBe(true);
    });
  });
});

describe('LockService', () => {
  it('never lets two overlapping executions hold the script lock at once', async () => {
    await withRuntime(async (rt) => {
      const holder = `
        var lock = LockService.getScriptLock();
        if (!lock.tryLock(20000)) return 'no-lock';
        var p = PropertiesService.getScriptProperties();
        var inside = Number(p.getProperty('inside') || 0);
        p.setProperty('inside', String(inside + 1));
        Utilities.sleep(150);
        var seen = Number(p.getProperty('inside'));
        p.setProperty('inside', String(seen - 1));
        lock.releaseLock();
        return seen;`;
      const results = await Promise.all([1, 2, 3, 4].map(() => rt.evaluate(holder)));
      expect(results.map((r) => r.value)).toEqual([1, 1, 1, 1]);
      // Grants and releases alternate: no acquire while another execution holds the lock.
      const events = rt.locks.history.filter((h) => h.key === 'script');
      let held: number | null = null;
      for (const e of events) {
        if (e.event === 'acquire') {
          expect(held).toBeNull();
          held = e.exec;
        } else {
          expect(held).toBe(e.exec);
          held = null;
        }
      }
      expect(events.length).toBe(8);
    });
  });

  it('returns false from tryLock and throws from waitLock on timeout', async () => {
    await withRuntime(async (rt) => {
      // Held by the test itself, so the holder is still running whatever the callers' clocks read.
      const holder = new ExecClock(rt.clock);
      await rt.locks.acquire('script', 900_002, 0, holder);
      const t = await gas(rt, 'return LockService.getScriptLock().tryLock(100);');
      const w = await gasError(rt, 'LockService.getScriptLock().waitLock(100);');
      expect([t, w]).toEqual([false, 'Lock timeout: another process was holding the lock for too long.']);
      rt.locks.release('script', 900_002, holder);
      expect(await gas(rt, 'return LockService.getScriptLock().tryLock(100);')).toBe(true);
    });
  });

  it('releases a lock held by an execution that ends without releasing it, or that is killed', async () => {
    await withRuntime(async (rt) => {
      await gas(rt, 'LockService.getScriptLock().waitLock(1000); return 1;');
      expect(rt.locks.holder('script')).toBeUndefined();
      const killed = await rt.evaluate(
        "LockService.getScriptLock().waitLock(1000); PropertiesService.getScriptProperties().setProperty('x', '1'); return 1;",
        { killAtCall: 2 },
      );
      expect(killed.killed).toBe(true);
      expect(rt.scriptProperties.get('x')).toBeNull();
      expect(rt.locks.holder('script')).toBeUndefined();
      expect(await gas(rt, 'return LockService.getScriptLock().tryLock(0);')).toBe(true);
    });
  });

  it('has no document lock in a web-app execution', async () => {
    await withRuntime(async (rt) => {
      expect(
        await gas(rt, 'return [LockService.getDocumentLock() === null, LockService.getScriptLock() !== null];', {
          kind: 'webapp',
        }),
      ).toEqual([true, true]);
      expect(await gas(rt, 'return LockService.getDocumentLock() === null;', { kind: 'trigger' })).toBe(false);
    });
  });
});
