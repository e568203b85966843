// Dashboard charts are found again by the ids Sheets gave them (kept in a Script Property), never by an option of
// Kaigi's own, which Sheets does not keep: refreshes repoint the five charts and never add more.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { council, ok, setSetting, settle, start } from '../../../council-helpers.js';
import { gas } from '../../../helpers.js';

interface Seen {
  id: number;
  type: string;
  title: string;
  ranges: string[];
  row: number;
  column: number;
  // The chart's first row as Sheets reads it: the legend's names (the pie's are in its first column).
  header: string[];
  categories: string[];
  options: Record<string, unknown>;
}

// Options the Dashboard sets beyond the title.
const OPTION_KEYS = [
  'legend.position',
  'pieSliceText',
  'series.0.type',
  'series.0.targetAxisIndex',
  'series.1.type',
  'series.1.targetAxisIndex',
  'vAxes.0.title',
  'vAxes.1.title',
];

async function charts(rt: Runtime): Promise<Seen[]> {
  return gas(
    rt,
    `return SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dashboard').getCharts().map((c) => ({
       id: c.getChartId(),
       type: c.getType(),
       title: c.getOptions().get('title'),
       header: c.getRanges()[0].getValues()[0].map(String),
       categories: c.getRanges()[0].getValues().slice(1).map((r) => String(r[0])),
       options: Object.fromEntries(${JSON.stringify(OPTION_KEYS)}.map((k) => [k, c.getOptions().get(k)]).filter((e) => e[1] !== null)),
       ranges: c.getRanges().map((r) => r.getA1Notation()),
       row: c.getContainerInfo().getAnchorRow(),
       column: c.getContainerInfo().getAnchorColumn(),
     }));`,
  );
}

const refresh = async (rt: Runtime) => ok(await rt.run('refreshDashboard', [], { kind: 'menu' }));

describe('Dashboard charts', () => {
  it('exist right after setup, before any tick or refresh: five, labelled, cost on an axis of its own', async () => {
    const rt = await council({ demo: false });
    expect(rt.executions.map((e) => e.fn)).toEqual(['setup']);
    const seen = await charts(rt);
    expect(seen.map((c) => c.type)).toEqual(['PIE', 'COLUMN', 'COLUMN', 'LINE', 'COMBO']);
    // The workbook's language is Japanese by default: legends by label, never a column name.
    expect(seen.map((c) => c.header.slice(1))).toEqual([
      ['議論数'],
      ['所要時間（秒）', '目標（秒）'],
      ['表明信頼度', '算出信頼度'],
      ['予測どおり', '予測は外れ', '予測の判定は保留'],
      ['トークン数', 'コスト（USD）'],
    ]);
    // The pie's legend: each status by its label with its count.
    expect(seen[0].categories).toContain('決定済み (0)');
    // Tokens as columns on the left axis, cost as a line on the right one, each axis titled.
    expect(seen[4].options).toMatchObject({
      'series.0.type': 'bars',
      'series.0.targetAxisIndex': 0,
      'series.1.type': 'line',
      'series.1.targetAxisIndex': 1,
      'vAxes.0.title': 'トークン数',
      'vAxes.1.title': 'コスト（USD）',
    });
  }, 120_000);

  it('follows the workbook locale: English legends, titles and status labels with their counts', async () => {
    const rt = await council();
    await setSetting(rt, 'locale', 'en');
    await start(rt);
    await settle(rt);
    await refresh(rt);
    const seen = await charts(rt);
    expect(seen).toHaveLength(5);
    expect(seen.map((c) => c.title)).toEqual([
      'Discussions by status',
      'Phase latency vs target (s)',
      'Stated and computed confidence',
      'Verdict rates by week',
      'Tokens and cost per day',
    ]);
    expect(seen.map((c) => c.header)).toEqual([
      ['Status', 'Discussions'],
      ['Phase', 'Time taken (s)', 'Target (s)'],
      ['Phase', 'Stated confidence', 'Computed confidence'],
      ['Week', 'Forecast confirmed', 'Forecast missed', 'Forecast inconclusive'],
      ['Day', 'Tokens', 'Cost (USD)'],
    ]);
    expect(seen[0].categories.join(' ')).toMatch(/Decided \(1\)/);
    expect(seen[4].options).toMatchObject({ 'vAxes.0.title': 'Tokens', 'vAxes.1.title': 'Cost (USD)' });
    // No column name and no enum value in anything a chart shows.
    const shown = seen.flatMap((c) => [c.title, ...c.header, ...c.categories]).join('\n');
    expect(shown).not.toMatch(/[a-z]+_[a-z_]+|[A-Z]+_[A-Z_]+|\b(DECIDED|PENDING|OPEN|CLOSED)\b/);
  }, 120_000);

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
