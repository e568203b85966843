// GET /status's cached copy in CacheService, read in the same cache call as the change stamp it must match
// (change-stamp.ts): one cache read answers a status when nothing changed since the copy was taken.
import { STAMP_KEY } from './change-stamp.js';
import { utf8Bytes } from '../core/api/api.js';
import { splitForCache } from './store-format.js';
import { ports } from '../ports.js';

const KEY = 'kaigi:status';
// A copy is kept in parts under CacheService's 100 KB a value (30,000 UTF-16 units are at most 90 KB of UTF-8),
// at most 4 of them; a larger status is simply computed every time.
const PART_UNITS = 30_000;
const MAX_PARTS = 4;
const MAX_PART_BYTES = 100 * 1024;
const NAMES = Array.from({ length: MAX_PARTS }, (_, i) => `${KEY}:${i}`);

// The stamp now (null when the cache lost it) and the copy's text (null when absent or incomplete): one getAll.
export function readStatusCopy(): { stamp: string | null; text: string | null } {
  const hit = ports().cache.getAll([STAMP_KEY].concat(NAMES));
  const stamp = hit[STAMP_KEY] ?? null;
  const head = hit[NAMES[0]];
  if (head === undefined) return { stamp, text: null };
  const bar = head.indexOf('|');
  const count = Number(head.slice(0, bar));
  if (!(count >= 1 && count <= MAX_PARTS) || NAMES.slice(1, count).some((n) => hit[n] === undefined))
    return { stamp, text: null };
  return {
    stamp,
    text:
      head.slice(bar + 1) +
      NAMES.slice(1, count)
        .map((n) => hit[n])
        .join(''),
  };
}

// Keeps the copy for `seconds`; false (nothing kept) when it would not fit.
export function writeStatusCopy(text: string, seconds: number): boolean {
  const parts = splitForCache(text, PART_UNITS);
  if (parts.length > MAX_PARTS) return false;
  const put: Record<string, string> = {};
  parts.forEach((p, i) => {
    put[NAMES[i]] = i === 0 ? `${parts.length}|${p}` : p;
  });
  if (Object.keys(put).some((k) => utf8Bytes(put[k]) > MAX_PART_BYTES)) return false;
  ports().cache.putAll(put, Math.max(1, Math.min(21600, Math.ceil(seconds))));
  return true;
}
