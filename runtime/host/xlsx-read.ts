// Reads an .xlsx file as Excel, LibreOffice Calc and a Google Sheets download write it: sheets, their state, column
// widths and frozen panes, and every cell's stored value, type, number format and formula (xlsx-cells.ts types them).
import fs from 'node:fs';
import { formatCode, type RawCell, type StyleTable } from './xlsx-cells.js';
import { attrOf, scanXml } from './xlsx-xml.js';
import { XlsxPackage } from './xlsx-zip.js';

export interface RawSheet {
  name: string;
  state: 'visible' | 'hidden' | 'veryHidden';
  cells: RawCell[];
  // Column widths in characters of the default font, as the file gives them (only those set explicitly).
  widths: Map<number, number>;
  // null when the file has no frozen pane: LibreOffice converting without a window (headless) drops every pane,
  // so a file without one does not say that nothing is frozen.
  frozen: { rows: number; cols: number } | null;
}

export interface RawBook {
  file: string;
  date1904: boolean;
  sharedStrings: string[];
  styles: StyleTable;
  sheets: RawSheet[];
}

// Excel's limits; a reference past them is a damaged file.
const MAX_ROW = 1048576;
const MAX_COL = 16384;

function partPath(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

function relsOf(pkg: XlsxPackage, part: string): Map<string, { type: string; target: string }> {
  const slash = part.lastIndexOf('/');
  const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  const out = new Map<string, { type: string; target: string }>();
  if (!pkg.has(relsName)) return out;
  scanXml(
    pkg.text(relsName),
    {
      open(name, a) {
        if (name === 'Relationship' && a.Id && a.Target)
          out.set(a.Id, { type: a.Type ?? '', target: a.TargetMode === 'External' ? '' : partPath(part, a.Target) });
      },
      close() {},
      text() {},
    },
    (p) => pkg.fail(`${relsName}: ${p}`),
  );
  return out;
}

// A run of text in a shared string or an inline string: plain <t>, rich-text runs <r><t>, never the phonetic
// guide (<rPh>, furigana Excel keeps for Japanese input), which is not part of the cell's text.
class StringItem {
  private parts: string[] = [];
  private inT = false;
  private inPhonetic = 0;
  open(name: string): void {
    if (name === 'rPh') this.inPhonetic++;
    else if (name === 't' && !this.inPhonetic) this.inT = true;
  }
  close(name: string): void {
    if (name === 'rPh') this.inPhonetic--;
    else if (name === 't') this.inT = false;
  }
  text(s: string): void {
    if (this.inT) this.parts.push(s);
  }
  take(): string {
    const s = decodeEscapes(this.parts.join(''));
    this.parts = [];
    return s;
  }
}

// OOXML writes characters XML cannot hold (and a CR) as _xHHHH_, and a literal "_x" that looks like one as _x005F_x.
function decodeEscapes(s: string): string {
  return s.indexOf('_x') < 0
    ? s
    : s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

function readSharedStrings(pkg: XlsxPackage, part: string | undefined): string[] {
  const out: string[] = [];
  if (!part || !pkg.has(part)) return out;
  const item = new StringItem();
  scanXml(
    pkg.text(part),
    {
      open: (name) => item.open(name),
      close(name) {
        if (name === 'si') out.push(item.take());
        else item.close(name);
      },
      text: (s) => item.text(s),
    },
    (p) => pkg.fail(`${part}: ${p}`),
  );
  return out;
}

function readStyles(pkg: XlsxPackage, part: string | undefined): StyleTable {
  const custom = new Map<number, string>();
  const xfs: number[] = [];
  if (part && pkg.has(part)) {
    let inCellXfs = false;
    scanXml(
      pkg.text(part),
      {
        open(name, a) {
          if (name === 'numFmt' && a.numFmtId !== undefined) custom.set(Number(a.numFmtId), a.formatCode ?? '');
          else if (name === 'cellXfs') inCellXfs = true;
          else if (name === 'xf' && inCellXfs) xfs.push(Number(a.numFmtId ?? 0));
        },
        close(name) {
          if (name === 'cellXfs') inCellXfs = false;
        },
        text() {},
      },
      (p) => pkg.fail(`${part}: ${p}`),
    );
  }
  return { formats: xfs.map((id) => formatCode(id, custom)) };
}

// The column of a reference in the given row ("B7" in row 7 → 2), or 0 when it is not a cell of that row.
function refColumn(ref: string, row: number): number {
  let i = ref.charCodeAt(0) === 36 /* $ */ ? 1 : 0;
  let col = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) & ~32; // upper case
    if (c < 65 || c > 90) break;
    col = col * 26 + c - 64;
  }
  if (ref.charCodeAt(i) === 36) i++;
  const digits = ref.slice(i);
  return col && /^\d+$/.test(digits) && Number(digits) === row ? col : 0;
}

function truthy(v: string | undefined): boolean {
  return v === '1' || v === 'true';
}

function readSheet(pkg: XlsxPackage, part: string, name: string, state: RawSheet['state']): RawSheet {
  const sheet: RawSheet = { name, state, cells: [], widths: new Map(), frozen: null };
  const fail: (problem: string) => never = (p) => pkg.fail(`sheet "${name}" (${part}): ${p}`);
  let row = 0;
  let col = 0;
  let cell: RawCell | null = null;
  let into: 'v' | 'f' | null = null;
  const inline = new StringItem();
  let inInline = false;
  // Only the sheet's own view says what is frozen; a custom view (customSheetView) has panes of its own.
  let inView = false;
  scanXml(
    pkg.text(part),
    {
      open(el, a) {
        switch (el) {
          case 'row': {
            const r = a.r === undefined ? row + 1 : Number(a.r);
            if (!Number.isInteger(r) || r < 1 || r > MAX_ROW) fail(`a row numbered ${JSON.stringify(a.r)}`);
            row = r;
            col = 0;
            break;
          }
          case 'c': {
            const c = a.r === undefined ? col + 1 : refColumn(a.r, row);
            if (!c) fail(`a cell ${JSON.stringify(a.r)} in row ${row}`);
            if (c > MAX_COL) fail(`a cell outside the grid (${JSON.stringify(a.r)})`);
            col = c;
            // Every field set at once: one object shape for all cells keeps a sheet of many cells fast to read.
            cell = {
              row,
              col,
              t: a.t ?? 'n',
              style: a.s === undefined ? 0 : Number(a.s),
              v: undefined,
              inline: undefined,
              f: undefined,
              fType: undefined,
              fShared: undefined,
              fRef: undefined,
            };
            break;
          }
          case 'v':
            if (cell) {
              into = 'v';
              cell.v = '';
            }
            break;
          case 'f':
            if (cell) {
              into = 'f';
              cell.f = '';
              cell.fType = a.t;
              cell.fShared = a.si;
              cell.fRef = a.ref;
            }
            break;
          case 'is':
            inInline = true;
            break;
          case 'col': {
            const min = Number(a.min);
            const max = Math.min(Number(a.max), MAX_COL);
            const width = Number(a.width);
            if (truthy(a.customWidth) && Number.isFinite(width) && min >= 1)
              for (let c = min; c <= max; c++) sheet.widths.set(c, width);
            break;
          }
          case 'sheetView':
            inView = true;
            break;
          case 'pane':
            if (inView && (a.state === 'frozen' || a.state === 'frozenSplit'))
              sheet.frozen = { rows: Number(a.ySplit ?? 0) || 0, cols: Number(a.xSplit ?? 0) || 0 };
            break;
          default:
            if (inInline) inline.open(el);
        }
      },
      close(el) {
        if (el === 'c' && cell) {
          // A formula's text result is an ST_Xstring like any other text.
          if (cell.t === 'str' && cell.v) cell.v = decodeEscapes(cell.v);
          sheet.cells.push(cell);
          cell = null;
        } else if (el === 'v' || el === 'f') into = null;
        else if (el === 'sheetView') inView = false;
        else if (el === 'is') {
          inInline = false;
          if (cell) cell.inline = inline.take();
        } else if (inInline) inline.close(el);
      },
      text(s) {
        if (inInline) inline.text(s);
        else if (into && cell) cell[into] += s;
      },
    },
    fail,
  );
  return sheet;
}

const SHEET_STATES = ['visible', 'hidden', 'veryHidden'];

export function readXlsx(file: string): RawBook {
  const pkg: XlsxPackage = new XlsxPackage(fs.readFileSync(file), file);
  const root = relsOf(pkg, '');
  let bookPart = 'xl/workbook.xml';
  for (const r of root.values()) if (r.type.endsWith('/officeDocument')) bookPart = r.target;
  const rels = relsOf(pkg, bookPart);
  const relOfType = (suffix: string, fallback: string) => {
    for (const r of rels.values()) if (r.type.endsWith(suffix)) return r.target;
    return pkg.has(fallback) ? fallback : undefined;
  };
  const listed: { name: string; state: RawSheet['state']; part: string }[] = [];
  let date1904 = false;
  scanXml(
    pkg.text(bookPart),
    {
      open(name, a) {
        if (name === 'workbookPr') date1904 = truthy(a.date1904);
        if (name !== 'sheet') return;
        const id = attrOf(a, 'id');
        const rel = id === undefined ? undefined : rels.get(id);
        if (!a.name || !rel) pkg.fail(`${bookPart}: sheet ${JSON.stringify(a.name ?? '')} names no part`);
        const state = a.state ?? 'visible';
        if (SHEET_STATES.indexOf(state) < 0) pkg.fail(`sheet "${a.name}" has the state ${JSON.stringify(state)}`);
        // Chart sheets and dialog sheets hold no cells; they are not sheets of the spreadsheet's grid.
        if (rel.type.endsWith('/worksheet') || rel.type === '')
          listed.push({ name: a.name, state: state as RawSheet['state'], part: rel.target });
      },
      close() {},
      text() {},
    },
    (p) => pkg.fail(`${bookPart}: ${p}`),
  );
  return {
    file,
    date1904,
    sharedStrings: readSharedStrings(pkg, relOfType('/sharedStrings', 'xl/sharedStrings.xml')),
    styles: readStyles(pkg, relOfType('/styles', 'xl/styles.xml')),
    sheets: listed.map((s) => readSheet(pkg, s.part, s.name, s.state)),
  };
}
