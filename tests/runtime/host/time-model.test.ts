// Apps Script's clock in the runtime: every service call costs modelled time, limits and lock waits run on it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Clock } from '../../../runtime/host/clock.js';
import { CALL_COST_MS, ExecClock, TimeModel } from '../../../runtime/host/time-model.js';
import { gas, withRuntime } from '../../helpers.js';

describe('the time model', () => {
  it('draws each call kind within its range, the same draws for the same seed, a slow server on top of a fetch', () => {
    const a = new TimeModel({ seed: 7 });
    const b = new TimeModel({ seed: 7 });
    const c = new TimeModel({ seed: 8 });
    for (const kind of Object.keys(CALL_COST_MS) as (keyof typeof CALL_COST_MS)[]) {
      const draws = Array.from({ length: 200 }, (_, i) => a.draw(kind, 3, i));
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(CALL_COST_MS[kind][0]);
      expect(Math.max(...draws)).toBeLessThanOrEqual(CALL_COST_MS[kind][1]);
      // Spread over the range, not one value.
      expect(new Set(draws).size).toBeGreaterThan(20);
      expect(draws).toEqual(Array.from({ length: 200 }, (_, i) => b.draw(kind, 3, i)));
    }
    expect(Array.from({ length: 20 }, (_, i) => c.draw('sheets_read', 3, i))).not.toEqual(
      Array.from({ length: 20 }, (_, i) => a.draw('sheets_read', 3, i)),
    );
    expect(new TimeModel({ fetchMs: 10_000 }).draw('fetch', 1, 1)).toBeGreaterThanOrEqual(
      10_000 + CALL_COST_MS.fetch[0],
    );
  });

  it('an execution clock reads the runtime clock plus what it spent; waiting never goes back', () => {
    const clock = new Clock();
    const ex = new ExecClock(clock);
    const before = ex.now();
    ex.spend(1500);
    expect(ex.now() - before).toBeGreaterThanOrEqual(1500);
    expect(ex.waitUntil(ex.now() - 10_000)).toBe(0);
    expect(ex.waitUntil(ex.now() + 2000)).toBeGreaterThanOrEqual(1999);
    expect(ex.modelledMs).toBeGreaterThanOrEqual(3499);
  });

  it("moves the script's own Date by what each call costs, and reports modelled beside real time", async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(
        `var t0 = Date.now(); var p = PropertiesService.getScriptProperties();
        for (var i = 0; i < 20; i++) p.getProperty('k' + i);
        var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
        for (var j = 0; j < 10; j++) sh.getRange(1, 1).getValue();
        return Date.now() - t0;`,
      );
      expect(r.ok).toBe(true);
      const c = CALL_COST_MS;
      const low = 20 * c.properties_read[0] + 21 * c.sheets_read[0];
      expect(r.value as number).toBeGreaterThanOrEqual(low);
      expect(r.modelledMs).toBeGreaterThanOrEqual(low + c.start[0]);
      expect(r.endedAt - r.startedAt).toBeGreaterThanOrEqual(r.modelledMs);
      expect(r.realMs).toBeLessThan(r.modelledMs);
      // Split by kind: the start, 20 property reads, 21 Sheets reads, and nothing else; together the modelled time.
      const k = r.counts.msByKind;
      expect(Object.keys(k).sort()).toEqual(['properties_read', 'sheets_read', 'start']);
      expect(k.properties_read).toBeGreaterThanOrEqual(20 * c.properties_read[0]);
      expect(k.properties_read).toBeLessThanOrEqual(20 * c.properties_read[1]);
      expect(k.start).toBeGreaterThanOrEqual(c.start[0]);
      expect(k.start + k.sheets_read + k.properties_read).toBe(r.modelledMs);
    });
  });

  it('prices writes apart from reads: held writes cost nothing until sent, then one Sheets write a sheet', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(
        `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
        for (var i = 1; i <= 5; i++) sh.getRange(i, 1).setValue(i);
        var before = Date.now(); sh.getRange(1, 1).getValue(); var read = Date.now() - before;
        var p = PropertiesService.getScriptProperties();
        p.setProperties({ a: '1', b: '2', c: '3' }); CacheService.getScriptCache().put('k', 'v', 60);
        return read;`,
        { kind: 'trigger' },
      );
      expect(r.ok).toBe(true);
      const c = CALL_COST_MS;
      const k = r.counts.msByKind;
      // The read that sent five held writes to one sheet paid one Sheets write on top of the read.
      expect(r.value as number).toBeGreaterThanOrEqual(c.sheets_read[0] + c.sheets_write[0]);
      expect(k.sheets_write).toBeGreaterThanOrEqual(c.sheets_write[0]);
      expect(k.sheets_write).toBeLessThanOrEqual(c.sheets_write[1]);
      expect(k.properties_write).toBeGreaterThanOrEqual(c.properties_write[0]);
      expect(k.cache_write).toBeGreaterThanOrEqual(c.cache_write[0]);
      // setProperties with three keys counts three against the daily properties quota.
      expect(rt.quota.usage(rt.owner).propertiesCalls).toBe(3);
    });
  });

  it('traces each call in order with its modelled time and the sheets it sent, only when asked', async () => {
    const code = `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
      sh.getRange(1, 1).setValue(1); SpreadsheetApp.flush();
      PropertiesService.getScriptProperties().setProperties({ a: '1' });`;
    await withRuntime(
      async (rt) => {
        const r = await rt.evaluate(code, { kind: 'trigger' });
        expect(r.ok).toBe(true);
        const t = r.counts.trace ?? [];
        expect(t.map((c) => c.op)).toEqual(['ss.sheets', 'rg.setValues', 'ss.flush', 'props.set']);
        expect(t.map((c) => c.sent ?? 0)).toEqual([0, 0, 1, 0]);
        expect(t[3].about).toBe('a');
        // Each call begins where the one before it ended, and the calls' times add up to the modelled time.
        expect(t[1].at).toBe(t[0].at + t[0].ms);
        expect(t.reduce((a, c) => a + c.ms, 0) + (r.counts.msByKind.start ?? 0)).toBeCloseTo(r.modelledMs, 0);
      },
      { timeModel: { trace: true } },
    );
    await withRuntime(async (rt) => {
      expect((await rt.evaluate(code, { kind: 'trigger' })).counts.trace).toBeUndefined();
    });
  });

  it("charges the script's own computing to the trigger runtime, beside its modelled calls", async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate('var t = Date.now(); var x = 0; while (Date.now() - t < 300) x++; return x;', {
        kind: 'trigger',
      });
      expect(r.ok).toBe(true);
      const charged = rt.quota.usage(rt.owner).triggerSeconds * 1000;
      // 300 ms of busy computing (real time, which the script's Date also reads) on top of the modelled start.
      expect(charged).toBeGreaterThanOrEqual(r.modelledMs + 250);
    });
  });

  it('ends an execution at its limit on the modelled clock, although little real time passed', async () => {
    await withRuntime(
      async (rt) => {
        const r = await rt.evaluate(
          `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
          for (var i = 0; i < 200; i++) sh.getRange(1, 1).getValue();
          return 'finished';`,
        );
        expect([r.ok, r.timedOut, r.error?.message]).toEqual([false, true, 'Exceeded maximum execution time']);
        expect(r.endedAt - r.startedAt).toBeGreaterThan(5000);
        expect(r.realMs).toBeLessThan(5000);
      },
      { executionLimitMs: 5000 },
    );
  });

  it('sleeps on the modelled clock: a minute of Utilities.sleep takes no real minute', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate('var t0 = Date.now(); Utilities.sleep(60000); return Date.now() - t0;');
      expect(r.value as number).toBeGreaterThanOrEqual(60_000);
      expect(r.modelledMs).toBeGreaterThanOrEqual(60_000);
      expect(r.realMs).toBeLessThan(10_000);
    });
  });

  it('makes a caller wait for a lock its holder released later on its own clock, or time out', async () => {
    await withRuntime(async (rt) => {
      // The test holds the lock until both scripts wait for it, so they started side by side.
      const holder = new ExecClock(rt.clock);
      await rt.locks.acquire('script', 900_003, 0, holder);
      const arrived: string[] = [];
      const wake: (() => void)[] = [];
      const onCall = (name: string) => (_n: number, op: string) => {
        if (op !== 'lock.acquire' || arrived.includes(name)) return;
        arrived.push(name);
        wake.shift()?.();
      };
      const waitFor = (n: number) =>
        arrived.length >= n ? Promise.resolve() : new Promise<void>((resolve) => wake.push(resolve));
      // The first holds the lock for 20 modelled seconds.
      const slow = rt.evaluate(
        'var l = LockService.getScriptLock(); l.waitLock(30000); Utilities.sleep(20000); l.releaseLock(); return 1;',
        { onCall: onCall('slow') },
      );
      await waitFor(1);
      const late = rt.evaluate(
        `var l = LockService.getScriptLock(); var t0 = Date.now();
        var first = l.tryLock(5000); var gaveUpAfter = Date.now() - t0;
        var second = l.tryLock(60000); l.releaseLock();
        return [first, gaveUpAfter, second, Date.now() - t0];`,
        { onCall: onCall('late') },
      );
      await waitFor(2);
      rt.locks.release('script', 900_003, holder);
      expect((await slow).ok).toBe(true);
      const [first, gaveUpAfter, second, total] = (await late).value as [boolean, number, boolean, number];
      expect([first, second]).toEqual([false, true]);
      expect(gaveUpAfter).toBeGreaterThanOrEqual(5000);
      // It got the lock only once the slow script had slept its 20 s on its own clock (the two started within one
      // execution start of each other).
      expect(total).toBeGreaterThanOrEqual(20_000 - CALL_COST_MS.start[1]);
    });
  });

  it('charges a slow server on the modelled clock without waiting for it', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await withRuntime(
        async (rt) => {
          const r = await rt.evaluate(`return UrlFetchApp.fetch(${JSON.stringify(`${base}/x`)}).getContentText();`);
          expect(r.value).toBe('ok');
          expect(r.modelledMs).toBeGreaterThanOrEqual(10_000);
          expect(r.realMs).toBeLessThan(5000);
        },
        { allowLocalFetch: [base], timeModel: { fetchMs: 10_000 } },
      );
    } finally {
      server.close();
    }
  });

  it('starts what follows an execution after it ends, except on the wall clock where only its own clock moved', async () => {
    await withRuntime(async (rt) => {
      const first = await rt.evaluate('Utilities.sleep(30000); return Date.now();');
      const next = await gas(rt, 'return Date.now();');
      expect(next).toBeGreaterThanOrEqual(first.value as number);
    });
    await withRuntime(
      async (rt) => {
        const before = rt.clock.now();
        const first = await rt.evaluate('Utilities.sleep(30000); return Date.now();');
        expect(first.value as number).toBeGreaterThanOrEqual(before + 30_000);
        expect(rt.clock.now()).toBeLessThan(before + 10_000);
      },
      { wallClock: true },
    );
  });

  it('gives the same modelled time for the same run', async () => {
    const once = () =>
      withRuntime(async (rt) => {
        const r = await rt.evaluate(
          "var p = PropertiesService.getScriptProperties(); for (var i = 0; i < 5; i++) p.getProperty('a'); return 1;",
        );
        return r.modelledMs;
      });
    expect(await once()).toBe(await once());
  });
});
