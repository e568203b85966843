// A workbook's list of sheets: ids, names, order, grid sizes and the workbook-wide cell limit.
import { parseA1, type GridRange } from './a1.js';
import {
  CELLS_LIMIT_MESSAGE,
  DEFAULT_COLS,
  DEFAULT_ROWS,
  emptyCell,
  MAX_WORKBOOK_CELLS,
  SheetsError,
  type SheetModel,
} from './sheet-model.js';

// A sheet's id from the workbook's counter: the first sheet is 0, later ones are spread out as Sheets' ids are.
const idOf = (n: number) => (n === 0 ? 0 : n * 7919 + 100000);

// Cell-level operations live in Workbook (workbook.ts), which extends this.
export class WorkbookSheets {
  sheets: SheetModel[] = [];
  protected nextId = 0;
  protected nextObjectId = 1;
  activeSheetId = 0;

  constructor(
    public id: string,
    public name: string,
    public timeZone: string,
    public locale: string,
  ) {}

  totalCells(): number {
    let n = 0;
    for (const s of this.sheets) n += s.maxRows * s.maxCols;
    return n;
  }

  protected ensureCapacity(extra: number): void {
    if (this.totalCells() + extra > MAX_WORKBOOK_CELLS) throw new SheetsError(CELLS_LIMIT_MESSAGE);
  }

  newObjectId(): number {
    return this.nextObjectId++;
  }

  // A sheet given an id elsewhere (a journal replayed): later sheets get ids after it, as they would have live.
  noteSheetId(id: number): void {
    const n = (id - 100000) / 7919;
    if (Number.isInteger(n)) this.nextId = Math.max(this.nextId, n + 1);
  }

  // An object (protection, chart) given an id elsewhere, a journal replayed (journal-replay.ts): never handed out again.
  noteObjectId(id: number): void {
    this.nextObjectId = Math.max(this.nextObjectId, id + 1);
  }

  insertSheet(name?: string, index?: number, rows = DEFAULT_ROWS, cols = DEFAULT_COLS): SheetModel {
    const sheetName = name ?? `Sheet${this.sheets.length + 1}`;
    if (this.sheets.some((s) => s.name.toLowerCase() === sheetName.toLowerCase())) {
      throw new SheetsError(`A sheet with the name "${sheetName}" already exists. Please enter another name.`);
    }
    this.ensureCapacity(rows * cols);
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
}
