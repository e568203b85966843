// The only code that touches the Sheets chart API: keeps one native chart per Dashboard table, pointed at its range.
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Chart = GoogleAppsScript.Spreadsheet.EmbeddedChart;

export interface ChartSpec {
  // Kept in the chart's options so a refresh finds its own chart again (titles change with the language).
  id: string;
  type: 'PIE' | 'COLUMN' | 'LINE' | 'COMBO';
  title: string;
  // The table's cells, header row included (A1 on the Dashboard tab).
  a1: string;
  // Where the chart floats (row, column of its top-left corner).
  row: number;
  column: number;
}

const ID_OPTION = 'kaigi.chart';

function build(sheet: Sheet, spec: ChartSpec, builder: GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder): Chart {
  const typed = builder
    .clearRanges()
    .addRange(sheet.getRange(spec.a1))
    .setChartType(Charts.ChartType[spec.type])
    .setNumHeaders(1)
    .setPosition(spec.row, spec.column, 0, 0)
    .setOption(ID_OPTION, spec.id)
    .setOption('title', spec.title);
  return typed.build();
}

// Creates the charts that are missing and repoints those whose range or title changed; an unchanged chart is not
// touched, so a refresh whose tables kept their size costs one getCharts() round trip here.
export function ensureCharts(sheet: Sheet, specs: ChartSpec[]): { created: number; updated: number } {
  const existing = sheet.getCharts();
  let created = 0;
  let updated = 0;
  for (const spec of specs) {
    const chart = existing.find((c) => c.getOptions().get(ID_OPTION) === spec.id);
    if (!chart) {
      sheet.insertChart(build(sheet, spec, sheet.newChart()));
      created++;
      continue;
    }
    const ranges = chart.getRanges().map((r) => r.getA1Notation());
    if (ranges.length === 1 && ranges[0] === spec.a1 && chart.getOptions().get('title') === spec.title) continue;
    sheet.updateChart(build(sheet, spec, chart.modify()));
    updated++;
  }
  return { created, updated };
}
