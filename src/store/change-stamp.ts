// The change stamp in CacheService: every commit, and every write of a Script Property that GET /status or the
// sidebar shows, replaces it with a value never used before, so a reader that kept the stamp it last saw can tell
// "nothing changed" with one cache read (a sidebar poll, a cached status), and anything else means "read again".
//
// Why a fresh value and not a counter: CacheService has no atomic increment, so two writers that both read n would
// both write n + 1, and a reader that saw the first n + 1 would take the second for "no change" and miss it. A value
// that never repeats cannot be mistaken for one a reader already saw, whoever wins the race.
//
// Why no Script Property behind it: an evicted or expired stamp reads as missing, and a reader treats missing as
// changed. The one who finds it missing puts a new one first and only then reads, so a commit landing after that
// read replaces the new stamp and is seen at the next look. Nothing is durable because nothing needs to be.

const KEY = 'kaigi:change';
import { ports } from '../ports.js';
// The key, for a reader that fetches the stamp in the same cache call as what it tagged (status-cache.ts).
export const STAMP_KEY = KEY;
// CacheService's longest: an idle workbook's stamp lapses after 6 hours, which costs its readers one full read.
const TTL_S = 21600;

function fresh(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

// While the script lock is held (Store.withLock), the changes a holder makes are stamped once, when it lets the
// lock go: a commit's state write and the usage it stores then cost one cache write, not one each. A reader that
// meanwhile reads the new data under the old stamp only reads again at its next look; none reads old data under a
// new stamp, since the stamp still goes in after every change it covers.
let holding = 0;
let due = false;

// Called after a change is in place (a commit's state written, a property set): readers from now on see it.
export function markChanged(): void {
  if (holding) due = true;
  else ports().cache.put(KEY, fresh(), TTL_S);
}

// Runs `fn` with its stamps held back to one, put when `fn` ends (whether it returned or threw).
export function withOneStamp<T>(fn: () => T): T {
  holding++;
  try {
    return fn();
  } finally {
    holding--;
    if (!holding && due) {
      due = false;
      ports().cache.put(KEY, fresh(), TTL_S);
    }
  }
}

// The stamp as it is now, one cache read; null when the cache lost it (the caller must read in full).
export function peekStamp(): string | null {
  return ports().cache.get(KEY);
}

// A stamp to tag what is read next with: the current one, or a new one put in place of a lost one before the read.
export function stampForRead(seen?: string | null): string {
  const now = seen === undefined ? peekStamp() : seen;
  if (now) return now;
  const made = fresh();
  ports().cache.put(KEY, made, TTL_S);
  return made;
}
