// SpreadsheetApp, the entry to the spreadsheet's object graph (sheet.ts, range.ts and their neighbours).
import { execInfo, GasError, call, enumOf, requireAuthorized, requireScope, SCOPES } from './bridge.js';
import { DataValidationBuilder, DataValidationCriteria } from './data-validation.js';
import { ProtectionType } from './protection.js';
import { type Sheet, Spreadsheet } from './sheet.js';
import { ui } from './spreadsheet-ui.js';

// install.ts takes the globals' objects from here.
export { Charts } from './charts.js';
export { Sheet } from './sheet.js';

const WrapStrategy = enumOf(['WRAP', 'OVERFLOW', 'CLIP']);

function sheetsGuard(): void {
  requireScope('SpreadsheetApp', SCOPES.spreadsheets, SCOPES.spreadsheetsCurrent);
}

export const SpreadsheetApp = {
  ProtectionType,
  DataValidationCriteria,
  WrapStrategy,
  getActiveSpreadsheet(): Spreadsheet | null {
    sheetsGuard();
    // Stricter reading: a web-app execution has no active spreadsheet; it must use openById.
    return execInfo().kind === 'webapp' ? null : new Spreadsheet();
  },
  getActive(): Spreadsheet | null {
    return SpreadsheetApp.getActiveSpreadsheet();
  },
  getActiveSheet(): Sheet | null {
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    return ss ? ss.getActiveSheet() : null;
  },
  // The bound spreadsheet, or one the effective user created (the host checks which they may open).
  openById(id: string): Spreadsheet {
    requireScope('SpreadsheetApp.openById', SCOPES.spreadsheets);
    if (execInfo().kind === 'simple') throw new GasError('You do not have permission to call SpreadsheetApp.openById');
    if (typeof id !== 'string' || id === '')
      throw new GasError('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
    if (id === execInfo().spreadsheetId) return new Spreadsheet();
    return new Spreadsheet(call('ss.open', { id }).id);
  },
  // A new spreadsheet in the user's Drive with one sheet, "Sheet1" (needs the full spreadsheets scope).
  create(name: string): Spreadsheet {
    requireScope('SpreadsheetApp.create', SCOPES.spreadsheets);
    requireAuthorized('SpreadsheetApp.create');
    return new Spreadsheet(call('ss.create', { name: typeof name === 'string' ? name : String(name ?? '') }).id);
  },
  flush(): void {
    sheetsGuard();
    call('ss.flush', {});
  },
  getUi: ui,
  newDataValidation: () => new DataValidationBuilder(),
};
