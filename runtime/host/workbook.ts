// The spreadsheet held by the local runtime: sheets, grid sizes, cells, formats, protections, charts.
import { columnLetter, parseA1, toA1, type GridRange } from './a1.js';
import { CellInputError, coerceInput, displayValue, formulaCell, isDate, type Cell, type CellValue } from './values.js';

export const MAX_WORKBOOK_CELLS = 10_000_000;
export const CELLS_LIMIT_MESSAGE = `This action would increase the number of cells in the workbook above the limit of ${MAX_WORKBOOK_CELLS} cells.`;
export const DEFAULT_ROWS = 1000;
export const DEFAULT_COLS = 26;
export const DEFAULT_COLUMN_WIDTH = 100;

export interface ValidationRule {
  criteria: string;
  args: unknown[];
  allowInvalid: boolean;
  helpText: string;
}

export interface ProtectionModel {
  id: number;
  type: 'SHEET' | 'RANGE';
  range?: string;
  description: string;
  warningOnly: boolean;
  editors: string[];
  domainEdit: boolean;
}

export interface ChartModel {
  id: number;
  chartType: string;
  ranges: string[];
  position: { row: number; col: number; offsetX: number; offsetY: number };
  options: Record<string, unknown>;
}

export interface SheetModel {
  id: number;
  name: string;
  cells: (Cell | undefined)[][];
  formats: ((string | undefined)[] | undefined)[];
  styles: Record<string, Record<string, unknown>>;
  validations: Record<string, ValidationRule>;
  maxRows: number;
  maxCols: number;
  frozenRows: number;
  frozenCols: number;
  columnWidths: Record<number, number>;
  hidden: boolean;
  tabColor: string | null;
  protections: ProtectionModel[];
  charts: ChartModel[];
}

export interface FindOptions {
  text: string;
  matchCase: boolean;
  matchEntireCell: boolean;
  useRegularExpression: boolean;
  matchFormulaText: boolean;
}

export class SheetsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

function emptyCell(c: Cell | undefined): boolean {
  return !c || (c.v === '' && !c.f);
}

export class Workbook {
  sheets: SheetModel[] = [];
  private nextId = 0;
  private nextObjectId = 1;
  activeSheetId = 0;

  constructor(
    public id: string,
    public name: string,
    public timeZone: string,
    public locale: string,
  ) {}

  static create(opts: { id?: string; name?: string; timeZone?: string; locale?: string } = {}): Workbook {
    const wb = new Workbook(
      opts.id ?? 'local-spreadsheet',
      opts.name ?? 'Kaigi',
      opts.timeZone ?? 'Asia/Tokyo',
      opts.locale ?? 'ja_JP',
    );
    wb.insertSheet('Sheet1');
    return wb;
  }

  clone(): Workbook {
    const wb = new Workbook(this.id, this.name, this.timeZone, this.locale);
    wb.sheets = structuredClone(this.sheets);
    wb.nextId = this.nextId;
    wb.nextObjectId = this.nextObjectId;
    wb.activeSheetId = this.activeSheetId;
    return wb;
  }

  totalCells(): number {
    let n = 0;
    for (const s of this.sheets) n += s.maxRows * s.maxCols;
    return n;
  }

  private ensureCapacity(extra: number): void {
    if (this.totalCells() + extra > MAX_WORKBOOK_CELLS) throw new SheetsError(CELLS_LIMIT_MESSAGE);
  }

  newObjectId(): number {
    return this.nextObjectId++;
  }

  insertSheet(name?: string, index?: number, rows = DEFAULT_ROWS, cols = DEFAULT_COLS): SheetModel {
    const sheetName = name ?? `Sheet${this.sheets.length + 1}`;
    if (this.sheets.some((s) => s.name.toLowerCase() === sheetName.toLowerCase())) {
      throw new SheetsError(`A sheet with the name "${sheetName}" already exists. Please enter another name.`);
    }
    this.ensureCapacity(rows * cols);
    const idOf = (n: number) => (n === 0 ? 0 : n * 7919 + 100000);
    while (this.sheets.some((x) => x.id === idOf(this.nextId))) this.nextId++;
    const sheet: SheetModel = {
      id: idOf(this.nextId),
      name: sheetName,
      cells: [],
      formats: [],
      styles: {},
      validations: {},
      maxRows: rows,
      maxCols: cols,
      frozenRows: 0,
      frozenCols: 0,
      columnWidths: {},
      hidden: false,
      tabColor: null,
      protections: [],
      charts: [],
    };
    this.nextId++;
    const at = index === undefined ? this.sheets.length : Math.max(0, Math.min(index, this.sheets.length));
    this.sheets.splice(at, 0, sheet);
    return sheet;
  }

  adoptSheet(sheet: SheetModel): void {
    this.sheets.push(sheet);
    this.nextId = Math.max(this.nextId, this.sheets.length);
    for (const p of sheet.protections) this.nextObjectId = Math.max(this.nextObjectId, p.id + 1);
    for (const c of sheet.charts) this.nextObjectId = Math.max(this.nextObjectId, c.id + 1);
  }

  sheetById(id: number): SheetModel {
    const s = this.sheets.find((x) => x.id === id);
    if (!s) throw new SheetsError('The sheet has been deleted.');
    return s;
  }

  sheetByName(name: string): SheetModel | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  deleteSheet(id: number): void {
    if (this.sheets.length === 1) throw new SheetsError("You can't remove all the sheets in a document.");
    const i = this.sheets.findIndex((s) => s.id === id);
    if (i < 0) throw new SheetsError('The sheet has been deleted.');
    this.sheets.splice(i, 1);
    if (this.activeSheetId === id) this.activeSheetId = this.sheets[0].id;
  }

  renameSheet(id: number, name: string): void {
    const s = this.sheetById(id);
    if (!name) throw new SheetsError('Invalid argument: name');
    if (this.sheets.some((x) => x !== s && x.name.toLowerCase() === name.toLowerCase())) {
      throw new SheetsError(`A sheet with the name "${name}" already exists. Please enter another name.`);
    }
    s.name = name;
  }

  moveSheet(id: number, position: number): void {
    const i = this.sheets.findIndex((s) => s.id === id);
    const [s] = this.sheets.splice(i, 1);
    this.sheets.splice(Math.max(0, Math.min(position - 1, this.sheets.length)), 0, s);
  }

  // Resolves an A1 reference (optionally "Sheet!A1:B2") against a sheet.
  resolveA1(sheet: SheetModel | undefined, a1: string): { sheet: SheetModel; range: GridRange } {
    const g = parseA1(a1);
    const target = g.sheetName !== undefined ? this.sheetByName(g.sheetName) : sheet;
    if (!target) throw new SheetsError('Range not found');
    if (g.openRows) g.numRows = target.maxRows - g.row + 1;
    if (g.openCols) g.numCols = target.maxCols - g.col + 1;
    return { sheet: target, range: g };
  }

  checkRange(sheet: SheetModel, r: number, c: number, nr: number, nc: number): void {
    if (!Number.isInteger(r) || !Number.isInteger(c) || !Number.isInteger(nr) || !Number.isInteger(nc)) {
      throw new SheetsError('Invalid argument: range coordinates must be integers.');
    }
    if (r < 1) throw new SheetsError('The starting row of the range is too small.');
    if (c < 1) throw new SheetsError('The starting column of the range is too small.');
    if (nr < 1) throw new SheetsError('The number of rows in the range must be at least 1.');
    if (nc < 1) throw new SheetsError('The number of columns in the range must be at least 1.');
    if (r + nr - 1 > sheet.maxRows || c + nc - 1 > sheet.maxCols) {
      throw new SheetsError('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  lastRow(sheet: SheetModel): number {
    for (let r = sheet.cells.length - 1; r >= 0; r--) {
      const row = sheet.cells[r];
      if (row?.some((c) => !emptyCell(c))) return r + 1;
    }
    return 0;
  }

  lastColumn(sheet: SheetModel): number {
    let last = 0;
    for (const row of sheet.cells) {
      if (!row) continue;
      for (let c = row.length - 1; c >= last; c--) {
        if (!emptyCell(row[c])) {
          last = c + 1;
          break;
        }
      }
    }
    return last;
  }

  format(sheet: SheetModel, r: number, c: number): string {
    return sheet.formats[r - 1]?.[c - 1] ?? '';
  }

  getCell(sheet: SheetModel, r: number, c: number): Cell | undefined {
    return sheet.cells[r - 1]?.[c - 1];
  }

  private putCell(sheet: SheetModel, r: number, c: number, cell: Cell): void {
    const row = (sheet.cells[r - 1] ??= []);
    if (emptyCell(cell)) {
      if (row[c - 1] !== undefined) row[c - 1] = undefined;
    } else {
      row[c - 1] = cell;
    }
  }

  private trim(sheet: SheetModel): void {
    const cells = sheet.cells;
    while (cells.length && (!cells[cells.length - 1] || cells[cells.length - 1].every((c) => emptyCell(c))))
      cells.pop();
  }

  getValues(sheet: SheetModel, r: number, c: number, nr: number, nc: number): CellValue[][] {
    this.checkRange(sheet, r, c, nr, nc);
    const out: CellValue[][] = new Array(nr);
    for (let i = 0; i < nr; i++) {
      const row = sheet.cells[r - 1 + i];
      const line: CellValue[] = new Array(nc);
      for (let j = 0; j < nc; j++) {
        const cell = row?.[c - 1 + j];
        line[j] = cell ? (isDate(cell.v) ? new Date(cell.v.getTime()) : cell.v) : '';
      }
      out[i] = line;
    }
    return out;
  }

  getDisplayValues(sheet: SheetModel, r: number, c: number, nr: number, nc: number): string[][] {
    this.checkRange(sheet, r, c, nr, nc);
    const out: string[][] = [];
    for (let i = 0; i < nr; i++) {
      const line: string[] = [];
      for (let j = 0; j < nc; j++) line.push(displayValue(this.getCell(sheet, r + i, c + j), this.timeZone));
      out.push(line);
    }
    return out;
  }

  getFormulas(sheet: SheetModel, r: number, c: number, nr: number, nc: number): string[][] {
    this.checkRange(sheet, r, c, nr, nc);
    const out: string[][] = [];
    for (let i = 0; i < nr; i++) {
      const line: string[] = [];
      for (let j = 0; j < nc; j++) line.push(this.getCell(sheet, r + i, c + j)?.f ?? '');
      out.push(line);
    }
    return out;
  }

  private checkGrid(values: unknown, nr: number, nc: number, method: string): unknown[][] {
    if (!Array.isArray(values) || values.some((row) => !Array.isArray(row))) {
      throw new SheetsError(
        `The parameters (${Array.isArray(values) ? 'number[]' : typeof values}) don't match the method signature for SpreadsheetApp.Range.${method}.`,
      );
    }
    if (values.length !== nr) {
      throw new SheetsError(
        `The number of rows in the data does not match the number of rows in the range. The data has ${values.length} but the range has ${nr}.`,
      );
    }
    for (const row of values as unknown[][]) {
      if (row.length !== nc) {
        throw new SheetsError(
          `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${nc}.`,
        );
      }
    }
    return values as unknown[][];
  }

  setValues(sheet: SheetModel, r: number, c: number, nr: number, nc: number, values: unknown): void {
    this.checkRange(sheet, r, c, nr, nc);
    const grid = this.checkGrid(values, nr, nc, 'setValues');
    // Every cell is parsed before any is written, so a rejected value leaves the range untouched.
    const parsed = grid.map((row, i) => row.map((v, j) => this.parse(v, this.format(sheet, r + i, c + j))));
    parsed.forEach((row, i) => row.forEach((cell, j) => this.putCell(sheet, r + i, c + j, cell)));
    this.trim(sheet);
  }

  setFormulas(sheet: SheetModel, r: number, c: number, nr: number, nc: number, formulas: unknown): void {
    this.checkRange(sheet, r, c, nr, nc);
    const grid = this.checkGrid(formulas, nr, nc, 'setFormulas');
    const parsed = grid.map((row) =>
      row.map((f) =>
        f === '' || f == null ? { v: '' } : formulaCell(String(f).startsWith('=') ? String(f) : `=${String(f)}`),
      ),
    );
    parsed.forEach((row, i) => row.forEach((cell, j) => this.putCell(sheet, r + i, c + j, cell)));
    this.trim(sheet);
  }

  private parse(v: unknown, numberFormat: string): Cell {
    try {
      return coerceInput(v, numberFormat, this.timeZone);
    } catch (e) {
      if (e instanceof CellInputError) throw new SheetsError(e.message);
      throw e;
    }
  }

  appendRow(sheet: SheetModel, values: unknown): number {
    if (!Array.isArray(values))
      throw new SheetsError(
        "The parameters (String) don't match the method signature for SpreadsheetApp.Sheet.appendRow.",
      );
    const row = this.lastRow(sheet) + 1;
    const parsed = values.map((v, j) => this.parse(v, this.format(sheet, row, j + 1)));
    const growRows = row > sheet.maxRows ? row - sheet.maxRows : 0;
    const growCols = values.length > sheet.maxCols ? values.length - sheet.maxCols : 0;
    this.ensureCapacity(growRows * (sheet.maxCols + growCols) + growCols * sheet.maxRows);
    sheet.maxRows += growRows;
    sheet.maxCols += growCols;
    parsed.forEach((cell, j) => this.putCell(sheet, row, j + 1, cell));
    return row;
  }

  clear(
    sheet: SheetModel,
    r: number,
    c: number,
    nr: number,
    nc: number,
    opts: { contents?: boolean; formats?: boolean; validations?: boolean },
  ): void {
    this.checkRange(sheet, r, c, nr, nc);
    for (let i = 0; i < nr; i++) {
      for (let j = 0; j < nc; j++) {
        if (opts.contents) this.putCell(sheet, r + i, c + j, { v: '' });
        if (opts.formats) {
          const fr = sheet.formats[r - 1 + i];
          if (fr) fr[c - 1 + j] = undefined;
          delete sheet.styles[`${r + i}:${c + j}`];
        }
        if (opts.validations) delete sheet.validations[`${r + i}:${c + j}`];
      }
    }
    this.trim(sheet);
  }

  setNumberFormats(sheet: SheetModel, r: number, c: number, nr: number, nc: number, formats: string[][]): void {
    this.checkRange(sheet, r, c, nr, nc);
    for (let i = 0; i < nr; i++) {
      const row = (sheet.formats[r - 1 + i] ??= []);
      for (let j = 0; j < nc; j++) row[c - 1 + j] = formats[i][j] || undefined;
    }
  }

  getNumberFormats(sheet: SheetModel, r: number, c: number, nr: number, nc: number): string[][] {
    this.checkRange(sheet, r, c, nr, nc);
    const out: string[][] = [];
    for (let i = 0; i < nr; i++) {
      const line: string[] = [];
      for (let j = 0; j < nc; j++) line.push(this.format(sheet, r + i, c + j) || '0.###############');
      out.push(line);
    }
    return out;
  }

  setStyle(sheet: SheetModel, r: number, c: number, nr: number, nc: number, key: string, value: unknown): void {
    this.checkRange(sheet, r, c, nr, nc);
    for (let i = 0; i < nr; i++) {
      for (let j = 0; j < nc; j++) (sheet.styles[`${r + i}:${c + j}`] ??= {})[key] = value;
    }
  }

  setValidation(sheet: SheetModel, r: number, c: number, nr: number, nc: number, rule: ValidationRule | null): void {
    this.checkRange(sheet, r, c, nr, nc);
    for (let i = 0; i < nr; i++) {
      for (let j = 0; j < nc; j++) {
        if (rule) sheet.validations[`${r + i}:${c + j}`] = rule;
        else delete sheet.validations[`${r + i}:${c + j}`];
      }
    }
  }

  getValidations(sheet: SheetModel, r: number, c: number, nr: number, nc: number): (ValidationRule | null)[][] {
    this.checkRange(sheet, r, c, nr, nc);
    const out: (ValidationRule | null)[][] = [];
    for (let i = 0; i < nr; i++) {
      const line: (ValidationRule | null)[] = [];
      for (let j = 0; j < nc; j++) line.push(sheet.validations[`${r + i}:${c + j}`] ?? null);
      out.push(line);
    }
    return out;
  }

  // New rows copy the number formats of the row they are inserted next to, as Sheets does.
  insertRows(sheet: SheetModel, at: number, count: number, copyFrom: number): void {
    if (count < 1) throw new SheetsError('Invalid argument: howMany');
    if (at < 1 || at > sheet.maxRows + 1) throw new SheetsError('Those rows are out of bounds.');
    this.ensureCapacity(count * sheet.maxCols);
    const template = sheet.formats[copyFrom - 1];
    // concat, not splice(...spread): a spread of a large insert overflows the call stack.
    if (at - 1 < sheet.cells.length)
      sheet.cells = sheet.cells.slice(0, at - 1).concat(new Array(count).fill(undefined), sheet.cells.slice(at - 1));
    const fmtRows = new Array(count).fill(undefined).map(() => (template ? template.slice() : undefined));
    while (sheet.formats.length < at - 1) sheet.formats.push(undefined);
    sheet.formats = sheet.formats.slice(0, at - 1).concat(fmtRows, sheet.formats.slice(at - 1));
    sheet.validations = shiftKeys(sheet.validations, at, count);
    sheet.styles = shiftKeys(sheet.styles, at, count);
    sheet.maxRows += count;
  }

  deleteRows(sheet: SheetModel, start: number, count: number): void {
    if (start < 1 || count < 1 || start + count - 1 > sheet.maxRows)
      throw new SheetsError('Those rows are out of bounds.');
    if (count >= sheet.maxRows) throw new SheetsError("You can't delete all the rows on the sheet.");
    sheet.cells.splice(start - 1, count);
    sheet.formats.splice(start - 1, count);
    sheet.validations = shiftKeys(sheet.validations, start + count, -count, start);
    sheet.styles = shiftKeys(sheet.styles, start + count, -count, start);
    sheet.maxRows -= count;
    this.trim(sheet);
  }

  insertColumns(sheet: SheetModel, at: number, count: number): void {
    if (count < 1) throw new SheetsError('Invalid argument: howMany');
    if (at < 1 || at > sheet.maxCols + 1) throw new SheetsError('Those columns are out of bounds.');
    this.ensureCapacity(count * sheet.maxRows);
    for (const row of sheet.cells)
      if (row && row.length >= at) row.splice(at - 1, 0, ...new Array(count).fill(undefined));
    for (const row of sheet.formats)
      if (row && row.length >= at) row.splice(at - 1, 0, ...new Array(count).fill(row[at - 2]));
    sheet.maxCols += count;
  }

  deleteColumns(sheet: SheetModel, start: number, count: number): void {
    if (start < 1 || count < 1 || start + count - 1 > sheet.maxCols)
      throw new SheetsError('Those columns are out of bounds.');
    if (count >= sheet.maxCols) throw new SheetsError("You can't delete all the columns on the sheet.");
    for (const row of sheet.cells) if (row) row.splice(start - 1, count);
    for (const row of sheet.formats) if (row) row.splice(start - 1, count);
    sheet.maxCols -= count;
    this.trim(sheet);
  }

  find(
    sheet: SheetModel,
    r: number,
    c: number,
    nr: number,
    nc: number,
    o: FindOptions,
  ): { row: number; col: number }[] {
    this.checkRange(sheet, r, c, nr, nc);
    const hits: { row: number; col: number }[] = [];
    const flags = o.matchCase ? '' : 'i';
    const source = o.useRegularExpression ? o.text : o.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(o.matchEntireCell ? `^(?:${source})$` : source, flags);
    const lastRow = Math.min(r + nr - 1, sheet.cells.length);
    for (let i = r; i <= lastRow; i++) {
      const row = sheet.cells[i - 1];
      if (!row) continue;
      for (let j = c; j < c + nc && j <= row.length; j++) {
        const cell = row[j - 1];
        if (emptyCell(cell)) continue;
        const text = o.matchFormulaText && cell!.f ? cell!.f : displayValue(cell, this.timeZone);
        if (re.test(text)) hits.push({ row: i, col: j });
      }
    }
    return hits;
  }

  a1(r: number, c: number, nr: number, nc: number): string {
    return toA1(r, c, nr, nc);
  }
}

function shiftKeys<T>(map: Record<string, T>, fromRow: number, delta: number, dropFrom?: number): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(map)) {
    const [row, col] = key.split(':').map(Number);
    if (dropFrom !== undefined && row >= dropFrom && row < fromRow) continue;
    out[row >= fromRow ? `${row + delta}:${col}` : key] = value;
  }
  return out;
}

export { columnLetter };
