// The bound spreadsheet: active in triggers and the UI; opened by its stored id in a web app.
import { PROPERTY_KEYS } from '../../core/property-keys.js';

export const SPREADSHEET_ID_PROPERTY = PROPERTY_KEYS.spreadsheetId;

export function openBound(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  const active = SpreadsheetApp.getActiveSpreadsheet();
  if (active) return active;
  const id = PropertiesService.getScriptProperties().getProperty(SPREADSHEET_ID_PROPERTY);
  if (!id) throw new Error('Kaigi has not been set up in its spreadsheet yet: run Kaigi → Set up / repair.');
  return SpreadsheetApp.openById(id);
}
