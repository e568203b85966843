// Rewrites an .xlsx file the runtime saved the way Excel, LibreOffice Calc or a Google Sheets download saves it, and
// packs hand-written parts with the runtime's zip writer, so the reader is tested on those programs' files where the
// programs are not installed.
import fs from 'node:fs';
import { toA1 } from '../../../runtime/host/a1.js';
import { Workbook } from '../../../runtime/host/workbook.js';
import { isDateFormat } from '../../../runtime/host/xlsx-cells.js';
import { readXlsx } from '../../../runtime/host/xlsx-read.js';
import { XlsxPackage, zipParts } from '../../../runtime/host/xlsx-zip.js';

// excel: shared strings, rich-text runs where the script changes and a phonetic guide on Japanese text (as Japanese
//   Excel keeps furigana), a CR as _x000D_, numbers with 17 significant digits.
// libreoffice: what Calc 7 writes (seen in its output): rich-text runs where the script changes, every line break
//   LF, numbers with 15 significant digits, booleans as the formula TRUE() or FALSE(), "yyyy\-mm\-dd" formats, the
//   very hidden sheet merely hidden, no frozen panes (a conversion without a window drops them).
// google: inline strings, date cells as the text of their wall clock, the very hidden sheet merely hidden.
export type Dialect = 'excel' | 'libreoffice' | 'google';

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// Text as the xlsx format stores it: characters XML cannot hold, and a CR, as _xHHHH_; a literal "_xHHHH_" escaped.
export function xstring(s: string): string {
  return xmlEscape(
    s.replace(/_x[0-9A-Fa-f]{4}_|[^\t\n\u0020-\uFFFF]/g, (m) =>
      m.length > 1 ? `_x005F${m}` : `_x${m.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
    ),
  );
}

const CJK = /[\u3000-\u9fff\uff00-\uffef]/;

// A string item (<si> or <is>) as the dialect writes it.
function stringItem(text: string, dialect: Dialect): string {
  const s = dialect === 'libreoffice' ? text.replace(/\r\n?/g, '\n') : text;
  const t = (x: string) => `<t xml:space="preserve">${xstring(x)}</t>`;
  if (dialect === 'google' || !CJK.test(s)) return t(s);
  const runs = s.match(/[\u3000-\u9fff\uff00-\uffef]+|[^\u3000-\u9fff\uff00-\uffef]+/g) ?? [];
  const rich = runs
    .map((r) => `<r><rPr><sz val="11"/><rFont val="${CJK.test(r) ? 'DejaVu Sans' : 'Calibri'}"/></rPr>${t(r)}</r>`)
    .join('');
  // Excel keeps a reading (furigana) for Japanese it was typed; it is no part of the cell's text.
  return dialect === 'excel' ? `${rich}<rPh sb="0" eb="1"><t>ヨミ</t></rPh><phoneticPr fontId="0"/>` : rich;
}

function numberText(v: string, dialect: Dialect): string {
  const n = Number(v);
  if (dialect === 'excel') return String(Number.isInteger(n) ? n : n.toPrecision(17));
  if (dialect === 'libreoffice') return String(Number(n.toPrecision(15)));
  return v;
}

// The wall clock a date serial shows, as text ("2026-11-22 06:07:14").
function serialText(v: string): string {
  const d = new Date(Math.round((Number(v) - 25569) * 86400000));
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');
}

function rewriteSheet(xml: string, dialect: Dialect, sst: string[], dateStyles: Set<number>): string {
  let out = xml.replace(/<c\b([^>]*?)(\/>|>([\s\S]*?)<\/c>)/g, (whole, attrs: string, _end: string, inner = '') => {
    const t = /\bt="(\w+)"/.exec(attrs)?.[1] ?? 'n';
    const s = Number(/\bs="(\d+)"/.exec(attrs)?.[1] ?? 0);
    const plain = attrs.replace(/\s*\bt="\w+"/, '');
    if (/<f[\s>]/.test(inner)) return whole;
    const v = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
    if (v === undefined) return whole;
    if (t === 's') {
      const text = sst[Number(v)];
      return dialect === 'google' ? `<c${plain} t="inlineStr"><is>${stringItem(text, dialect)}</is></c>` : whole;
    }
    if (t === 'b')
      return dialect === 'libreoffice'
        ? `<c${plain} t="b"><f aca="false">${v === '1' ? 'TRUE()' : 'FALSE()'}</f><v>${v}</v></c>`
        : whole;
    if (t !== 'n') return whole;
    if (dateStyles.has(s) && dialect === 'google')
      return `<c${plain} t="inlineStr"><is><t>${serialText(v)}</t></is></c>`;
    return `<c${plain}><v>${numberText(v, dialect)}</v></c>`;
  });
  if (dialect === 'libreoffice') out = out.replace(/<pane\b[^>]*\/>/g, '');
  return out;
}

export function rewriteXlsx(src: string, dest: string, dialect: Dialect): void {
  const pkg = new XlsxPackage(fs.readFileSync(src), src);
  const book = readXlsx(src);
  const dateStyles = new Set<number>();
  book.styles.formats.forEach((code, i) => {
    if (isDateFormat(code)) dateStyles.add(i);
  });
  const parts: Record<string, string> = {};
  for (const name of pkg.partNames()) {
    let text = pkg.text(name);
    if (/^xl\/worksheets\/[^/]+\.xml$/.test(name)) text = rewriteSheet(text, dialect, book.sharedStrings, dateStyles);
    else if (name === 'xl/sharedStrings.xml' && dialect !== 'google')
      text = text.replace(
        /<si>[\s\S]*?<\/si>/g,
        (() => {
          let i = 0;
          return () => `<si>${stringItem(book.sharedStrings[i++], dialect)}</si>`;
        })(),
      );
    else if (name === 'xl/workbook.xml' && dialect !== 'excel') text = text.replace(/veryHidden/g, 'hidden');
    else if (name === 'xl/styles.xml' && dialect === 'libreoffice')
      text = text.replace(
        /formatCode="([^"]*)"/g,
        (_, code: string) => `formatCode="${code.replace(/([- ])/g, '\\$1')}"`,
      );
    parts[name] = text;
  }
  fs.writeFileSync(dest, zipParts(parts));
}

// A workbook as a hand-written package: each sheet's <sheetData> inner XML (and optional extra sheet XML), the
// shared strings' <si> items, the styles' number formats and cell styles.
export interface HandBuilt {
  sheets: { name: string; state?: string; data: string; before?: string; after?: string }[];
  sharedStrings?: string[];
  numFmts?: Record<number, string>;
  // numFmtId of each cell style, by style index (style 0 first).
  cellStyles?: number[];
  date1904?: boolean;
  // Writes element names with the x: prefix, as files from the Open XML SDK do.
  prefixed?: boolean;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export function handBuiltXlsx(file: string, book: HandBuilt): void {
  const x = book.prefixed ? 'x:' : '';
  const ns = book.prefixed ? `xmlns:x="${MAIN}"` : `xmlns="${MAIN}"`;
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${book.sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${book.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}<Relationship Id="rS" Type="${REL}/styles" Target="/xl/styles.xml"/><Relationship Id="rT" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<${x}workbook ${ns} xmlns:r="${REL}"><${x}workbookPr${book.date1904 ? ' date1904="1"' : ''}/><${x}sheets>${book.sheets.map((s, i) => `<${x}sheet name="${xmlEscape(s.name)}" sheetId="${i + 1}"${s.state ? ` state="${s.state}"` : ''} r:id="rId${i + 1}"/>`).join('')}</${x}sheets></${x}workbook>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<${x}styleSheet ${ns}><${x}numFmts>${Object.entries(book.numFmts ?? {})
      .map(([id, code]) => `<${x}numFmt numFmtId="${id}" formatCode="${xmlEscape(code)}"/>`)
      .join('')}</${x}numFmts><${x}cellStyleXfs count="1"><${x}xf numFmtId="0"/></${x}cellStyleXfs><${x}cellXfs>${(
      book.cellStyles ?? [0]
    )
      .map((id) => `<${x}xf numFmtId="${id}" xfId="0" applyNumberFormat="1"/>`)
      .join('')}</${x}cellXfs></${x}styleSheet>`,
    'xl/sharedStrings.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<${x}sst ${ns}>${(book.sharedStrings ?? []).map((si) => `<${x}si>${si}</${x}si>`).join('')}</${x}sst>`,
  };
  book.sheets.forEach((s, i) => {
    parts[`xl/worksheets/sheet${i + 1}.xml`] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<${x}worksheet ${ns} xmlns:r="${REL}">${s.before ?? ''}<${x}sheetData>${s.data}</${x}sheetData>${s.after ?? ''}</${x}worksheet>`;
  });
  fs.writeFileSync(file, zipParts(parts));
}

// A workbook with what spreadsheet programs are known to rewrite: text mixing scripts (so the metadata blob, which
// holds the Japanese sheet name and help text, mixes them too), line breaks with CR, characters XML cannot hold,
// text that looks like an xlsx escape, long texts split at a surrogate pair and at CR LF, numbers 15 digits do
// not hold, booleans, dates with and without a format, formulas, a hidden sheet, widths and a frozen row.
export function trickyWorkbook(): Workbook {
  const wb = Workbook.create({ timeZone: 'Asia/Tokyo' });
  const s = wb.insertSheet('議論ログ');
  wb.setNumberFormats(
    s,
    1,
    2,
    30,
    1,
    Array.from({ length: 30 }, () => ['@']),
  );
  wb.setNumberFormats(s, 1, 3, 2, 1, [['yyyy-mm-dd'], ['yyyy-mm-dd hh:mm:ss']]);
  const texts = [
    '田中 太郎さんの contacts が 12 → 5（-58%）',
    '  leading and trailing  ',
    'line1\nline2\r\nline3\rend',
    'tab\there',
    '_x000D_ literal and _x005F_ too',
    'ctl\u0001\u001f',
    '😀 emoji 𠮷',
    '=not a formula',
    '{"a":1,"b":"営業1課"}',
    'TRUE',
    '0012',
    '2026-01-02',
    `${'x'.repeat(32766)}😀${'あ'.repeat(9000)}`,
    `${'y'.repeat(32766)}\r\n${'い\r\n'.repeat(3000)}end`,
  ];
  wb.setValues(
    s,
    1,
    2,
    texts.length,
    1,
    texts.map((t) => [t]),
  );
  const numbers = [
    0.1 + 0.2,
    1 / 3,
    2 / 3,
    123456789.12345679,
    2 ** 53 + 2,
    1e21,
    1e-7,
    0.7333333333333333,
    42,
    2.5e-9,
  ];
  wb.setValues(
    s,
    1,
    1,
    numbers.length,
    1,
    numbers.map((n) => [n]),
  );
  wb.setValues(s, 1, 3, 3, 1, [
    [new Date(Date.UTC(2026, 0, 2))],
    [new Date(Date.UTC(2026, 10, 22, 6, 7, 14))],
    [new Date(Date.UTC(2026, 10, 22, 6, 7, 14))],
  ]);
  wb.setValues(s, 1, 4, 2, 1, [[true], [false]]);
  wb.setFormulas(s, 1, 5, 1, 1, [['=1+2']]);
  wb.setValidation(s, 5, 6, 3, 1, {
    criteria: 'VALUE_IN_LIST',
    args: [['はい', 'いいえ']],
    allowInvalid: false,
    helpText: '選んでください',
  });
  s.columnWidths[2] = 250;
  s.columnWidths[3] = 40;
  s.frozenRows = 1;
  const hidden = wb.insertSheet('Hidden');
  hidden.hidden = true;
  wb.setValues(hidden, 1, 1, 1, 1, [['secret']]);
  return wb;
}

// Every non-empty cell of every sheet as "Sheet!A1" → its value (Dates as ISO instants), type and formula.
export function cellsOf(wb: Workbook): Record<string, { t: string; v: unknown; f?: string }> {
  const out: Record<string, { t: string; v: unknown; f?: string }> = {};
  for (const s of wb.sheets)
    s.cells.forEach((row, r) =>
      row?.forEach((cell, c) => {
        if (!cell) return;
        const v = cell.v instanceof Date ? cell.v.toISOString() : cell.v;
        out[`${s.name}!${toA1(r + 1, c + 1)}`] = cell.f ? { t: typeof cell.v, v, f: cell.f } : { t: typeof cell.v, v };
      }),
    );
  return out;
}

// What the xlsx format can say about each sheet besides its cells.
export function sheetsOf(wb: Workbook) {
  return wb.sheets.map((s) => ({
    name: s.name,
    hidden: s.hidden,
    frozenRows: s.frozenRows,
    columnWidths: s.columnWidths,
    formats: s.formats,
    validations: s.validations,
  }));
}
