// Script Property reads, one at a time or, for a stretch of work, all in one call: a web API call reads a dozen
// properties (the spreadsheet id, the state, the configuration version, usage, the API ledger, the model override
// per agent …), Apps Script's quota counts each read, and getProperties() reads every one of them as a single call.
import { hasOwn } from '../core/json-guard.js';
import { ports } from '../ports.js';

// 'off': every read asks PropertiesService. 'open': a stretch began and reads nothing yet (a call that reads no
// property pays nothing). 'loaded': the properties as read at the stretch's first read.
let mode: 'off' | 'open' | 'loaded' = 'off';
let snapshot: Record<string, string> = {};

export function readProperty(key: string): string | null {
  if (mode === 'open') {
    snapshot = ports().properties.getProperties();
    mode = 'loaded';
  }
  if (mode === 'loaded') return hasOwn(snapshot, key) ? snapshot[key] : null;
  return ports().properties.getProperty(key);
}

// Runs `fn` reading every property at most once between writes: the first read loads them all. At any write of a
// property (propertiesWritten), when the script lock is taken (what another execution committed must be read under
// the lock, not remembered from before it) and when it is released, the snapshot is dropped and the next read loads
// them again, in one call: nothing is ever read older than this execution's last write or lock change. A tick
// that asks for the model override, the usage and a key for each of seventeen agents pays one call, not fifty.
// `loaded`: every property, as the caller has just read them (getProperties()), so the stretch starts from them.
export function withPropertySnapshot<T>(fn: () => T, loaded?: Record<string, string>): T {
  if (mode !== 'off') return fn();
  mode = loaded ? 'loaded' : 'open';
  snapshot = loaded ? { ...loaded } : {};
  try {
    return fn();
  } finally {
    mode = 'off';
    snapshot = {};
  }
}

// Called by every write of a Script Property, and by Store.withLock once it holds the lock and once it let it go.
export function propertiesWritten(): void {
  if (mode === 'loaded') mode = 'open';
  snapshot = {};
}
