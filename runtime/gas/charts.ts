// Embedded charts and their builder; a chart reaches the host when the sheet inserts or updates it.
import type { ChartWire } from '../service-calls.js';
import { enumOf } from './bridge.js';
import type { Range, RangeSheet } from './range.js';

// What a chart needs of its sheet (Sheet, sheet.ts, which makes the charts): its name, and ranges by A1 notation on
// it or, with a sheet name, anywhere in its spreadsheet.
interface ChartSheet extends RangeSheet {
  getName(): string;
  getRange(a1: string): Range<ChartSheet>;
  getParent(): { getRange(a1: string): Range<ChartSheet> };
}

const ChartType = enumOf([
  'AREA',
  'BAR',
  'BUBBLE',
  'CANDLESTICK',
  'COLUMN',
  'COMBO',
  'GAUGE',
  'GEO',
  'HISTOGRAM',
  'LINE',
  'ORG',
  'PIE',
  'SCATTER',
  'SPARKLINE',
  'STEPPED_AREA',
  'TABLE',
  'TIMELINE',
  'TREEMAP',
  'WATERFALL',
]);
export const Charts = { ChartType, Position: enumOf(['TOP', 'RIGHT', 'BOTTOM', 'NONE']) };

// A range on the chart's own sheet is kept as plain A1; one on another sheet names it ('Data'!A1:B5), as a chart's
// data may come from any sheet of the spreadsheet.
function a1Of(chartSheet: ChartSheet, r: Range<ChartSheet>): string {
  const name = r.getSheet().getName();
  if (name === chartSheet.getName()) return r.getA1Notation();
  return `'${name.replace(/'/g, "''")}'!${r.getA1Notation()}`;
}

export class EmbeddedChart {
  constructor(
    private readonly sheet: ChartSheet,
    readonly w: ChartWire,
  ) {}
  // Null until the chart is in a sheet: a chart built and inserted stays without an id; getCharts() gives it one.
  getChartId(): number | null {
    return this.w.id ? this.w.id : null;
  }
  // Where the chart is anchored (its top-left cell) and offset from it, as setPosition() put it.
  getContainerInfo() {
    const p = this.w.position;
    return {
      getAnchorRow: () => p.row,
      getAnchorColumn: () => p.col,
      getOffsetX: () => p.offsetX,
      getOffsetY: () => p.offsetY,
    };
  }
  getRanges(): Range<ChartSheet>[] {
    return this.w.ranges.map((a) =>
      a.indexOf('!') >= 0 ? this.sheet.getParent().getRange(a) : this.sheet.getRange(a),
    );
  }
  // Google documents get() only for the option's value as it was set, and not in what form a list or an object
  // comes back. The harsher reading: a plain value (text, number, true/false) as set; a list or an object as null,
  // so no script can count on comparing one with what it sets.
  getOptions() {
    return {
      get: (k: string) => {
        const v = this.w.options[k];
        return v === undefined || v === null || typeof v === 'object' ? null : v;
      },
    };
  }
  modify(): EmbeddedChartBuilder {
    return new EmbeddedChartBuilder(this.sheet, {
      ...this.w,
      ranges: this.w.ranges.slice(),
      options: { ...this.w.options },
    });
  }
  getType(): string {
    return this.w.chartType;
  }
}

export class EmbeddedChartBuilder {
  constructor(
    protected readonly sheet: ChartSheet,
    protected readonly w: ChartWire,
  ) {}
  setChartType(t: string) {
    this.w.chartType = t;
    return this;
  }
  addRange(r: Range<ChartSheet>) {
    this.w.ranges.push(a1Of(this.sheet, r));
    return this;
  }
  clearRanges() {
    this.w.ranges = [];
    return this;
  }
  removeRange(r: Range<ChartSheet>) {
    const a1 = a1Of(this.sheet, r);
    this.w.ranges = this.w.ranges.filter((a) => a !== a1);
    return this;
  }
  setPosition(row: number, col: number, offsetX: number, offsetY: number) {
    this.w.position = { row, col, offsetX, offsetY };
    return this;
  }
  // Held by the builder as given; once inserted or updated, the sheet keeps only what its chart spec has a field for
  // (host/chart-spec.ts).
  setOption(k: string, v: unknown) {
    this.w.options[k] = v;
    return this;
  }
  // asXChart() returns that type's builder (setTitle, axis titles, legend, …), as Apps Script's typed builders do.
  private as(type: string): TypedChartBuilder {
    this.w.chartType = type;
    return new TypedChartBuilder(this.sheet, this.w);
  }
  asAreaChart() {
    return this.as('AREA');
  }
  asBarChart() {
    return this.as('BAR');
  }
  asColumnChart() {
    return this.as('COLUMN');
  }
  asComboChart() {
    return this.as('COMBO');
  }
  asHistogramChart() {
    return this.as('HISTOGRAM');
  }
  asLineChart() {
    return this.as('LINE');
  }
  asPieChart() {
    return this.as('PIE');
  }
  asScatterChart() {
    return this.as('SCATTER');
  }
  asSteppedAreaChart() {
    return this.as('STEPPED_AREA');
  }
  asTableChart() {
    return this.as('TABLE');
  }
  // How many header rows the data has (the preview reads the first row as series names unless this is 0).
  setNumHeaders(n: number) {
    return this.setOption('numHeaders', n);
  }
  setTransposeRowsAndColumns(t: boolean) {
    return this.setOption('transposeRowsAndColumns', t);
  }
  setHiddenDimensionStrategy(s: string) {
    return this.setOption('hiddenDimensionStrategy', String(s));
  }
  setMergeStrategy(s: string) {
    return this.setOption('mergeStrategy', String(s));
  }
  getRanges(): Range<ChartSheet>[] {
    return new EmbeddedChart(this.sheet, this.w).getRanges();
  }
  getChartType(): string {
    return this.w.chartType;
  }
  build(): EmbeddedChart {
    return new EmbeddedChart(this.sheet, this.w);
  }
}

// The typed builders' common setters (EmbeddedColumnChartBuilder, EmbeddedPieChartBuilder, …), recorded as the chart
// options Sheets keeps for them.
export class TypedChartBuilder extends EmbeddedChartBuilder {
  setTitle(t: string) {
    return this.setOption('title', String(t));
  }
  setLegendPosition(p: string) {
    return this.setOption('legend.position', String(p).toLowerCase());
  }
  setXAxisTitle(t: string) {
    return this.setOption('hAxis.title', String(t));
  }
  setYAxisTitle(t: string) {
    return this.setOption('vAxis.title', String(t));
  }
  setStacked() {
    return this.setOption('isStacked', true);
  }
  setColors(c: string[]) {
    return this.setOption('colors', c.map(String));
  }
  setDimensions(width: number, height: number) {
    return this.setOption('width', width).setOption('height', height);
  }
  setRange(start: number, end: number) {
    return this.setOption('vAxis.viewWindow.min', start).setOption('vAxis.viewWindow.max', end);
  }
  set3D() {
    return this.setOption('is3D', true);
  }
  reverseCategories() {
    return this.setOption('reverseCategories', true);
  }
}
