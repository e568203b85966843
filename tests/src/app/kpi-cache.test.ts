// The council's cached copy of the KPI tab: a hand edit moves it on at once, and its age is bounded by a Setting.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { decodeConfigRows } from '../../../src/store/store-format.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { council, ok, start } from '../../council-helpers.js';
import { gas } from '../../helpers.js';

// The name the KPI tab's cached copy goes under now (src/store/config-version.ts).
function kpiName(rt: Runtime): string {
  const version = rt.scriptProperties.get(PROPERTY_KEYS.configVersion) ?? '0';
  const own = rt.scriptProperties.get(`${PROPERTY_KEYS.configTabVersion}kpi`);
  return own ? `kaigi:cfg:${version}.${own}:kpi` : `kaigi:cfg:${version}:kpi`;
}
// The cached copy's rows (every part joined), or null when there is none under the current name.
async function cachedKpi(rt: Runtime): Promise<unknown[][] | null> {
  const names = Array.from({ length: 8 }, (_, i) => `${kpiName(rt)}:${i}`);
  const hit = (await gas(rt, `return CacheService.getScriptCache().getAll(${JSON.stringify(names)})`)) as Record<
    string,
    string
  >;
  const head = hit[names[0]];
  if (!head) return null;
  const count = Number(head.slice(0, head.indexOf('|')));
  const rows = decodeConfigRows(
    head.slice(head.indexOf('|') + 1) +
      names
        .slice(1, count)
        .map((n) => hit[n])
        .join(''),
  );
  // The first row is the time the copy was read (src/store/store.ts readCachedData).
  return rows?.slice(1) ?? null;
}
function kpiRows(rt: Runtime): unknown[][] {
  const s = rt.workbook.sheetByName('KPI')!;
  return rt.workbook.getValues(s, 2, 1, rt.workbook.lastRow(s) - 1, 5);
}
async function discuss(rt: Runtime): Promise<void> {
  await start(rt);
  ok(await rt.run('tick', [], { kind: 'trigger' }));
}

describe('the KPI tab cached for the council', () => {
  it('is cached by a discussion, moves on at a hand edit, and lives no longer than data.kpi_cache_seconds', async () => {
    const rt = await council();
    await discuss(rt);
    expect(await cachedKpi(rt)).toEqual(kpiRows(rt));
    // A person types a value: the cached copy goes at once, and the next discussion caches the tab as edited.
    const before = kpiName(rt);
    for (const r of await rt.edit('KPI', 2, 4, [[4242]])) ok(r);
    expect(kpiName(rt)).not.toBe(before);
    expect(await cachedKpi(rt)).toBeNull();
    await discuss(rt);
    const edited = await cachedKpi(rt);
    expect(edited?.[0]?.[3]).toBe(4242);
    expect(edited).toEqual(kpiRows(rt));
    // A change no trigger sees (written here behind Kaigi's back) is read again once the copy's age passes the
    // Setting, lowered after the copy was made.
    ok(await rt.run('updateSetting', [{ key: 'data.kpi_cache_seconds', value: '60' }], { kind: 'server' }));
    const s = rt.workbook.sheetByName('KPI')!;
    rt.workbook.setValues(s, 2, 4, 1, 1, [[777]]);
    rt.clock.advance(61_000);
    await discuss(rt);
    expect((await cachedKpi(rt))?.[0]?.[3]).toBe(777);
    // 0: read every time, nothing put in the cache (the copy there stays as it was).
    ok(await rt.run('updateSetting', [{ key: 'data.kpi_cache_seconds', value: '0' }], { kind: 'server' }));
    rt.workbook.setValues(s, 2, 4, 1, 1, [[888]]);
    await discuss(rt);
    expect((await cachedKpi(rt))?.[0]?.[3]).toBe(777);
  }, 120_000);
});
