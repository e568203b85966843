// Types the cells of an .xlsx file: text (shared, inline, rich), numbers, booleans, errors, dates by number format,
// and formulas (shared ones expanded), as Excel, LibreOffice Calc and Google Sheets write them. What cannot be
// understood is an error naming the sheet, row and column, never a guess.
import { toA1 } from './a1.js';
import type { CellValue } from './values.js';

// One cell as the file stores it, before it is typed (xlsx-read.ts reads it; here so the two import one way).
export interface RawCell {
  row: number;
  col: number;
  t: string;
  style: number;
  v?: string;
  inline?: string;
  f?: string;
  fType?: string;
  fShared?: string;
  fRef?: string;
}

export interface StyleTable {
  // The number format code of each cell style (cellXfs), by style index.
  formats: string[];
}

export interface TypedCell {
  value: CellValue;
  formula?: string;
  // The cell's number format as the file gives it ('' for General).
  format: string;
  // A boolean LibreOffice wrote as the formula TRUE() or FALSE(): a value, not a formula, unless the runtime wrote it.
  booleanFormula?: boolean;
}

// Excel's built-in number formats (ECMA-376 §18.8.30); 27–36 and 50–58 are the East Asian date formats, given as
// Excel shows them in Japanese.
const BUILTIN: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  27: '[$-411]ge.m.d',
  28: '[$-411]ggge"年"m"月"d"日"',
  29: '[$-411]ggge"年"m"月"d"日"',
  30: 'm/d/yy',
  31: 'yyyy"年"m"月"d"日"',
  32: 'h"時"mm"分"',
  33: 'h"時"mm"分"ss"秒"',
  34: 'yyyy"年"m"月"',
  35: 'm"月"d"日"',
  36: '[$-411]ge.m.d',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
  50: '[$-411]ge.m.d',
  51: '[$-411]ggge"年"m"月"d"日"',
  52: 'yyyy"年"m"月"',
  53: 'm"月"d"日"',
  54: '[$-411]ggge"年"m"月"d"日"',
  55: 'yyyy"年"m"月"',
  56: 'm"月"d"日"',
  57: '[$-411]ge.m.d',
  58: '[$-411]ggge"年"m"月"d"日"',
};

// A style's format code: the file's own numFmt, else the built-in one. An id neither defines (5–8, 23–26 and
// 41–44 are currency formats that depend on the locale) is shown as General by Excel, and read so here.
export function formatCode(id: number, custom: Map<number, string>): string {
  return custom.get(id) ?? BUILTIN[id] ?? 'General';
}

// The format as the runtime keeps it: '' for General, and without the backslashes LibreOffice puts before
// literal punctuation ("yyyy\-mm\-dd"), which change nothing in how it shows.
function normalizeFormat(code: string): string {
  if (/^general$/i.test(code)) return '';
  return code.replace(/\\([^A-Za-z0-9])/g, '$1');
}

// Sections that are all quoted words, the first two the same ("TRUE";"TRUE";"FALSE"): LibreOffice's BOOLEAN format.
function isBooleanFormat(code: string): boolean {
  return /^BOOLEAN$/i.test(code) || /^"([^"]+)";"\1";"[^"]+"$/.test(code);
}

// Whether a format shows a number as a date or time: it has date or time tokens outside quoted text, escapes,
// colours, conditions and locale tags. Elapsed time ([h]:mm) is a time too.
export function isDateFormat(code: string): boolean {
  if (!code || code === '@' || isBooleanFormat(code)) return false;
  let s = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '');
  if (/\[(h+|m+|s+)\]/i.test(s)) return true;
  s = s
    .replace(/\[[^\]]*\]/g, '')
    .replace(/general/gi, '')
    .replace(/[eE][+-]/g, '');
  return /[ymdhsgeb]/i.test(s);
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?Z?$/;
const ISO_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;
// The 1900 date system counts days from 1899-12-30 (serial 25569 is 1970-01-01); the 1904 system from 1904-01-01.
const UNIX_SERIAL = 25569;
const DAYS_1904 = 1462;
const DAY_MS = 86400000;

// Reads a sheet's cells in file order, expanding shared formulas from their master cell.
export class CellTyper {
  private readonly shared = new Map<string, { row: number; col: number; formula: string }>();

  constructor(
    private readonly sheet: string,
    private readonly sharedStrings: string[],
    private readonly styles: StyleTable,
    private readonly date1904: boolean,
    // The Date a wall-clock time (as the UTC fields of a number of milliseconds) stands for in the workbook.
    private readonly readDate: (wallMs: number) => Date,
    private readonly fail: (where: string, problem: string) => never,
  ) {}

  // null for a cell that holds nothing (a style only, or empty text).
  type(raw: RawCell): TypedCell | null {
    const bad = (problem: string): never =>
      this.fail(`sheet "${this.sheet}" cell ${toA1(raw.row, raw.col)} (row ${raw.row}, column ${raw.col})`, problem);
    const fileFormat = this.styles.formats[raw.style];
    if (fileFormat === undefined && raw.style !== 0) bad(`style ${raw.style}, which the file does not define`);
    const format = normalizeFormat(fileFormat ?? 'General');
    const formula = this.formulaOf(raw, bad);
    const value = this.valueOf(raw, format, bad);
    if (value === null) return formula === undefined ? null : { value: '', formula: `=${formula}`, format };
    if (formula === undefined) return { value, format };
    const constant = /^(TRUE|FALSE)(\(\))?$/i.exec(formula.trim());
    const booleanFormula = !!constant && value === (constant[1].toUpperCase() === 'TRUE');
    return { value, formula: `=${formula}`, format, booleanFormula };
  }

  private formulaOf(raw: RawCell, bad: (problem: string) => never): string | undefined {
    if (raw.f === undefined) return undefined;
    const kind = raw.fType ?? 'normal';
    if (kind === 'normal' || kind === 'array') return raw.f || undefined;
    if (kind !== 'shared' || raw.fShared === undefined) return bad(`a formula of the kind ${JSON.stringify(kind)}`);
    if (raw.f) {
      this.shared.set(raw.fShared, { row: raw.row, col: raw.col, formula: raw.f });
      return raw.f;
    }
    const master = this.shared.get(raw.fShared);
    if (!master) return bad(`a shared formula (si=${raw.fShared}) whose first cell comes nowhere before it`);
    return shiftFormula(master.formula, raw.row - master.row, raw.col - master.col);
  }

  private valueOf(raw: RawCell, format: string, bad: (problem: string) => never): CellValue | null {
    const v = raw.v;
    switch (raw.t) {
      case 's': {
        const i = v === undefined ? Number.NaN : Number(v);
        if (!Number.isInteger(i) || i < 0 || i >= this.sharedStrings.length)
          return bad(`shared string ${JSON.stringify(v)}, of ${this.sharedStrings.length} in the file`);
        return this.sharedStrings[i] || null;
      }
      case 'inlineStr':
        return raw.inline || (v === undefined ? null : v || null);
      case 'str':
        return v === undefined || v === '' ? null : v;
      case 'b':
        if (v === undefined) return null;
        if (v === '1' || v === 'true' || v === 'TRUE') return true;
        if (v === '0' || v === 'false' || v === 'FALSE') return false;
        return bad(`the boolean ${JSON.stringify(v)}`);
      case 'e':
        if (v === undefined) return null;
        if (!v.startsWith('#')) bad(`the error value ${JSON.stringify(v)}`);
        return v;
      case 'd':
        return v === undefined || v === '' ? null : this.isoDate(v, bad);
      case 'n': {
        if (v === undefined || v === '') return null;
        if (!NUMBER.test(v.trim())) return bad(`the number ${JSON.stringify(v)}`);
        const n = Number(v);
        if (!Number.isFinite(n)) return bad(`the number ${JSON.stringify(v)}, which is out of range`);
        if (isBooleanFormat(format)) return n !== 0;
        if (isDateFormat(format)) return this.serialDate(n, bad);
        return n;
      }
      default:
        return bad(`the cell type ${JSON.stringify(raw.t)}`);
    }
  }

  private serialDate(serial: number, bad: (problem: string) => never): Date {
    // JavaScript Dates reach ±100,000,000 days; a spreadsheet's, far less.
    if (Math.abs(serial) > 1e7) bad(`the date serial ${serial}, which is no date`);
    // The inverse of what ExcelJS writes, rounded to the millisecond so a serial with 15 significant digits
    // (LibreOffice) gives back the same time.
    return this.readDate(Math.round((serial - UNIX_SERIAL + (this.date1904 ? DAYS_1904 : 0)) * DAY_MS));
  }

  // A cell of type d holds an ISO 8601 date-time: the wall clock, as a serial would be.
  private isoDate(v: string, bad: (problem: string) => never): Date {
    const m = ISO_DATE.exec(v);
    const t = m ? null : ISO_TIME.exec(v);
    if (!m && !t) return bad(`the date ${JSON.stringify(v)}`);
    const [y, mo, d, h, mi, s, ms] = m
      ? [m[1], m[2], m[3], m[4], m[5], m[6], m[7]]
      : ['1899', '12', '30', t![1], t![2], t![3], t![4]];
    const wall = Date.UTC(
      Number(y),
      Number(mo) - 1,
      Number(d),
      Number(h ?? 0),
      Number(mi ?? 0),
      Number(s ?? 0),
      Number((ms ?? '0').padEnd(3, '0')),
    );
    if (Number.isNaN(wall) || new Date(wall).getUTCDate() !== Number(d)) bad(`the date ${JSON.stringify(v)}`);
    return this.readDate(wall);
  }
}

// A shared formula's text for a cell dRow rows and dCol columns from its first cell: relative references move,
// absolute ones ($A$1) and text in quotes do not.
function shiftFormula(formula: string, dRow: number, dCol: number): string {
  if (!dRow && !dCol) return formula;
  return formula.replace(
    /("(?:[^"]|"")*")|('(?:[^']|'')*')|(?<![A-Za-z0-9_.])(\$?)([A-Za-z]{1,3})(\$?)(\d+)(?![A-Za-z0-9_(])/g,
    (m, str: string, sheet: string, colAbs: string, letters: string, rowAbs: string, digits: string) => {
      if (str || sheet) return m;
      let col = 0;
      for (const ch of letters.toUpperCase()) col = col * 26 + ch.charCodeAt(0) - 64;
      const c = colAbs ? col : col + dCol;
      const r = rowAbs ? Number(digits) : Number(digits) + dRow;
      if (c < 1 || r < 1) return '#REF!';
      return `${colAbs}${columnLetters(c)}${rowAbs}${r}`;
    },
  );
}

function columnLetters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
