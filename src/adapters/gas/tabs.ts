// Creates and repairs tabs in the bound spreadsheet from sheets-schema; the only place tabs are shaped.
import { numberFormatOf, type TabSpec } from '../../../sheets-schema/index.js';
import type { TabPlan } from '../../core/tab-plan.js';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

function fill<T>(rows: number, cols: number, f: (c: number) => T): T[][] {
  const out: T[][] = [];
  for (let r = 0; r < rows; r++) {
    const line: T[] = [];
    for (let c = 0; c < cols; c++) line.push(f(c));
    out.push(line);
  }
  return out;
}

// Applies the plan, then (re)applies formats, widths, validation, frozen header and protection.
// Every step writes the same state on every run, so a second setup() changes nothing.
export function applyTab(ss: Spreadsheet, spec: TabSpec, existing: Sheet | null, plan: TabPlan): Sheet {
  const sheet = existing ?? ss.insertSheet(spec.name);
  for (const ins of plan.insert) {
    const max = sheet.getMaxColumns();
    if (ins.at > max) sheet.insertColumnsAfter(max, 1);
    else sheet.insertColumnsBefore(ins.at, 1);
    sheet.getRange(1, ins.at, 1, 1).setValues([[ins.key]]);
  }
  const n = spec.columns.length;
  // Unused columns still count toward the 10,000,000-cell limit: drop trailing ones that are entirely empty.
  const maxCols = sheet.getMaxColumns();
  const width = Math.max(n, plan.header.length);
  if (maxCols > width) {
    const rows = Math.max(1, sheet.getLastRow());
    const extra = sheet.getRange(1, width + 1, rows, maxCols - width).getValues();
    let keep = 0;
    extra.forEach((row) =>
      row.forEach((v, i) => {
        if (v !== '' && i + 1 > keep) keep = i + 1;
      }),
    );
    if (width + keep < maxCols) sheet.deleteColumns(width + keep + 1, maxCols - width - keep);
  }
  if (sheet.getMaxColumns() < plan.header.length)
    sheet.insertColumnsAfter(sheet.getMaxColumns(), plan.header.length - sheet.getMaxColumns());
  if (plan.writeHeader) sheet.getRange(1, 1, 1, n).setValues([spec.columns.map((c) => c.key)]);
  const head = sheet.getRange(1, 1, 1, n);
  head.setFontWeight('bold').setBackground('#e8eaed');
  if (sheet.getFrozenRows() !== spec.frozenRows) sheet.setFrozenRows(spec.frozenRows);
  spec.columns.forEach((c, i) => sheet.setColumnWidth(i + 1, c.width));
  const dataRows = sheet.getMaxRows() - spec.frozenRows;
  if (dataRows > 0) {
    const first = spec.frozenRows + 1;
    sheet
      .getRange(first, 1, dataRows, n)
      .setNumberFormats(fill(dataRows, n, (c) => numberFormatOf(spec.columns[c].type)));
    spec.columns.forEach((c, i) => {
      const range = sheet.getRange(first, i + 1, dataRows, 1);
      if (c.values) {
        range.setDataValidation(
          SpreadsheetApp.newDataValidation().requireValueInList(c.values.slice(), true).setAllowInvalid(false).build(),
        );
      } else if (c.type === 'boolean') {
        range.setDataValidation(SpreadsheetApp.newDataValidation().requireCheckbox().build());
      }
    });
  }
  if (spec.protected) {
    const protection = sheet.getProtections(SpreadsheetApp.ProtectionType.SHEET)[0] ?? sheet.protect();
    protection
      .setDescription(`Kaigi: ${spec.name} is written by Kaigi; change state through the sidebar or the API.`)
      .setWarningOnly(true);
  }
  return sheet;
}
