// SpreadsheetApp conformance: values and their types, formulas, limits, shape, formats and metadata.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { gas, gasError, withRuntime } from '../../helpers.js';

const SHEET = 'var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];\n';

describe('values', () => {
  it('round-trips numbers, booleans, Dates and empty cells with Apps Script types', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        var d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5)); // whole seconds: a cell drops milliseconds (time-zones.test.ts)
        sh.getRange(1, 1, 2, 3).setValues([[1.5, true, d], ['', null, 'text']]);
        var v = sh.getRange(1, 1, 2, 3).getValues();
        return [v[0][0], v[0][1], v[0][2] instanceof Date, v[0][2].getTime() === d.getTime(), v[1][0], v[1][1], v[1][2], sh.getRange('C2').getValue()];`,
      );
      expect(out).toEqual([1.5, true, true, true, '', '', 'text', 'text']);
    });
  });

  it('rejects a grid whose size does not match the range, with Apps Script messages', async () => {
    await withRuntime(async (rt) => {
      expect(await gasError(rt, `${SHEET}sh.getRange(1, 1, 3, 1).setValues([[1], [2]]);`)).toBe(
        'The number of rows in the data does not match the number of rows in the range. The data has 2 but the range has 3.',
      );
      expect(await gasError(rt, `${SHEET}sh.getRange(1, 1, 1, 2).setValues([[1, 2, 3]]);`)).toBe(
        'The number of columns in the data does not match the number of columns in the range. The data has 3 but the range has 2.',
      );
      expect(await gasError(rt, `${SHEET}sh.getRange(1, 1, 1, 2).setValues([1, 2]);`)).toMatch(
        /don't match the method signature/,
      );
    });
  });

  it('leaves the range untouched when one value of a batch is rejected', async () => {
    await withRuntime(async (rt) => {
      await gasError(rt, `${SHEET}sh.getRange(1, 1, 1, 2).setValues([['kept?', new Array(50002).join('x')]]);`);
      expect(await gas(rt, `${SHEET}return sh.getLastRow();`)).toBe(0);
    });
  });

  it('rejects a 50,001-character cell and accepts 50,000, as Sheets does', async () => {
    await withRuntime(async (rt) => {
      expect(await gasError(rt, `${SHEET}sh.getRange('A1').setValue(new Array(50002).join('a'));`)).toBe(
        'Your input contains more than the maximum of 50000 characters in a single cell.',
      );
      expect(await gasError(rt, `${SHEET}sh.appendRow([new Array(50002).join('a')]);`)).toMatch(
        /maximum of 50000 characters/,
      );
      expect(
        await gas(
          rt,
          SHEET +
            "sh.getRange('A1').setValue(new Array(50001).join('あ')); return sh.getRange('A1').getValue().length;",
        ),
      ).toBe(50000);
    });
  });

  it('parses typed-in strings in General cells and keeps them verbatim in plain-text cells', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        var inputs = ['123', '-1', '1,234.5', '12%', 'TRUE', '2026-01-31', 'hello', '007'];
        sh.getRange(1, 1, 1, inputs.length).setValues([inputs]);
        sh.getRange(2, 1, 1, inputs.length).setNumberFormat('@').setValues([inputs]);
        var g = sh.getRange(1, 1, 2, inputs.length).getValues();
        return [g[0].map(function (v) { return v instanceof Date ? 'Date' : typeof v + ':' + v; }), g[1]];`,
      );
      expect(out[0]).toEqual([
        'number:123',
        'number:-1',
        'number:1234.5',
        'number:0.12',
        'boolean:true',
        'Date',
        'string:hello',
        'number:7',
      ]);
      expect(out[1]).toEqual(['123', '-1', '1,234.5', '12%', 'TRUE', '2026-01-31', 'hello', '007']);
    });
  });
});

describe('formulas', () => {
  it('makes a string beginning with = a formula exactly when Sheets would', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        var cases = ['=1+2', '=IMPORTXML("http://x","//a")', "'=1+2", '= 3', 'a=1'];
        sh.getRange(1, 1, 1, cases.length).setValues([cases]);
        sh.getRange(2, 1, 1, cases.length).setNumberFormat('@').setValues([cases]);
        return [sh.getRange(1, 1, 2, cases.length).getFormulas(), sh.getRange(1, 1, 2, cases.length).getValues()];`,
      );
      const [formulas, values] = out;
      // General cells: "=..." becomes a formula; an apostrophe escapes it; other text stays text.
      expect(formulas[0]).toEqual(['=1+2', '=IMPORTXML("http://x","//a")', '', '= 3', '']);
      expect(values[0]).toEqual([3, '#ERROR!', '=1+2', 3, 'a=1']);
      // Plain-text cells keep every string as written (an apostrophe included).
      expect(formulas[1]).toEqual(['', '', '', '', '']);
      expect(values[1]).toEqual(['=1+2', '=IMPORTXML("http://x","//a")', "'=1+2", '= 3', 'a=1']);
    });
  });

  it('treats +, - and @ prefixes that are not numbers as formulas in General cells (stricter reading)', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        sh.getRange(1, 1, 1, 6).setValues([['+cmd', '-1+2', '@SUM(A1)', '-', '+5', "'+cmd"]]);
        return [sh.getRange(1, 1, 1, 6).getFormulas()[0], sh.getRange(1, 1, 1, 6).getValues()[0]];`,
      );
      expect(out[0]).toEqual(['=+cmd', '=-1+2', '=@SUM(A1)', '', '', '']);
      expect(out[1]).toEqual(['#ERROR!', 1, '#ERROR!', '-', 5, '+cmd']);
    });
  });
});

describe('shape of a sheet', () => {
  it('reports 0 for the last row and column of an empty sheet, and grows with appendRow', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        var before = [sh.getLastRow(), sh.getLastColumn(), sh.getMaxRows(), sh.getMaxColumns()];
        sh.appendRow(['a', 'b']); sh.appendRow(['c']);
        return before.concat([sh.getLastRow(), sh.getLastColumn(), sh.getDataRange().getA1Notation()]);`,
      );
      expect(out).toEqual([0, 0, 1000, 26, 2, 2, 'A1:B2']);
    });
  });

  it('refuses ranges outside the grid, and appendRow past the last row grows the grid', async () => {
    await withRuntime(async (rt) => {
      expect(await gasError(rt, `${SHEET}sh.getRange(1001, 1).getValue();`)).toBe(
        'The coordinates of the range are outside the dimensions of the sheet.',
      );
      expect(await gasError(rt, `${SHEET}sh.getRange(0, 1).getValue();`)).toBe(
        'The starting row of the range is too small.',
      );
      const rows = await gas(
        rt,
        SHEET +
          "sh.getRange(1000, 1).setValue('last'); sh.appendRow(['next']); return [sh.getMaxRows(), sh.getLastRow()];",
      );
      expect(rows).toEqual([1001, 1001]);
    });
  });

  it('inserts rows that inherit the number formats of the row they follow', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        sh.getRange(1, 1, 1000, 1).setNumberFormat('@');
        sh.insertRowsAfter(1000, 5);
        sh.getRange(1003, 1).setValue('=1+1');
        return [sh.getMaxRows(), sh.getRange(1003, 1).getValue(), sh.getRange(1003, 1).getFormula()];`,
      );
      expect(out).toEqual([1005, '=1+1', '']);
    });
  });

  it('refuses a workbook beyond 10,000,000 cells', async () => {
    await withRuntime(async (rt) => {
      const msg = await gasError(rt, `${SHEET}sh.insertColumnsAfter(26, 26); sh.insertRowsAfter(1000, 200000);`);
      expect(msg).toBe(
        'This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
      );
    });
  });
});

describe('sheets, formats and metadata', () => {
  it('inserts, renames, finds and deletes sheets', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `
        var ss = SpreadsheetApp.getActiveSpreadsheet();
        var s = ss.insertSheet('Log');
        s.setName('議論ログ');
        var found = ss.getSheetByName('議論ログ') !== null && ss.getSheetByName('Log') === null;
        var dup = ''; try { ss.insertSheet('議論ログ'); } catch (e) { dup = e.message; }
        ss.deleteSheet(s);
        return [found, dup, ss.getSheets().length];`,
      );
      expect(out).toEqual([true, 'A sheet with the name "議論ログ" already exists. Please enter another name.', 1]);
    });
  });

  it('keeps frozen rows, column widths, number formats, validation and protection as data', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        sh.setFrozenRows(1); sh.setColumnWidth(2, 240);
        sh.getRange('A2:A10').setNumberFormat('@');
        sh.getRange('B2:B10').setDataValidation(SpreadsheetApp.newDataValidation().requireValueInList(['OPEN', 'CLOSED'], true).setAllowInvalid(false).build());
        var p = sh.protect().setDescription('log').setWarningOnly(true);
        var rule = sh.getRange('B5').getDataValidation();
        return [sh.getFrozenRows(), sh.getColumnWidth(2), sh.getRange('A3').getNumberFormat(), rule.getCriteriaType(), rule.getCriteriaValues()[0],
          sh.getProtections(SpreadsheetApp.ProtectionType.SHEET).length, sh.getProtections(SpreadsheetApp.ProtectionType.SHEET)[0].isWarningOnly()];`,
      );
      expect(out).toEqual([1, 240, '@', 'VALUE_IN_LIST', ['OPEN', 'CLOSED'], 1, true]);
      const sheet = rt.workbook.sheets[0];
      expect(sheet.protections[0]).toMatchObject({ type: 'SHEET', description: 'log', warningOnly: true });
    });
  });

  it('finds cells with a TextFinder', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        sh.getRange(1, 1, 3, 1).setValues([['DISC-1'], ['DISC-10'], ['disc-1']]);
        var exact = sh.createTextFinder('DISC-1').matchEntireCell(true).matchCase(true).findAll().map(function (r) { return r.getRow(); });
        var loose = sh.createTextFinder('disc-1').findAll().length;
        return [exact, loose];`,
      );
      expect(out).toEqual([[1], 3]);
    });
  });

  it('keeps charts as data', async () => {
    await withRuntime(async (rt) => {
      const n = await gas(
        rt,
        SHEET +
          `
        sh.insertChart(sh.newChart().setChartType(Charts.ChartType.PIE).addRange(sh.getRange('A1:B5')).setPosition(1, 4, 0, 0).setOption('title', 'status').build());
        return sh.getCharts().length;`,
      );
      expect(n).toBe(1);
      expect(rt.workbook.sheets[0].charts[0]).toMatchObject({
        chartType: 'PIE',
        ranges: ['A1:B5'],
        options: { title: 'status' },
      });
    });
  });

  it("keeps a chart's fixed spec only: an option of the script's own is gone once inserted, a list is not read back, and ids come from the sheet", async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        SHEET +
          `
        var built = sh.newChart().asColumnChart().addRange(sh.getRange('A1:B5')).setPosition(3, 4, 0, 0)
          .setOption('title', 'kept').setOption('kaigi.chart', 'mine').setOption('animation.duration', 500)
          .setOption('colors', ['#ff0000']).build();
        var before = [built.getChartId(), built.getOptions().get('kaigi.chart')];
        sh.insertChart(built);
        var c = sh.getCharts()[0];
        var at = c.getContainerInfo();
        return { before: before, inserted: built.getChartId(), id: c.getChartId(), title: c.getOptions().get('title'),
          mine: c.getOptions().get('kaigi.chart'), animation: c.getOptions().get('animation.duration'),
          colors: c.getOptions().get('colors'), anchor: [at.getAnchorRow(), at.getAnchorColumn()] };`,
      );
      // The builder holds what it was given; the inserted object has no id, the sheet's chart has one.
      expect(out).toEqual({
        before: [null, 'mine'],
        inserted: null,
        id: expect.any(Number),
        title: 'kept',
        mine: null,
        animation: null,
        // Kept in the spec, but a list comes back in no form a script can compare with what it set.
        colors: null,
        anchor: [3, 4],
      });
      expect(rt.workbook.sheets[0].charts[0].options).toEqual({ title: 'kept', colors: ['#ff0000'] });
    });
  });
});

describe('UI', () => {
  it('records menus, sidebars and alerts, and refuses getUi() in a trigger or web-app execution', async () => {
    await withRuntime(async (rt: Runtime) => {
      rt.ui.responses.push({ button: 'NO' });
      const answer = await gas(
        rt,
        `
        var ui = SpreadsheetApp.getUi();
        ui.createMenu('Kaigi').addItem('Open', 'openSidebar').addToUi();
        ui.showSidebar(HtmlService.createHtmlOutput('<b>hi</b>').setTitle('Side'));
        return ui.alert('Sure?', 'Really?', ui.ButtonSet.YES_NO);`,
        { kind: 'menu' },
      );
      expect(answer).toBe('NO');
      expect(rt.ui.menus[0]).toMatchObject({ caption: 'Kaigi', items: [{ caption: 'Open', fn: 'openSidebar' }] });
      expect(rt.ui.sidebars[0]).toMatchObject({ title: 'Side', html: '<b>hi</b>' });
      expect(await gasError(rt, 'SpreadsheetApp.getUi();', { kind: 'trigger' })).toBe(
        'Cannot call SpreadsheetApp.getUi() from this context.',
      );
      expect(await gasError(rt, 'SpreadsheetApp.getUi();', { kind: 'webapp' })).toBe(
        'Cannot call SpreadsheetApp.getUi() from this context.',
      );
    });
  });
});
