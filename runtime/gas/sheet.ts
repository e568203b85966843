// Sheet and Spreadsheet: the document's tabs, their shape and visibility, as calls to the host.
import { parseA1 } from '../host/a1.js';
import type { NoArgs, ProtectionWire, SheetArgs, SheetRef, SpreadsheetArgs } from '../service-calls.js';
import { call, execInfo, GasError, getBridge } from './bridge.js';
import { EmbeddedChart, EmbeddedChartBuilder } from './charts.js';
import { Protection } from './protection.js';
import { Range, type TextFinder } from './range.js';
import { intArguments } from './signature.js';
import { user } from './utilities.js';

// The spreadsheet part of a call's arguments: nothing for the bound spreadsheet, its id for any other.
function about(ss: string | undefined): SpreadsheetArgs {
  return ss === undefined ? {} : { ss };
}

export class Sheet {
  constructor(
    private readonly ref: SheetRef,
    // The sheet of an event's range (an edit's): Apps Script built the event with its sheet resolved, so its name
    // as it was at the change is part of the event and asking for it costs no call. Any other Sheet asks the host.
    private readonly fromEvent = false,
  ) {}
  // The sheet a call is about (and its spreadsheet, when not the bound one), with that call's own arguments.
  private args<T extends object = NoArgs>(extra?: T): SheetArgs & T {
    return { sheet: this.ref.id, ...about(this.ref.ss), ...extra } as SheetArgs & T;
  }
  // Ranges and protections of this sheet address it the same way.
  target(): SheetArgs {
    return this.args();
  }
  // A protection as the host returned it, tagged with this sheet's spreadsheet so its changes go there too.
  own(w: ProtectionWire): ProtectionWire {
    return this.ref.ss === undefined ? w : { ...w, ss: this.ref.ss };
  }
  getSheetId(): number {
    return this.ref.id;
  }
  getName(): string {
    if (this.fromEvent) return this.ref.name;
    return (this.ref.name = call('sh.name', this.args()));
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
    return new Spreadsheet(this.ref.ss);
  }
  getRange(a: number | string, b?: number, c?: number, d?: number): Range<Sheet> {
    getBridge().check();
    if (typeof a === 'string' && arguments.length === 1) {
      let g: ReturnType<typeof parseA1>;
      try {
        g = parseA1(a);
      } catch {
        throw new GasError('Range not found');
      }
      if (g.sheetName !== undefined && g.sheetName !== this.ref.name) throw new GasError('Range not found');
      if (g.openRows || g.openCols) {
        const size = call('sh.size', this.args());
        if (g.openRows) g.numRows = size.rows - g.row + 1;
        if (g.openCols) g.numCols = size.cols - g.col + 1;
      }
      return new Range(this, g.row, g.col, g.numRows, g.numCols);
    }
    // getRange(row, column[, numRows[, numColumns]]): ints all, an undefined one included (Google names it null).
    intArguments('SpreadsheetApp.Sheet.getRange', Array.from(arguments), [2, 3, 4]);
    return new Range(this, a as number, b as number, c ?? 1, d ?? 1);
  }
  getDataRange(): Range<Sheet> {
    const size = call('sh.extent', this.args());
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
    intArguments('SpreadsheetApp.Sheet.insertRowsAfter', Array.from(arguments), [2]);
    call('sh.insertRows', this.args({ at: after + 1, n, copyFrom: after }));
    return this;
  }
  insertRowAfter(after: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.insertRowAfter', Array.from(arguments), [1]);
    return this.insertRowsAfter(after, 1);
  }
  insertRowsBefore(before: number, n: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.insertRowsBefore', Array.from(arguments), [2]);
    call('sh.insertRows', this.args({ at: before, n, copyFrom: before }));
    return this;
  }
  insertRowBefore(before: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.insertRowBefore', Array.from(arguments), [1]);
    return this.insertRowsBefore(before, 1);
  }
  insertRows(before: number, n = 1): Sheet {
    intArguments('SpreadsheetApp.Sheet.insertRows', Array.from(arguments), [1, 2]);
    return this.insertRowsBefore(before, n);
  }
  deleteRows(start: number, n: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.deleteRows', Array.from(arguments), [2]);
    call('sh.deleteRows', this.args({ start, n }));
    return this;
  }
  deleteRow(r: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.deleteRow', Array.from(arguments), [1]);
    return this.deleteRows(r, 1);
  }
  insertColumnsAfter(after: number, n: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.insertColumnsAfter', Array.from(arguments), [2]);
    call('sh.insertColumns', this.args({ at: after + 1, n }));
    return this;
  }
  insertColumnAfter(after: number): Sheet {
    return this.insertColumnsAfter(after, 1);
  }
  insertColumnsBefore(before: number, n: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.insertColumnsBefore', Array.from(arguments), [2]);
    call('sh.insertColumns', this.args({ at: before, n }));
    return this;
  }
  deleteColumns(start: number, n: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.deleteColumns', Array.from(arguments), [2]);
    call('sh.deleteColumns', this.args({ start, n }));
    return this;
  }
  deleteColumn(c: number): Sheet {
    return this.deleteColumns(c, 1);
  }
  setFrozenRows(n: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.setFrozenRows', Array.from(arguments), [1]);
    call('sh.setFrozen', this.args({ rows: n }));
    return this;
  }
  setFrozenColumns(n: number): Sheet {
    intArguments('SpreadsheetApp.Sheet.setFrozenColumns', Array.from(arguments), [1]);
    call('sh.setFrozen', this.args({ cols: n }));
    return this;
  }
  getFrozenRows(): number {
    return call('sh.frozen', this.args()).rows;
  }
  getFrozenColumns(): number {
    return call('sh.frozen', this.args()).cols;
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
    return new Protection(this.own(call('sh.protect', this.args())));
  }
  getProtections(type: string): Protection[] {
    return call('sh.protections', this.args({ type })).map((w) => new Protection(this.own(w)));
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
  createTextFinder(text: string): TextFinder<Sheet> {
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
    call('sh.chartRemove', this.args({ id: chart.getChartId() ?? 0 }));
  }
  getCharts(): EmbeddedChart[] {
    return call('sh.charts', this.args()).map((w) => new EmbeddedChart(this, w));
  }
  activate(): Sheet {
    call('ss.setActive', this.args());
    return this;
  }
  getSheetName(): string {
    return this.getName();
  }
}

// The bound spreadsheet (no id), or another one this user created or may open (SpreadsheetApp.create / openById).
export class Spreadsheet {
  constructor(private readonly ssId?: string) {}
  private a<T extends object>(extra?: T): SpreadsheetArgs & T {
    return { ...about(this.ssId), ...extra } as SpreadsheetArgs & T;
  }
  private sheet(r: SheetRef): Sheet {
    return new Sheet(this.ssId === undefined ? r : { ...r, ss: this.ssId });
  }
  getId(): string {
    return this.ssId ?? execInfo().spreadsheetId;
  }
  getName(): string {
    return call('ss.name', this.a());
  }
  // A User, or null for a file with no owner (a shared drive's).
  getOwner(): ReturnType<typeof user> | null {
    const email = call('ss.owner', this.a());
    return email === null ? null : user(email);
  }
  rename(name: string): void {
    call('ss.rename', this.a({ name }));
  }
  // Whom the file is shared with as editors (its owner is not listed), as Users.
  getEditors(): ReturnType<typeof user>[] {
    return call('ss.editors', this.a()).map((e) => user(e));
  }
  addEditor(who: string | { getEmail(): string }): Spreadsheet {
    return this.addEditors([typeof who === 'string' ? who : who.getEmail()]);
  }
  addEditors(emails: string[]): Spreadsheet {
    call('ss.addEditors', this.a({ emails: emails.map(String) }));
    return this;
  }
  removeEditor(who: string | { getEmail(): string }): Spreadsheet {
    call('ss.removeEditor', this.a({ email: typeof who === 'string' ? who : who.getEmail() }));
    return this;
  }
  getUrl(): string {
    return `https://docs.google.com/spreadsheets/d/${this.getId()}/edit`;
  }
  getSheets(): Sheet[] {
    return call('ss.sheets', this.a()).map((r) => this.sheet(r));
  }
  getNumSheets(): number {
    return call('ss.sheets', this.a()).length;
  }
  getSheetByName(name: string): Sheet | null {
    const r = call('ss.sheetByName', this.a({ name: String(name) }));
    return r ? this.sheet(r) : null;
  }
  getSheetById(id: number): Sheet | null {
    const r = call('ss.sheetById', this.a({ id }));
    return r ? this.sheet(r) : null;
  }
  insertSheet(a?: string | number, b?: number): Sheet {
    const name = typeof a === 'string' ? a : undefined;
    const index = typeof a === 'number' ? a : b;
    return this.sheet(call('ss.insertSheet', this.a({ name, index })));
  }
  deleteSheet(sheet: Sheet): void {
    call('ss.deleteSheet', this.a({ sheet: sheet.getSheetId() }));
  }
  getActiveSheet(): Sheet {
    return this.sheet(call('ss.activeSheet', this.a()));
  }
  setActiveSheet(sheet: Sheet): Sheet {
    call('ss.setActive', this.a({ sheet: sheet.getSheetId() }));
    return sheet;
  }
  moveActiveSheet(pos: number): void {
    call('ss.moveActive', this.a({ pos }));
  }
  getRange(a1: string): Range<Sheet> {
    const g = parseA1(a1);
    const sheet = g.sheetName !== undefined ? this.getSheetByName(g.sheetName) : this.getActiveSheet();
    if (!sheet) throw new GasError('Range not found');
    return sheet.getRange(a1.slice(a1.lastIndexOf('!') + 1));
  }
  getSpreadsheetTimeZone(): string {
    return call('ss.timeZone', this.a());
  }
  setSpreadsheetTimeZone(tz: string): void {
    call('ss.setTimeZone', this.a({ tz }));
  }
  getSpreadsheetLocale(): string {
    return call('ss.locale', this.a());
  }
  setSpreadsheetLocale(l: string): void {
    call('ss.setLocale', this.a({ locale: l }));
  }
  toast(msg: string, title?: string, timeoutSeconds?: number): void {
    call('ui.toast', { msg: String(msg), title: title ?? '', timeout: timeoutSeconds ?? 5 });
  }
  getProtections(type: string): Protection[] {
    return this.getSheets().flatMap((s) => s.getProtections(type));
  }
}
