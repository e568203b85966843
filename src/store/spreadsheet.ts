// The bound spreadsheet: active in triggers and the UI; opened by its stored id in a web app; its time zone.
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { readProperty } from './property-reads.js';
import { ports } from '../ports.js';

export const SPREADSHEET_ID_PROPERTY = PROPERTY_KEYS.spreadsheetId;

// Opened by id once per execution: the id of the spreadsheet a script is bound to never changes, and each open
// would read its property again.
let openedById: GoogleAppsScript.Spreadsheet.Spreadsheet | null = null;

export function openBound(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  const active = ports().spreadsheets.active();
  if (active) return active;
  if (openedById) return openedById;
  const id = readProperty(SPREADSHEET_ID_PROPERTY);
  if (!id) throw new Error('Kaigi has not been set up in its spreadsheet yet: run Kaigi → Set up / repair.');
  openedById = ports().spreadsheets.openById(id);
  return openedById;
}

// ---- time zone ----------------------------------------------------------------------------
// A date cell holds the wall clock of the SPREADSHEET's time zone, which may differ from the script's
// (appsscript.json) and may have DST. Every date Kaigi writes to or reads from a cell goes through
// this zone (records.ts); days and "today" stay on the script's calendar.

// Read once per execution, and only by an execution that converts a date cell, so an idle tick pays nothing.
let zoneOfSheet: string | null = null;

export function sheetZone(ss?: GoogleAppsScript.Spreadsheet.Spreadsheet): string {
  if (zoneOfSheet === null) zoneOfSheet = (ss ?? openBound()).getSpreadsheetTimeZone();
  return zoneOfSheet;
}

export interface TimeZoneStep {
  spreadsheet: string;
  script: string;
  // True when setup changed the spreadsheet's zone to the script's.
  set: boolean;
  note: string;
}

// setup's time-zone step. A spreadsheet with nothing in it yet takes the script's zone, so the sheet and Kaigi
// share one clock. One that holds anything keeps its own: changing the zone keeps every date cell's wall clock
// and so moves the instant it holds (typed KPI dates would shift by the difference), and people chose it.
export function settleTimeZone(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): TimeZoneStep {
  const script = ports().host.scriptTimeZone();
  const current = ss.getSpreadsheetTimeZone();
  zoneOfSheet = current;
  if (current === script)
    return { spreadsheet: current, script, set: false, note: `Spreadsheet time zone ${current}, as the script's.` };
  const empty = ss.getSheets().every((s) => s.getLastRow() === 0);
  if (!empty)
    return {
      spreadsheet: current,
      script,
      set: false,
      note:
        `Spreadsheet time zone ${current} kept (the script's is ${script}): the spreadsheet already holds data, ` +
        `so dates in cells are written and read in ${current}; days are counted on the script's calendar.`,
    };
  ss.setSpreadsheetTimeZone(script);
  zoneOfSheet = script;
  return {
    spreadsheet: script,
    script,
    set: true,
    note: `Spreadsheet time zone set to ${script}, the script's (it was ${current}): the spreadsheet was new.`,
  };
}
