// The workbook file after another program saved it: Excel, LibreOffice Calc and Google Sheets files (rewritten or
// hand-written as those programs write them) load with every value exact, and what cannot be read is named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../runtime/host/format-errors.js';
import { Workbook } from '../../../runtime/host/workbook.js';
import { loadXlsx, META_SHEET, saveXlsx } from '../../../runtime/host/xlsx.js';
import { XlsxPackage, zipParts } from '../../../runtime/host/xlsx-zip.js';
import {
  cellsOf,
  type Dialect,
  handBuiltXlsx,
  rewriteXlsx,
  sheetsOf,
  trickyWorkbook,
  xstring,
} from './xlsx-dialects.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-interop-'));
let n = 0;
const tmp = (name = 'book.xlsx') => path.join(dir, `${n++}-${name}`);

async function saved(wb: Workbook): Promise<string> {
  const file = tmp();
  await saveXlsx(wb, file);
  return file;
}

// The error a load ends with, or a failure when it loads.
async function loadError(file: string): Promise<Error> {
  const e = await loadXlsx(file).then(
    () => null,
    (err: unknown) => err as Error,
  );
  if (!e) throw new Error(`${file} loaded; an error was expected`);
  expect(e).toBeInstanceOf(FormatError);
  return e;
}

describe('the runtime’s own file', () => {
  it('gives back every value exactly: CR, characters XML cannot hold, escapes, long texts split at a pair or CR LF', async () => {
    const wb = trickyWorkbook();
    const back = await loadXlsx(await saved(wb));
    expect(cellsOf(back)).toEqual(cellsOf(wb));
    expect(sheetsOf(back)).toEqual(sheetsOf(wb));
    // The long texts were split into a visible part and the rest: no part ends in half a character or half a CR LF.
    const s = back.sheetByName('議論ログ')!;
    expect(s.cells[12][1]!.v).toBe(`${'x'.repeat(32766)}😀${'あ'.repeat(9000)}`);
  });
});

describe('dates', () => {
  it.each(['America/New_York', 'Australia/Lord_Howe', 'Asia/Tokyo'])(
    'come back as the instants written, every 7 minutes across the changes of offset in %s',
    async (timeZone) => {
      const wb = Workbook.create({ timeZone });
      const s = wb.insertSheet('Dates', undefined, 3000, 2);
      const rows: Date[][] = [];
      // Around both 2026 changes of offset in the two zones that have them (March/April and October/November).
      for (const from of [Date.UTC(2026, 2, 7), Date.UTC(2026, 3, 4), Date.UTC(2026, 9, 3), Date.UTC(2026, 9, 31)])
        for (let t = from; t < from + 2 * 86400000; t += 7 * 60000 + 1000) rows.push([new Date(t)]);
      wb.setValues(s, 1, 1, rows.length, 1, rows);
      const file = await saved(wb);
      expect(cellsOf(await loadXlsx(file))).toEqual(cellsOf(wb));
      const google = tmp('google.xlsx');
      rewriteXlsx(file, google, 'google');
      expect(cellsOf(await loadXlsx(google))).toEqual(cellsOf(wb));
    },
  );
});

describe.each<Dialect>(['excel', 'libreoffice', 'google'])('a workbook saved again by %s', (dialect) => {
  it('loads with the same values, types, formulas, formats, validations, hidden sheet and widths', async () => {
    const wb = trickyWorkbook();
    const file = tmp(`${dialect}.xlsx`);
    rewriteXlsx(await saved(wb), file, dialect);
    const back = await loadXlsx(file);
    expect(cellsOf(back)).toEqual(cellsOf(wb));
    expect(sheetsOf(back)).toEqual(sheetsOf(wb));
  });
});

describe('what LibreOffice Calc does to a file', () => {
  it('stores the metadata blob as rich text when it mixes scripts, which still reads as its text', async () => {
    const file = tmp('lo.xlsx');
    rewriteXlsx(await saved(trickyWorkbook()), file, 'libreoffice');
    // The rewrite did what Calc does: the blob (it holds 議論ログ) is a shared string of several runs.
    const sst = new XlsxPackage(fs.readFileSync(file), file).text('xl/sharedStrings.xml');
    expect(sst).toMatch(/<si><r><rPr>[\s\S]*?<t xml:space="preserve">\{&quot;version&quot;/);
    expect((await loadXlsx(file)).sheetByName('議論ログ')).toBeDefined();
  });

  it('keeps a value someone changed after the program rewrote it, and restores only the program’s rewriting', async () => {
    const wb = trickyWorkbook();
    const file = tmp('lo.xlsx');
    rewriteXlsx(await saved(wb), file, 'libreoffice');
    const pkg = new XlsxPackage(fs.readFileSync(file), file);
    const parts: Record<string, string> = {};
    for (const name of pkg.partNames()) parts[name] = pkg.text(name);
    const sheet = 'xl/worksheets/sheet2.xml';
    // A2 held 1/3, which Calc wrote as 0.333333333333333; someone typed 0.5. E1 held =1+2; someone typed 7.
    parts[sheet] = parts[sheet]
      .replace('<v>0.333333333333333</v>', '<v>0.5</v>')
      .replace(/<c r="E1"([^>]*)><f>1\+2<\/f><v>3<\/v><\/c>/, '<c r="E1"$1><v>7</v></c>');
    expect(parts[sheet]).toContain('<v>0.5</v>');
    expect(parts[sheet]).toMatch(/<c r="E1"[^>]*><v>7<\/v><\/c>/);
    const edited = tmp('edited.xlsx');
    fs.writeFileSync(edited, zipParts(parts));
    const back = await loadXlsx(edited);
    const cells = cellsOf(back);
    expect(cells['議論ログ!A2']).toEqual({ t: 'number', v: 0.5 });
    expect(cells['議論ログ!E1']).toEqual({ t: 'number', v: 7 });
    // The untouched ones come back exact.
    expect(cells['議論ログ!A1']).toEqual({ t: 'number', v: 0.1 + 0.2 });
    expect(cells['議論ログ!A3']).toEqual({ t: 'number', v: 2 / 3 });
  });

  it('does not append the rest of a long text to a cell whose visible part was edited', async () => {
    const wb = Workbook.create();
    const s = wb.insertSheet('Data');
    const long = `${'a'.repeat(40000)}`;
    wb.setValues(s, 1, 1, 1, 1, [[long]]);
    const file = await saved(wb);
    expect(cellsOf(await loadXlsx(file))['Data!A1'].v).toBe(long);
    const pkg = new XlsxPackage(fs.readFileSync(file), file);
    const parts: Record<string, string> = {};
    for (const name of pkg.partNames()) parts[name] = pkg.text(name);
    parts['xl/sharedStrings.xml'] = parts['xl/sharedStrings.xml'].replace(
      `<t>${'a'.repeat(32767)}</t>`,
      '<t>short</t>',
    );
    expect(parts['xl/sharedStrings.xml']).toContain('<t>short</t>');
    const edited = tmp();
    fs.writeFileSync(edited, zipParts(parts));
    expect(cellsOf(await loadXlsx(edited))['Data!A1'].v).toBe('short');
  });
});

describe('a file Excel wrote (hand-written, no metadata sheet)', () => {
  it('reads rich text, phonetic guides, escapes, errors, hyperlinks, shared formulas, date formats and the sheet state', async () => {
    const file = tmp('excel.xlsx');
    handBuiltXlsx(file, {
      sharedStrings: [
        '<t>plain</t>',
        '<r><t>田中</t></r><r><rPr><b/></rPr><t xml:space="preserve"> さん</t></r><rPh sb="0" eb="2"><t>タナカ</t></rPh><phoneticPr fontId="1"/>',
        '<t>a_x000D_&#10;b _x005F_x000D_ tab&#9;end</t>',
      ],
      numFmts: { 164: 'yyyy/m/d\\ h:mm;@', 165: '"TRUE";"TRUE";"FALSE"' },
      // 0 General, 1 the built-in short date (14), 2 a custom date-time, 3 Calc's BOOLEAN format.
      cellStyles: [0, 14, 164, 165],
      sheets: [
        {
          name: 'Data',
          before:
            '<sheetViews><sheetView workbookViewId="0"><pane ySplit="2" topLeftCell="A3" state="frozen"/></sheetView></sheetViews><cols><col min="1" max="2" width="20.7109375" customWidth="1"/><col min="3" max="3" width="9" /></cols>',
          data: [
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>',
            '<row r="2"><c r="A2"><v>0.30000000000000004</v></c><c r="B2" t="b"><v>1</v></c><c r="C2" t="e"><v>#N/A</v></c><c r="D2" s="3"><v>0</v></c></row>',
            '<row r="3"><c r="A3" s="1"><v>46024</v></c><c r="B3" s="2"><v>46348.25486111111</v></c><c r="C3" t="str"><f>A1&amp;"!"</f><v>plain!</v></c></row>',
            '<row r="4"><c r="A4"><f t="shared" ref="A4:A6" si="0">A2*2+$A$2</f><v>0.9</v></c></row>',
            '<row r="5"><c r="A5"><f t="shared" si="0"/><v>1</v></c></row>',
            '<row><c><v>5</v></c><c t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c></row>',
            '<row r="8"><c r="B8" t="d"><v>2026-11-22T06:07:14</v></c><c r="C8" t="str"><f>"a"&amp;CHAR(13)</f><v>a_x000D_</v></c></row>',
          ].join(''),
          // A hyperlink is kept apart from the cell, whose value stays its text.
          after: '<hyperlinks><hyperlink ref="A1" r:id="rIdLink"/></hyperlinks>',
        },
        { name: 'Hidden', state: 'hidden', data: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' },
      ],
    });
    const wb = await loadXlsx(file);
    const tokyo = (iso: string) => new Date(Date.parse(`${iso}+09:00`)).toISOString();
    expect(cellsOf(wb)).toEqual({
      'Data!A1': { t: 'string', v: 'plain' },
      'Data!B1': { t: 'string', v: '田中 さん' },
      'Data!C1': { t: 'string', v: 'a\r\nb _x000D_ tab\tend' },
      'Data!A2': { t: 'number', v: 0.1 + 0.2 },
      'Data!B2': { t: 'boolean', v: true },
      'Data!C2': { t: 'string', v: '#N/A' },
      'Data!D2': { t: 'boolean', v: false },
      'Data!A3': { t: 'object', v: tokyo('2026-01-02T00:00:00') },
      'Data!B3': { t: 'object', v: tokyo('2026-11-22T06:07:00') },
      'Data!C3': { t: 'string', v: 'plain!', f: '=A1&"!"' },
      'Data!A4': { t: 'number', v: 0.9, f: '=A2*2+$A$2' },
      'Data!A5': { t: 'number', v: 1, f: '=A3*2+$A$2' },
      'Data!A6': { t: 'number', v: 5 },
      'Data!B6': { t: 'string', v: 'inline' },
      'Data!B8': { t: 'object', v: tokyo('2026-11-22T06:07:14') },
      'Data!C8': { t: 'string', v: 'a\r', f: '="a"&CHAR(13)' },
      'Hidden!A1': { t: 'string', v: 'plain' },
    });
    const [data, hidden] = wb.sheets;
    expect([data.hidden, hidden.hidden]).toEqual([false, true]);
    expect(data.frozenRows).toBe(2);
    // 20.71 characters of a 7-pixel digit; a width without customWidth is the program's default, not a setting.
    expect(data.columnWidths).toEqual({ 1: 145, 2: 145 });
    // Without the metadata the formats are the file's, LibreOffice's escapes removed; General is no format.
    expect(data.formats[2]).toEqual(['mm-dd-yy', 'yyyy/m/d h:mm;@']);
    expect(data.formats[0]).toBeUndefined();
  });

  it('reads a 1904-based file and element names with a namespace prefix', async () => {
    const file = tmp('prefixed.xlsx');
    handBuiltXlsx(file, {
      prefixed: true,
      date1904: true,
      cellStyles: [0, 14],
      sharedStrings: ['<x:t>x</x:t>'],
      sheets: [
        {
          name: 'S',
          data: '<x:row r="1"><x:c r="A1" s="1"><x:v>44562</x:v></x:c><x:c r="B1" t="s"><x:v>0</x:v></x:c></x:row>',
        },
      ],
    });
    const cells = cellsOf(await loadXlsx(file));
    // Serial 44562 counts from 1904-01-01: 2026-01-02.
    expect(cells['S!A1']).toEqual({ t: 'object', v: new Date(Date.parse('2026-01-02T00:00:00+09:00')).toISOString() });
    expect(cells['S!B1']).toEqual({ t: 'string', v: 'x' });
  });
});

describe('a Google Sheets download (hand-written, no metadata sheet)', () => {
  it('reads inline strings, and dates written as text where the format is a date', async () => {
    const file = tmp('google.xlsx');
    handBuiltXlsx(file, {
      numFmts: { 164: 'yyyy-mm-dd hh:mm:ss', 165: '@' },
      cellStyles: [0, 164, 165],
      sheets: [
        {
          name: 'Log',
          data: [
            `<row r="1"><c r="A1" t="inlineStr"><is><t>${xstring('when')}</t></is></c><c r="B1" t="inlineStr"><is><t>ok</t></is></c></row>`,
            '<row r="2"><c r="A2" s="1" t="inlineStr"><is><t>2026-11-22 06:07:14</t></is></c><c r="B2" t="b"><v>0</v></c><c r="C2" s="2" t="inlineStr"><is><t>2026-11-22</t></is></c></row>',
            '<row r="3"><c r="A3" s="1" t="inlineStr"><is><t>not a date</t></is></c><c r="B3"><v>12.5</v></c></row>',
          ].join(''),
        },
      ],
    });
    expect(cellsOf(await loadXlsx(file))).toEqual({
      'Log!A1': { t: 'string', v: 'when' },
      'Log!B1': { t: 'string', v: 'ok' },
      'Log!A2': { t: 'object', v: new Date(Date.parse('2026-11-22T06:07:14+09:00')).toISOString() },
      'Log!B2': { t: 'boolean', v: false },
      // Plain text stays text, whatever it looks like.
      'Log!C2': { t: 'string', v: '2026-11-22' },
      'Log!A3': { t: 'string', v: 'not a date' },
      'Log!B3': { t: 'number', v: 12.5 },
    });
  });
});

describe('a value that cannot be understood', () => {
  const cases: [string, string, RegExp][] = [
    ['a number that is none', '<c r="B2"><v>12,5</v></c>', /the number "12,5"/],
    ['a shared string the file does not have', '<c r="B2" t="s"><v>9</v></c>', /shared string "9", of 1 in the file/],
    ['an unknown cell type', '<c r="B2" t="q"><v>1</v></c>', /the cell type "q"/],
    ['a boolean that is none', '<c r="B2" t="b"><v>yes</v></c>', /the boolean "yes"/],
    ['a date that is none', '<c r="B2" t="d"><v>2026-02-30T00:00:00</v></c>', /the date "2026-02-30T00:00:00"/],
    ['a style the file does not define', '<c r="B2" s="7"><v>1</v></c>', /style 7, which the file does not define/],
    ['an entity XML does not define', '<c r="B2" t="str"><v>&nbsp;</v></c>', /an entity XML does not define/],
  ];
  it.each(cases)('fails naming the sheet, row and column: %s', async (_, cell, problem) => {
    const file = tmp('bad.xlsx');
    handBuiltXlsx(file, {
      sharedStrings: ['<t>x</t>'],
      sheets: [{ name: 'Orders', data: `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2">${cell}</row>` }],
    });
    const e = await loadError(file);
    expect(e.message).toContain(file);
    if (!/entity/.test(String(problem))) expect(e.message).toContain('sheet "Orders" cell B2 (row 2, column 2)');
    else expect(e.message).toContain('sheet "Orders"');
    expect(e.message).toMatch(problem);
  });

  it('fails naming the metadata sheet when a part of its blob is not text', async () => {
    const file = tmp('meta.xlsx');
    handBuiltXlsx(file, {
      sheets: [
        { name: 'S', data: '<row r="1"><c r="A1"><v>1</v></c></row>' },
        { name: META_SHEET, state: 'veryHidden', data: '<row r="1"><c r="A1"><v>7</v></c></row>' },
      ],
    });
    expect((await loadError(file)).message).toMatch(/__gas_runtime__, row 1 cannot be read: .* is number, not text/);
  });

  it('fails on a file that is not a zip archive', async () => {
    const file = tmp('text.xlsx');
    fs.writeFileSync(file, 'a,b\n1,2\n');
    expect((await loadError(file)).message).toMatch(/not a zip archive/);
  });
});
