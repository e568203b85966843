// The spreadsheet held by the local runtime: cells, formats, styles, validations, row and column edits, search.
import { toA1 } from './a1.js';
import {
  emptyCell,
  SheetsError,
  type ClearOptions,
  type FindOptions,
  type SheetModel,
  type ValidationRule,
  writableValidations,
} from './sheet-model.js';
import { writableRow } from './row-sharing.js';
import { CellInputError, coerceInput, displayValue, formulaCell, isDate, type Cell, type CellValue } from './values.js';
import { WorkbookSheets } from './workbook-sheets.js';

// The model's types and limits are imported from here by the CLI, the bench and the host.
export * from './sheet-model.js';

export class Workbook extends WorkbookSheets {
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

  format(sheet: SheetModel, r: number, c: number): string {
    return sheet.formats[r - 1]?.[c - 1] ?? '';
  }

  getCell(sheet: SheetModel, r: number, c: number): Cell | undefined {
    return sheet.cells[r - 1]?.[c - 1];
  }

  private putCell(sheet: SheetModel, r: number, c: number, cell: Cell): void {
    const row = writableRow(sheet, r - 1);
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

  clear(sheet: SheetModel, r: number, c: number, nr: number, nc: number, opts: ClearOptions): void {
    this.checkRange(sheet, r, c, nr, nc);
    for (let i = 0; i < nr; i++) {
      // A row of formats is replaced, never changed in place: a sheet's copy shares them (write-buffer.ts).
      const was = opts.formats ? sheet.formats[r - 1 + i] : undefined;
      const fr = was ? (sheet.formats[r - 1 + i] = was.slice()) : undefined;
      for (let j = 0; j < nc; j++) {
        if (opts.contents) this.putCell(sheet, r + i, c + j, { v: '' });
        if (opts.formats) {
          if (fr) fr[c - 1 + j] = undefined;
          delete sheet.styles[`${r + i}:${c + j}`];
        }
        if (opts.validations) delete writableValidations(sheet)[`${r + i}:${c + j}`];
      }
    }
    this.trim(sheet);
  }

  setNumberFormats(sheet: SheetModel, r: number, c: number, nr: number, nc: number, formats: string[][]): void {
    this.checkRange(sheet, r, c, nr, nc);
    for (let i = 0; i < nr; i++) {
      // A new row, not the old one changed: a sheet's copy shares its rows of formats (write-buffer.ts).
      const row = (sheet.formats[r - 1 + i] = sheet.formats[r - 1 + i]?.slice() ?? []);
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
    const validations = writableValidations(sheet);
    for (let i = 0; i < nr; i++) {
      for (let j = 0; j < nc; j++) {
        if (rule) validations[`${r + i}:${c + j}`] = rule;
        else delete validations[`${r + i}:${c + j}`];
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
    for (let i = 0; i < sheet.cells.length; i++)
      if (sheet.cells[i] && sheet.cells[i].length >= at)
        writableRow(sheet, i).splice(at - 1, 0, ...new Array(count).fill(undefined));
    sheet.formats = sheet.formats.map((row) =>
      row && row.length >= at
        ? row.slice(0, at - 1).concat(new Array(count).fill(row[at - 2]), row.slice(at - 1))
        : row,
    );
    sheet.maxCols += count;
  }

  deleteColumns(sheet: SheetModel, start: number, count: number): void {
    if (start < 1 || count < 1 || start + count - 1 > sheet.maxCols)
      throw new SheetsError('Those columns are out of bounds.');
    if (count >= sheet.maxCols) throw new SheetsError("You can't delete all the columns on the sheet.");
    for (let i = 0; i < sheet.cells.length; i++) if (sheet.cells[i]) writableRow(sheet, i).splice(start - 1, count);
    sheet.formats = sheet.formats.map((row) =>
      row ? row.slice(0, start - 1).concat(row.slice(start - 1 + count)) : row,
    );
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
