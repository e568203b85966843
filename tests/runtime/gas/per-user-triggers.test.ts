// Installable triggers belong to the user who made them: listing, the 20 limit, deleting and firing.
import { describe, expect, it } from 'vitest';
import { gas, gasError, withRuntime } from '../../helpers.js';

const EDITOR = 'editor@other.example';

describe('per-user triggers', () => {
  it("lists only the running user's triggers; each trigger records who made it", async () => {
    await withRuntime(async (rt) => {
      await gas(rt, "ScriptApp.newTrigger('tick').timeBased().everyMinutes(10).create();");
      await gas(rt, "ScriptApp.newTrigger('dailyWatch').timeBased().everyDays(1).atHour(7).create();", {
        user: EDITOR,
      });
      const list = 'return ScriptApp.getProjectTriggers().map(function (t) { return t.getHandlerFunction(); });';
      expect(await gas(rt, list)).toEqual(['tick']);
      expect(await gas(rt, list, { user: EDITOR })).toEqual(['dailyWatch']);
      expect(rt.triggers.triggers.map((t) => [t.handler, t.owner])).toEqual([
        ['tick', rt.owner],
        ['dailyWatch', EDITOR],
      ]);
    });
  });

  it('counts the 20-trigger limit per user', async () => {
    await withRuntime(async (rt) => {
      const twenty = "for (var i = 0; i < 20; i++) ScriptApp.newTrigger('t' + i).timeBased().everyHours(1).create();";
      await gas(rt, twenty);
      expect(await gasError(rt, "ScriptApp.newTrigger('one').timeBased().everyHours(1).create();")).toMatch(
        /too many triggers/,
      );
      // Another editor has their own 20.
      await gas(rt, twenty, { user: EDITOR });
      expect(rt.triggers.triggers.length).toBe(40);
    });
  });

  it("cannot delete another user's trigger, which it never sees", async () => {
    await withRuntime(async (rt) => {
      await gas(rt, "ScriptApp.newTrigger('tick').timeBased().everyMinutes(10).create();");
      const removed = await gas(
        rt,
        `var all = ScriptApp.getProjectTriggers();
        all.forEach(function (t) { ScriptApp.deleteTrigger(t); });
        return all.length;`,
        { user: EDITOR },
      );
      expect(removed).toBe(0);
      expect(rt.triggers.triggers.map((t) => t.owner)).toEqual([rt.owner]);
    });
  });

  it('fires a trigger as its owner: the effective user, its own triggers and its own quota', async () => {
    await withRuntime(async (rt) => {
      await gas(rt, "ScriptApp.newTrigger('whoAmI').timeBased().everyMinutes(1).create();", { user: EDITOR });
      const t = rt.triggers.triggers[0];
      const r = await rt.fireTrigger(t, {
        code: `return [Session.getEffectiveUser().getEmail(), Session.getActiveUser().getEmail(),
          ScriptApp.getProjectTriggers().length];`,
      });
      expect(r.ok).toBe(true);
      expect(r.value).toEqual([EDITOR, '', 1]);
      expect(rt.quota.usage(EDITOR).triggerExecutions).toBe(1);
      expect(rt.quota.usage(rt.owner).triggerExecutions).toBe(0);
    });
  });

  it('runs an execution as the owner by default and as another editor when asked', async () => {
    await withRuntime(async (rt) => {
      const who = 'return Session.getEffectiveUser().getEmail();';
      expect(await gas(rt, who, { kind: 'menu' })).toBe(rt.owner);
      expect(await gas(rt, who, { kind: 'menu', user: EDITOR })).toBe(EDITOR);
      expect(await gas(rt, who, { kind: 'trigger' })).toBe(rt.owner);
      // The web app is deployed to execute as its deployer (appsscript.json), whoever visits it.
      expect(await gas(rt, who, { kind: 'webapp', user: EDITOR })).toBe(rt.owner);
    });
  });
});
