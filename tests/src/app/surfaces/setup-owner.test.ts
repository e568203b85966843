// One set of workers however many editors run setup(): the claim in Script Properties, the hand-over, the backstop.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { ok, setSetting, START } from '../../../council-helpers.js';
import { newRuntime } from '../../../helpers.js';

// A second editor of the owner's domain, listed in access.admins once the owner has set Kaigi up: only an admin
// handles the workers.
const EDITOR = 'second.editor@example.com';
const WORKERS = ['tick', 'dailyReview', 'dailyWatch', 'onConfigEdit', 'onConfigChange'];
const MINUTE = 60_000;

function editors(): Runtime {
  return newRuntime({ startAt: START, users: [{ email: EDITOR, sameDomain: true }] });
}

// The owner sets Kaigi up and lists the second editor as an admin.
async function setUp(rt: Runtime): Promise<unknown> {
  const first = ok(await rt.run('setup', [], { kind: 'menu' }));
  await setSetting(rt, 'access.admins', JSON.stringify([EDITOR]));
  return first;
}

function triggersOf(rt: Runtime, owner: string): string[] {
  return rt.triggers.triggers.filter((t) => t.owner === owner).map((t) => t.handler);
}

function claim(rt: Runtime): { owner: string; claimed_at: string; backstop_minutes: number } {
  return JSON.parse(rt.scriptProperties.get('KAIGI_WORKERS')!);
}

describe('workers have one owner', () => {
  it('two editors run setup: one set of workers, and the second is told who owns them', async () => {
    const rt = editors();
    const first = await setUp(rt);
    expect(first).toMatchObject({ triggersCreated: 5, workersOwner: rt.owner, workersNotice: '' });
    expect(claim(rt)).toMatchObject({ owner: rt.owner, backstop_minutes: 10 });
    const alerts = rt.ui.alerts.length;
    const second = ok(await rt.run('setup', [], { kind: 'menu', user: EDITOR }));
    expect(second).toMatchObject({ triggersCreated: 0, workersOwner: rt.owner });
    // In the user's language (the runtime's locale is Japanese): who owns them, and how to hand them over.
    expect(second.workersNotice).toContain(`${rt.owner} が所有しています`);
    expect(second.workersNotice).toMatch(/handOverWorkers[\s\S]*takeOverWorkers/);
    // The same alert setup always shows carries the notice.
    expect(rt.ui.alerts.length).toBe(alerts + 1);
    expect(rt.ui.alerts[alerts].prompt).toContain(second.workersNotice);
    expect(triggersOf(rt, rt.owner)).toEqual(WORKERS);
    expect(triggersOf(rt, EDITOR)).toEqual([]);
    // Running it again changes nothing for either of them.
    ok(await rt.run('setup', [], { kind: 'menu', user: EDITOR }));
    ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(rt.triggers.triggers.map((t) => t.handler)).toEqual(WORKERS);
    expect(claim(rt).owner).toBe(rt.owner);
  });

  it('hands over: the owner releases the workers, the next editor to run setup owns the one set', async () => {
    const rt = editors();
    await setUp(rt);
    // Only the owner can release: another editor's hand-over removes nothing of the owner's.
    expect(ok(await rt.run('handOverWorkers', [], { kind: 'menu', user: EDITOR }))).toEqual({
      removed: 0,
      released: false,
    });
    expect(ok(await rt.run('handOverWorkers', [], { kind: 'menu' }))).toEqual({ removed: 5, released: true });
    expect(rt.scriptProperties.get('KAIGI_WORKERS')).toBeNull();
    const r = ok(await rt.run('setup', [], { kind: 'menu', user: EDITOR }));
    expect(r).toMatchObject({ triggersCreated: 5, workersOwner: EDITOR, workersNotice: '' });
    expect(triggersOf(rt, EDITOR)).toEqual(WORKERS);
    expect(triggersOf(rt, rt.owner)).toEqual([]);
    // teardown() by the owner releases too.
    ok(await rt.run('teardown', [], { kind: 'menu', user: EDITOR }));
    expect(rt.scriptProperties.get('KAIGI_WORKERS')).toBeNull();
    expect(rt.triggers.triggers).toEqual([]);
  });

  it("takes over from an owner who cannot hand over: the old owner's workers retire at their next tick", async () => {
    const rt = editors();
    await setUp(rt);
    const r = ok(await rt.run('takeOverWorkers', [], { kind: 'menu', user: EDITOR }));
    expect(r).toMatchObject({ owner: EDITOR, previousOwner: rt.owner, triggersCreated: 5 });
    expect(claim(rt).owner).toBe(EDITOR);
    // For a moment both sets exist; the old owner's backstop tick runs as the old owner and removes its workers.
    const oldTick = rt.triggers.triggers.find((t) => t.owner === rt.owner && t.handler === 'tick')!;
    ok(await rt.fireTrigger(oldTick));
    expect(triggersOf(rt, rt.owner)).toEqual([]);
    expect(triggersOf(rt, EDITOR)).toEqual(WORKERS);
    // The new owner's own tick keeps its set.
    const newTick = rt.triggers.triggers.find((t) => t.owner === EDITOR && t.handler === 'tick')!;
    ok(await rt.fireTrigger(newTick));
    expect(triggersOf(rt, EDITOR)).toEqual(WORKERS);
  });
});

describe('the backstop tick', () => {
  it('runs every 10 minutes by default and follows queue.backstop_minutes, rounded down to what Apps Script allows', async () => {
    const rt = newRuntime({ startAt: START });
    ok(await rt.run('setup', [], { kind: 'menu' }));
    const tick = () => rt.triggers.triggers.filter((t) => t.handler === 'tick');
    expect(tick().map((t) => t.everyMs)).toEqual([10 * MINUTE]);
    await setSetting(rt, 'queue.backstop_minutes', '20');
    const r = ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(r).toMatchObject({ triggersCreated: 1, triggersRemoved: 1 });
    expect(tick().map((t) => t.everyMs)).toEqual([15 * MINUTE]);
    expect(claim(rt).backstop_minutes).toBe(15);
    await setSetting(rt, 'queue.backstop_minutes', '1');
    ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(tick().map((t) => t.everyMs)).toEqual([MINUTE]);
    expect(rt.triggers.triggers.map((t) => t.handler).sort()).toEqual([...WORKERS].sort());
  });
});
