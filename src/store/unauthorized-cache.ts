// Calls with a missing or bad token, counted in CacheService per minute and per source (the route or tool called),
// so they write no row each: the API log gets one summary row per minute from them (src/app/api/api-log.ts).
// CacheService has no atomic increment, so under truly simultaneous calls a count may come out a little low; it is
// a measure of pressure, not an accounting.

const PENDING = 'kaigi:unauth:pending';
import { ports } from '../ports.js';
const minuteKey = (minute: number) => `kaigi:unauth:m:${minute}`;
// Six hours, CacheService's longest: minutes not written by then are lost, and the log says nothing of them.
const TTL_S = 21600;
// A minute holds at most this many sources; any others are counted under `other`.
const MAX_SOURCES = 40;

export type SourceCounts = [string, number][];

function parseList<T>(raw: string | undefined, fallback: T): T {
  if (!raw) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

// One cache read and one cache write per call, whatever the source.
export function countUnauthorized(source: string, now: number): void {
  const minute = Math.floor(now / 60000);
  const cache = ports().cache;
  const got = cache.getAll([PENDING, minuteKey(minute)]);
  const pending = parseList<number[]>(got[PENDING], []);
  const counts = new Map(parseList<SourceCounts>(got[minuteKey(minute)], []));
  const name = counts.has(source) || counts.size < MAX_SOURCES ? source : 'other';
  counts.set(name, (counts.get(name) ?? 0) + 1);
  const put: Record<string, string> = { [minuteKey(minute)]: JSON.stringify([...counts]) };
  if (pending.indexOf(minute) < 0) put[PENDING] = JSON.stringify(pending.concat([minute]));
  cache.putAll(put, TTL_S);
}

// The counts of every minute that has ended, oldest first (empty when the cache lost them); nothing is forgotten
// until forgetMinutes.
export function endedMinutes(now: number): { minute: number; counts: SourceCounts }[] {
  const current = Math.floor(now / 60000);
  const cache = ports().cache;
  const pending = parseList<number[]>(cache.get(PENDING) ?? undefined, []).filter((m) => m < current);
  if (!pending.length) return [];
  const got = cache.getAll(pending.map(minuteKey));
  return pending
    .sort((a, b) => a - b)
    .map((minute) => ({ minute, counts: parseList<SourceCounts>(got[minuteKey(minute)], []) }));
}

// After their summary rows are stored: those minutes leave the pending list.
export function forgetMinutes(minutes: readonly number[]): void {
  if (!minutes.length) return;
  const cache = ports().cache;
  const pending = parseList<number[]>(cache.get(PENDING) ?? undefined, []);
  cache.put(PENDING, JSON.stringify(pending.filter((m) => minutes.indexOf(m) < 0)), TTL_S);
  cache.removeAll(minutes.map(minuteKey));
}
