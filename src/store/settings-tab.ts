// Reads the Settings tab and adds rows for settings it lacks, leaving edited values alone.
import { tabByKey } from '../../sheets-schema/index.js';
import { hasOwn } from '../core/json-guard.js';
import type { SettingDef } from '../core/settings.js';
import { findSheet } from './tab-find.js';
import type { SpreadsheetPort } from '../ports.js';

// Only cells: seeding runs on any spreadsheet the ports give, Apps Script's or the in-memory one.
type Spreadsheet = SpreadsheetPort;

function readSettings(ss: Spreadsheet): Record<string, string> {
  const sheet = findSheet(ss, tabByKey('settings'));
  const out: Record<string, string> = {};
  if (!sheet) return out;
  const last = sheet.getLastRow();
  if (last < 2) return out;
  for (const [key, value] of sheet.getRange(2, 1, last - 1, 2).getValues()) {
    if (key !== '') out[String(key)] = String(value);
  }
  return out;
}

export function seedSettings(ss: Spreadsheet, defaults: readonly SettingDef[]): number {
  const sheet = findSheet(ss, tabByKey('settings'));
  if (!sheet) throw new Error('the Settings tab is missing; run setup');
  const present = readSettings(ss);
  const missing = defaults.filter((d) => !(d.key in present));
  if (missing.length === 0) return 0;
  const start = Math.max(sheet.getLastRow(), 1) + 1;
  const need = start + missing.length - 1 - sheet.getMaxRows();
  if (need > 0) sheet.insertRowsAfter(sheet.getMaxRows(), need);
  // A renamed setting starts from the value its former row holds, so a workbook's choice survives the rename.
  const startValue = (d: SettingDef) => (d.formerly && hasOwn(present, d.formerly) ? present[d.formerly] : d.value);
  sheet
    .getRange(start, 1, missing.length, 4)
    .setValues(missing.map((d) => [d.key, startValue(d), d.type, d.description]));
  return missing.length;
}
