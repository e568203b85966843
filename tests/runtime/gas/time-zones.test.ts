// Time zones: the spreadsheet's zone is its own; date cells are its wall clock, to the second, as in Sheets.
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { META_SHEET } from '../../../runtime/host/xlsx.js';
import { Runtime } from '../../../runtime/runtime.js';
import { gas, gasError, withRuntime } from '../../helpers.js';

const SHEET = 'var ss = SpreadsheetApp.getActiveSpreadsheet(); var sh = ss.getSheets()[0];\n';

// Writes each instant (epoch ms) to a cell of column A and returns what the cells give back and show.
async function roundTrip(rt: Runtime, instants: number[]): Promise<{ back: string[]; shown: string[] }> {
  const out = await gas(
    rt,
    `${SHEET}var t = ${JSON.stringify(instants)};
    sh.getRange(1, 1, t.length, 1).setValues(t.map(function (x) { return [new Date(x)]; }));
    SpreadsheetApp.flush();
    var r = sh.getRange(1, 1, t.length, 1);
    return [r.getValues().map(function (x) { return x[0].toISOString(); }), r.getDisplayValues().map(function (x) { return x[0]; })];`,
  );
  return { back: out[0], shown: out[1] };
}

describe("the spreadsheet's time zone", () => {
  it('is its own, separate from the script zone, set by a runtime option and kept in the saved workbook', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-tz-')), 'book.xlsx');
    await withRuntime(
      async (rt) => {
        expect(
          await gas(rt, 'return [Session.getScriptTimeZone(), SpreadsheetApp.getActive().getSpreadsheetTimeZone()];'),
        ).toEqual(['Asia/Tokyo', 'Pacific/Auckland']);
        await rt.save(file);
      },
      { spreadsheetTimeZone: 'Pacific/Auckland' },
    );
    const back = await Runtime.open(file, { spreadsheetTimeZone: 'America/New_York' });
    try {
      // A loaded workbook keeps the zone it was saved with; the option is for new workbooks.
      expect(await gas(back, 'return SpreadsheetApp.getActive().getSpreadsheetTimeZone();')).toBe('Pacific/Auckland');
    } finally {
      await back.close();
    }
    expect(() => new Runtime({ spreadsheetTimeZone: 'Mars/Olympus_Mons' })).toThrow('Invalid argument: timeZone');
  });

  it('a Date reads back as the same instant, to the second, shown on the spreadsheet wall clock', async () => {
    const instants = [
      Date.UTC(2026, 2, 8, 6, 59, 59), // 01:59:59 EST, one second before New York springs forward
      Date.UTC(2026, 2, 8, 7, 0, 0), // 03:00:00 EDT
      Date.UTC(2026, 0, 2, 3, 4, 5, 678), // milliseconds are dropped (the stricter reading of values.ts)
    ];
    await withRuntime(
      async (rt) => {
        expect(await roundTrip(rt, instants)).toEqual({
          back: ['2026-03-08T06:59:59.000Z', '2026-03-08T07:00:00.000Z', '2026-01-02T03:04:05.000Z'],
          shown: ['2026/03/08 1:59:59', '2026/03/08 3:00:00', '2026/01/01 22:04:05'],
        });
      },
      { spreadsheetTimeZone: 'America/New_York' },
    );
    await withRuntime(
      async (rt) => {
        expect(await roundTrip(rt, instants)).toEqual({
          back: ['2026-03-08T06:59:59.000Z', '2026-03-08T07:00:00.000Z', '2026-01-02T03:04:05.000Z'],
          shown: ['2026/03/08 19:59:59', '2026/03/08 20:00:00', '2026/01/02 16:04:05'],
        });
      },
      { spreadsheetTimeZone: 'Pacific/Auckland' },
    );
  });

  it('a date typed as text is midnight in the spreadsheet zone, not the script zone', async () => {
    const typed = async (tz: string, texts: string[]) =>
      withRuntime(
        async (rt) => {
          const sheet = rt.workbook.sheets[0];
          rt.workbook.setValues(
            sheet,
            1,
            1,
            texts.length,
            1,
            texts.map((t) => [t]),
          );
          return gas(
            rt,
            `${SHEET}return sh.getRange(1, 1, ${texts.length}, 1).getValues().map(function (r) {
              return [r[0].toISOString(), Utilities.formatDate(r[0], ss.getSpreadsheetTimeZone(), 'yyyy-MM-dd HH:mm'),
                Utilities.formatDate(r[0], Session.getScriptTimeZone(), 'yyyy-MM-dd HH:mm')];
            });`,
          );
        },
        { spreadsheetTimeZone: tz },
      );
    // Read on the script's clock (Tokyo), a New York or Auckland day starts on another date: the trap Kaigi avoids.
    expect(await typed('America/New_York', ['2026-03-08', '2026-03-08 02:30'])).toEqual([
      ['2026-03-08T05:00:00.000Z', '2026-03-08 00:00', '2026-03-08 14:00'],
      // 02:30 does not exist that night; like java.time, Sheets' reading moves it on by the hour skipped.
      ['2026-03-08T07:30:00.000Z', '2026-03-08 03:30', '2026-03-08 16:30'],
    ]);
    expect(await typed('Pacific/Auckland', ['2026-03-08', '2026-09-27'])).toEqual([
      ['2026-03-07T11:00:00.000Z', '2026-03-08 00:00', '2026-03-07 20:00'],
      // Auckland springs forward at 02:00 on 27 September; that day still starts at 00:00 NZST.
      ['2026-09-26T12:00:00.000Z', '2026-09-27 00:00', '2026-09-26 21:00'],
    ]);
  });

  it('a Date in the hour a DST zone repeats comes back as the earlier of the two instants', async () => {
    // New York 2026-11-01 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST); Auckland 2026-04-05 02:30
    // at 13:30Z (NZDT) and 14:30Z (NZST). The cell holds the wall clock only.
    await withRuntime(
      async (rt) => {
        expect((await roundTrip(rt, [Date.UTC(2026, 10, 1, 5, 30), Date.UTC(2026, 10, 1, 6, 30)])).back).toEqual([
          '2026-11-01T05:30:00.000Z',
          '2026-11-01T05:30:00.000Z',
        ]);
      },
      { spreadsheetTimeZone: 'America/New_York' },
    );
    await withRuntime(
      async (rt) => {
        expect((await roundTrip(rt, [Date.UTC(2026, 3, 4, 14, 30), Date.UTC(2026, 3, 4, 15, 0)])).back).toEqual([
          '2026-04-04T13:30:00.000Z',
          '2026-04-04T15:00:00.000Z',
        ]);
      },
      { spreadsheetTimeZone: 'Pacific/Auckland' },
    );
  });

  it('setSpreadsheetTimeZone keeps what each date cell shows, so the instant it holds moves', async () => {
    await withRuntime(async (rt) => {
      const at = Date.UTC(2026, 2, 8, 3, 0, 0);
      await roundTrip(rt, [at]);
      const out = await gas(
        rt,
        `${SHEET}ss.setSpreadsheetTimeZone('America/New_York');
        var r = sh.getRange('A1'); return [ss.getSpreadsheetTimeZone(), r.getValue().toISOString(), r.getDisplayValue()];`,
      );
      // 12:00 in Tokyo stays 12:00, now New York's 12:00 EDT.
      expect(out).toEqual(['America/New_York', '2026-03-08T16:00:00.000Z', '2026/03/08 12:00:00']);
      expect(await gasError(rt, "SpreadsheetApp.getActive().setSpreadsheetTimeZone('Nowhere/Else');")).toBe(
        'Invalid argument: timeZone',
      );
    });
  });

  it('the .xlsx file holds the wall clock, as Excel and a Google Sheets download show it, and loads back', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-tz-')), 'book.xlsx');
    const at = Date.UTC(2026, 2, 8, 7, 0, 5, 250);
    await withRuntime(
      async (rt) => {
        await gas(rt, `${SHEET}sh.getRange('A1').setNumberFormat('yyyy-mm-dd hh:mm:ss').setValue(new Date(${at}));`);
        await rt.save(file);
      },
      { spreadsheetTimeZone: 'America/New_York' },
    );
    const x = new ExcelJS.Workbook();
    await x.xlsx.readFile(file);
    // ExcelJS reads a serial as UTC fields: those are New York's 03:00:05 EDT.
    expect((x.worksheets[0].getCell('A1').value as Date).toISOString()).toBe('2026-03-08T03:00:05.000Z');
    const back = await Runtime.open(file);
    try {
      expect(await gas(back, `${SHEET}return sh.getRange('A1').getValue().toISOString();`)).toBe(
        '2026-03-08T07:00:05.000Z',
      );
    } finally {
      await back.close();
    }
    // A file of metadata format 1 held UTC serials of the exact instant: it still loads as it was written.
    const meta = x.getWorksheet(META_SHEET)!;
    const text = JSON.parse(String(meta.getCell(1, 1).value));
    text.version = 1;
    meta.getCell(1, 1).value = JSON.stringify(text);
    x.worksheets[0].getCell('A1').value = new Date(Date.UTC(2026, 2, 8, 7, 0, 5, 250));
    await x.xlsx.writeFile(file);
    const legacy = await Runtime.open(file);
    try {
      expect(await gas(legacy, `${SHEET}return sh.getRange('A1').getValue().getTime();`)).toBe(at);
    } finally {
      await legacy.close();
    }
  });
});
