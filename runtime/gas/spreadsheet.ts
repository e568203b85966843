// SpreadsheetApp, the entry to the spreadsheet's object graph (sheet.ts, range.ts and their neighbours).
import { execInfo, GasError, call, enumOf, requireScope, SCOPES } from './bridge.js';
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
  openById(id: string): Spreadsheet {
    requireScope('SpreadsheetApp.openById', SCOPES.spreadsheets);
    if (execInfo().kind === 'simple') throw new GasError('You do not have permission to call SpreadsheetApp.openById');
    if (id !== execInfo().spreadsheetId)
      throw new GasError('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
    return new Spreadsheet();
  },
  flush(): void {
    sheetsGuard();
    call('ss.flush', {});
  },
  getUi: ui,
  newDataValidation: () => new DataValidationBuilder(),
};
