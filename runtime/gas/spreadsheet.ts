// SpreadsheetApp and its object graph; every read or write of the spreadsheet is a call to the host.
import { parseA1, toA1 } from '../host/a1.js';
import { call, enumOf, execInfo, GasError, getBridge, requireScope, SCOPES } from './bridge.js';
import type { HtmlOutput } from './html.js';

export const ProtectionType = enumOf(['RANGE', 'SHEET']);
export const DataValidationCriteria = enumOf([
  'VALUE_IN_LIST',
  'VALUE_IN_RANGE',
  'NUMBER_BETWEEN',
  'NUMBER_GREATER_THAN',
  'NUMBER_GREATER_THAN_OR_EQUAL_TO',
  'NUMBER_LESS_THAN',
  'NUMBER_EQUAL_TO',
  'CHECKBOX',
  'DATE_IS_VALID_DATE',
  'TEXT_IS_VALID_EMAIL',
  'CUSTOM_FORMULA',
]);
export const ChartType = enumOf([
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
export const WrapStrategy = enumOf(['WRAP', 'OVERFLOW', 'CLIP']);

interface SheetRef {
  id: number;
  name: string;
}
interface ProtectionWire {
  id: number;
  type: string;
  range?: string;
  description: string;
  warningOnly: boolean;
  editors: string[];
  domainEdit: boolean;
  sheet: number;
}
interface RuleWire {
  criteria: string;
  args: unknown[];
  allowInvalid: boolean;
  helpText: string;
}
interface ChartWire {
  id: number;
  chartType: string;
  ranges: string[];
  position: { row: number; col: number; offsetX: number; offsetY: number };
  options: Record<string, unknown>;
}

function sheetsGuard(): void {
  requireScope('SpreadsheetApp', SCOPES.spreadsheets, SCOPES.spreadsheetsCurrent);
}

export class DataValidation {
  constructor(private readonly w: RuleWire) {}
  getCriteriaType(): string {
    return this.w.criteria;
  }
  getCriteriaValues(): unknown[] {
    return this.w.args.slice();
  }
  getAllowInvalid(): boolean {
    return this.w.allowInvalid;
  }
  getHelpText(): string {
    return this.w.helpText;
  }
  copy(): DataValidationBuilder {
    return new DataValidationBuilder(this.w);
  }
  wire(): RuleWire {
    return this.w;
  }
}

export class DataValidationBuilder {
  private w: RuleWire;
  constructor(from?: RuleWire) {
    this.w = from ? { ...from, args: from.args.slice() } : { criteria: '', args: [], allowInvalid: true, helpText: '' };
  }
  requireValueInList(values: string[], showDropdown = true) {
    this.w.criteria = 'VALUE_IN_LIST';
    this.w.args = [values.map(String), showDropdown];
    return this;
  }
  requireCheckbox() {
    this.w.criteria = 'CHECKBOX';
    this.w.args = [];
    return this;
  }
  requireNumberBetween(a: number, b: number) {
    this.w.criteria = 'NUMBER_BETWEEN';
    this.w.args = [a, b];
    return this;
  }
  requireNumberGreaterThanOrEqualTo(a: number) {
    this.w.criteria = 'NUMBER_GREATER_THAN_OR_EQUAL_TO';
    this.w.args = [a];
    return this;
  }
  requireDate() {
    this.w.criteria = 'DATE_IS_VALID_DATE';
    this.w.args = [];
    return this;
  }
  requireFormulaSatisfied(f: string) {
    this.w.criteria = 'CUSTOM_FORMULA';
    this.w.args = [f];
    return this;
  }
  setAllowInvalid(b: boolean) {
    this.w.allowInvalid = b;
    return this;
  }
  setHelpText(t: string) {
    this.w.helpText = t;
    return this;
  }
  build(): DataValidation {
    if (!this.w.criteria) throw new GasError('You must set a criteria type before building the data validation rule.');
    return new DataValidation(this.w);
  }
}

export class Protection {
  constructor(private w: ProtectionWire) {}
  private update(patch: Partial<ProtectionWire>): Protection {
    this.w = call<ProtectionWire>('pr.update', { sheet: this.w.sheet, id: this.w.id, patch });
    return this;
  }
  getProtectionType(): string {
    return this.w.type;
  }
  getDescription(): string {
    return this.w.description;
  }
  setDescription(d: string): Protection {
    return this.update({ description: String(d) });
  }
  isWarningOnly(): boolean {
    return this.w.warningOnly;
  }
  setWarningOnly(b: boolean): Protection {
    return this.update({ warningOnly: !!b });
  }
  getEditors() {
    return this.w.editors.map((e) => ({ getEmail: () => e }));
  }
  addEditor(e: string): Protection {
    return this.update({ editors: this.w.editors.concat([String(e)]) });
  }
  addEditors(es: string[]): Protection {
    return this.update({ editors: this.w.editors.concat(es.map(String)) });
  }
  removeEditor(e: string): Protection {
    return this.update({ editors: this.w.editors.filter((x) => x !== String(e)) });
  }
  removeEditors(es: unknown[]): Protection {
    const drop = es.map((x) => (typeof x === 'string' ? x : (x as { getEmail(): string }).getEmail()));
    return this.update({ editors: this.w.editors.filter((x) => drop.indexOf(x) < 0) });
  }
  canDomainEdit(): boolean {
    return this.w.domainEdit;
  }
  setDomainEdit(b: boolean): Protection {
    return this.update({ domainEdit: !!b });
  }
  canEdit(): boolean {
    return true;
  }
  remove(): void {
    call('pr.remove', { sheet: this.w.sheet, id: this.w.id });
  }
  getRangeName(): string | null {
    return this.w.range ?? null;
  }
}

export class TextFinder {
  private opts = { matchCase: false, matchEntireCell: false, useRegularExpression: false, matchFormulaText: false };
  private cursor = -1;
  private hits: { row: number; col: number }[] | null = null;
  constructor(
    private readonly range: Range,
    private readonly text: string,
  ) {}
  matchCase(b: boolean) {
    this.opts.matchCase = b;
    this.hits = null;
    return this;
  }
  matchEntireCell(b: boolean) {
    this.opts.matchEntireCell = b;
    this.hits = null;
    return this;
  }
  useRegularExpression(b: boolean) {
    this.opts.useRegularExpression = b;
    this.hits = null;
    return this;
  }
  matchFormulaText(b: boolean) {
    this.opts.matchFormulaText = b;
    this.hits = null;
    return this;
  }
  ignoreDiacritics(_b: boolean) {
    return this;
  }
  private search() {
    if (!this.hits) {
      const r = this.range;
      this.hits = call('rg.find', { ...r.coords(), opts: { text: this.text, ...this.opts } });
      this.cursor = -1;
    }
    return this.hits!;
  }
  findAll(): Range[] {
    return this.search().map((h) => new Range(this.range.getSheet(), h.row, h.col, 1, 1));
  }
  findNext(): Range | null {
    const hits = this.search();
    if (this.cursor + 1 >= hits.length) return null;
    const h = hits[++this.cursor];
    return new Range(this.range.getSheet(), h.row, h.col, 1, 1);
  }
  findPrevious(): Range | null {
    const hits = this.search();
    if (this.cursor - 1 < 0) return null;
    const h = hits[--this.cursor];
    return new Range(this.range.getSheet(), h.row, h.col, 1, 1);
  }
  replaceAllWith(_t: string): number {
    throw new GasError('TextFinder.replaceAllWith is not used by Kaigi and not provided by the local runtime.');
  }
}

function grid<T>(nr: number, nc: number, v: T): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < nr; i++) {
    const row: T[] = [];
    for (let j = 0; j < nc; j++) row.push(v);
    out.push(row);
  }
  return out;
}

export class Range {
  constructor(
    private readonly sheet: Sheet,
    private readonly row: number,
    private readonly col: number,
    private readonly nr: number,
    private readonly nc: number,
  ) {}
  coords() {
    return { sheet: this.sheet.getSheetId(), r: this.row, c: this.col, nr: this.nr, nc: this.nc };
  }
  getSheet(): Sheet {
    return this.sheet;
  }
  getRow(): number {
    return this.row;
  }
  getRowIndex(): number {
    return this.row;
  }
  getColumn(): number {
    return this.col;
  }
  getLastRow(): number {
    return this.row + this.nr - 1;
  }
  getLastColumn(): number {
    return this.col + this.nc - 1;
  }
  getNumRows(): number {
    return this.nr;
  }
  getNumColumns(): number {
    return this.nc;
  }
  getHeight(): number {
    return this.nr;
  }
  getWidth(): number {
    return this.nc;
  }
  getA1Notation(): string {
    return toA1(this.row, this.col, this.nr, this.nc);
  }
  getCell(r: number, c: number): Range {
    if (r < 1 || c < 1 || r > this.nr || c > this.nc) throw new GasError('Cell reference out of range');
    return new Range(this.sheet, this.row + r - 1, this.col + c - 1, 1, 1);
  }
  offset(dr: number, dc: number, nr = this.nr, nc = this.nc): Range {
    return new Range(this.sheet, this.row + dr, this.col + dc, nr, nc);
  }
  getValues(): unknown[][] {
    return call('rg.getValues', this.coords());
  }
  getValue(): unknown {
    return call<unknown[][]>('rg.getValues', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  getDisplayValues(): string[][] {
    return call('rg.getDisplayValues', this.coords());
  }
  getDisplayValue(): string {
    return call<string[][]>('rg.getDisplayValues', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  getFormulas(): string[][] {
    return call('rg.getFormulas', this.coords());
  }
  getFormula(): string {
    return call<string[][]>('rg.getFormulas', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  setValues(values: unknown[][]): Range {
    call('rg.setValues', { ...this.coords(), values });
    return this;
  }
  setValue(value: unknown): Range {
    // setValue on a multi-cell range writes the value into every cell.
    call('rg.setValues', { ...this.coords(), values: grid(this.nr, this.nc, value) });
    return this;
  }
  setFormula(f: string): Range {
    call('rg.setFormulas', { ...this.coords(), values: grid(this.nr, this.nc, f) });
    return this;
  }
  setFormulas(fs: string[][]): Range {
    call('rg.setFormulas', { ...this.coords(), values: fs });
    return this;
  }
  getNumberFormats(): string[][] {
    return call('rg.getNumberFormats', this.coords());
  }
  getNumberFormat(): string {
    return call<string[][]>('rg.getNumberFormats', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  setNumberFormat(f: string): Range {
    call('rg.setNumberFormats', { ...this.coords(), formats: grid(this.nr, this.nc, String(f)) });
    return this;
  }
  setNumberFormats(fs: string[][]): Range {
    call('rg.setNumberFormats', { ...this.coords(), formats: fs });
    return this;
  }
  setDataValidation(rule: DataValidation | null): Range {
    call('rg.setValidation', { ...this.coords(), rule: rule ? rule.wire() : null });
    return this;
  }
  getDataValidation(): DataValidation | null {
    const w = call<(RuleWire | null)[][]>('rg.getValidations', { ...this.coords(), nr: 1, nc: 1 })[0][0];
    return w ? new DataValidation(w) : null;
  }
  getDataValidations(): (DataValidation | null)[][] {
    return call<(RuleWire | null)[][]>('rg.getValidations', this.coords()).map((row) =>
      row.map((w) => (w ? new DataValidation(w) : null)),
    );
  }
  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean; validationsOnly?: boolean }): Range {
    const o = options ?? {};
    const only = o.contentsOnly || o.formatOnly || o.validationsOnly;
    call('rg.clear', {
      ...this.coords(),
      opts: {
        contents: !only || !!o.contentsOnly,
        formats: !only || !!o.formatOnly,
        validations: !only || !!o.validationsOnly,
      },
    });
    return this;
  }
  clearContent(): Range {
    call('rg.clear', { ...this.coords(), opts: { contents: true } });
    return this;
  }
  clearFormat(): Range {
    call('rg.clear', { ...this.coords(), opts: { formats: true } });
    return this;
  }
  clearDataValidations(): Range {
    call('rg.clear', { ...this.coords(), opts: { validations: true } });
    return this;
  }
  private style(key: string, value: unknown): Range {
    call('rg.setStyle', { ...this.coords(), key, value });
    return this;
  }
  setFontWeight(w: string | null): Range {
    return this.style('fontWeight', w);
  }
  setFontColor(c: string | null): Range {
    return this.style('fontColor', c);
  }
  setFontFamily(f: string | null): Range {
    return this.style('fontFamily', f);
  }
  setFontSize(s: number): Range {
    return this.style('fontSize', s);
  }
  setBackground(c: string | null): Range {
    return this.style('background', c);
  }
  setWrap(b: boolean): Range {
    return this.style('wrap', b);
  }
  setWrapStrategy(s: string): Range {
    return this.style('wrapStrategy', s);
  }
  setHorizontalAlignment(a: string | null): Range {
    return this.style('horizontalAlignment', a);
  }
  setVerticalAlignment(a: string | null): Range {
    return this.style('verticalAlignment', a);
  }
  setNote(n: string | null): Range {
    return this.style('note', n);
  }
  protect(): Protection {
    return new Protection(call('rg.protect', this.coords()));
  }
  createTextFinder(text: string): TextFinder {
    return new TextFinder(this, String(text));
  }
  activate(): Range {
    return this;
  }
}

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

export class Sheet {
  constructor(private readonly ref: SheetRef) {}
  private args(extra: Record<string, unknown> = {}) {
    return { sheet: this.ref.id, ...extra };
  }
  getSheetId(): number {
    return this.ref.id;
  }
  getName(): string {
    return (this.ref.name = call<string>('sh.name', this.args()));
  }
  setName(name: string): Sheet {
    call('sh.setName', this.args({ name: String(name) }));
    this.ref.name = String(name);
    return this;
  }
  getIndex(): number {
    return call('sh.index', this.args());
  }
  getParent(): Spreadsheet {
    return new Spreadsheet();
  }
  getRange(a: number | string, b?: number, c?: number, d?: number): Range {
    getBridge().check();
    if (typeof a === 'string') {
      let g: ReturnType<typeof parseA1>;
      try {
        g = parseA1(a);
      } catch {
        throw new GasError('Range not found');
      }
      if (g.sheetName !== undefined && g.sheetName !== this.ref.name) throw new GasError('Range not found');
      if (g.openRows || g.openCols) {
        const size = call<{ rows: number; cols: number }>('sh.size', this.args());
        if (g.openRows) g.numRows = size.rows - g.row + 1;
        if (g.openCols) g.numCols = size.cols - g.col + 1;
      }
      return new Range(this, g.row, g.col, g.numRows, g.numCols);
    }
    if (typeof a !== 'number' || (b !== undefined && typeof b !== 'number')) {
      throw new GasError("The parameters don't match the method signature for SpreadsheetApp.Sheet.getRange.");
    }
    return new Range(this, a, b ?? 1, c ?? 1, d ?? 1);
  }
  getDataRange(): Range {
    const size = call<{ lastRow: number; lastCol: number }>('sh.extent', this.args());
    return new Range(this, 1, 1, Math.max(1, size.lastRow), Math.max(1, size.lastCol));
  }
  getLastRow(): number {
    return call('sh.lastRow', this.args());
  }
  getLastColumn(): number {
    return call('sh.lastColumn', this.args());
  }
  getMaxRows(): number {
    return call('sh.maxRows', this.args());
  }
  getMaxColumns(): number {
    return call('sh.maxColumns', this.args());
  }
  appendRow(values: unknown[]): Sheet {
    call('sh.appendRow', this.args({ values }));
    return this;
  }
  insertRowsAfter(after: number, n: number): Sheet {
    call('sh.insertRows', this.args({ at: after + 1, n, copyFrom: after }));
    return this;
  }
  insertRowAfter(after: number): Sheet {
    return this.insertRowsAfter(after, 1);
  }
  insertRowsBefore(before: number, n: number): Sheet {
    call('sh.insertRows', this.args({ at: before, n, copyFrom: before }));
    return this;
  }
  insertRowBefore(before: number): Sheet {
    return this.insertRowsBefore(before, 1);
  }
  insertRows(before: number, n = 1): Sheet {
    return this.insertRowsBefore(before, n);
  }
  deleteRows(start: number, n: number): Sheet {
    call('sh.deleteRows', this.args({ start, n }));
    return this;
  }
  deleteRow(r: number): Sheet {
    return this.deleteRows(r, 1);
  }
  insertColumnsAfter(after: number, n: number): Sheet {
    call('sh.insertColumns', this.args({ at: after + 1, n }));
    return this;
  }
  insertColumnAfter(after: number): Sheet {
    return this.insertColumnsAfter(after, 1);
  }
  insertColumnsBefore(before: number, n: number): Sheet {
    call('sh.insertColumns', this.args({ at: before, n }));
    return this;
  }
  deleteColumns(start: number, n: number): Sheet {
    call('sh.deleteColumns', this.args({ start, n }));
    return this;
  }
  deleteColumn(c: number): Sheet {
    return this.deleteColumns(c, 1);
  }
  setFrozenRows(n: number): Sheet {
    call('sh.setFrozen', this.args({ rows: n }));
    return this;
  }
  setFrozenColumns(n: number): Sheet {
    call('sh.setFrozen', this.args({ cols: n }));
    return this;
  }
  getFrozenRows(): number {
    return call<{ rows: number }>('sh.frozen', this.args()).rows;
  }
  getFrozenColumns(): number {
    return call<{ cols: number }>('sh.frozen', this.args()).cols;
  }
  setColumnWidth(col: number, width: number): Sheet {
    call('sh.setColumnWidths', this.args({ start: col, n: 1, width }));
    return this;
  }
  setColumnWidths(start: number, n: number, width: number): Sheet {
    call('sh.setColumnWidths', this.args({ start, n, width }));
    return this;
  }
  getColumnWidth(col: number): number {
    return call('sh.columnWidth', this.args({ col }));
  }
  protect(): Protection {
    return new Protection(call('sh.protect', this.args()));
  }
  getProtections(type: string): Protection[] {
    return call<ProtectionWire[]>('sh.protections', this.args({ type })).map((w) => new Protection(w));
  }
  hideSheet(): Sheet {
    call('sh.setHidden', this.args({ hidden: true }));
    return this;
  }
  showSheet(): Sheet {
    call('sh.setHidden', this.args({ hidden: false }));
    return this;
  }
  isSheetHidden(): boolean {
    return call('sh.hidden', this.args());
  }
  setTabColor(c: string | null): Sheet {
    call('sh.setTabColor', this.args({ color: c }));
    return this;
  }
  getTabColor(): string | null {
    return call('sh.tabColor', this.args());
  }
  clear(): Sheet {
    call('sh.clear', this.args({ contents: true, formats: true }));
    return this;
  }
  clearContents(): Sheet {
    call('sh.clear', this.args({ contents: true, formats: false }));
    return this;
  }
  clearFormats(): Sheet {
    call('sh.clear', this.args({ contents: false, formats: true }));
    return this;
  }
  createTextFinder(text: string): TextFinder {
    return this.getDataRange().createTextFinder(text);
  }
  newChart(): EmbeddedChartBuilder {
    return new EmbeddedChartBuilder(this, {
      id: 0,
      chartType: 'COLUMN',
      ranges: [],
      position: { row: 1, col: 1, offsetX: 0, offsetY: 0 },
      options: {},
    });
  }
  insertChart(chart: EmbeddedChart): void {
    call('sh.chartUpsert', this.args({ chart: chart.w }));
  }
  updateChart(chart: EmbeddedChart): void {
    call('sh.chartUpsert', this.args({ chart: chart.w }));
  }
  removeChart(chart: EmbeddedChart): void {
    call('sh.chartRemove', this.args({ id: chart.getChartId() }));
  }
  getCharts(): EmbeddedChart[] {
    return call<ChartWire[]>('sh.charts', this.args()).map((w) => new EmbeddedChart(this, w));
  }
  activate(): Sheet {
    call('ss.setActive', this.args());
    return this;
  }
  getSheetName(): string {
    return this.getName();
  }
}

export class Spreadsheet {
  getId(): string {
    return execInfo().spreadsheetId;
  }
  getName(): string {
    return call('ss.name');
  }
  rename(name: string): void {
    call('ss.rename', { name });
  }
  getUrl(): string {
    return `https://docs.google.com/spreadsheets/d/${execInfo().spreadsheetId}/edit`;
  }
  getSheets(): Sheet[] {
    return call<SheetRef[]>('ss.sheets').map((r) => new Sheet(r));
  }
  getNumSheets(): number {
    return call<SheetRef[]>('ss.sheets').length;
  }
  getSheetByName(name: string): Sheet | null {
    const r = call<SheetRef | null>('ss.sheetByName', { name: String(name) });
    return r ? new Sheet(r) : null;
  }
  getSheetById(id: number): Sheet | null {
    const r = call<SheetRef | null>('ss.sheetById', { id });
    return r ? new Sheet(r) : null;
  }
  insertSheet(a?: string | number, b?: number): Sheet {
    const name = typeof a === 'string' ? a : undefined;
    const index = typeof a === 'number' ? a : b;
    return new Sheet(call<SheetRef>('ss.insertSheet', { name, index }));
  }
  deleteSheet(sheet: Sheet): void {
    call('ss.deleteSheet', { sheet: sheet.getSheetId() });
  }
  getActiveSheet(): Sheet {
    return new Sheet(call<SheetRef>('ss.activeSheet'));
  }
  setActiveSheet(sheet: Sheet): Sheet {
    call('ss.setActive', { sheet: sheet.getSheetId() });
    return sheet;
  }
  moveActiveSheet(pos: number): void {
    call('ss.moveActive', { pos });
  }
  getRange(a1: string): Range {
    const g = parseA1(a1);
    const sheet = g.sheetName !== undefined ? this.getSheetByName(g.sheetName) : this.getActiveSheet();
    if (!sheet) throw new GasError('Range not found');
    return sheet.getRange(a1.slice(a1.lastIndexOf('!') + 1));
  }
  getSpreadsheetTimeZone(): string {
    return call('ss.timeZone');
  }
  setSpreadsheetTimeZone(tz: string): void {
    call('ss.setTimeZone', { tz });
  }
  getSpreadsheetLocale(): string {
    return call('ss.locale');
  }
  setSpreadsheetLocale(l: string): void {
    call('ss.setLocale', { locale: l });
  }
  toast(msg: string, title?: string, timeoutSeconds?: number): void {
    call('ui.toast', { msg: String(msg), title: title ?? '', timeout: timeoutSeconds ?? 5 });
  }
  getProtections(type: string): Protection[] {
    return this.getSheets().flatMap((s) => s.getProtections(type));
  }
}

const Button = enumOf(['CLOSE', 'OK', 'CANCEL', 'YES', 'NO']);
const ButtonSet = enumOf(['OK', 'OK_CANCEL', 'YES_NO', 'YES_NO_CANCEL']);

class Menu {
  private readonly items: { caption?: string; fn?: string; separator?: boolean; submenu?: unknown }[] = [];
  constructor(private readonly caption: string) {}
  addItem(caption: string, functionName: string): Menu {
    this.items.push({ caption, fn: functionName });
    return this;
  }
  addSeparator(): Menu {
    this.items.push({ separator: true });
    return this;
  }
  addSubMenu(menu: Menu): Menu {
    this.items.push({ caption: menu.caption, submenu: menu.items });
    return this;
  }
  addToUi(): void {
    call('ui.menu', { caption: this.caption, items: this.items });
  }
}

function ui() {
  const kind = execInfo().kind;
  if (kind === 'trigger' || kind === 'webapp')
    throw new GasError('Cannot call SpreadsheetApp.getUi() from this context.');
  requireScope('Ui', SCOPES.ui);
  return {
    Button,
    ButtonSet,
    createMenu: (caption: string) => new Menu(caption),
    createAddonMenu: () => new Menu('Add-on'),
    showSidebar(out: HtmlOutput): void {
      call('ui.sidebar', { title: out.getTitle(), html: out.getContent(), width: out.getWidth() });
    },
    showModalDialog(out: HtmlOutput, title: string): void {
      call('ui.dialog', { title, html: out.getContent(), modal: true, width: out.getWidth(), height: out.getHeight() });
    },
    showModelessDialog(out: HtmlOutput, title: string): void {
      call('ui.dialog', {
        title,
        html: out.getContent(),
        modal: false,
        width: out.getWidth(),
        height: out.getHeight(),
      });
    },
    alert(a: string, b?: string, c?: string): string {
      const [title, prompt, buttons] = b === undefined ? ['', a, 'OK'] : c === undefined ? ['', a, b] : [a, b, c];
      return call('ui.alert', { title, prompt, buttons });
    },
    prompt(a: string, b?: string, c?: string) {
      const [title, prompt, buttons] = b === undefined ? ['', a, 'OK'] : c === undefined ? ['', a, b] : [a, b, c];
      const r = call<{ button: string; text: string }>('ui.prompt', { title, prompt, buttons });
      return { getSelectedButton: () => r.button, getResponseText: () => r.text };
    },
  };
}

export const SpreadsheetApp = {
  ProtectionType,
  DataValidationCriteria,
  WrapStrategy,
  getActiveSpreadsheet(): Spreadsheet | null {
    sheetsGuard();
    // Stricter reading: a web-app execution has no active spreadsheet; it must use openById.
    return execInfo().kind === 'webapp' ? null : new Spreadsheet();
  },
  getActive(): Spreadsheet | null {
    return SpreadsheetApp.getActiveSpreadsheet();
  },
  getActiveSheet(): Sheet | null {
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    return ss ? ss.getActiveSheet() : null;
  },
  openById(id: string): Spreadsheet {
    requireScope('SpreadsheetApp.openById', SCOPES.spreadsheets);
    if (execInfo().kind === 'simple') throw new GasError('You do not have permission to call SpreadsheetApp.openById');
    if (id !== execInfo().spreadsheetId)
      throw new GasError('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
    return new Spreadsheet();
  },
  flush(): void {
    sheetsGuard();
    call('ss.flush');
  },
  getUi: ui,
  newDataValidation: () => new DataValidationBuilder(),
};
