// One web API call's Kaigi: the gate a request passes before its caller is known (from CacheService), and the
// council built once per execution and shared by the router's limits and the handler.
import { readGate, writeGate } from '../../store/gate-cache.js';
import { scriptZone } from '../../store/records.js';
import { props } from '../../store/services.js';
import { openBound, SPREADSHEET_ID_PROPERTY } from '../../store/spreadsheet.js';
import type { TokenRecord } from '../../core/api/api.js';
import { readClients } from '../../core/api/api-clients.js';
import { ConflictError } from '../../core/errors.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { Settings } from '../../core/settings.js';
import { Council } from '../sheet-council.js';

// What a request needs before its caller is known. Kept in CacheService for at most GATE_TTL_S seconds and dropped
// by any write of its sources, so a request with a bad token against a warm cache reads no Script Property and
// no sheet; a cold cache costs the one request that finds it cold two property reads (and the Settings).
export interface Gate {
  set_up: boolean;
  tokens: TokenRecord[];
  max_body_bytes: number;
  rate_limit_per_minute: number;
  // API Log rows that may wait in the inbox before a call appends them itself (Settings api.log_waiting_rows).
  log_waiting_rows: number;
  // How long GET /status may answer from its cached copy (Settings api.status_max_age_seconds).
  status_max_age_s: number;
}

let current: Council | null = null;
let gateOfCall: Gate | null = null;

// Called as a request arrives: nothing cached by an earlier call in the same global scope is reused.
export function beginApiCall(): void {
  current = null;
  gateOfCall = null;
}

function isGate(v: unknown): v is Gate {
  const g = v as Gate;
  return (
    !!g &&
    typeof g.set_up === 'boolean' &&
    Array.isArray(g.tokens) &&
    typeof g.max_body_bytes === 'number' &&
    typeof g.log_waiting_rows === 'number' &&
    typeof g.status_max_age_s === 'number'
  );
}

// The gate: the cache's copy, or read once from the properties and Settings and cached again. A token list that
// cannot be read throws its ConfigError (and nothing is cached, so the next request sees a fix at once).
export function gate(): Gate {
  if (gateOfCall) return gateOfCall;
  const raw = readGate();
  if (raw) {
    try {
      const cached = JSON.parse(raw) as unknown;
      if (isGate(cached)) return (gateOfCall = cached);
    } catch {
      // A copy that does not parse is read again from its sources below.
    }
  }
  const setUp = !!props.get(SPREADSHEET_ID_PROPERTY);
  const tokens = readClients((key) => props.get(key), PROPERTY_KEYS.apiTokens);
  const s = setUp ? apiCouncil(true).settings() : new Settings({});
  const fresh: Gate = {
    set_up: setUp,
    tokens,
    max_body_bytes: s.number('api.max_body_bytes'),
    rate_limit_per_minute: s.number('api.rate_limit_per_minute'),
    log_waiting_rows: s.number('api.log_waiting_rows'),
    status_max_age_s: s.number('api.status_max_age_seconds'),
  };
  writeGate(JSON.stringify(fresh));
  return (gateOfCall = fresh);
}

export function isSetUp(): boolean {
  return gate().set_up;
}

// The council for this call; a clear 409 when Kaigi has no spreadsheet yet.
export function apiCouncil(known = false): Council {
  if (!current) {
    if (!known && !isSetUp())
      throw new ConflictError('Kaigi has not been set up in its spreadsheet yet.', 'not_set_up');
    current = new Council(openBound(), scriptZone());
  }
  return current;
}

// Settings through the configuration cache (no Sheets read while it is warm); the defaults before set-up.
export function apiSettings(): Settings {
  return isSetUp() ? apiCouncil().settings() : new Settings({});
}
