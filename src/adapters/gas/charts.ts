// The only code that touches the Sheets chart API: keeps one native chart per Dashboard table, pointed at its range.
// Sheets keeps a chart's fixed spec and nothing else (no option of Kaigi's own), so a chart is found again by the
// id Sheets gave it (getChartId(), kept by the caller), or else by where it is anchored, or by the table it shows.
import type { ChartIds, ChartSpec } from '../../ports.js';
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Chart = GoogleAppsScript.Spreadsheet.EmbeddedChart;

function build(sheet: Sheet, spec: ChartSpec, builder: GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder): Chart {
  const typed = builder
    .clearRanges()
    .addRange(sheet.getRange(spec.a1))
    .setChartType(Charts.ChartType[spec.type])
    .setNumHeaders(1)
    .setPosition(spec.row, spec.column, 0, 0)
    .setOption('title', spec.title);
  for (const k of Object.keys(spec.options)) typed.setOption(k, spec.options[k]);
  return typed.build();
}

function anchoredAt(chart: Chart, spec: ChartSpec): boolean {
  const at = chart.getContainerInfo();
  return at.getAnchorRow() === spec.row && at.getAnchorColumn() === spec.column;
}

function showsTable(chart: Chart, spec: ChartSpec): boolean {
  const ranges = chart.getRanges();
  return ranges.length === 1 && ranges[0].getA1Notation() === spec.a1;
}

// Whether a chart already is what the spec asks for: its one range, title, options, type and anchor.
function current(chart: Chart, spec: ChartSpec): boolean {
  const options = chart.getOptions();
  return (
    showsTable(chart, spec) &&
    options.get('title') === spec.title &&
    Object.keys(spec.options).every((k) => options.get(k) === spec.options[k]) &&
    String(chart.modify().getChartType()) === spec.type &&
    anchoredAt(chart, spec)
  );
}

// The chart a spec owns among those not yet claimed: by its kept id, else where it should be anchored (a chart made
// before ids were kept, or whose id was lost), else the one showing its table.
function findChart(charts: Chart[], claimed: Record<number, true>, spec: ChartSpec, ids: ChartIds): Chart | undefined {
  const free = charts.filter((c) => !claimed[c.getChartId() as number]);
  const kept = ids[spec.id];
  return (
    (kept === undefined ? undefined : free.find((c) => c.getChartId() === kept)) ??
    free.find((c) => anchoredAt(c, spec)) ??
    free.find((c) => showsTable(c, spec))
  );
}

// Creates the charts that are missing and repoints those whose range, title, type or place changed; an unchanged
// chart is not touched, so a refresh whose tables kept their size costs one getCharts() round trip here. A chart
// inserted now gets its id only from a second getCharts() (Sheets gives the inserted object none), matched by anchor.
export function ensureCharts(
  sheet: Sheet,
  specs: ChartSpec[],
  known: ChartIds,
): { created: number; updated: number; ids: ChartIds } {
  const existing = sheet.getCharts();
  const claimed: Record<number, true> = {};
  const ids: ChartIds = {};
  const inserted: ChartSpec[] = [];
  let updated = 0;
  for (const spec of specs) {
    const chart = findChart(existing, claimed, spec, known);
    if (!chart) {
      sheet.insertChart(build(sheet, spec, sheet.newChart()));
      inserted.push(spec);
      continue;
    }
    const id = chart.getChartId() as number;
    claimed[id] = true;
    ids[spec.id] = id;
    if (current(chart, spec)) continue;
    sheet.updateChart(build(sheet, spec, chart.modify()));
    updated++;
  }
  if (inserted.length) {
    const now = sheet.getCharts();
    for (const spec of inserted) {
      const chart = now.find((c) => !claimed[c.getChartId() as number] && anchoredAt(c, spec));
      if (!chart) continue;
      claimed[chart.getChartId() as number] = true;
      ids[spec.id] = chart.getChartId() as number;
    }
  }
  return { created: inserted.length, updated, ids };
}
