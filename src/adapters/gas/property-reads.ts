// Script Property reads, one at a time or, for a stretch of work, all in one call: a web API call reads a dozen
// properties (the spreadsheet id, the state, the configuration version, usage, the API ledger, the model override
// per agent …), Apps Script's quota counts each read, and getProperties() reads every one of them as a single call.
import { hasOwn } from '../../core/json-guard.js';

// 'off': every read asks PropertiesService. 'open': a stretch began and reads nothing yet (a call that reads no
// property pays nothing). 'loaded': the properties as read at the stretch's first read.
let mode: 'off' | 'open' | 'loaded' = 'off';
let snapshot: Record<string, string> = {};

export function readProperty(key: string): string | null {
  if (mode === 'open') {
    snapshot = PropertiesService.getScriptProperties().getProperties();
    mode = 'loaded';
  }
  if (mode === 'loaded') return hasOwn(snapshot, key) ? snapshot[key] : null;
  return PropertiesService.getScriptProperties().getProperty(key);
}

// Runs `fn` reading every property at most once, at its first read. The stretch ends, and reads ask again, at any
// write of a property (propertiesWritten) and when the script lock is taken (what another execution committed
// must be read under the lock, not remembered from before it): nothing is ever read older than it was written.
export function withPropertySnapshot<T>(fn: () => T): T {
  if (mode !== 'off') return fn();
  mode = 'open';
  try {
    return fn();
  } finally {
    mode = 'off';
    snapshot = {};
  }
}

// Called by every write of a Script Property, and by Store.withLock once it holds the lock.
export function propertiesWritten(): void {
  mode = 'off';
  snapshot = {};
}
