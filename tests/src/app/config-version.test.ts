// The configuration cache's per-tab version: Kaigi's own change of one tab drops that tab's cached copy and keeps the
// others'; a person's edit still moves every tab on.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { decodeConfigRows } from '../../../src/store/store-format.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { council, ok, start } from '../../council-helpers.js';
import { gas } from '../../helpers.js';

// The name a tab's cached copy goes under now (src/store/config-version.ts), and whether its first part is there.
function nameOf(rt: Runtime, tab: string): string {
  const version = rt.scriptProperties.get(PROPERTY_KEYS.configVersion) ?? '0';
  const own = rt.scriptProperties.get(`${PROPERTY_KEYS.configTabVersion}${tab}`);
  return own ? `kaigi:cfg:${version}.${own}:${tab}:0` : `kaigi:cfg:${version}:${tab}:0`;
}
// The rows of a tab's cached copy (one part), and the tab's rows as the sheet holds them.
async function cachedRows(rt: Runtime, tab: string): Promise<unknown> {
  const head = (await gas(
    rt,
    `return CacheService.getScriptCache().get(${JSON.stringify(nameOf(rt, tab))})`,
  )) as string;
  expect(head.slice(0, 2)).toBe('1|');
  return decodeConfigRows(head.slice(2));
}
function settingsRows(rt: Runtime): unknown[][] {
  const s = rt.workbook.sheetByName('Settings')!;
  return rt.workbook.getValues(s, 2, 1, rt.workbook.lastRow(s) - 1, 4);
}
const cached = async (rt: Runtime, tab: string): Promise<boolean> =>
  (await gas(rt, `return CacheService.getScriptCache().get(${JSON.stringify(nameOf(rt, tab))})`)) !== null;

describe('the configuration cache per tab', () => {
  it('drops only Settings for a setting changed through Kaigi, reads the new value, and a person’s edit drops every tab', async () => {
    const rt = await council();
    const global = rt.scriptProperties.get(PROPERTY_KEYS.configVersion);
    // Setup cached every configuration tab.
    expect(await cached(rt, 'prompts')).toBe(true);
    expect(await cached(rt, 'settings')).toBe(true);
    ok(await rt.run('updateSetting', [{ key: 'queue.tick_budget_seconds', value: '0' }], { kind: 'server' }));
    expect(rt.scriptProperties.get(PROPERTY_KEYS.configVersion)).toBe(global);
    // Settings is cached at once under its new name, as the sheet now holds it.
    expect(await cachedRows(rt, 'settings')).toEqual(settingsRows(rt));
    expect(await cached(rt, 'prompts')).toBe(true);
    expect(await cached(rt, 'agents')).toBe(true);
    // The next execution uses the new value (a budget of 0 s: no work).
    await start(rt);
    expect(ok(await rt.run('tick', [], { kind: 'trigger' }))).toMatchObject({ processed: 0 });
    // Changed again: the tab gets another token, never one used before.
    const first = nameOf(rt, 'settings');
    ok(await rt.run('updateSetting', [{ key: 'queue.tick_budget_seconds', value: '300' }], { kind: 'server' }));
    expect(nameOf(rt, 'settings')).not.toBe(first);
    expect(ok(await rt.run('tick', [], { kind: 'trigger' })).processed).toBeGreaterThan(0);
    // A person's edit of Prompts moves the version every tab's name starts with.
    for (const r of await rt.edit('Prompts', 2, 6, [['edited by hand']])) ok(r);
    expect(Number(rt.scriptProperties.get(PROPERTY_KEYS.configVersion))).toBe(Number(global) + 1);
    expect(await cached(rt, 'prompts')).toBe(false);
    expect(await cached(rt, 'settings')).toBe(false);
  }, 120_000);
});
