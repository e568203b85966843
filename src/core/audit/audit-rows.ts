// A row's audit digest: each cell read the way its column means it, so a spreadsheet program's round trip keeps it.
import type { ColumnType } from '../../../sheets-schema/types.js';

type Sha256 = (s: string) => string;

function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

// Whole seconds: a cell keeps no milliseconds, and a program that saves the workbook may round them away.
function instant(d: Date): string {
  return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString();
}

// Fifteen significant digits: what Sheets, Excel and LibreOffice all keep of a number they write back.
function num(n: number): number {
  // An integer of at most 15 digits is its own 15-digit rounding: most cells (counts, statuses, milliseconds), which
  // verifyAudit canonicalises by the million, skip toPrecision, the costliest step of a row's text (+ 0: -0 as 0).
  if (Number.isInteger(n) && n < 1e15 && n > -1e15) return n + 0;
  return Number.isFinite(n) ? Number(n.toPrecision(15)) : n;
}

// One cell as its column means it. Text stays text, byte for byte; a number or boolean is compared as one whether
// it comes back typed or as the text a program wrote for it; an empty cell is ''.
function canonicalCell(type: ColumnType, v: unknown): string | number | boolean {
  if (v === null || v === undefined || v === '') return '';
  if (isDate(v)) return instant(v);
  switch (type) {
    case 'number':
    case 'integer':
      if (typeof v === 'number') return num(v);
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return num(Number(v));
      return String(v);
    case 'boolean':
      if (v === true || v === 'TRUE' || v === 'true') return true;
      if (v === false || v === 'FALSE' || v === 'false') return false;
      return String(v);
    default:
      return typeof v === 'number' ? num(v) : typeof v === 'boolean' ? v : String(v);
  }
}

// Each cell's canonical value as JSON text: what the row's digest and each column's hash are made from.
function cellTexts(types: readonly ColumnType[], values: readonly unknown[]): string[] {
  return types.map((t, i) => JSON.stringify(canonicalCell(t, values[i])));
}

// The cells' texts joined as JSON.stringify joins an array, trailing empty cells dropped.
function rowText(cells: readonly string[]): string {
  let kept = cells.length;
  while (kept && cells[kept - 1] === '""') kept--;
  return `[${cells.slice(0, kept).join(',')}]`;
}

// The canonical text of a row: cells by type, trailing empty cells dropped (a program may not write them back).
export function canonicalRow(types: readonly ColumnType[], values: readonly unknown[]): string {
  return rowText(cellTexts(types, values));
}

export function rowDigest(types: readonly ColumnType[], values: readonly unknown[], sha256: Sha256): string {
  return sha256(canonicalRow(types, values));
}

// FNV-1a folded to 16 bits: cheap, short in the audit row, and enough to say which column changed once the row's
// SHA-256 (which alone proves it) says something did; likewise which row of a KPI batch (kpi-audit.ts).
// The loop keeps h a 32-bit integer and makes it unsigned once at the end (the same bits as doing so every step): a
// commit hashes every cell it writes, message text included, in a context whose code V8 has not yet optimised. imul is
// read into a local once a call: reading Math.imul in every step cost a quarter of the loop before V8 optimised it
// (the 35,000 characters of a discussion's last commit, in a fresh context: 2.0 ms against 1.5 ms, medians).
export function fnv(text: string): string {
  const imul = Math.imul;
  let h = 0x811c9dc5 | 0;
  const n = text.length;
  for (let i = 0; i < n; i++) h = imul(h ^ text.charCodeAt(i), 0x01000193);
  const u = h >>> 0;
  return `0000${((u >>> 16) ^ (u & 0xffff)).toString(16)}`.slice(-4);
}

// One 4-hex-digit hash per column, concatenated.
export function columnHashes(types: readonly ColumnType[], values: readonly unknown[]): string {
  return cellTexts(types, values).map(fnv).join('');
}

// rowDigest and columnHashes of one row, each cell read and written once (a commit digests every row it writes,
// message text included).
export function rowDigests(
  types: readonly ColumnType[],
  values: readonly unknown[],
  sha256: Sha256,
): { sha256: string; cols: string } {
  const cells = cellTexts(types, values);
  return { sha256: sha256(rowText(cells)), cols: cells.map(fnv).join('') };
}

// The first column whose hash differs from the recorded ones (0-based), or -1 when none does or none was recorded.
export function firstChangedColumn(types: readonly ColumnType[], values: readonly unknown[], recorded: string): number {
  if (!recorded) return -1;
  const now = columnHashes(types, values);
  for (let i = 0; i < types.length; i++) {
    const was = recorded.slice(i * 4, i * 4 + 4);
    if (was && was !== now.slice(i * 4, i * 4 + 4)) return i;
  }
  return -1;
}
