// Persistence: the workbook survives a save and load through .xlsx, and the file opens as a normal workbook.
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFile, Runtime } from '../../../runtime/runtime.js';
import { META_SHEET } from '../../../runtime/host/xlsx.js';
import { gas } from '../../helpers.js';

describe('xlsx persistence', () => {
  it('keeps values, types, formulas, formats, validation, protection, triggers and properties across save and load', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-xlsx-'));
    const file = path.join(dir, 'book.xlsx');
    const rt = new Runtime();
    const long = `${'あ'.repeat(40000)}end`;
    await gas(
      rt,
      `var ss = SpreadsheetApp.getActiveSpreadsheet(); var sh = ss.insertSheet('Data');
      sh.getRange('A1:A5').setNumberFormat('@');
      sh.getRange(1, 1, 5, 1).setValues([['=IMPORTXML("http://x","//a")'], ['+cmd'], ['-1+2'], ['@SUM(A1)'], [${JSON.stringify(long)}]]);
      sh.getRange(1, 2, 3, 1).setValues([[42.5], [true], [new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))]]);
      sh.getRange('C1').setFormula('=1+2');
      sh.setFrozenRows(1); sh.setColumnWidth(1, 300); sh.protect().setWarningOnly(true);
      sh.getRange('D2:D50').setDataValidation(SpreadsheetApp.newDataValidation().requireValueInList(['a', 'b']).build());
      ScriptApp.newTrigger('tick').timeBased().everyMinutes(1).create();
      PropertiesService.getScriptProperties().setProperty('KAIGI_SPREADSHEET_ID', ss.getId());`,
    );
    rt.clock.advance(3600_000);
    await rt.save(file);
    await rt.close();

    const back = await Runtime.open(file);
    const out = await gas(
      back,
      `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Data');
      var v = sh.getRange(1, 1, 5, 3).getValues();
      return [v.map(function (r) { return r[0]; }), v[0][1], v[1][1], v[2][1].getTime(), v[0][2], sh.getRange('C1').getFormula(), sh.getFrozenRows(), sh.getColumnWidth(1),
        sh.getRange('A3').getNumberFormat(), sh.getRange('D20').getDataValidation().getCriteriaValues()[0], sh.getProtections(SpreadsheetApp.ProtectionType.SHEET)[0].isWarningOnly(),
        ScriptApp.getProjectTriggers().length, PropertiesService.getScriptProperties().getProperty('KAIGI_SPREADSHEET_ID')];`,
    );
    expect(out[0]).toEqual(['=IMPORTXML("http://x","//a")', '+cmd', '-1+2', '@SUM(A1)', long]);
    expect(out.slice(1)).toEqual([
      42.5,
      true,
      // Milliseconds are dropped when the Date is written (runtime/host/values.ts), not by the file.
      Date.UTC(2026, 0, 2, 3, 4, 5),
      3,
      '=1+2',
      1,
      300,
      '@',
      ['a', 'b'],
      true,
      1,
      'local-spreadsheet',
    ]);
    expect(back.clock.getOffset()).toBeGreaterThanOrEqual(3600_000);
    await back.close();

    // Any spreadsheet program sees ordinary sheets; text is text, never a formula.
    const x = new ExcelJS.Workbook();
    await x.xlsx.readFile(file);
    const data = x.getWorksheet('Data')!;
    expect(data.getCell('A1').value).toBe('=IMPORTXML("http://x","//a")');
    expect(data.getCell('A1').type).toBe(ExcelJS.ValueType.String);
    expect(x.getWorksheet(META_SHEET)!.state).toBe('veryHidden');
    // Secrets and other project state are kept beside the workbook, not in it.
    expect(fs.existsSync(projectFile(file))).toBe(true);
  });
});
