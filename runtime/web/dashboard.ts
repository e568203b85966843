// GET /dashboard of `kaigi serve`: every chart recorded on the Dashboard sheet, drawn as inline SVG from its spec and
// the current values of its ranges (chart-svg.ts), one <figure> per chart named by its title.
import type { ChartModel, SheetModel } from '../host/sheet-model.js';
import { parseA1 } from '../host/a1.js';
import type { Workbook } from '../host/workbook.js';
import type { Runtime } from '../runtime.js';
import { escapeHtml } from '../gas/html.js';
import { chartData, drawChart } from './chart-svg.js';
import { errorPage, fromLoopback, localeOf } from './pages.js';
import { type HttpRoute, sendText } from './route-table.js';

// The Dashboard tab's names, English and Japanese (sheets-schema/tabs-data.ts).
const DASHBOARD_SHEETS = ['Dashboard', 'ダッシュボード'];

const TEXT = {
  ja: {
    title: 'ダッシュボード',
    none: 'ダッシュボードのシートにグラフがありません。',
    noSheet: 'ダッシュボードのシートがありません。',
    zone: (z: string) => `日付はスクリプトのタイムゾーン ${z} で数えています。`,
  },
  en: {
    title: 'Dashboard',
    none: 'There are no charts on the Dashboard sheet.',
    noSheet: 'There is no Dashboard sheet.',
    zone: (z: string) => `Days are counted in the script's time zone, ${z}.`,
  },
};

// A chart's ranges joined side by side, as values and as the sheet displays them; a range on another sheet names it.
function rangeRows(wb: Workbook, sheet: SheetModel, ranges: string[]): { values: unknown[][]; labels: string[][] } {
  const values: unknown[][] = [];
  const labels: string[][] = [];
  for (const a1 of ranges) {
    const g = parseA1(a1);
    const from = g.sheetName !== undefined ? wb.sheetByName(g.sheetName) : sheet;
    if (!from) throw new Error(`chart range ${a1} names no sheet of the workbook`);
    const rows = g.openRows ? Math.max(from.cells.length - g.row + 1, 0) : g.numRows;
    const cols = g.openCols ? from.maxCols - g.col + 1 : g.numCols;
    if (rows <= 0 || cols <= 0) continue;
    const v = wb.getValues(from, g.row, g.col, rows, cols);
    const l = wb.getDisplayValues(from, g.row, g.col, rows, cols);
    for (let r = 0; r < rows; r++) {
      values[r] = (values[r] ?? []).concat(v[r]);
      labels[r] = (labels[r] ?? []).concat(l[r]);
    }
  }
  // Open-ended ranges end at the last row with anything in its first column.
  while (values.length && values[values.length - 1].every((x) => x === '' || x === null)) {
    values.pop();
    labels.pop();
  }
  return { values, labels };
}

function figure(wb: Workbook, sheet: SheetModel, chart: ChartModel): string {
  const title =
    typeof chart.options.title === 'string' && chart.options.title ? chart.options.title : `Chart ${chart.id}`;
  const rows = rangeRows(wb, sheet, chart.ranges);
  const svg = drawChart(chart, chartData(rows.values, rows.labels, chart.options.numHeaders));
  return (
    `<figure class="chart" data-chart-id="${chart.id}" data-chart-type="${escapeHtml(chart.chartType)}" aria-label="${escapeHtml(title)}">` +
    `<figcaption>${escapeHtml(title)}</figcaption>${svg}</figure>`
  );
}

// The whole page; charts in the order they sit on the sheet (top to bottom, then left to right).
// `zone`: the script's time zone, whose calendar the Dashboard's days are counted on.
export function dashboardPage(wb: Workbook, locale: string, zone: string, names = DASHBOARD_SHEETS): string {
  const lang = locale.toLowerCase().startsWith('ja') ? 'ja' : 'en';
  const t = TEXT[lang];
  const sheet = names.map((n) => wb.sheetByName(n)).find((s) => s !== undefined);
  const charts = (sheet?.charts ?? [])
    .slice()
    .sort((a, b) => a.position.row - b.position.row || a.position.col - b.position.col || a.id - b.id);
  const body = !sheet
    ? `<p class="empty">${t.noSheet}</p>`
    : charts.length
      ? charts.map((c) => figure(wb, sheet, c)).join('\n')
      : `<p class="empty">${t.none}</p>`;
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<title>${escapeHtml(`Kaigi — ${t.title}`)}</title>
<style>
body{font-family:Roboto,"Noto Sans CJK JP",Arial,sans-serif;margin:16px;color:#202124;background:#fff}
h1{font-size:20px;font-weight:400}
main{display:flex;flex-wrap:wrap;gap:16px}
figure.chart{margin:0;padding:8px;border:1px solid #dadce0;border-radius:8px}
figcaption{font-size:14px;font-weight:500;margin:4px 0 0 8px}
.empty{color:#5f6368}
.zone{color:#5f6368;font-size:12px}
</style>
</head>
<body>
<h1>${escapeHtml(t.title)}</h1>
<p class="zone" id="time-zone-note">${escapeHtml(t.zone(zone))}</p>
<main>
${body}
</main>
</body>
</html>
`;
}

export function dashboardRoute(rt: Runtime, host: string, defaultLocale: string): HttpRoute {
  return {
    path: '/dashboard',
    methods: ['GET', 'HEAD'],
    handle: ({ req, res, url }) => {
      if (!fromLoopback(req, host)) return errorPage(res, 403, 'Forbidden', 'Only this machine may open it.');
      const locale = localeOf(url, defaultLocale);
      if (!locale) return errorPage(res, 400, 'Bad Request', 'locale must look like ja, en or en_US.');
      sendText(res, 200, 'text/html', dashboardPage(rt.workbook, locale, rt.manifest.timeZone));
    },
  };
}
