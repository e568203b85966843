// Arguments Google's overload resolution refuses: an undefined, NaN, fractional or negative int, and UrlFetchApp's limits.
import { describe, expect, it } from 'vitest';
import { gas, withRuntime } from '../../helpers.js';

// Each snippet's error message, or 'ok' when it ran; one execution for the lot.
async function outcomes(snippets: string[]): Promise<string[]> {
  return withRuntime((rt) =>
    gas(
      rt,
      `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
      var t = function () { return ScriptApp.newTrigger('tick').timeBased(); };
      return [${snippets.map((s) => `(function () { try { ${s}; return 'ok'; } catch (e) { return e.message; } })()`).join(',\n')}];`,
    ),
  );
}

describe("service methods' int arguments, as Google's signatures take them", () => {
  it('Sheet.getRange takes (row, column[, numRows[, numColumns]]) as ints or one A1 text, nothing else', async () => {
    expect(
      await outcomes([
        'sh.getRange(1, 2, undefined, 3)',
        'sh.getRange(1, 2, 3, null)',
        'sh.getRange(1)',
        'sh.getRange(1.5, 2)',
        'sh.getRange(NaN, 1)',
        "sh.getRange('A1', 2)",
        "sh.getRange(1, '2')",
        'sh.getRange(1, 2, 3, 4, 5)',
        'sh.getRange(1, 2); sh.getRange(1, 2, 3); sh.getRange(1, 2, 3, 4); sh.getRange("B2:C3")',
      ]),
    ).toEqual([
      "The parameters (number,number,null,number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      "The parameters (number,number,number,null) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      "The parameters (number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      "The parameters (number,number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      "The parameters (number,number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      "The parameters (String,number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      "The parameters (number,String) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      "The parameters (number,number,number,number,number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      'ok',
    ]);
  });

  it('rows, columns, frozen panes and a range’s cells and offsets take ints', async () => {
    expect(
      await outcomes([
        'sh.insertRowsAfter(1, undefined)',
        'sh.deleteRows(2)',
        'sh.setFrozenRows(0.5)',
        'sh.insertColumnsBefore(1, NaN)',
        'sh.getRange(1, 1, 2, 2).getCell(1, undefined)',
        'sh.getRange(2, 2).offset(1, undefined)',
        'sh.getRange(2, 2, 2, 2).offset(-1, 0, 1); sh.getRange(1, 1, 2, 2).getCell(2, 2); sh.setFrozenRows(1)',
      ]),
    ).toEqual([
      "The parameters (number,null) don't match the method signature for SpreadsheetApp.Sheet.insertRowsAfter.",
      "The parameters (number) don't match the method signature for SpreadsheetApp.Sheet.deleteRows.",
      "The parameters (number) don't match the method signature for SpreadsheetApp.Sheet.setFrozenRows.",
      "The parameters (number,number) don't match the method signature for SpreadsheetApp.Sheet.insertColumnsBefore.",
      "The parameters (number,null) don't match the method signature for SpreadsheetApp.Range.getCell.",
      "The parameters (number,null) don't match the method signature for SpreadsheetApp.Range.offset.",
      'ok',
    ]);
  });

  it('a time-based trigger takes a non-negative int delay and int hours, minutes and days', async () => {
    expect(
      await outcomes([
        't().after(-1)',
        't().after(1.5)',
        't().after(undefined)',
        't().atHour(1.5)',
        't().atHour(24)',
        't().nearMinute(60)',
        't().everyDays(0)',
        't().atDate(2026, 1)',
        't().after(0); t().after(60000); t().everyDays(1).atHour(0).nearMinute(59)',
      ]),
    ).toEqual([
      'Invalid argument: durationMilliseconds',
      "The parameters (number) don't match the method signature for ClockTriggerBuilder.after.",
      "The parameters (null) don't match the method signature for ClockTriggerBuilder.after.",
      "The parameters (number) don't match the method signature for ClockTriggerBuilder.atHour.",
      'Invalid argument: hour',
      'Invalid argument: minute',
      'Invalid argument: n',
      "The parameters (number,number) don't match the method signature for ClockTriggerBuilder.atDate.",
      'ok',
    ]);
  });
});

describe("UrlFetchApp's per-call limits", () => {
  it('a URL over 2 kB, over 100 headers or a payload over 50 MB is refused before anything is sent', async () => {
    const base = "'https://example.com/?q='";
    expect(
      await outcomes([
        `UrlFetchApp.getRequest(${base} + new Array(2048 - 23 + 1).join('a'))`,
        `UrlFetchApp.getRequest(${base} + new Array(2048 - 23 + 2).join('a'))`,
        `UrlFetchApp.getRequest(${base} + new Array(2048 - 23).join('a') + 'é')`,
        'var h = {}; for (var i = 0; i < 100; i++) h["X-" + i] = "1"; UrlFetchApp.getRequest("https://example.com", { headers: h })',
        'var h = {}; for (var i = 0; i < 101; i++) h["X-" + i] = "1"; UrlFetchApp.getRequest("https://example.com", { headers: h })',
        'UrlFetchApp.getRequest("https://example.com", { method: "post", payload: new Array(50 * 1024 * 1024 + 2).join("a") })',
      ]),
    ).toEqual([
      'ok',
      'Limit Exceeded: URLFetch URL Length.',
      'Limit Exceeded: URLFetch URL Length.',
      'ok',
      'Limit Exceeded: URLFetch headers.',
      'Limit Exceeded: URLFetch POST Size.',
    ]);
  });
});
