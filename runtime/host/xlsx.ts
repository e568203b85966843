// Saves the runtime's workbook to .xlsx (readable in any spreadsheet program) and loads it back losslessly.
import ExcelJS from 'exceljs';
import { FormatError, formatVersion, isRecord } from './format-errors.js';
import { epochToWall, isDate, wallToEpoch, type Cell } from './values.js';
import { Workbook, type SheetModel, type ValidationRule } from './workbook.js';

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
type SheetMeta = Pick<
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
  overflow: { r: number; c: number; rest: string }[];
  formulas: { r: number; c: number; f: string }[];
};

interface Meta {
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

function sheetMeta(s: SheetModel): SheetMeta {
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
  s.cells.forEach((row, ri) =>
    row?.forEach((cell, ci) => {
      if (!cell) return;
      if (cell.f) formulas.push({ r: ri + 1, c: ci + 1, f: cell.f });
      if (typeof cell.v === 'string' && cell.v.length > EXCEL_CELL_CHARS)
        overflow.push({ r: ri + 1, c: ci + 1, rest: cell.v.slice(EXCEL_CELL_CHARS) });
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
  };
}

export async function saveXlsx(wb: Workbook, file: string): Promise<void> {
  const x = new ExcelJS.Workbook();
  x.creator = 'Kaigi local runtime';
  for (const s of wb.sheets) {
    const ws = x.addWorksheet(s.name, {
      state: s.hidden ? 'hidden' : 'visible',
      views: s.frozenRows || s.frozenCols ? [{ state: 'frozen', ySplit: s.frozenRows, xSplit: s.frozenCols }] : [],
    });
    for (const [c, w] of Object.entries(s.columnWidths))
      ws.getColumn(Number(c)).width = Math.round((w / 7) * 100) / 100;
    s.cells.forEach((row, ri) =>
      row?.forEach((cell, ci) => {
        if (!cell) return;
        const xc = ws.getCell(ri + 1, ci + 1);
        const v =
          typeof cell.v === 'string' && cell.v.length > EXCEL_CELL_CHARS
            ? cell.v.slice(0, EXCEL_CELL_CHARS)
            : isDate(cell.v)
              ? // ExcelJS turns a Date into a serial as if it were UTC: give it the wall clock.
                new Date(epochToWall(cell.v.getTime(), wb.timeZone))
              : cell.v;
        xc.value = cell.f
          ? { formula: cell.f.slice(1), result: v as string | number | boolean }
          : (v as ExcelJS.CellValue);
        const fmt = s.formats[ri]?.[ci];
        if (fmt) xc.numFmt = fmt;
        if (s.styles[`${ri + 1}:${ci + 1}`]?.fontWeight === 'bold') xc.font = { bold: true };
      }),
    );
  }
  const meta: Meta = {
    version: META_VERSION,
    id: wb.id,
    name: wb.name,
    timeZone: wb.timeZone,
    locale: wb.locale,
    activeSheetId: wb.activeSheetId,
    sheets: wb.sheets.map(sheetMeta),
  };
  const ms = x.addWorksheet(META_SHEET, { state: 'veryHidden' });
  const text = JSON.stringify(meta);
  for (let i = 0, r = 1; i < text.length; i += EXCEL_CELL_CHARS, r++)
    ms.getCell(r, 1).value = text.slice(i, i + EXCEL_CELL_CHARS);
  await x.xlsx.writeFile(file);
}

// How a date cell's serial is read: version 1 files hold the instant; later ones, and files without the metadata
// sheet (a Google Sheets download), hold the spreadsheet's wall clock. Nothing is rounded: what the runtime
// writes is whole seconds already, and a date that came from a version 1 file keeps its milliseconds through
// later saves, so digests recorded over it still verify (src/core/cells.ts, the 'exact' form).
type DateReader = (d: Date) => Date;

function dateReader(version: number, timeZone: string): DateReader {
  if (version === 1) return (d) => new Date(d.getTime());
  return (d) => new Date(wallToEpoch(d.getTime(), timeZone));
}

function cellFrom(v: ExcelJS.CellValue, readDate: DateReader): Cell | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { v };
  if (isDate(v)) return { v: readDate(v) };
  const o = v as unknown as Record<string, unknown>;
  if ('formula' in o) return { v: (o.result as string | number | boolean) ?? '', f: `=${String(o.formula)}` };
  if ('richText' in o) return { v: (o.richText as { text: string }[]).map((t) => t.text).join('') };
  if ('text' in o) return { v: String(o.text) };
  if ('error' in o) return { v: String(o.error) };
  return { v: String(v) };
}

// A blob of an unknown version stops the load: reading it as something else would lose what it says.
function parseMeta(text: string, file: string): Meta {
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

export async function loadXlsx(file: string): Promise<Workbook> {
  const x = new ExcelJS.Workbook();
  await x.xlsx.readFile(file);
  const metaSheet = x.getWorksheet(META_SHEET);
  let text = '';
  metaSheet?.eachRow((row) => {
    text += String(row.getCell(1).value ?? '');
  });
  const meta = text ? parseMeta(text, file) : null;
  const wb = new Workbook(
    meta?.id ?? 'local-spreadsheet',
    meta?.name ?? 'Kaigi',
    meta?.timeZone ?? 'Asia/Tokyo',
    meta?.locale ?? 'ja_JP',
  );
  const readDate = dateReader(meta?.version ?? META_VERSION, wb.timeZone);
  x.eachSheet((ws) => {
    if (ws.name === META_SHEET) return;
    const m = meta?.sheets.find((s) => s.name === ws.name);
    const s: SheetModel = {
      id: m?.id ?? wb.sheets.length,
      name: ws.name,
      cells: [],
      formats: [],
      styles: m?.styles ?? {},
      validations: {},
      maxRows: m?.maxRows ?? Math.max(1000, ws.rowCount),
      maxCols: m?.maxCols ?? Math.max(26, ws.columnCount),
      frozenRows: m?.frozenRows ?? 0,
      frozenCols: m?.frozenCols ?? 0,
      columnWidths: m?.columnWidths ?? {},
      hidden: m?.hidden ?? ws.state !== 'visible',
      tabColor: m?.tabColor ?? null,
      protections: m?.protections ?? [],
      charts: m?.charts ?? [],
    };
    ws.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (xc, c) => {
        const cell = cellFrom(xc.value, readDate);
        if (!cell) return;
        (s.cells[r - 1] ??= [])[c - 1] = cell;
        if (!m && xc.numFmt) (s.formats[r - 1] ??= [])[c - 1] = xc.numFmt;
      });
    });
    if (m) {
      for (const run of m.formats)
        for (let r = run.from; r <= run.to; r++) (s.formats[r - 1] ??= [])[run.col - 1] = run.value;
      for (const run of m.validations)
        for (let r = run.from; r <= run.to; r++) s.validations[`${r}:${run.col}`] = m.rules[run.value];
      for (const o of m.overflow) {
        const cell = s.cells[o.r - 1]?.[o.c - 1];
        if (cell && typeof cell.v === 'string') cell.v += o.rest;
      }
      for (const f of m.formulas) {
        const cell = s.cells[f.r - 1]?.[f.c - 1];
        if (cell) cell.f = f.f;
      }
    }
    wb.adoptSheet(s);
  });
  if (meta) wb.activeSheetId = meta.activeSheetId;
  return wb;
}
