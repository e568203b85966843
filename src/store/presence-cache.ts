// Last-seen times of room members and API clients in CacheService: presence costs no Sheets round trip.

const PREFIX = 'kaigi:seen:';
import { ports } from '../ports.js';
// CacheService keeps an entry at most six hours.
const MAX_TTL_S = 21600;

export type SeenKind = 'agent' | 'client';

function keyOf(kind: SeenKind, name: string): string {
  return `${PREFIX}${kind === 'agent' ? 'a' : 'c'}:${name}`;
}

// Records that these names called now; an entry outlives the presence window only by the cache's own rounding.
export function touchSeen(names: { kind: SeenKind; name: string }[], now: number, windowSeconds: number): void {
  if (!names.length) return;
  const put: Record<string, string> = {};
  for (const n of names) put[keyOf(n.kind, n.name)] = String(now);
  ports().cache.putAll(put, Math.max(1, Math.min(MAX_TTL_S, Math.ceil(windowSeconds) + 1)));
}

// When each name last called (ms since the epoch), or null when the cache holds nothing for it; one cache read.
export function lastSeen(names: { kind: SeenKind; name: string }[]): (number | null)[] {
  if (!names.length) return [];
  const keys = names.map((n) => keyOf(n.kind, n.name));
  const hit = ports().cache.getAll(keys);
  return keys.map((k) => {
    const t = Number(hit[k]);
    return hit[k] !== undefined && Number.isFinite(t) ? t : null;
  });
}
