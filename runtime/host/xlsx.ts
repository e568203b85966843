// Saves the runtime's workbook to .xlsx (readable in any spreadsheet program) and loads it back losslessly, also
// after Excel, LibreOffice Calc or Google Sheets has saved it again (xlsx-read.ts and xlsx-cells.ts read the file).
import fs from 'node:fs';
import { FormatError } from './format-errors.js';
import { PRIVATE_MODE } from './journal.js';
import { coerceInput, epochToWall, isDate, wallToEpoch, type Cell } from './values.js';
import { CellTyper, isDateFormat, type TypedCell } from './xlsx-cells.js';
import { readXlsx, type RawBook, type RawSheet } from './xlsx-read.js';
import { type SheetPart, type XlsxCell, xlsxFile } from './xlsx-write.js';
import {
  cellPart,
  META_SHEET,
  META_VERSION,
  metaText,
  parseMeta,
  rewritten,
  sheetMeta,
  textHash,
  type Meta,
  type SheetMeta,
} from './xlsx-meta.js';
import { DEFAULT_COLS, DEFAULT_ROWS, Workbook, type SheetModel } from './workbook.js';

// Tests name the metadata sheet and its version through this module, where they were first defined.
export { META_SHEET, META_VERSION } from './xlsx-meta.js';

// Text as the xlsx format stores it (ST_Xstring): a character XML cannot hold, and a CR (which an XML parser turns
// into LF), is written _xHHHH_, and text that already looks like such an escape gets its underscore escaped
// (_x005F_), so every program reads back exactly the text written.
// Written as "anything but TAB, LF and U+0020–U+FFFD", which are the characters XML holds, less the surrogates.
const NEEDS_ESCAPE =
  /_x[0-9A-Fa-f]{4}_|[^\t\n\u0020-\uFFFD]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xlsxText(s: string): string {
  return s.replace(NEEDS_ESCAPE, (m) =>
    m.length > 1 ? `_x005F${m}` : `_x${m.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
  );
}

// Readable by its owner only, as every file a project save writes (snapshot-commit.ts), whatever the umask.
export async function saveXlsx(wb: Workbook, file: string): Promise<void> {
  await fs.promises.writeFile(file, xlsxBytes(wb), { mode: PRIVATE_MODE });
  await fs.promises.chmod(file, PRIVATE_MODE);
}

// The .xlsx of a workbook as it is now: built at once (no await), so a save sees one instant of the state, and the
// bytes written later do not change with it (Runtime.save).
export function xlsxBytes(wb: Workbook): Buffer {
  const sheets: SheetPart[] = wb.sheets.map((s) => {
    const rows: SheetPart['rows'] = [];
    s.cells.forEach((row, ri) => {
      const cells: XlsxCell[] = [];
      row?.forEach((cell, ci) => {
        if (!cell) return;
        const v =
          typeof cell.v === 'string'
            ? xlsxText(cell.v.slice(0, cellPart(cell.v, 0)))
            : isDate(cell.v)
              ? // The file holds the wall clock (META_VERSION 2).
                new Date(epochToWall(cell.v.getTime(), wb.timeZone))
              : cell.v;
        // An empty text is no cell in the file (the metadata keeps its format).
        if (v === '' && !cell.f) return;
        cells.push({
          col: ci + 1,
          value: v,
          ...(cell.f ? { formula: cell.f.slice(1) } : {}),
          format: s.formats[ri]?.[ci],
          bold: s.styles[`${ri + 1}:${ci + 1}`]?.fontWeight === 'bold',
        });
      });
      if (cells.length) rows.push([ri + 1, cells]);
    });
    return {
      name: s.name,
      state: s.hidden ? 'hidden' : 'visible',
      frozenRows: s.frozenRows,
      frozenCols: s.frozenCols,
      widths: Object.entries(s.columnWidths).map(([c, w]) => [Number(c), Math.round((w / 7) * 100) / 100]),
      rows,
    };
  });
  const meta: Meta = {
    version: META_VERSION,
    id: wb.id,
    name: wb.name,
    timeZone: wb.timeZone,
    locale: wb.locale,
    activeSheetId: wb.activeSheetId,
    sheets: wb.sheets.map(sheetMeta),
  };
  const text = JSON.stringify(meta);
  const metaRows: SheetPart['rows'] = [];
  for (let i = 0, r = 1; i < text.length; r++) {
    const n = cellPart(text, i);
    metaRows.push([r, [{ col: 1, value: xlsxText(text.slice(i, i + n)) }]]);
    i += n;
  }
  sheets.push({ name: META_SHEET, state: 'veryHidden', frozenRows: 0, frozenCols: 0, widths: [], rows: metaRows });
  // A program opens the file on the spreadsheet's active sheet, as Sheets does (a hidden one cannot be active).
  return xlsxFile(
    sheets,
    wb.sheets.findIndex((s) => s.id === wb.activeSheetId && !s.hidden),
  );
}

// How a date cell's serial is read: version 1 files hold the instant; later ones, and files without the metadata
// sheet (a Google Sheets download), hold the spreadsheet's wall clock. Nothing is rounded: what the runtime
// writes is whole seconds already, and a date that came from a version 1 file keeps its milliseconds through
// later saves, so digests recorded over it still verify (src/core/cells.ts, the 'exact' form).
type DateReader = (wallMs: number) => Date;

function dateReader(version: number, timeZone: string): DateReader {
  if (version === 1) return (ms) => new Date(ms);
  // A zone's offset is looked up through Intl, which costs tens of microseconds, and a sheet holds thousands of
  // dates within a few hours. Within a wall-clock hour whose two ends have the same offset there is no change of
  // offset (no zone changes twice in an hour), so one lookup serves the whole hour.
  const hours = new Map<number, number | null>();
  const HOUR = 3600000;
  return (ms) => {
    const hour = Math.floor(ms / HOUR);
    let offset = hours.get(hour);
    if (offset === undefined) {
      const start = hour * HOUR;
      const a = wallToEpoch(start, timeZone) - start;
      const b = wallToEpoch(start + HOUR - 1, timeZone) - (start + HOUR - 1);
      offset = a === b ? a : null;
      hours.set(hour, offset);
    }
    return new Date(offset === null ? wallToEpoch(ms, timeZone) : ms + offset);
  };
}

// The same formula, however a program spelled it: case, spaces, Excel's _xlfn. prefix for newer functions.
function sameFormula(a: string, b: string): boolean {
  const norm = (f: string) =>
    f
      .replace(/^=/, '')
      .replace(/_xlfn\.|_xlws\./gi, '')
      .replace(/\s+/g, '')
      .toUpperCase();
  return norm(a) === norm(b);
}

const key = (r: number, c: number) => `${r}:${c}`;

// One sheet of the file as the runtime's model: the file says what the cells hold, what is hidden, frozen and how
// wide; the metadata says what the file cannot (formats as the script set them, validations, protections, the
// parts of long texts, exact numbers, formulas as the script wrote them).
function sheetFrom(
  raw: RawSheet,
  m: SheetMeta | undefined,
  id: number,
  book: RawBook,
  readDate: DateReader,
  timeZone: string,
): SheetModel {
  const s: SheetModel = {
    id,
    name: raw.name,
    cells: [],
    formats: [],
    styles: m?.styles ?? {},
    validations: {},
    maxRows: m?.maxRows ?? DEFAULT_ROWS,
    maxCols: m?.maxCols ?? DEFAULT_COLS,
    frozenRows: raw.frozen ? raw.frozen.rows : (m?.frozenRows ?? 0),
    frozenCols: raw.frozen ? raw.frozen.cols : (m?.frozenCols ?? 0),
    columnWidths: {},
    hidden: raw.state !== 'visible',
    tabColor: m?.tabColor ?? null,
    protections: m?.protections ?? [],
    charts: m?.charts ?? [],
  };
  // The widths the file sets win over the metadata's; a column the file leaves out keeps the metadata's width,
  // because LibreOffice leaves out a column whose width is near its default (60 px) instead of writing it.
  // The file's widths are in characters of a 7-pixel digit, as the runtime writes them and Excel reads them.
  s.columnWidths = { ...m?.columnWidths };
  for (const [c, w] of raw.widths) if (c <= Math.max(s.maxCols, DEFAULT_COLS)) s.columnWidths[c] = Math.round(w * 7);
  const formulas = new Map<string, string>();
  const overflow = new Map<string, { rest: string; h?: string }>();
  const exact = new Map<string, number | string>();
  if (m) {
    for (const run of m.formats)
      for (let r = run.from; r <= run.to; r++) (s.formats[r - 1] ??= [])[run.col - 1] = run.value;
    for (const run of m.validations)
      for (let r = run.from; r <= run.to; r++) s.validations[key(r, run.col)] = m.rules[run.value];
    for (const o of m.overflow) overflow.set(key(o.r, o.c), o);
    for (const f of m.formulas) formulas.set(key(f.r, f.c), f.f);
    for (const x of m.exact ?? []) exact.set(key(x.r, x.c), x.v);
  }
  const fail: (where: string, problem: string) => never = (where, problem) => {
    throw new FormatError(book.file, where, problem);
  };
  const typer = new CellTyper(raw.name, book.sharedStrings, book.styles, book.date1904, readDate, fail);
  for (const rc of raw.cells) {
    const typed = typer.type(rc);
    if (!typed) continue;
    const { row: r, col: c } = rc;
    const k = key(r, c);
    const metaFormat = s.formats[r - 1]?.[c - 1];
    // Formats are the script's when the metadata has the sheet: the writer gives a date cell without one Excel's
    // date format (xlsx-write.ts), which must not come back as if the script had set it.
    if (!m && typed.format) (s.formats[r - 1] ??= [])[c - 1] = typed.format;
    const cell = cellFrom(typed, formulas.get(k), metaFormat, timeZone);
    const head = cell.v;
    if (typeof head === 'string' && !cell.f) {
      const o = overflow.get(k);
      if (o && (o.h === undefined || o.h === textHash(rewritten(head)))) cell.v = head + o.rest;
    }
    const written = exact.get(k);
    if (written !== undefined && !cell.f && (typeof cell.v === 'number' || typeof cell.v === 'string'))
      if (typeof cell.v === typeof written && rewritten(cell.v) === rewritten(written)) cell.v = written;
    if (cell.v === '' && !cell.f) continue;
    (s.cells[r - 1] ??= [])[c - 1] = cell;
    s.maxRows = Math.max(s.maxRows, r);
    s.maxCols = Math.max(s.maxCols, c);
  }
  return s;
}

// A typed cell as the runtime holds it. A formula the runtime wrote keeps its own spelling; LibreOffice's TRUE()
// for a plain boolean is the boolean. Text where the cell's format is a date (a download that wrote dates as
// text) is the date it says, in the spreadsheet's time zone, as Sheets reads typed input.
function cellFrom(
  typed: TypedCell,
  metaFormula: string | undefined,
  metaFormat: string | undefined,
  timeZone: string,
): Cell {
  let f = typed.formula;
  if (f !== undefined && metaFormula !== undefined && sameFormula(f, metaFormula)) f = metaFormula;
  else if (f !== undefined && typed.booleanFormula && metaFormula === undefined) f = undefined;
  const v = typed.value;
  if (f === undefined && typeof v === 'string' && (isDateFormat(metaFormat ?? '') || isDateFormat(typed.format))) {
    const parsed = coerceInput(v, '', timeZone).v;
    if (isDate(parsed)) return { v: parsed };
  }
  return f === undefined ? { v } : { v, f };
}

export async function loadXlsx(file: string): Promise<Workbook> {
  const book = readXlsx(file);
  const metaSheet = book.sheets.find((s) => s.name === META_SHEET);
  const text = metaSheet ? metaText(metaSheet, book) : '';
  const meta = text ? parseMeta(text, file) : null;
  const wb = new Workbook(
    meta?.id ?? 'local-spreadsheet',
    meta?.name ?? 'Kaigi',
    meta?.timeZone ?? 'Asia/Tokyo',
    meta?.locale ?? 'ja_JP',
  );
  const readDate = dateReader(meta?.version ?? META_VERSION, wb.timeZone);
  const sheets = book.sheets.filter((s) => s.name !== META_SHEET);
  if (!sheets.length) throw new FormatError(file, 'the workbook', 'it has no sheet');
  // A sheet added in another program gets an id no sheet the metadata names has.
  const used = new Set<number>(meta?.sheets.map((m) => m.id) ?? []);
  let next = 0;
  for (const raw of sheets) {
    const m = meta?.sheets.find((x) => x.name === raw.name);
    let id = m?.id;
    if (id === undefined) {
      while (used.has(next)) next++;
      id = next;
    }
    used.add(id);
    wb.adoptSheet(sheetFrom(raw, m, id, book, readDate, wb.timeZone));
  }
  wb.activeSheetId = wb.sheets.some((s) => s.id === meta?.activeSheetId) ? meta!.activeSheetId : wb.sheets[0].id;
  return wb;
}
