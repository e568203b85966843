// The small platform services the use cases need (properties, session, triggers) through the ports, so src/app never
// names a service itself.
import { hasOwn } from '../core/json-guard.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { checkPropertySizes } from '../core/property-size.js';
import { markChanged } from './change-stamp.js';
import { forgetGateIfAny } from './gate-cache.js';
import { propertiesWritten, readProperty } from './property-reads.js';
import { ports } from '../ports.js';

// Properties whose writes change nothing GET /status or the sidebar shows: bookkeeping, and the API log's own
// buffer (written by every authenticated call, which must not make every reader read again).
const QUIET: readonly string[] = [
  PROPERTY_KEYS.nudgeAt,
  PROPERTY_KEYS.apiLogDigest,
  PROPERTY_KEYS.dashboardDue,
  PROPERTY_KEYS.dashboardCharts,
  PROPERTY_KEYS.archive,
];

// Any other write moves the change stamp (change-stamp.ts): usage, the API ledger, reviewed stats, keys, clients.
function changed(keys: readonly string[]): void {
  if (keys.some((k) => QUIET.indexOf(k) < 0 && k.indexOf(PROPERTY_KEYS.apiLogInbox) !== 0)) markChanged();
}

// Writes held by props.batch until its work ends, then written in one setProperties call (null: not batching).
let held: Record<string, string> | null = null;

function heldOrRead(key: string): string | null {
  return held && hasOwn(held, key) ? held[key] : readProperty(key);
}

function write(values: Record<string, string>): void {
  propertiesWritten();
  ports().properties.setProperties(values);
  forgetGateIfAny(Object.keys(values));
  changed(Object.keys(values));
}

export const props = {
  get(key: string): string | null {
    return heldOrRead(key);
  },
  json<T>(key: string, fallback: T): T {
    const raw = heldOrRead(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  },
  // Runs `fn`, its props.set calls written together at its end: a commit's usage and API ledger go out in one
  // PropertiesService call and move the change stamp once, not once each. A batch inside a batch joins it.
  batch(fn: () => void): void {
    if (held) {
      fn();
      return;
    }
    held = {};
    try {
      fn();
    } finally {
      const values = held;
      held = null;
      // Each value was checked as it was held (set), or is the store's own state (hold).
      if (Object.keys(values).length) write(values);
    }
  },
  // The store's state after a commit, held for the batch the caller opened around the commit and what it stores
  // after it: the state, the usage and the API ledger go out in one call. False when no batch is open (the caller
  // writes it itself). A death before the batch's end leaves the journal, and the next execution rolls forward.
  hold(key: string, value: string): boolean {
    if (!held) return false;
    held[key] = value;
    return true;
  },
  // A write to the token list or the spreadsheet id also drops the web API's cached gate (gate-cache.ts). A value
  // that would not fit in a property (8,000 B) is refused with Kaigi's own message, and none of `values` is written.
  set(values: Record<string, string>): void {
    checkPropertySizes(values);
    if (held) {
      Object.assign(held, values);
      return;
    }
    write(values);
  },
  remove(key: string): void {
    propertiesWritten();
    ports().properties.deleteProperty(key);
    forgetGateIfAny([key]);
    changed([key]);
  },
};

// The script cache: cheap counters and short-lived values that may vanish at any time (never a record).
export const scriptCache = {
  get(key: string): string | null {
    return ports().cache.get(key);
  },
  put(key: string, value: string, seconds: number): void {
    ports().cache.put(key, value, seconds);
  },
  getAll(keys: string[]): Record<string, string> {
    return ports().cache.getAll(keys);
  },
};

export function uuid(): string {
  return ports().ids.uuid();
}

export function sleep(ms: number): void {
  ports().host.sleep(ms);
}

// Whom this execution runs as: the account that owns the triggers it creates (known with the userinfo.email scope).
export function effectiveUserEmail(): string {
  return ports().host.effectiveUserEmail();
}

// The active user's email as Apps Script shows it: '' when it is hidden (another domain, any installable trigger).
export function activeEmail(): string {
  return ports().host.activeUserEmail();
}

// The bound spreadsheet's owner: null when it has none (a file on a shared drive), '' when Apps Script hides the email.
export function spreadsheetOwnerEmail(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): string | null {
  const owner = ss.getOwner();
  return owner ? owner.getEmail() || '' : null;
}

// Who is acting, for the record (approvals, prompt edits, directives, objections). Apps Script often hides the
// active user's email (consumer accounts, another domain), so then the record says so plainly, with what
// is known — whom the script ran as and the user's temporary key for this script — and never a made-up name.
function actor(): string {
  const email = ports().host.activeUserEmail();
  if (email) return email;
  const known: string[] = [];
  const effective = effectiveUserEmail();
  if (effective) known.push(`effective: ${effective}`);
  const key = ports().host.temporaryActiveUserKey();
  if (key) known.push(`key: ${key}`);
  return known.length ? `unknown (${known.join(', ')})` : 'unknown';
}

// Kept under its old name for the callers that record it as the actor (main.ts, requests.ts): it is actor(), so
// it is never empty and never invents a name.
export function activeUserEmail(): string {
  return actor();
}

// A one-shot trigger for `handler` in `delayMs`, replacing spent ones of the same handler.
export function scheduleOnce(handler: string, delayMs: number, pendingUntil: number): boolean {
  const triggers = ports().triggers;
  const pending = triggers.list().filter((t) => t.handler === handler);
  if (pending.length && pendingUntil > ports().clock.now() - 120000) return false;
  if (pending.length) triggers.remove(pending.map((t) => t.id));
  triggers.create({ handler, kind: 'after', value: delayMs });
  return true;
}
