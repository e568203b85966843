// The hidden metadata sheet of a saved workbook: what the xlsx format cannot say, as a JSON blob down column A.
import { FormatError, formatVersion, isRecord } from './format-errors.js';
import { CellTyper } from './xlsx-cells.js';
import type { RawBook, RawSheet } from './xlsx-read.js';
import type { SheetModel, ValidationRule } from './workbook.js';
// Excel shows at most 32,767 characters per cell; Sheets allows 50,000. The visible cell keeps the
// first part and the hidden metadata sheet keeps the rest, so reloading is lossless.
const EXCEL_CELL_CHARS = 32767;
export const META_SHEET = '__gas_runtime__';
// The metadata blob's format; a blob without the field is read as 1.
//   1: date cells hold UTC serials of the exact instant (milliseconds kept), as the runtime first wrote them.
//   2: date cells hold the serial of the spreadsheet's wall clock in its time zone, to the second, as Sheets
//      and a Google Sheets download do (values.ts), so Excel and Calc show the times the sheet shows.
export const META_VERSION = 2;
const META_WHAT = `the workbook metadata sheet ${META_SHEET}`;

interface Run<T> {
  col: number;
  from: number;
  to: number;
  value: T;
}

// What the xlsx format cannot say about a sheet, kept in the hidden metadata sheet.
export type SheetMeta = Pick<
  SheetModel,
  | 'id'
  | 'name'
  | 'maxRows'
  | 'maxCols'
  | 'frozenRows'
  | 'frozenCols'
  | 'columnWidths'
  | 'hidden'
  | 'tabColor'
  | 'protections'
  | 'charts'
  | 'styles'
> & {
  formats: Run<string>[];
  validations: Run<number>[];
  rules: ValidationRule[];
  // h: a hash of the part the cell keeps, so a cell edited in another program does not get the old rest appended.
  overflow: { r: number; c: number; rest: string; h?: string }[];
  formulas: { r: number; c: number; f: string }[];
  // Values LibreOffice rewrites: numbers that 15 significant digits do not hold (it writes no more) and text with
  // a CR (it makes every line break LF). Each comes back as written when the file holds LibreOffice's form of it,
  // and the file's own value when someone changed it.
  exact?: { r: number; c: number; v: number | string }[];
};

export interface Meta {
  version: number;
  id: string;
  name: string;
  timeZone: string;
  locale: string;
  activeSheetId: number;
  sheets: SheetMeta[];
}

// Column-wise run-length encoding of a per-cell attribute.
function encodeRuns<T>(
  get: (r: number, c: number) => T | undefined,
  rows: number,
  cols: number,
  same: (a: T, b: T) => boolean,
): Run<T>[] {
  const runs: Run<T>[] = [];
  for (let c = 1; c <= cols; c++) {
    let cur: Run<T> | null = null;
    for (let r = 1; r <= rows; r++) {
      const v = get(r, c);
      if (v !== undefined && cur && cur.to === r - 1 && same(cur.value, v)) cur.to = r;
      else if (v !== undefined) runs.push((cur = { col: c, from: r, to: r, value: v }));
      else cur = null;
    }
  }
  return runs;
}

export function sheetMeta(s: SheetModel): SheetMeta {
  const rules: ValidationRule[] = [];
  const ruleKeys: string[] = [];
  const ruleIndex = (rule: ValidationRule) => {
    const key = JSON.stringify(rule);
    let i = ruleKeys.indexOf(key);
    if (i < 0) {
      i = ruleKeys.push(key) - 1;
      rules.push(rule);
    }
    return i;
  };
  const overflow: SheetMeta['overflow'] = [];
  const formulas: SheetMeta['formulas'] = [];
  const exact: NonNullable<SheetMeta['exact']> = [];
  s.cells.forEach((row, ri) =>
    row?.forEach((cell, ci) => {
      if (!cell) return;
      if (cell.f) formulas.push({ r: ri + 1, c: ci + 1, f: cell.f });
      else if ((typeof cell.v === 'number' || typeof cell.v === 'string') && rewritten(cell.v) !== cell.v)
        exact.push({ r: ri + 1, c: ci + 1, v: cell.v });
      if (typeof cell.v === 'string' && cell.v.length > EXCEL_CELL_CHARS) {
        const n = cellPart(cell.v, 0);
        overflow.push({ r: ri + 1, c: ci + 1, rest: cell.v.slice(n), h: textHash(rewritten(cell.v.slice(0, n))) });
      }
    }),
  );
  const maxFormatRow = s.formats.length;
  return {
    id: s.id,
    name: s.name,
    maxRows: s.maxRows,
    maxCols: s.maxCols,
    frozenRows: s.frozenRows,
    frozenCols: s.frozenCols,
    columnWidths: s.columnWidths,
    hidden: s.hidden,
    tabColor: s.tabColor,
    protections: s.protections,
    charts: s.charts,
    styles: s.styles,
    formats: encodeRuns(
      (r, c) => s.formats[r - 1]?.[c - 1],
      maxFormatRow,
      s.maxCols,
      (a, b) => a === b,
    ),
    validations: encodeRuns(
      (r, c) => (s.validations[`${r}:${c}`] ? ruleIndex(s.validations[`${r}:${c}`]) : undefined),
      s.maxRows,
      s.maxCols,
      (a, b) => a === b,
    ),
    rules,
    overflow,
    formulas,
    exact,
  };
}

// What LibreOffice makes of a value it rewrites; see SheetMeta.exact.
export function rewritten(v: string): string;
export function rewritten(v: number | string): number | string;
export function rewritten(v: number | string): number | string {
  return typeof v === 'number' ? Number(v.toPrecision(15)) : v.replace(/\r\n?/g, '\n');
}

// How many characters of text from `from` go in one cell: at most Excel's limit, and never a split surrogate pair
// or CR LF, which a program would store as a broken character or two line breaks.
export function cellPart(text: string, from: number): number {
  const end = from + EXCEL_CELL_CHARS;
  if (end >= text.length) return text.length - from;
  const last = text.charCodeAt(end - 1);
  const split = (last >= 0xd800 && last <= 0xdbff) || (last === 13 && text.charCodeAt(end) === 10);
  return EXCEL_CELL_CHARS - (split ? 1 : 0);
}

// FNV-1a over the UTF-16 code units: enough to tell an edited cell from the one the runtime wrote. It is taken over
// the text with LF line breaks, so LibreOffice's rewriting of CRs does not count as an edit.
export function textHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return `${s.length}:${h.toString(16)}`;
}

// A blob of an unknown version stops the load: reading it as something else would lose what it says.
export function parseMeta(text: string, file: string): Meta {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new FormatError(file, META_WHAT, `not JSON (${(e as Error).message})`);
  }
  if (!isRecord(raw)) throw new FormatError(file, META_WHAT, 'not a JSON object');
  const version = formatVersion(raw, 'version', META_VERSION, file, META_WHAT);
  if (!Array.isArray(raw.sheets)) throw new FormatError(file, META_WHAT, '"sheets" should be a list');
  return { ...raw, version } as unknown as Meta;
}

// The blob is the text of column A, row after row. A program may have stored a part as rich text (LibreOffice
// does when the text mixes scripts); the reader gives its plain text, and anything but text is an error.
export function metaText(sheet: RawSheet, book: RawBook): string {
  const fail: (where: string, problem: string) => never = (where, problem) => {
    throw new FormatError(book.file, `${META_WHAT}, ${where}`, problem);
  };
  const typer = new CellTyper(META_SHEET, book.sharedStrings, book.styles, book.date1904, (ms) => new Date(ms), fail);
  const parts: { row: number; text: string }[] = [];
  for (const raw of sheet.cells) {
    if (raw.col !== 1) continue;
    const cell = typer.type(raw);
    if (!cell) continue;
    if (typeof cell.value !== 'string' || cell.formula !== undefined)
      fail(`row ${raw.row}`, `a part of the blob is ${cell.formula ? 'a formula' : typeof cell.value}, not text`);
    parts.push({ row: raw.row, text: cell.value });
  }
  return parts
    .sort((a, b) => a.row - b.row)
    .map((p) => p.text)
    .join('');
}
