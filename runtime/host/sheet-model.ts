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
