// An in-memory workbook behind the spreadsheet ports: cells as values, rows and columns 1-based, as Sheets keeps them.
import type { RangePort, SheetPort, SpreadsheetPort, TextFinderPort } from '../../ports.js';

type Cell = unknown;

// Sheets gives an empty cell back as '' and a date as a new Date each read; it never holds null or undefined.
function stored(v: unknown): Cell {
  if (v === null || v === undefined) return '';
  return v instanceof Date ? new Date(v.getTime()) : v;
}

// A call past the grid is the same mistake Sheets refuses, so it fails here too instead of growing the grid.
class GridError extends Error {}

function columnLetters(c: number): string {
  let s = '';
  for (let n = c; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

class MemoryFinder implements TextFinderPort {
  private entire = false;
  private exactCase = false;
  private regex = false;

  constructor(
    private readonly range: MemoryRange,
    private readonly text: string,
  ) {}

  matchEntireCell(on: boolean): TextFinderPort {
    this.entire = on;
    return this;
  }

  matchCase(on: boolean): TextFinderPort {
    this.exactCase = on;
    return this;
  }

  useRegularExpression(on: boolean): TextFinderPort {
    this.regex = on;
    return this;
  }

  private matches(cell: string): boolean {
    if (this.regex) {
      const source = this.entire ? `^(?:${this.text})$` : this.text;
      return new RegExp(source, this.exactCase ? '' : 'i').test(cell);
    }
    const [a, b] = this.exactCase ? [cell, this.text] : [cell.toLowerCase(), this.text.toLowerCase()];
    return this.entire ? a === b : a.indexOf(b) >= 0;
  }

  findAll(): RangePort[] {
    const out: RangePort[] = [];
    this.range.getValues().forEach((row, r) =>
      row.forEach((v, c) => {
        if (v !== '' && this.matches(String(v)))
          out.push(this.range.sheet.getRange(this.range.getRow() + r, this.range.getColumn() + c));
      }),
    );
    return out;
  }
}

class MemoryRange implements RangePort {
  constructor(
    readonly sheet: MemorySheet,
    private readonly row: number,
    private readonly column: number,
    private readonly rows: number,
    private readonly columns: number,
  ) {}

  getRow(): number {
    return this.row;
  }
  getColumn(): number {
    return this.column;
  }
  getNumRows(): number {
    return this.rows;
  }
  getNumColumns(): number {
    return this.columns;
  }

  getA1Notation(): string {
    const start = `${columnLetters(this.column)}${this.row}`;
    if (this.rows === 1 && this.columns === 1) return start;
    return `${start}:${columnLetters(this.column + this.columns - 1)}${this.row + this.rows - 1}`;
  }

  getValues(): unknown[][] {
    const out: unknown[][] = [];
    for (let r = 0; r < this.rows; r++) {
      const line = this.sheet.cells[this.row - 1 + r] ?? [];
      const row: unknown[] = [];
      for (let c = 0; c < this.columns; c++) row.push(stored(line[this.column - 1 + c]));
      out.push(row);
    }
    return out;
  }

  setValues(values: unknown[][]): RangePort {
    if (values.length !== this.rows || values.some((v) => v.length !== this.columns))
      throw new GridError(
        `The data has ${values.length} rows of ${values[0]?.length ?? 0} but the range is ${this.rows} by ${this.columns}.`,
      );
    values.forEach((v, r) => {
      const line = this.sheet.line(this.row + r);
      v.forEach((x, c) => {
        line[this.column - 1 + c] = stored(x);
      });
    });
    return this;
  }

  clearContent(): RangePort {
    return this.setValues(Array.from({ length: this.rows }, () => Array<unknown>(this.columns).fill('')));
  }

  createTextFinder(text: string): TextFinderPort {
    return new MemoryFinder(this, text);
  }
}

export class MemorySheet implements SheetPort {
  // Row r (1-based) is cells[r - 1]; a row never written is absent or shorter than the grid.
  readonly cells: Cell[][] = [];

  constructor(
    private name: string,
    private maxRows: number,
    private maxColumns: number,
  ) {}

  line(row: number): Cell[] {
    while (this.cells.length < row) this.cells.push([]);
    return this.cells[row - 1];
  }

  getName(): string {
    return this.name;
  }

  getRange(row: number, column: number, rows = 1, columns = 1): RangePort {
    if (row < 1 || column < 1 || rows < 1 || columns < 1)
      throw new GridError(`The coordinates of the range are outside the dimensions of the sheet (${this.name}).`);
    if (row + rows - 1 > this.maxRows || column + columns - 1 > this.maxColumns)
      throw new GridError(`The range runs past the grid of ${this.name} (${this.maxRows} × ${this.maxColumns}).`);
    return new MemoryRange(this, row, column, rows, columns);
  }

  getDataRange(): RangePort {
    return this.getRange(1, 1, Math.max(1, this.getLastRow()), Math.max(1, this.getLastColumn()));
  }

  getLastRow(): number {
    for (let r = this.cells.length; r > 0; r--) if (this.cells[r - 1].some((v) => v !== '')) return r;
    return 0;
  }

  getLastColumn(): number {
    let last = 0;
    for (const line of this.cells)
      for (let c = line.length; c > last; c--)
        if (line[c - 1] !== '') {
          last = c;
          break;
        }
    return last;
  }

  getMaxRows(): number {
    return this.maxRows;
  }

  getMaxColumns(): number {
    return this.maxColumns;
  }

  insertRowsAfter(after: number, count: number): SheetPort {
    if (this.cells.length > after) this.cells.splice(after, 0, ...Array.from({ length: count }, () => []));
    this.maxRows += count;
    return this;
  }

  deleteRows(position: number, count: number): SheetPort {
    this.cells.splice(position - 1, count);
    this.maxRows -= count;
    return this;
  }

  // A sheet of its own with the same cells, for a workbook copied from a set-up one.
  copy(): MemorySheet {
    const twin = new MemorySheet(this.name, this.maxRows, this.maxColumns);
    for (const line of this.cells) twin.cells.push(line.map(stored));
    return twin;
  }

  // Only the in-memory tab upgrade widens a tab; Sheets' own is insertColumnsAfter on the Apps Script side.
  addColumns(count: number): void {
    this.maxColumns += count;
  }
}

export class MemorySpreadsheet implements SpreadsheetPort {
  readonly sheets: MemorySheet[] = [];

  constructor(
    private readonly timeZone: string,
    private readonly id = 'memory-spreadsheet',
  ) {}

  getId(): string {
    return this.id;
  }

  getSheetByName(name: string): MemorySheet | null {
    return this.sheets.find((s) => s.getName() === name) ?? null;
  }

  getSheets(): MemorySheet[] {
    return this.sheets.slice();
  }

  getSpreadsheetTimeZone(): string {
    return this.timeZone;
  }

  copy(): MemorySpreadsheet {
    const twin = new MemorySpreadsheet(this.timeZone, this.id);
    for (const sheet of this.sheets) twin.sheets.push(sheet.copy());
    return twin;
  }

  // A new tab as Sheets makes one: 1,000 empty rows, here as wide as asked.
  insertSheet(name: string, columns: number): MemorySheet {
    const sheet = new MemorySheet(name, 1000, columns);
    this.sheets.push(sheet);
    return sheet;
  }
}
