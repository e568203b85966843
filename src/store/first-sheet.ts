// Where a new Kaigi spreadsheet opens: on its Dashboard, its own empty first sheet gone.
import { tabByKey } from '../../sheets-schema/index.js';
import { findSheet } from './tab-find.js';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

// The empty sheet a new spreadsheet comes with, by the name it has in either language of Sheets.
const BLANK_NAMES = ['Sheet1', 'シート1'];

// A person who opens the spreadsheet (or its .xlsx download) first sees the Dashboard rather than an empty sheet no
// tab of Kaigi's uses. The empty sheet goes only while it holds nothing, so a sheet someone wrote in stays.
export function openOnDashboard(ss: Spreadsheet): void {
  const dashboard = findSheet(ss, tabByKey('dashboard'));
  if (!dashboard) return;
  for (const name of BLANK_NAMES) {
    const blank = ss.getSheetByName(name);
    if (blank && blank.getLastRow() === 0 && blank.getLastColumn() === 0 && ss.getSheets().length > 1)
      ss.deleteSheet(blank);
  }
  ss.setActiveSheet(dashboard);
}
