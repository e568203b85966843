// Embedded charts and their builder; a chart reaches the host when the sheet inserts or updates it.
import type { ChartWire } from '../service-calls.js';
import { enumOf } from './bridge.js';
import type { Range } from './range.js';
import type { Sheet } from './sheet.js';

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

export class EmbeddedChart {
  constructor(
    private readonly sheet: Sheet,
    readonly w: ChartWire,
  ) {}
  getChartId(): number {
    return this.w.id;
  }
  getRanges(): Range[] {
    return this.w.ranges.map((a) => this.sheet.getRange(a));
  }
  getOptions() {
    return { get: (k: string) => this.w.options[k] ?? null };
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
    private readonly sheet: Sheet,
    private readonly w: ChartWire,
  ) {}
  setChartType(t: string) {
    this.w.chartType = t;
    return this;
  }
  addRange(r: Range) {
    this.w.ranges.push(r.getA1Notation());
    return this;
  }
  clearRanges() {
    this.w.ranges = [];
    return this;
  }
  removeRange(r: Range) {
    this.w.ranges = this.w.ranges.filter((a) => a !== r.getA1Notation());
    return this;
  }
  setPosition(row: number, col: number, offsetX: number, offsetY: number) {
    this.w.position = { row, col, offsetX, offsetY };
    return this;
  }
  setOption(k: string, v: unknown) {
    this.w.options[k] = v;
    return this;
  }
  asLineChart() {
    return this.setChartType('LINE');
  }
  asColumnChart() {
    return this.setChartType('COLUMN');
  }
  asPieChart() {
    return this.setChartType('PIE');
  }
  asBarChart() {
    return this.setChartType('BAR');
  }
  getChartType(): string {
    return this.w.chartType;
  }
  build(): EmbeddedChart {
    return new EmbeddedChart(this.sheet, this.w);
  }
}
