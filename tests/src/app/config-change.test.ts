// Rows a person inserts or removes in Settings, Agents or Prompts are caught by the on-change trigger (onEdit never
// sees them): audited as that person's, and read by the next execution; an edit elsewhere costs no service call.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { council, ok, setSetting, start } from '../../council-helpers.js';
import { records } from '../../helpers.js';

const EDITOR = 'colleague@example.com';

const events = (rt: Runtime, event: string) =>
  records(rt, 'audit')
    .filter((r) => r.event === event)
    .map((r) => ({ actor: r.actor, tab: r.tab, key: r.row_key, payload: JSON.parse(String(r.payload_json)) }));

const verify = async (rt: Runtime) => ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
const rowOf = (rt: Runtime, key: string) => records(rt, 'settings').findIndex((r) => r.key === key) + 2;

describe('the on-change trigger', () => {
  it('audits a deleted Settings row as the person who deleted it, and the next tick reads Settings without it', async () => {
    const rt = await council({ demo: true });
    // A budget of 0 s: a tick takes no work. The tick reads (and caches) Settings with it.
    await setSetting(rt, 'queue.tick_budget_seconds', '0');
    await start(rt);
    const starved = ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(starved).toMatchObject({ processed: 0, reason: 'time budget spent' });

    const version = Number(rt.scriptProperties.get('KAIGI_CONFIG_VERSION'));
    const runs = await rt.change('Settings', { kind: 'deleteRows', at: rowOf(rt, 'queue.tick_budget_seconds') });
    expect(runs.map((r) => [r.fn, r.ok])).toEqual([['onConfigChange', true]]);
    expect(rowOf(rt, 'queue.tick_budget_seconds')).toBe(1);
    expect(Number(rt.scriptProperties.get('KAIGI_CONFIG_VERSION'))).toBe(version + 1);
    const [removed] = events(rt, 'config_row_removed');
    expect(removed).toMatchObject({
      actor: rt.owner,
      tab: 'Settings',
      key: 'queue.tick_budget_seconds',
      payload: { change: 'REMOVE_ROW' },
    });
    // The rows below moved up: recorded where they now stand, so the chain still verifies.
    expect(Object.keys(events(rt, 'config_rows_moved')[0].payload.moved).length).toBeGreaterThan(0);
    expect((await verify(rt)).ok).toBe(true);

    // The next tick reads Settings from the sheet: the default budget, so the work runs.
    const fed = ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(fed.processed).toBeGreaterThan(0);

    // Setup puts the default row back and records it; the chain still verifies.
    ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(rowOf(rt, 'queue.tick_budget_seconds')).toBeGreaterThan(1);
    expect((await verify(rt)).ok).toBe(true);
  }, 120_000);

  it("names the person, records an inserted row's shift, and audits nothing for a change outside the configuration", async () => {
    const rt = await council({ demo: false });
    // A colleague in the owner's Workspace domain: Google names them in the event.
    rt.users.add([EDITOR], true);
    const runs = await rt.change('Agents', { kind: 'insertRows', at: 3, count: 2 }, { user: EDITOR });
    for (const r of runs) ok(r);
    const [moved] = events(rt, 'config_rows_moved');
    expect(moved).toMatchObject({ actor: EDITOR, tab: 'Agents' });
    expect(moved.payload.change).toBe('INSERT_ROW');
    expect(Object.values(moved.payload.moved).every((row) => Number(row) > 4)).toBe(true);
    expect(events(rt, 'config_row_removed')).toEqual([]);
    expect((await verify(rt)).ok).toBe(true);
    // A second change elsewhere finds nothing more to record.
    const before = records(rt, 'audit').length;
    for (const r of await rt.change('KPI', { kind: 'insertRows', at: 2 })) ok(r);
    expect(records(rt, 'audit').length).toBe(before);
  }, 120_000);

  it('audits rows inserted and deleted by an editor Google does not name, and the cache sees each change', async () => {
    const rt = await council({ demo: true });
    // A gmail.com editor of a Workspace owner's sheet: the event carries no user, Session no email.
    const outsider = 'someone@gmail.com';
    rt.users.add([outsider]);
    await setSetting(rt, 'queue.tick_budget_seconds', '0');
    await start(rt);
    expect(ok(await rt.run('tick', [], { kind: 'trigger' })).processed).toBe(0);
    const version = () => Number(rt.scriptProperties.get('KAIGI_CONFIG_VERSION'));
    const v0 = version();

    for (const r of await rt.change('Settings', { kind: 'insertRows', at: 3 }, { user: outsider })) ok(r);
    expect(version()).toBe(v0 + 1);
    const [moved] = events(rt, 'config_rows_moved');
    expect(moved).toMatchObject({ actor: 'an editor (email not given)', tab: 'Settings' });
    expect(moved.payload.change).toBe('INSERT_ROW');

    const at = rowOf(rt, 'queue.tick_budget_seconds');
    for (const r of await rt.change('Settings', { kind: 'deleteRows', at }, { user: outsider })) ok(r);
    expect(version()).toBe(v0 + 2);
    const [removed] = events(rt, 'config_row_removed');
    expect(removed).toMatchObject({ actor: 'an editor (email not given)', key: 'queue.tick_budget_seconds' });
    expect((await verify(rt)).ok).toBe(true);
    // The configuration cache moved on: the next tick reads Settings without the 0 s budget, so the work runs.
    expect(ok(await rt.run('tick', [], { kind: 'trigger' })).processed).toBeGreaterThan(0);
  }, 120_000);

  it('returns before any service call for an edit outside the configuration tabs', async () => {
    const rt = await council();
    const version = rt.scriptProperties.get('KAIGI_CONFIG_VERSION');
    const runs = await rt.edit('Inbox', 5, 2, [['a note']]);
    // onConfigEdit, then onConfigChange (changeType EDIT): neither calls a service.
    expect(runs.map((r) => [r.fn, r.ok, r.counts.calls])).toEqual([
      ['onConfigEdit', true, 0],
      ['onConfigChange', true, 0],
    ]);
    expect(rt.scriptProperties.get('KAIGI_CONFIG_VERSION')).toBe(version);
    // An edit of Settings is onConfigEdit's: onConfigChange still calls nothing.
    const config = await rt.edit('Settings', 2, 2, [['en']]);
    expect(config[1].counts.calls).toBe(0);
    expect(Number(rt.scriptProperties.get('KAIGI_CONFIG_VERSION'))).toBe(Number(version) + 1);
  }, 120_000);
});
