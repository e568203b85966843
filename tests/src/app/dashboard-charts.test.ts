// Dashboard charts are found again by the ids Sheets gave them (kept in a Script Property), never by an option of
// Kaigi's own, which Sheets does not keep: refreshes repoint the five charts and never add more.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { council, ok, settle, start } from '../../council-helpers.js';
import { gas } from '../../helpers.js';

interface Seen {
  id: number;
  title: string;
  ranges: string[];
  row: number;
  column: number;
}

async function charts(rt: Runtime): Promise<Seen[]> {
  return gas(
    rt,
    `return SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dashboard').getCharts().map((c) => ({
       id: c.getChartId(),
       title: c.getOptions().get('title'),
       ranges: c.getRanges().map((r) => r.getA1Notation()),
       row: c.getContainerInfo().getAnchorRow(),
       column: c.getContainerInfo().getAnchorColumn(),
     }));`,
  );
}

const refresh = async (rt: Runtime) => ok(await rt.run('refreshDashboard', [], { kind: 'menu' }));

describe('Dashboard charts', () => {
  it('ten refreshes leave exactly five charts, the same ones, repointed as the tables grow', async () => {
    const rt = await council();
    for (let i = 0; i < 5; i++) await refresh(rt);
    const first = await charts(rt);
    expect(first).toHaveLength(5);
    const ids = JSON.parse(String(rt.scriptProperties.get(PROPERTY_KEYS.dashboardCharts)));
    expect(ids).toEqual({ v: 1, ids: Object.fromEntries(first.map((c, i) => [`dashboard-${i + 1}`, c.id])) });
    // A discussion lengthens the tables: the same charts now show the longer ranges.
    await start(rt);
    await settle(rt);
    for (let i = 0; i < 5; i++) await refresh(rt);
    const after = await charts(rt);
    expect(after.map((c) => c.id)).toEqual(first.map((c) => c.id));
    expect(after.map((c) => c.ranges)).not.toEqual(first.map((c) => c.ranges));
    // An unchanged Dashboard: no chart written.
    const again = await rt.run('refreshDashboard', [], { kind: 'menu' });
    expect(again.counts.byOp['sh.chartUpsert']).toBeUndefined();
  }, 120_000);

  it('adopts charts an earlier release made (found where they are anchored) instead of adding five more', async () => {
    const rt = await council();
    await refresh(rt);
    const made = await charts(rt);
    // As a workbook from before the ids were kept: the property is not there.
    rt.scriptProperties.delete(PROPERTY_KEYS.dashboardCharts);
    await refresh(rt);
    expect((await charts(rt)).map((c) => c.id)).toEqual(made.map((c) => c.id));
    // A chart a person deleted is made again; the other four stay.
    await gas(
      rt,
      `const sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dashboard');
       sh.removeChart(sh.getCharts()[2]);`,
    );
    await refresh(rt);
    const now = await charts(rt);
    expect(now).toHaveLength(5);
    expect(now.filter((c) => made.some((m) => m.id === c.id))).toHaveLength(4);
  }, 120_000);
});
