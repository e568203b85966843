// ScriptApp triggers: creation, listing, deletion, the 20-trigger limit and firing on the clock.
import { describe, expect, it } from 'vitest';
import { gas, gasError, withRuntime } from '../../helpers.js';

describe('ScriptApp', () => {
  it('creates, lists and deletes time-driven triggers', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `
        ScriptApp.newTrigger('tick').timeBased().everyMinutes(1).create();
        var t = ScriptApp.newTrigger('tickSoon').timeBased().after(1000).create();
        var list = ScriptApp.getProjectTriggers().map(function (x) { return [x.getHandlerFunction(), x.getEventType()]; });
        ScriptApp.deleteTrigger(t);
        return [list, ScriptApp.getProjectTriggers().length, t.getUniqueId().length > 0];`,
      );
      expect(out).toEqual([
        [
          ['tick', 'CLOCK'],
          ['tickSoon', 'CLOCK'],
        ],
        1,
        true,
      ]);
      expect(await gasError(rt, "ScriptApp.newTrigger('tick').timeBased().everyMinutes(2).create();")).toMatch(
        /everyMinutes/,
      );
    });
  });

  it('refuses a 21st trigger', async () => {
    await withRuntime(async (rt) => {
      const msg = await gasError(
        rt,
        "for (var i = 0; i < 21; i++) ScriptApp.newTrigger('tick').timeBased().after(60000).create();",
      );
      expect(msg).toBe(
        'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
      );
      expect(rt.triggers.triggers.length).toBe(20);
    });
  });

  it('fires due triggers on the clock; a spent one-shot trigger stays listed until deleted', async () => {
    // after() fires late by a seeded amount (late-triggers.test.ts); none here, to see the order plainly.
    await withRuntime(
      async (rt) => {
        await gas(
          rt,
          "ScriptApp.newTrigger('tick').timeBased().everyMinutes(1).create(); ScriptApp.newTrigger('tickSoon').timeBased().after(500).create();",
        );
        expect((await rt.fireDueTriggers()).length).toBe(0);
        rt.clock.advance(1000);
        const first = await rt.fireDueTriggers();
        expect(first.map((r) => r.fn)).toEqual(['tickSoon']);
        expect(first[0].kind).toBe('trigger');
        rt.clock.advance(60_000);
        expect((await rt.fireDueTriggers()).map((r) => r.fn)).toEqual(['tick']);
        expect(rt.triggers.triggers.map((t) => t.handler)).toEqual(['tick']);
      },
      { triggerDelays: { afterMaxMs: 0 } },
    );
  });
});
