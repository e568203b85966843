// Executions: the 6-minute limit, kills at the N-th service call, and round-trip counting.
import { describe, expect, it } from 'vitest';
import { gas, withRuntime } from '../helpers.js';

describe('executions', () => {
  it('throws "Exceeded maximum execution time" at the first service call after 6 minutes, and it cannot be caught', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(
        `
        var p = PropertiesService.getScriptProperties();
        p.setProperty('step', '1');
        try { p.setProperty('step', '2'); } catch (e) { p.setProperty('caught', e.message); }
        return 'finished';`,
        {
          onCall: (n) => {
            if (n === 2) rt.clock.advance(6 * 60_000 + 1);
          },
        },
      );
      expect(r.ok).toBe(false);
      expect(r.timedOut).toBe(true);
      expect(r.error?.message).toBe('Exceeded maximum execution time');
      expect(rt.scriptProperties.get('step')).toBe('1');
      expect(rt.scriptProperties.get('caught')).toBeNull();
    });
  });

  it('ends an execution busy in pure computation once its time is up', async () => {
    await withRuntime(async (rt) => {
      const running = rt.evaluate('for (;;) {}');
      await new Promise((r) => setTimeout(r, 100));
      rt.clock.advance(7 * 60_000);
      const r = await running;
      expect(r.timedOut).toBe(true);
    });
  });

  it('kills an execution just before its N-th service call; earlier calls took effect', async () => {
    await withRuntime(async (rt) => {
      const code =
        "var p = PropertiesService.getScriptProperties(); p.setProperty('a', '1'); p.setProperty('b', '2'); p.setProperty('c', '3'); return 'done';";
      const r = await rt.evaluate(code, { killAtCall: 3 });
      expect(r.killed).toBe(true);
      expect([rt.scriptProperties.get('a'), rt.scriptProperties.get('b'), rt.scriptProperties.get('c')]).toEqual([
        '1',
        '2',
        null,
      ]);
      expect((await rt.evaluate(code)).value).toBe('done');
    });
  });

  it('counts reads, writes, appends, flushes and fetches per execution', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(`var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
        sh.getRange('A1:B2').setValues([[1, 2], [3, 4]]);
        sh.getRange('A1:B2').getValues(); sh.getLastRow();
        sh.appendRow([5, 6]); SpreadsheetApp.flush(); return 1;`);
      expect(r.counts).toMatchObject({ reads: 2, writes: 1, appends: 1, flushes: 1, fetches: 0, roundTrips: 5 });
    });
  });

  it('refuses services whose OAuth scope the manifest lacks', async () => {
    await withRuntime(async (rt) => {
      (rt.manifest.oauthScopes as string[]).splice(
        rt.manifest.oauthScopes.indexOf('https://www.googleapis.com/auth/script.external_request'),
        1,
      );
      const r = await rt.evaluate("UrlFetchApp.fetch('http://127.0.0.1:1/');");
      expect(r.error?.message).toBe(
        'You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
      );
    });
  });

  it('reports a missing function the way Apps Script does', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.run('noSuchFunction');
      expect(r.error?.message).toBe('Script function not found: noSuchFunction');
      expect(await gas(rt, 'return typeof setup;')).toBe('function');
    });
  });
});
