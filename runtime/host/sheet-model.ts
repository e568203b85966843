// The data model of one sheet in the local runtime's workbook, and the Sheets errors its edits raise.
import type { Cell } from './values.js';

export const MAX_WORKBOOK_CELLS = 10_000_000;
export const CELLS_LIMIT_MESSAGE = `This action would increase the number of cells in the workbook above the limit of ${MAX_WORKBOOK_CELLS} cells.`;
export const DEFAULT_ROWS = 1000;
export const DEFAULT_COLS = 26;

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

export interface ClearOptions {
  contents?: boolean;
  formats?: boolean;
  validations?: boolean;
}

export class SheetsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

export function emptyCell(c: Cell | undefined): boolean {
  return !c || (c.v === '' && !c.f);
}

// The rows of cells each sheet made itself and may change in place. Any other row may be shared with another sheet
// model (an execution's copy, write-buffer.ts, shares the rows of the sheet it copies), so it is copied before its
// first change: each model then sees only its own edits, as when every row was copied up front, without copying the
// rows that are never written. Kept beside the models, not in them, so that a model stays plain data.
const ownRows = new WeakMap<object, WeakSet<object>>();

type Rows = { cells: (Cell | undefined)[][] };

// Row r (0-based) of a sheet's cells, made if missing and copied unless the sheet made it, ready to change in place.
export function writableRow(sheet: Rows, r: number): (Cell | undefined)[] {
  let own = ownRows.get(sheet);
  if (!own) ownRows.set(sheet, (own = new WeakSet()));
  const row = sheet.cells[r];
  if (row && own.has(row)) return row;
  const made: (Cell | undefined)[] = row ? row.slice() : [];
  sheet.cells[r] = made;
  own.add(made);
  return made;
}

// A copy of a sheet's rows of cells that shares the rows themselves: from now on neither model changes one in place.
export function shareRows(sheet: Rows): (Cell | undefined)[][] {
  ownRows.delete(sheet);
  return sheet.cells.slice();
}

// Maps of validations (thousands of keys on a set-up tab) another sheet model shares: the one to change is copied
// first. The copy's own map is not in here, so the side that changes first copies and the other keeps the original.
const sharedMaps = new WeakSet<object>();

export function shareValidations(sheet: SheetModel): SheetModel['validations'] {
  sharedMaps.add(sheet.validations);
  return sheet.validations;
}

export function writableValidations(sheet: SheetModel): SheetModel['validations'] {
  if (sharedMaps.has(sheet.validations)) sheet.validations = { ...sheet.validations };
  return sheet.validations;
}
