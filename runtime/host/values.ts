// How a value written by a script becomes a cell: Sheets' input parsing, formulas, and the cell limit.
//
// The rule implemented (documented in docs/runtime.md, "How a written value becomes a cell"):
//   - null/undefined become '' (empty); numbers and booleans are stored as they are; Dates as below.
//   - A string written into a cell whose number format is plain text ('@') is stored verbatim.
//     Uncertain in Sheets: whether a leading apostrophe is still stripped in a plain-text cell.
//     Stricter reading: it is kept, so code must not escape twice.
//   - Otherwise a string is parsed the way Sheets parses typed input:
//       "'..."                      -> text without the apostrophe (the Sheets escape)
//       "=..."                      -> formula
//       number-like ("-1", "+5", "1,234.5", "12%", "1e3") -> number
//       "TRUE"/"FALSE" (any case)   -> boolean
//       "2024-01-31", "2024/1/31 9:05[:07]", ISO 8601 with T -> Date in the spreadsheet time zone
//         (so "2026-03-08" typed in a Pacific/Auckland spreadsheet is midnight in Auckland)
//       "+...", "-...", "@..." longer than one character and not a number -> formula "=" + text.
//         Uncertain in Sheets (it does this for + and -; @ varies by surface). Stricter reading:
//         all three become formulas, which evaluate to #ERROR!.
//       anything else               -> text
//   - A string (or formula) longer than 50,000 characters is rejected with Sheets' error.
//   - Dates (sheetDate below): Sheets keeps a date-time as a serial number, the wall clock of the
//     SPREADSHEET's time zone (not the script's); Apps Script converts a Date to it on write and back on
//     read. Two readings taken here, both the pessimistic one:
//       * Precision. Whether Sheets keeps milliseconds is not documented (its display formats stop at the
//         second). Stricter reading: it does not; a Date is truncated to the whole second on write.
//       * The hour a DST zone repeats (America/New_York 2026-11-01 01:00-02:00). A wall clock in it names
//         two instants; it is read back as the earlier one (what java.time and ICU choose), so a Date
//         written in the second occurrence comes back an hour early. A wall clock that does not exist (the
//         hour skipped in spring) is read as the instant an hour later, as java.time does.
//     Changing the spreadsheet's time zone keeps every date cell's wall clock, so its instant moves
//     (rezoneDate); the runtime re-anchors stored dates when the zone changes.

import { writableRow } from './row-sharing.js';

export type CellValue = string | number | boolean | Date;

export interface Cell {
  v: CellValue;
  f?: string;
}

const MAX_CELL_CHARS = 50000;
const CELL_LIMIT_MESSAGE = `Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`;

const NUMBER_RE = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?%?$/;
const DATE_RE =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export class CellInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

export function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

const DAY_MS = 86400000;

// Converts a wall-clock time in a time zone to epoch milliseconds. An ambiguous wall clock (the hour a DST
// zone repeats) gives the earlier instant; one that does not exist (the hour skipped) is read with the offset
// in force before the change, which lands an hour later, as java.time does.
function zonedToEpoch(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  timeZone: string,
): number {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  // No zone changes its offset twice within two days, so the offsets a day either side are the only candidates.
  const before = zoneOffsetMinutes(wall - DAY_MS, timeZone);
  const after = zoneOffsetMinutes(wall + DAY_MS, timeZone);
  const valid = [before, after].map((o) => wall - o * 60000).filter((t) => epochToWall(t, timeZone) === wall);
  return valid.length ? Math.min(...valid) : wall - before * 60000;
}

// The wall clock of an instant in a time zone, as the UTC fields of the returned number.
export function epochToWall(epochMs: number, timeZone: string): number {
  return epochMs + zoneOffsetMinutes(epochMs, timeZone) * 60000;
}

// The instant a wall clock (as the UTC fields of a number) names in a time zone; see zonedToEpoch.
export function wallToEpoch(wall: number, timeZone: string): number {
  const w = new Date(wall);
  return zonedToEpoch(
    w.getUTCFullYear(),
    w.getUTCMonth() + 1,
    w.getUTCDate(),
    w.getUTCHours(),
    w.getUTCMinutes(),
    w.getUTCSeconds(),
    w.getUTCMilliseconds(),
    timeZone,
  );
}

// What a cell gives back for a Date written to it in a spreadsheet in this zone (the readings at the top):
// truncated to the whole second, then through the spreadsheet's wall clock and back.
function sheetDate(d: Date, timeZone: string): Date {
  const t = Math.floor(d.getTime() / 1000) * 1000;
  // With one offset from a day before to a day after (no change near), the wall clock names this instant alone.
  const o = zoneOffsetMinutes(t, timeZone);
  if (zoneOffsetMinutes(t - DAY_MS, timeZone) === o && zoneOffsetMinutes(t + DAY_MS, timeZone) === o)
    return new Date(t);
  return new Date(wallToEpoch(epochToWall(t, timeZone), timeZone));
}

// A stored date after the spreadsheet's zone changes from one zone to another: same wall clock, new instant.
function rezoneDate(d: Date, from: string, to: string): Date {
  return new Date(wallToEpoch(epochToWall(d.getTime(), from), to));
}

// setSpreadsheetTimeZone: Sheets keeps every date cell's serial (its wall clock), so each stored instant moves
// with the zone; a script that later reads the cell gets the new instant. Unknown zones are refused.
export function changeTimeZone(
  book: { timeZone: string; sheets: { cells: (Cell | undefined)[][] }[] },
  tz: string,
): void {
  if (!isTimeZone(tz)) throw new CellInputError('Invalid argument: timeZone');
  const from = book.timeZone;
  if (from === tz) return;
  for (const sheet of book.sheets)
    for (let r = 0; r < sheet.cells.length; r++)
      sheet.cells[r]?.forEach((cell, i) => {
        if (cell && isDate(cell.v)) writableRow(sheet, r)[i] = { ...cell, v: rezoneDate(cell.v, from, tz) };
      });
  book.timeZone = tz;
}

// Apps Script rejects a zone it does not know; Intl knows the same IANA names.
function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const HOUR_MS = 3_600_000;
// A zone's offset by the hour: formatToParts costs tens of microseconds, and every date cell written asks for the
// offsets of its instant and of the days either side (zonedToEpoch), each instant a new one. When the offsets at an
// hour's first and last millisecond agree, the offset holds for the whole hour, as no zone changes its offset twice
// within an hour; an hour whose ends differ (a change inside it) is kept as NaN, and its instants are asked one by
// one. Bounded, forgotten at once.
const hourOffsets = new Map<string, Map<number, number>>();
export function zoneOffsetMinutes(epochMs: number, timeZone: string): number {
  const start = Math.floor(epochMs / HOUR_MS) * HOUR_MS;
  let hours = hourOffsets.get(timeZone);
  if (!hours) hourOffsets.set(timeZone, (hours = new Map()));
  let hourly = hours.get(start);
  if (hourly === undefined) {
    if (hours.size >= 10_000) hours.clear();
    const first = instantOffset(start, timeZone);
    hourly = first === instantOffset(start + HOUR_MS - 1, timeZone) ? first : Number.NaN;
    hours.set(start, hourly);
  }
  return Number.isNaN(hourly) ? instantOffset(epochMs, timeZone) : hourly;
}

// A zone's offset at an instant never changes: kept per instant (the same instants again and again).
const offsets = new Map<string, number>();
function instantOffset(epochMs: number, timeZone: string): number {
  const key = `${epochMs} ${timeZone}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size >= 10_000) offsets.clear();
    offset = offsetOf(epochMs, timeZone);
    offsets.set(key, offset);
  }
  return offset;
}

function offsetOf(epochMs: number, timeZone: string): number {
  let fmt = offsetFormatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, fmt);
  }
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(epochMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60000);
}

function parseNumber(s: string): number | undefined {
  if (!/\d/.test(s) || !NUMBER_RE.test(s)) return undefined;
  const pct = s.endsWith('%');
  const n = Number(s.replace(/,/g, '').replace('%', ''));
  if (!Number.isFinite(n)) return undefined;
  return pct ? n / 100 : n;
}

function parseDate(s: string, timeZone: string): Date | undefined {
  const m = DATE_RE.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec, ms] = [
    m[1],
    m[2],
    m[3],
    m[4] ?? '0',
    m[5] ?? '0',
    m[6] ?? '0',
    (m[7] ?? '0').padEnd(3, '0'),
  ].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59) return undefined;
  if (m[8]) {
    const z = m[8] === 'Z' ? 0 : (m[8][0] === '-' ? -1 : 1) * (Number(m[8].slice(1, 3)) * 60 + Number(m[8].slice(-2)));
    return new Date(Date.UTC(y, mo - 1, d, h, mi, sec, ms) - z * 60000);
  }
  return new Date(zonedToEpoch(y, mo, d, h, mi, sec, ms, timeZone));
}

function checkLength(s: string): void {
  if (s.length > MAX_CELL_CHARS) throw new CellInputError(CELL_LIMIT_MESSAGE);
}

// A value as written by setValue(s)/appendRow, parsed according to the cell's number format.
export function coerceInput(raw: unknown, numberFormat: string, timeZone: string): Cell {
  if (raw === null || raw === undefined) return { v: '' };
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return { v: '#NUM!' };
    return { v: raw };
  }
  if (typeof raw === 'boolean') return { v: raw };
  if (isDate(raw)) {
    if (Number.isNaN(raw.getTime())) throw new CellInputError('Invalid argument: value (an invalid Date)');
    return { v: sheetDate(raw, timeZone) };
  }
  if (typeof raw !== 'string') {
    // Apps Script rejects objects and arrays in a value grid rather than stringifying them.
    throw new CellInputError(`Cannot convert ${Array.isArray(raw) ? 'Array' : 'Object'} to a cell value.`);
  }
  const s = raw;
  checkLength(s);
  if (numberFormat === '@') return { v: s };
  if (s.startsWith("'")) return { v: s.slice(1) };
  if (s.startsWith('=')) return formulaCell(s);
  const n = parseNumber(s);
  if (n !== undefined) return { v: n };
  if (/^(true|false)$/i.test(s)) return { v: s.toLowerCase() === 'true' };
  const d = parseDate(s, timeZone);
  if (d) return { v: sheetDate(d, timeZone) };
  if (s.length > 1 && (s[0] === '+' || s[0] === '-' || s[0] === '@')) return formulaCell(`=${s}`);
  return { v: s };
}

export function formulaCell(formula: string): Cell {
  checkLength(formula);
  return { v: evaluateFormula(formula), f: formula };
}

// The runtime is not a formula engine: it evaluates plain arithmetic so tests can see that a
// formula was created, and reports every other formula as Sheets reports an unparsable one.
function evaluateFormula(formula: string): CellValue {
  const expr = formula.slice(1);
  if (!/^[\d\s.+\-*/()^]+$/.test(expr) || !/\d/.test(expr)) return '#ERROR!';
  try {
    const value = new ArithmeticParser(expr).parse();
    return Number.isFinite(value) ? value : '#DIV/0!';
  } catch {
    return '#ERROR!';
  }
}

class ArithmeticParser {
  private i = 0;
  constructor(private readonly s: string) {}
  parse(): number {
    const v = this.sum();
    this.ws();
    if (this.i !== this.s.length) throw new Error('trailing input');
    return v;
  }
  private ws() {
    while (this.s[this.i] === ' ') this.i++;
  }
  private sum(): number {
    let v = this.product();
    for (;;) {
      this.ws();
      const c = this.s[this.i];
      if (c !== '+' && c !== '-') return v;
      this.i++;
      const r = this.product();
      v = c === '+' ? v + r : v - r;
    }
  }
  private product(): number {
    let v = this.power();
    for (;;) {
      this.ws();
      const c = this.s[this.i];
      if (c !== '*' && c !== '/') return v;
      this.i++;
      const r = this.power();
      v = c === '*' ? v * r : v / r;
    }
  }
  private power(): number {
    const base = this.unary();
    this.ws();
    if (this.s[this.i] === '^') {
      this.i++;
      return base ** this.power();
    }
    return base;
  }
  private unary(): number {
    this.ws();
    const c = this.s[this.i];
    if (c === '+' || c === '-') {
      this.i++;
      const v = this.unary();
      return c === '-' ? -v : v;
    }
    if (c === '(') {
      this.i++;
      const v = this.sum();
      this.ws();
      if (this.s[this.i++] !== ')') throw new Error('missing )');
      return v;
    }
    const m = /^\d*\.?\d+(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    if (!m) throw new Error('number expected');
    this.i += m[0].length;
    return Number(m[0]);
  }
}

// What getDisplayValues shows for a cell: a simplified rendering of its value.
export function displayValue(cell: Cell | undefined, timeZone: string): string {
  if (!cell) return '';
  const v = cell.v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (isDate(v)) {
    const offset = zoneOffsetMinutes(v.getTime(), timeZone);
    const local = new Date(v.getTime() + offset * 60000);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${local.getUTCFullYear()}/${p(local.getUTCMonth() + 1)}/${p(local.getUTCDate())} ${local.getUTCHours()}:${p(local.getUTCMinutes())}:${p(local.getUTCSeconds())}`;
  }
  return String(v);
}
