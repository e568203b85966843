// The web API's gate in CacheService: what a request needs before its caller is known (set up or not, the token
// hashes, the body and rate limits), so a request with a bad token costs no Properties or Sheets call. Whatever
// writes one of its sources drops it (the token list, the spreadsheet id, a Settings change), and it lives only
// minutes, so a reader that raced a writer cannot keep a revoked token for long.
import { clientKeys } from '../core/api/api-clients.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { ports } from '../ports.js';

const GATE_KEY = 'kaigi:api:gate';
// Short: the bound on how long a stale copy can outlive a revocation it raced with.
const GATE_TTL_S = 300;
const SOURCES: readonly string[] = clientKeys(PROPERTY_KEYS.apiTokens).concat([PROPERTY_KEYS.spreadsheetId]);

export function readGate(): string | null {
  return ports().cache.get(GATE_KEY);
}

export function writeGate(value: string): void {
  ports().cache.put(GATE_KEY, value, GATE_TTL_S);
}

export function forgetGate(): void {
  ports().cache.remove(GATE_KEY);
}

// Called by every write of Script Properties: a write to a source of the gate drops it.
export function forgetGateIfAny(keys: readonly string[]): void {
  if (keys.some((k) => SOURCES.indexOf(k) >= 0)) forgetGate();
}
