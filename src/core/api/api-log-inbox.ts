// The API log's inbox as data: an authenticated call's row kept under a Script Property of its own until a tick
// appends it (src/app/api/api-log.ts), how such a key is named, and reading the waiting rows back in the order the calls
// came. Pure: the adapter (src/store/api-log-inbox.ts) reads and writes the properties.

export interface InboxEntry {
  time: number;
  client: string;
  call: string;
  status: number;
  code: string;
  ms: number;
}

export interface Waiting {
  key: string;
  entry: InboxEntry;
  // Set when the stored value could not be read back as an entry: the row says so instead of being dropped.
  unreadable?: string;
}

// A key names its call's time first (base 36, fixed width, so keys sort as times do) and then random letters, so two
// calls in the same millisecond still write two properties and never one over the other.
const TIME_WIDTH = 9;

export function inboxKey(prefix: string, time: number, random: string): string {
  const t = Math.max(0, Math.floor(time)).toString(36);
  return `${prefix}${'0'.repeat(Math.max(0, TIME_WIDTH - t.length))}${t}_${random}`;
}

// What one property holds: the entry as JSON, short field names (a key is written once per call).
export function encodeEntry(e: InboxEntry): string {
  return JSON.stringify({ t: e.time, c: e.client, k: e.call, s: e.status, e: e.code, m: Math.round(e.ms) });
}

function decode(key: string, raw: string): Waiting {
  try {
    const o = JSON.parse(raw) as Record<string, unknown>;
    if (o && typeof o.t === 'number' && typeof o.c === 'string' && typeof o.k === 'string' && typeof o.s === 'number')
      return {
        key,
        entry: {
          time: o.t,
          client: o.c,
          call: o.k,
          status: o.s,
          code: typeof o.e === 'string' ? o.e : '',
          ms: typeof o.m === 'number' ? o.m : 0,
        },
      };
  } catch {
    // Not JSON: reported on the row below like any other value that is not an entry.
  }
  return {
    key,
    entry: { time: timeOfKey(key), client: '', call: 'unknown', status: 0, code: 'unreadable_log_entry', ms: 0 },
    unreadable: raw.slice(0, 80),
  };
}

// The time a key names (0 when it names none), for a row whose value could not be read.
function timeOfKey(key: string): number {
  const m = /([0-9a-z]+)_[0-9a-z]*$/.exec(key);
  const t = m ? Number.parseInt(m[1], 36) : 0;
  return Number.isFinite(t) ? t : 0;
}

// Every waiting row among all the Script Properties, oldest first (ties in key order), at most `limit` of them.
export function waitingRows(all: Record<string, string>, prefix: string, limit = Infinity): Waiting[] {
  const keys = Object.keys(all)
    .filter((k) => k.indexOf(prefix) === 0)
    .sort();
  return keys.slice(0, limit).map((k) => decode(k, all[k]));
}

// Whether any row waits: what an idle tick checks in the properties it already read.
export function anyWaiting(all: Record<string, string>, prefix: string): boolean {
  return Object.keys(all).some((k) => k.indexOf(prefix) === 0);
}
