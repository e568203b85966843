// Where an authenticated web API call leaves its API Log row: a Script Property of its own (one write, no lock), and
// an approximate count in CacheService of how many wait, so a busy hour cannot outgrow the properties' 500 KB before
// a tick appends them (src/app/api/api-log.ts; why a property and not the cache: docs/decision-to-outcome.md).
import { encodeEntry, type InboxEntry, inboxKey, waitingRows, type Waiting } from '../core/api/api-log-inbox.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { propertiesWritten } from './property-reads.js';
import { props } from './services.js';
import { ports } from '../ports.js';

const PREFIX = PROPERTY_KEYS.apiLogInbox;
const COUNT_KEY = 'kaigi:apilog:waiting';
// Long enough to span the backstop's longest interval (30 minutes) several times over.
const COUNT_TTL_S = 21600;

// One property write; the key is new, so no other call can be writing it. Returns the waiting count as far as the
// cache knows (CacheService has no atomic increment: simultaneous calls may each count one, so it may run low; a
// lost count starts again from this call).
export function leaveRow(e: InboxEntry): number {
  props.set({ [inboxKey(PREFIX, e.time, Math.random().toString(36).slice(2, 10))]: encodeEntry(e) });
  const cache = ports().cache;
  const n = (Number(cache.get(COUNT_KEY)) || 0) + 1;
  cache.put(COUNT_KEY, String(n), COUNT_TTL_S);
  return n;
}

// The rows waiting now, oldest first, at most `limit`, and how many wait in all (one read of every Script Property).
export function waitingNow(limit: number): { rows: Waiting[]; total: number } {
  const all = waitingRows(ports().properties.getProperties(), PREFIX);
  return { rows: all.slice(0, limit), total: all.length };
}

// The rows' properties, once the commit that appended them is in place (one call each: Apps Script deletes one
// property at a time, and rewriting the whole store could drop a row another call has just left).
export function forgetRows(keys: readonly string[]): void {
  if (!keys.length) return;
  propertiesWritten();
  const store = ports().properties;
  for (const k of keys) store.deleteProperty(k);
}

// The count as a drain leaves it: the rows it could not take this time.
export function setWaitingCount(n: number): void {
  ports().cache.put(COUNT_KEY, String(Math.max(0, n)), COUNT_TTL_S);
}
