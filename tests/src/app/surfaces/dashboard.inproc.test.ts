// The Dashboard in-process: after a discussion ends its tables are written and its charts drawn through the charts
// port, found again by their kept ids on the next refresh (none made twice), and repointed when a table grows.
import { describe, expect, it } from 'vitest';
import { refreshDashboardNow } from '../../../../src/app/surfaces/dashboard.js';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { decline, kaigi, settle } from '../inproc.js';

describe('the Dashboard in-process', () => {
  it('draws each chart once and keeps its id', () => {
    const k = kaigi();
    const first = refreshDashboardNow(k.council());
    expect(first.created).toBe(first.charts);
    const drawn = k.ports.charts.drawn.Dashboard;
    expect(drawn).toHaveLength(first.charts);
    const { ids } = JSON.parse(k.ports.properties.getProperty(PROPERTY_KEYS.dashboardCharts)!);
    expect((Object.values(ids) as number[]).sort()).toEqual(drawn.map((c) => c.id).sort());
    expect(refreshDashboardNow(k.council())).toMatchObject({ created: 0, updated: 0 });
    // A discussion that ended is counted: the tables are written again, nothing new is drawn.
    startDiscussion(decline('tanaka'), k.council());
    settle(k);
    const again = refreshDashboardNow(k.council());
    expect(again.created).toBe(0);
    expect(k.ports.charts.drawn.Dashboard).toHaveLength(first.charts);
    // The status table names each status with its count: one discussion now.
    const cells = k.ports.spreadsheet.getSheetByName('Dashboard')!.getDataRange().getValues().flat();
    expect(cells.filter((v) => /\(1\)$/.test(String(v)))).toHaveLength(1);
  });
});
