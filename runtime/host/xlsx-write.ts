// Writes a workbook's .xlsx parts as XML text and zips them (xlsx-zip.ts), in one synchronous step: what ExcelJS wrote
// for the runtime before (shared strings, one style per number format and weight, date serials, formulas with their
// results), without loading ExcelJS and building its model cell by cell, which cost most of every save.
import { toA1 } from './a1.js';
import { isDate } from './values.js';
import { zipParts } from './xlsx-zip.js';

// A sheet of the file: its name and state, and the text the cells are written with.
export interface SheetPart {
  name: string;
  state: 'visible' | 'hidden' | 'veryHidden';
  frozenRows: number;
  frozenCols: number;
  // Column → width in characters of the default font's digit.
  widths: [number, number][];
  // Rows in order, each with its cells in order: [column, value, number format, bold].
  rows: [number, XlsxCell[]][];
}

// A value as it goes in the file: text (escaped already: xlsx.ts), a number, a boolean, a date as its wall clock,
// or a formula (without its "=") with the value it shows.
type XlsxValue = string | number | boolean | Date;
export interface XlsxCell {
  col: number;
  value: XlsxValue;
  formula?: string;
  format?: string;
  bold?: boolean;
}

const DAY_MS = 86400000;
// Excel's serial of 1970-01-01.
const UNIX_SERIAL = 25569;

// XML text: the five markup characters, and the control characters XML cannot hold dropped, as ExcelJS did
// (the values are escaped as _xHHHH_ before this, so only a formula's text can hold one).
function xml(s: string): string {
  return s.replace(/[&<>"']|[^\t\n\r\u0020-\u007e\u0080-\uffff]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : c === "'" ? '&apos;' : '',
  );
}

const serial = (d: Date) => String(UNIX_SERIAL + d.getTime() / DAY_MS);

// Cell styles: one per (number format, bold); style 0 is the default. A date without a format of its own gets
// Excel's built-in date format (14), as ExcelJS gave it, so every program reads the serial as a date.
class Styles {
  private readonly formats = new Map<string, number>();
  private readonly xfs = new Map<string, number>([['0:0', 0]]);

  of(format: string | undefined, bold: boolean, date: boolean): number {
    const fmt = format && format !== 'General' ? this.format(format) : date ? 14 : 0;
    const key = `${fmt}:${bold ? 1 : 0}`;
    let id = this.xfs.get(key);
    if (id === undefined) this.xfs.set(key, (id = this.xfs.size));
    return id;
  }

  private format(code: string): number {
    let id = this.formats.get(code);
    if (id === undefined) this.formats.set(code, (id = 164 + this.formats.size));
    return id;
  }

  xml(): string {
    const fmts = [...this.formats].map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xml(code)}"/>`);
    const xfs = [...this.xfs.keys()].map((k) => {
      const [fmt, bold] = k.split(':').map(Number);
      return `<xf numFmtId="${fmt}" fontId="${bold}" fillId="0" borderId="0" xfId="0"${fmt ? ' applyNumberFormat="1"' : ''}${bold ? ' applyFont="1"' : ''}/>`;
    });
    const font = (b: string) =>
      `<font>${b}<sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font>`;
    return (
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${MAIN}">` +
      (fmts.length ? `<numFmts count="${fmts.length}">${fmts.join('')}</numFmts>` : '') +
      `<fonts count="2">${font('')}${font('<b/>')}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
    );
  }
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function sheetXml(s: SheetPart, styles: Styles, strings: { index(text: string): number }, active: boolean): string {
  const out: string[] = [`${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">`];
  // Excel selects the tab marked tabSelected, whatever the workbook's activeTab says.
  const view = `<sheetView${active ? ' tabSelected="1"' : ''} workbookViewId="0"`;
  if (s.frozenRows || s.frozenCols) {
    const pane = s.frozenRows && s.frozenCols ? 'bottomRight' : s.frozenRows ? 'bottomLeft' : 'topRight';
    out.push(
      `<sheetViews>${view}><pane`,
      s.frozenCols ? ` xSplit="${s.frozenCols}"` : '',
      s.frozenRows ? ` ySplit="${s.frozenRows}"` : '',
      ` topLeftCell="${toA1(s.frozenRows + 1, s.frozenCols + 1)}" activePane="${pane}" state="frozen"/>`,
      '</sheetView></sheetViews>',
    );
  } else out.push(`<sheetViews>${view}/></sheetViews>`);
  out.push('<sheetFormatPr defaultRowHeight="15"/>');
  if (s.widths.length)
    out.push(
      '<cols>',
      ...s.widths.map(([c, w]) => `<col min="${c}" max="${c}" width="${w}" customWidth="1"/>`),
      '</cols>',
    );
  out.push('<sheetData>');
  for (const [r, cells] of s.rows) {
    out.push(`<row r="${r}">`);
    for (const c of cells) {
      const v = c.value;
      const st = styles.of(c.format, !!c.bold, isDate(v));
      const at = `<c r="${toA1(r, c.col)}"${st ? ` s="${st}"` : ''}`;
      if (c.formula !== undefined) {
        const f = `<f>${xml(c.formula)}</f>`;
        if (typeof v === 'string') out.push(`${at} t="str">${f}<v>${xml(v)}</v></c>`);
        else if (typeof v === 'boolean') out.push(`${at} t="b">${f}<v>${v ? 1 : 0}</v></c>`);
        else out.push(`${at}>${f}<v>${isDate(v) ? serial(v) : String(v)}</v></c>`);
      } else if (typeof v === 'string') out.push(`${at} t="s"><v>${strings.index(v)}</v></c>`);
      else if (typeof v === 'boolean') out.push(`${at} t="b"><v>${v ? 1 : 0}</v></c>`);
      else out.push(`${at}><v>${isDate(v) ? serial(v) : String(v)}</v></c>`);
    }
    out.push('</row>');
  }
  out.push('</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>');
  out.push('</worksheet>');
  return out.join('');
}

// The .xlsx file of these sheets, as bytes; it opens on the sheet at index `active` when that one is visible.
export function xlsxFile(sheets: SheetPart[], active = -1): Buffer {
  const styles = new Styles();
  const list: string[] = [];
  const ids = new Map<string, number>();
  const strings = {
    index(text: string): number {
      let i = ids.get(text);
      if (i === undefined) {
        ids.set(text, (i = list.length));
        list.push(text);
      }
      return i;
    },
  };
  // Otherwise the first visible sheet is the one a program opens on (a hidden one cannot be active). firstSheet is the
  // first tab shown in the tab bar, so it stays the first visible one: the tabs before the active one are not hidden.
  const first = Math.max(
    0,
    sheets.findIndex((s) => s.state === 'visible'),
  );
  const shown = sheets[active]?.state === 'visible' ? active : first;
  const parts: Record<string, string> = {};
  sheets.forEach((s, i) => {
    parts[`xl/worksheets/sheet${i + 1}.xml`] = sheetXml(s, styles, strings, i === shown);
  });
  const book =
    `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr/>` +
    `<bookViews><workbookView activeTab="${shown}" firstSheet="${first}"/></bookViews><sheets>` +
    sheets
      .map(
        (s, i) =>
          `<sheet name="${xml(s.name)}" sheetId="${i + 1}"${s.state === 'visible' ? '' : ` state="${s.state}"`} r:id="rId${i + 1}"/>`,
      )
      .join('') +
    '</sheets><calcPr calcId="171027"/></workbook>';
  const n = sheets.length;
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`;
  const bookRels =
    `${HEAD}<Relationships xmlns="${PKG_REL}">` +
    sheets.map((_s, i) => rel(`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`)).join('') +
    rel(`rId${n + 1}`, 'styles', 'styles.xml') +
    rel(`rId${n + 2}`, 'sharedStrings', 'sharedStrings.xml') +
    '</Relationships>';
  const shared =
    `${HEAD}<sst xmlns="${MAIN}" count="${list.length}" uniqueCount="${list.length}">` +
    list.map((t) => `<si><t${/^\s|\n|\s$/.test(t) ? ' xml:space="preserve"' : ''}>${xml(t)}</t></si>`).join('') +
    '</sst>';
  const type = (part: string, t: string) =>
    `<Override PartName="/${part}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.${t}+xml"/>`;
  const contentTypes =
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    type('xl/workbook.xml', 'sheet.main') +
    sheets.map((_s, i) => type(`xl/worksheets/sheet${i + 1}.xml`, 'worksheet')).join('') +
    type('xl/styles.xml', 'styles') +
    type('xl/sharedStrings.xml', 'sharedStrings') +
    '</Types>';
  return zipParts({
    '[Content_Types].xml': contentTypes,
    '_rels/.rels': `${HEAD}<Relationships xmlns="${PKG_REL}">${`<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>`}</Relationships>`,
    'xl/workbook.xml': book,
    'xl/_rels/workbook.xml.rels': bookRels,
    'xl/styles.xml': styles.xml(),
    'xl/sharedStrings.xml': shared,
    ...parts,
  });
}
