// The Dashboard preview's drawing: chart data from a range's rows, SVG per chart type with its text escaped, the
// page's figures, and a Dashboard sheet with no charts.
import { describe, expect, it } from 'vitest';
import { Workbook } from '../../runtime/host/workbook.js';
import { chartData, drawChart } from '../../runtime/web/chart-svg.js';
import { dashboardPage } from '../../runtime/web/dashboard.js';
import { injectShim } from '../../runtime/web/pages.js';

const XSS = '<img src=x onerror=alert(1)>';
const ROWS = [
  ['day', 'tokens', 'cost'],
  ['2026-01-01', 1200, 0.5],
  ['2026-01-02', 800, ''],
  [XSS, 300, 0.1],
];
const labels = ROWS.map((r) => r.map(String));

describe('chart SVG', () => {
  it('reads categories from the first column and series named by the header row', () => {
    const d = chartData(ROWS, labels);
    expect(d.categories).toEqual(['2026-01-01', '2026-01-02', XSS]);
    expect(d.series).toEqual([
      { name: 'tokens', values: [1200, 800, 300] },
      { name: 'cost', values: [0.5, null, 0.1] },
    ]);
    // No header row: every row is data, the series get numbered names.
    expect(chartData([['a', 1]], [['a', '1']]).series).toEqual([{ name: 'Series 1', values: [1] }]);
    // The chart's numHeaders option wins over the guess.
    expect(chartData(ROWS, labels, 0).categories[0]).toBe('day');
    expect(
      chartData(
        [
          ['a', 1],
          ['b', 2],
        ],
        [
          ['a', '1'],
          ['b', '2'],
        ],
        1,
      ).series,
    ).toEqual([{ name: '1', values: [2] }]);
  });

  it('puts a series on a right axis of its own and names every series in full in the legend', () => {
    const rows = [
      ['Day', 'Tokens', 'Cost (USD)'],
      ['2026-01-01', 12000, 0.02],
      ['2026-01-02', 8000, 0.01],
    ];
    const data = chartData(
      rows,
      rows.map((r) => r.map(String)),
    );
    const options = {
      'series.0.type': 'bars',
      'series.0.targetAxisIndex': 0,
      'series.1.type': 'line',
      'series.1.targetAxisIndex': 1,
      'vAxes.0.title': 'Tokens',
      'vAxes.1.title': 'Cost (USD)',
    };
    const svg = drawChart({ id: 5, chartType: 'COMBO', options }, data);
    expect(svg.match(/class="bar"/g)).toHaveLength(2);
    // Cost scaled on its own: its line spans the plot's height, not a flat line at zero beside 12,000 tokens.
    const ys = [...svg.matchAll(/class="line right-axis" points="([^"]+)"/g)].flatMap((m) =>
      m[1].split(' ').map((p) => Number(p.split(',')[1])),
    );
    expect(ys).toHaveLength(2);
    expect(Math.abs(ys[0] - ys[1])).toBeGreaterThan(50);
    expect(svg).toContain('class="axis right"');
    expect(svg.match(/class="right-tick"/g)?.length).toBeGreaterThan(2);
    expect(svg).toMatch(/class="axis-title">Cost \(USD\)</);
    // Without the option both share one axis and the cost line lies on it.
    expect(drawChart({ id: 6, chartType: 'COMBO', options: {} }, data)).not.toContain('right-axis');
    // Legends in full, wrapped to a second row rather than cut short.
    const long = ['Escalated to a person (3)', 'Closed (measured) (12)', 'Timed out (0)', '人の判断待ち (2)'];
    const pieRows = [['Status', 'Discussions'], ...long.map((n, i) => [n, i + 1])];
    const pie = drawChart(
      { id: 7, chartType: 'PIE', options: {} },
      chartData(
        pieRows,
        pieRows.map((r) => r.map(String)),
      ),
    );
    for (const n of long) expect(pie).toContain(`>${n}</text>`);
    expect(pie).not.toContain('…');
    expect(pie).toMatch(/viewBox="0 0 460 2[7-9]\d"/);
  });

  it('draws each type, named by its title, with every piece of text escaped', () => {
    const data = chartData(ROWS, labels);
    for (const chartType of ['COLUMN', 'BAR', 'LINE', 'AREA', 'COMBO', 'PIE', 'SCATTER']) {
      const svg = drawChart({ id: 7, chartType, options: { title: XSS, colors: ['red', '"><script>'] } }, data);
      expect(svg.startsWith('<svg ')).toBe(true);
      expect(svg).toContain('role="img" aria-label="&lt;img src=x onerror=alert(1)&gt;"');
      expect(svg).not.toMatch(/<img|<script/);
      expect(svg).toContain('&lt;img src=x onerror');
    }
    const column = drawChart({ id: 1, chartType: 'COLUMN', options: {} }, data);
    // Two series over three days, one cell empty: five bars; the title falls back to the chart's id.
    expect(column.match(/class="bar"/g)).toHaveLength(5);
    expect(column).toContain('<title>Chart 1</title>');
    expect(drawChart({ id: 2, chartType: 'PIE', options: {} }, data).match(/class="slice"/g)).toHaveLength(3);
    expect(drawChart({ id: 3, chartType: 'LINE', options: {} }, data).match(/class="line"/g)).toHaveLength(2);
    expect(drawChart({ id: 4, chartType: 'SCATTER', options: {} }, data)).toContain('SCATTER drawn as lines');
    // A combo chart: the first series as columns, the second as a line.
    const combo = drawChart({ id: 5, chartType: 'COMBO', options: {} }, data);
    expect(combo.match(/class="bar"/g)).toHaveLength(3);
    expect(combo.match(/class="line"/g)).toHaveLength(1);
  });
});

describe('dashboard page', () => {
  const wb = () => {
    const w = Workbook.create({});
    const sheet = w.sheets[0];
    sheet.name = 'ダッシュボード';
    w.setValues(sheet, 1, 1, ROWS.length, 3, ROWS);
    return { w, sheet };
  };

  it('has a figure per chart with its id, type and title, and reads ranges of other sheets', () => {
    const { w, sheet } = wb();
    // The days live on another sheet, named with a quote.
    const other = w.insertSheet("Sato's data");
    w.setValues(
      other,
      1,
      1,
      4,
      1,
      ROWS.map((r) => [r[0]]),
    );
    sheet.charts.push(
      {
        id: 5,
        chartType: 'LINE',
        ranges: ['A1:B4'],
        position: { row: 9, col: 1, offsetX: 0, offsetY: 0 },
        options: {},
      },
      {
        id: 6,
        chartType: 'BAR',
        ranges: ["'Sato''s data'!A1:A4", 'C1:C4'],
        position: { row: 1, col: 1, offsetX: 0, offsetY: 0 },
        options: { title: XSS },
      },
    );
    const html = dashboardPage(w, 'ja', 'Asia/Tokyo');
    const figures = html.match(/<figure [^>]*>/g) ?? [];
    // Top to bottom on the sheet.
    expect(figures[0]).toContain('data-chart-id="6" data-chart-type="BAR" aria-label="&lt;img');
    expect(figures[1]).toContain('data-chart-id="5" data-chart-type="LINE" aria-label="Chart 5"');
    expect(html).toContain('<figcaption>&lt;img src=x onerror=alert(1)&gt;</figcaption>');
    expect(html).not.toContain('<img');
    expect(html).toContain('<html lang="ja">');
    expect(html.match(/class="bar"/g)).toHaveLength(2);
  });

  it('says so when the Dashboard sheet has no charts, or when there is none', () => {
    expect(dashboardPage(wb().w, 'en', 'Asia/Tokyo')).toContain('There are no charts on the Dashboard sheet.');
    expect(dashboardPage(wb().w, 'ja', 'Asia/Tokyo')).toContain('ダッシュボードのシートにグラフがありません。');
    expect(dashboardPage(Workbook.create({}), 'en', 'Asia/Tokyo')).toContain('There is no Dashboard sheet.');
  });

  it("names the script's time zone its days are counted in", () => {
    expect(dashboardPage(Workbook.create({ timeZone: 'Europe/Paris' }), 'en', 'Europe/Paris')).toContain(
      'Days are counted in the script&#39;s time zone, Europe/Paris.',
    );
    expect(dashboardPage(Workbook.create({}), 'ja', 'Asia/Tokyo')).toContain('スクリプトのタイムゾーン Asia/Tokyo');
  });
});

describe('shim injection', () => {
  it('goes right after <head>, before any script, and adds a title only when the page has none', () => {
    const page = '<!DOCTYPE html><html><head><script>run()</script></head><body></body></html>';
    const out = injectShim(page, { nonce: 'N"<', locale: 'en', title: 'T<', width: 300 });
    expect(out.indexOf('/__gs/shim.js')).toBeLessThan(out.indexOf('<script>run()'));
    expect(out).toContain('data-nonce="N&quot;&lt;"');
    expect(out).toContain('<title>T&lt;</title>');
    expect(injectShim('<p>x</p>', { nonce: 'n', locale: 'ja', title: 't' })).toMatch(/^<head><script src=/);
    expect(injectShim('<head><title>a</title></head>', { nonce: 'n', locale: 'ja', title: 't' })).not.toContain(
      '<title>t',
    );
  });
});
