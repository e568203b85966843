// The per-token rate limit: a CacheService counter per token hash and minute, no Sheets round trip.
import { scriptCache } from '../../store/services.js';
import { apiError, type ApiError } from '../../core/api/api.js';
import { ports } from '../../ports.js';

// Long enough to outlive its minute; the key names the minute, so an entry never counts for the next one.
const COUNTER_TTL_S = 120;

// CacheService has no atomic increment: calls of one token side by side read the same count and each write it back
// one higher, so a single counter under a burst of parallel executions loses most of its increments (a load run let
// 180 calls through in under a minute). So the minute's count is spread over BUCKETS counters: a call reads them all
// in one getAll, and adds one to a bucket chosen at random, so only calls that pick the same bucket at the same
// instant lose an increment. The limit is a guard against runaway clients, not an accounting; a lock would cost
// every call far more than it protects.
const BUCKETS = 32;

// Counts this call against its token's minute; the answer to give instead when the token is over its rate.
export function admitCall(tokenHash: string, perMinute: number, now = ports().clock.now()): ApiError | null {
  const minute = Math.floor(now / 60000);
  const prefix = `kaigi:rate:${tokenHash.slice(0, 40)}:${minute}:`;
  const keys: string[] = [];
  for (let i = 0; i < BUCKETS; i++) keys.push(prefix + i);
  const counts = scriptCache.getAll(keys);
  let count = 0;
  for (const k of keys) count += Number(counts[k] || 0);
  if (count >= perMinute) {
    const retry = Math.max(1, Math.ceil(((minute + 1) * 60000 - now) / 1000));
    return apiError(429, 'rate_limited', `More than ${perMinute} calls a minute with this token; retry later.`, {
      retry_after_seconds: retry,
      limit_per_minute: perMinute,
    });
  }
  const bucket = keys[Math.floor(ports().ids.random() * BUCKETS)];
  scriptCache.put(bucket, String(Number(counts[bucket] || 0) + 1), COUNTER_TTL_S);
  return null;
}
