// One web API call's Kaigi: the council built once per execution and shared by the router's limits and the handler.
import { scriptZone } from '../adapters/gas/records.js';
import { props } from '../adapters/gas/services.js';
import { openBound, SPREADSHEET_ID_PROPERTY } from '../adapters/gas/spreadsheet.js';
import { ConflictError } from '../core/errors.js';
import { Settings } from '../core/settings.js';
import { Council } from './council.js';

let current: Council | null = null;

// Called as a request arrives: nothing cached by an earlier call in the same global scope is reused.
export function beginApiCall(): void {
  current = null;
}

export function isSetUp(): boolean {
  return !!props.get(SPREADSHEET_ID_PROPERTY);
}

// The council for this call; a clear 409 when Kaigi has no spreadsheet yet.
export function apiCouncil(): Council {
  if (!current) {
    if (!isSetUp()) throw new ConflictError('Kaigi has not been set up in its spreadsheet yet.', 'not_set_up');
    current = new Council(openBound(), scriptZone());
  }
  return current;
}

// Settings through the configuration cache (no Sheets read while it is warm); the defaults before set-up.
export function apiSettings(): Settings {
  return isSetUp() ? apiCouncil().settings() : new Settings({});
}
