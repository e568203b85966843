// Daily quotas per user: trigger runtime from the time model, URL fetches, properties; Apps Script's refusals.
import { describe, expect, it } from 'vitest';
import { CALL_COST_MS, QUOTA_MESSAGES, type QuotaUsage, type Runtime } from '../../../runtime/runtime.js';
import { gas, gasError, withRuntime } from '../../helpers.js';

const DAY_MS = 24 * 3600_000;

// Puts a user's current window at the given use, as if the day so far had spent it.
function spend(rt: Runtime, used: Partial<QuotaUsage>, user = rt.owner): void {
  const u: QuotaUsage = {
    windowStart: rt.clock.now(),
    triggerSeconds: 0,
    urlFetches: 0,
    propertiesCalls: 0,
    triggerExecutions: 0,
    ...used,
  };
  rt.quota.restore({ window: [[user, u]], totals: [] });
}

describe('daily quotas', () => {
  it('charges a trigger execution its time on the time model and counts its properties calls', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(
        `var p = PropertiesService.getScriptProperties();
        p.setProperty('a', '1'); p.getProperty('a');
        SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1').setValue('x');
        return 1;`,
        { kind: 'trigger' },
      );
      expect(r.ok).toBe(true);
      const u = rt.quota.usage(rt.owner);
      // Trigger runtime is the execution's modelled time (its start, a property written and one read, getSheets,
      // and the held setValue sent at the end as a Sheets write) plus the real time the script computed.
      expect(u.triggerSeconds).toBeGreaterThanOrEqual(r.modelledMs / 1000);
      expect(u.triggerSeconds).toBeLessThanOrEqual((r.modelledMs + r.realMs + 1) / 1000);
      const c = CALL_COST_MS;
      const low = c.start[0] + c.properties_write[0] + c.properties_read[0] + c.sheets_read[0] + c.sheets_write[0];
      const high = c.start[1] + c.properties_write[1] + c.properties_read[1] + c.sheets_read[1] + c.sheets_write[1];
      expect(r.modelledMs).toBeGreaterThanOrEqual(low);
      expect(r.modelledMs).toBeLessThanOrEqual(high);
      expect(r.endedAt - r.startedAt).toBeGreaterThanOrEqual(r.modelledMs);
      expect([u.propertiesCalls, u.triggerExecutions, u.urlFetches]).toEqual([2, 1, 0]);
      // An editor execution spends properties calls, not trigger runtime.
      await gas(rt, "PropertiesService.getScriptProperties().getProperty('a');");
      expect(rt.quota.usage(rt.owner)).toMatchObject({ propertiesCalls: 3, triggerExecutions: 1 });
      expect(rt.quota.usage(rt.owner).triggerSeconds).toBeCloseTo(u.triggerSeconds, 6);
      expect(rt.quota.totals(rt.owner).propertiesCalls).toBe(3);
    });
  });

  it('charges the time a trigger sleeps', async () => {
    await withRuntime(async (rt) => {
      expect((await rt.evaluate('Utilities.sleep(300); return 1;', { kind: 'trigger' })).ok).toBe(true);
      expect(rt.quota.usage(rt.owner).triggerSeconds).toBeGreaterThanOrEqual(CALL_COST_MS.start[0] / 1000 + 0.3);
    });
  });

  it('refuses trigger executions once 90 minutes of trigger runtime are spent, but not editor runs', async () => {
    await withRuntime(async (rt) => {
      spend(rt, { triggerSeconds: 90 * 60 - CALL_COST_MS.start[0] / 2000 });
      // This start is let in and spends the rest of the day; the call after it finds the day spent.
      const r = await rt.evaluate(
        "try { PropertiesService.getScriptProperties().getProperty('a'); } catch (e) { return e.message; }",
        {
          kind: 'trigger',
        },
      );
      expect(r.value).toBe(QUOTA_MESSAGES.triggerSeconds);
      expect(QUOTA_MESSAGES.triggerSeconds).toBe('Service using too much computer time for one day');
      // The next trigger does not run at all.
      const next = await rt.evaluate('return 1;', { kind: 'trigger' });
      expect([next.ok, next.error?.message]).toEqual([false, 'Service using too much computer time for one day']);
      expect(await gas(rt, 'return 2;')).toBe(2);
      // A day later the window is new.
      rt.clock.advance(DAY_MS);
      expect((await rt.evaluate('return 3;', { kind: 'trigger' })).value).toBe(3);
    });
  });

  it('allows 6 hours of trigger runtime on a Workspace account', async () => {
    await withRuntime(
      async (rt) => {
        spend(rt, { triggerSeconds: 90 * 60 });
        expect((await rt.evaluate('return 1;', { kind: 'trigger' })).value).toBe(1);
        spend(rt, { triggerSeconds: 6 * 3600 });
        expect((await rt.evaluate('return 1;', { kind: 'trigger' })).error?.message).toBe(
          QUOTA_MESSAGES.triggerSeconds,
        );
      },
      { accountType: 'workspace' },
    );
  });

  it('refuses URL fetches past 20,000 a day, counting each request of a fetchAll', async () => {
    await withRuntime(async (rt) => {
      spend(rt, { urlFetches: 19_999 });
      const both =
        "UrlFetchApp.fetchAll([{ url: 'https://example.invalid/a' }, { url: 'https://example.invalid/b' }]);";
      expect(await gasError(rt, both)).toBe('Service invoked too many times for one day: urlfetch.');
      expect(rt.quota.usage(rt.owner).urlFetches).toBe(19_999);
      spend(rt, { urlFetches: 20_000 });
      expect(await gasError(rt, "UrlFetchApp.fetch('https://example.invalid/');")).toBe(
        'Service invoked too many times for one day: urlfetch.',
      );
      // Another user's quota is their own.
      expect(rt.quota.usage('someone@example.com').urlFetches).toBe(0);
      rt.clock.advance(DAY_MS);
      expect(await gasError(rt, "UrlFetchApp.fetch('https://example.invalid/');")).not.toBe(QUOTA_MESSAGES.urlFetches);
    });
  });

  it('refuses properties reads and writes past 50,000 a day (500,000 on Workspace)', async () => {
    await withRuntime(async (rt) => {
      spend(rt, { propertiesCalls: 49_999 });
      expect(await gas(rt, "PropertiesService.getScriptProperties().setProperty('a', '1'); return 1;")).toBe(1);
      expect(await gasError(rt, "PropertiesService.getUserProperties().getProperty('a');")).toBe(
        'Service invoked too many times for one day: properties.',
      );
      expect(rt.quota.usage(rt.owner).propertiesCalls).toBe(50_000);
    });
    await withRuntime(
      async (rt) => {
        spend(rt, { propertiesCalls: 50_000 });
        expect(await gas(rt, "return PropertiesService.getScriptProperties().getProperty('a');")).toBeNull();
      },
      { accountType: 'workspace' },
    );
  });

  it('replays quota use with a runtime snapshot', async () => {
    await withRuntime(async (rt) => {
      const snap = rt.snapshot();
      await gas(rt, "PropertiesService.getScriptProperties().getProperty('a');");
      expect(rt.quota.usage(rt.owner).propertiesCalls).toBe(1);
      rt.restore(snap);
      expect(rt.quota.usage(rt.owner).propertiesCalls).toBe(0);
    });
  });
});
